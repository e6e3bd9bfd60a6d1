//! The LLM examiner inside a real server, against a loopback endpoint that misbehaves: an
//! exam whose model only ever sends garbage, or never answers, runs exactly as it does with
//! the embedded examiner (same questions, same scores, same feedback), and a hanging model
//! costs each answer no more than its timeout.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::{
    Auth, Client, Options, Server, run_to_completion, satisfactory_for, start_exam,
};

#[path = "../llm/tests/common/mod.rs"]
mod fake_llm;

use fake_llm::{Behaviour, endpoint};

/// What an exam said: each question's text, and each assessment's score and feedback.
async fn exam_transcript(server: &Server, user: &str) -> Vec<(String, String, String)> {
    let mut client = Client::connect(server, Auth::bearer(user)).await;
    let started = start_exam(&mut client, "d1").await;
    let run = run_to_completion(&mut client, started.question, satisfactory_for).await;
    let text = |v: &Value, key: &str| v[key].as_str().unwrap_or_default().to_owned();
    run.questions
        .iter()
        .zip(&run.assessments)
        .map(|(q, a)| (text(q, "text"), text(a, "score"), text(a, "feedback")))
        .collect()
}

async fn server_with_llm(base_url: &str, timeout: &str) -> Server {
    let dir = tempfile::tempdir().expect("config dir");
    let config = dir.path().join("viva.toml");
    let text = format!("[llm]\nurl = \"{base_url}\"\nmodel = \"test\"\ntimeout = \"{timeout}\"\n");
    std::fs::write(&config, text).expect("write config");
    let server = Server::start_with_options(Options {
        blueprints: None,
        args: vec!["--config".into(), config.display().to_string()],
    })
    .await;
    // The config is read at start; the folder may go.
    drop(dir);
    server
}

#[tokio::test]
async fn a_model_sending_garbage_changes_nothing_the_candidate_sees() {
    let embedded = Server::start().await;
    let expected = exam_transcript(&embedded, "eve").await;
    let (url, hits) = endpoint(Behaviour::Garbage).await;
    let with_llm = server_with_llm(&url, "2s").await;
    let got = exam_transcript(&with_llm, "eve").await;
    assert_eq!(
        got, expected,
        "the fallback is the embedded examiner's exact result"
    );
    let asked = hits.load(Ordering::SeqCst);
    assert!(
        asked >= 2 * expected.len(),
        "each question and answer went to the model once: {asked}"
    );
}

#[tokio::test]
async fn a_hanging_model_costs_each_step_its_timeout_and_no_more() {
    let (url, hits) = endpoint(Behaviour::Hangs).await;
    let server = server_with_llm(&url, "300ms").await;
    let began = Instant::now();
    let transcript = exam_transcript(&server, "hal").await;
    let calls = hits.load(Ordering::SeqCst);
    assert!(!transcript.is_empty());
    // Every call waits out its 300 ms once, then falls back; nothing waits longer.
    let ceiling = Duration::from_millis(300) * calls as u32 + Duration::from_secs(10);
    assert!(
        began.elapsed() < ceiling,
        "{:?} for {calls} calls",
        began.elapsed()
    );
}
