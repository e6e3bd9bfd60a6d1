//! A decode that loops ("Carb- H- R- R- R- R- …"): greedy whisper, on audio it cannot read,
//! may repeat a word or a few words until its token cap. Such a run is cut to its first
//! copy, so what the assessor reads is what was heard once, not the loop. Numbers are never
//! cut: "1 1 1 1" may be a code said digit by digit.

/// Fewest consecutive copies of a phrase that make a loop (people do say "no, no, no").
pub const LOOP_COPIES: usize = 4;
/// Longest phrase, in words, whose repeats are looked for.
pub const LOOP_PHRASE_WORDS: usize = 3;

/// `text` with every loop cut to its first copy; unchanged when it has none.
pub fn collapse_loops(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let keys: Vec<String> = words.iter().map(|word| key(word)).collect();
    let mut kept: Vec<&str> = Vec::with_capacity(words.len());
    let mut at = 0;
    while at < words.len() {
        match loop_at(&keys, at) {
            Some((length, copies)) => {
                kept.extend_from_slice(&words[at..at + length]);
                at += length * copies;
            }
            None => {
                kept.push(words[at]);
                at += 1;
            }
        }
    }
    if kept.len() == words.len() {
        return text.to_owned();
    }
    kept.join(" ")
}

/// The shortest phrase starting at `at` repeated [`LOOP_COPIES`] times or more: its length
/// in words and its copies.
fn loop_at(keys: &[String], at: usize) -> Option<(usize, usize)> {
    (1..=LOOP_PHRASE_WORDS).find_map(|length| {
        let phrase = keys.get(at..at + length)?;
        if phrase.iter().any(|key| never_cut(key)) {
            return None;
        }
        let copies = copies_at(keys, at, phrase);
        (copies >= LOOP_COPIES).then_some((length, copies))
    })
}

/// How many times `phrase` follows itself from `at`.
fn copies_at(keys: &[String], at: usize, phrase: &[String]) -> usize {
    let length = phrase.len();
    let mut copies = 1;
    while keys.get(at + copies * length..at + (copies + 1) * length) == Some(phrase) {
        copies += 1;
    }
    copies
}

/// A word compared without case or the punctuation around it.
fn key(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// A number ("1 1 1 1" may be a code said digit by digit), or punctuation alone.
fn never_cut(key: &str) -> bool {
    key.is_empty() || key.chars().all(|c| c.is_ascii_digit() || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_are_cut_to_their_first_copy() {
        let cases = [
            ("Carb- H- R- R- R- R- R- R- R- R- R- R- R- R", "Carb- H- R-"),
            ("the the the the the end", "the end"),
            ("Thank you. Thank you. Thank you. Thank you.", "Thank you."),
            ("a b c a b c a b c a b c done", "a b c done"),
        ];
        for (heard, kept) in cases {
            assert_eq!(collapse_loops(heard), kept, "{heard:?}");
        }
    }

    #[test]
    fn speech_that_repeats_a_little_and_numbers_are_kept() {
        for heard in [
            "No, no, no, that's wrong.",
            "very very very slowly",
            "squawk 1 1 1 1",
            "Check the weather.",
            "",
            "  spaced   out  ",
        ] {
            assert_eq!(collapse_loops(heard), heard, "{heard:?}");
        }
    }
}
