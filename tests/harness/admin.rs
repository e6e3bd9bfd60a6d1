//! The operator's commands as subprocesses: `viva exams …` (the new-session switch) and
//! `viva plan audit --json`.

use serde_json::{Value, json};

use super::client::Client;
use super::exam::{TASK, next_event_id};
use super::server::{Server, viva_bin};

/// `--data-dir DIR`: the file store `server` uses.
pub fn data_dir_of(server: &Server) -> Vec<String> {
    vec![
        "--data-dir".to_owned(),
        server.data_dir().display().to_string(),
    ]
}

/// Runs `viva ARGS` to its end; returns its stdout, or panics with its stderr.
pub async fn viva_cli(args: &[String]) -> String {
    let output = tokio::process::Command::new(viva_bin())
        .args(args)
        .env_remove("VIVA_CONFIG")
        .output()
        .await
        .unwrap_or_else(|err| panic!("run viva {args:?}: {err}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "viva {args:?} failed ({}): {stdout}{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// `viva exams ACTION` (`stop-new`, `allow-new`, `use-config`, `status`) on `storage`.
pub async fn exams(action: &str, storage: &[String]) -> String {
    let mut args = vec!["exams".to_owned(), action.to_owned()];
    args.extend_from_slice(storage);
    viva_cli(&args).await
}

/// `viva plan audit --json` on `storage` with `extra` arguments, parsed.
pub async fn plan_audit(storage: &[String], extra: &[&str]) -> Value {
    let mut args = vec!["plan".to_owned(), "audit".to_owned(), "--json".to_owned()];
    args.extend_from_slice(storage);
    args.extend(extra.iter().map(|arg| (*arg).to_owned()));
    let stdout = viva_cli(&args).await;
    serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("not JSON ({err}): {stdout}"))
}

/// Sends a `session.start` of `mode` that must be refused with `new_sessions_disabled`.
pub async fn start_refused(client: &mut Client, mode: &str) {
    let config = match mode {
        "exam" => json!({"rating": "private", "tasks": [TASK]}),
        _ => json!({"assessment_id": "MATH-FUNDAMENTALS-L1", "learning": false}),
    };
    let event_id = next_event_id("refused-start");
    let frame = json!({"type": "session.start", "event_id": event_id, "device_id": "d",
        "mode": mode, "config": config});
    client.send_json(frame).await;
    client
        .expect_error("new_sessions_disabled", Some(&event_id))
        .await;
}
