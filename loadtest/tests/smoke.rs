//! Smoke runs of `viva-loadtest` against a real `viva serve --dev` on a free loopback port:
//! each scenario acks answers, loses and duplicates none, and exits 0; a broken threshold
//! exits 1.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

struct Server {
    child: Child,
    url: String,
    _data: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        // ignore: the server may have exited already.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn loadtest_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_viva-loadtest"))
}

/// `viva serve --dev` on port 0; the address comes from its "listening on" line.
fn start_server() -> Server {
    let viva = loadtest_bin().with_file_name("viva");
    assert!(
        viva.is_file(),
        "{} is built by `cargo test --workspace`",
        viva.display()
    );
    let data = tempfile::tempdir().unwrap();
    let blueprints = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints");
    let mut child = Command::new(viva)
        .args(["serve", "--dev", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data.path())
        .arg("--blueprints")
        .arg(blueprints)
        .env_remove("VIVA_WHISPER_MODEL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start viva serve");
    let stdout = child.stdout.take().unwrap();
    let (found, listening) = std::sync::mpsc::channel();
    // Keep draining stdout, so the server never writes into a closed pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.contains("listening on") {
                // ignore: the test may have given up waiting.
                let _ = found.send(line);
            }
        }
    });
    let line = listening
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the server says where it listens");
    let addr = line.rsplit(' ').next().unwrap().to_owned();
    Server {
        child,
        url: format!("ws://{addr}"),
        _data: data,
    }
}

/// Runs the load tester with users of its own (a fresh seed); returns whether it succeeded
/// and its JSON report.
fn run(server: &Server, scenario: &str, extra: &[&str]) -> (bool, Value) {
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seed = u64::from(std::process::id()) * 100
        + RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let output = Command::new(loadtest_bin())
        .args([
            "--urls",
            &server.url,
            "--scenario",
            scenario,
            "--sessions",
            "3",
        ])
        .args([
            "--ramp-up",
            "300ms",
            "--duration",
            "2s",
            "--think-time",
            "200ms",
        ])
        .args(["--every", "2", "--seed", &seed.to_string()])
        .arg("--report")
        .arg(&report)
        .args(extra)
        .env_remove("VIVA_AUTH_SECRET")
        .output()
        .expect("run viva-loadtest");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let text = std::fs::read_to_string(&report).unwrap_or_else(|_| panic!("no report: {stdout}"));
    (
        output.status.success(),
        serde_json::from_str(&text).unwrap(),
    )
}

fn assert_clean(scenario: &str, success: bool, report: &Value) {
    assert!(success, "{scenario}: {report:#}");
    assert!(
        report["throughput"]["answers"].as_u64() > Some(3),
        "{report:#}"
    );
    assert_eq!(report["audit"]["lost"], 0, "{report:#}");
    assert_eq!(report["audit"]["duplicated"], 0, "{report:#}");
    assert_eq!(
        report["audit"]["acked"], report["throughput"]["answers"],
        "{report:#}"
    );
}

#[test]
fn text_exam_takeover_and_reconnect_lose_nothing() {
    let server = start_server();
    for scenario in ["text-exam", "takeover", "reconnect"] {
        let (success, report) = run(&server, scenario, &[]);
        assert_clean(scenario, success, &report);
        let resumes = report["latency"]["resume"]["n"].as_u64().unwrap_or(0);
        assert_eq!(
            resumes > 0,
            scenario != "text-exam",
            "{scenario}: {report:#}"
        );
    }
}

#[test]
fn a_broken_threshold_fails_the_run() {
    let server = start_server();
    let (success, report) = run(&server, "text-exam", &["--max-p99-ms", "0.001"]);
    assert!(!success, "{report:#}");
    let violations = report["violations"].as_array().unwrap();
    assert!(
        violations
            .iter()
            .any(|v| v.as_str().unwrap_or("").contains("p99")),
        "{report:#}"
    );
}
