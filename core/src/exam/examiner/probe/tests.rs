//! The probe rule, on the shipped rubrics and on made-up ones.

use viva_blueprint::library::Source;
use viva_blueprint::rubric::{ElementRubric, RubricSet};

use super::*;
use crate::exam::acs::Rating;
use crate::exam::examiner::fixtures::{library, private_element};
use crate::exam::examiner::rubric_exam::missing_facts;

const EASY: QuestionDifficulty = QuestionDifficulty::Easy;

/// The follow-up on shipped element `code` after an answer that left the facts `ids` out.
fn follow_up_on(code: &str, ids: &[&str], difficulty: QuestionDifficulty, draw_out: bool) -> Probe {
    let library = library();
    let element = library
        .catalog(Rating::Private)
        .element(code)
        .expect("an element");
    let prepared = library.prepared(code).expect("a rubric");
    let terms: Vec<String> = ids
        .iter()
        .filter_map(|id| prepared.rubric.facts.iter().find(|f| f.id == *id))
        .filter_map(|f| f.terms.first().cloned())
        .collect();
    let missing = missing_facts(&prepared.rubric, &terms);
    assert_eq!(missing.len(), ids.len(), "{ids:?}");
    let input = FollowUpInput {
        element,
        difficulty,
        draw_out,
    };
    choose(input, prepared, &missing)
}

#[test]
fn a_follow_up_asks_about_the_first_missing_fact_with_its_authored_probe() {
    let review = "Beyond carrying passengers, what periodic check with an instructor do you need \
                  to act as pilot in command, and how often?";
    let table: [(&[&str], String); 3] = [
        (&["flight-review-interval"], review.to_owned()),
        (
            &["flight-review-interval", "logbook-records"],
            format!("{review} What else would you add?"),
        ),
        (
            &["passenger-currency-window"],
            "How recent must that experience be?".to_owned(),
        ),
    ];
    for (missing, expected) in table {
        let probe = follow_up_on("PA.I.A.K1", missing, EASY, false);
        assert_eq!(probe.text, expected, "{missing:?}");
        assert_eq!(probe.source, ProbeSource::Authored, "{missing:?}");
    }
}

#[test]
fn a_short_answer_is_asked_to_expand_naming_nothing() {
    let missing = ["flight-review-interval", "logbook-records"];
    for (difficulty, expected) in [
        (QuestionDifficulty::Easy, "Can you expand on that?"),
        (
            QuestionDifficulty::Medium,
            "Can you tell me more about that?",
        ),
        (
            QuestionDifficulty::Hard,
            "Go on: what else would you say, and why?",
        ),
    ] {
        let probe = follow_up_on("PA.I.A.K1", &missing, difficulty, true);
        assert_eq!(
            (probe.text.as_str(), probe.source),
            (expected, ProbeSource::Expand)
        );
    }
}

/// A made-up rubric for PA.I.A.K1 (its task is pilot qualifications).
fn made_up(facts: &str) -> ElementRubric {
    let text = format!(
        "task: PA.I.A\nelements:\n  - element: PA.I.A.K1\n    facts:\n{facts}    \
         satisfactory: [a]\n"
    );
    let source = Source {
        path: "r.yaml".into(),
        text,
    };
    let set = RubricSet::load(&[source]).expect("a valid rubric");
    set.get("PA.I.A.K1").cloned().expect("the rubric")
}

fn fact(id: &str, claim: &str, terms: &str, more: &str) -> String {
    format!(
        "      - id: {id}\n        claim: {claim}\n        source: 14 CFR 61.57(a)\n        \
         terms: [{terms}]\n{more}"
    )
}

#[test]
fn a_generated_probe_asks_by_the_facts_kind_about_its_acs_topic() {
    let value = |v: &str| format!("        value: {v}\n");
    let slot = |s: &str| format!("        slot: {s}\n");
    let table = [
        (
            fact(
                "a",
                "Recent experience must fall within the preceding 90 days.",
                "ninety days",
                &value("{kind: duration, amount: 90, unit: days}"),
            ),
            "What time limit applies to recent flight experience?",
        ),
        (
            fact(
                "a",
                "A pilot must make 3 takeoffs and landings for recent flight experience.",
                "three takeoffs",
                &value("{kind: count, amount: 3, of: takeoffs}"),
            ),
            "How many are required for recent flight experience?",
        ),
        (
            fact(
                "a",
                "Recordkeeping of training is required in a logbook.",
                "logbook",
                &slot("{subject: [training], attribute: [logbook], modality: required}"),
            ),
            "What is required when it comes to recordkeeping?",
        ),
        (
            fact(
                "a",
                "Certification needs a knowledge test.",
                "knowledge test",
                "",
            ),
            "What else can you tell me about certification requirements?",
        ),
    ];
    let element = private_element("PA.I.A.K1");
    for (facts, expected) in table {
        let rubric = made_up(&facts);
        let probes = generated::probes(element, &rubric.facts[0]);
        assert_eq!(
            probes.first().map(String::as_str),
            Some(expected),
            "{probes:?}"
        );
    }
}

#[test]
fn a_probe_that_would_give_the_fact_away_is_skipped_down_to_an_open_question() {
    // Every topic the ACS offers for this fact holds one of its terms.
    let terms = "certification requirements, recent flight experience, recordkeeping, pilot \
                 qualifications, what else would you add";
    let rubric = made_up(&fact(
        "a",
        "Certification, experience and records.",
        terms,
        "",
    ));
    let prepared = PreparedRubric::new(rubric.clone());
    let input = FollowUpInput {
        element: private_element("PA.I.A.K1"),
        difficulty: EASY,
        draw_out: false,
    };
    let probe = choose(input, &prepared, &[&rubric.facts[0]]);
    assert_eq!(
        (probe.text.as_str(), probe.source),
        ("Can you expand on that?", ProbeSource::Open)
    );
}

#[test]
fn a_key_term_follow_up_names_no_missing_key_term() {
    let element = private_element("PA.I.A.K1");
    let input = |draw_out| FollowUpInput {
        element,
        difficulty: EASY,
        draw_out,
    };
    let missing = ["recordkeeping".to_owned()];
    assert_eq!(
        key_term_follow_up(input(false), &missing),
        "What else can you tell me about pilot qualifications?"
    );
    let pilots = ["pilot qualifications".to_owned()];
    assert_eq!(
        key_term_follow_up(input(false), &pilots),
        "What else would you add?"
    );
    assert_eq!(
        key_term_follow_up(input(true), &missing),
        "Can you expand on that?"
    );
    assert!(!names_no_key_term("Tell me about your logbook.", &missing));
}
