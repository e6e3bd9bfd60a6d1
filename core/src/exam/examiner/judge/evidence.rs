//! What an answer shows about each fact and misconception of one rubric: whether a phrase
//! of it is found, affirmed or denied, and which stated values agree with it or contradict
//! it. Phrases are looked for only where their first word stands, values only among those of
//! a measure the rubric has, and each fact's wrong value is found once.

use super::FactStatus;
use super::answer::ReadAnswer;
use super::phrase::Phrase;
use super::prepared::PreparedRubric;
use super::quantity::{Measure, Value};
use super::stated::Stated;
use super::work::step;

/// How many content words from a fact's phrase a wrong value may stand and still be about it.
const NEAR: usize = 6;

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
        };
        evidence.wrong = (0..prepared.values.len())
            .map(|index| evidence.wrong_value(index))
            .collect();
        evidence
    }

    pub(super) fn status(&self, index: usize, required: bool) -> FactStatus {
        let seen = self.facts[index];
        if self.wrong[index].is_some() {
            return FactStatus::Contradicted;
        }
        if seen.affirmed || self.value_stated(index) {
            return FactStatus::Stated;
        }
        if required && seen.found {
            return FactStatus::Contradicted;
        }
        FactStatus::Missing
    }

    fn value_stated(&self, index: usize) -> bool {
        self.prepared.values[index]
            .as_ref()
            .is_some_and(|value| self.said(value))
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
        self.stated.iter().position(|s| {
            step(1);
            s.value.measure.comparable(&value.measure)
                && !matches!(s.value.measure, Measure::Light(_) | Measure::Class(_))
                && !values().any(|v| v.same_as(&s.value))
                && !prepared.claimed.iter().any(|v| v.same_as(&s.value))
                && (only_of_its_kind || self.near_vocabulary(index, s.word))
        })
    }

    /// Whether one of fact `index`'s own words stands within [`NEAR`] content words of
    /// `word`, in the same clause.
    fn near_vocabulary(&self, index: usize, word: usize) -> bool {
        let words = &self.answer.reading.words;
        let clause = words[word].clause;
        let from = word.saturating_sub(NEAR);
        let to = (word + NEAR + 1).min(words.len());
        self.prepared.vocabulary[index].iter().any(|own| {
            let at = self.answer.at(own);
            let first = at.partition_point(|&p| p < from);
            step(1);
            at[first..]
                .iter()
                .take_while(|&&p| p < to)
                .any(|&p| words[p].clause == clause)
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
