//! An answer read once for judging against any number of rubrics: its reading, where each
//! content word's stem stands, the values it states, and whether it says nothing or
//! disclaims itself. Everything here costs time linear in the answer; what a rubric then
//! asks of it is found through the indexes, not by scanning the answer again.

use std::collections::HashMap;

// Seeded per map: an answer cannot be written to collide (docs/decisions.md).
use foldhash::fast::RandomState;

use super::super::text::tokenize;
use super::non_answer;
use super::reading::Reading;
use super::stated::AnswerValues;
use super::work::step;

/// An answer read once, to be judged against several rubrics.
#[derive(Debug, Clone)]
pub struct ReadAnswer {
    pub(super) reading: Reading,
    /// Each content word's stem, with the indexes of the words that are it, ascending.
    positions: HashMap<String, Vec<usize>, RandomState>,
    pub(super) values: AnswerValues,
    pub(super) non_answer: bool,
    pub(super) disclaimed: bool,
}

impl ReadAnswer {
    /// Reads `answer`.
    pub fn of(answer: &str) -> ReadAnswer {
        step(answer.len());
        let reading = Reading::of(answer);
        let words = tokenize(answer);
        let mut positions: HashMap<String, Vec<usize>, RandomState> = HashMap::default();
        for (at, word) in reading.words.iter().enumerate() {
            match positions.get_mut(&word.stem) {
                Some(at_list) => at_list.push(at),
                None => {
                    positions.insert(word.stem.clone(), vec![at]);
                }
            }
        }
        ReadAnswer {
            values: AnswerValues::of(&reading),
            positions,
            reading,
            non_answer: non_answer::says_nothing(&words),
            disclaimed: non_answer::disclaims(&words),
        }
    }

    /// The indexes of the content words whose stem is `stem`, ascending.
    pub(super) fn at(&self, stem: &str) -> &[usize] {
        self.positions.get(stem).map_or(&[], Vec::as_slice)
    }

    /// Whether a content word's stem is `stem`.
    pub(super) fn has(&self, stem: &str) -> bool {
        self.positions.contains_key(stem)
    }
}
