//! What an answer shows about each fact and misconception of one rubric: whether a phrase
//! of it is found, affirmed or denied, and which stated values agree with it or contradict
//! it. Phrases are looked for only where their first word stands, values only among those of
//! a measure the rubric has, and each fact's wrong value is found once.

use std::cell::RefCell;

use super::answer::ReadAnswer;
use super::phrase::Phrase;
use super::prepared::PreparedRubric;
use super::quantity::{Measure, Value};
use super::slots::{self, Finding, within};
use super::stated::Stated;
use super::verdict::FactStatus;
use super::work::step;

/// How many content words from a fact's phrase a wrong value may stand and still be about it.
const NEAR: usize = 6;

/// How many of a fact's term words a sentence must hold to be about it.
const TOPIC_WORDS: usize = 2;

/// Whether any phrase of a list is found, and whether any is affirmed.
#[derive(Debug, Clone, Copy, Default)]
struct Seen {
    found: bool,
    affirmed: bool,
}

fn seen(phrases: &[Phrase], answer: &ReadAnswer) -> Seen {
    let mut seen = Seen::default();
    for phrase in phrases {
        for found in phrase.found_from(&answer.reading.words, answer.at(phrase.head())) {
            seen.found = true;
            if !found.denied {
                seen.affirmed = true;
                return seen;
            }
        }
    }
    seen
}

/// The evidence for one rubric.
pub(super) struct Evidence<'p> {
    prepared: &'p PreparedRubric,
    answer: &'p ReadAnswer,
    facts: Vec<Seen>,
    stated: Vec<Stated>,
    /// Each fact's wrong value: an index into `stated`.
    wrong: Vec<Option<usize>>,
    /// Whether each stated value is one a fact has or a claim states (never wrong).
    known: Vec<bool>,
    /// What each fact's slot checks found.
    slots: Vec<Finding>,
    /// How many of a fact's term words a sentence run holds, by (fact, run).
    /// (A flat table: fact times runs plus run; empty until first asked.)
    topic_scores: RefCell<Vec<Option<u32>>>,
    /// Whether a sentence run is about a fact, by (fact, run), laid out the same way.
    about: RefCell<Vec<Option<bool>>>,
}

impl<'p> Evidence<'p> {
    pub(super) fn gather(prepared: &'p PreparedRubric, answer: &'p ReadAnswer) -> Evidence<'p> {
        let mut evidence = Evidence {
            prepared,
            answer,
            facts: (prepared.fact_phrases.iter())
                .map(|phrases| seen(phrases, answer))
                .collect(),
            stated: answer
                .values
                .stated(&prepared.counts, Some(&prepared.measures)),
            wrong: Vec::new(),
            known: Vec::new(),
            slots: Vec::new(),
            topic_scores: RefCell::default(),
            about: RefCell::default(),
        };
        evidence.slots = slots::findings(
            &prepared.slots,
            &prepared.fact_phrases,
            answer,
            &evidence.stated,
            &prepared.values,
            &prepared.tolerances,
        );
        evidence.known = (evidence.stated.iter())
            .map(|s| {
                // A constant per value: the rubric's values and claims, not the answer.
                step(1);
                (prepared.values.iter().flatten())
                    .chain(&prepared.claimed)
                    .any(|v| v.same_as(&s.value))
            })
            .collect();
        evidence.wrong = (0..prepared.values.len())
            .map(|index| evidence.wrong_value(index))
            .collect();
        evidence
    }

    pub(super) fn status(&self, index: usize, required: bool) -> FactStatus {
        let seen = self.facts[index];
        let slot = self.slots[index];
        if self.wrong[index].is_some() || slot == Finding::Contradicted {
            return FactStatus::Contradicted;
        }
        let phrased = seen.affirmed && slot != Finding::Misattributed;
        if phrased || self.value_stated(index) || slot == Finding::Stated {
            return FactStatus::Stated;
        }
        if required && seen.found {
            return FactStatus::Contradicted;
        }
        FactStatus::Missing
    }

    fn value_stated(&self, index: usize) -> bool {
        let tolerance = self.prepared.tolerances[index];
        self.prepared.values[index].as_ref().is_some_and(|value| {
            step(self.stated.len());
            self.stated
                .iter()
                .any(|s| within(&s.value, value, tolerance))
        })
    }

    fn said(&self, value: &Value) -> bool {
        step(self.stated.len());
        self.stated.iter().any(|s| s.value.same_as(value))
    }

    /// A stated value of this fact's quantity that no fact of the element has and no claim
    /// states, standing near one of the fact's own words; a fact whose terms have no word
    /// of their own ("90 days") is the one meant when no other fact measures that quantity.
    fn wrong_value(&self, index: usize) -> Option<usize> {
        let prepared = self.prepared;
        let value = prepared.values[index].as_ref()?;
        let values = || prepared.values.iter().flatten();
        let only_of_its_kind = prepared.vocabulary[index].is_empty()
            && values()
                .filter(|v| v.measure.comparable(&value.measure))
                .count()
                == 1;
        // No word of the fact in the answer: no sentence can be about it.
        let topical = prepared.topic[index]
            .iter()
            .any(|stem| self.answer.has(stem));
        // Values come in answer order: one run's verdict serves the values after it.
        let mut last_run: Option<(usize, bool)> = None;
        let mut about = |word: usize| {
            let run = self.answer.run(word);
            match last_run {
                Some((seen, about)) if seen == run => about,
                _ => {
                    let about = self.sentence_is_about(index, word);
                    last_run = Some((run, about));
                    about
                }
            }
        };
        (self.stated.iter().enumerate()).position(|(at, s)| {
            step(1);
            s.value.measure.comparable(&value.measure)
                && !matches!(s.value.measure, Measure::Light(_) | Measure::Class(_))
                && !self.known[at]
                && !within(&s.value, value, prepared.tolerances[index])
                && (only_of_its_kind
                    || self.near_vocabulary(index, s.word)
                    || (topical && about(s.word)))
        })
    }

    /// Whether the sentence around `word` is about fact `index` more than about any other
    /// fact of a comparable measure: it holds at least [`TOPIC_WORDS`] of the fact's term
    /// words (or all of them, when it has fewer), and more than of any other's. ("...a
    /// third-class medical is valid for 61 calendar months": the wrong number stands far
    /// from the words, in the same sentence.)
    fn sentence_is_about(&self, index: usize, word: usize) -> bool {
        let prepared = self.prepared;
        let Some(value) = prepared.values[index].as_ref() else {
            return false;
        };
        let run = self.answer.run(word);
        let cell = self.cell(index, run);
        if let Some(Some(about)) = self.about.borrow().get(cell) {
            return *about;
        }
        let about = self.about_run(index, run, value);
        let mut table = self.about.borrow_mut();
        table.resize(self.table_len(), None);
        table[cell] = Some(about);
        about
    }

    fn about_run(&self, index: usize, run: usize, value: &Value) -> bool {
        let prepared = self.prepared;
        let own = self.topic_score(index, run);
        own >= TOPIC_WORDS.min(prepared.topic[index].len()).max(1)
            && (prepared.values.iter().enumerate())
                .filter(|(other, v)| {
                    *other != index
                        && v.as_ref()
                            .is_some_and(|v| v.measure.comparable(&value.measure))
                })
                .all(|(other, _)| self.topic_score(other, run) < own)
    }

    /// How many of fact `index`'s term words sentence run `run` holds (worked out once).
    fn topic_score(&self, index: usize, run: usize) -> usize {
        let cell = self.cell(index, run);
        if let Some(Some(score)) = self.topic_scores.borrow().get(cell) {
            return *score as usize;
        }
        let score = (self.prepared.topic[index].iter())
            .filter(|stem| self.answer.has_in_run(stem, run))
            .count();
        let mut table = self.topic_scores.borrow_mut();
        table.resize(self.table_len(), None);
        table[cell] = Some(u32::try_from(score).unwrap_or(u32::MAX));
        score
    }

    /// The cell of (fact, run) in the tables above.
    fn cell(&self, index: usize, run: usize) -> usize {
        index * self.answer.run_count() + run
    }

    fn table_len(&self) -> usize {
        self.prepared.rubric.facts.len() * self.answer.run_count()
    }

    /// Whether one of fact `index`'s own words stands within [`NEAR`] content words of
    /// `word`, in the same sentence.
    fn near_vocabulary(&self, index: usize, word: usize) -> bool {
        let reading = &self.answer.reading;
        let words = &reading.words;
        let sentence = |at: usize| reading.sentence_of(at);
        let clause = sentence(word);
        let from = word.saturating_sub(NEAR);
        let to = (word + NEAR + 1).min(words.len());
        self.prepared.vocabulary[index].iter().any(|own| {
            let at = self.answer.at(own);
            let first = at.partition_point(|&p| p < from);
            step(1);
            at[first..]
                .iter()
                .take_while(|&&p| p < to)
                .any(|&p| sentence(p) == clause)
        })
    }

    /// A misconception is held when one of its phrases is affirmed (with its false value, if
    /// it has one), or when its false value is the wrong value given for the fact it
    /// contradicts.
    pub(super) fn holds(&self, index: usize) -> bool {
        let false_value = self.prepared.belief_values[index].as_ref();
        let phrased = seen(&self.prepared.belief_phrases[index], self.answer).affirmed;
        if phrased && false_value.is_none_or(|value| self.said(value)) {
            return true;
        }
        false_value.is_some_and(|value| self.said(value) && self.any_wrong_value_is(value))
    }

    fn any_wrong_value_is(&self, value: &Value) -> bool {
        self.wrong
            .iter()
            .flatten()
            .any(|&at| self.stated[at].value.same_as(value))
    }

    /// Whether fact `index` could be stated: every word of one of its phrases is in the
    /// answer, or a value of its measure is. (Cheap, and never false for a stated fact.)
    pub(super) fn may_state(prepared: &PreparedRubric, answer: &ReadAnswer, index: usize) -> bool {
        let phrased = prepared.fact_phrases[index]
            .iter()
            .any(|p| p.stems().iter().all(|s| answer.has(s)));
        phrased
            || prepared.values[index]
                .as_ref()
                .is_some_and(|v| answer.values.may_state(&v.measure))
    }
}
