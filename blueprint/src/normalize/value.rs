//! An answer's canonical form ([`Normalized`]), exact numeric values and typed numeric
//! literals ("1,200", "-2.50", ".5").

use std::fmt;

use super::vocab::digits_value;

/// A candidate's answer in canonical form, ready to compare with a keyed answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Normalized {
    /// A number, kept exact ("2.5", "85").
    Number(NumberValue),
    /// A dotted IPv4 address or mask, e.g. `[255, 255, 255, 192]`.
    Ipv4([u8; 4]),
    /// A CIDR prefix length 0..=32 ("/26", "slash twenty six").
    Cidr(u8),
    /// A 0-based multiple-choice option index ("B" -> 1).
    OptionIndex(usize),
    /// Anything else, in [`canonical_text`](super::canonical_text) form after filler removal; also a network in
    /// canonical CIDR notation (`192.168.1.0/24`) and, from [`normalize_as`](super::normalize_as) with
    /// [`AnswerKind::Alphanumeric`](super::AnswerKind::Alphanumeric), a compact code (`he5`).
    Text(String),
}

/// A numeric answer, kept exact so that "2.5" equals "2.50" and "85" equals "85.0".
///
/// Values built by this module are canonical, so the derived equality is numeric equality:
/// a value with a zero fraction is always [`NumberValue::Int`], and a [`NumberValue::Decimal`]
/// never has leading zeros in its whole part or trailing zeros in its fraction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NumberValue {
    /// A whole number, including decimals whose fraction is all zeros ("85.0").
    Int(i64),
    /// A number with a non-zero fractional part.
    Decimal {
        /// Canonical decimal text: optional `-`, whole part without leading zeros (`0` when
        /// zero), `.`, then the fraction without trailing zeros, e.g. `2.5`, `-0.25`.
        text: String,
    },
}

impl NumberValue {
    /// Builds the canonical value from a sign, the whole part and the fractional digits.
    ///
    /// Returns `None` when `fraction` holds a non-digit or the signed whole part does not fit
    /// in an `i64`. `from_parts(false, 2, "50")` is `Decimal { text: "2.5" }`;
    /// `from_parts(true, 0, "0")` is `Int(0)`.
    pub fn from_parts(negative: bool, whole: u64, fraction: &str) -> Option<Self> {
        if !fraction.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let magnitude = i128::from(whole);
        let signed = i64::try_from(if negative { -magnitude } else { magnitude }).ok()?;
        let fraction = fraction.trim_end_matches('0');
        if fraction.is_empty() {
            return Some(Self::Int(signed));
        }
        let sign = if negative { "-" } else { "" };
        Some(Self::Decimal {
            text: format!("{sign}{whole}.{fraction}"),
        })
    }
}

impl fmt::Display for NumberValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(value) => write!(f, "{value}"),
            Self::Decimal { text } => f.write_str(text),
        }
    }
}

/// A number split into sign, whole part and fractional digits, before canonicalisation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Parts {
    /// Whether a minus sign was given.
    pub(super) negative: bool,
    /// The whole part's magnitude.
    pub(super) whole: u64,
    /// Fractional digits, possibly empty.
    pub(super) fraction: String,
}

impl Parts {
    /// A non-negative whole number.
    pub(super) fn whole(whole: u64) -> Self {
        Self {
            negative: false,
            whole,
            fraction: String::new(),
        }
    }

    /// The canonical value (see [`NumberValue::from_parts`]).
    pub(super) fn into_value(self) -> Option<NumberValue> {
        NumberValue::from_parts(self.negative, self.whole, &self.fraction)
    }
}

/// Parses one typed numeric token: optional `-`/`+`, digits with optional comma grouping
/// ("1,200", groups of three after the first), optional `.` and fraction digits (".5").
pub(super) fn parse_literal(token: &str) -> Option<Parts> {
    let (negative, body) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    let (whole_text, fraction) = body.split_once('.').unwrap_or((body, ""));
    if body.ends_with('.') || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole = if whole_text.is_empty() && !fraction.is_empty() {
        0
    } else {
        parse_grouped(whole_text)?
    };
    Some(Parts {
        negative,
        whole,
        fraction: fraction.to_string(),
    })
}

/// Digits, optionally grouped by commas in threes ("1,234,567").
fn parse_grouped(text: &str) -> Option<u64> {
    let mut groups = text.split(',');
    let first = groups.next()?;
    if first.len() > 3 && text.contains(',') {
        return None;
    }
    let mut value = digits_value(first)?;
    for group in groups {
        if group.len() != 3 {
            return None;
        }
        value = value.checked_mul(1000)?.checked_add(digits_value(group)?)?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<&str>) {
        let actual = parse_literal(input).and_then(Parts::into_value);
        let actual = actual.map(|v| v.to_string());
        assert_eq!(actual.as_deref(), expected, "input: {input:?}");
    }

    const CASES: &[(&str, Option<&str>)] = &[
        ("0", Some("0")),
        ("85", Some("85")),
        ("+85", Some("85")),
        ("-7", Some("-7")),
        ("-0", Some("0")),
        ("007", Some("7")),
        ("85.0", Some("85")),
        ("85.000", Some("85")),
        ("2.5", Some("2.5")),
        ("2.50", Some("2.5")),
        ("02.50", Some("2.5")),
        (".5", Some("0.5")),
        ("-.5", Some("-0.5")),
        ("-0.25", Some("-0.25")),
        ("-0.0", Some("0")),
        ("1,200", Some("1200")),
        ("1,200.50", Some("1200.5")),
        ("12,345,678", Some("12345678")),
        ("9223372036854775807", Some("9223372036854775807")),
        ("-9223372036854775808", Some("-9223372036854775808")),
        ("9223372036854775808", None),
        ("99999999999999999999", None),
        ("1,20", None),
        ("1,2000", None),
        ("1234,567", None),
        (",200", None),
        ("1,,200", None),
        ("1.2.3", None),
        ("2.", None),
        (".", None),
        ("", None),
        ("-", None),
        ("--7", None),
        ("+-7", None),
        ("2.5e3", None),
        ("0x1f", None),
        ("1 200", None),
        ("\u{661}\u{662}", None),
        ("eighty", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }

    #[test]
    fn from_parts_is_canonical() {
        let half = NumberValue::from_parts(false, 0, "50");
        assert_eq!(half, Some(NumberValue::Decimal { text: "0.5".into() }));
        assert_eq!(
            NumberValue::from_parts(true, 3, ""),
            Some(NumberValue::Int(-3))
        );
        assert_eq!(NumberValue::from_parts(false, 1, "x"), None);
        assert_eq!(NumberValue::from_parts(false, u64::MAX, ""), None);
    }
}
