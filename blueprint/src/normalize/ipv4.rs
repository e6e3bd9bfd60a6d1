//! Dotted IPv4 addresses and masks, typed ("192.168.1.0") or spoken ("ten dot zero dot ...").

use super::numbers::parse_unsigned;
use super::tokens::{as_strs, tokenize};
use super::value::parse_literal;
use super::vocab::{DOT, POINT, digit_word};

/// Parses a dotted-quad IPv4 address or mask, typed or spoken.
///
/// The four octets must be separated by `.` or the words `dot` / `point`; a bare
/// "192 168 1 0" is not an address. Each octet may be digits or any unsigned spoken form of
/// [`super::parse_spoken_number`]: words ("one hundred ninety two"), digit by digit
/// ("one nine two"), a digit plus a two-digit number ("one ninety two"); a lone `oh` is zero.
/// Octets must be 0..=255 and, as with `std::net::Ipv4Addr`, may not have leading zeros
/// ("01", "zero one"). Trailing sentence punctuation is ignored.
///
/// Speech-to-text separators are repaired first: commas count as dots when the text also has
/// a dot ("192.168, 1.0") or is digits glued by commas that are not thousands groups
/// ("192,168,1,0", but "1,200" and "192,168,100,100" are numbers); a slash between digits
/// that is followed by more octets is a misheard digit boundary ("192.16/8.1.0" is
/// 192.168.1.0). A slash before a prefix length is not part of an address; see
/// [`super::parse_network`].
pub fn parse_ipv4(text: &str) -> Option<[u8; 4]> {
    let trimmed = text.trim().trim_end_matches(['.', ',', ';', ':', '!', '?']);
    let tokens = tokenize(&mark_separators(trimmed));
    let mut octets = [0u8; 4];
    let mut count = 0usize;
    for group in tokens.split(|t| t == DOT || t == POINT) {
        *octets.get_mut(count)? = parse_octet(&as_strs(group))?;
        count += 1;
    }
    (count == 4).then_some(octets)
}

/// An IPv4 address as [`parse_ipv4`] reads it, or, when the answer is known to be an address,
/// four typed octets separated only by spaces or commas ("192 168 1 0", "192, 168, 1, 0",
/// "192,168,100,100").
pub(super) fn parse_ipv4_bare(text: &str) -> Option<[u8; 4]> {
    if let Some(address) = parse_ipv4(text) {
        return Some(address);
    }
    let trimmed = text.trim().trim_end_matches(['.', ',', ';', ':', '!', '?']);
    let spaced = trimmed.replace(',', " ");
    let groups: Vec<&str> = spaced.split_whitespace().collect();
    let typed = groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()));
    if groups.len() != 4 || !typed {
        return None;
    }
    let mut octets = [0u8; 4];
    for (octet, group) in octets.iter_mut().zip(&groups) {
        *octet = parse_octet(&[*group])?;
    }
    Some(octets)
}

/// Rewrites octet separators as ` dot ` (see [`parse_ipv4`] for the comma and slash rules).
fn mark_separators(text: &str) -> String {
    let has_dot = text.contains('.')
        || text
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| w.eq_ignore_ascii_case("dot") || w.eq_ignore_ascii_case("point"));
    let spaced_comma = text.contains(", ") || text.contains(" ,");
    let commas_separate = parse_literal(text).is_none() && (has_dot || !spaced_comma);
    let mut out = String::with_capacity(text.len() + 16);
    let mut prev = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let between_digits = prev.is_some_and(|p: char| p.is_ascii_digit())
            && next.is_some_and(|n| n.is_ascii_digit());
        let octets_follow = text.get(at..).is_some_and(|rest| rest.contains('.'));
        match c {
            '.' => out.push_str(" dot "),
            ',' if commas_separate => out.push_str(" dot "),
            '/' if between_digits && octets_follow => {}
            c => out.push(c),
        }
        prev = Some(c);
    }
    out
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
        // Speech-to-text separators.
        ("192,168,1,0", Some([192, 168, 1, 0])),
        ("10,0,0,1", Some([10, 0, 0, 1])),
        ("192.168,1.0", Some([192, 168, 1, 0])),
        ("192.168, 1.0", Some([192, 168, 1, 0])),
        ("192 dot 168, 1 point 0", Some([192, 168, 1, 0])),
        ("192.16/8.1.0", Some([192, 168, 1, 0])),
        ("192.16/8.1.0.", Some([192, 168, 1, 0])),
        ("10.1/0.0.1", Some([10, 10, 0, 1])),
        ("192.168.1.1/24", None),
        ("192.168.1/24", None),
        ("192.16/8.1", None),
        ("192.1/68/1.0", None),
        ("192.16 / 8.1.0", None),
        ("1,200", None),
        ("192,168,100,100", None),
        ("1,200,100.5", None),
        ("192, 168, 1, 0", None),
        ("one, nine, two, five", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }

    #[test]
    fn bare_octets_when_an_address_is_expected() {
        let bare: &[(&str, Option<[u8; 4]>)] = &[
            ("192 168 1 0", Some([192, 168, 1, 0])),
            ("192, 168, 1, 0.", Some([192, 168, 1, 0])),
            ("192,168,100,100", Some([192, 168, 100, 100])),
            ("ten dot zero dot zero dot one", Some([10, 0, 0, 1])),
            ("192 168 1", None),
            ("192 168 1 0 5", None),
            ("192 168 01 0", None),
            ("192 168 1 256", None),
            ("one nine two one six eight one zero", None),
            ("-1 2 3 4", None),
        ];
        for &(input, expected) in bare {
            assert_eq!(parse_ipv4_bare(input), expected, "input: {input:?}");
        }
    }
}
