//! Whole numbers said in words or typed: "eighty-five", "one hundred and five", "one ninety two";
//! the unsigned grammar under [`super::parse_spoken_number`] and [`super::parse_number`].

use super::grammar::parse_grammar;
use super::vocab::{digit_word, digits_value, two_digit, unit_value};

/// Parses an unsigned whole number from word tokens (no sign, no commas, no decimal point).
///
/// Tries, in order: a single all-digit token, `zero`, the standard grammar, a digit-by-digit
/// sequence, then "digit + two-digit number". The three word forms never accept the same
/// input, so the order only matters for speed.
pub(super) fn parse_unsigned(words: &[&str]) -> Option<i64> {
    match words {
        [] => None,
        [word] if word.starts_with(|c: char| c.is_ascii_digit()) => {
            i64::try_from(digits_value(word)?).ok()
        }
        ["zero"] => Some(0),
        _ => parse_grammar(words)
            .or_else(|| parse_digit_sequence(words))
            .or_else(|| parse_mixed(words)),
    }
}

/// Digit-by-digit speech: two to eighteen digit words ("one nine two", "one oh five").
fn parse_digit_sequence(words: &[&str]) -> Option<i64> {
    if !(2..=18).contains(&words.len()) {
        return None;
    }
    words.iter().try_fold(0i64, |acc, word| {
        acc.checked_mul(10)?.checked_add(digit_word(word)?)
    })
}

/// A digit 1..=9 followed by a number 10..=99: "one ninety two" = 192, "two fifty" = 250.
fn parse_mixed(words: &[&str]) -> Option<i64> {
    let (first, rest) = words.split_first()?;
    let hundreds = unit_value(first)?;
    Some(hundreds * 100 + two_digit(rest)?)
}

#[cfg(test)]
mod tests {
    use crate::normalize::parse_spoken_number;

    fn check(input: &str, expected: Option<i64>) {
        assert_eq!(parse_spoken_number(input), expected, "input: {input:?}");
    }

    const ACCEPTED: &[(&str, i64)] = &[
        ("zero", 0),
        ("one", 1),
        ("nine", 9),
        ("ten", 10),
        ("fifteen", 15),
        ("twenty", 20),
        ("eighty five", 85),
        ("eighty-five", 85),
        ("Eighty-Five.", 85),
        ("EIGHTY FIVE", 85),
        ("ninety nine", 99),
        ("a hundred", 100),
        ("one hundred", 100),
        ("one hundred five", 105),
        ("one hundred and five", 105),
        ("one hundred and twelve", 112),
        ("one hundred twenty three", 123),
        ("two hundred and fifty-five", 255),
        ("nine hundred ninety nine", 999),
        ("a thousand", 1_000),
        ("one thousand and one", 1_001),
        ("two thousand three hundred", 2_300),
        ("two thousand, three hundred", 2_300),
        ("two thousand and twenty", 2_020),
        ("one thousand two hundred and thirty four", 1_234),
        ("one thousand and five hundred", 1_500),
        ("twelve hundred", 1_200),
        ("nineteen hundred", 1_900),
        ("twenty five hundred", 2_500),
        ("twelve hundred and fifty", 1_250),
        ("ten thousand", 10_000),
        ("one hundred thousand", 100_000),
        ("one hundred and five thousand", 105_000),
        ("five hundred twenty five thousand three hundred", 525_300),
        ("a million", 1_000_000),
        ("a million and one", 1_000_001),
        ("three million four hundred thousand", 3_400_000),
        ("two billion", 2_000_000_000),
        (
            "nine hundred ninety nine billion nine hundred ninety nine million \
             nine hundred ninety nine thousand nine hundred ninety nine",
            999_999_999_999,
        ),
        ("minus seven", -7),
        ("negative twelve", -12),
        ("minus zero", 0),
        ("85", 85),
        ("1,200", 1_200),
        ("-7", -7),
        ("minus 7", -7),
        ("2.0", 2),
        ("two point zero", 2),
        ("5 hundred", 500),
        ("25 thousand", 25_000),
        ("2 thousand 5", 2_005),
        ("300 million", 300_000_000),
        ("one nine two", 192),
        ("one six eight", 168),
        ("two five five", 255),
        ("one oh five", 105),
        ("one o one", 101),
        ("zero seven", 7),
        ("zero zero", 0),
        ("one oh", 10),
        ("one two three four", 1_234),
        ("five five", 55),
        ("one, nine, two", 192),
        ("one ninety two", 192),
        ("one sixty eight", 168),
        ("two fifty five", 255),
        ("two fifty", 250),
        ("one ten", 110),
        ("two twelve", 212),
        ("nine ninety nine", 999),
        ("fourty two", 42),
    ];

    const REJECTED: &[&str] = &[
        "",
        "hundred",
        "thousand",
        "a",
        "and",
        "one hundred and",
        "and five",
        "nineteen two",
        "ten five",
        "twenty thirty",
        "twenty twenty",
        "twenty and five",
        "one hundred five hundred",
        "one hundred twenty hundred",
        "ten hundred",
        "twenty hundred",
        "twelve hundred thousand",
        "one thousand twelve hundred",
        "two thousand thousand",
        "one million two billion",
        "a a hundred",
        "one a hundred",
        "five 5",
        "5 5",
        "1000 thousand",
        "one hundred 5",
        "one trillion",
        "nine billion billion",
        "zero one hundred",
        "minus minus seven",
        "minus -7",
        "seven minus",
        "two point five",
        "2.5",
        "one nine two one nine two one nine two one nine two one nine two one nine two one",
        "9999999999999999999",
        "eighty five percent",
        "the answer",
        "oh",
        "o",
        "1 200",
        "1,20",
    ];

    #[test]
    fn accepted() {
        for &(input, expected) in ACCEPTED {
            check(input, Some(expected));
        }
    }

    #[test]
    fn rejected() {
        for &input in REJECTED {
            check(input, None);
        }
    }
}
