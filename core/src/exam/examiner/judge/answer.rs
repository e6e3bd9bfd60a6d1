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
    /// Each content word's sentence run: an index into `runs`.
    run_of: Vec<u32>,
    /// The runs of content words of one sentence, as word ranges, in order.
    runs: Vec<(usize, usize)>,
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
        let (run_of, runs) = sentence_runs(&reading);
        ReadAnswer {
            run_of,
            runs,
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

    /// How many sentence runs the answer has.
    pub(super) fn run_count(&self) -> usize {
        self.runs.len()
    }

    /// The sentence run of the content word at `word`.
    pub(super) fn run(&self, word: usize) -> usize {
        self.run_of.get(word).map_or(0, |run| *run as usize)
    }

    /// The word range of the sentence run holding the content word at `word`.
    pub(super) fn run_span(&self, word: usize) -> (usize, usize) {
        self.runs
            .get(self.run(word))
            .copied()
            .unwrap_or((word, word + 1))
    }

    /// Whether a content word of stem `stem` stands in sentence run `run`.
    pub(super) fn has_in_run(&self, stem: &str, run: usize) -> bool {
        let Some(&(start, end)) = self.runs.get(run) else {
            return false;
        };
        let at = self.at(stem);
        step(1);
        at.get(at.partition_point(|&p| p < start))
            .is_some_and(|&p| p < end)
    }
}

/// Each content word's run of words of one sentence, and the runs' word ranges.
fn sentence_runs(reading: &Reading) -> (Vec<u32>, Vec<(usize, usize)>) {
    let mut run_of = Vec::with_capacity(reading.words.len());
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for at in 0..reading.words.len() {
        let same = at > 0 && reading.sentence_of(at - 1) == reading.sentence_of(at);
        match runs.last_mut() {
            Some(run) if same => run.1 = at + 1,
            _ => runs.push((at, at + 1)),
        }
        run_of.push(u32::try_from(runs.len() - 1).unwrap_or(u32::MAX));
    }
    (run_of, runs)
}
