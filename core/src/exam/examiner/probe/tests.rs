//! The probe rule on the shipped rubrics.

use super::*;
use crate::exam::acs::Rating;
use crate::exam::examiner::fixtures::library;
use crate::exam::examiner::rubric_exam::missing_facts;

/// The follow-up on `code` after an answer that left the facts `ids` out.
fn follow_up_on(
    code: &str,
    ids: &[&str],
    difficulty: QuestionDifficulty,
    draw_out: bool,
) -> String {
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
    follow_up(input, prepared, &missing)
}

#[test]
fn a_follow_up_asks_about_the_first_missing_fact_by_its_kind() {
    let easy = QuestionDifficulty::Easy;
    let table: [(&str, &[&str], &str); 1] = [("PA.I.A.K1", &["flight-review-interval"], "?")];
    for (code, missing, expected) in table {
        let said = follow_up_on(code, missing, easy, false);
        println!("{code} {missing:?}: {said}");
        assert!(said.ends_with(expected), "{said}");
    }
}

#[test]
fn a_short_answer_is_asked_to_expand_naming_nothing() {
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
        let said = follow_up_on(
            "PA.I.A.K1",
            &["flight-review-interval", "logbook-records"],
            difficulty,
            true,
        );
        assert_eq!(said, expected);
    }
}
