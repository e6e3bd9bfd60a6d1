//! The judge tested by mutating its own rubrics: each fact's claim is falsified in every way
//! its value and slot allow (its number one unit off, another member of its domain, the
//! opposite polarity, another condition, another term's subject), and each mutant, given as
//! the whole answer, must be scored unsatisfactory. A surviving mutant is a bug in the rubric
//! or in the judge.

use std::collections::BTreeMap;
use std::fmt;

use viva_blueprint::rubric::check::LIGHT_SIGNALS;
use viva_blueprint::rubric::{ElementRubric, Fact, FactValue, Slot};

use super::super::super::types::Score;
use super::quantity::written_amount;
use super::{PreparedRubric, ReadAnswer, judge_read};

/// How a claim was falsified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operator {
    /// Its number one unit off.
    Number,
    /// Another member of its value's domain.
    DomainValue,
    /// The opposite polarity or modality.
    Polarity,
    /// The rule bound to another condition.
    Condition,
    /// Its definition given to another term.
    SwappedTerm,
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operator::Number => "number",
            Operator::DomainValue => "domain value",
            Operator::Polarity => "polarity",
            Operator::Condition => "condition",
            Operator::SwappedTerm => "swapped term",
        })
    }
}

/// A falsified claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    /// The element code.
    pub element: String,
    /// The fact falsified.
    pub fact: String,
    /// How.
    pub operator: Operator,
    /// The falsified claim.
    pub text: String,
}

/// Every mutant of `rubric`'s facts.
pub fn mutants(rubric: &ElementRubric) -> Vec<Mutant> {
    let mut found = Vec::new();
    for fact in &rubric.facts {
        let mut add = |operator: Operator, text: String| {
            if text != fact.claim {
                found.push(Mutant {
                    element: rubric.element.clone(),
                    fact: fact.id.clone(),
                    operator,
                    text,
                });
            }
        };
        for text in number_mutants(fact) {
            add(Operator::Number, text);
        }
        let Some(slot) = &fact.slot else { continue };
        for text in domain_mutants(&fact.claim, slot, slot.values()) {
            add(Operator::DomainValue, text);
        }
        for text in domain_mutants(&fact.claim, slot, slot.conditions()) {
            add(Operator::Condition, text);
        }
        if slot.modality.is_some()
            && let Some(text) = flip_polarity(&fact.claim)
        {
            add(Operator::Polarity, text);
        }
        if slot.defines {
            for text in swapped_terms(rubric, fact, slot) {
                add(Operator::SwappedTerm, text);
            }
        }
    }
    found
}

/// Mutants generated and killed, by area (`PA.I`) and operator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KillReport {
    /// (generated, killed) per area.
    pub by_area: BTreeMap<String, (usize, usize)>,
    /// (generated, killed) per operator.
    pub by_operator: BTreeMap<Operator, (usize, usize)>,
    /// Every survivor.
    pub survivors: Vec<Mutant>,
}

impl KillReport {
    /// Mutates and judges every rubric of `rubrics`.
    pub fn of<'r>(rubrics: impl IntoIterator<Item = &'r ElementRubric>) -> KillReport {
        let mut report = KillReport::default();
        for rubric in rubrics {
            let prepared = PreparedRubric::new(rubric.clone());
            let area = area_of(&rubric.element);
            for mutant in mutants(rubric) {
                let verdict = judge_read(&prepared, &ReadAnswer::of(&mutant.text), None);
                let killed = verdict.score == Score::Unsatisfactory;
                bump(report.by_area.entry(area.clone()).or_default(), killed);
                bump(
                    report.by_operator.entry(mutant.operator).or_default(),
                    killed,
                );
                if !killed {
                    report.survivors.push(mutant);
                }
            }
        }
        report
    }

    /// (generated, killed) over everything.
    pub fn total(&self) -> (usize, usize) {
        self.by_area
            .values()
            .fold((0, 0), |(g, k), (ag, ak)| (g + ag, k + ak))
    }
}

fn bump(count: &mut (usize, usize), killed: bool) {
    count.0 += 1;
    if killed {
        count.1 += 1;
    }
}

/// `PA.I.A.K1` -> `PA.I`.
fn area_of(element: &str) -> String {
    element.split('.').take(2).collect::<Vec<_>>().join(".")
}

/// The claim with its value's number one unit off (and, for a light signal, every other
/// one; a class of airspace is a domain value, falsified through its slot).
fn number_mutants(fact: &Fact) -> Vec<String> {
    let Some(value) = &fact.value else {
        return Vec::new();
    };
    match value {
        FactValue::LightSignal { signal } => LIGHT_SIGNALS
            .iter()
            .filter(|other| **other != signal.to_lowercase())
            .filter_map(|other| replace_phrase(&fact.claim, signal, other))
            .collect(),
        FactValue::Squawk { code } => {
            let next = if code.ends_with('7') { "0" } else { "1" };
            let other = format!("{}{}", &code[..code.len().saturating_sub(1)], next);
            replace_number(&fact.claim, code, &other)
                .into_iter()
                .collect()
        }
        _ => written_amount(value)
            .and_then(|amount| one_unit_off(&fact.claim, amount))
            .into_iter()
            .collect(),
    }
}

/// The claim with the first number equal to `amount` (digits or a number word) one more.
fn one_unit_off(claim: &str, amount: f64) -> Option<String> {
    let off = amount + 1.0;
    let off_text = if off.fract() == 0.0 {
        format!("{off:.0}")
    } else {
        format!("{off}")
    };
    for (start, end, value) in numbers_in(claim) {
        if (value - amount).abs() < 1e-9 {
            return Some(format!("{}{off_text}{}", &claim[..start], &claim[end..]));
        }
    }
    None
}

/// The claim with the number written `from` replaced by `to`.
fn replace_number(claim: &str, from: &str, to: &str) -> Option<String> {
    let (start, end, _) = numbers_in(claim)
        .into_iter()
        .find(|(s, e, _)| &claim[*s..*e] == from)?;
    Some(format!("{}{to}{}", &claim[..start], &claim[end..]))
}

const NUMBER_WORDS: &[(&str, f64)] = &[
    ("zero", 0.0),
    ("one", 1.0),
    ("two", 2.0),
    ("three", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("seven", 7.0),
    ("eight", 8.0),
    ("nine", 9.0),
    ("ten", 10.0),
    ("eleven", 11.0),
    ("twelve", 12.0),
    ("fifteen", 15.0),
    ("twenty", 20.0),
    ("thirty", 30.0),
    ("sixty", 60.0),
    ("ninety", 90.0),
];

/// The numbers written in `text`: byte range and value (digits with their commas and
/// decimal point, or a number word).
fn numbers_in(text: &str) -> Vec<(usize, usize, f64)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let boundary = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        if bytes[at].is_ascii_digit() && boundary {
            let mut end = at;
            while end < bytes.len()
                && (bytes[end].is_ascii_digit()
                    || (matches!(bytes[end], b',' | b'.')
                        && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)))
            {
                end += 1;
            }
            if let Ok(value) = text[at..end].replace(',', "").parse::<f64>() {
                found.push((at, end, value));
            }
            at = end;
            continue;
        }
        if boundary && bytes[at].is_ascii_alphabetic() {
            let end = (at..bytes.len())
                .find(|&i| !bytes[i].is_ascii_alphabetic())
                .unwrap_or(bytes.len());
            let word = text[at..end].to_ascii_lowercase();
            if let Some((_, value)) = NUMBER_WORDS.iter().find(|(w, _)| *w == word) {
                found.push((at, end, *value));
            }
            at = end;
            continue;
        }
        at += 1;
    }
    found
}

/// Mutants with each `(domain, member)` pair's phrase in the claim replaced by each other
/// member's first phrase.
fn domain_mutants<'s>(
    claim: &str,
    slot: &'s Slot,
    pairs: impl Iterator<Item = (&'s str, &'s str)>,
) -> Vec<String> {
    let mut found = Vec::new();
    for (domain, member) in pairs {
        let Some(domain) = slot.domain(domain) else {
            continue;
        };
        let Some(own) = domain.members.get(member) else {
            continue;
        };
        let Some(said) = own.iter().find(|p| find_phrase(claim, p).is_some()) else {
            continue;
        };
        for (other, phrases) in &domain.members {
            if other == member {
                continue;
            }
            if let Some(text) = phrases
                .first()
                .and_then(|phrase| replace_phrase(claim, said, phrase))
            {
                found.push(text);
            }
        }
    }
    found
}

/// Polarity flips, most specific first: the claim with the first that applies.
const FLIPS: &[(&str, &str)] = &[
    ("is not required", "is required"),
    ("are not required", "are required"),
    ("not required", "required"),
    ("need not", "must"),
    ("does not need", "needs"),
    ("do not need", "need"),
    ("no person may", "any person may"),
    ("no one may", "anyone may"),
    ("no pilot may", "any pilot may"),
    ("may not", "may"),
    ("must not", "may"),
    ("cannot", "can"),
    ("is prohibited", "is permitted"),
    ("are prohibited", "are permitted"),
    ("is required", "is not required"),
    ("are required", "are not required"),
    ("requires", "does not require"),
    ("require", "do not require"),
    ("must", "need not"),
    ("is permitted", "is not permitted"),
    ("are permitted", "are not permitted"),
    ("may", "may not"),
    ("can", "cannot"),
];

/// The claim with its first modal expression flipped.
fn flip_polarity(claim: &str) -> Option<String> {
    FLIPS
        .iter()
        .find_map(|(from, to)| replace_phrase(claim, from, to))
}

/// The claim with its subject replaced by each other defined subject of the element.
fn swapped_terms(rubric: &ElementRubric, fact: &Fact, slot: &Slot) -> Vec<String> {
    let Some(own) = slot
        .subject
        .iter()
        .find(|s| find_phrase(&fact.claim, s).is_some())
    else {
        return Vec::new();
    };
    rubric
        .facts
        .iter()
        .filter(|other| other.id != fact.id)
        .filter_map(|other| other.slot.as_ref().filter(|s| s.defines))
        .filter(|other| !other.subject.iter().any(|s| slot.subject.contains(s)))
        .filter_map(|other| other.subject.first())
        .filter_map(|subject| replace_phrase(&fact.claim, own, subject))
        .collect()
}

/// The byte range of `phrase` in `text`, matched case-insensitively at word boundaries.
fn find_phrase(text: &str, phrase: &str) -> Option<(usize, usize)> {
    let lower = text.to_ascii_lowercase();
    let needle = phrase.trim().to_ascii_lowercase();
    if needle.is_empty() || lower.len() != text.len() {
        return None;
    }
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(offset) = lower[from..].find(&needle) {
        let start = from + offset;
        let end = start + needle.len();
        let before = start == 0 || !bytes[start - 1].is_ascii_alphanumeric();
        let after = end == bytes.len() || !bytes[end].is_ascii_alphanumeric();
        if before && after {
            return Some((start, end));
        }
        from = start + 1;
    }
    None
}

/// `text` with the first whole-word `from` replaced by `to`.
fn replace_phrase(text: &str, from: &str, to: &str) -> Option<String> {
    let (start, end) = find_phrase(text, from)?;
    Some(format!("{}{to}{}", &text[..start], &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOMAINS: &str = "\
domains:
  - id: colour
    members:
      magenta: [magenta]
      blue: [blue]
";

    const RUBRIC: &str = "\
task: PA.I.E
elements:
  - element: PA.I.E.K1
    facts:
      - id: class-b-colour
        claim: Class B airspace is charted with solid magenta lines.
        source: FAA-H-8083-25, chapter 15
        terms: [class b magenta]
        slot: {subject: [class b], is: [colour.magenta]}
      - id: class-b-clearance
        claim: No one may operate in Class B airspace without an ATC clearance.
        source: 14 CFR 91.131(a)(1)
        terms: [clearance to enter class b]
        slot: {subject: [class b], attribute: [clearance], modality: required}
      - id: currency
        claim: Three takeoffs and landings within the preceding 90 days.
        source: 14 CFR 61.57(a)
        terms: [90 days]
        value: {kind: duration, amount: 90, unit: days}
      - id: confirmation-bias
        claim: Confirmation bias is seeking information that confirms what you already believe.
        source: FAA-H-8083-2, chapter 5
        terms: [information that confirms]
        slot: {subject: [confirmation bias], defines: true}
      - id: expectation-bias
        claim: Expectation bias is hearing what you expect to hear.
        source: FAA-H-8083-2, chapter 5
        terms: [expect to hear]
        slot: {subject: [expectation bias], defines: true}
    satisfactory: [class-b-colour, class-b-clearance]
    partial: {at_least: 1}
";

    fn rubric() -> ElementRubric {
        super::super::test_rubric(DOMAINS, RUBRIC, "PA.I.E.K1")
    }

    #[test]
    fn every_operator_falsifies_its_fact() {
        let found = mutants(&rubric());
        let text = |operator: Operator| {
            (found.iter())
                .filter(|m| m.operator == operator)
                .map(|m| m.text.as_str())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            text(Operator::DomainValue),
            ["Class B airspace is charted with solid blue lines."]
        );
        assert_eq!(
            text(Operator::Polarity),
            ["anyone may operate in Class B airspace without an ATC clearance."]
        );
        assert_eq!(
            text(Operator::Number),
            ["Three takeoffs and landings within the preceding 91 days."]
        );
        assert_eq!(text(Operator::SwappedTerm).len(), 2);
        assert!(text(Operator::SwappedTerm)[0].starts_with("expectation bias is seeking"));
    }

    #[test]
    fn the_judge_kills_every_mutant_of_a_slotted_rubric() {
        let rubric = rubric();
        let report = KillReport::of([&rubric]);
        assert!(report.survivors.is_empty(), "{:#?}", report.survivors);
        assert_eq!(report.total(), (5, 5));
        assert_eq!(report.by_area["PA.I"], (5, 5));
    }

    #[test]
    fn numbers_are_found_in_digits_and_words() {
        let found: Vec<f64> = numbers_in("three landings in 90 days, 1,000 feet and 121.5")
            .into_iter()
            .map(|(_, _, v)| v)
            .collect();
        assert_eq!(found, [3.0, 90.0, 1000.0, 121.5]);
        assert_eq!(
            one_unit_off("Three takeoffs", 3.0).as_deref(),
            Some("4 takeoffs")
        );
    }
}
