//! Option values as a candidate says them: a written value (whole number, decimal, dotted
//! address) read, then said with the normaliser's own speller
//! ([`viva_blueprint::normalize::spell`]): "seventy seven thousand four hundred", with a
//! British "and" ("eight thousand two hundred and six"), "three point seven five", "one
//! ninety two dot one sixty eight dot ten dot zero". Pure.

use viva_blueprint::normalize::spell;

/// A dotted IPv4 address or mask ("192.168.10.0") in words with "dot"; `None` if `text` is
/// not one.
pub fn address(text: &str) -> Option<String> {
    let octets: Vec<u8> = text
        .split('.')
        .map(|part| part.parse::<u8>().ok())
        .collect::<Option<_>>()?;
    let octets: [u8; 4] = octets.try_into().ok()?;
    Some(spell::address(octets))
}

/// A decimal written with a point ("62.5", "3.75", "1,250.5") in words, the fraction digit
/// by digit: "sixty two point five". `None` if `text` is not a plain decimal.
pub fn decimal(text: &str) -> Option<String> {
    let (whole, fraction) = text.split_once('.')?;
    let whole: u64 = whole.replace(',', "").parse().ok()?;
    spell::decimal(whole, fraction)
}

/// A whole number written in digits, with or without grouping commas ("8206", "77,400").
pub fn parse_whole(text: &str) -> Option<u64> {
    let digits = text.replace(',', "");
    let plain = !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit());
    plain.then(|| digits.parse().ok()).flatten()
}

/// An option value in words, whatever it is (address, whole number, decimal); `with_and`
/// picks the British form of whole numbers. `None` for values that are not numbers or
/// addresses, or too large to say.
pub fn value(text: &str, with_and: bool) -> Option<String> {
    let text = text.trim();
    if let Some(words) = address(text) {
        return Some(words);
    }
    if let Some(n) = parse_whole(text) {
        return if with_and {
            spell::number_with_and(n)
        } else {
            spell::number(n)
        };
    }
    decimal(text)
}

/// "Option B" for index 1.
pub fn option_letter(index: usize) -> String {
    let letter = u8::try_from(index)
        .ok()
        .filter(|i| *i < 26)
        .map_or('?', |i| char::from(b'A' + i));
    format!("Option {letter}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<&str>) {
        assert_eq!(value(input, false).as_deref(), expected, "input: {input:?}");
    }

    #[test]
    fn whole_numbers_are_said_in_words() {
        check("0", Some("zero"));
        check("42", Some("forty two"));
        check("617", Some("six hundred seventeen"));
        check("77,400", Some("seventy seven thousand four hundred"));
        check(
            "65534",
            Some("sixty five thousand five hundred thirty four"),
        );
        check("2000017", Some("two million seventeen"));
    }

    #[test]
    fn the_british_form_says_and_before_the_last_part() {
        let british = |text| value(text, true);
        assert_eq!(
            british("8206").as_deref(),
            Some("eight thousand two hundred and six")
        );
        assert_eq!(british("3,005").as_deref(), Some("three thousand and five"));
        assert_eq!(british("500").as_deref(), Some("five hundred"));
    }

    #[test]
    fn decimals_say_the_fraction_digit_by_digit() {
        check("62.5", Some("sixty two point five"));
        check("0.05", Some("zero point zero five"));
        check("1,250.5", Some("one thousand two hundred fifty point five"));
        check("3.", None);
        check("3.x", None);
    }

    #[test]
    fn addresses_are_said_octet_by_octet_with_dot() {
        check(
            "192.168.10.0",
            Some("one ninety two dot one sixty eight dot ten dot zero"),
        );
        check(
            "10.200.205.110",
            Some("ten dot two hundred dot two oh five dot one ten"),
        );
        check("10.0.0", None);
        check("10.0.0.0.0", None);
        check("10.0.0.256", None);
    }

    #[test]
    fn other_text_is_not_a_value() {
        check("45.3 in", None);
        check("option B", None);
        check("", None);
        check("1000000000000", None);
        assert_eq!(option_letter(1), "Option B");
        assert_eq!(option_letter(3), "Option D");
    }
}
