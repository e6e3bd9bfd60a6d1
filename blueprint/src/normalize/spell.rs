//! Numbers as a candidate says them, from the vocabulary the normaliser reads with
//! ([`super::vocab`]): whole numbers in words, decimals digit by digit after "point", and
//! address octets as people say them, joined by "dot". Every form reads back as its value
//! (tested here, round trip). The load tester speaks its synthesised answers with it.

use super::vocab::{AND, DIGITS, DOT, HUNDRED, OH, POINT, SCALES, TEENS, TENS};

/// The largest number spelt: the scales, and so the reader, stop at the billions.
pub const MAX_SPOKEN: u64 = 999_999_999_999;

/// `n` in words, without "and": 77400 is "seventy seven thousand four hundred"; `None`
/// above [`MAX_SPOKEN`].
pub fn number(n: u64) -> Option<String> {
    words(n, false)
}

/// `n` in words with a British "and" after each "hundred" and before a last part under a
/// hundred: 8206 is "eight thousand two hundred and six", 3005 is "three thousand and five";
/// `None` above [`MAX_SPOKEN`].
pub fn number_with_and(n: u64) -> Option<String> {
    words(n, true)
}

fn words(n: u64, with_and: bool) -> Option<String> {
    if n > MAX_SPOKEN {
        return None;
    }
    if n == 0 {
        return Some(DIGITS[0].to_owned());
    }
    let mut parts: Vec<String> = Vec::new();
    let mut rest = n;
    for (scale, name) in SCALES {
        if rest >= scale {
            parts.push(format!("{} {name}", below_thousand(rest / scale, with_and)));
            rest %= scale;
        }
    }
    if rest > 0 {
        let joined = with_and && !parts.is_empty() && rest < 100;
        let last = below_thousand(rest, with_and);
        parts.push(if joined {
            format!("{AND} {last}")
        } else {
            last
        });
    }
    Some(parts.join(" "))
}

/// The name of digit `d` (0..=9; the remainder by ten of anything larger).
fn digit(d: u64) -> &'static str {
    DIGITS[(d % 10) as usize]
}

/// 1..=999 in words.
fn below_thousand(n: u64, with_and: bool) -> String {
    let (hundreds, rest) = (n / 100 % 10, n % 100);
    match (hundreds, rest) {
        (0, _) => below_hundred(rest),
        (_, 0) => format!("{} {HUNDRED}", digit(hundreds)),
        _ if with_and => format!(
            "{} {HUNDRED} {AND} {}",
            digit(hundreds),
            below_hundred(rest)
        ),
        _ => format!("{} {HUNDRED} {}", digit(hundreds), below_hundred(rest)),
    }
}

/// 0..=99 in words (the remainder by a hundred of anything larger).
fn below_hundred(n: u64) -> String {
    let n = n % 100;
    match n {
        0..10 => digit(n).to_owned(),
        10..20 => TEENS[(n - 10) as usize].to_owned(),
        _ if n.is_multiple_of(10) => TENS[(n / 10 - 2) as usize].to_owned(),
        _ => format!("{} {}", TENS[(n / 10 - 2) as usize], digit(n)),
    }
}

/// A decimal in words, the whole part as [`number`] and the fraction digit by digit:
/// `whole` 62 and `fraction` "05" is "sixty two point zero five". `None` when `fraction` is
/// empty or not all ASCII digits, or `whole` is above [`MAX_SPOKEN`].
pub fn decimal(whole: u64, fraction: &str) -> Option<String> {
    if fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits: Vec<&str> = fraction
        .bytes()
        .map(|b| digit(u64::from(b - b'0')))
        .collect();
    Some(format!("{} {POINT} {}", number(whole)?, digits.join(" ")))
}

/// An address octet as people say it: 192 is "one ninety two", 255 "two fifty five", 205
/// "two oh five", 200 "two hundred", 64 "sixty four", 0 "zero".
pub fn octet(value: u8) -> String {
    let (hundreds, rest) = (u64::from(value) / 100, u64::from(value) % 100);
    match (hundreds, rest) {
        (0, _) => below_hundred(rest),
        (_, 0) => format!("{} {HUNDRED}", digit(hundreds)),
        (_, 1..10) => format!("{} {OH} {}", digit(hundreds), digit(rest)),
        _ => format!("{} {}", digit(hundreds), below_hundred(rest)),
    }
}

/// A dotted IPv4 address or mask in words, octet by octet with "dot": 192.168.10.0 is "one
/// ninety two dot one sixty eight dot ten dot zero".
pub fn address(octets: [u8; 4]) -> String {
    octets.map(octet).join(&format!(" {DOT} "))
}

#[cfg(test)]
mod tests {
    use super::super::grammar::parse_grammar;
    use super::super::tokens::{as_strs, tokenize};
    use super::super::{NumberValue, parse_ipv4, parse_number, parse_spoken_number};
    use super::*;

    /// How a number is said: plain, with "and", or either with hyphens ("twenty-five").
    #[derive(Clone, Copy, Debug)]
    enum Form {
        Plain,
        And,
        PlainHyphens,
        AndHyphens,
    }

    const FORMS: [Form; 4] = [Form::Plain, Form::And, Form::PlainHyphens, Form::AndHyphens];

    fn say(n: u64, form: Form) -> Option<String> {
        match form {
            Form::Plain => number(n),
            Form::And => number_with_and(n),
            Form::PlainHyphens => number(n).map(|w| hyphenated(&w)),
            Form::AndHyphens => number_with_and(n).map(|w| hyphenated(&w)),
        }
    }

    /// `words` with each tens word and the digit after it joined by a hyphen.
    fn hyphenated(words: &str) -> String {
        let mut out = String::new();
        let mut after_tens = false;
        for word in words.split_whitespace() {
            let joins = after_tens && DIGITS[1..].contains(&word);
            if !out.is_empty() {
                out.push(if joins { '-' } else { ' ' });
            }
            out.push_str(word);
            after_tens = TENS.contains(&word);
        }
        out
    }

    fn check(n: u64, form: Form, expected: Option<&str>) {
        assert_eq!(say(n, form).as_deref(), expected, "{n} {form:?}");
    }

    const CASES: &[(u64, Form, Option<&str>)] = &[
        (0, Form::Plain, Some("zero")),
        (7, Form::Plain, Some("seven")),
        (42, Form::Plain, Some("forty two")),
        (88, Form::Plain, Some("eighty eight")),
        (90, Form::Plain, Some("ninety")),
        (617, Form::Plain, Some("six hundred seventeen")),
        (8206, Form::Plain, Some("eight thousand two hundred six")),
        (
            45747,
            Form::Plain,
            Some("forty five thousand seven hundred forty seven"),
        ),
        (
            77400,
            Form::Plain,
            Some("seventy seven thousand four hundred"),
        ),
        (1_000_000, Form::Plain, Some("one million")),
        (2_000_017, Form::Plain, Some("two million seventeen")),
        (
            MAX_SPOKEN,
            Form::Plain,
            Some(
                "nine hundred ninety nine billion nine hundred ninety nine million nine \
                 hundred ninety nine thousand nine hundred ninety nine",
            ),
        ),
        (MAX_SPOKEN + 1, Form::Plain, None),
        (u64::MAX, Form::And, None),
        (8206, Form::And, Some("eight thousand two hundred and six")),
        (3005, Form::And, Some("three thousand and five")),
        (500, Form::And, Some("five hundred")),
        (74, Form::And, Some("seventy four")),
        (
            45747,
            Form::And,
            Some("forty five thousand seven hundred and forty seven"),
        ),
        (
            45747,
            Form::AndHyphens,
            Some("forty-five thousand seven hundred and forty-seven"),
        ),
        (70, Form::PlainHyphens, Some("seventy")),
    ];

    #[test]
    fn table() {
        for &(n, form, expected) in CASES {
            check(n, form, expected);
        }
    }

    #[test]
    fn decimals_say_the_fraction_digit_by_digit() {
        let cases: &[(u64, &str, Option<&str>)] = &[
            (62, "5", Some("sixty two point five")),
            (3, "75", Some("three point seven five")),
            (0, "05", Some("zero point zero five")),
            (1250, "5", Some("one thousand two hundred fifty point five")),
            (3, "", None),
            (3, "x", None),
            (3, "5x", None),
            (MAX_SPOKEN + 1, "5", None),
        ];
        for &(whole, fraction, expected) in cases {
            assert_eq!(
                decimal(whole, fraction).as_deref(),
                expected,
                "{whole}.{fraction}"
            );
        }
    }

    #[test]
    fn addresses_are_said_octet_by_octet_with_dot() {
        let cases: &[([u8; 4], &str)] = &[
            (
                [192, 168, 10, 0],
                "one ninety two dot one sixty eight dot ten dot zero",
            ),
            (
                [255, 255, 255, 192],
                "two fifty five dot two fifty five dot two fifty five dot one ninety two",
            ),
            (
                [10, 200, 205, 110],
                "ten dot two hundred dot two oh five dot one ten",
            ),
        ];
        for &(octets, expected) in cases {
            assert_eq!(address(octets), expected, "{octets:?}");
        }
    }

    /// Said in every form, `n` reads back as `n`, by the whole reader and (above zero,
    /// which the grammar leaves to the reader) by the standard grammar alone.
    fn round_trip(n: u64) {
        let value = i64::try_from(n).ok();
        for form in FORMS {
            let Some(said) = say(n, form) else {
                panic!("{n} {form:?} is not said");
            };
            assert_eq!(parse_spoken_number(&said), value, "{said:?}");
            if n > 0 {
                assert_eq!(parse_grammar(&as_strs(&tokenize(&said))), value, "{said:?}");
            }
        }
    }

    #[test]
    fn every_number_below_twenty_thousand_round_trips() {
        (0..20_000).for_each(round_trip);
    }

    #[test]
    fn sampled_large_numbers_round_trip() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            round_trip((seed >> 24) % MAX_SPOKEN + 1);
        }
        round_trip(MAX_SPOKEN);
    }

    #[test]
    fn decimals_round_trip() {
        for (whole, fraction) in [(0, "5"), (3, "75"), (0, "05"), (62, "5"), (1250, "125")] {
            let Some(said) = decimal(whole, fraction) else {
                panic!("{whole}.{fraction} is not said");
            };
            let written = parse_number(&format!("{whole}.{fraction}"));
            assert!(matches!(written, Some(NumberValue::Decimal { .. })));
            assert_eq!(parse_number(&said), written, "{said:?}");
        }
    }

    #[test]
    fn every_octet_round_trips_in_an_address() {
        for value in 0..=u8::MAX {
            assert_eq!(
                parse_spoken_number(&octet(value)),
                Some(i64::from(value)),
                "{value}"
            );
            let octets = [value, u8::MAX - value, value / 2, 7];
            assert_eq!(parse_ipv4(&address(octets)), Some(octets), "{octets:?}");
        }
    }
}
