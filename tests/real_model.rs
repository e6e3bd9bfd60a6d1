//! A short exam, and a tutoring session, end to end through a real `viva serve` whose
//! examiner and tutor are a real small model: llama.cpp's `llama-server` with
//! Qwen2.5-Coder-0.5B on loopback, set up by `scripts/llm-setup`. Its own test binary, so it
//! runs with the machine to itself (cargo runs test binaries one after another), and its
//! tests take the machine in turn. It asserts behaviour, not speed: each model call
//! gets a timeout only a hang reaches, and the client waits longer still, so the test
//! passes on a busy machine too (docs/benchmarks.md has the latencies). Without the model
//! it is skipped loudly, except under CI, where it fails.

#[allow(dead_code, unused_imports)] // this binary uses part of the shared harness
mod harness;

use serde_json::Value;

use harness::{
    Auth, Client, Server, http_get, result_path, run_to_completion, satisfactory_for, start_exam,
    token,
};
use viva_testkit::llama::LlamaServer;

/// Each model call's limit: the most the server allows, far beyond any reply of this model
/// on a loaded machine (seconds), so only a hang falls back by timeout.
const CALL_TIMEOUT: &str = "120s";

/// The client's wait for each event: longer than a call's limit, so a hang shows as a
/// fallback rather than a client giving up.
const EVENT_WAIT: std::time::Duration = std::time::Duration::from_secs(150);

/// Held by each test for its whole run: the two tests would otherwise share two cores with
/// two llama-servers at once.
static MACHINE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The model name the server sends and the turn log records.
const MODEL_NAME: &str = "qwen2.5-coder-0.5b";

/// The turn log of every turn of the result's transcript.
fn turn_logs(result: &Value) -> Vec<Vec<Value>> {
    let transcript = result["transcript"].as_array().cloned().unwrap_or_default();
    transcript
        .iter()
        .map(|turn| turn["examiner"].as_array().cloned().unwrap_or_default())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_short_exam_runs_end_to_end_with_a_real_model_examiner() {
    let _machine = MACHINE.lock().await;
    let Some(llama) = LlamaServer::start(2) else {
        return;
    };
    let server = Server::start_with_llm(&llama.base_url(), MODEL_NAME, CALL_TIMEOUT).await;
    let mut client = Client::connect(&server, Auth::bearer("rae"))
        .await
        .waiting(EVENT_WAIT);
    let started = start_exam(&mut client, "d1").await;
    let run = run_to_completion(&mut client, started.question, satisfactory_for).await;
    assert_eq!(run.completed["type"], "session.completed");

    let path = result_path(&started.session_id);
    let result = http_get(&server, &path, Some(&token("rae"))).await.json();
    let logs = turn_logs(&result);
    assert_eq!(logs.len(), run.questions.len(), "{result}");
    let mut outcomes = Vec::new();
    for log in &logs {
        let calls: Vec<&str> = log
            .iter()
            .map(|c| c["call"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(calls, ["phrase", "assess"], "{log:?}");
        for call in log {
            assert_eq!(call["model"], MODEL_NAME, "{call}");
            let used = call["outcome"] == "used";
            assert!(used || call["fallback_reason"].is_string(), "{call}");
            let reason = call["fallback_reason"].clone();
            outcomes.push((call["call"].clone(), call["outcome"].clone(), reason));
        }
    }
    eprintln!("real model exam: {outcomes:?}");
    // A phrasing is a few tokens: the model's own on a busy machine too. An assessment is
    // longer and may reach its timeout on a loaded machine; it then falls back, labelled.
    let phrased = outcomes
        .iter()
        .filter(|(call, outcome, _)| *call == "phrase" && *outcome == "used")
        .count();
    assert!(
        phrased > 0,
        "some phrasing was the model's own: {outcomes:?}"
    );
    // Every question the model phrased reached the candidate word for word.
    for (question, log) in run.questions.iter().zip(&logs) {
        if log[0]["outcome"] == "used" {
            let text = question["text"].as_str().unwrap_or_default();
            assert!(
                text.ends_with('?') && text.matches('?').count() == 1,
                "{text}"
            );
        }
    }
    let metrics = http_get(&server, "/metrics", None).await.body;
    assert!(
        metrics.contains("viva_llm_call_seconds_count{call=\"assess\"}"),
        "{metrics}"
    );
}

/// A tutoring session with the same real model as its tutor: every message's turn is the
/// model's proposal held to the policy, or the brain's when it broke a rule; either way the
/// student gets a turn the policy allows, and the owner's turn log says which.
#[tokio::test(flavor = "multi_thread")]
async fn a_tutoring_session_runs_with_a_real_model_tutor() {
    let _machine = MACHINE.lock().await;
    let Some(llama) = LlamaServer::start(2) else {
        return;
    };
    let server = Server::start_with_llm(&llama.base_url(), MODEL_NAME, CALL_TIMEOUT).await;
    let mut client = Client::connect(&server, Auth::bearer("tia"))
        .await
        .waiting(EVENT_WAIT);
    let (started, _) = harness::start_tutor(&mut client, "ARITHMETIC").await;
    let messages = [
        "how do I add 8 and 5 in my head?",
        "I don't get what making ten means",
        "can you explain it again with a different example",
    ];
    for text in messages {
        let message = serde_json::json!({"type": "tutor.message", "text": text});
        let turn = harness::tutor_send(&mut client, message).await;
        let allowed = [
            "socratic_question",
            "drill",
            "concept_card",
            "prerequisite_nudge",
            "exam",
        ];
        assert!(
            allowed.contains(&turn["action"].as_str().unwrap_or("")),
            "{turn}"
        );
        let words = turn["messages"][0]["text"].as_str().unwrap_or("");
        assert!(
            !words.is_empty() && words.split_whitespace().count() <= 170,
            "{turn}"
        );
    }
    client
        .send_json(serde_json::json!({"type": "session.end", "event_id": "end"}))
        .await;
    client.expect("session.completed").await;
    let session_id = started["session_id"].as_str().unwrap_or_default();
    let result = http_get(&server, &result_path(session_id), Some(&token("tia")))
        .await
        .json();
    let calls: Vec<&Value> = result["log"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|turn| turn["examiner"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(
        calls.len(),
        messages.len(),
        "one model call per message: {result}"
    );
    for call in calls {
        assert_eq!(call["call"], "tutor", "{call}");
        assert_eq!(call["model"], MODEL_NAME);
        let outcome = call["outcome"].as_str().unwrap_or("");
        assert!(
            outcome == "used" || call["fallback_reason"].is_string(),
            "{call}"
        );
    }
}
