//! Answers that say nothing ("I don't know", "pass", "it depends, I'd have to look it up")
//! and answers that disclaim what they say ("I'm not sure, but maybe ..."), which an
//! examiner does not accept as satisfactory.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::super::text::tokenize;
use super::super::vocabulary::{is_non_answer_word, is_stopword};

/// Words of hedges and stalling that carry no content.
const HEDGE_WORDS: &str = "depends depend think maybe probably perhaps something thing things \
    stuff question good great honestly really exactly right now off top head mind come back \
    later rather move next let see hmm hm would need find look looking check book books \
    google somewhere say said tell whatever kind sort mean guessing kinda sorta dunno \
    actually totally completely pretty much anything nothing everything definitely certain \
    certainly believe hard remember familiar heard studied study studying yet id ill youd";

static HEDGES: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| HEDGE_WORDS.split_whitespace().collect());

/// Phrases that disclaim the answer around them.
const DISCLAIMERS: &[&[&str]] = &[
    &["i", "dont", "know"],
    &["i", "do", "not", "know"],
    &["im", "not", "sure"],
    &["i", "am", "not", "sure"],
    &["not", "sure", "but"],
    &["no", "idea"],
    &["no", "clue"],
    &["i", "cant", "remember"],
    &["i", "dont", "remember"],
    &["i", "cant", "recall"],
    &["i", "dont", "recall"],
    &["id", "have", "to", "look"],
    &["id", "have", "to", "check"],
    &["just", "guessing"],
    &["i", "guess"],
    &["wild", "guess"],
    &["come", "back", "to"],
    &["couldnt", "tell", "you"],
    &["cant", "tell", "you"],
    &["not", "sure", "what"],
    &["no", "clue"],
    &["skip", "this"],
    &["skip", "that"],
];

/// Nothing but stopwords, non-answer words and hedges (an empty answer too).
pub fn is_non_answer(answer: &str) -> bool {
    says_nothing(&tokenize(answer))
}

/// [`is_non_answer`] of the answer's tokens.
pub fn says_nothing(words: &[String]) -> bool {
    words
        .iter()
        .all(|word| is_stopword(word) || is_non_answer_word(word) || HEDGES.contains(word.as_str()))
}

/// The answer disclaims itself: "I don't know", "not sure", "just guessing".
pub fn is_disclaimed(answer: &str) -> bool {
    disclaims(&tokenize(answer))
}

/// [`is_disclaimed`] of the answer's tokens: one pass, trying the phrases only where a word
/// could begin one.
pub fn disclaims(words: &[String]) -> bool {
    (0..words.len()).any(|at| {
        may_begin_disclaimer(&words[at])
            && DISCLAIMERS.iter().any(|phrase| {
                let window = words.get(at..at + phrase.len());
                window.is_some_and(|window| window.iter().zip(phrase.iter()).all(|(w, p)| w == p))
            })
    })
}

/// Whether `word` is the first word of one of [`DISCLAIMERS`] (a test keeps the two in step).
fn may_begin_disclaimer(word: &str) -> bool {
    matches!(
        word,
        "i" | "im" | "not" | "no" | "id" | "just" | "wild" | "come" | "couldnt" | "cant" | "skip"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hedges_and_stalls_say_nothing() {
        for answer in [
            "I don't know.",
            "Pass.",
            "",
            "Um, not sure, sorry.",
            "That's a good question, it depends.",
            "I'd have to look it up in the book.",
            "no idea honestly",
            "Hmm, let me think, I'd probably check that later.",
        ] {
            assert!(is_non_answer(answer), "{answer:?}");
        }
        for answer in [
            "Three takeoffs and landings.",
            "It depends on the airspace class.",
        ] {
            assert!(!is_non_answer(answer), "{answer:?}");
        }
    }

    #[test]
    fn every_disclaimer_begins_with_a_word_that_may_begin_one() {
        for phrase in DISCLAIMERS {
            assert!(may_begin_disclaimer(phrase[0]), "{phrase:?}");
        }
    }

    #[test]
    fn a_disclaimer_is_found_anywhere() {
        assert!(is_disclaimed("I'm not sure, maybe three landings?"));
        assert!(is_disclaimed("Three landings, but I don't know the time."));
        assert!(!is_disclaimed(
            "Three takeoffs and landings within 90 days."
        ));
    }
}
