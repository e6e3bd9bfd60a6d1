//! A checkride-style exam through a real server: no verdict reaches the device while the
//! oral runs (each `assessment` says only `recorded: true`), and the result ends with a
//! debrief of every element that was not satisfactory, with what was said, the correction
//! and its sources, and the outcome stated as an examiner would. The study style keeps its
//! per-answer feedback.

use serde_json::{Value, json};

use std::collections::{BTreeSet, HashMap};

use viva_core::exam::examiner::judge::give_away::give_aways;
use viva_core::exam::examiner::judge::{FactStatus, PreparedRubric, ReadAnswer, judge_read};

use crate::harness::{
    Auth, Client, Server, TASK, UNSATISFACTORY_ANSWER, answer, http_get, result_path, rubrics,
    run_to_completion, satisfactory_answer, satisfactory_for, start_exam_with, token,
};

fn checkride_config() -> Value {
    json!({"rating": "private", "study_mode": "linear", "tasks": [TASK],
        "examiner_style": "checkride"})
}

/// Answers every question on `element` badly and every other one well.
fn wrong_on(element: Value) -> impl FnMut(&Value) -> String {
    move |question| {
        if question["element_code"] == element {
            UNSATISFACTORY_ANSWER.to_owned()
        } else {
            satisfactory_for(question)
        }
    }
}

#[tokio::test]
async fn a_checkride_says_nothing_until_its_debrief() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam_with(&mut alice, "A", checkride_config()).await;
    let first_element = started.question["element_code"].clone();
    let answers = wrong_on(first_element.clone());
    let run = run_to_completion(&mut alice, started.question, answers).await;
    let on_first: Vec<&Value> = run
        .questions
        .iter()
        .filter(|q| q["element_code"] == first_element)
        .collect();
    assert_eq!(
        on_first.len(),
        2,
        "asked, then come back to once: {:?}",
        run.questions
    );
    let after_first = run.questions[1]["text"].as_str().unwrap_or_default();
    assert!(
        after_first.starts_with("Let's come back to that later."),
        "{after_first}"
    );
    for assessment in &run.assessments {
        assert_eq!(assessment["recorded"], true, "{assessment}");
        for hidden in ["score", "feedback", "source_summary", "credited_elements"] {
            assert!(
                assessment.get(hidden).is_none(),
                "{hidden} shown: {assessment}"
            );
        }
    }
    let result = &run.completed["result"];
    assert_eq!(result["outcome"], "unsatisfactory", "{result}");
    let debrief = &result["debrief"];
    let statement = debrief["outcome_statement"].as_str().expect("a statement");
    assert!(statement.contains("notice of disapproval"), "{debrief}");
    assert!(statement.contains(&format!("({TASK})")), "{debrief}");
    let items = debrief["items"].as_array().expect("items");
    let first = items
        .iter()
        .find(|item| item["element_code"] == first_element)
        .unwrap_or_else(|| panic!("the failed element is debriefed: {debrief}"));
    assert!(
        first["said"]
            .as_array()
            .is_some_and(|said| said.iter().any(|s| s == UNSATISFACTORY_ANSWER)),
        "{first}"
    );
    assert!(
        !first["correction"].as_str().unwrap_or_default().is_empty(),
        "{first}"
    );
    assert!(
        first["sources"]
            .as_str()
            .unwrap_or_default()
            .contains("CFR"),
        "{first}"
    );
    let owners = http_get(
        &server,
        &result_path(&started.session_id),
        Some(&token("alice")),
    )
    .await;
    assert_eq!(owners.status, 200, "{owners:?}");
    assert_eq!(
        owners.json()["debrief"],
        *debrief,
        "the stored result keeps the debrief"
    );
}

#[tokio::test]
async fn a_study_exam_keeps_its_feedback_and_has_no_debrief() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let config = json!({"rating": "private", "study_mode": "linear", "tasks": [TASK],
        "examiner_style": "study"});
    let started = start_exam_with(&mut alice, "A", config).await;
    let answers = wrong_on(started.question["element_code"].clone());
    let run = run_to_completion(&mut alice, started.question, answers).await;
    assert_eq!(
        run.assessments[0]["score"], "unsatisfactory",
        "{:?}",
        run.assessments[0]
    );
    assert!(run.assessments[0]["feedback"].is_string());
    assert!(
        run.completed["result"].get("debrief").is_none(),
        "{}",
        run.completed
    );
}

/// A partly right answer: the claim of the first fact a satisfactory answer needs, so the
/// examiner has something left to probe (an element without a rubric is answered fully).
fn partial_answer(question: &Value) -> String {
    let code = question["element_code"].as_str().unwrap_or_default();
    let Some(rubric) = rubrics().get(code) else {
        return satisfactory_answer(code);
    };
    let first = rubric.satisfactory.first();
    let fact = rubric.facts.iter().find(|f| Some(&f.id) == first);
    fact.map_or_else(|| satisfactory_answer(code), |f| f.claim.clone())
}

/// What the candidate has stated of each element so far, judged as the examiner judges.
#[derive(Default)]
struct Stated {
    by_element: HashMap<String, BTreeSet<String>>,
    prepared: HashMap<String, PreparedRubric>,
}

impl Stated {
    fn prepared(&mut self, code: &str) -> Option<&PreparedRubric> {
        let rubric = rubrics().get(code)?;
        let entry = self.prepared.entry(code.to_owned());
        Some(entry.or_insert_with(|| PreparedRubric::new(rubric.clone())))
    }

    fn said(&mut self, code: &str, text: &str) {
        let Some(prepared) = self.prepared(code) else {
            return;
        };
        let verdict = judge_read(prepared, &ReadAnswer::of(text), None);
        let stated: Vec<String> = prepared
            .rubric
            .facts
            .iter()
            .filter(|f| verdict.status(&f.id) == FactStatus::Stated)
            .map(|f| f.id.clone())
            .collect();
        self.by_element
            .entry(code.to_owned())
            .or_default()
            .extend(stated);
    }

    /// The facts of `code` the question's words would give away that the candidate has not
    /// stated.
    fn given_away(&mut self, code: &str, words: &str) -> Vec<String> {
        let known = self.by_element.get(code).cloned().unwrap_or_default();
        let Some(prepared) = self.prepared(code) else {
            return Vec::new();
        };
        let unsaid: Vec<_> = prepared
            .rubric
            .facts
            .iter()
            .filter(|f| !known.contains(&f.id))
            .collect();
        give_aways(prepared, words, &unsaid)
            .iter()
            .map(|g| g.fact().to_owned())
            .collect()
    }
}

/// The goal: a checkride over three areas is asked through at least two flight
/// scenarios, and no follow-up the device hears before the debrief states a fact the
/// candidate left out.
#[tokio::test]
async fn a_checkride_over_three_areas_uses_scenarios_and_never_gives_a_missing_fact_away() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let config = json!({"rating": "private", "study_mode": "linear", "seed": 5,
        "areas": ["I", "VII", "IX"], "examiner_style": "checkride"});
    let started = start_exam_with(&mut alice, "A", config).await;
    let mut question = started.question;
    let (mut stated, mut scenarios, mut probes) = (Stated::default(), BTreeSet::new(), 0);
    let mut given_away = Vec::new();
    for _ in 0..300 {
        let code = question["element_code"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let words = question["text"].as_str().unwrap_or_default();
        if question["kind"] == "follow_up" {
            probes += 1;
            for fact in stated.given_away(&code, words) {
                given_away.push(format!("{code} {fact}: {words}"));
            }
        }
        if let Some(scenario) = question["scenario"].as_str() {
            scenarios.insert(scenario.to_owned());
        }
        let said = partial_answer(&question);
        stated.said(&code, &said);
        let answered = answer(&mut alice, &said).await;
        assert_eq!(
            answered.assessment["recorded"], true,
            "{}",
            answered.assessment
        );
        assert!(
            answered.assessment.get("score").is_none(),
            "{}",
            answered.assessment
        );
        if answered.next["type"] == "session.completed" {
            let debrief = &answered.next["result"]["debrief"];
            assert!(debrief["outcome_statement"].is_string(), "{debrief}");
            assert!(scenarios.len() >= 2, "scenarios used: {scenarios:?}");
            assert!(probes > 0, "partial answers were probed");
            assert!(given_away.is_empty(), "{given_away:#?}");
            return;
        }
        question = answered.question();
    }
    panic!("the checkride did not end");
}
