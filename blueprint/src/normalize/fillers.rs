//! Removal of spoken filler ("um", "the answer is", "I think") around a candidate's answer.

use super::text::trim_edges;

/// Hesitation sounds, dropped wherever they occur as whole words.
const DISFLUENCIES: &[&str] = &[
    "um", "umm", "ummm", "uh", "uhh", "uhm", "uhmm", "er", "erm", "err", "hmm", "hm", "mm", "ah",
];

/// Lead-in phrases, dropped (repeatedly, in any order) from the start of an answer.
const LEADING: &[&[&str]] = &[
    &["the", "answer", "is"],
    &["the", "answer's"],
    &["my", "answer", "is"],
    &["my", "final", "answer", "is"],
    &["final", "answer"],
    &["answer", "is"],
    &["i", "think", "that"],
    &["i", "think"],
    &["i'd", "say"],
    &["i", "would", "say"],
    &["i'll", "say"],
    &["i'll", "go", "with"],
    &["i'd", "go", "with"],
    &["i", "would", "go", "with"],
    &["i", "believe"],
    &["i", "guess"],
    &["it's"],
    &["it", "is"],
    &["it", "would", "be"],
    &["it'd", "be"],
    &["it", "should", "be"],
    &["the", "answer", "would", "be"],
    &["that", "would", "be"],
    &["that'd", "be"],
    &["that's"],
    &["that", "is"],
    &["so"],
    &["well"],
    &["okay"],
    &["ok"],
];

/// Tail phrases, dropped (repeatedly) from the end of an answer.
const TRAILING: &[&[&str]] = &[
    &["i", "think"],
    &["i", "believe"],
    &["i", "guess"],
    &["final", "answer"],
    &["please"],
    &["thanks"],
    &["thank", "you"],
];

/// Lowercases `raw`, drops filler words and phrases, and trims sentence punctuation.
///
/// Hesitations ([`DISFLUENCIES`]) are removed anywhere; lead-in phrases ([`LEADING`]) only at
/// the start and tail phrases ([`TRAILING`]) only at the end, so "so" or "it is" inside a text
/// answer are kept. Words are matched ignoring their surrounding punctuation ("um," "is:").
/// The kept words are re-joined with single spaces, keeping their own punctuation ("b)", "/26").
pub(super) fn strip_fillers(raw: &str) -> String {
    let lower = raw.to_lowercase().replace(['\u{2018}', '\u{2019}'], "'");
    let kept: Vec<&str> = lower
        .split_whitespace()
        .filter(|token| !DISFLUENCIES.contains(&core(token)))
        .collect();
    let cores: Vec<&str> = kept.iter().map(|token| core(token)).collect();
    let start = skip_leading(&cores);
    let end = skip_trailing(&cores, start);
    let joined = kept.get(start..end).unwrap_or_default().join(" ");
    trim_edges(&joined).to_string()
}

/// A token without surrounding punctuation (inner apostrophes kept: "it's").
fn core(token: &str) -> &str {
    token
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .trim_matches('\'')
}

/// Index of the first word after all leading filler phrases.
fn skip_leading(cores: &[&str]) -> usize {
    let mut start = 0;
    while let Some(rest) = cores.get(start..) {
        match LEADING.iter().find(|phrase| rest.starts_with(phrase)) {
            Some(phrase) => start += phrase.len(),
            None => break,
        }
    }
    start
}

/// Index just past the last word before all trailing filler phrases (never below `start`).
fn skip_trailing(cores: &[&str], start: usize) -> usize {
    let mut end = cores.len();
    while let Some(rest) = cores.get(start..end) {
        match TRAILING.iter().find(|phrase| rest.ends_with(phrase)) {
            Some(phrase) => end -= phrase.len(),
            None => break,
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &str) {
        assert_eq!(strip_fillers(input), expected, "input: {input:?}");
    }

    const CASES: &[(&str, &str)] = &[
        ("", ""),
        ("B", "b"),
        ("B.", "b"),
        ("Um, B.", "b"),
        ("um um uh B", "b"),
        ("The answer is B.", "b"),
        ("the answer is: B", "b"),
        ("Um, the answer is, uh, B.", "b"),
        ("My answer is C", "c"),
        ("My final answer is C!", "c"),
        ("I think it's B", "b"),
        ("I think that it is B", "b"),
        ("I\u{2019}d say C", "c"),
        ("I would say D.", "d"),
        ("So, um, I think the answer is B", "b"),
        ("Well, it's eighty-five.", "eighty-five"),
        ("That would be 192.168.1.0.", "192.168.1.0"),
        ("that's slash 26", "slash 26"),
        ("OK so the answer's 42", "42"),
        ("B, I think.", "b"),
        ("B I guess", "b"),
        ("C. Final answer.", "c"),
        ("eighty uh five", "eighty five"),
        ("one hundred, um, and five", "one hundred, and five"),
        ("b)", "b)"),
        ("(b)", "(b)"),
        ("/26.", "/26"),
        ("-7.", "-7"),
        (".5", ".5"),
        ("\"Class B airspace\".", "class b airspace"),
        ("it is what it is", "what it is"),
        ("so-and-so", "so-and-so"),
        ("the answer", "the answer"),
        ("um", ""),
        ("uh, I think", ""),
        ("I think", ""),
        ("so so so", ""),
        ("umbrella", "umbrella"),
        ("Er, Erm... C", "c"),
        ("Hmm. Option B?", "option b"),
        ("85 please", "85"),
        ("B, please.", "b"),
        ("192.168.1.0 please", "192.168.1.0"),
        ("Eighty five, thank you.", "eighty five"),
        ("eighty five please I think", "eighty five"),
        ("I'd go with C", "c"),
        ("It should be 42.", "42"),
        ("The answer would be /24", "/24"),
        ("please", ""),
        ("please B", "please b"),
        ("pleased", "pleased"),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
