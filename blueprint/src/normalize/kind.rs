//! Answer kinds and kind-directed normalisation: what an item expects decides how to read it.

use super::alnum::{compact_code, is_code_key};
use super::ipv4::parse_ipv4_bare;
use super::leadin::strip_lead_in;
use super::options::parse_spoken_choice;
use super::pipeline::Answer;
use super::text::canonical_text;
use super::value::Normalized;

/// What an item expects as its answer, when the caller knows (or [`AnswerKind::of_key`]
/// infers it from the keyed answer).
///
/// Knowing the kind lets [`normalize_as`] accept forms that would be ambiguous otherwise: a
/// bare "26" is a prefix when a prefix is expected, "192 168 1 0" is an address when an
/// address is expected, and "bee" is option B when an option letter is expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AnswerKind {
    /// A number ("85", "2.5", "-7", "1 000", "tree point fife").
    Number,
    /// A percentage; the unit ("%", "percent", "per cent") is optional and dropped.
    Percent,
    /// A dotted IPv4 address or mask; four bare typed octets are accepted too.
    Ipv4,
    /// A CIDR prefix length ("/26", "slash 26", or a bare 0..=32) or a network in CIDR
    /// notation ("192.168.1.0/24", returned as canonical text).
    Cidr,
    /// An alphanumeric code such as "HE5", "27L" or "A320", compared without case or
    /// separators ("h e 5", "He-5" and "h e five" are all `he5`).
    Alphanumeric,
    /// Free text: only filler removal and [`super::canonical_text`].
    Text,
    /// A multiple-choice option.
    Choice {
        /// How many options the item shows.
        options: usize,
    },
}

impl AnswerKind {
    /// The kind of a keyed answer: [`AnswerKind::Number`] for "85" or "2.5",
    /// [`AnswerKind::Ipv4`] for "255.255.255.192", [`AnswerKind::Cidr`] for "/26" or
    /// "192.168.1.0/24", [`AnswerKind::Percent`] for "85%", [`AnswerKind::Alphanumeric`] for a
    /// one-word code with letters and digits ("HE5", "27L"), otherwise [`AnswerKind::Text`].
    /// Never [`AnswerKind::Choice`]: a key does not say how many options there are.
    pub fn of_key(keyed: &str) -> Self {
        let answer = Answer::new(keyed);
        if answer.network().is_some() {
            return Self::Cidr;
        }
        match answer.sniff(None) {
            Some(Normalized::Number(_)) => Self::Number,
            Some(Normalized::Ipv4(_)) => Self::Ipv4,
            Some(Normalized::Cidr(_)) => Self::Cidr,
            _ if answer.percent_number().is_some() && answer.percent().is_some() => Self::Percent,
            _ if is_code_key(&canonical_text(&answer.cleaned)) => Self::Alphanumeric,
            _ => Self::Text,
        }
    }
}

/// Normalises a typed or spoken answer, reading it as `kind` when the caller knows what the
/// item expects.
///
/// With `None` this is exactly [`super::normalize_answer`]`(raw, None)`. With a kind, fillers
/// are removed and speech-to-text artefacts repaired as usual, then only that kind is tried
/// (see [`AnswerKind`] for what each accepts); [`AnswerKind::Choice`] falls back to the
/// kind-less reading with options, so "2" is still a number. For every kind but
/// [`AnswerKind::Text`], a short lead-in ending in "is", "are", "would be", "should be",
/// "equals" or "=" is dropped when what follows reads as the kind ("the network address is
/// 192.168.10.0"). Whatever does not parse as the expected kind is [`Normalized::Text`]:
/// "I don't know" stays text under every kind.
pub fn normalize_as(raw: &str, kind: Option<AnswerKind>) -> Normalized {
    let answer = Answer::new(raw);
    let parsed = match kind {
        None => answer.sniff(None),
        Some(kind) => read_as(&answer, kind),
    };
    parsed.unwrap_or_else(|| answer.text())
}

/// `answer` read as `kind` only; for every kind but [`AnswerKind::Text`], a generic lead-in
/// ("the network address is", see [`strip_lead_in`]) is dropped when the answer does not read
/// as it stands but what follows the lead-in does. `None` when it does not read as `kind`.
pub(super) fn read_as(answer: &Answer, kind: AnswerKind) -> Option<Normalized> {
    read_plain(answer, kind).or_else(|| {
        if kind == AnswerKind::Text {
            return None;
        }
        let rest = strip_lead_in(&answer.cleaned)?;
        read_plain(&Answer::new(&rest), kind)
    })
}

fn read_plain(answer: &Answer, kind: AnswerKind) -> Option<Normalized> {
    match kind {
        AnswerKind::Number => answer.number().or_else(|| answer.misheard_number()),
        AnswerKind::Percent => answer.percent(),
        AnswerKind::Ipv4 => parse_ipv4_bare(&answer.repaired).map(Normalized::Ipv4),
        AnswerKind::Cidr => answer.network().or_else(|| answer.prefix()),
        AnswerKind::Alphanumeric => compact_code(&answer.cleaned).map(Normalized::Text),
        AnswerKind::Text => None,
        AnswerKind::Choice { options } => parse_spoken_choice(&answer.cleaned, options)
            .map(Normalized::OptionIndex)
            .or_else(|| answer.sniff(Some(options))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::normalize_answer;
    use super::super::tests::Exp;
    use super::*;

    const NUM: Option<AnswerKind> = Some(AnswerKind::Number);
    const PCT: Option<AnswerKind> = Some(AnswerKind::Percent);
    const IP: Option<AnswerKind> = Some(AnswerKind::Ipv4);
    const CIDR: Option<AnswerKind> = Some(AnswerKind::Cidr);
    const CODE: Option<AnswerKind> = Some(AnswerKind::Alphanumeric);
    const TEXT: Option<AnswerKind> = Some(AnswerKind::Text);
    const MC: Option<AnswerKind> = Some(AnswerKind::Choice { options: 4 });

    /// `input` is `(transcript, expected kind)`.
    fn check(input: (&str, Option<AnswerKind>), expected: Exp) {
        let (raw, kind) = input;
        let expected = expected.into_normalized();
        assert_eq!(normalize_as(raw, kind), expected, "input: {input:?}");
        if kind.is_none() {
            assert_eq!(normalize_answer(raw, None), expected, "kind-less: {raw:?}");
        }
    }

    const CASES: &[(&str, Option<AnswerKind>, Exp)] = &[
        // Letters glued to, spaced from or hyphenated to digits.
        ("HE5", CODE, Exp::Text("he5")),
        ("h e 5", CODE, Exp::Text("he5")),
        ("He-5", CODE, Exp::Text("he5")),
        ("H.E. 5", CODE, Exp::Text("he5")),
        ("H E five.", CODE, Exp::Text("he5")),
        ("I think it's h e 5", CODE, Exp::Text("he5")),
        ("two seven L", CODE, Exp::Text("27l")),
        ("runway two seven L", CODE, Exp::Text("runway27l")),
        ("h e", CODE, Exp::Text("h e")),
        ("Class B airspace", CODE, Exp::Text("class b airspace")),
        ("h e 5", None, Exp::Text("h e 5")),
        ("He-5", None, Exp::Text("he-5")),
        // Thousands separators, decimals, signs.
        ("1,000", NUM, Exp::Int(1_000)),
        // Tens words and "eighty" as tiny.en writes them, when a number is expected.
        ("The answer is 4 G7.", NUM, Exp::Int(47)),
        ("The answer is 600H.", NUM, Exp::Int(680)),
        ("The answer is 1,04.", NUM, Exp::Int(1_004)),
        ("HE5", NUM, Exp::Int(85)),
        ("1 000", NUM, Exp::Int(1_000)),
        ("1 000", None, Exp::Int(1_000)),
        ("1 000 000", None, Exp::Int(1_000_000)),
        ("minus 1 000", NUM, Exp::Int(-1_000)),
        ("3.5", NUM, Exp::Dec("3.5")),
        ("three point five", NUM, Exp::Dec("3.5")),
        ("point five", NUM, Exp::Dec("0.5")),
        ("minus five", NUM, Exp::Int(-5)),
        ("negative five", NUM, Exp::Int(-5)),
        ("negative three point five", None, Exp::Dec("-3.5")),
        // Aviation digits and digit-by-digit speech.
        ("niner", NUM, Exp::Int(9)),
        ("fife", NUM, Exp::Int(5)),
        ("niner fife", None, Exp::Int(95)),
        ("one niner two", None, Exp::Int(192)),
        ("fife thousand", None, Exp::Int(5_000)),
        ("tree five", NUM, Exp::Int(35)),
        ("tree tree", None, Exp::Int(33)),
        ("tree point fife", NUM, Exp::Dec("3.5")),
        ("tree", NUM, Exp::Text("tree")),
        ("tree hundred", NUM, Exp::Text("tree hundred")),
        ("one oh five", NUM, Exp::Int(105)),
        ("one o five", None, Exp::Int(105)),
        ("oh", NUM, Exp::Text("oh")),
        ("double five", NUM, Exp::Int(55)),
        ("double five", None, Exp::Int(55)),
        ("one double five", None, Exp::Int(155)),
        ("double oh seven", None, Exp::Int(7)),
        ("triple seven", None, Exp::Int(777)),
        ("double", NUM, Exp::Text("double")),
        ("double twenty", NUM, Exp::Text("double twenty")),
        // Percentages: the unit counts only where a percentage is expected.
        ("85%", PCT, Exp::Int(85)),
        ("85 percent", PCT, Exp::Int(85)),
        ("eighty five per cent.", PCT, Exp::Int(85)),
        ("12.5%", PCT, Exp::Dec("12.5")),
        ("85", PCT, Exp::Int(85)),
        ("percent", PCT, Exp::Text("percent")),
        ("85%", NUM, Exp::Text("85%")),
        (
            "eighty five percent",
            None,
            Exp::Text("eighty five percent"),
        ),
        // Standard grammar and things that are not numbers.
        ("five hundred and twelve", NUM, Exp::Int(512)),
        ("a hundred", NUM, Exp::Int(100)),
        ("twelve hundred", NUM, Exp::Int(1_200)),
        ("I don't know", NUM, Exp::Text("i don't know")),
        ("I don't know", None, Exp::Text("i don't know")),
        ("I don't know", IP, Exp::Text("i don't know")),
        ("nineteen two", NUM, Exp::Text("nineteen two")),
        ("192.168.1.0", NUM, Exp::Text("192.168.1.0")),
        // Lead-ins and tails.
        ("The answer is 85.", NUM, Exp::Int(85)),
        ("I think it's eighty five", NUM, Exp::Int(85)),
        ("my answer is 85, I think", None, Exp::Int(85)),
        ("Um, uh, so, 85 please", None, Exp::Int(85)),
        ("it's eighty-five, please.", NUM, Exp::Int(85)),
        ("so", NUM, Exp::Text("")),
        // Addresses.
        ("192.168.1.0", IP, Exp::Ip([192, 168, 1, 0])),
        (
            "192 point 168 point 1 point 1",
            None,
            Exp::Ip([192, 168, 1, 1]),
        ),
        ("192.16/8.1.0", None, Exp::Ip([192, 168, 1, 0])),
        ("192,168,1,0", None, Exp::Ip([192, 168, 1, 0])),
        ("192.168, 1 dot 0.", None, Exp::Ip([192, 168, 1, 0])),
        (
            "The answer is 192.168.1.1.",
            None,
            Exp::Ip([192, 168, 1, 1]),
        ),
        ("192 168 1 0", IP, Exp::Ip([192, 168, 1, 0])),
        ("192, 168, 1, 0", IP, Exp::Ip([192, 168, 1, 0])),
        ("192 168 1 0", None, Exp::Text("192 168 1 0")),
        ("192,168,100,100", None, Exp::Int(192_168_100_100)),
        ("192,168,100,100", IP, Exp::Ip([192, 168, 100, 100])),
        (
            "one niner two dot one six eight dot one dot one",
            None,
            Exp::Ip([192, 168, 1, 1]),
        ),
        (
            "two double five dot two double five dot two double five dot zero",
            IP,
            Exp::Ip([255, 255, 255, 0]),
        ),
        ("256.1.1.1", IP, Exp::Text("256.1.1.1")),
        // Networks and prefixes.
        ("192.168.1.0/24", None, Exp::Text("192.168.1.0/24")),
        ("192.168.1.0/24", CIDR, Exp::Text("192.168.1.0/24")),
        (
            "one ninety two dot one sixty eight dot one dot zero slash twenty four",
            None,
            Exp::Text("192.168.1.0/24"),
        ),
        (
            "It's 192.168.1.0 slash 24.",
            None,
            Exp::Text("192.168.1.0/24"),
        ),
        ("192.16/8.1.0/24", CIDR, Exp::Text("192.168.1.0/24")),
        ("slash twenty four", None, Exp::Cidr(24)),
        ("/24", CIDR, Exp::Cidr(24)),
        ("24", CIDR, Exp::Cidr(24)),
        ("twenty four", CIDR, Exp::Cidr(24)),
        ("24", None, Exp::Int(24)),
        ("33", CIDR, Exp::Text("33")),
        ("24 bits", CIDR, Exp::Text("24 bits")),
        // Option letters.
        ("B", MC, Exp::Opt(1)),
        ("Bee.", MC, Exp::Opt(1)),
        ("The answer is sea.", MC, Exp::Opt(2)),
        ("bravo", MC, Exp::Opt(1)),
        ("second", MC, Exp::Opt(1)),
        ("2", MC, Exp::Int(2)),
        ("E", MC, Exp::Text("e")),
        ("I don't know", MC, Exp::Text("i don't know")),
        ("bee", None, Exp::Text("bee")),
        // Generic lead-ins, dropped only when the rest reads as the kind.
        (
            "The network address is one ninety two dot one sixty eight dot ten dot zero",
            IP,
            Exp::Ip([192, 168, 10, 0]),
        ),
        (
            "The subnet mask is 255.255.255.192.",
            IP,
            Exp::Ip([255, 255, 255, 192]),
        ),
        ("the answer should be 8206", NUM, Exp::Int(8_206)),
        ("the prefix would be slash 26", CIDR, Exp::Cidr(26)),
        ("the right option is b", MC, Exp::Opt(1)),
        ("the hosts are sixty two", NUM, Exp::Int(62)),
        ("the answer is not 85", NUM, Exp::Text("not 85")),
        ("the mask is unknown", IP, Exp::Text("the mask is unknown")),
        ("the code is h e 5", TEXT, Exp::Text("the code is h e 5")),
        // Text.
        ("85", TEXT, Exp::Text("85")),
        ("Um, Class B airspace.", TEXT, Exp::Text("class b airspace")),
    ];

    #[test]
    fn table() {
        for &(raw, kind, expected) in CASES {
            check((raw, kind), expected);
        }
    }

    #[test]
    fn kind_of_key() {
        let cases: &[(&str, AnswerKind)] = &[
            ("85", AnswerKind::Number),
            ("2.5", AnswerKind::Number),
            ("-7", AnswerKind::Number),
            ("1,000", AnswerKind::Number),
            ("1 000", AnswerKind::Number),
            ("255.255.255.192", AnswerKind::Ipv4),
            ("/26", AnswerKind::Cidr),
            ("192.168.1.0/24", AnswerKind::Cidr),
            ("85%", AnswerKind::Percent),
            ("85 percent", AnswerKind::Percent),
            ("HE5", AnswerKind::Alphanumeric),
            ("He-5", AnswerKind::Alphanumeric),
            ("27L", AnswerKind::Alphanumeric),
            ("Class B airspace", AnswerKind::Text),
            ("B", AnswerKind::Text),
            ("85 knots", AnswerKind::Text),
            ("percent", AnswerKind::Text),
            ("", AnswerKind::Text),
        ];
        for &(key, expected) in cases {
            assert_eq!(AnswerKind::of_key(key), expected, "key: {key:?}");
        }
    }
}
