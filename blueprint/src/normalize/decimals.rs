//! Numeric answers with decimals: "2.5", "two point five", "point two five", "two and a half".

use super::numbers::parse_unsigned;
use super::tokens::{as_strs, tokenize};
use super::value::{NumberValue, Parts, parse_literal};
use super::vocab::{digit_word, digits_value, two_digit};

#[cfg(test)]
use super::vocab::{is_number_word, number_reach};

/// Parses a numeric answer, typed or spoken, keeping decimals exact.
///
/// Accepts everything [`parse_spoken_number`] accepts, plus typed decimals ("2.5",
/// "1,200.50", ".5"), spoken decimals with `point` ("two point five", "point five",
/// "zero point two five", "two point twenty five" = 2.25, "2 point 5") and
/// "`<whole>` and a half" ("two and a half" = 2.5). A leading `minus`/`negative` word or `-`
/// makes it negative (but not both). Results are canonical: "85.0" is `Int(85)`.
pub fn parse_number(text: &str) -> Option<NumberValue> {
    parse_number_words(&as_strs(&tokenize(text)))
}

/// Parses a whole number said in words or typed in digits.
///
/// Accepts digits ("85", "1,200", "-7"), standard English number words up to the billions
/// ("eighty five", "eighty-five", "one hundred and five", "two thousand three hundred",
/// "a hundred", "twelve hundred"), a sign word ("minus seven", "negative 3"), digit-by-digit
/// speech ("one nine two" = 192) and a digit followed by a two-digit number ("one ninety two"
/// = 192). Decimals with a non-zero fraction ("2.5") and anything ambiguous ("nineteen two")
/// give `None`; overflow gives `None`, never a panic.
pub fn parse_spoken_number(text: &str) -> Option<i64> {
    match parse_number(text)? {
        NumberValue::Int(value) => Some(value),
        NumberValue::Decimal { .. } => None,
    }
}

/// [`parse_number`] of words already tokenised (lowercase, as [`parse_number`] splits them):
/// what a caller trying many spans of one text uses, to skip joining and splitting each.
pub fn parse_number_words(words: &[&str]) -> Option<NumberValue> {
    let (negative, rest) = match words.split_first() {
        Some((&("minus" | "negative"), rest)) => (true, rest),
        _ => (false, words),
    };
    let mut parts = parse_parts(rest)?;
    if negative {
        if parts.negative {
            return None;
        }
        parts.negative = true;
    }
    parts.into_value()
}

/// An unsigned spoken or typed number (a single typed token may still carry its own sign).
fn parse_parts(words: &[&str]) -> Option<Parts> {
    if let [token] = words
        && token.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.'))
    {
        return parse_literal(token);
    }
    if words.contains(&"point") {
        return parse_point(words);
    }
    if let [whole @ .., "and", "a", "half"] = words {
        let whole = u64::try_from(parse_unsigned(whole)?).ok()?;
        return Some(Parts {
            negative: false,
            whole,
            fraction: "5".to_string(),
        });
    }
    let whole = u64::try_from(parse_unsigned(words)?).ok()?;
    Some(Parts::whole(whole))
}

/// "`<whole>` point `<fraction>`", with an empty whole part meaning zero ("point five").
fn parse_point(words: &[&str]) -> Option<Parts> {
    let at = words.iter().position(|w| *w == "point")?;
    let before = words.get(..at)?;
    let after = words.get(at + 1..)?;
    let whole = if before.is_empty() {
        0
    } else {
        parse_unsigned(before)?
    };
    Some(Parts {
        negative: false,
        whole: u64::try_from(whole).ok()?,
        fraction: fraction_digits(after)?,
    })
}

/// Digits after "point": digit words or digit tokens ("five", "two five", "oh five", "25"),
/// or one number from 10 to 99 in words ("twenty five" -> `25`, "fifteen" -> `15`).
pub(super) fn fraction_digits(words: &[&str]) -> Option<String> {
    if words.is_empty() {
        return None;
    }
    if let Some(value) = two_digit(words) {
        return Some(value.to_string());
    }
    let mut digits = String::new();
    for word in words {
        match digit_word(word) {
            Some(digit) => digits.push_str(&digit.to_string()),
            None => {
                digits_value(word)?;
                digits.push_str(word);
            }
        }
    }
    Some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<&str>) {
        let actual = parse_number(input).map(|v| v.to_string());
        assert_eq!(actual.as_deref(), expected, "input: {input:?}");
    }

    const CASES: &[(&str, Option<&str>)] = &[
        ("2.5", Some("2.5")),
        ("2.50", Some("2.5")),
        ("2.50.", Some("2.5")),
        ("-2.5", Some("-2.5")),
        (".5", Some("0.5")),
        ("0.25", Some("0.25")),
        ("1,200.50", Some("1200.5")),
        ("85.0", Some("85")),
        ("two point five", Some("2.5")),
        ("Two point five.", Some("2.5")),
        ("two point five zero", Some("2.5")),
        ("point five", Some("0.5")),
        ("zero point two five", Some("0.25")),
        ("zero point oh five", Some("0.05")),
        ("point oh five", Some("0.05")),
        ("three point one four one five nine", Some("3.14159")),
        ("two point twenty five", Some("2.25")),
        ("one point fifteen", Some("1.15")),
        ("one point ten", Some("1.1")),
        ("2 point 5", Some("2.5")),
        ("2 point 05", Some("2.05")),
        ("minus two point five", Some("-2.5")),
        ("negative point five", Some("-0.5")),
        ("minus 2.5", Some("-2.5")),
        ("one hundred point five", Some("100.5")),
        ("twelve point seven five", Some("12.75")),
        ("two and a half", Some("2.5")),
        ("one hundred and twenty and a half", Some("120.5")),
        ("minus three and a half", Some("-3.5")),
        ("eighty five", Some("85")),
        ("one nine two", Some("192")),
        ("a hundred", Some("100")),
        ("two point", None),
        ("point", None),
        ("two point five point five", None),
        ("two point twenty five six", None),
        ("two point five hundred", None),
        ("two point minus five", None),
        ("nineteen two point five", None),
        ("and a half", None),
        ("a half", None),
        ("two and half", None),
        ("minus -2.5", None),
        ("2.5.3", None),
        ("2.5 point 3", None),
        ("-", None),
        ("minus", None),
        ("point five five x", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }

    #[test]
    fn every_number_lies_within_its_reach() {
        for &(input, expected) in CASES {
            let tokens = tokenize(input);
            let words = as_strs(&tokens);
            assert_eq!(parse_number_words(&words), parse_number(input), "{input:?}");
            if expected.is_some() {
                assert_eq!(number_reach(&words), words.len(), "{input:?}");
            }
        }
        for word in ["takeoffs", "1.5", "fifth", "dozen", "12abc", "1e5", ""] {
            assert!(!is_number_word(word), "{word:?}");
        }
    }

    /// Every span of up to five words over a small vocabulary (digits, number words, the
    /// grammar's words, one other word): none that parses reaches past `number_reach`.
    #[test]
    fn no_number_reaches_past_its_reach() {
        const VOCABULARY: &[&str] = &[
            "1", "12", "250", "one", "twelve", "twenty", "hundred", "thousand", "and", "a", "half",
            "point", "oh", "minus", "2.5", "feet",
        ];
        let n = VOCABULARY.len();
        for length in 1..=5u32 {
            for code in 0..n.pow(length) {
                let words: Vec<&str> = (0..length)
                    .map(|i| VOCABULARY[code / n.pow(i) % n])
                    .collect();
                if parse_number_words(&words).is_some() {
                    assert!(number_reach(&words) >= words.len(), "{words:?}");
                }
            }
        }
    }
}
