//! Judging an answer against an element's rubric, in code, from evidence it can check: which
//! facts the answer states (its words, and for a fact with a value, that value with its
//! unit), which it contradicts (another value for the same quantity), which misconceptions
//! it holds, and whether it says anything at all. The score follows from those alone.
//!
//! First cut (issue 16), with known limits to fix before it judges exams:
//! - terms match as bags of canonical words, not phrases, so a true answer listing every
//!   light signal also "holds" the misconception that a flashing green means cleared to land;
//! - a fact's value is contradicted by any other number with its unit that no fact of the
//!   element has, so "above 10,000 ft MSL, excluding below 2,500 ft AGL" contradicts itself;
//! - negations ("you do not need a medical") and paraphrases outside the terms and synonym
//!   table are not recognised.
//!
//! Run against the shipped PA.III.A rubric's own claims, 11 checks of 50 failed for these
//! reasons.

use std::collections::HashSet;

use viva_blueprint::normalize::parse_spoken_number;
use viva_blueprint::rubric::{ElementRubric, FactValue};

use super::super::types::Score;
use super::text::{content_terms, stem, tokenize};
use super::vocabulary::{is_non_answer_word, is_stopword};

/// What an answer does with one fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FactStatus {
    /// The answer states it.
    Stated,
    /// The answer does not state it.
    Missing,
    /// The answer states another value for its quantity.
    Contradicted,
}

/// The verdict on one answer, with the evidence behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct RubricVerdict {
    /// Satisfactory, partial or unsatisfactory, from the statuses below.
    pub score: Score,
    /// Each fact's id and status, in rubric order.
    pub facts: Vec<(String, FactStatus)>,
    /// The ids of the misconceptions the answer holds.
    pub misconceptions: Vec<String>,
    /// The answer says nothing of substance ("I don't know", "pass").
    pub non_answer: bool,
}

/// The answer as the judge reads it: canonical terms, and numbers with the words after them.
struct Reading {
    terms: HashSet<String>,
    quantities: Vec<(f64, Vec<String>)>,
}

/// Judges `answer` against `rubric`.
pub fn judge(rubric: &ElementRubric, answer: &str) -> RubricVerdict {
    let reading = read(answer);
    let non_answer = is_non_answer(answer);
    let facts: Vec<(String, FactStatus)> = rubric
        .facts
        .iter()
        .map(|fact| {
            let status = fact_status(&reading, &fact.terms, fact.value.as_ref(), rubric);
            (fact.id.clone(), status)
        })
        .collect();
    let misconceptions = rubric
        .misconceptions
        .iter()
        .filter(|m| holds(&reading, &m.terms, m.value.as_ref()))
        .map(|m| m.id.clone())
        .collect::<Vec<_>>();
    let score = score(rubric, &facts, !misconceptions.is_empty() || non_answer);
    RubricVerdict {
        score,
        facts,
        misconceptions,
        non_answer,
    }
}

fn score(rubric: &ElementRubric, facts: &[(String, FactStatus)], disqualified: bool) -> Score {
    let status = |id: &String| facts.iter().find(|(f, _)| f == id).map(|(_, s)| *s);
    let contradicted = facts.iter().any(|(_, s)| *s == FactStatus::Contradicted);
    if disqualified || contradicted {
        return Score::Unsatisfactory;
    }
    let stated = |ids: &[String]| {
        ids.iter()
            .filter(|id| status(id) == Some(FactStatus::Stated))
            .count()
    };
    if stated(&rubric.satisfactory) == rubric.satisfactory.len() {
        return Score::Satisfactory;
    }
    match &rubric.partial {
        Some(partial) if stated(partial.counted(&rubric.satisfactory)) >= partial.at_least => {
            Score::Partial
        }
        _ => Score::Unsatisfactory,
    }
}

fn read(answer: &str) -> Reading {
    let words = join_digit_groups(tokenize(answer));
    Reading {
        terms: content_terms(answer).into_iter().collect(),
        quantities: quantities(&words),
    }
}

/// `18,000` is tokenized as `18` and `000`: a run of digits followed by groups of exactly
/// three digits is one number again.
fn join_digit_groups(words: Vec<String>) -> Vec<String> {
    let digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let mut joined: Vec<String> = Vec::with_capacity(words.len());
    for word in words {
        match joined.last_mut() {
            Some(last) if digits(last) && digits(&word) && word.len() == 3 && last.len() <= 3 => {
                last.push_str(&word);
            }
            _ => joined.push(word),
        }
    }
    joined
}

/// Numbers in the words ("ninety days", "3 takeoffs"), each with the stems of up to three
/// words after it.
fn quantities(words: &[String]) -> Vec<(f64, Vec<String>)> {
    let mut found = Vec::new();
    let mut start = 0;
    while start < words.len() {
        let longest = (start + 1..=words.len().min(start + 6))
            .rev()
            .find_map(|end| number(&words[start..end]).map(|value| (end, value)));
        match longest {
            Some((end, value)) => {
                let after = words[end..words.len().min(end + 3)]
                    .iter()
                    .map(|w| stem(w))
                    .collect();
                found.push((value, after));
                start = end;
            }
            None => start += 1,
        }
    }
    found
}

fn number(words: &[String]) -> Option<f64> {
    let text = words.join(" ");
    if let Ok(value) = text.replace(',', "").parse::<f64>() {
        return Some(value);
    }
    // "and" alone, or a run starting with it, is not a number.
    if words.first().is_some_and(|w| w == "and") {
        return None;
    }
    parse_spoken_number(&text).map(|n| n as f64)
}

/// A fact with a value is stated when its value is (with its unit); contradicted when the
/// answer gives its unit another number that no fact of the element has. A fact without a
/// value is stated when one of its terms is.
fn fact_status(
    reading: &Reading,
    terms: &[String],
    value: Option<&FactValue>,
    rubric: &ElementRubric,
) -> FactStatus {
    let Some((amount, units)) = value.and_then(quantity) else {
        return if any_term(reading, terms) {
            FactStatus::Stated
        } else {
            FactStatus::Missing
        };
    };
    let with_unit: Vec<f64> = reading
        .quantities
        .iter()
        .filter(|(_, after)| after.iter().any(|w| units.contains(w)))
        .map(|(n, _)| *n)
        .collect();
    if with_unit.iter().any(|n| same(*n, amount)) {
        return FactStatus::Stated;
    }
    let known: Vec<f64> = rubric
        .facts
        .iter()
        .filter_map(|f| f.value.as_ref().and_then(quantity))
        .filter(|(_, u)| *u == units)
        .map(|(n, _)| n)
        .collect();
    if with_unit
        .iter()
        .any(|n| !known.iter().any(|k| same(*n, *k)))
        && any_term(reading, terms)
    {
        return FactStatus::Contradicted;
    }
    FactStatus::Missing
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// A misconception is held when one of its terms is, and its false value if it has one.
fn holds(reading: &Reading, terms: &[String], value: Option<&FactValue>) -> bool {
    if !any_term(reading, terms) {
        return false;
    }
    match value.and_then(quantity) {
        None => true,
        Some((amount, units)) => reading
            .quantities
            .iter()
            .any(|(n, after)| same(*n, amount) && after.iter().any(|w| units.contains(w))),
    }
}

/// Whether every content term of one of `terms` is in the answer.
fn any_term(reading: &Reading, terms: &[String]) -> bool {
    terms.iter().any(|term| {
        let wanted: Vec<String> = content_terms(term)
            .into_iter()
            .filter(|t| !t.chars().all(|c| c.is_ascii_digit() || c == '.'))
            .collect();
        !wanted.is_empty() && wanted.iter().all(|t| reading.terms.contains(t))
    })
}

/// The number and the stems of the words that name its unit (for a count, the content
/// words of what is counted).
fn quantity(value: &FactValue) -> Option<(f64, Vec<String>)> {
    let fixed = |stems: &[&str]| stems.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let (amount, unit) = match value {
        FactValue::Count { amount, of } => (*amount, content_terms(of)),
        FactValue::Duration { amount, unit } => (*amount, fixed(duration_stems(unit))),
        FactValue::Altitude { feet, .. } => (*feet, fixed(&["feet", "foot", "ft", "agl", "msl"])),
        FactValue::Distance { amount, unit } if unit == "ft" => {
            (*amount, fixed(&["feet", "foot", "ft"]))
        }
        FactValue::Distance { amount, .. } => {
            (*amount, fixed(&["mile", "nm", "sm", "nautic", "statut"]))
        }
        FactValue::Speed { amount, .. } => (*amount, fixed(&["knot", "kt", "kts", "mph"])),
        FactValue::Percent { amount } => (*amount, fixed(&["percent"])),
        _ => return None,
    };
    Some((amount, unit))
}

fn duration_stems(unit: &str) -> &'static [&'static str] {
    match unit {
        "minutes" => &["minut"],
        "hours" => &["hour"],
        "days" => &["day"],
        "calendar_months" => &["calendar", "month"],
        _ => &["year"],
    }
}

/// Nothing but non-answer words and stopwords: "I don't know", "pass", "not sure, sorry".
fn is_non_answer(answer: &str) -> bool {
    tokenize(answer)
        .iter()
        .all(|w| is_stopword(w) || is_non_answer_word(w))
}

#[cfg(test)]
mod tests {
    use viva_blueprint::library::Source;
    use viva_blueprint::rubric::RubricSet;

    use super::*;

    const RUBRIC: &str = "\
task: PA.I.A
elements:
  - element: PA.I.A.K1
    facts:
      - id: passenger-currency
        claim: Three takeoffs and three landings to carry passengers.
        source: 14 CFR 61.57(a)
        terms: [takeoffs and landings]
        value: {kind: count, amount: 3, of: takeoffs and landings}
      - id: currency-window
        claim: Within the preceding 90 days.
        source: 14 CFR 61.57(a)
        terms: [90 days]
        value: {kind: duration, amount: 90, unit: days}
      - id: flight-review
        claim: A flight review every 24 calendar months.
        source: 14 CFR 61.56(c)
        terms: [flight review]
        value: {kind: duration, amount: 24, unit: calendar_months}
    satisfactory: [passenger-currency, currency-window, flight-review]
    partial: {at_least: 1}
    misconceptions:
      - id: one-landing-a-year
        claim: One landing a year keeps you current.
        terms: [landing a year, landing per year, landing each year]
        correction: Three takeoffs and three landings within 90 days.
        source: 14 CFR 61.57(a)
        contradicts: passenger-currency
";

    fn rubric() -> ElementRubric {
        let source = Source {
            path: "r.yaml".into(),
            text: RUBRIC.into(),
        };
        let set = RubricSet::load(&[source]).expect("a valid rubric");
        set.get("PA.I.A.K1").cloned().expect("the rubric")
    }

    fn check(answer: &str, expected: Score) {
        let verdict = judge(&rubric(), answer);
        assert_eq!(verdict.score, expected, "{answer:?}: {verdict:?}");
    }

    #[test]
    fn scores_follow_the_facts_stated() {
        check(
            "Three takeoffs and landings within the last 90 days to carry passengers, and a \
             flight review every 24 calendar months.",
            Score::Satisfactory,
        );
        check(
            "three takeoffs and three landings in ninety days, flight review every twenty four \
             calendar months",
            Score::Satisfactory,
        );
        check(
            "You need a flight review every 24 calendar months.",
            Score::Partial,
        );
        check(
            "Recent flight experience and recordkeeping.",
            Score::Unsatisfactory,
        );
    }

    #[test]
    fn a_wrong_value_or_a_misconception_is_unsatisfactory_whatever_else_is_said() {
        check(
            "Three takeoffs and landings within 30 days, and a flight review every 24 calendar \
             months.",
            Score::Unsatisfactory,
        );
        check(
            "One landing per year keeps you current, plus a flight review every 24 calendar \
             months.",
            Score::Unsatisfactory,
        );
        let verdict = judge(&rubric(), "One landing per year.");
        assert_eq!(
            verdict.misconceptions,
            vec!["one-landing-a-year".to_owned()]
        );
    }

    #[test]
    fn non_answers_are_unsatisfactory() {
        for answer in ["I don't know.", "Pass.", "Um, not sure, sorry.", ""] {
            let verdict = judge(&rubric(), answer);
            assert!(verdict.non_answer, "{answer:?}");
            assert_eq!(verdict.score, Score::Unsatisfactory, "{answer:?}");
        }
    }

    #[test]
    fn numbers_are_read_with_the_words_after_them() {
        let read = |text: &str| -> Vec<f64> {
            let words = join_digit_groups(tokenize(text));
            quantities(&words).into_iter().map(|(n, _)| n).collect()
        };
        assert_eq!(
            read("three takeoffs in ninety days and 24 calendar months"),
            vec![3.0, 90.0, 24.0]
        );
        assert_eq!(read("at 18,000 feet and 1,200 ft"), vec![18000.0, 1200.0]);
    }

    #[test]
    fn a_count_is_read_only_with_what_it_counts() {
        // An hour of ground training is not a number of takeoffs and landings.
        check(
            "One hour of ground training before takeoffs and landings, and a flight review every \
             24 calendar months.",
            Score::Partial,
        );
    }
}
