//! Quoting client input in error messages: at most [`MAX_EXCERPT_CHARS`] characters of it,
//! so a 15 KB `type` does not come back as a 15 KB `error`.

use std::borrow::Cow;

/// The most characters of client input an error message quotes.
pub const MAX_EXCERPT_CHARS: usize = 64;
/// The longest message kept from a decoder's own error (serde's), quotes already shortened.
pub const MAX_DETAIL_CHARS: usize = 200;

/// `input` cut to [`MAX_EXCERPT_CHARS`] characters, on a character boundary, with `…`
/// when something was cut.
pub fn excerpt(input: &str) -> Cow<'_, str> {
    cut(input, MAX_EXCERPT_CHARS)
}

/// The longest `error` message the server sends, in characters: a backstop under
/// [`quoted`], which every message quoting client input uses.
pub const MAX_ERROR_MESSAGE_CHARS: usize = 400;

/// `input` as an error message quotes it: in double quotes, escaped, and cut to
/// [`MAX_EXCERPT_CHARS`] characters (with `…` when cut). Every message that names something
/// a client sent (an id, a value) quotes it through this.
pub fn quoted(input: &str) -> String {
    format!("{:?}", excerpt(input))
}

/// An `error` message cut to [`MAX_ERROR_MESSAGE_CHARS`].
pub fn bounded_message(message: String) -> String {
    match cut(&message, MAX_ERROR_MESSAGE_CHARS) {
        Cow::Borrowed(_) => message,
        Cow::Owned(cut) => cut,
    }
}

/// A decoder's error text with every quoted run (between backticks or double quotes, where
/// serde puts the client's values and names) cut to [`MAX_EXCERPT_CHARS`], and the whole
/// cut to [`MAX_DETAIL_CHARS`] in case a quote could not be told apart.
pub fn shorten_quotes(detail: &str) -> String {
    let mut out = String::with_capacity(detail.len().min(MAX_DETAIL_CHARS + 8));
    let mut rest = detail;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = &rest[open..=open];
        out.push_str(&rest[..=open]);
        let inside = &rest[open + 1..];
        let close = closing_quote(inside, quote);
        let Some(close) = close else {
            out.push_str(&excerpt(inside));
            rest = "";
            break;
        };
        out.push_str(&excerpt(&inside[..close]));
        out.push_str(quote);
        rest = &inside[close + 1..];
    }
    out.push_str(rest);
    cut(&out, MAX_DETAIL_CHARS).into_owned()
}

/// Where `quote` closes `inside`; a backslash escapes the next character inside `"`.
fn closing_quote(inside: &str, quote: &str) -> Option<usize> {
    let mut escaped = false;
    for (at, ch) in inside.char_indices() {
        match ch {
            '\\' if quote == "\"" && !escaped => escaped = true,
            _ if !escaped && quote.starts_with(ch) => return Some(at),
            _ => escaped = false,
        }
    }
    None
}

fn cut(text: &str, max_chars: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max_chars) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}…", &text[..end])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &str) {
        assert_eq!(shorten_quotes(input), expected, "{input}");
    }

    #[test]
    fn excerpts_cut_on_a_character_boundary() {
        assert_eq!(excerpt("launch"), "launch");
        let exact = "x".repeat(MAX_EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact.as_str());
        let long = "é".repeat(MAX_EXCERPT_CHARS + 1);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), MAX_EXCERPT_CHARS + 1);
        assert!(cut.ends_with("é…"), "{cut}");
    }

    #[test]
    fn client_input_is_quoted_escaped_and_cut() {
        let cases = [
            ("ARITHMETIC".to_owned(), "\"ARITHMETIC\"".to_owned()),
            ("a\"b\n".to_owned(), "\"a\\\"b\\n\"".to_owned()),
            (
                "x".repeat(15_000),
                format!("\"{}…\"", "x".repeat(MAX_EXCERPT_CHARS)),
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(quoted(&input), expected);
        }
    }

    #[test]
    fn error_messages_are_bounded() {
        let short = "no such session".to_owned();
        assert_eq!(bounded_message(short.clone()), short);
        let long = "m".repeat(5_000);
        let bounded = bounded_message(long);
        assert_eq!(bounded.chars().count(), MAX_ERROR_MESSAGE_CHARS + 1);
        assert!(bounded.ends_with('…'));
    }

    #[test]
    fn quoted_runs_are_shortened_and_the_rest_kept() {
        let long = "a".repeat(1000);
        let short = format!("{}…", "a".repeat(MAX_EXCERPT_CHARS));
        check("missing field `text`", "missing field `text`");
        check(
            &format!("unknown variant `{long}`, expected one of `exam`, `tutor`"),
            &format!("unknown variant `{short}`, expected one of `exam`, `tutor`"),
        );
        check(
            &format!("invalid type: string \"{long}\", expected u32"),
            &format!("invalid type: string \"{short}\", expected u32"),
        );
        check(
            &format!("invalid type: string \"a\\\"{long}\", expected u32"),
            &format!(
                "invalid type: string \"a\\\"{}…\", expected u32",
                "a".repeat(61)
            ),
        );
        check(
            &format!("unterminated `{long}"),
            &format!("unterminated `{short}"),
        );
    }

    #[test]
    fn the_whole_detail_is_bounded() {
        let tricky = format!("unknown variant `a`{}`, expected", "b".repeat(5000));
        let shortened = shorten_quotes(&tricky);
        assert!(
            shortened.chars().count() <= MAX_DETAIL_CHARS + 1,
            "{shortened}"
        );
    }
}
