//! Assessment helpers: custom blueprint folders, an answer-key oracle that reads the server's
//! checkpoint file from disk (never the protocol), and answering loops.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tempfile::TempDir;

use super::{Client, Server, next_event_id};

const REPO_BLUEPRINTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/blueprints");

/// A blueprints folder with the repo's ACS data, skills and assessments, plus `extra`
/// assessment files (name, YAML).
pub fn blueprints_with(extra: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("blueprints dir");
    let repo = Path::new(REPO_BLUEPRINTS);
    for sub in ["acs", "skills"] {
        std::os::unix::fs::symlink(repo.join(sub), dir.path().join(sub)).expect("link blueprints");
    }
    let assessments = dir.path().join("assessments");
    std::fs::create_dir(&assessments).expect("assessments dir");
    for entry in std::fs::read_dir(repo.join("assessments")).expect("list assessments") {
        let path = entry.expect("entry").path();
        std::fs::copy(&path, assessments.join(path.file_name().expect("name")))
            .expect("copy assessment");
    }
    for (name, yaml) in extra {
        std::fs::write(assessments.join(name), yaml).expect("write assessment");
    }
    dir
}

/// Starts a server on `blueprints` with extra arguments.
pub async fn server_with(blueprints: &Path, args: &[&str]) -> Server {
    let options = super::Options {
        blueprints: Some(PathBuf::from(blueprints)),
        args: args.iter().map(|a| a.to_string()).collect(),
        ..Default::default()
    };
    Server::start_with_options(options).await
}

/// Starts an assessment; returns the `session.started` event and the first question.
pub async fn start_assessment(
    client: &mut Client,
    assessment_id: &str,
    learning: bool,
) -> (Value, Value) {
    let config = json!({"assessment_id": assessment_id, "learning": learning});
    start_session(client, "assessment", config, "question").await
}

/// Starts a session of `mode`; returns its `session.started` and the first event of type
/// `prompt` (its first question, or a tutor's first turn), whatever came between them.
pub async fn start_session(
    client: &mut Client,
    mode: &str,
    config: Value,
    prompt: &str,
) -> (Value, Value) {
    let frame = json!({"type": "session.start", "event_id": next_event_id("start"), "device_id": "d",
                       "mode": mode, "config": config});
    client.send_json(frame).await;
    let events = client
        .collect_until(|events| events.iter().any(|e| e["type"] == prompt))
        .await;
    let find = |kind: &str| {
        events
            .iter()
            .find(|e| e["type"] == kind)
            .cloned()
            .unwrap_or_else(|| panic!("no {kind} in {events:?}"))
    };
    (find("session.started"), find(prompt))
}

/// A session's checkpoint, read from its file on disk.
pub fn stored_checkpoint(server: &Server, session_id: &str) -> Value {
    let path = server
        .data_dir()
        .join("sessions")
        .join(format!("{session_id}.json"));
    serde_json::from_slice(&std::fs::read(&path).expect("read checkpoint")).expect("json")
}

/// The key of question `number` (1-based), read from the checkpoint file on disk.
pub fn keyed_answer(server: &Server, session_id: &str, number: u64) -> (String, u64) {
    let checkpoint = stored_checkpoint(server, session_id);
    let item = &checkpoint["assessment"]["items"][(number - 1) as usize]["item"];
    let answer = item["answer"].as_str().expect("keyed answer").to_owned();
    (answer, item["answer_index"].as_u64().expect("answer index"))
}

/// Sends an answer frame and returns every event up to and including the next `question`
/// or `session.completed`.
pub async fn answer_item(client: &mut Client, frame: Value) -> Vec<Value> {
    client.send_json(frame).await;
    client
        .collect_until(|events| {
            events
                .iter()
                .any(|e| e["type"] == "question" || e["type"] == "session.completed")
        })
        .await
}

/// The last event of a batch, which is the next question or the completion.
pub fn last(events: &[Value]) -> Value {
    events.last().cloned().expect("at least one event")
}

/// Digit words, as speech-to-text writes them.
const DIGITS: [&str; 10] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];

/// An IPv4 address spoken digit by digit: "one nine two dot one six eight dot …".
pub fn spoken_ipv4(ip: &str) -> String {
    let octets: Vec<String> = ip
        .split('.')
        .map(|octet| {
            octet
                .chars()
                .map(|d| DIGITS[d.to_digit(10).expect("digit") as usize])
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    octets.join(" dot ")
}
