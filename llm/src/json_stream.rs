//! Reading a JSON reply while it streams in: the words of one string field, piece by piece,
//! so a client is shown the words and not the JSON around them, and the complete value of a
//! field that came before it (the model tutor streams its text only once its action and
//! target have been written and checked).

/// The text of one string field of a JSON reply as it streams in: fed the reply piece by
/// piece, it gives back the newly decoded part of the field each time.
#[derive(Debug)]
pub struct FieldStream {
    key: &'static str,
    raw: String,
    shown: usize,
}

impl FieldStream {
    /// A stream of the string field `key`.
    pub fn new(key: &'static str) -> FieldStream {
        FieldStream {
            key,
            raw: String::new(),
            shown: 0,
        }
    }

    /// Adds a piece of the reply; returns the field's text it completes (may be empty).
    pub fn feed(&mut self, piece: &str) -> String {
        self.push(piece);
        self.take_new()
    }

    /// Adds a piece of the reply without taking its text: what it holds is returned by the
    /// next [`FieldStream::take_new`] or [`FieldStream::feed`].
    pub fn push(&mut self, piece: &str) {
        self.raw.push_str(piece);
    }

    /// The field's text decoded since it was last taken.
    pub fn take_new(&mut self) -> String {
        let text = self.text();
        let new: String = text.chars().skip(self.shown).collect();
        self.shown += new.chars().count();
        new
    }

    /// The field's text decoded so far.
    pub fn text(&self) -> String {
        value_start(&self.raw, self.key).map_or_else(String::new, |body| decode_prefix(body).0)
    }

    /// The reply received so far.
    pub fn raw(&self) -> &str {
        &self.raw
    }
}

/// The value of the string field `key` in `raw`, once its closing quote has arrived.
pub fn complete_value(raw: &str, key: &str) -> Option<String> {
    match decode_prefix(value_start(raw, key)?) {
        (value, true) => Some(value),
        (_, false) => None,
    }
}

/// What follows `"key"`, the colon and the opening quote of its string value.
fn value_start<'a>(raw: &'a str, key: &str) -> Option<&'a str> {
    let quoted = format!("\"{key}\"");
    let after_key = &raw[raw.find(&quoted)? + quoted.len()..];
    let after_colon = after_key.trim_start().strip_prefix(':')?;
    after_colon.trim_start().strip_prefix('"')
}

/// The decoded characters of a JSON string body up to its closing quote or to the end of
/// what has arrived (an escape cut in half waits for its other half), and whether the
/// closing quote was reached.
fn decode_prefix(body: &str) -> (String, bool) {
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return (out, true),
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        Some(decoded) if hex.len() == 4 => out.push(decoded),
                        _ => break,
                    }
                }
                Some(other) => out.push(other),
                None => break,
            },
            other => out.push(other),
        }
    }
    (out, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_field_shows_its_words_not_its_json() {
        let reply = r#"{ "question" : "Say \"when\", then\u0020why?" }"#;
        let mut stream = FieldStream::new("question");
        let shown: Vec<String> = reply
            .as_bytes()
            .chunks(3)
            .map(|piece| stream.feed(std::str::from_utf8(piece).unwrap()))
            .collect();
        assert_eq!(shown.concat(), "Say \"when\", then why?");
        assert_eq!(stream.text(), "Say \"when\", then why?");
        assert!(shown.iter().filter(|piece| !piece.is_empty()).count() > 3);
        assert_eq!(FieldStream::new("question").feed(r#"{"quest"#), "");
    }

    #[test]
    fn text_held_back_is_given_in_one_piece_when_taken() {
        let mut stream = FieldStream::new("text");
        stream.push(r#"{"text": "Make "#);
        stream.push("ten");
        assert_eq!(stream.take_new(), "Make ten");
        assert_eq!(stream.feed(r" first\"), " first", "half an escape waits");
        assert_eq!(stream.feed(r#"n""#), "\n");
    }

    #[test]
    fn a_value_is_complete_only_with_its_closing_quote() {
        assert_eq!(complete_value(r#"{"action": "dri"#, "action"), None);
        assert_eq!(
            complete_value(r#"{"action": "drill", "te"#, "action").as_deref(),
            Some("drill")
        );
        assert_eq!(complete_value(r#"{"text": "x"}"#, "action"), None);
        assert_eq!(
            complete_value(r#"{"a": "say \"hi\""}"#, "a").as_deref(),
            Some("say \"hi\"")
        );
    }
}
