//! Rubric terms as phrases: a term's content words must appear in the answer in order, with
//! at most [`MAX_GAP`] other content words between consecutive ones. A match a negation
//! reaches ("you do not need three landings") is a denial, unless the term itself carries
//! the negation ("may not").

use super::reading::{Reading, Word};
use super::work::step;

/// How many other content words may stand between two words of a phrase.
pub const MAX_GAP: usize = 2;

/// A rubric term, read like an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Phrase {
    stems: Vec<String>,
    carries_negation: bool,
}

/// Where a phrase was found, and whether the candidate affirmed or denied it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// Index of its first content word in the answer.
    pub first: usize,
    /// Index of its last content word.
    pub last: usize,
    /// A negation denies it.
    pub denied: bool,
}

impl Phrase {
    /// Reads a term; `None` when it has no content word.
    pub fn of(term: &str) -> Option<Phrase> {
        let reading = Reading::of(term);
        let carries_negation = reading.words.iter().any(|w| w.is_negation);
        let stems: Vec<String> = reading.words.into_iter().map(|w| w.stem).collect();
        (!stems.is_empty()).then_some(Phrase {
            stems,
            carries_negation,
        })
    }

    /// Every place the phrase occurs in `answer` (at most one per starting word).
    pub fn find_in(&self, answer: &Reading) -> Vec<Found> {
        let starts: Vec<usize> = (answer.words.iter().enumerate())
            .filter(|(_, word)| word.stem == self.head())
            .map(|(at, _)| at)
            .collect();
        self.found_from(&answer.words, &starts).collect()
    }

    /// The places it occurs starting at one of `starts` (the words that are its first stem).
    pub fn found_from<'a>(
        &'a self,
        words: &'a [Word],
        starts: &'a [usize],
    ) -> impl Iterator<Item = Found> + 'a {
        starts
            .iter()
            .filter_map(|&start| self.match_from(words, start))
            .map(|(first, last)| Found {
                first,
                last,
                denied: !self.carries_negation && is_denied(words, first, last),
            })
    }

    /// Its content words' stems, first to last (never empty).
    pub fn stems(&self) -> &[String] {
        &self.stems
    }

    /// Its first stem.
    pub fn head(&self) -> &str {
        self.stems.first().map_or("", String::as_str)
    }

    fn match_from(&self, words: &[Word], start: usize) -> Option<(usize, usize)> {
        step(1);
        let (head, rest) = self.stems.split_first()?;
        if words.get(start)?.stem != *head {
            return None;
        }
        let last = extend(words, start, rest)?;
        Some((start, last))
    }
}

/// Matches `rest` after the word at `at`, each next word at most `MAX_GAP` words on;
/// returns the index of the last word matched.
fn extend(words: &[Word], at: usize, rest: &[String]) -> Option<usize> {
    let Some((next, tail)) = rest.split_first() else {
        return Some(at);
    };
    let reach = words.len().min(at + 2 + MAX_GAP);
    step(reach.saturating_sub(at + 1));
    (at + 1..reach)
        .filter(|&index| words[index].stem == *next)
        .find_map(|index| extend(words, index, tail))
}

fn is_denied(words: &[Word], first: usize, last: usize) -> bool {
    words[first].negated || words[first..=last].iter().any(|w| w.is_negation)
}

/// The phrases of a list of terms (terms with no content word are dropped).
pub fn phrases(terms: &[String]) -> Vec<Phrase> {
    terms.iter().filter_map(|term| Phrase::of(term)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(term: &str, answer: &str) -> Vec<Found> {
        Phrase::of(term)
            .expect("a term with words")
            .find_in(&Reading::of(answer))
    }

    #[test]
    fn words_match_in_order_with_small_gaps() {
        assert_eq!(
            found("three takeoffs and landings", "3 takeoffs and 3 landings").len(),
            1
        );
        assert_eq!(found("90 days", "in the last ninety days").len(), 1);
        assert!(found("takeoffs and landings", "landings and takeoffs").is_empty());
        assert!(
            found(
                "flight review",
                "flight time logged over many months of review"
            )
            .is_empty()
        );
    }

    #[test]
    fn a_negation_before_or_inside_denies_the_phrase() {
        assert!(found("need a medical", "you do not need a medical")[0].denied);
        assert!(found("ATC clearance", "no ATC clearance is needed")[0].denied);
        assert!(!found("need a medical", "you need a medical")[0].denied);
        assert!(!found("may not", "you may not fly")[0].denied);
        assert!(!found("250 knots", "no more than 250 knots")[0].denied);
    }
}
