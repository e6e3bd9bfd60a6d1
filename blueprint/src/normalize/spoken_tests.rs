//! Tests of spoken answers: every measured speech-recognition error, the same answers said
//! wrong, round trips of `understood_as`, and garbage.

use super::super::{answers_match, normalize_answer};
use super::*;

const NUMBERS: &[&str] = &["77400", "74700", "7740", "77040"];
const AIRSPACE: &[&str] = &[
    "Class A airspace",
    "Class B airspace",
    "Class C airspace",
    "Class D airspace",
];
const NETWORKS: &[&str] = &[
    "192.168.10.0",
    "192.168.10.255",
    "192.168.11.0",
    "192.168.10.1",
];

/// Expected reading: understood as (text, option, repaired), not an option, ambiguous
/// between readings, or unclear.
#[derive(Debug, Clone, Copy)]
pub(super) enum Want {
    Is(&'static str, Option<usize>, bool),
    NotAnOption(&'static str),
    Ambiguous(&'static [&'static str]),
    Unclear,
}

pub(super) fn read(transcript: &str, key: &str, options: &[&str]) -> SpokenReading {
    let options: Vec<String> = options.iter().map(|o| (*o).to_string()).collect();
    read_spoken(transcript, &Expectation::of_item(key, &options))
}

pub(super) fn check(input: (&str, &str, &[&str]), want: Want) {
    let (transcript, key, options) = input;
    let reading = read(transcript, key, options);
    let ok = match (&reading, want) {
        (
            SpokenReading::Understood {
                understood_as,
                option,
                repaired,
                ..
            },
            Want::Is(text, index, was_repaired),
        ) => understood_as == text && *option == index && *repaired == was_repaired,
        (SpokenReading::NotAnOption { understood_as, .. }, Want::NotAnOption(text)) => {
            understood_as == text
        }
        (SpokenReading::Ambiguous { readings, .. }, Want::Ambiguous(texts)) => readings == texts,
        (SpokenReading::Unclear { .. }, Want::Unclear) => true,
        _ => false,
    };
    assert!(ok, "{input:?}: got {reading:?}, want {want:?}");
    round_trips(&reading, key, options);
}

/// An answer's `understood_as` reads back as its value and gets the same verdict.
fn round_trips(reading: &SpokenReading, key: &str, options: &[&str]) {
    let (value, text) = match reading {
        SpokenReading::Understood {
            value,
            understood_as,
            ..
        }
        | SpokenReading::NotAnOption {
            value,
            understood_as,
        } => (value, understood_as),
        _ => return,
    };
    let again = normalize_answer(text, Some(options.len()));
    assert_eq!(&again, value, "{text:?}");
    let index = options.iter().position(|o| *o == key);
    assert_eq!(
        right(&again, key, index),
        right(value, key, index),
        "{text:?}"
    );
}

/// The server's verdict: an option by its index, anything else against the key.
fn right(value: &Normalized, key: &str, answer_index: Option<usize>) -> bool {
    match value {
        Normalized::OptionIndex(index) => Some(*index) == answer_index,
        other => answers_match(other, key),
    }
}

const CASES: &[(&str, &str, &[&str], Want)] = &[
    // Option phrases as whisper tiny.en heard them, and as said.
    (
        "Abshna",
        "77400",
        NUMBERS,
        Want::Is("option A", Some(0), true),
    ),
    (
        "Apshana",
        "77400",
        NUMBERS,
        Want::Is("option A", Some(0), true),
    ),
    (
        "Aptina.",
        "77400",
        NUMBERS,
        Want::Is("option A", Some(0), true),
    ),
    (
        "Opshun B",
        "74700",
        NUMBERS,
        Want::Is("option B", Some(1), true),
    ),
    (
        "Option A",
        "77400",
        NUMBERS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "option bee",
        "74700",
        NUMBERS,
        Want::Is("option B", Some(1), false),
    ),
    (
        "the right option is c",
        "7740",
        NUMBERS,
        Want::Is("option C", Some(2), false),
    ),
    ("option eight", "77400", NUMBERS, Want::Unclear),
    (
        "class bee airspace",
        "Class B airspace",
        AIRSPACE,
        Want::Is("option B", Some(1), true),
    ),
    (
        "Class B airspace.",
        "Class B airspace",
        AIRSPACE,
        Want::Is("class b airspace", Some(1), false),
    ),
    (
        "Class E airspace",
        "Class B airspace",
        AIRSPACE,
        Want::NotAnOption("class e airspace"),
    ),
    // Values among the options, and not.
    (
        "seventy seven thousand four hundred",
        "77400",
        NUMBERS,
        Want::Is("77400", Some(0), false),
    ),
    ("7,400", "77400", NUMBERS, Want::NotAnOption("7400")),
    // Numbers joined, tens homophones, decimals.
    ("8200 and 6", "8206", &[], Want::Is("8206", None, true)),
    (
        "eight thousand two hundred and six",
        "8206",
        &[],
        Want::Is("8206", None, false),
    ),
    ("45,700 and 47", "45747", &[], Want::Is("45747", None, true)),
    ("8200 and 60 6", "8206", &[], Want::Unclear),
    ("AT8", "88", &[], Want::Is("88", None, true)),
    ("eighty eight", "88", &[], Want::Is("88", None, false)),
    ("60 2", "62", &[], Want::Is("62", None, true)),
    ("60 2. 5", "62.5", &[], Want::Is("62.5", None, true)),
    ("62. 5", "62.5", &[], Want::Is("62.5", None, true)),
    ("62 point 5", "62.5", &[], Want::Is("62.5", None, false)),
    ("62. 5", "625", &[], Want::Unclear),
    ("62. 5", "62", &[], Want::Unclear),
    ("12. 5 percent", "12.5%", &[], Want::Is("12.5", None, true)),
    // Addresses.
    (
        "126. 3. 13. 5. 254",
        "126.3.135.254",
        &[],
        Want::Is("126.3.135.254", None, true),
    ),
    (
        "53. 2423. 4. 254",
        "53.24.234.254",
        &[],
        Want::Ambiguous(&["53.24.234.254", "53.242.34.254"]),
    ),
    ("255. 192.", "255.255.255.192", &[], Want::Unclear),
    (
        "The network address is one ninety two dot one sixty eight dot ten dot zero",
        "192.168.10.0",
        NETWORKS,
        Want::Is("192.168.10.0", Some(0), false),
    ),
    (
        "It's 192.168.10.0",
        "192.168.10.0",
        NETWORKS,
        Want::Is("192.168.10.0", Some(0), false),
    ),
    (
        "the network address is 126. 3. 13. 5. 254",
        "126.3.135.254",
        &[],
        Want::Is("126.3.135.254", None, true),
    ),
    // Other kinds, and nothing.
    (
        "the prefix is twenty six",
        "/26",
        &[],
        Want::Is("/26", None, false),
    ),
    ("h e 5", "HE5", &[], Want::Is("HE5", None, false)),
    (
        "Class B airspace",
        "Class B airspace",
        &[],
        Want::Is("class b airspace", None, false),
    ),
    ("I don't know", "85", &[], Want::Unclear),
    ("I don't know.", "Class B airspace", AIRSPACE, Want::Unclear),
    ("um", "85", NUMBERS, Want::Unclear),
];

#[test]
fn misheard_answers_read_as_the_item_expects() {
    for &(transcript, key, options, want) in CASES {
        check((transcript, key, options), want);
    }
}

/// `(transcript, key, options)`: answers said wrong, which no repair may make right.
const WRONG: &[(&str, &str, &[&str])] = &[
    ("8200 and 7", "8206", &[]),
    ("45,700 and 48", "45747", &[]),
    ("8200 and 60 6", "8206", &[]),
    ("AT7", "88", &[]),
    ("60 3", "62", &[]),
    ("60 2. 6", "62.5", &[]),
    ("63. 5", "62.5", &[]),
    ("62. 5", "625", &[]),
    ("126. 3. 13. 6. 254", "126.3.135.254", &[]),
    ("126. 3. 13. 5. 253", "126.3.135.254", &[]),
    ("53. 2423. 4. 254", "53.24.234.254", &[]),
    (
        "The network address is one ninety two dot one sixty eight dot ten dot one",
        "192.168.10.0",
        NETWORKS,
    ),
    ("Apshana", "74700", NUMBERS),
    ("Abshna", "74700", NUMBERS),
    ("option sea", "74700", NUMBERS),
    ("Opshun D", "74700", NUMBERS),
    ("option e", "77400", NUMBERS),
    ("7,400", "77400", NUMBERS),
    ("seventy seven thousand four hundred", "74700", NUMBERS),
    ("class sea airspace", "Class B airspace", AIRSPACE),
    ("Class E airspace", "Class A airspace", AIRSPACE),
    ("class airspace", "Class A airspace", AIRSPACE),
];

#[test]
fn wrong_answers_stay_wrong() {
    for &(transcript, key, options) in WRONG {
        check_wrong(transcript, key, options);
    }
}

/// A wrong answer: unread, or read as a value that is not the key.
pub(super) fn check_wrong(transcript: &str, key: &str, options: &[&str]) {
    let reading = read(transcript, key, options);
    let index = options.iter().position(|o| *o == key);
    let value = match &reading {
        SpokenReading::Understood { value, .. } | SpokenReading::NotAnOption { value, .. } => value,
        _ => return,
    };
    assert!(!right(value, key, index), "{transcript:?}: {reading:?}");
    round_trips(&reading, key, options);
}

/// Keys and options the garbage is read against, one of each kind.
const ITEMS: &[(&str, &[&str])] = &[
    ("8206", &[]),
    ("62.5", &[]),
    ("77400", NUMBERS),
    ("126.3.135.254", &[]),
    ("192.168.10.0", NETWORKS),
    ("/26", &[]),
    ("12.5%", &[]),
    ("HE5", &[]),
    ("Class B airspace", AIRSPACE),
    ("Class B airspace", &[]),
];

#[test]
fn garbage_is_unclear_and_never_panics() {
    let long_digits = "9".repeat(5_000);
    let dots = "1. ".repeat(2_000);
    let words = "abshna ".repeat(1_000);
    let garbage = [
        "",
        "   ",
        "...",
        "!!! ??? ,,,",
        "\u{1f600}\u{1f600}",
        "\u{65e5}\u{672c}\u{8a9e}",
        "\u{301}\u{2212}\u{130}",
        long_digits.as_str(),
        dots.as_str(),
        words.as_str(),
    ];
    for &(key, options) in ITEMS {
        let kind = AnswerKind::of_key(key);
        for text in garbage {
            let reading = read(text, key, options);
            round_trips(&reading, key, options);
            let unclear = matches!(reading, SpokenReading::Unclear { .. });
            let text_item = kind == AnswerKind::Text && !text.trim().is_empty();
            assert!(unclear || text_item, "{key:?} {text:.40?}: {reading:?}");
        }
    }
}

/// Fragments glued into random transcripts.
const FRAGMENTS: &[&str] = &[
    "8200",
    "and",
    "6",
    "60",
    "2.",
    "5",
    "AT8",
    ".",
    "dot",
    "point",
    "one",
    "ninety",
    "two",
    "126.",
    "13.",
    "254",
    "option",
    "Abshna",
    "bee",
    "sea",
    "the",
    "address",
    "is",
    "percent",
    "%",
    "slash",
    "/",
    "-",
    ",",
    "45,700",
    "\u{1f600}",
    "\u{e9}",
    "\u{2212}",
    "99999999999999",
    "class",
    "b",
    "airspace",
    "um",
    "h",
    "e",
    "would",
    "be",
];

#[test]
fn random_transcripts_never_panic_and_round_trip() {
    let mut seed: u64 = 7;
    let mut next = |bound: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(seed >> 33).unwrap_or(0) % bound
    };
    for _ in 0..1_500 {
        let mut raw = String::new();
        for _ in 0..next(8) {
            raw.push_str(FRAGMENTS[next(FRAGMENTS.len())]);
            raw.push_str(["", " ", " ", ". ", "-"][next(5)]);
        }
        let (key, options) = ITEMS[next(ITEMS.len())];
        let reading = read(&raw, key, options);
        round_trips(&reading, key, options);
    }
}
