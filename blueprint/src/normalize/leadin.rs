//! Generic lead-ins before a value ("the network address is", "the mask would be"), stripped
//! only when the caller expects a kind and what follows reads as that kind; and loose
//! lead-ins as speech recognition mangles them ("the network addresses 72.254.192.128").

use super::vocab::{digit_word, ordinal_value, scale_value, starts_spoken_number};

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

/// The most words a loose lead-in may have ("the network address of the subnet").
const MAX_LOOSE_WORDS: usize = 6;

/// Words that change what the value after them means ("less than 85", "anything but 85",
/// "neither 85", "option 8"): a loose lead-in with one of them is never dropped. Words
/// ending in "n't" count too.
const QUALIFIERS: &[&str] = &[
    "option",
    "options",
    "choice",
    "letter",
    "not",
    "no",
    "never",
    "neither",
    "nor",
    "none",
    "nothing",
    "without",
    "except",
    "but",
    "than",
    "more",
    "less",
    "fewer",
    "or",
    "either",
    "least",
    "most",
    "about",
    "around",
    "approximately",
    "roughly",
    "nearly",
    "almost",
    "over",
    "under",
    "above",
    "below",
    "between",
    "up",
    "before",
    "after",
    "plus",
    "times",
    "divided",
    "multiplied",
    "minus",
    "negative",
    "half",
    "quarter",
    "double",
    "triple",
    "twice",
];

/// Words a loose lead-in never ends in: those speech recognition writes for "eighty" ("at 8",
/// "it g 5.75", "a t 8"), so "at 8" is never read as 8, and "number" ("number 2" may be an
/// option).
const ENDINGS: &[&str] = &[
    "at", "ate", "g", "itchy", "h", "he", "hey", "a", "t", "number",
];

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

/// The words after a loose lead-in (see [`strip_lead_in`] for the strict one): the leading
/// run of 1..=[`MAX_LOOSE_WORDS`] words of letters ("the network addresses 72.254.192.128"
/// -> "72.254.192.128", whisper's "addresses" for "address is"), or `None`.
///
/// The run ends at the first word with a digit or a number word ("the answer eighty five"
/// keeps "eighty five"), and is never dropped when one of its words is a negation or a
/// qualifier ([`QUALIFIERS`], "not 85", "less than 85") or when its last word is a homophone
/// of "eighty" or "number" ([`ENDINGS`], "at 8"). Whether the rest reads as the expected kind is
/// for the caller to decide; letters can be values (codes, option letters), so callers use
/// this only for numbers, percentages, addresses and prefixes.
pub(super) fn strip_loose_lead_in(cleaned: &str) -> Option<String> {
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let run = words.iter().take_while(|w| is_loose_word(core(w))).count();
    let lead = words.get(..run)?;
    let rest = words.get(run..)?;
    let last = core(lead.last()?);
    let blocked = lead.iter().any(|w| is_qualifier(core(w))) || ENDINGS.contains(&last);
    let fits = run <= MAX_LOOSE_WORDS && !rest.is_empty();
    (fits && !blocked).then(|| rest.join(" "))
}

/// Letters with inner apostrophes or hyphens, and not a number word.
fn is_loose_word(word: &str) -> bool {
    let letters = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphabetic() || c == '\'' || c == '\u{2019}' || c == '-');
    letters && !is_number_word(word)
}

/// A word a spoken number may have: a digit, teen, tens, scale or ordinal word, "hundred",
/// "point".
fn is_number_word(word: &str) -> bool {
    matches!(word, "hundred" | "point")
        || starts_spoken_number(word)
        || digit_word(word).is_some()
        || scale_value(word).is_some()
        || ordinal_value(word).is_some()
}

/// A negation ("not", "isn't", "don't") or a qualifier ([`QUALIFIERS`]).
fn is_qualifier(word: &str) -> bool {
    QUALIFIERS.contains(&word) || word.ends_with("n't") || word.ends_with("n\u{2019}t")
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

    const LOOSE: &[(&str, Option<&str>)] = &[
        (
            "the network addresses 72.254.192.128.",
            Some("72.254.192.128."),
        ),
        ("the network address: 10.0.0.1", Some("10.0.0.1")),
        ("network address 10. 0. 0. 1", Some("10. 0. 0. 1")),
        ("the answer eighty five", Some("eighty five")),
        ("the prefix slash 26", Some("26")),
        ("a b c d e f 85", Some("85")),
        ("a b c d e f g 85", None),
        ("not 72.254.192.128", None),
        ("the address isn't 10.0.0.1", None),
        ("the answer wasn't 85", None),
        ("no 85", None),
        ("less than 85", None),
        ("anything but 85", None),
        ("more or less 85", None),
        ("the hosts per subnet 62", Some("62")),
        ("at 8", None),
        ("the value at 5", None),
        ("it g 5.75", None),
        ("itchy 5.75", None),
        ("hey 5", None),
        ("a 5", None),
        ("option eight", None),
        ("the choice 8", None),
        ("number 2", None),
        ("the number of hosts 62", Some("62")),
        ("85", None),
        ("the answer", None),
        ("one 85", None),
        ("", None),
    ];

    #[test]
    fn loose_lead_ins() {
        for &(input, expected) in LOOSE {
            let actual = strip_loose_lead_in(input);
            assert_eq!(actual.as_deref(), expected, "input: {input:?}");
        }
    }
}
