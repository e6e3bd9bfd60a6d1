//! Smoke runs of `viva-loadtest` against a real `viva serve --dev` on a free loopback port:
//! each scenario acks answers, loses and duplicates none, and exits 0; a broken threshold
//! exits 1. The chaos run starts its own nodes on a real redis-server (the workspace test
//! harness's), and the voice run needs the tiny.en model that `scripts/test` installs.
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
    start_server_with(&[])
}

fn viva_bin() -> PathBuf {
    loadtest_bin().with_file_name("viva")
}

/// The repository's blueprints: the test runs in `loadtest/`, where `viva serve` finds none.
fn blueprints_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints")
}

fn start_server_with(extra: &[&str]) -> Server {
    let viva = loadtest_bin().with_file_name("viva");
    assert!(
        viva.is_file(),
        "{} is built by `cargo test --workspace`",
        viva.display()
    );
    let data = tempfile::tempdir().unwrap();
    let mut child = Command::new(viva)
        .args(["serve", "--dev", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data.path())
        .arg("--blueprints")
        .arg(blueprints_dir())
        .args(extra)
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
    let mut args = vec!["--urls", &server.url];
    args.extend_from_slice(extra);
    run_with(scenario, &args)
}

fn run_with(scenario: &str, extra: &[&str]) -> (bool, Value) {
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seed = u64::from(std::process::id()) * 100
        + RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let seed = seed.to_string();
    let defaults = [
        ("--sessions", "3"),
        ("--ramp-up", "300ms"),
        ("--duration", "2s"),
        ("--think-time", "200ms"),
        ("--every", "2"),
        ("--seed", seed.as_str()),
    ];
    let output = Command::new(loadtest_bin())
        .args(["--scenario", scenario])
        .args(
            defaults
                .iter()
                .filter(|(flag, _)| !extra.contains(flag))
                .flat_map(|(flag, value)| [*flag, *value]),
        )
        .arg("--report")
        .arg(&report)
        .args(extra)
        .env_remove("VIVA_AUTH_SECRET")
        // The chaos scenario's nodes inherit this, as they would a shell's.
        .env("VIVA_BLUEPRINTS", blueprints_dir())
        .output()
        .expect("run viva-loadtest");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let text = std::fs::read_to_string(&report)
        .unwrap_or_else(|_| panic!("no report: {stdout}\nstderr: {stderr}"));
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

#[test]
fn a_paced_assessment_run_samples_the_server_and_draws_its_charts() {
    let server = start_server();
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let pid = server.child.id().to_string();
    let html_arg = html.display().to_string();
    let extra = [
        "--target-rate",
        "6",
        "--server-pid",
        &pid,
        "--sample-every",
        "250ms",
    ];
    let (success, report) = run(
        &server,
        "assessment",
        &[&extra[..], &["--html", &html_arg]].concat(),
    );
    assert_clean("assessment", success, &report);
    let samples = report["timeline"].as_array().unwrap();
    assert!(samples.len() >= 6, "{report:#}");
    let server_rss = &report["resources"]["servers"][0]["peak_rss_mib"];
    assert!(server_rss.as_f64() > Some(1.0), "{report:#}");
    // Paced at 6 answers/s over ~2.3 s: about 14 answers, whatever the think time.
    let answers = report["throughput"]["answers"].as_u64().unwrap();
    assert!((8..=20).contains(&answers), "{answers}: {report:#}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<svg").count(), 6, "six charts");
    assert!(page.contains("Server RSS (MiB)"));
}

#[test]
fn chaos_kills_a_node_and_its_sessions_resume_on_the_other_losing_nothing() {
    let redis = viva_testkit::redis::RedisServer::start();
    let viva = viva_bin().display().to_string();
    let redis_url = redis.url();
    let extra = [
        "--server-bin",
        &viva,
        "--redis-url",
        &redis_url,
        "--nodes",
        "2",
        "--sessions",
        "6",
        "--duration",
        "5s",
        "--kill-after",
        "2500ms",
        "--restart-after",
        "500ms",
        "--think-time",
        "100ms",
    ];
    let (success, report) = run_with("chaos", &extra);
    assert_clean("chaos", success, &report);
    assert!(report["failovers"].as_u64() > Some(0), "{report:#}");
    assert!(
        report["latency"]["failover_resume"]["n"].as_u64() > Some(0),
        "{report:#}"
    );
    let events: Vec<&str> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["what"].as_str())
        .collect();
    assert_eq!(events, ["SIGKILL node-0", "restarted node-0"], "{report:#}");
}

#[test]
fn voice_answers_are_heard_timed_and_audited() {
    let models = std::env::var_os("VIVA_MODELS_DIR")
        .map_or_else(|| PathBuf::from("/var/tmp/viva-models"), PathBuf::from);
    let model = models.join("ggml-tiny.en.bin");
    assert!(
        model.is_file(),
        "{} is installed by scripts/test",
        model.display()
    );
    let server = start_server_with(&["--whisper-model", &model.display().to_string()]);
    let corpus = models.join("loadtest-voice-corpus").display().to_string();
    let extra = [
        "--voice-corpus",
        &corpus,
        "--sessions",
        "2",
        "--duration",
        "8s",
    ];
    let (success, report) = run(&server, "voice", &extra);
    assert!(success, "{report:#}");
    assert!(
        report["throughput"]["answers"].as_u64() >= Some(2),
        "{report:#}"
    );
    assert_eq!(report["audit"]["lost"], 0, "{report:#}");
    assert_eq!(report["audit"]["duplicated"], 0, "{report:#}");
    let heard = &report["latency"]["end_of_speech_to_final"];
    assert!(heard["n"].as_u64() >= Some(2), "{report:#}");
    assert!(heard["p50_ms"].as_f64() > Some(0.0), "{report:#}");
}
