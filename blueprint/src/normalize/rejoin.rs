//! Numbers that speech recognition wrote in pieces, joined back when a number is expected and
//! the plain reading failed: "8200 and 6" (8206), "7,500 20" (7520), "60 2" (62), "30 2766"
//! (32766), "60 2. 5" (62.5).

use super::decimals::{fraction_digits, parse_number};
use super::tokens::{as_strs, tokenize};
use super::value::NumberValue;
use super::vocab::{digits_value, tens_value, unit_value};

/// The most words [`join_bare`] tries to cut in two ("seven thousand five hundred 20" has
/// five); longer answers are not one number said in two parts.
const MAX_BARE_WORDS: usize = 12;

/// "X and Y" as X + Y, when X is a whole number, "and" is the only one, and
/// 0 < Y < 10^(trailing zeros of X): "8200 and 6" = 8206, "45,700 and 47" = 45747, but
/// "8200 and 206" and "8200 and 60 6" are not read.
pub(super) fn join_and(text: &str) -> Option<i64> {
    let tokens = tokenize(text);
    let words = as_strs(&tokens);
    let at = words.iter().position(|w| *w == "and")?;
    let (left, right) = (words.get(..at)?, words.get(at + 1..)?);
    if right.contains(&"and") {
        return None;
    }
    join_sum(left, right, 1)
}

/// "X Y" or "X-Y" without "and" as X + Y, when X is a whole number with k >= 2 trailing zeros
/// and 0 < Y < 10^k, at exactly one place: "7,500 20" = 7520, "7,500-20" = 7520,
/// "45,700 47" = 45747, but "7,500 600" and "60 2" (one zero; see [`join_tens_units`]) are
/// not read.
pub(super) fn join_bare(text: &str) -> Option<i64> {
    let tokens = tokenize(text);
    let words = as_strs(&tokens);
    if words.contains(&"and") || words.len() > MAX_BARE_WORDS {
        return None;
    }
    let mut sums =
        (1..words.len()).filter_map(|at| join_sum(words.get(..at)?, words.get(at..)?, 2));
    let sum = sums.next()?;
    sums.next().is_none().then_some(sum)
}

/// `left` + `right` when `left` is a whole number with at least `min_zeros` trailing zeros
/// and 0 < `right` < 10^(its trailing zeros).
fn join_sum(left: &[&str], right: &[&str], min_zeros: u32) -> Option<i64> {
    let whole = whole_number(left).filter(|w| *w > 0)?;
    let tail = whole_number(right).filter(|t| *t > 0)?;
    let zeros = trailing_zeros(whole);
    let limit = 10i64.checked_pow(zeros)?;
    (zeros >= min_zeros && tail < limit)
        .then(|| whole.checked_add(tail))
        .flatten()
}

/// A tens number and a unit said apart, the whole answer: "60 2" = 62, "sixty 2" = 62.
pub(super) fn join_tens_units(text: &str) -> Option<i64> {
    let tokens = tokenize(text);
    tens_units(&as_strs(&tokens))
}

/// A tens word and a four-digit number said as one number, the whole answer: "30 2766" is
/// "thirty two thousand seven hundred and sixty six" (32766), the unit of the thousands
/// written with the rest. The four digits must not start with 0 ("30 0766" is not read), and
/// fewer or more digits are not read: "30 766" may be 30766 or 3766 said oddly.
pub(super) fn join_tens_thousands(text: &str) -> Option<i64> {
    let tokens = tokenize(text);
    let words = as_strs(&tokens);
    let [tens, rest] = words[..] else {
        return None;
    };
    let tens = tens_number(tens)?;
    let rest = i64::try_from(digits_value(rest).filter(|_| rest.len() == 4)?).ok()?;
    let (unit, hundreds) = (rest / 1000, rest % 1000);
    (unit >= 1).then(|| (tens + unit) * 1000 + hundreds)
}

/// A decimal whose point speech recognition wrote apart from its digits: "62. 5" = 62.5,
/// "60 2. 5" = 62.5 (tens and unit joined first), "62 . 25" = 62.25. Only one point; the
/// whole part is a plain whole number or tens and a unit, the fraction is digits.
pub(super) fn split_decimal(text: &str) -> Option<NumberValue> {
    let tokens = tokenize(&mark_loose_points(text));
    let words = as_strs(&tokens);
    let at = words.iter().position(|w| *w == "point")?;
    let (left, right) = (words.get(..at)?, words.get(at + 1..)?);
    if right.contains(&"point") {
        return None;
    }
    let whole = whole_number(left).or_else(|| tens_units(left))?;
    let fraction = fraction_digits(right)?;
    NumberValue::from_parts(false, u64::try_from(whole).ok()?, &fraction)
}

/// A decimal whose tens speech recognition wrote apart from its unit: "60 2.5" = 62.5 (said
/// "sixty two point five"). Exactly a tens number 20..=90 then a typed decimal whose whole
/// part is one digit 1..=9; "60 12.5", "62 2.5" and "60 2" are not read here.
pub(super) fn tens_decimal(text: &str) -> Option<NumberValue> {
    let words: Vec<&str> = text
        .trim()
        .trim_end_matches('.')
        .split_whitespace()
        .collect();
    let [tens, decimal] = words[..] else {
        return None;
    };
    let tens = tens_number(tens)?;
    let (unit, fraction) = decimal.split_once('.')?;
    let unit = match unit.as_bytes() {
        [digit @ b'1'..=b'9'] => i64::from(digit - b'0'),
        _ => return None,
    };
    if fraction.is_empty() {
        return None;
    }
    NumberValue::from_parts(false, u64::try_from(tens + unit).ok()?, fraction)
}

/// A non-negative whole number said or typed the plain way.
fn whole_number(words: &[&str]) -> Option<i64> {
    if words.is_empty() {
        return None;
    }
    match parse_number(&words.join(" "))? {
        NumberValue::Int(value) if value >= 0 => Some(value),
        _ => None,
    }
}

/// `[tens, unit]` with tens 20, 30 .. 90 and unit 1..=9, each in digits or words.
fn tens_units(words: &[&str]) -> Option<i64> {
    let [tens, unit] = words else { return None };
    let tens = tens_number(tens)?;
    let unit = unit_value(unit).or_else(|| match unit.as_bytes() {
        [digit @ b'1'..=b'9'] => Some(i64::from(digit - b'0')),
        _ => None,
    })?;
    Some(tens + unit)
}

/// A tens number 20, 30 .. 90 in words or digits ("sixty", "60", not "060").
fn tens_number(word: &str) -> Option<i64> {
    tens_value(word).or_else(|| {
        let value = i64::try_from(digits_value(word)?).ok()?;
        let canonical = !word.starts_with('0');
        ((20..=90).contains(&value) && value % 10 == 0 && canonical).then_some(value)
    })
}

/// Rewrites a `.` with whitespace on either side as the word `point`; a `.` inside a number
/// ("62.5") or at the very end is left alone.
fn mark_loose_points(text: &str) -> String {
    let text = text.trim_end_matches('.');
    let mut out = String::with_capacity(text.len() + 8);
    let mut prev = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let loose = prev.is_some_and(char::is_whitespace)
            || chars.peek().is_some_and(|n| n.is_whitespace());
        if c == '.' && loose {
            out.push_str(" point ");
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

/// How many zeros end `value` (> 0).
fn trailing_zeros(mut value: i64) -> u32 {
    let mut zeros = 0;
    while value != 0 && value % 10 == 0 {
        value /= 10;
        zeros += 1;
    }
    zeros
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_with_the_tens_apart() {
        let cases: &[(&str, Option<&str>)] = &[
            ("60 2.5", Some("62.5")),
            ("sixty 2.5", Some("62.5")),
            ("90 9.75.", Some("99.75")),
            ("60 12.5", None),
            ("62 2.5", None),
            ("60 2", None),
            ("60 0.5", None),
            ("60 2.", None),
            ("60 2.x", None),
            ("2.5", None),
        ];
        for (text, expected) in cases {
            let value = tens_decimal(text).map(|v| v.to_string());
            assert_eq!(value.as_deref(), *expected, "{text:?}");
        }
    }

    #[test]
    fn numbers_joined_by_and() {
        let cases: &[(&str, Option<i64>)] = &[
            ("8200 and 6", Some(8_206)),
            ("45,700 and 47", Some(45_747)),
            ("8200 and 7", Some(8_207)),
            ("200 and 6", Some(206)),
            ("1000 and 500", Some(1_500)),
            ("eight thousand two hundred and six", Some(8_206)),
            ("two hundred and six thousand", None),
            ("8200 and 100", None),
            ("8200 and 206", None),
            ("8200 and 60 6", None),
            ("8200 and 0", None),
            ("8206 and 6", None),
            ("0 and 6", None),
            ("8200 and", None),
            ("and 6", None),
            ("8200 and 6 and 7", None),
            ("minus 8200 and 6", None),
            ("8200 and 6.5", None),
            ("9223372036854775800 and 9", None),
            ("", None),
        ];
        for &(text, expected) in cases {
            assert_eq!(join_and(text), expected, "{text:?}");
        }
    }

    #[test]
    fn numbers_joined_without_and() {
        let cases: &[(&str, Option<i64>)] = &[
            ("7,500 20", Some(7_520)),
            ("7,500-20", Some(7_520)),
            ("7500 20", Some(7_520)),
            ("45,700 47", Some(45_747)),
            ("8200 6", Some(8_206)),
            ("seven thousand five hundred 20", Some(7_520)),
            ("7,500 600", None),
            ("7,500 100", None),
            ("7,500 0", None),
            ("7,500 -20", None),
            ("7,520 20", None),
            ("60 2", None),
            ("7,500 20 5", None),
            ("7,500 and 20", None),
            ("7,500", None),
            ("20 7,500", None),
            ("9223372036854775800 9", None),
            ("1 2 3 4 5 6 7 8 9 10 11 100 5", None),
            ("", None),
        ];
        for &(text, expected) in cases {
            assert_eq!(join_bare(text), expected, "{text:?}");
        }
    }

    #[test]
    fn tens_and_units_said_apart() {
        let cases: &[(&str, Option<i64>)] = &[
            ("60 2", Some(62)),
            ("sixty 2", Some(62)),
            ("90 nine", Some(99)),
            ("60 0", None),
            ("10 2", None),
            ("65 2", None),
            ("060 2", None),
            ("60 12", None),
            ("60 2 3", None),
            ("60", None),
            ("", None),
        ];
        for &(text, expected) in cases {
            assert_eq!(join_tens_units(text), expected, "{text:?}");
        }
    }

    #[test]
    fn tens_and_thousands_said_apart() {
        let cases: &[(&str, Option<i64>)] = &[
            ("30 2766", Some(32_766)),
            ("30 2766.", Some(32_766)),
            ("thirty 2766", Some(32_766)),
            ("30 2767", Some(32_767)),
            ("90 9999", Some(99_999)),
            ("20 1000", Some(21_000)),
            ("30 0766", None),
            ("30 766", None),
            ("30 27660", None),
            ("35 2766", None),
            ("10 2766", None),
            ("030 2766", None),
            ("30 2,766", None),
            ("30 2766 5", None),
            ("2766", None),
            ("", None),
        ];
        for &(text, expected) in cases {
            assert_eq!(join_tens_thousands(text), expected, "{text:?}");
        }
    }

    #[test]
    fn decimals_with_a_loose_point() {
        let cases: &[(&str, Option<&str>)] = &[
            ("60 2. 5", Some("62.5")),
            ("62. 5", Some("62.5")),
            ("62 . 25", Some("62.25")),
            ("62 .5", Some("62.5")),
            ("62. five", Some("62.5")),
            ("60 2 point 5", Some("62.5")),
            ("62. 0", Some("62")),
            ("62.5", None),
            ("62. 5. 3", None),
            ("62. 5.", Some("62.5")),
            (". 5", None),
            ("62. x", None),
            ("sixty two. five", Some("62.5")),
            ("1 2. 5", None),
            ("", None),
        ];
        for &(text, expected) in cases {
            let actual = split_decimal(text).map(|v| v.to_string());
            assert_eq!(actual.as_deref(), expected, "{text:?}");
        }
    }
}
