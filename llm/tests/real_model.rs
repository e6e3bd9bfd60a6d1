//! `LlmExaminer` against a real model: llama.cpp's `llama-server` with SmolLM2-135M on a
//! loopback port, both built or fetched by `scripts/llm-setup` into `$VIVA_LLM_DIR`
//! (default `/var/tmp/viva-llm`). Whatever the small model says, each call ends within its
//! timeout with either a validated reply or the embedded examiner's result; a forced timeout
//! falls back deterministically. Without the server and model the test says so loudly and
//! skips, except under CI (`CI=true`), where `.ci/run` must have set them up.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::library;
use viva_actors::exam::acs::Rating;
use viva_actors::exam::types::{QuestionDifficulty, QuestionKind};
use viva_actors::examiner::{
    AssessRequest, EmbeddedExaminer, Examiner, QuestionRequest, no_deltas,
};
use viva_llm::examiner::LlmExaminer;
use viva_llm::prompts::Prompts;
use viva_llm::provider::{LlmSettings, Provider};

mod common;

const MODEL: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

struct LlamaServer {
    child: Child,
    port: u16,
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        // ignore: the server may have exited already.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server and model, or `None` (after saying why) where they are not installed.
fn installed() -> Option<(PathBuf, PathBuf)> {
    let dir = std::env::var_os("VIVA_LLM_DIR")
        .map_or_else(|| PathBuf::from("/var/tmp/viva-llm"), PathBuf::from);
    let (server, model) = (dir.join("bin/llama-server"), dir.join(MODEL));
    if server.is_file() && model.is_file() {
        return Some((server, model));
    }
    let message = format!(
        "SKIPPED: no llama-server or {MODEL} in {}: run scripts/llm-setup",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
    eprintln!("\n*** {message} ***\n");
    None
}

fn start(server: &PathBuf, model: &PathBuf) -> LlamaServer {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(server)
        .arg("-m")
        .arg(model)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["-t", "1", "-c", "2048", "-np", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start llama-server");
    let llama = LlamaServer { child, port };
    let deadline = Instant::now() + Duration::from_secs(120);
    while !healthy(port) {
        assert!(
            Instant::now() < deadline,
            "llama-server not healthy in 120 s"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    llama
}

/// `GET /health` answers 200 once the model is loaded.
fn healthy(port: u16) -> bool {
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let mut response = String::new();
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_to_string(&mut response).is_ok()
        && response.starts_with("HTTP/1.1 200")
}

fn examiner_at(port: u16, timeout: Duration) -> LlmExaminer {
    let provider = Provider::new(LlmSettings {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        model: "smollm2".into(),
        api_key: None,
        timeout,
        max_in_flight: 2,
        max_tokens: 200,
    });
    LlmExaminer::new(provider, Prompts::load(None).unwrap(), library())
}

fn assess_request() -> AssessRequest {
    AssessRequest {
        rating: Rating::Private,
        element_code: "PA.I.A.K1".into(),
        question: "What documents must you have with you to act as pilot in command?".into(),
        answer: "My pilot certificate, a medical certificate and a photo ID.".into(),
        follow_ups_left: 1,
        other_pending: vec!["PA.I.A.K2".into()],
    }
}

#[test]
fn a_real_model_is_used_or_replaced_within_its_timeout_and_a_forced_timeout_is_deterministic() {
    let Some((server, model)) = installed() else {
        return;
    };
    let llama = start(&server, &model);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let timeout = Duration::from_secs(60);
        let examiner = examiner_at(llama.port, timeout);
        let question = QuestionRequest {
            rating: Rating::Private,
            element_code: "PA.I.A.K1".into(),
            kind: QuestionKind::Primary,
            difficulty: QuestionDifficulty::Easy,
            missing_terms: Vec::new(),
            previous: None,
        };
        let began = Instant::now();
        let asked = examiner.phrase(&question, &no_deltas).await.value;
        let verdict = examiner.assess(&assess_request()).await.value;
        assert!(began.elapsed() < 2 * timeout, "{:?}", began.elapsed());
        assert!(
            !asked.trim().is_empty() && asked.matches('?').count() <= 1,
            "{asked}"
        );
        assert!(!verdict.feedback.is_empty() && !verdict.source_summary.is_empty());
        assert!(
            verdict.mentioned_elements.iter().all(|c| c == "PA.I.A.K2"),
            "{verdict:?}"
        );
        let tally = examiner.tally();
        let fallbacks: u64 = tally.fallbacks.values().sum();
        assert_eq!(tally.used + fallbacks, 2, "{tally:?}");
        eprintln!("real model: {tally:?}; asked {asked:?}; verdict {verdict:?}");

        let hurried = examiner_at(llama.port, Duration::from_millis(1));
        let embedded = EmbeddedExaminer::new(library()).assess_now(&assess_request());
        assert_eq!(hurried.assess(&assess_request()).await.value, embedded);
        assert_eq!(hurried.tally().fallbacks.get("assess/timeout"), Some(&1));
    });
}
