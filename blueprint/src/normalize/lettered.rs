//! Letters that speech recognition writes inside a spoken number or address octet, read back
//! only for spoken answers, when a number or an address is expected and the plain reading
//! failed (typed answers never come here). Measured with whisper tiny.en and base:
//! - "eighty" before a unit becomes a homophone ([`EIGHTY_HOMOPHONES`]): "AT8", "at 8" (88),
//!   "it G 5.75", "Itchy 5.75", "Ichi 5.75" (85.75), "ii 6.75", "it's e6.75" (86.75), "hey 5"
//!   (85); in an octet too: "124.204.at2.0", "124.204.aq2.0", "1.h2.20.0" (82),
//!   "e5.14.60.255", "Itchifive.14.60.255" (85);
//! - the "-ty" of a tens word becomes a letter between an octet's tens and unit digits:
//!   "109.13d5.0.0" (135), "1.8e2.20.0" (82).

use super::decimals::parse_number;
use super::value::NumberValue;
use super::vocab::unit_value;

/// What speech recognition writes for "eighty" before a unit. Only the measured forms: each
/// is a reading of "eighty" only when a unit digit follows and a number is expected.
const EIGHTY_HOMOPHONES: &[&str] = &[
    "it g", "itchy", "itchi", "ich e", "ichi", "a t", "hey", "ate", "at", "aq", "he", "ii", "h",
    "e",
];

/// Letters left between the tens and the unit digit of an octet by the "-ty" of its tens word
/// ("13d5" for "one thirty five", "8e2" for "eighty two").
const TENS_LETTERS: [char; 4] = ['t', 'd', 'g', 'e'];

/// 81..=89, or 81.x..=89.x, written as a homophone of "eighty" then the unit, glued, spaced
/// or hyphenated ("AT8" -> 88, "at 8" -> 88, "ate-3" -> 83, "it G 5.75" -> 85.75,
/// "ii 6.75" -> 86.75, "itchy five" -> 85), when `text` is that and nothing else.
pub(super) fn eighty_homophone(text: &str) -> Option<NumberValue> {
    let said = text.trim().trim_end_matches(['.', '!', '?']).to_lowercase();
    parse_number(&eighty_digits(&said)?)
}

/// `text` with every group between dots that speech recognition wrote with letters rewritten
/// as the octet it stands for: "eighty" as a homophone then a unit ("at2", "h2", "e5",
/// "itchifive" -> "82", "82", "85", "85"), or a tens letter ("13d5" -> "135", "8e2" -> "82").
/// `None` when no group has letters, or when one has letters that are none of these (a
/// lead-in, a word): the caller reads the rest as an address, or not at all.
pub(super) fn unletter_octets(text: &str) -> Option<String> {
    let mut changed = false;
    let mut groups = Vec::new();
    for group in text.split('.') {
        let word = group.trim();
        if !word.chars().any(|c| c.is_ascii_alphabetic()) {
            groups.push(group.to_owned());
            continue;
        }
        let digits = eighty_octet(word).or_else(|| tens_letter_octet(word))?;
        groups.push(digits);
        changed = true;
    }
    changed.then(|| groups.join("."))
}

/// "8" and the unit after a homophone of "eighty" at the start of lowercase `said`, when the
/// rest is one unit: a digit 1..=9 with an optional typed fraction, or a unit word spaced or
/// hyphenated from the homophone or glued to one of three letters or more ("itchifive"; never
/// "atone" or "hone").
fn eighty_digits(said: &str) -> Option<String> {
    EIGHTY_HOMOPHONES.iter().find_map(|homophone| {
        let rest = said.strip_prefix(homophone)?;
        let unit = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '-');
        let word_ok = unit.len() < rest.len() || homophone.len() >= 3;
        let unit = typed_unit(unit).or_else(|| {
            let value = unit_value(unit).filter(|_| word_ok)?;
            Some(value.to_string())
        })?;
        Some(format!("8{unit}"))
    })
}

/// A typed unit digit 1..=9, with an optional fraction ("5", "5.75").
fn typed_unit(unit: &str) -> Option<String> {
    let (digit, fraction) = unit.split_at_checked(1)?;
    let digit_ok = matches!(digit.as_bytes(), [b'1'..=b'9']);
    let fraction_ok = fraction.is_empty()
        || fraction
            .strip_prefix('.')
            .is_some_and(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    (digit_ok && fraction_ok).then(|| unit.to_owned())
}

/// An octet written as a homophone of "eighty" and a unit: "at2" -> "82".
fn eighty_octet(word: &str) -> Option<String> {
    eighty_digits(word).filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// An octet with a tens letter ([`TENS_LETTERS`]) between a tens digit 2..=9 and a unit digit
/// 1..=9: "13d5" -> "135", "8e2" -> "82".
fn tens_letter_octet(word: &str) -> Option<String> {
    let at = word.find(|c: char| !c.is_ascii_digit())?;
    let (head, rest) = word.split_at(at);
    let mut rest = rest.chars();
    let letter = rest.next()?;
    let unit = rest.as_str();
    let tens_ok = matches!(head.as_bytes(), [.., b'2'..=b'9']) && head.len() <= 2;
    let unit_ok = matches!(unit.as_bytes(), [b'1'..=b'9']);
    (tens_ok && unit_ok && TENS_LETTERS.contains(&letter)).then(|| format!("{head}{unit}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eighty_homophones_before_a_unit() {
        let cases = [
            ("AT8", Some("88")),
            ("at8.", Some("88")),
            ("ate3", Some("83")),
            ("At-1", Some("81")),
            ("AT 8", Some("88")),
            ("at 8", Some("88")),
            ("a t 8", Some("88")),
            ("it G 5.75", Some("85.75")),
            ("Itchy 5.75.", Some("85.75")),
            ("Ichi 5.75.", Some("85.75")),
            ("Ichi 6.75.", Some("86.75")),
            ("Ich E 5.75.", Some("85.75")),
            ("ii 6.75", Some("86.75")),
            ("e6.75", Some("86.75")),
            ("hey 5", Some("85")),
            ("he 5.5", Some("85.5")),
            ("h 2.50", Some("82.5")),
            ("itchy five", Some("85")),
            ("itchifive", Some("85")),
            ("at five", Some("85")),
            ("atone", None),
            ("hone", None),
            ("eone", None),
            ("AT0", None),
            ("AT", None),
            ("AT88", None),
            ("at 8 5", None),
            ("at 8.", Some("88")),
            ("at 8.x", None),
            ("at .5", None),
            ("at 85.75", None),
            ("e 56", None),
            ("bat8", None),
            ("8AT", None),
            ("the value at 8", None),
            ("not at 8", None),
            ("i.e. 6.75", None),
            ("itchy", None),
            ("", None),
        ];
        for (text, expected) in cases {
            let actual = eighty_homophone(text).map(|v| v.to_string());
            assert_eq!(actual.as_deref(), expected, "{text:?}");
        }
    }

    #[test]
    fn octets_with_letters_are_read_back() {
        let cases = [
            ("124.204.at2.0.", Some("124.204.82.0.")),
            ("124.204. at2.0.", Some("124.204.82.0.")),
            ("124.204.aq2.0", Some("124.204.82.0")),
            ("1.h2.20.0.", Some("1.82.20.0.")),
            ("e5.14.60.255.", Some("85.14.60.255.")),
            ("itchifive.14.60.255.255.", Some("85.14.60.255.255.")),
            ("109.13d5.0.0", Some("109.135.0.0")),
            ("1.8e2.20.0.", Some("1.82.20.0.")),
            ("124.204.at3.0", Some("124.204.83.0")),
            ("124.204.82.0", None),
            ("124.204.at.0", None),
            ("124.204.at20.0", None),
            ("124.204.8.2q", None),
            ("33.261.154.24q", None),
            ("109.1d5.0.0", None),
            ("109.13d0.0.0", None),
            ("109.135d5.0.0", None),
            ("the network addresses 1.h2.20.0.", None),
            ("one twenty four dot two oh four", None),
            ("a b 5.14.06.0255", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(unletter_octets(text).as_deref(), expected, "{text:?}");
        }
    }
}
