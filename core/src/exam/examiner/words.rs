//! Splitting text into words: lowercase letters and digits, with their byte spans.

/// One word of a text: lowercase, apostrophes dropped, with its byte span in the text.
pub(super) struct Token {
    pub(super) text: String,
    pub(super) start: usize,
    pub(super) end: usize,
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2018}' | '\u{2019}')
}

/// Splits text into tokens with their spans; the rules are those of [`tokenize`].
pub(super) fn scan_tokens(text: &str) -> Vec<Token> {
    // A digit is one byte in UTF-8, and no other character has a byte that looks like one.
    let bytes = text.as_bytes();
    let is_digit_at = |at: Option<usize>| {
        at.and_then(|at| bytes.get(at))
            .is_some_and(u8::is_ascii_digit)
    };
    let mut tokens = Vec::new();
    let mut current: Option<Token> = None;
    for (offset, c) in text.char_indices() {
        let decimal_point =
            c == '.' && is_digit_at(offset.checked_sub(1)) && is_digit_at(Some(offset + 1));
        if c.is_alphanumeric() || decimal_point {
            let token = current.get_or_insert_with(|| Token {
                text: String::with_capacity(12),
                start: offset,
                end: offset,
            });
            match c.is_ascii() {
                true => token.text.push(c.to_ascii_lowercase()),
                false => token.text.extend(c.to_lowercase()),
            }
            token.end = offset + c.len_utf8();
        } else if is_apostrophe(c) && current.is_some() {
            continue;
        } else if let Some(token) = current.take() {
            tokens.push(token);
        }
    }
    tokens.extend(current);
    tokens
}

/// Lowercase words of letters and digits. A dot between digits stays (`61.57`); apostrophes
/// inside a word are dropped (`pilot's` -> `pilots`); any other character splits words.
pub fn tokenize(text: &str) -> Vec<String> {
    scan_tokens(text)
        .into_iter()
        .map(|token| token.text)
        .collect()
}
