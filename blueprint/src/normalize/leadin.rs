//! Generic lead-ins before a value ("the network address is", "the mask would be"), stripped
//! only when the caller expects a kind and what follows reads as that kind.

/// Verbs (one or two words) that end a lead-in, longest first.
const COPULAS: &[&[&str]] = &[
    &["would", "be"],
    &["should", "be"],
    &["will", "be"],
    &["must", "be"],
    &["is"],
    &["are"],
    &["equals"],
    &["="],
];

/// The most words a lead-in may have before its verb ("the broadcast address of the subnet").
const MAX_LEAD_WORDS: usize = 5;

/// Words that make a lead-in a negation or a hedge, never dropped ("the answer is not ...").
const NEGATIONS: &[&str] = &["not", "never", "no", "isn't", "aren't", "wouldn't"];

/// The words after a lead-in of 1..=[`MAX_LEAD_WORDS`] words ending in one of [`COPULAS`]
/// ("the subnet mask is 255.255.255.0" -> "255.255.255.0"), or `None` when `cleaned` (a
/// filler-free lowercase answer) has no such lead-in or nothing after it.
///
/// The lead-in words must be plain words (letters and apostrophes, no negation), so a value
/// is never dropped: "192.168.1.0 is" and "85 equals 85" have no lead-in. Whether the rest
/// reads as the expected kind is for the caller to decide.
pub(super) fn strip_lead_in(cleaned: &str) -> Option<String> {
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let cores: Vec<&str> = words.iter().map(|w| core(w)).collect();
    for at in 1..=MAX_LEAD_WORDS.min(cores.len()) {
        let lead = cores.get(..at)?;
        if !lead.iter().all(|w| is_plain_word(w)) {
            return None;
        }
        let rest = cores.get(at..)?;
        if let Some(copula) = COPULAS.iter().find(|c| rest.starts_with(c)) {
            let value = words.get(at + copula.len()..)?;
            return (!value.is_empty()).then(|| value.join(" "));
        }
    }
    None
}

/// A word without surrounding punctuation ("is:" -> "is"); "=" is kept.
fn core(word: &str) -> &str {
    if word == "=" {
        return word;
    }
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

/// Letters and inner apostrophes only, and not a negation.
fn is_plain_word(word: &str) -> bool {
    !word.is_empty()
        && word.chars().all(|c| c.is_alphabetic() || c == '\'')
        && !NEGATIONS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<&str>) {
        assert_eq!(
            strip_lead_in(input).as_deref(),
            expected,
            "input: {input:?}"
        );
    }

    const CASES: &[(&str, Option<&str>)] = &[
        ("the network address is 192.168.1.0", Some("192.168.1.0")),
        (
            "the network address is one ninety two dot one sixty eight dot ten dot zero",
            Some("one ninety two dot one sixty eight dot ten dot zero"),
        ),
        ("the subnet mask is: 255.255.255.0", Some("255.255.255.0")),
        (
            "the broadcast address would be 10.0.0.255",
            Some("10.0.0.255"),
        ),
        ("the answer should be 85", Some("85")),
        ("the hosts are 62", Some("62")),
        ("x equals 5", Some("5")),
        ("total = 85", Some("85")),
        ("broadcast address of this subnet is 1", Some("1")),
        ("the broadcast address of this subnet is 1", None),
        ("one two three four five six is 7", None),
        ("the answer is not 85", Some("not 85")),
        ("the answer isn't 85", None),
        ("it is not", Some("not")),
        ("not is 85", None),
        ("192.168.1.0 is it", None),
        ("85 equals 85", None),
        ("is 85", None),
        ("the answer is", None),
        ("85", None),
        ("", None),
        ("class b airspace", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
