//! Every follow-up the embedded examiner can ask, judged as if the candidate had said it:
//! each oral element of both catalogs, each difficulty, after a short and after a long
//! answer, with each required fact missing alone and with all of them missing. A follow-up
//! must credit no missing fact and hold none of their values (`judge::give_away`).

use viva_blueprint::rubric::Fact;

use super::super::acs::{AcsElement, AcsLibrary};
use super::super::queue::is_oral_eligible;
use super::super::types::{QuestionDifficulty, QuestionKind};
use super::fixtures::library;
use super::judge::give_away::give_aways;
use crate::examiner::{EmbeddedExaminer, PreviousTurn, QuestionRequest};

const DIFFICULTIES: [QuestionDifficulty; 3] = [
    QuestionDifficulty::Easy,
    QuestionDifficulty::Medium,
    QuestionDifficulty::Hard,
];

/// The answers a follow-up comes after: a short one (drawn out) and a long one (probed).
const PREVIOUS_ANSWERS: [&str; 2] = [
    "I would check that before I go.",
    "I would check that before every flight and make sure that everything is in order, \
     because the rules are there for a reason and I want to follow them carefully.",
];

/// What the audit found.
#[derive(Debug, Default)]
pub struct Audit {
    /// Follow-ups judged.
    pub checked: usize,
    /// Oral elements.
    pub elements: usize,
    /// Follow-ups that give a missing fact away, with what they give away.
    pub give_aways: Vec<String>,
    /// After a long answer on an element with a rubric (a probe, not "expand on that"):
    /// how many follow-ups came from each source.
    pub sources: std::collections::BTreeMap<String, usize>,
}

/// The facts an answer to `asked` must state, in the order feedback reports them missing:
/// the question's, then the element's core ones.
fn required<'r>(
    rubric: &'r viva_blueprint::rubric::ElementRubric,
    asked: Option<&viva_blueprint::rubric::Question>,
) -> Vec<&'r Fact> {
    let ids = asked
        .map_or(&[][..], |q| q.facts.as_slice())
        .iter()
        .chain(&rubric.satisfactory);
    let mut facts: Vec<&Fact> = Vec::new();
    for id in ids {
        if let Some(fact) = rubric.facts.iter().find(|f| &f.id == id)
            && !facts.iter().any(|f| f.id == fact.id)
        {
            facts.push(fact);
        }
    }
    facts
}

/// Runs the audit over every oral element of both catalogs.
pub fn audit(library: &AcsLibrary, examiner: &EmbeddedExaminer) -> Audit {
    let mut found = Audit::default();
    for rating in [
        super::super::acs::Rating::Private,
        super::super::acs::Rating::Commercial,
    ] {
        let catalog = library.catalog(rating);
        for element in catalog.elements() {
            if !is_oral_eligible(element, rating) {
                continue;
            }
            found.elements += 1;
            match library.prepared(&element.code) {
                Some(prepared) => audit_element(&mut found, examiner, element, prepared, rating),
                None => audit_key_terms(&mut found, examiner, element, rating),
            }
        }
    }
    found
}

fn audit_element(
    found: &mut Audit,
    examiner: &EmbeddedExaminer,
    element: &AcsElement,
    prepared: &super::judge::PreparedRubric,
    rating: super::super::acs::Rating,
) {
    let rubric = &prepared.rubric;
    for difficulty in DIFFICULTIES {
        let request = |kind, missing: Vec<String>, previous| QuestionRequest {
            rating,
            element_code: element.code.clone(),
            kind,
            difficulty,
            missing_terms: missing,
            previous,
        };
        let primary = examiner.phrase_now(&request(QuestionKind::Primary, Vec::new(), None));
        let asked = super::rubric_exam::asked_question(rubric, &primary);
        let required = required(rubric, asked);
        let mut sets: Vec<Vec<&Fact>> = required.iter().map(|f| vec![*f]).collect();
        if required.len() > 1 {
            sets.push(required.clone());
        }
        for missing in sets {
            let terms: Vec<String> = missing
                .iter()
                .filter_map(|f| f.terms.first().cloned())
                .collect();
            // Facts are named by their first term, which two facts may share: the examiner
            // asks about (and the check covers) every fact the terms name.
            let missing = super::rubric_exam::missing_facts(rubric, &terms);
            for answer in PREVIOUS_ANSWERS {
                let previous = PreviousTurn {
                    element_code: element.code.clone(),
                    question: primary.clone(),
                    answer: Some(answer.to_owned()),
                };
                let follow_up = examiner.phrase_now(&request(
                    QuestionKind::FollowUp,
                    terms.clone(),
                    Some(previous),
                ));
                found.checked += 1;
                let input = super::probe::FollowUpInput {
                    element,
                    difficulty,
                    draw_out: super::judge::is_short(answer),
                };
                let chosen = super::probe::choose(input, prepared, &missing);
                assert_eq!(
                    chosen.text, follow_up,
                    "the examiner asks what the rule chooses"
                );
                if !input.draw_out {
                    *found
                        .sources
                        .entry(format!("{:?}", chosen.source))
                        .or_default() += 1;
                }
                let given = give_aways(prepared, &follow_up, &missing);
                if !given.is_empty() {
                    found
                        .give_aways
                        .push(format!("{} {given:?}: {follow_up}", element.code));
                }
            }
        }
    }
}

/// An element without a rubric is judged by its key terms: a follow-up must contain none of
/// the missing ones.
fn audit_key_terms(
    found: &mut Audit,
    examiner: &EmbeddedExaminer,
    element: &AcsElement,
    rating: super::super::acs::Rating,
) {
    let terms = super::coverage::key_terms(element);
    let mut sets: Vec<Vec<&super::text::KeyTerm>> = terms.iter().map(|t| vec![t]).collect();
    if terms.len() > 1 {
        sets.push(terms.iter().collect());
    }
    for difficulty in DIFFICULTIES {
        for missing in &sets {
            let words: Vec<String> = missing.iter().map(|t| t.word.clone()).collect();
            for answer in PREVIOUS_ANSWERS {
                let request = QuestionRequest {
                    rating,
                    element_code: element.code.clone(),
                    kind: QuestionKind::FollowUp,
                    difficulty,
                    missing_terms: words.clone(),
                    previous: Some(PreviousTurn {
                        element_code: element.code.clone(),
                        question: String::new(),
                        answer: Some(answer.to_owned()),
                    }),
                };
                let follow_up = examiner.phrase_now(&request);
                found.checked += 1;
                let said = super::text::canonical_terms_of_answer(&follow_up);
                let given: Vec<&str> = missing
                    .iter()
                    .filter(|t| said.contains(&t.canonical))
                    .map(|t| t.word.as_str())
                    .collect();
                if !given.is_empty() {
                    found
                        .give_aways
                        .push(format!("{} {given:?}: {follow_up}", element.code));
                }
            }
        }
    }
}

#[test]
fn no_follow_up_gives_a_missing_fact_away() {
    let library = library();
    let examiner = EmbeddedExaminer::new(library.clone());
    let found = audit(&library, &examiner);
    println!(
        "follow-ups checked: {} over {} oral elements; give-aways: {}",
        found.checked,
        found.elements,
        found.give_aways.len()
    );
    println!("probes after a long answer, by source: {:?}", found.sources);
    for line in found.give_aways.iter().take(40) {
        println!("  {line}");
    }
    assert!(found.elements > 500, "{}", found.elements);
    assert!(
        found.give_aways.is_empty(),
        "{} give-aways",
        found.give_aways.len()
    );
}

/// Every authored probe, judged as if the candidate had said it against its element's
/// rubric, states no fact of the element and holds no fact's value (what `viva blueprints
/// check` refuses too).
#[test]
fn every_authored_probe_gives_nothing_away() {
    let library = library();
    let mut authored = 0;
    let mut problems = Vec::new();
    for rating in [
        super::super::acs::Rating::Private,
        super::super::acs::Rating::Commercial,
    ] {
        for element in library.catalog(rating).elements() {
            let Some(prepared) = library.prepared(&element.code) else {
                continue;
            };
            let rubric = &prepared.rubric;
            let facts: Vec<&Fact> = rubric.facts.iter().collect();
            for fact in &rubric.facts {
                let Some(probe) = &fact.probe else {
                    continue;
                };
                authored += 1;
                let given = give_aways(prepared, probe, &facts);
                if !given.is_empty() {
                    problems.push(format!("{} {} {given:?}: {probe}", element.code, fact.id));
                }
            }
        }
    }
    println!(
        "authored probes: {authored}; giving a fact away: {}",
        problems.len()
    );
    for line in &problems {
        println!("  {line}");
    }
    assert!(
        problems.is_empty(),
        "{} authored probes give a fact away",
        problems.len()
    );
}
