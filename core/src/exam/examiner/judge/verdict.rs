//! The judge's verdict on one answer: a score and each fact's status, with what else the
//! answer showed.

use super::super::super::types::Score;

/// What an answer does with one fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FactStatus {
    /// The answer states it.
    Stated,
    /// The answer does not state it.
    Missing,
    /// The answer gives its quantity another value, or denies it (a required fact).
    Contradicted,
}

/// The verdict on one answer, with the evidence behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct RubricVerdict {
    /// Satisfactory, partial or unsatisfactory, from the findings below.
    pub score: Score,
    /// Each fact's id and status, in rubric order.
    pub facts: Vec<(String, FactStatus)>,
    /// The ids of the misconceptions the answer holds.
    pub misconceptions: Vec<String>,
    /// The answer says nothing of substance ("I don't know", "pass").
    pub non_answer: bool,
    /// The answer disclaims itself ("I'm not sure, but ..."): at best partial.
    pub disclaimed: bool,
    /// The answer has at most [`SHORT_ANSWER_WORDS`](super::SHORT_ANSWER_WORDS) content words.
    pub short: bool,
}

impl RubricVerdict {
    /// Whether the answer is drawn out rather than scored at once ([`super::draws_out`]).
    pub fn draws_out(&self) -> bool {
        let contradicted = self
            .facts
            .iter()
            .any(|(_, s)| *s == FactStatus::Contradicted);
        self.short
            && !self.non_answer
            && !contradicted
            && self.misconceptions.is_empty()
            && self.score != Score::Satisfactory
    }

    /// The status of fact `id` (missing when the rubric has no such fact).
    pub fn status(&self, id: &str) -> FactStatus {
        self.facts
            .iter()
            .find(|(fact, _)| fact == id)
            .map_or(FactStatus::Missing, |(_, status)| *status)
    }
}
