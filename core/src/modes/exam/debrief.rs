//! A checkride's debrief: what the examiner says once the oral is over, when no verdict was
//! given during it. The outcome is stated as an examiner would (the notice of disapproval,
//! the letter of discontinuance, or going on to the flight portion), with the rules behind
//! it, and then each element that was not satisfactory: what the candidate said, the
//! examiner's correction (the correct fact and where it is written) and its sources.
//!
//! Pure: it reads the graded result, the transcript and the catalog.

use viva_protocol::result::{Debrief, DebriefItem, ExamResult, Outcome};

use crate::exam::acs::AcsCatalog;
use crate::exam::types::Score;
use crate::modes::exam::Turn;

/// Credit for the areas passed lasts 60 days after a test that was stopped or failed.
const CREDIT_RULE: &str = "14 CFR 61.43(f)";
/// Failing any area of operation fails the practical test.
const FAIL_RULE: &str = "14 CFR 61.43(c)";
/// A retest after a failure needs more training and an instructor's endorsement.
const RETEST_RULE: &str = "14 CFR 61.49(a)";
/// How many tasks the outcome statement names before counting the rest.
const TASKS_NAMED: usize = 4;

/// The debrief of a graded exam.
pub fn debrief(result: &ExamResult, transcript: &[Turn], catalog: &AcsCatalog) -> Debrief {
    let items = weak_elements(result, transcript)
        .into_iter()
        .map(|(code, score)| item(code, score, transcript, catalog))
        .collect::<Vec<_>>();
    let (outcome_statement, outcome_source) = outcome_statement(result.outcome, &items);
    Debrief {
        outcome_statement,
        outcome_source,
        items,
    }
}

/// Each element scored partial or unsatisfactory, in the order it was first asked.
fn weak_elements<'r>(result: &'r ExamResult, transcript: &[Turn]) -> Vec<(&'r str, Score)> {
    let mut weak: Vec<(&str, Score, usize)> = result
        .elements
        .iter()
        .filter_map(|element| {
            let score = Score::parse(element.score.as_deref()?)?;
            let first_asked = transcript
                .iter()
                .position(|turn| turn.element_code == element.code)?;
            (score != Score::Satisfactory).then_some((element.code.as_str(), score, first_asked))
        })
        .collect();
    weak.sort_by_key(|&(_, _, first_asked)| first_asked);
    weak.into_iter()
        .map(|(code, score, _)| (code, score))
        .collect()
}

/// One element of the debrief: every answer given to it, and the last verdict's correction.
fn item(code: &str, score: Score, transcript: &[Turn], catalog: &AcsCatalog) -> DebriefItem {
    let turns: Vec<&Turn> = transcript
        .iter()
        .filter(|turn| turn.element_code == code)
        .collect();
    let said = turns
        .iter()
        .filter_map(|turn| turn.answer.clone())
        .filter(|answer| !answer.trim().is_empty())
        .collect();
    let last_verdict = turns.iter().rev().find(|turn| turn.feedback.is_some());
    let element = catalog.element(code);
    DebriefItem {
        element_code: code.to_owned(),
        element: element.map(|e| e.text.clone()).unwrap_or_default(),
        task: element.map(|e| e.task_title.clone()).unwrap_or_default(),
        score: score.as_str().to_owned(),
        said,
        correction: last_verdict
            .and_then(|turn| turn.feedback.clone())
            .unwrap_or_default(),
        sources: last_verdict
            .and_then(|turn| turn.sources.clone())
            .unwrap_or_default(),
    }
}

/// The outcome in an examiner's words, and the rules it rests on.
fn outcome_statement(outcome: Outcome, items: &[DebriefItem]) -> (String, String) {
    let opening = "That concludes the oral.";
    match outcome {
        Outcome::Satisfactory => (
            format!(
                "{opening} Every element I examined was satisfactory: had this been your \
                 practical test, we would go on to the flight portion."
            ),
            String::new(),
        ),
        Outcome::Unsatisfactory => (
            format!(
                "{opening} Had this been your practical test, I would issue a notice of \
                 disapproval listing {}. Failing any area fails the test ({FAIL_RULE}). Before \
                 a retest you would need more training and an instructor's endorsement \
                 ({RETEST_RULE}); you keep credit for the areas you passed if you finish the \
                 test within 60 days ({CREDIT_RULE}).",
                tasks_named(items)
            ),
            format!("{FAIL_RULE}; {RETEST_RULE}; {CREDIT_RULE}"),
        ),
        Outcome::Incomplete => (
            format!(
                "{opening} We stopped before the plan was done, so this would be a letter of \
                 discontinuance, neither a pass nor a fail: you keep credit for the areas you \
                 passed if you finish the test within 60 days ({CREDIT_RULE}).{}",
                if items.is_empty() {
                    String::new()
                } else {
                    format!(" Before then, work on {}.", tasks_named(items))
                }
            ),
            CREDIT_RULE.to_owned(),
        ),
    }
}

/// The tasks of `items`, each once in the order first met: `Airworthiness Requirements
/// (PA.I.B) and Weather Information (PA.I.C)`, the rest counted.
fn tasks_named(items: &[DebriefItem]) -> String {
    let mut tasks: Vec<String> = Vec::new();
    for item in items {
        let code = task_code(&item.element_code);
        let named = if item.task.is_empty() {
            code.to_owned()
        } else {
            format!("{} ({code})", item.task)
        };
        if !tasks.contains(&named) {
            tasks.push(named);
        }
    }
    let shown = tasks.len().min(TASKS_NAMED);
    let mut text = match &tasks[..shown] {
        [] => "the tasks examined".to_owned(),
        [one] => one.clone(),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
    };
    if tasks.len() > shown {
        text.push_str(&format!(" (and {} more)", tasks.len() - shown));
    }
    text
}

/// `PA.I.B` of `PA.I.B.K1`.
fn task_code(element_code: &str) -> &str {
    element_code
        .rsplit_once('.')
        .map_or(element_code, |(task, _)| task)
}

#[cfg(test)]
mod tests {
    use viva_protocol::result::{ElementResult, Trigger};

    use super::*;
    use crate::exam::types::QuestionKind;

    fn catalog() -> &'static AcsCatalog {
        crate::exam::examiner::fixtures::catalogs()[0]
    }

    fn element(code: &str, score: Option<&str>) -> ElementResult {
        ElementResult {
            code: code.to_owned(),
            area: "I".to_owned(),
            score: score.map(str::to_owned),
            status: "asked".to_owned(),
            scenario: None,
        }
    }

    fn result(outcome: Outcome, elements: Vec<ElementResult>) -> ExamResult {
        ExamResult {
            outcome,
            trigger: Trigger::AllTasksCovered,
            planned_questions: elements.len() as u32,
            asked: elements.len() as u32,
            credited_by_mention: 0,
            bonus_used: 0,
            areas: Vec::new(),
            elements,
            transcript: Vec::new(),
            debrief: None,
            adaptive_difficulty: None,
        }
    }

    fn turn(code: &str, answer: &str, score: Score, feedback: &str) -> Turn {
        Turn {
            question_id: format!("q-{code}"),
            element_code: code.to_owned(),
            kind: QuestionKind::Primary,
            question: "?".to_owned(),
            answer: Some(answer.to_owned()),
            score: Some(score),
            feedback: Some(feedback.to_owned()),
            examiner: Vec::new(),
            sources: Some(format!("source of {code}")),
            scenario: None,
        }
    }

    #[test]
    fn lists_each_weak_element_in_the_order_asked_with_every_answer_and_the_last_correction() {
        let transcript = vec![
            turn("PA.I.B.K1", "it's legal", Score::Partial, "first"),
            turn("PA.I.A.K1", "fine", Score::Satisfactory, "Correct."),
            turn("PA.I.C.K1", "no idea", Score::Unsatisfactory, "wrong"),
            turn(
                "PA.I.B.K1",
                "the annual",
                Score::Partial,
                "You left out: X (14 CFR 91.203).",
            ),
        ];
        let elements = vec![
            element("PA.I.A.K1", Some("satisfactory")),
            element("PA.I.C.K1", Some("unsatisfactory")),
            element("PA.I.B.K1", Some("partial")),
            element("PA.I.D.K1", None),
        ];
        let debrief = debrief(
            &result(Outcome::Unsatisfactory, elements),
            &transcript,
            catalog(),
        );
        let codes: Vec<&str> = debrief
            .items
            .iter()
            .map(|i| i.element_code.as_str())
            .collect();
        assert_eq!(
            codes,
            ["PA.I.B.K1", "PA.I.C.K1"],
            "asked order; satisfactory and unasked left out"
        );
        let first = &debrief.items[0];
        assert_eq!(first.said, ["it's legal", "the annual"]);
        assert_eq!(first.correction, "You left out: X (14 CFR 91.203).");
        assert_eq!(first.sources, "source of PA.I.B.K1");
        assert_eq!(first.score, "partial");
        assert!(
            !first.element.is_empty() && !first.task.is_empty(),
            "{first:?}"
        );
    }

    #[test]
    fn the_outcome_is_stated_as_an_examiner_would_with_its_rules() {
        let transcript = vec![turn("PA.I.B.K1", "no", Score::Unsatisfactory, "wrong")];
        let failed = result(
            Outcome::Unsatisfactory,
            vec![element("PA.I.B.K1", Some("unsatisfactory"))],
        );
        let statement = debrief(&failed, &transcript, catalog());
        assert!(
            statement
                .outcome_statement
                .contains("notice of disapproval"),
            "{statement:?}"
        );
        assert!(
            statement.outcome_statement.contains("(PA.I.B)"),
            "{statement:?}"
        );
        assert!(statement.outcome_source.contains("61.43(f)"));

        let passed = result(
            Outcome::Satisfactory,
            vec![element("PA.I.A.K1", Some("satisfactory"))],
        );
        let statement = debrief(&passed, &[], catalog());
        assert!(statement.outcome_statement.contains("flight portion"));
        assert!(statement.items.is_empty());

        let stopped = result(Outcome::Incomplete, vec![element("PA.I.A.K1", None)]);
        let statement = debrief(&stopped, &[], catalog());
        assert!(
            statement
                .outcome_statement
                .contains("letter of discontinuance")
        );
        assert!(!statement.outcome_statement.contains("Before then"));
    }

    #[test]
    fn tasks_are_named_once_each_and_the_rest_counted() {
        let item = |code: &str, task: &str| DebriefItem {
            element_code: code.to_owned(),
            element: String::new(),
            task: task.to_owned(),
            score: "partial".to_owned(),
            said: Vec::new(),
            correction: String::new(),
            sources: String::new(),
        };
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[], "the tasks examined"),
            (&[("PA.I.B.K1", "Airworthiness")], "Airworthiness (PA.I.B)"),
            (
                &[("PA.I.B.K1", "A"), ("PA.I.B.K2", "A"), ("PA.I.C.K1", "C")],
                "A (PA.I.B) and C (PA.I.C)",
            ),
            (
                &[
                    ("X.A.1", "A"),
                    ("X.B.1", "B"),
                    ("X.C.1", "C"),
                    ("X.D.1", "D"),
                    ("X.E.1", "E"),
                ],
                "A (X.A), B (X.B), C (X.C) and D (X.D) (and 1 more)",
            ),
            (&[("PA.I.B.K1", "")], "PA.I.B"),
        ];
        for (items, expected) in cases {
            let items: Vec<DebriefItem> = items.iter().map(|(c, t)| item(c, t)).collect();
            assert_eq!(tasks_named(&items), *expected);
        }
    }
}
