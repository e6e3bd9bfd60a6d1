//! Canonical free-text form used for text answers and for comparing them.

/// Canonical form of a free-text answer.
///
/// Lowercases, turns curly apostrophes into `'`, trims, collapses inner whitespace to single
/// spaces and strips surrounding sentence punctuation: trailing `. , ; : ! ? …` and quotes,
/// leading `, ; : ! ? …`, quotes and dots (a leading dot before a digit is kept, ".5").
/// Brackets, hyphens and inner punctuation are kept: "Class-B" stays distinct from "Class B".
pub fn canonical_text(text: &str) -> String {
    let lower = text.to_lowercase().replace(['\u{2018}', '\u{2019}'], "'");
    let collapsed = lower.split_whitespace().collect::<Vec<_>>().join(" ");
    trim_edges(&collapsed).to_string()
}

/// Strips sentence punctuation and whitespace from both ends (see [`canonical_text`]).
pub(super) fn trim_edges(text: &str) -> &str {
    let mut t = text.trim_end_matches(is_trailing_punct);
    loop {
        let trimmed = t.trim_start_matches(is_leading_punct);
        match trimmed.strip_prefix('.') {
            Some(rest) if !rest.starts_with(|c: char| c.is_ascii_digit()) => t = rest,
            _ => return trimmed,
        }
    }
}

fn is_trailing_punct(c: char) -> bool {
    c == '.' || is_leading_punct(c)
}

fn is_leading_punct(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            ',' | ';' | ':' | '!' | '?' | '"' | '\'' | '\u{201c}' | '\u{201d}' | '\u{2026}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &str) {
        assert_eq!(canonical_text(input), expected, "input: {input:?}");
    }

    const CASES: &[(&str, &str)] = &[
        ("", ""),
        ("   ", ""),
        ("Class B airspace", "class b airspace"),
        ("  Class   B\tairspace. ", "class b airspace"),
        ("CLASS B AIRSPACE!!!", "class b airspace"),
        ("class b airspace?", "class b airspace"),
        ("class b airspace\u{2026}", "class b airspace"),
        ("\"Class B\"", "class b"),
        ("\u{201c}Class B\u{201d}.", "class b"),
        ("'class b'", "class b"),
        ("Class-B airspace", "class-b airspace"),
        ("it\u{2019}s fine", "it's fine"),
        ("Hello, world.", "hello, world"),
        ("e.g. this", "e.g. this"),
        ("...and then", "and then"),
        (", leading comma", "leading comma"),
        (".5", ".5"),
        ("(b)", "(b)"),
        ("b)", "b)"),
        ("line\nbreak", "line break"),
        ("Stra\u{df}e", "stra\u{df}e"),
        ("\u{c9}COLE", "\u{e9}cole"),
        ("?!", ""),
        ("a . b .", "a . b"),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
