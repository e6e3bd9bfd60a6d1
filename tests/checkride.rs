//! A checkride-style exam through a real server: no verdict reaches the device while the
//! oral runs (each `assessment` says only `recorded: true`), and the result ends with a
//! debrief of every element that was not satisfactory, with what was said, the correction
//! and its sources, and the outcome stated as an examiner would. The study style keeps its
//! per-answer feedback.

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, Server, TASK, UNSATISFACTORY_ANSWER, http_get, result_path, run_to_completion,
    satisfactory_for, start_exam_with, token,
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
