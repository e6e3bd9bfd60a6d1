//! CIDR prefix lengths ("/26", "slash twenty six") and prefix/mask conversion.

use super::numbers::parse_unsigned;
use super::tokens::{as_strs, tokenize};

/// Parses a CIDR prefix length 0..=32 written or said as a prefix.
///
/// Only clearly-marked prefixes count: a leading `/` ("/26", "/ 26", "/twenty-six") or the
/// word `slash` / `forward slash` ("slash twenty six"). The number after it is any unsigned
/// form of [`super::parse_spoken_number`]. "26", "26 bits" and "slash 33" give `None`.
pub fn parse_cidr(text: &str) -> Option<u8> {
    let tokens = tokenize(text);
    let words = as_strs(&tokens);
    let rest: Vec<&str> = match words.as_slice() {
        ["slash", rest @ ..] | ["forward", "slash", rest @ ..] => rest.to_vec(),
        [first, rest @ ..] => {
            let number = first.strip_prefix('/')?;
            std::iter::once(number)
                .filter(|n| !n.is_empty())
                .chain(rest.iter().copied())
                .collect()
        }
        [] => return None,
    };
    let prefix = u8::try_from(parse_unsigned(&rest)?).ok()?;
    (prefix <= 32).then_some(prefix)
}

/// The dotted mask of a prefix length: `prefix_to_mask(26)` is `Some([255, 255, 255, 192])`.
/// `None` above 32.
pub fn prefix_to_mask(prefix: u8) -> Option<[u8; 4]> {
    if prefix > 32 {
        return None;
    }
    let bits = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
    Some(bits.to_be_bytes())
}

/// The prefix length of a contiguous dotted mask: `mask_to_prefix([255, 255, 255, 192])` is
/// `Some(26)`. `None` when the mask's one-bits are not contiguous from the left.
pub fn mask_to_prefix(mask: [u8; 4]) -> Option<u8> {
    let bits = u32::from_be_bytes(mask);
    let ones = bits.leading_ones();
    let rest = bits.checked_shl(ones).unwrap_or(0);
    if rest != 0 {
        return None;
    }
    u8::try_from(ones).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<u8>) {
        assert_eq!(parse_cidr(input), expected, "input: {input:?}");
    }

    const CASES: &[(&str, Option<u8>)] = &[
        ("/26", Some(26)),
        ("/0", Some(0)),
        ("/32", Some(32)),
        ("/8.", Some(8)),
        ("/ 26", Some(26)),
        ("/twenty-six", Some(26)),
        ("/ twenty six", Some(26)),
        ("slash 26", Some(26)),
        ("Slash twenty six", Some(26)),
        ("slash twenty-six.", Some(26)),
        ("slash two six", Some(26)),
        ("slash eight", Some(8)),
        ("slash zero", Some(0)),
        ("slash thirty two", Some(32)),
        ("forward slash 24", Some(24)),
        ("/33", None),
        ("slash thirty three", None),
        ("slash 300", None),
        ("/-1", None),
        ("slash minus one", None),
        ("26", None),
        ("twenty six", None),
        ("26 bits", None),
        ("/", None),
        ("slash", None),
        ("slash slash 26", None),
        ("a slash 26", None),
        ("/26 bits", None),
        ("192.168.1.0/26", None),
        ("slash 2.5", None),
        ("", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }

    #[test]
    fn masks_round_trip() {
        let masks: &[(u8, [u8; 4])] = &[
            (0, [0, 0, 0, 0]),
            (1, [128, 0, 0, 0]),
            (8, [255, 0, 0, 0]),
            (16, [255, 255, 0, 0]),
            (23, [255, 255, 254, 0]),
            (24, [255, 255, 255, 0]),
            (26, [255, 255, 255, 192]),
            (27, [255, 255, 255, 224]),
            (30, [255, 255, 255, 252]),
            (32, [255, 255, 255, 255]),
        ];
        for &(prefix, mask) in masks {
            assert_eq!(prefix_to_mask(prefix), Some(mask), "prefix {prefix}");
            assert_eq!(mask_to_prefix(mask), Some(prefix), "mask {mask:?}");
        }
        assert_eq!(prefix_to_mask(33), None);
        assert_eq!(mask_to_prefix([255, 0, 255, 0]), None);
        assert_eq!(mask_to_prefix([0, 0, 0, 1]), None);
    }
}
