//! Issue 37's batch: spoken answers to items heard from outside the server (festival speech,
//! whisper tiny.en) that needed asking twice: option letters whisper wrote as words ("Option
//! \"Apshina\""), every way of naming an option, dotted addresses said as people say them
//! and written by whisper with hyphens ("1-H-5.1-92.1-05. 138."), and decimals split by a
//! space ("60 2.5"). Rows said wrong stay wrong.

use super::tests::{Want, check, check_wrong};

const MASKS: &[&str] = &[
    "255.255.255.192",
    "255.255.255.224",
    "255.255.255.128",
    "255.255.255.240",
];
const HOSTS: &[&str] = &[
    "185.192.105.138",
    "185.192.105.128",
    "185.192.104.138",
    "185.129.105.138",
];
const DECIMALS: &[&str] = &["62.5", "6.25", "625", "26.5"];
const WORDS: &[&str] = &["Class B", "Class C", "Class D", "Class E"];

const CASES: &[(&str, &str, &[&str], Want)] = &[
    // Naming option A every way a candidate does.
    (
        "Option A.",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "A.",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "The letter A.",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "Alpha.",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "Option alpha.",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "The first one.",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "Number one.",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "First.",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    (
        "Class B.",
        "Class B",
        WORDS,
        Want::Is("class b", Some(0), false),
    ),
    // Option letters whisper wrote as a word, quoted.
    (
        "Option \"Apshina\"",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), true),
    ),
    (
        "Option \"Option \"",
        "255.255.255.192",
        MASKS,
        Want::Unclear,
    ),
    (
        "Option \"A\"",
        "255.255.255.192",
        MASKS,
        Want::Is("option A", Some(0), false),
    ),
    // Dotted addresses said the way people say them.
    (
        "1-H-5.1-92.1-05. 138.",
        "185.192.105.138",
        HOSTS,
        Want::Is("185.192.105.138", Some(0), true),
    ),
    (
        "1-H-5.1-92.1-05.138.",
        "185.192.105.138",
        HOSTS,
        Want::Is("185.192.105.138", Some(0), true),
    ),
    (
        "185.192.105.138",
        "185.192.105.138",
        HOSTS,
        Want::Is("185.192.105.138", Some(0), false),
    ),
    (
        "one eighty five dot one ninety two dot one oh five dot one thirty eight",
        "185.192.105.138",
        HOSTS,
        Want::Is("185.192.105.138", Some(0), false),
    ),
    // Decimals with the point's tens split off.
    ("60 2.5", "62.5", DECIMALS, Want::Is("62.5", Some(0), true)),
    ("60 2.5", "62.5", &[], Want::Is("62.5", None, true)),
    (
        "Sixty two point five.",
        "62.5",
        DECIMALS,
        Want::Is("62.5", Some(0), false),
    ),
];

#[test]
fn issue_37_answers_are_read_on_the_first_try() {
    let failed: Vec<String> = CASES
        .iter()
        .filter(|&&(transcript, key, options, want)| {
            std::panic::catch_unwind(|| check((transcript, key, options), want)).is_err()
        })
        .map(|(transcript, ..)| (*transcript).to_owned())
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
}

const WRONG: &[(&str, &str, &[&str])] = &[
    ("Option B.", "255.255.255.192", MASKS),
    ("Bravo.", "255.255.255.192", MASKS),
    ("The second one.", "255.255.255.192", MASKS),
    ("1-H-5.1-92.1-04. 138.", "185.192.105.138", HOSTS),
    ("60 2.6", "62.5", DECIMALS),
];

#[test]
fn issue_37_wrong_answers_stay_wrong() {
    for &(transcript, key, options) in WRONG {
        check_wrong(transcript, key, options);
    }
}
