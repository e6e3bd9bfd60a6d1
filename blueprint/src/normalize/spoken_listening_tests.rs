//! The third measured batch (the listening benchmark: festival and espeak-ng voices, whisper
//! tiny.en and base): "eighty" written as letters inside a number or an octet, a tens word
//! split from a thousands number, looped octets, option phrases that must sound like one, and
//! bare ordinals that may be tens. Each repair has rows said wrong that stay wrong.

use super::super::{AnswerKind, Normalized, normalize_as};
use super::tests::{Want, check, check_wrong};

const NET_82: &[&str] = &[
    "124.204.82.255",
    "124.204.83.0",
    "124.204.82.1",
    "124.204.82.0",
];
const NET_1_82: &[&str] = &["1.82.20.0", "1.82.24.0", "1.82.16.0", "1.82.23.255"];
const NET_85: &[&str] = &["85.14.60.255", "85.14.61.0", "85.14.61.255", "85.14.60.127"];
const NET_109: &[&str] = &[
    "109.135.128.0",
    "109.135.117.0",
    "109.135.0.0",
    "109.135.64.0",
];
const DEC_86: &[&str] = &["87.75", "85.75", "867.5", "86.75"];
const DEC_85: &[&str] = &["86.75", "85.75", "84.75", "857.5"];
const THOUSANDS: &[&str] = &["65534", "32768", "16382", "32766"];
const MASKS_224: &[&str] = &[
    "255.255.255.224",
    "255.255.224.0",
    "255.255.255.192",
    "255.255.255.240",
];
const MASKS_0: &[&str] = &[
    "255.255.0.0",
    "255.255.254.0",
    "255.255.255.128",
    "255.255.255.0",
];
const MASKS_254: &[&str] = &[
    "255.255.255.0",
    "255.255.252.0",
    "255.254.0.0",
    "255.255.254.0",
];
const MASKS_240: &[&str] = &[
    "255.255.224.0",
    "255.240.0.0",
    "255.255.240.0",
    "255.255.248.0",
];
const TENS: &[&str] = &["30", "14", "32", "62"];
const TIMES_1000: &[&str] = &["74200", "7420000", "1742", "742000"];

const CASES: &[(&str, &str, &[&str], Want)] = &[
    // "eighty" as letters in an octet, and the "-ty" of a tens word as a letter.
    (
        "124.204.at2.0.",
        "124.204.82.0",
        NET_82,
        Want::Is("124.204.82.0", Some(3), true),
    ),
    (
        "124.204. At2.0.",
        "124.204.82.0",
        NET_82,
        Want::Is("124.204.82.0", Some(3), true),
    ),
    (
        "124.204.aq2.0",
        "124.204.82.0",
        NET_82,
        Want::Is("124.204.82.0", Some(3), true),
    ),
    (
        "The network addresses 1.h2.20.0.",
        "1.82.20.0",
        NET_1_82,
        Want::Is("1.82.20.0", Some(0), true),
    ),
    (
        "The network address is 1.8e2.20.0.",
        "1.82.20.0",
        NET_1_82,
        Want::Is("1.82.20.0", Some(0), true),
    ),
    (
        "it's e5.14.60.255.",
        "85.14.60.255",
        NET_85,
        Want::Is("85.14.60.255", Some(0), true),
    ),
    (
        "Itchifive.14.60.255.255.",
        "85.14.60.255",
        NET_85,
        Want::Is("85.14.60.255", Some(0), true),
    ),
    (
        "The network address is 109.13d5.0.0",
        "109.135.0.0",
        NET_109,
        Want::Is("109.135.0.0", Some(2), true),
    ),
    // "eighty" as letters before a unit.
    (
        "it's e6.75",
        "86.75",
        DEC_86,
        Want::Is("86.75", Some(3), true),
    ),
    ("ii 6.75", "86.75", DEC_86, Want::Is("86.75", Some(3), true)),
    (
        "Ichi 6.75.",
        "86.75",
        DEC_86,
        Want::Is("86.75", Some(3), true),
    ),
    (
        "Ich E 5.75.",
        "85.75",
        DEC_85,
        Want::Is("85.75", Some(1), true),
    ),
    ("i.e. 6.75.", "86.75", DEC_86, Want::Unclear),
    // A tens word split from a thousands number.
    (
        "30 2766",
        "32766",
        THOUSANDS,
        Want::Is("32766", Some(3), true),
    ),
    ("30 766", "32766", THOUSANDS, Want::NotAnOption("30766")),
    // Octets looped: read once when every way of reading the loop agrees.
    (
        "255.255.255.255.224",
        "255.255.255.224",
        MASKS_224,
        Want::Is("255.255.255.224", Some(0), true),
    ),
    (
        "The subnet mask is 255.255.255.255.0.",
        "255.255.255.0",
        MASKS_0,
        Want::Is("255.255.255.0", Some(3), true),
    ),
    (
        "The network address is 109.135.0.0.0.",
        "109.135.0.0",
        NET_109,
        Want::Is("109.135.0.0", Some(2), true),
    ),
    (
        "The subnet mask is 255.254.0.0.0.",
        "255.255.254.0",
        MASKS_254,
        Want::Is("255.254.0.0", Some(2), true),
    ),
    (
        "255.255.255.0.0.",
        "255.255.255.0",
        MASKS_0,
        Want::Ambiguous(&["255.255.0.0", "255.255.255.0"]),
    ),
    (
        "The subnet mask is 255.255.255.255.0.0.",
        "255.255.255.0",
        MASKS_0,
        Want::Ambiguous(&["255.255.0.0", "255.255.255.0"]),
    ),
    // Option phrases only when they sound like one.
    (
        "Absynia.",
        "255.255.240.0",
        MASKS_240,
        Want::Is("option A", Some(0), true),
    ),
    ("Absune.", "742000", TIMES_1000, Want::Unclear),
    ("Thirde.", "30", TENS, Want::Unclear),
    ("Third D.", "30", TENS, Want::Unclear),
    // A bare ordinal third..ninth for a number item may be a tens number.
    ("3rd.", "30", TENS, Want::Ambiguous(&["option C", "30"])),
    ("Third", "30", TENS, Want::Ambiguous(&["option C", "30"])),
    (
        "the third one",
        "30",
        TENS,
        Want::Is("option C", Some(2), false),
    ),
    ("second", "30", TENS, Want::Is("option B", Some(1), false)),
    (
        "third",
        "Class C airspace",
        &["Class A airspace", "Class B airspace", "Class C airspace"],
        Want::Is("option C", Some(2), false),
    ),
];

#[test]
fn third_batch_of_misheard_answers_read_as_the_item_expects() {
    for &(transcript, key, options, want) in CASES {
        check((transcript, key, options), want);
    }
}

/// `(transcript, key, options)`: answers said wrong, which no repair may make right.
const WRONG: &[(&str, &str, &[&str])] = &[
    ("124.204.at3.0", "124.204.82.0", NET_82),
    ("124.204.aq3.0.", "124.204.82.0", NET_82),
    ("The network addresses 1.h3.20.0.", "1.82.20.0", NET_1_82),
    ("1.8e3.20.0", "1.82.20.0", NET_1_82),
    ("it's e6.14.60.255.", "85.14.60.255", NET_85),
    ("109.13d6.0.0", "109.135.0.0", NET_109),
    ("it's e7.75", "86.75", DEC_86),
    ("ii 5.75", "86.75", DEC_86),
    ("Ichi 6.75.", "85.75", DEC_85),
    ("i.e. 6.75.", "6.75", &[]),
    ("30 2767", "32766", THOUSANDS),
    ("30 766", "32766", THOUSANDS),
    ("255.255.255.255.192", "255.255.255.224", MASKS_224),
    ("255.255.0.0.0", "255.255.255.0", MASKS_0),
    ("255.255.255.0.0.", "255.255.255.0", MASKS_0),
    ("255.255.255.0.0.0.0.", "255.255.255.0", MASKS_0),
    (
        "The subnet mask is 255.254.0.0.0.",
        "255.255.254.0",
        MASKS_254,
    ),
    ("The Sunnet Mask is 255.255.255.255.00.", "255.255.0.0", &[]),
    ("Absynia.", "255.255.240.0", MASKS_240),
    ("Absune.", "74200", TIMES_1000),
    ("Thirde.", "62", TENS),
    ("Third D.", "62", TENS),
    ("3rd.", "32", TENS),
    ("Third", "32", TENS),
];

#[test]
fn third_batch_of_wrong_answers_stay_wrong() {
    for &(transcript, key, options) in WRONG {
        check_wrong(transcript, key, options);
    }
}

/// Typed answers never get the spoken repairs: each reads as text, as before.
#[test]
fn typed_answers_are_not_repaired() {
    let cases = [
        ("124.204.at2.0", AnswerKind::Ipv4),
        ("1.h2.20.0", AnswerKind::Ipv4),
        ("109.13d5.0.0", AnswerKind::Ipv4),
        ("255.255.255.255.224", AnswerKind::Ipv4),
        ("109.135.0.0.0", AnswerKind::Ipv4),
        ("e6.75", AnswerKind::Number),
        ("ii 6.75", AnswerKind::Number),
        ("30 2766", AnswerKind::Number),
        ("Thirde", AnswerKind::Choice { options: 4 }),
    ];
    for (typed, kind) in cases {
        let read = normalize_as(typed, Some(kind));
        assert!(matches!(read, Normalized::Text(_)), "{typed:?}: {read:?}");
    }
}
