//! The chaos scenario's fail-over, step by step, against two real `viva serve` nodes sharing
//! a real Redis: the node holding an exam is killed after it stored the exam's last answer
//! and before it assessed it, so the resume on the other node assesses that answer and
//! completes the exam — `session.completed` follows `session.resumed`, and no question.
//! The session's lease names node one, dead by then: the resume notifies it and goes on.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use viva_loadtest::run::answer::{Answered, type_answer};
use viva_loadtest::run::timeline::Timeline;
use viva_loadtest::run::user::{Live, Pace, Scenario, UserRun, UserSpec};
use viva_loadtest::ws::{connect, send, wait_for};
use viva_testkit::openai::{Behaviour, Requests, endpoint};
use viva_testkit::redis::RedisServer;

const USER: &str = "failover-user";
const TASK: &str = "PA.I.A";

/// A node of the cluster, killed (SIGKILL) when dropped.
struct Node {
    child: Child,
    url: String,
    _data: tempfile::TempDir,
}

impl Drop for Node {
    fn drop(&mut self) {
        // ignore: the node may have exited already.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Node {
    /// `viva serve --dev` named `name` on `redis`, with `config` as its config file.
    fn start(redis: &RedisServer, name: &str, config: &str) -> Node {
        let viva = PathBuf::from(env!("CARGO_BIN_EXE_viva-loadtest")).with_file_name("viva");
        let data = tempfile::tempdir().unwrap();
        let config_path = data.path().join("viva.toml");
        std::fs::write(&config_path, config).unwrap();
        let blueprints = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints");
        let mut child = Command::new(&viva)
            .args([
                "serve",
                "--dev",
                "--listen",
                "127.0.0.1:0",
                "--node-id",
                name,
            ])
            .args(["--redis", &redis.url(), "--config"])
            .arg(&config_path)
            .arg("--data-dir")
            .arg(data.path())
            .arg("--blueprints")
            .arg(blueprints)
            .env_remove("VIVA_WHISPER_MODEL")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| panic!("{} (built by `cargo test`): {err}", viva.display()));
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let listening = lines
            .by_ref()
            .map_while(Result::ok)
            .find(|line| line.contains("listening on"))
            .expect("the node says where it listens");
        // Keep draining stdout, so the node never writes into a closed pipe.
        std::thread::spawn(move || lines.map_while(Result::ok).for_each(drop));
        let address = listening.rsplit(' ').next().unwrap();
        Node {
            child,
            url: format!("ws://{address}"),
            _data: data,
        }
    }
}

/// A chaos user whose devices go round `urls`, answering by hand.
fn chaos_user(urls: Vec<String>) -> UserSpec {
    let now = Instant::now();
    let end = now + Duration::from_secs(600);
    UserSpec {
        user: USER.to_owned(),
        urls,
        token: None,
        scenario: Scenario::Chaos,
        pace: Pace::Think(Duration::from_millis(100)),
        end,
        measure_from: now,
        measure_until: end,
        every: 1000,
        task: TASK.to_owned(),
        assessment: String::new(),
        course: String::new(),
        clips: Arc::new(Vec::new()),
        timeline: Arc::new(Timeline::new(Vec::new())),
    }
}

/// Whether the model was asked to assess (assessments are the requests not streamed).
fn assessing(requests: &Requests) -> bool {
    requests
        .all()
        .iter()
        .any(|request| request["stream"] != true)
}

#[tokio::test]
async fn a_resume_that_completes_the_exam_ends_the_answer_instead_of_waiting_for_a_question() {
    let redis = RedisServer::start();
    // Node one's model phrases at once and takes longer to assess than its timeout (120 s).
    let behaviour = Behaviour::Examines {
        question: "Which documents must you carry as pilot in command?",
        verdict: r#"{"score": "satisfactory", "feedback": "Fine.", "mentioned_elements": [],
            "source_summary": "14 CFR 61.3", "follow_up": null}"#,
        assess_delay: Duration::from_secs(600),
    };
    let (llm, requests) = endpoint(behaviour).await;
    // One question and nothing after it: the exam's first answer is its last.
    let one_config = format!(
        "[llm]\nurl = \"{llm}\"\nmodel = \"m\"\ntimeout = \"120s\"\n\
         [exam]\nmin = 1\nmax = 1\nbonus_max = 0\nfollow_up_max_per_element = 0\n"
    );
    let one = Node::start(&redis, "one", &one_config);
    let two = Node::start(&redis, "two", "");
    let spec = chaos_user(vec![one.url.clone(), two.url.clone()]);

    let mut socket = connect(&one.url, USER).await.unwrap();
    let start = json!({"type": "session.start", "event_id": "s1", "device_id": "device-0",
                       "mode": "exam", "config": {"rating": "private", "tasks": [TASK]}});
    send(&mut socket, start).await.unwrap();
    let started = wait_for(&mut socket, &["session.started"]).await.unwrap();
    let question = wait_for(&mut socket, &["question"]).await.unwrap();
    let session_id = started["session_id"].as_str().unwrap().to_owned();
    let mut live = Live {
        socket,
        device: 0,
        session_id: session_id.clone(),
        question,
    };
    // Node one dies once it has stored the answer and asked its model to assess it.
    let killer = tokio::spawn(async move {
        while !assessing(&requests) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        drop(one);
    });

    let mut run = UserRun::default();
    let answered = type_answer(&spec, &mut run, &mut live, 1).await;
    killer.await.unwrap();

    assert_eq!(answered.unwrap(), Answered::Completed);
    assert_eq!(
        live.question["type"], "session.completed",
        "{}",
        live.question
    );
    // The first try, on node two, resumed it (a try that waited for a question that never
    // came would time out and go on to node one, dead, then node two again: device 3).
    assert_eq!(live.device, 1, "resumed at the first try, on node two");
    assert_eq!(run.failovers, 1);
    assert!(
        run.recorder.errors().is_empty(),
        "{:?}",
        run.recorder.errors()
    );
    let path = format!("/v1/sessions/{session_id}/result?user={USER}");
    let result = viva_loadtest::run::http::get(&two.url, &path)
        .await
        .unwrap();
    assert_eq!(result.status, 200, "completed on node two: {}", result.body);
}
