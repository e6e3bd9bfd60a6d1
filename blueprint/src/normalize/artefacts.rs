//! Whole numbers as small speech models mis-write them, read only when a number is expected
//! and the plain reading failed. Measured with whisper tiny.en on festival speech:
//! - a tens word becomes its digit and a letter: "forty four" → "4t4", "4g2", "4 G7";
//! - "eighty" becomes "H" or "HE": "six hundred eighty" → "600H", "eighty five" → "HE5";
//! - "one thousand four" loses its zeros: "1,04".
//!
//! "eighty" written as a word before a unit ("AT8", "at 8", "Itchy 5.75") is read for spoken
//! answers only, by [`super::lettered`].

/// The digits of `text` when it is one whole number written with these artefacts; `None`
/// when it has anything else (other letters, several numbers, no artefact at all).
pub(super) fn repair_number_artefacts(text: &str) -> Option<String> {
    let compact: String = text
        .trim()
        .trim_end_matches(['.', '!', '?'])
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    let digits = read_tens_letters(&compact)?;
    let digits = pad_short_groups(&digits)?;
    let repaired = digits != compact && !digits.is_empty();
    (repaired && digits.chars().all(|c| c.is_ascii_digit())).then_some(digits)
}

/// Replaces the tens letters: `t`/`g` after a digit 2–9 make that digit the tens digit
/// ("4t4" → "44", "4t" → "40"); `h` or `he` is eighty ("600h" → "680", "he5" → "85").
/// Commas are kept for [`pad_short_groups`].
fn read_tens_letters(compact: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = compact.chars().peekable();
    while let Some(c) = chars.next() {
        let next_is_digit = chars.peek().is_some_and(char::is_ascii_digit);
        match c {
            '0'..='9' | ',' => out.push(c),
            't' | 'g' if out.ends_with(['2', '3', '4', '5', '6', '7', '8', '9']) => {
                if !next_is_digit {
                    out.push('0');
                }
            }
            'h' => {
                if chars.peek() == Some(&'e') {
                    chars.next();
                }
                let next_is_digit = chars.peek().is_some_and(char::is_ascii_digit);
                push_eighty(&mut out, next_is_digit);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Eighty after hundreds ("600" → "68…") or alone ("8…"); a zero closes it unless a unit digit
/// follows.
fn push_eighty(out: &mut String, unit_follows: bool) {
    if out.ends_with("00") {
        out.truncate(out.len() - 2);
    }
    out.push('8');
    if !unit_follows {
        out.push('0');
    }
}

/// Joins comma groups, left-padding a group shorter than three digits with zeros
/// ("1,04" → "1004", "3,310" → "3310"); `None` for an empty or over-long group.
fn pad_short_groups(digits: &str) -> Option<String> {
    let mut groups = digits.split(',');
    let mut out = groups.next()?.to_owned();
    for group in groups {
        if group.is_empty() || group.len() > 3 {
            return None;
        }
        out.push_str(&format!("{group:0>3}"));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misheard_numbers_are_read_back() {
        let cases = [
            ("4t4", Some("44")),
            ("4g2.", Some("42")),
            ("4 G7", Some("47")),
            ("4t5", Some("45")),
            ("9t", Some("90")),
            ("600H", Some("680")),
            ("600 he 5", Some("685")),
            ("HE5", Some("85")),
            ("h", Some("80")),
            ("1,04", Some("1004")),
            ("2,5", Some("2005")),
            ("3,310", Some("3310")),
        ];
        for (text, expected) in cases {
            assert_eq!(
                repair_number_artefacts(text).as_deref(),
                expected,
                "{text:?}"
            );
        }
    }

    #[test]
    fn anything_else_is_left_alone() {
        for text in [
            "85", "A-Gene", "hello", "1t", "t4", "4,", "1,0000", "", "4.5", "four",
        ] {
            assert_eq!(repair_number_artefacts(text), None, "{text:?}");
        }
    }
}
