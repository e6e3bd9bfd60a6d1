//! Dotted IPv4 addresses and masks, typed ("192.168.1.0") or spoken ("ten dot zero dot ...").

use super::numbers::parse_unsigned;
use super::tokens::{as_strs, tokenize};
use super::vocab::digit_word;

/// Parses a dotted-quad IPv4 address or mask, typed or spoken.
///
/// The four octets must be separated by `.` or the words `dot` / `point`; a bare
/// "192 168 1 0" is not an address. Each octet may be digits or any unsigned spoken form of
/// [`super::parse_spoken_number`]: words ("one hundred ninety two"), digit by digit
/// ("one nine two"), a digit plus a two-digit number ("one ninety two"); a lone `oh` is zero.
/// Octets must be 0..=255 and, as with `std::net::Ipv4Addr`, may not have leading zeros
/// ("01", "zero one"). Trailing sentence punctuation is ignored.
pub fn parse_ipv4(text: &str) -> Option<[u8; 4]> {
    let trimmed = text.trim().trim_end_matches(['.', ',', ';', ':', '!', '?']);
    let tokens = tokenize(&trimmed.replace('.', " dot "));
    let mut octets = [0u8; 4];
    let mut count = 0usize;
    for group in tokens.split(|t| t == "dot" || t == "point") {
        *octets.get_mut(count)? = parse_octet(&as_strs(group))?;
        count += 1;
    }
    (count == 4).then_some(octets)
}

/// One octet's words, rejecting leading zeros.
fn parse_octet(words: &[&str]) -> Option<u8> {
    let leading_zero = match words {
        ["oh" | "o"] => return Some(0),
        [single] => single.len() > 1 && single.starts_with('0'),
        [first, _, ..] => digit_word(first) == Some(0),
        [] => return None,
    };
    if leading_zero {
        return None;
    }
    u8::try_from(parse_unsigned(words)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<[u8; 4]>) {
        assert_eq!(parse_ipv4(input), expected, "input: {input:?}");
    }

    const CASES: &[(&str, Option<[u8; 4]>)] = &[
        ("192.168.1.0", Some([192, 168, 1, 0])),
        ("192.168.1.128", Some([192, 168, 1, 128])),
        ("255.255.255.192", Some([255, 255, 255, 192])),
        ("0.0.0.0", Some([0, 0, 0, 0])),
        ("10.0.0.1.", Some([10, 0, 0, 1])),
        ("  172.16.254.1  ", Some([172, 16, 254, 1])),
        ("192. 168. 1. 0.", Some([192, 168, 1, 0])),
        ("192 dot 168 dot 1 dot 0", Some([192, 168, 1, 0])),
        ("192 point 168 point 1 point 0", Some([192, 168, 1, 0])),
        (
            "one nine two dot one six eight dot one dot zero",
            Some([192, 168, 1, 0]),
        ),
        (
            "one ninety two dot one sixty eight dot one dot zero",
            Some([192, 168, 1, 0]),
        ),
        (
            "one hundred ninety two point one sixty eight point zero point one",
            Some([192, 168, 0, 1]),
        ),
        (
            "one hundred and ninety two dot one hundred and sixty eight dot one dot one",
            Some([192, 168, 1, 1]),
        ),
        ("ten dot zero dot zero dot one", Some([10, 0, 0, 1])),
        ("Ten dot zero dot zero dot one.", Some([10, 0, 0, 1])),
        ("ten dot oh dot oh dot one", Some([10, 0, 0, 1])),
        (
            "two five five dot two five five dot two five five dot one nine two",
            Some([255, 255, 255, 192]),
        ),
        (
            "two fifty five dot two fifty five dot two fifty five dot two twenty four",
            Some([255, 255, 255, 224]),
        ),
        (
            "two hundred fifty-five dot two hundred fifty-five dot zero dot zero",
            Some([255, 255, 0, 0]),
        ),
        ("192.168.one.zero", Some([192, 168, 1, 0])),
        ("172 dot sixteen dot 0 dot 1", Some([172, 16, 0, 1])),
        (
            "one two seven dot zero dot zero dot one",
            Some([127, 0, 0, 1]),
        ),
        ("192 168 1 0", None),
        ("192.168.1", None),
        ("192.168.1.0.5", None),
        ("192.168..1", None),
        (".192.168.1.0", None),
        ("256.1.1.1", None),
        ("1.1.1.300", None),
        ("two five six dot one dot one dot one", None),
        ("192.168.01.1", None),
        ("192.168.1.00", None),
        ("ten dot zero one dot zero dot one", None),
        ("-1.2.3.4", None),
        ("1,2.3.4.5", None),
        ("192.168.1.0/24", None),
        ("nineteen two dot one dot one dot one", None),
        ("one dot two dot three", None),
        ("dot dot dot", None),
        ("2.5", None),
        ("two point five", None),
        ("", None),
        ("the answer", None),
        ("1.2.3.4 please", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
