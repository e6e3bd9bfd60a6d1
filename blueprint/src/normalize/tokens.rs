//! Word tokenisation shared by the number, address, prefix and option parsers.

/// Splits `text` into lowercase word tokens.
///
/// * Hyphens and dashes between words become spaces ("eighty-five" -> `eighty five`); a
///   hyphen (or U+2212 minus) directly before a digit or a dot that does not follow a letter or
///   digit is kept as a minus sign ("-7", "-.5").
/// * Commas are kept only between two digits ("1,200"); other commas, semicolons, colons,
///   `!`, `?`, quotes, brackets and ellipses separate tokens.
/// * Curly apostrophes become `'`; apostrophes and dots at the end of a token are dropped
///   ("b." -> `b`), a leading dot is kept only before a digit (".5").
pub(super) fn tokenize(text: &str) -> Vec<String> {
    prepare(text)
        .split_whitespace()
        .filter_map(clean_token)
        .collect()
}

/// Lowercases and rewrites punctuation character by character, looking at both neighbours.
fn prepare(text: &str) -> String {
    let lower = text.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut prev = None;
    let mut chars = lower.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(map_char(c, prev, chars.peek().copied()));
        prev = Some(c);
    }
    out
}

/// Maps one character given its neighbours (see [`tokenize`]).
fn map_char(c: char, prev: Option<char>, next: Option<char>) -> char {
    let digit = |x: Option<char>| x.is_some_and(|x| x.is_ascii_digit());
    let sign_follows = digit(next) || next == Some('.');
    match c {
        '\u{2018}' | '\u{2019}' => '\'',
        ',' if digit(prev) && digit(next) => ',',
        '-' | '\u{2212}' if sign_follows && !prev.is_some_and(char::is_alphanumeric) => '-',
        c if is_separator(c) => ' ',
        c => c,
    }
}

/// Punctuation that always separates tokens (after the special cases of [`map_char`]).
fn is_separator(c: char) -> bool {
    matches!(
        c,
        ',' | ';'
            | ':'
            | '!'
            | '?'
            | '"'
            | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '-'
            | '_'
            | '*'
            | '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{201c}' | '\u{201d}' | '\u{2026}'
    )
}

/// Trims token-edge dots and apostrophes; returns `None` for tokens that become empty.
fn clean_token(token: &str) -> Option<String> {
    let mut t = token.trim_end_matches(['.', '\'']).trim_start_matches('\'');
    while let Some(rest) = t.strip_prefix('.') {
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            break;
        }
        t = rest;
    }
    (!t.is_empty()).then(|| t.to_string())
}

/// Borrows a token list as string slices, the form the slice-pattern parsers work on.
pub(super) fn as_strs(tokens: &[String]) -> Vec<&str> {
    tokens.iter().map(String::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &[&str]) {
        assert_eq!(tokenize(input), expected, "input: {input:?}");
    }

    const CASES: &[(&str, &[&str])] = &[
        ("", &[]),
        ("   ", &[]),
        ("Eighty-Five", &["eighty", "five"]),
        ("eighty\u{2011}five", &["eighty", "five"]),
        ("twenty\u{2013}six", &["twenty", "six"]),
        ("1,200", &["1,200"]),
        ("one, two, three", &["one", "two", "three"]),
        ("1, 2", &["1", "2"]),
        ("-7", &["-7"]),
        ("minus-7", &["minus", "7"]),
        ("\u{2212}7", &["-7"]),
        ("-.5", &["-.5"]),
        ("192-168", &["192", "168"]),
        ("2.5", &["2.5"]),
        (".5", &[".5"]),
        ("b.", &["b"]),
        ("...b", &["b"]),
        ("(b)", &["b"]),
        ("b)", &["b"]),
        ("[C]", &["c"]),
        ("answer: B!", &["answer", "b"]),
        ("it\u{2019}s", &["it's"]),
        ("'b'", &["b"]),
        ("\u{201c}B\u{201d}", &["b"]),
        ("192.168.1.0.", &["192.168.1.0"]),
        ("one\u{2026}two", &["one", "two"]),
        ("/26", &["/26"]),
        ("  Option   B  ", &["option", "b"]),
        ("- 5", &["5"]),
        ("x-5", &["x", "5"]),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
