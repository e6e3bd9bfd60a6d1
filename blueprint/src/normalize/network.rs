//! Networks in CIDR notation: "192.168.1.0/24", "one ninety two dot ... slash twenty four".

use super::cidr::parse_cidr;
use super::ipv4::parse_ipv4;

/// Parses an IPv4 address followed by a prefix length, typed or spoken.
///
/// The prefix follows the last `/` or the last word `slash` (or `forward slash`); the address
/// before it is anything [`super::parse_ipv4`] accepts and the prefix anything
/// [`super::parse_cidr`] accepts after its marker: "192.168.1.0/24", "192.168.1.0 / 24",
/// "one ninety two dot one sixty eight dot one dot zero slash twenty four",
/// "192.16/8.1.0/24". Host bits may be set ("192.168.1.5/24" is an interface address).
/// Returns `(address, prefix)`, or `None` when either half is missing or invalid.
pub fn parse_network(text: &str) -> Option<([u8; 4], u8)> {
    let lower = text.to_lowercase();
    let (address, prefix) = split_prefix(&lower)?;
    let prefix = parse_cidr(&format!("slash {prefix}"))?;
    Some((parse_ipv4(address)?, prefix))
}

/// The canonical spelling of a network, the form [`super::normalize_answer`] returns as text:
/// `192.168.1.0/24`.
pub(super) fn network_text([a, b, c, d]: [u8; 4], prefix: u8) -> String {
    format!("{a}.{b}.{c}.{d}/{prefix}")
}

/// Splits at the last prefix marker: a `/` if there is one, else the last whole word `slash`
/// (dropping a `forward` just before it).
fn split_prefix(text: &str) -> Option<(&str, &str)> {
    if let Some(at) = text.rfind('/') {
        return Some((text.get(..at)?, text.get(at + 1..)?));
    }
    let at = last_word(text, "slash")?;
    let address = text.get(..at)?.trim_end();
    let address = strip_last_word(address, "forward").unwrap_or(address);
    Some((address, text.get(at + "slash".len()..)?))
}

/// Byte offset of the last occurrence of `word` as a whole word (not inside a longer word).
fn last_word(text: &str, word: &str) -> Option<usize> {
    let is_letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    text.rmatch_indices(word).map(|(at, _)| at).find(|&at| {
        let before = text.get(..at).and_then(|s| s.chars().next_back());
        let after = text.get(at + word.len()..).and_then(|s| s.chars().next());
        !is_letter(before) && !is_letter(after)
    })
}

/// `text` without its last word when that word is `word`.
fn strip_last_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let rest = text.strip_suffix(word)?;
    let whole = rest.is_empty() || rest.ends_with(char::is_whitespace);
    whole.then(|| rest.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<&str>) {
        let actual = parse_network(input).map(|(address, prefix)| network_text(address, prefix));
        assert_eq!(actual.as_deref(), expected, "input: {input:?}");
    }

    const CASES: &[(&str, Option<&str>)] = &[
        ("192.168.1.0/24", Some("192.168.1.0/24")),
        ("192.168.1.0/24.", Some("192.168.1.0/24")),
        ("192.168.1.0 / 24", Some("192.168.1.0/24")),
        ("192.168.1.5/24", Some("192.168.1.5/24")),
        ("10.0.0.0/8", Some("10.0.0.0/8")),
        ("0.0.0.0/0", Some("0.0.0.0/0")),
        ("192.168.1.0 slash 24", Some("192.168.1.0/24")),
        ("192.168.1.0 Slash 24", Some("192.168.1.0/24")),
        ("192.168.1.0, slash 24", Some("192.168.1.0/24")),
        ("192.168.1.0 forward slash 24", Some("192.168.1.0/24")),
        (
            "one ninety two dot one sixty eight dot one dot zero slash twenty four",
            Some("192.168.1.0/24"),
        ),
        (
            "one nine two dot one six eight dot one dot zero slash two four",
            Some("192.168.1.0/24"),
        ),
        (
            "192 point 168 point 1 point 0 slash twenty-six",
            Some("192.168.1.0/26"),
        ),
        ("192.16/8.1.0/24", Some("192.168.1.0/24")),
        ("192,168,1,0/24", Some("192.168.1.0/24")),
        ("192.168.1.0/33", None),
        ("192.168.1.0/", None),
        ("192.168.1.0 slash", None),
        ("192.168.1/24", None),
        ("192.168.1.0/24/24", None),
        ("/24", None),
        ("slash 24", None),
        ("192.168.1.0", None),
        ("192.168.1.0 slashes 24", None),
        ("192.168.1.0 backslash 24", None),
        ("192.168.1.0/24 bits", None),
        ("192.16/8.1.0", None),
        ("", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
