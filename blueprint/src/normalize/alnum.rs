//! Alphanumeric codes ("HE5", "27L", "A320") spelled out, spaced or hyphenated by speech-to-text.

use super::decimals::parse_number;
use super::speech::repair;
use super::value::NumberValue;
use super::vocab::{digit_word, scale_value, teen_value, tens_value};

/// The longest keyed answer treated as a code.
const MAX_CODE_LEN: usize = 16;

/// Number words that may spell the digits of a code ("h e five", "a three twenty").
fn is_number_word(word: &str) -> bool {
    digit_word(word).is_some()
        || teen_value(word).is_some()
        || tens_value(word).is_some()
        || scale_value(word).is_some()
        || matches!(
            word,
            "hundred" | "niner" | "fife" | "fower" | "tree" | "double" | "triple"
        )
}

/// Separators between the pieces of a spoken code: whitespace, hyphens and dashes, dots and
/// commas ("h e 5", "H-E-5", "H.E. 5", "H, E, 5").
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '-' | '.' | ',' | '\u{2010}'..='\u{2015}')
}

/// Whether a keyed answer (in [`super::canonical_text`] form) is an alphanumeric code: one
/// word of ASCII letters, digits and hyphens with at least one letter and one digit, at most
/// [`MAX_CODE_LEN`] characters ("he5", "27l", "a320", "he-5"; not "85 knots" or "2.5").
pub(super) fn is_code_key(canonical: &str) -> bool {
    canonical.len() <= MAX_CODE_LEN
        && canonical
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
        && canonical.chars().any(|c| c.is_ascii_alphabetic())
        && canonical.chars().any(|c| c.is_ascii_digit())
}

/// The compact lowercase form of a code said or typed in pieces: "h e 5", "He-5", "HE5" and
/// "h e five" are all `he5`; "a three twenty" is `a320`; "r zero seven" is `r07`.
///
/// Pieces are split at [`is_separator`]; letter and digit pieces are kept as they are, and a
/// run of number words becomes its digits: digit by digit when every word is a digit (leading
/// zeros kept), otherwise as one whole number. A lone `o`/`oh` is the letter. `None` unless
/// every piece is ASCII alphanumeric or a number word and the result has a letter and a digit.
pub(super) fn compact_code(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let pieces: Vec<&str> = lower
        .split(is_separator)
        .filter(|p| !p.is_empty())
        .collect();
    let mut out = String::new();
    let mut at = 0;
    while let Some(rest @ [piece, ..]) = pieces.get(at..) {
        let run = rest.iter().take_while(|p| is_number_word(p)).count();
        if run > 0 {
            out.push_str(&run_digits(rest.get(..run)?)?);
            at += run;
        } else if piece.chars().all(|c| c.is_ascii_alphanumeric()) {
            out.push_str(piece);
            at += 1;
        } else {
            return None;
        }
    }
    let letter = out.chars().any(|c| c.is_ascii_alphabetic());
    let digit = out.chars().any(|c| c.is_ascii_digit());
    (letter && digit).then_some(out)
}

/// The digits of a run of number words (see [`compact_code`]).
fn run_digits(words: &[&str]) -> Option<String> {
    if let [letter @ ("o" | "oh")] = words {
        return Some((*letter).to_string());
    }
    let repaired = repair(&words.join(" "));
    let spoken: Vec<&str> = repaired.split_whitespace().collect();
    let digits: Option<String> = spoken
        .iter()
        .map(|w| digit_word(w).map(|d| d.to_string()))
        .collect();
    if let Some(digits) = digits {
        return Some(digits);
    }
    match parse_number(&repaired)? {
        NumberValue::Int(value) if value >= 0 => Some(value.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<&str>) {
        assert_eq!(compact_code(input).as_deref(), expected, "input: {input:?}");
    }

    const CASES: &[(&str, Option<&str>)] = &[
        ("HE5", Some("he5")),
        ("he5", Some("he5")),
        ("h e 5", Some("he5")),
        ("H E 5", Some("he5")),
        ("He-5", Some("he5")),
        ("H-E-5", Some("he5")),
        ("H.E. 5", Some("he5")),
        ("H, E, 5", Some("he5")),
        ("he 5", Some("he5")),
        ("h e five", Some("he5")),
        ("h e fife", Some("he5")),
        ("h e fifteen", Some("he15")),
        ("a three twenty", Some("a320")),
        ("a 3 2 0", Some("a320")),
        ("a three two zero", Some("a320")),
        ("r zero seven", Some("r07")),
        ("two seven l", Some("27l")),
        ("27 L", Some("27l")),
        ("b double seven", Some("b77")),
        ("h o 5", Some("ho5")),
        ("one oh five x", Some("105x")),
        ("hotel echo 5", Some("hotelecho5")),
        ("he is 5", Some("heis5")),
        ("h e", None),
        ("5 5", None),
        ("five", None),
        ("h e tree", None),
        ("h e five percent", Some("he5percent")),
        ("h/e 5", None),
        ("h e 5!", None),
        ("h e 5%", None),
        ("\u{e9} 5", None),
        ("", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }

    #[test]
    fn code_keys() {
        for key in ["he5", "27l", "a320", "he-5", "ipv4", "b737"] {
            assert!(is_code_key(key), "{key:?} is a code");
        }
        for key in [
            "85",
            "class b",
            "85 knots",
            "2.5",
            "abc",
            "192.168.1.0",
            "",
            "-",
        ] {
            assert!(!is_code_key(key), "{key:?} is not a code");
        }
        assert!(!is_code_key("a12345678901234567"));
    }
}
