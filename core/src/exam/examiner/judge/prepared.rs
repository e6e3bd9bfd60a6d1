//! A rubric read once for judging: its terms as phrases, its values in comparable units, the
//! values its claims state, and what its counts count. Judging an answer against a prepared
//! rubric reads nothing of the rubric again.

use viva_blueprint::rubric::{ElementRubric, Fact};

use super::phrase::{Phrase, phrases};
use super::quantity::{Measure, Value, value_of, written_amount};
use super::reading::Reading;
use super::slots::{self, PreparedSlot};
use super::stated::stated_values;

/// A rubric ready to judge with.
#[derive(Debug, Clone)]
pub struct PreparedRubric {
    /// The rubric.
    pub rubric: ElementRubric,
    /// Each fact's terms as phrases.
    pub(super) fact_phrases: Vec<Vec<Phrase>>,
    /// Each fact's phrase words (numbers left out): a wrong value near them is about it.
    pub(super) vocabulary: Vec<Vec<String>>,
    /// Each fact's value in comparable units.
    pub(super) values: Vec<Option<Value>>,
    /// Values the claims state: true in context, so never a contradiction.
    pub(super) claimed: Vec<Value>,
    /// What the element's counts count.
    pub(super) counts: Vec<Vec<String>>,
    /// The measures of its facts' and misconceptions' values (the only ones it compares).
    pub(super) measures: Vec<Measure>,
    /// Each misconception's terms as phrases.
    pub(super) belief_phrases: Vec<Vec<Phrase>>,
    /// Each misconception's false value.
    pub(super) belief_values: Vec<Option<Value>>,
    /// Each fact's term words (numbers and general words left out), shared ones too.
    pub(super) topic: Vec<Vec<String>>,
    /// Each fact's slot.
    pub(super) slots: Vec<Option<PreparedSlot>>,
    /// The indexes of the core (satisfactory) facts that exist.
    pub(super) core: Vec<usize>,
    /// How far a stated value may be from each fact's, in comparable units (0: exactly).
    pub(super) tolerances: Vec<f64>,
}

impl PreparedRubric {
    /// Prepares `rubric`.
    pub fn new(rubric: ElementRubric) -> PreparedRubric {
        let values: Vec<Option<Value>> = rubric
            .facts
            .iter()
            .map(|f| f.value.as_ref().and_then(value_of))
            .collect();
        let belief_values: Vec<Option<Value>> = rubric
            .misconceptions
            .iter()
            .map(|m| m.value.as_ref().and_then(value_of))
            .collect();
        let counts = count_measures(values.iter().chain(&belief_values).flatten());
        let claims: Vec<&str> = rubric.facts.iter().map(|f| f.claim.as_str()).collect();
        let claimed = stated_values(&Reading::of(&claims.join(". ")), &counts)
            .into_iter()
            .map(|s| s.value)
            .collect();
        let measures = (values.iter().chain(&belief_values).flatten())
            .map(|v| v.measure.clone())
            .collect();
        let tolerances = (rubric.facts.iter().zip(&values))
            .map(|(fact, value)| tolerance(fact, value.as_ref()))
            .collect();
        let core = (rubric.satisfactory.iter())
            .filter_map(|id| rubric.facts.iter().position(|f| f.id == *id))
            .collect();
        PreparedRubric {
            core,
            topic: rubric.facts.iter().map(topic_words).collect(),
            slots: slots::prepare(&rubric),
            tolerances,
            measures,
            fact_phrases: rubric.facts.iter().map(|f| phrases(&f.terms)).collect(),
            vocabulary: distinctive_vocabulary(&rubric.facts),
            belief_phrases: rubric
                .misconceptions
                .iter()
                .map(|m| phrases(&m.terms))
                .collect(),
            values,
            claimed,
            counts,
            belief_values,
            rubric,
        }
    }
}

/// A fact's declared tolerance in the units its value is compared in.
fn tolerance(fact: &Fact, value: Option<&Value>) -> f64 {
    let declared = fact.slot.as_ref().and_then(|s| s.tolerance).unwrap_or(0.0);
    let written = fact.value.as_ref().and_then(written_amount);
    match (value, written) {
        (Some(value), Some(written)) if written > 0.0 => declared * value.amount / written,
        _ => declared,
    }
}

/// Words too general to tie a number to one fact: what every fact says, and the words of
/// units and spans that stand beside any number.
const GENERAL_WORDS: &[&str] = &[
    "pilot", "flight", "fli", "aircraft", "airplan", "must", "need", "requir", "have", "get",
    "make", "can", "may", "will", "should", "use", "one", "hour", "minut", "day", "week", "month",
    "year", "calendar", "feet", "foot", "ft", "mile", "nm", "sm", "knot", "percent", "within",
    "after", "befor", "preced", "least", "more", "less", "than", "everi", "each", "per", "last",
    "next", "up", "over", "under", "abov", "below",
];

/// Each fact's own words: the stems of its terms, less numbers, general words and stems that
/// two or more other facts' terms share (a wrong number near them says nothing about which
/// fact it is about).
fn distinctive_vocabulary(facts: &[Fact]) -> Vec<Vec<String>> {
    let stems: Vec<Vec<String>> = facts.iter().map(term_stems).collect();
    stems
        .iter()
        .enumerate()
        .map(|(index, own)| {
            own.iter()
                .filter(|stem| {
                    let shared = stems
                        .iter()
                        .enumerate()
                        .filter(|(other, theirs)| *other != index && theirs.contains(stem))
                        .count();
                    shared < 2 && !GENERAL_WORDS.contains(&stem.as_str())
                })
                .cloned()
                .collect()
        })
        .collect()
}

fn topic_words(fact: &Fact) -> Vec<String> {
    term_stems(fact)
        .into_iter()
        .filter(|stem| !GENERAL_WORDS.contains(&stem.as_str()))
        .collect()
}

fn term_stems(fact: &Fact) -> Vec<String> {
    let mut stems: Vec<String> = Reading::of(&fact.terms.join(". "))
        .words
        .into_iter()
        .map(|w| w.stem)
        .filter(|stem| !stem.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    stems.sort();
    stems.dedup();
    stems
}

/// The count measures among `values` (what can be counted).
fn count_measures<'v>(values: impl Iterator<Item = &'v Value>) -> Vec<Vec<String>> {
    values
        .filter_map(|value| match &value.measure {
            Measure::Count(stems) => Some(stems.clone()),
            _ => None,
        })
        .collect()
}
