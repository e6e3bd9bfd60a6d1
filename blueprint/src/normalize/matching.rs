//! Comparison of a normalised candidate answer with the item's keyed answer string.

use super::fillers::strip_fillers;
use super::kind::{AnswerKind, normalize_as};
use super::options::parse_explicit_option;
use super::pipeline::normalize_answer;
use super::value::{Normalized, NumberValue};

/// Whether the normalised answer `given` matches the keyed answer `keyed`.
///
/// `keyed` is normalised like a candidate answer but without option parsing
/// (`normalize_answer(keyed, None)`), then compared by kind:
/// * numbers numerically and exactly: "85" matches "85.0" and "eighty five", "2.5" matches
///   "2.50", but "2.5" never matches "2.49";
/// * IPv4 addresses and masks octet by octet;
/// * CIDR prefixes by length; a prefix also matches a whole number of the same value and vice
///   versa ("/26" matches key "26"), but never a dotted mask (convert with
///   [`super::prefix_to_mask`] if an item accepts either);
/// * an option index matches a key that is itself an explicit option reference with the same
///   index ("B", "b)", "option b", "the second one"); a numeric key such as "2" never matches
///   an option, since it could be 0- or 1-based;
/// * text exactly after [`super::canonical_text`] (and filler removal); networks are text in
///   canonical CIDR notation, so "192.168.1.0 slash 24" matches key "192.168.1.0/24".
///
/// Then the key's kind ([`AnswerKind::of_key`]) decides a second reading: a text answer is
/// normalised again as that kind ([`normalize_as`]), so "192 168 1 0" matches key
/// "192.168.1.0", "h e 5" matches key "HE5" and "eighty five percent" matches key "85%"; a
/// keyed percentage also matches the bare number ("85" matches "85%"). A bare-number key
/// never accepts a unit: "85 percent" and "85 knots" do not match key "85".
///
/// Answers of different kinds never match.
pub fn answers_match(given: &Normalized, keyed: &str) -> bool {
    if let Normalized::OptionIndex(index) = given {
        return parse_explicit_option(&strip_fillers(keyed), usize::MAX) == Some(*index);
    }
    if same(given, &normalize_answer(keyed, None)) {
        return true;
    }
    let kind = AnswerKind::of_key(keyed);
    let key = normalize_as(keyed, Some(kind));
    match given {
        Normalized::Text(text) if kind != AnswerKind::Text => {
            same(&normalize_as(text, Some(kind)), &key)
        }
        other => same(other, &key),
    }
}

/// Kind-by-kind equality, with a prefix equal to the whole number of the same value.
fn same(given: &Normalized, key: &Normalized) -> bool {
    match (given, key) {
        (Normalized::Number(a), Normalized::Number(b)) => a == b,
        (Normalized::Ipv4(a), Normalized::Ipv4(b)) => a == b,
        (Normalized::Cidr(a), Normalized::Cidr(b)) => a == b,
        (Normalized::Cidr(prefix), Normalized::Number(NumberValue::Int(n)))
        | (Normalized::Number(NumberValue::Int(n)), Normalized::Cidr(prefix)) => {
            i64::from(*prefix) == *n
        }
        (Normalized::Text(a), Normalized::Text(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(candidate answer, option count, keyed answer, expected match)`.
    fn check(input: (&str, Option<usize>, &str), expected: bool) {
        let (raw, options, keyed) = input;
        let given = normalize_answer(raw, options);
        assert_eq!(
            answers_match(&given, keyed),
            expected,
            "answer {raw:?} ({given:?}) vs key {keyed:?}"
        );
    }

    const CASES: &[(&str, Option<usize>, &str, bool)] = &[
        ("85", None, "85", true),
        ("eighty five", None, "85", true),
        ("Eighty-five.", None, "85", true),
        ("um, the answer is eighty five", None, "85", true),
        ("85.0", None, "85", true),
        ("85", None, "85.0", true),
        ("eighty six", None, "85", false),
        ("85", None, "-85", false),
        ("minus eighty five", None, "-85", true),
        ("2.5", None, "2.5", true),
        ("two point five", None, "2.5", true),
        ("two and a half", None, "2.50", true),
        ("2.49", None, "2.5", false),
        ("2.5", None, "2.55", false),
        ("1,200", None, "1200", true),
        ("twelve hundred", None, "1200", true),
        ("one thousand two hundred", None, "1,200", true),
        ("192.168.1.128", None, "192.168.1.128", true),
        (
            "one nine two dot one six eight dot one dot one two eight",
            None,
            "192.168.1.128",
            true,
        ),
        (
            "one ninety two dot one sixty eight dot one dot one twenty eight",
            None,
            "192.168.1.128",
            true,
        ),
        ("192.168.1.129", None, "192.168.1.128", false),
        ("255.255.255.192", None, "255.255.255.192", true),
        (
            "two five five dot two five five dot two five five dot one nine two",
            None,
            "255.255.255.192",
            true,
        ),
        ("slash twenty six", None, "255.255.255.192", false),
        ("slash twenty six", None, "/26", true),
        ("/26", None, "/26", true),
        ("slash twenty six", None, "26", true),
        ("twenty six", None, "/26", true),
        ("/25", None, "/26", false),
        ("B", Some(4), "B", true),
        ("the answer is b.", Some(4), "B", true),
        ("option two", Some(4), "B", true),
        ("the second one", Some(4), "b)", true),
        ("option bravo", Some(4), "option B", true),
        ("C", Some(4), "B", false),
        ("option two", Some(4), "2", false),
        ("B", Some(4), "Class B airspace", false),
        ("B", None, "B", true),
        ("2", Some(4), "2", true),
        ("two", Some(4), "2", true),
        ("Class B airspace", None, "Class B airspace", true),
        ("class b airspace.", None, "Class B airspace", true),
        (
            "Um, I think it's Class B airspace",
            None,
            "Class B airspace",
            true,
        ),
        ("  CLASS  B   AIRSPACE ", None, "Class B airspace", true),
        ("Class C airspace", None, "Class B airspace", false),
        ("Class-B airspace", None, "Class B airspace", false),
        ("85", None, "eighty five", true),
        ("eighty five percent", None, "85", false),
        ("85", None, "85 knots", false),
        ("", None, "85", false),
        ("um", None, "", true),
        ("192.168.1.0", None, "192.168.1.0/24", false),
        ("192.168.1.0/24", None, "192.168.1.0/24", true),
        // Speech-to-text artefacts, through the key's kind.
        ("h e 5", None, "HE5", true),
        ("He-5", None, "HE5", true),
        ("H E five", None, "HE5", true),
        ("HE5", None, "he-5", true),
        ("h e 6", None, "HE5", false),
        ("e h 5", None, "HE5", false),
        ("h e 5", None, "H E 5 X", false),
        ("1 000", None, "1000", true),
        ("one thousand", None, "1 000", true),
        ("niner", None, "9", true),
        ("tree five", None, "35", true),
        ("tree", None, "3", false),
        ("double five", None, "55", true),
        ("one oh five", None, "105", true),
        ("negative five", None, "-5", true),
        ("three point five", None, "3.5", true),
        ("point five", None, "0.5", true),
        ("85", None, "85%", true),
        ("eighty five percent", None, "85%", true),
        ("85 per cent", None, "85 percent", true),
        ("86%", None, "85%", false),
        ("85 knots", None, "85%", false),
        ("192 168 1 0", None, "192.168.1.0", true),
        ("192, 168, 1, 0", None, "192.168.1.0", true),
        ("192 168 1 0", None, "192.168.1.1", false),
        ("192.16/8.1.0", None, "192.168.1.0", true),
        (
            "one ninety two dot one sixty eight dot one dot zero slash twenty four",
            None,
            "192.168.1.0/24",
            true,
        ),
        ("192.168.1.0 / 24", None, "192.168.1.0/24", true),
        ("192.168.1.0/25", None, "192.168.1.0/24", false),
        ("I don't know", None, "85", false),
        ("I don't know", None, "I don't know", true),
        ("The answer is 85, please.", Some(4), "85", true),
        // Generic lead-ins, through the key's kind.
        (
            "The network address is one ninety two dot one sixty eight dot ten dot zero",
            Some(4),
            "192.168.10.0",
            true,
        ),
        (
            "The network address is one ninety two dot one sixty eight dot ten dot one",
            Some(4),
            "192.168.10.0",
            false,
        ),
        ("It's 192.168.10.0", Some(4), "192.168.10.0", true),
        ("the answer should be 8206", None, "8206", true),
        ("the answer should be 8207", None, "8206", false),
        ("the answer is not 85", None, "85", false),
        (
            "the broadcast address would be 10.0.0.255",
            None,
            "10.0.0.255",
            true,
        ),
    ];

    #[test]
    fn table() {
        for &(raw, options, keyed, expected) in CASES {
            check((raw, options, keyed), expected);
        }
    }

    /// Fragments glued into random answers to look for panics and broken invariants.
    const FRAGMENTS: &[&str] = &[
        "one",
        "10.0.0.1",
        "nine",
        "oh",
        "twelve",
        "ninety",
        "hundred",
        "thousand",
        "billion",
        "and",
        "a",
        "half",
        "point",
        "dot",
        "slash",
        "minus",
        "option",
        "the",
        "second",
        "last",
        "b",
        "um",
        "it's",
        "255",
        "999999999999",
        "0",
        "1,200",
        ".",
        ",",
        "-",
        "/",
        "(",
        ")",
        "'",
        "\u{2019}",
        "\u{2212}",
        "\u{130}",
        "\u{df}",
        "\u{2026}",
        "\u{301}",
        "\u{1f600}",
        "niner",
        "tree",
        "double",
        "percent",
        "%",
        "h",
        "000",
        "please",
    ];

    #[test]
    fn random_answers_never_panic_and_match_themselves() {
        let mut seed: u64 = 42;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(seed >> 33).unwrap_or(0) % bound
        };
        for _ in 0..30_000 {
            let mut raw = String::new();
            for _ in 0..next(9) {
                raw.push_str(FRAGMENTS[next(FRAGMENTS.len())]);
                raw.push_str(["", " ", " ", "-", "."][next(5)]);
            }
            let given = normalize_answer(&raw, None);
            assert!(
                answers_match(&given, &raw),
                "{raw:?} -> {given:?} should match itself"
            );
            let _ = normalize_answer(&raw, Some(next(30)));
            round_trips(&given);
        }
    }

    /// Numbers and addresses re-normalise to themselves from their canonical spelling.
    fn round_trips(given: &Normalized) {
        let spelled = match given {
            Normalized::Number(n) => n.to_string(),
            Normalized::Ipv4([a, b, c, d]) => format!("{a}.{b}.{c}.{d}"),
            Normalized::Cidr(p) => format!("/{p}"),
            _ => return,
        };
        assert_eq!(&normalize_answer(&spelled, None), given, "{spelled:?}");
    }
}
