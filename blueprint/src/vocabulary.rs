//! A domain's vocabulary and the repair of what speech recognition is known to mis-hear in
//! it ("Metro" for METAR, "classy air space" for class E airspace). Pure: the caller decides
//! where a repair applies (an aviation exam's answers, never another subject's).
//!
//! [`repair`] runs three passes over the transcript's words, each keeping the punctuation
//! around the words it replaces:
//! 1. **Confusions**: a listed phrase, as whole words (longest first), becomes its meaning.
//! 2. **Joins**: two words that join into a glossary word become it ("air space").
//! 3. **Near words**: a word of six letters or more that is no glossary word, no term and no
//!    kept word, close to exactly one vocabulary word both in letters (at most one edit per
//!    five letters of the longer word) and in sound (the phonetic key of
//!    `normalize::phonetic`, within one consonant), becomes it. Terms of the element
//!    asked about count as vocabulary too, but only within one letter edit, for they hold
//!    ordinary words.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::normalize::phonetic::{distance, key};

/// The aviation vocabulary's data.
const AVIATION_YAML: &str = include_str!("../data/aviation-vocabulary.yaml");
/// The shortest word the near-word pass looks at.
const MIN_NEAR_LEN: usize = 6;
/// The most words of a confusion phrase.
const MAX_PHRASE_WORDS: usize = 4;
/// The most words a transcript may have for the repair to look at it (cost bound).
pub const MAX_WORDS: usize = 400;

/// A known mis-hearing and what was meant.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Confusion {
    /// Phrases as recognised (any case; punctuation ignored).
    pub heard: Vec<String>,
    /// What was said.
    pub meant: String,
    /// Where the confusion was seen.
    pub reason: String,
}

/// A domain's vocabulary.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    /// Known mis-hearings.
    pub confusions: Vec<Confusion>,
    /// The domain's words.
    pub glossary: Vec<String>,
    /// Ordinary words never changed.
    pub keep: Vec<String>,
}

/// Why a vocabulary or a phrase set could not be read: where and what.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct VocabularyError(crate::error::LoadError);

impl Vocabulary {
    /// Reads a vocabulary from YAML.
    pub fn from_yaml(text: &str) -> Result<Vocabulary, VocabularyError> {
        crate::yaml::parse_str("vocabulary", text).map_err(VocabularyError)
    }

    /// The built-in aviation vocabulary (`blueprint/data/aviation-vocabulary.yaml`); `None`
    /// only if that file does not parse, which a test rules out.
    pub fn aviation() -> Option<&'static Vocabulary> {
        static AVIATION: OnceLock<Option<Vocabulary>> = OnceLock::new();
        AVIATION
            .get_or_init(|| Vocabulary::from_yaml(AVIATION_YAML).ok())
            .as_ref()
    }
}

/// A phrase of a vocabulary's bench set (`bench/aviation/phrases.yaml`): what is said, and
/// what a person would write.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phrase {
    /// The words the synthesiser is given.
    pub say: String,
    /// The phrase as written: the reference of the word error rate.
    pub reference: String,
    /// The ACS element whose rubric terms the hint and the repair use.
    pub element: String,
    /// Which element and term it comes from.
    pub source: String,
    /// Held out: never looked at while the vocabulary was tuned.
    pub holdout: bool,
}

/// A bench set of phrases.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhraseSet {
    /// The phrases, in order.
    pub phrases: Vec<Phrase>,
}

impl PhraseSet {
    /// Reads a phrase set from YAML.
    pub fn from_yaml(text: &str) -> Result<PhraseSet, VocabularyError> {
        crate::yaml::parse_str("phrase set", text).map_err(VocabularyError)
    }
}

/// One word of the transcript: what stands before its letters, its letters, what follows.
#[derive(Debug, Clone)]
struct Word {
    lead: String,
    core: String,
    trail: String,
}

impl Word {
    fn of(token: &str) -> Word {
        let start = token
            .find(|c: char| c.is_alphanumeric())
            .unwrap_or(token.len());
        let end = token
            .rfind(|c: char| c.is_alphanumeric())
            .map_or(start, |i| {
                i + token[i..].chars().next().map_or(1, char::len_utf8)
            });
        let end = end.max(start);
        Word {
            lead: token[..start].to_owned(),
            core: token[start..end].to_owned(),
            trail: token[end..].to_owned(),
        }
    }

    fn lower(&self) -> String {
        self.core.to_lowercase()
    }

    fn text(&self) -> String {
        format!("{}{}{}", self.lead, self.core, self.trail)
    }
}

/// `text` with the vocabulary's known mis-hearings repaired; `terms` are the key terms of
/// what was asked (a rubric's), which count as vocabulary within one letter edit. A text of
/// more than [`MAX_WORDS`] words comes back as it was.
pub fn repair(text: &str, vocabulary: &Vocabulary, terms: &[String]) -> String {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.is_empty() || tokens.len() > MAX_WORDS {
        return text.to_owned();
    }
    let words: Vec<Word> = tokens.iter().map(|t| Word::of(t)).collect();
    let words = confusions(words, vocabulary);
    let words = joins(words, vocabulary);
    let words = near_words(words, vocabulary, terms);
    words.iter().map(Word::text).collect::<Vec<_>>().join(" ")
}

/// Pass 1: listed phrases, longest first, as whole words with no sentence break inside.
fn confusions(words: Vec<Word>, vocabulary: &Vocabulary) -> Vec<Word> {
    let mut out = Vec::with_capacity(words.len());
    let mut at = 0;
    while at < words.len() {
        match longest_confusion(&words[at..], vocabulary) {
            Some((len, meant)) => {
                let last = &words[at + len - 1];
                out.push(Word {
                    lead: words[at].lead.clone(),
                    core: cased(&words[at].core, meant),
                    trail: last.trail.clone(),
                });
                at += len;
            }
            None => {
                out.push(words[at].clone());
                at += 1;
            }
        }
    }
    out
}

/// The longest confusion phrase `words` opens with: its length in words and its meaning.
fn longest_confusion<'v>(words: &[Word], vocabulary: &'v Vocabulary) -> Option<(usize, &'v str)> {
    let mut best: Option<(usize, &str)> = None;
    for confusion in &vocabulary.confusions {
        for heard in &confusion.heard {
            let phrase: Vec<String> = heard.split_whitespace().map(str::to_lowercase).collect();
            let len = phrase.len();
            if len == 0 || len > MAX_PHRASE_WORDS || len > words.len() {
                continue;
            }
            let matches = phrase
                .iter()
                .zip(&words[..len])
                .all(|(p, w)| *p == w.lower());
            let unbroken = words[..len - 1].iter().all(|w| w.trail.is_empty());
            if matches && unbroken && best.is_none_or(|(l, _)| len > l) {
                best = Some((len, confusion.meant.as_str()));
            }
        }
    }
    best
}

/// Pass 2: two adjacent words that join into a glossary word ("air space" → "airspace").
fn joins(words: Vec<Word>, vocabulary: &Vocabulary) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::with_capacity(words.len());
    let mut at = 0;
    while at < words.len() {
        let joined = words.get(at + 1).and_then(|next| {
            let first = &words[at];
            let both_letters = [first, next]
                .iter()
                .all(|w| !w.core.is_empty() && w.core.chars().all(|c| c.is_alphabetic()));
            let unbroken = first.trail.is_empty() && next.lead.is_empty();
            let whole = format!("{}{}", first.lower(), next.lower());
            let found = vocabulary
                .glossary
                .iter()
                .find(|g| g.len() >= MIN_NEAR_LEN && g.to_lowercase() == whole);
            found.filter(|_| both_letters && unbroken).map(|g| Word {
                lead: first.lead.clone(),
                core: g.clone(),
                trail: next.trail.clone(),
            })
        });
        match joined {
            Some(word) => {
                out.push(word);
                at += 2;
            }
            None => {
                out.push(words[at].clone());
                at += 1;
            }
        }
    }
    out
}

/// Pass 3: a long word that is no known word, close to exactly one vocabulary word.
fn near_words(words: Vec<Word>, vocabulary: &Vocabulary, terms: &[String]) -> Vec<Word> {
    let glossary: Vec<String> = vocabulary
        .glossary
        .iter()
        .map(|g| g.to_lowercase())
        .collect();
    let term_words: Vec<String> = terms
        .iter()
        .flat_map(|t| t.split_whitespace())
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| w.len() >= MIN_NEAR_LEN && w.chars().all(char::is_alphabetic))
        .collect();
    let known = |w: &str| {
        glossary.iter().any(|g| g == w)
            || term_words.iter().any(|t| t == w)
            || vocabulary.keep.iter().any(|k| k.eq_ignore_ascii_case(w))
    };
    words
        .into_iter()
        .map(|word| {
            let lower = word.lower();
            let eligible = lower.len() >= MIN_NEAR_LEN
                && lower.chars().all(|c| c.is_ascii_alphabetic())
                && !known(&lower);
            let near = eligible
                .then(|| nearest(&lower, vocabulary, &term_words))
                .flatten();
            match near {
                Some(core) => Word {
                    core: cased(&word.core, &core),
                    ..word
                },
                None => word,
            }
        })
        .collect()
}

/// The one vocabulary word `word` is close to (see the module doc), as the vocabulary spells
/// it; `None` when none is, or several are.
fn nearest(word: &str, vocabulary: &Vocabulary, term_words: &[String]) -> Option<String> {
    let heard_key = key(word);
    let close = |candidate: &str, max_edits: usize| {
        let lower = candidate.to_lowercase();
        let edits = letter_distance(word, &lower);
        let sound = distance(&heard_key, &key(&lower));
        let shares_start = lower.chars().next() == word.chars().next();
        // "runways" is no mis-hearing of "runway": an inflection is left as it is.
        let inflected = lower.starts_with(word) || word.starts_with(lower.as_str());
        (edits <= max_edits && sound <= 2 && shares_start && !inflected).then_some((edits, sound))
    };
    let mut found: Vec<((usize, usize), String)> = Vec::new();
    for g in vocabulary
        .glossary
        .iter()
        .filter(|g| g.len() >= MIN_NEAR_LEN)
    {
        let max = g.len().max(word.len()) / 5;
        if let Some(score) = close(g.as_str(), max) {
            found.push((score, g.clone()));
        }
    }
    for t in term_words {
        if let Some(score) = close(t.as_str(), 1) {
            found.push((score, t.clone()));
        }
    }
    found.sort();
    found.dedup_by(|a, b| a.1.eq_ignore_ascii_case(&b.1));
    match found.as_slice() {
        [(_, only)] => Some(only.clone()),
        [(best, nearest), (next, _), ..] if best < next => Some(nearest.clone()),
        _ => None,
    }
}

/// `replacement` capitalised when `original` was and the replacement is lower case ("Metro"
/// → "METAR", "Carbureture" → "Carburetor").
fn cased(original: &str, replacement: &str) -> String {
    let capital = original.chars().next().is_some_and(char::is_uppercase);
    let mut chars = replacement.chars();
    match chars.next() {
        Some(first) if capital && first.is_lowercase() => {
            first.to_uppercase().chain(chars).collect()
        }
        _ => replacement.to_owned(),
    }
}

/// Levenshtein distance in characters.
fn letter_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aviation() -> &'static Vocabulary {
        Vocabulary::aviation().expect("the aviation vocabulary parses")
    }

    fn check(heard: &str, expected: &str) {
        assert_eq!(repair(heard, aviation(), &[]), expected, "{heard}");
    }

    #[test]
    fn every_confusion_has_a_reason_and_a_meaning() {
        for confusion in &aviation().confusions {
            assert!(!confusion.reason.trim().is_empty(), "{confusion:?}");
            assert!(!confusion.meant.trim().is_empty(), "{confusion:?}");
            assert!(!confusion.heard.is_empty(), "{confusion:?}");
        }
    }

    #[test]
    fn known_mishearings_are_repaired() {
        check("Check the Metro first.", "Check the METAR first.");
        check(
            "You need two-way radio in classy air space.",
            "You need two-way radio in class E airspace.",
        );
        check("Carbureture ice.", "Carburetor ice.");
        check(
            "An air drone is any airport.",
            "An aerodrome is any airport.",
        );
        check("Class B air space.", "Class B airspace.");
        check("Apply carburator heat.", "Apply carburetor heat.");
        check("Classy, air space.", "Classy, airspace.");
        check(
            "Track the Vore radial inbound.",
            "Track the VOR radial inbound.",
        );
        check(
            "The ELT transmits on 1 to 1.5.",
            "The ELT transmits on 121.5.",
        );
        check("Set the Alchimatrta.", "Set the Altimeter.");
    }

    #[test]
    fn ordinary_words_are_kept() {
        for text in [
            "I was proceeding to the airport.",
            "The preceding ninety days.",
            "Classy.",
            "The air is thin, and space is tight.",
            "Density altitude and attitude.",
            "A metropolitan area.",
            "Fly the airplane, then the radio.",
            "Three takeoffs and landings.",
            "Runways and headings.",
            "Fuel weighs six pounds per gallon.",
            "A slip uses opposite aileron and rudder.",
            "One to one point five.",
            "",
        ] {
            check(text, text);
        }
    }

    #[test]
    fn terms_of_the_question_repair_only_close_words() {
        let terms = vec!["hyperventilation".to_owned(), "full stop".to_owned()];
        assert_eq!(
            repair("Hyperventilatoin feels the same.", aviation(), &terms),
            "Hyperventilation feels the same."
        );
        let terms = vec!["preceding".to_owned()];
        assert_eq!(
            repair("proceeding", aviation(), &terms),
            "proceeding",
            "two letters off a term is not it"
        );
    }

    #[test]
    fn a_long_text_is_left_as_it_was() {
        let long = "metro ".repeat(MAX_WORDS + 1);
        assert_eq!(repair(&long, aviation(), &[]), long);
    }

    #[test]
    fn the_bench_set_reads_and_holds_out_a_third() {
        let text = include_str!("../../bench/aviation/phrases.yaml");
        let set = PhraseSet::from_yaml(text).expect("the phrase set parses");
        assert!(set.phrases.len() >= 60, "{}", set.phrases.len());
        let held = set.phrases.iter().filter(|p| p.holdout).count();
        assert!(3 * held >= set.phrases.len() - 2, "{held}");
    }

    #[test]
    fn letter_distance_counts_edits() {
        assert_eq!(letter_distance("carbureture", "carburetor"), 2);
        assert_eq!(letter_distance("", "abc"), 3);
        assert_eq!(letter_distance("same", "same"), 0);
    }
}
