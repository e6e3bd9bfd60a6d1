//! Values as a candidate says them: whole numbers in words ("seventy seven thousand four
//! hundred", or with a British "and": "eight thousand two hundred and six"), decimals digit by
//! digit after "point" ("three point seven five"), and dotted addresses octet by octet with
//! "dot" ("one ninety two dot one sixty eight dot ten dot zero"). Pure.

const UNITS: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];

const TENS: [&str; 10] = [
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// Scale words, largest first, with their values.
const SCALES: [(u64, &str); 3] = [
    (1_000_000_000, "billion"),
    (1_000_000, "million"),
    (1_000, "thousand"),
];

/// `n` in words, without "and": 77400 is "seventy seven thousand four hundred".
pub fn number(n: u64) -> String {
    words(n, false)
}

/// `n` in words with a British "and" before the last part under a hundred: 8206 is "eight
/// thousand two hundred and six", 3005 is "three thousand and five".
pub fn number_with_and(n: u64) -> String {
    words(n, true)
}

fn words(n: u64, with_and: bool) -> String {
    if n == 0 {
        return UNITS[0].to_owned();
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
        parts.push(if joined { format!("and {last}") } else { last });
    }
    parts.join(" ")
}

/// 1..=999 in words.
fn below_thousand(n: u64, with_and: bool) -> String {
    let (hundreds, rest) = (n / 100, n % 100);
    match (hundreds, rest) {
        (0, _) => below_hundred(rest),
        (_, 0) => format!("{} hundred", UNITS[hundreds as usize]),
        _ if with_and => format!(
            "{} hundred and {}",
            UNITS[hundreds as usize],
            below_hundred(rest)
        ),
        _ => format!(
            "{} hundred {}",
            UNITS[hundreds as usize],
            below_hundred(rest)
        ),
    }
}

/// 0..=99 in words.
fn below_hundred(n: u64) -> String {
    let n = (n % 100) as usize;
    match n {
        0..20 => UNITS[n].to_owned(),
        _ if n.is_multiple_of(10) => TENS[n / 10].to_owned(),
        _ => format!("{} {}", TENS[n / 10], UNITS[n % 10]),
    }
}

/// A decimal written with a point ("62.5", "3.75", "1,250.5") in words, the fraction digit
/// by digit: "sixty two point five". `None` if `text` is not a plain decimal.
pub fn decimal(text: &str) -> Option<String> {
    let (whole, fraction) = text.split_once('.')?;
    let whole: u64 = whole.replace(',', "").parse().ok()?;
    if fraction.is_empty() || !fraction.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits: Vec<&str> = fraction
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| UNITS[d as usize])
        .collect();
    Some(format!("{} point {}", number(whole), digits.join(" ")))
}

/// An address octet as people say it: 192 is "one ninety two", 255 "two fifty five", 205
/// "two oh five", 200 "two hundred", 64 "sixty four", 0 "zero".
pub fn octet(value: u8) -> String {
    let (hundreds, rest) = (u64::from(value) / 100, u64::from(value) % 100);
    match (hundreds, rest) {
        (0, _) => below_hundred(rest),
        (_, 0) => format!("{} hundred", UNITS[hundreds as usize]),
        (_, 1..10) => format!("{} oh {}", UNITS[hundreds as usize], UNITS[rest as usize]),
        _ => format!("{} {}", UNITS[hundreds as usize], below_hundred(rest)),
    }
}

/// A dotted IPv4 address or mask ("192.168.10.0") in words with "dot"; `None` if `text` is
/// not one.
pub fn address(text: &str) -> Option<String> {
    let octets: Vec<u8> = text
        .split('.')
        .map(|part| part.parse::<u8>().ok())
        .collect::<Option<_>>()?;
    (octets.len() == 4).then(|| {
        octets
            .into_iter()
            .map(octet)
            .collect::<Vec<_>>()
            .join(" dot ")
    })
}

/// A whole number written in digits, with or without grouping commas ("8206", "77,400").
pub fn parse_whole(text: &str) -> Option<u64> {
    let digits = text.replace(',', "");
    let plain = !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit());
    plain.then(|| digits.parse().ok()).flatten()
}

/// An option value in words, whatever it is (address, whole number, decimal); `with_and`
/// picks the British form of whole numbers. `None` for values that are not numbers or
/// addresses.
pub fn value(text: &str, with_and: bool) -> Option<String> {
    let text = text.trim();
    if let Some(words) = address(text) {
        return Some(words);
    }
    if let Some(n) = parse_whole(text) {
        return Some(if with_and {
            number_with_and(n)
        } else {
            number(n)
        });
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
        check("7", Some("seven"));
        check("42", Some("forty two"));
        check("88", Some("eighty eight"));
        check("90", Some("ninety"));
        check("617", Some("six hundred seventeen"));
        check("8206", Some("eight thousand two hundred six"));
        check(
            "45747",
            Some("forty five thousand seven hundred forty seven"),
        );
        check("77,400", Some("seventy seven thousand four hundred"));
        check(
            "65534",
            Some("sixty five thousand five hundred thirty four"),
        );
        check("1000000", Some("one million"));
        check("2000017", Some("two million seventeen"));
    }

    #[test]
    fn the_british_form_says_and_before_the_last_part() {
        assert_eq!(number_with_and(8206), "eight thousand two hundred and six");
        assert_eq!(number_with_and(3005), "three thousand and five");
        assert_eq!(number_with_and(500), "five hundred");
        assert_eq!(number_with_and(74), "seventy four");
        assert_eq!(
            number_with_and(45747),
            "forty five thousand seven hundred and forty seven"
        );
    }

    #[test]
    fn decimals_say_the_fraction_digit_by_digit() {
        check("62.5", Some("sixty two point five"));
        check("3.75", Some("three point seven five"));
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
            "255.255.255.192",
            Some("two fifty five dot two fifty five dot two fifty five dot one ninety two"),
        );
        check(
            "10.200.205.110",
            Some("ten dot two hundred dot two oh five dot one ten"),
        );
        check("10.0.0", None);
        check("10.0.0.256", None);
    }

    #[test]
    fn other_text_is_not_a_value() {
        check("45.3 in", None);
        check("option B", None);
        check("", None);
        assert_eq!(option_letter(1), "Option B");
        assert_eq!(option_letter(3), "Option D");
    }
}
