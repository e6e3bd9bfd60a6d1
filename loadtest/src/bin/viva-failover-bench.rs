//! `viva-failover-bench`: how fast sessions resume on another node after theirs is killed.
//!
//! It starts `--sessions` exams on node A (`--concurrency` at a time, user `fo-<i>` each),
//! answers each one's first question and waits for the ack and the next question, so every
//! session has durable state and is idle. With the sockets still open it runs the baseline —
//! a WebSocket connect plus `ping` → `pong` to node B, as many and as concurrent as the
//! resumes — then `kill -9`s node A (`--kill-pid`) and resumes every session on node B,
//! timing each from just before the connect to `session.resumed`, whose
//! `progress.answered` must be 1.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Parser;
use futures_util::StreamExt;
use serde_json::json;
use viva_loadtest::stats::Summary;
use viva_loadtest::ws::{self, Socket, WsError};

/// Command-line options.
#[derive(Debug, Parser)]
struct Args {
    /// Node A, where the exams start and which is killed.
    #[arg(long)]
    node_a: String,
    /// Node B, where they resume.
    #[arg(long)]
    node_b: String,
    /// Node A's process id.
    #[arg(long)]
    kill_pid: u32,
    /// Exams to start and resume.
    #[arg(long, default_value_t = 200)]
    sessions: usize,
    /// Starts, pings and resumes in flight at once.
    #[arg(long, default_value_t = 50)]
    concurrency: usize,
    /// Task filter for the exam scope.
    #[arg(long, default_value = "PA.I.A")]
    task: String,
}

/// An exam left open on node A.
struct OpenExam {
    user: String,
    session_id: String,
    _socket: Socket,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let concurrency = args.concurrency.max(1);
    let started = Instant::now();
    let exams: Vec<OpenExam> = futures_util::stream::iter(0..args.sessions)
        .map(|i| start_exam(&args, i))
        .buffer_unordered(concurrency)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<Result<_, _>>()
        .context("starting exams on node A")?;
    println!(
        "{} exams started and answered once on node A in {:.2?}",
        exams.len(),
        started.elapsed()
    );
    let pings = measure(0..args.sessions, concurrency, |i| ping(&args.node_b, i)).await;
    kill(args.kill_pid)?;
    let killed = Instant::now();
    let targets: Vec<(String, String)> = exams
        .into_iter()
        .map(|exam| (exam.user, exam.session_id))
        .collect();
    let resumes = measure(targets, concurrency, |(user, session)| {
        resume(&args.node_b, user, session)
    })
    .await;
    println!(
        "node A (pid {}) killed; all resumes done {:.2?} after the kill",
        args.kill_pid,
        killed.elapsed()
    );
    let base = report("connect + ping (baseline)", &pings);
    let resumed = report("connect + resume after kill", &resumes);
    println!("{}", resumed.ratios("resume / ping", &base));
    Ok(())
}

/// What one measured step gave: its time, or why it failed.
type Outcome = Result<Duration, String>;

async fn measure<I, F, Fut>(items: I, concurrency: usize, step: F) -> Vec<Outcome>
where
    I: IntoIterator,
    F: FnMut(I::Item) -> Fut,
    Fut: std::future::Future<Output = Outcome>,
{
    futures_util::stream::iter(items)
        .map(step)
        .buffer_unordered(concurrency)
        .collect()
        .await
}

fn report(label: &str, outcomes: &[Outcome]) -> Summary {
    let times: Vec<Duration> = outcomes
        .iter()
        .filter_map(|o| o.as_ref().ok())
        .copied()
        .collect();
    let failures: Vec<&String> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    let summary = Summary::of(&times);
    println!("{}  failures {}", summary.line(label), failures.len());
    if let Some(first) = failures.first() {
        println!("{label:<30} first failure: {first}");
    }
    summary
}

async fn start_exam(args: &Args, index: usize) -> Result<OpenExam, WsError> {
    let user = format!("fo-{index}");
    let mut socket = ws::connect(&args.node_a, &user).await?;
    let config = json!({"rating": "private", "study_mode": "linear", "tasks": [args.task]});
    let start =
        json!({"type": "session.start", "device_id": "fo-a", "mode": "exam", "config": config});
    ws::send(&mut socket, start).await?;
    let started = ws::wait_for(&mut socket, &["session.started"]).await?;
    let question = ws::wait_for(&mut socket, &["question"]).await?;
    let text = format!(
        "My answer to {}: regulations, weather, and risk management.",
        question["element_code"]
    );
    let answer = json!({"type": "answer.text", "event_id": "fo-answer-1", "text": text});
    ws::send(&mut socket, answer).await?;
    ws::wait_for(&mut socket, &["ack"]).await?;
    ws::wait_for(&mut socket, &["question", "session.completed"]).await?;
    let session_id = started["session_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    Ok(OpenExam {
        user,
        session_id,
        _socket: socket,
    })
}

async fn ping(node: &str, index: usize) -> Outcome {
    let begun = Instant::now();
    let mut socket = ws::connect(node, &format!("fo-ping-{index}"))
        .await
        .map_err(|e| e.to_string())?;
    ws::send(&mut socket, json!({"type": "ping"}))
        .await
        .map_err(|e| e.to_string())?;
    ws::wait_for(&mut socket, &["pong"])
        .await
        .map_err(|e| e.to_string())?;
    Ok(begun.elapsed())
}

async fn resume(node: &str, user: String, session_id: String) -> Outcome {
    let begun = Instant::now();
    let mut socket = ws::connect(node, &user).await.map_err(|e| e.to_string())?;
    let frame = json!({"type": "session.resume", "device_id": "fo-b", "session_id": session_id});
    ws::send(&mut socket, frame)
        .await
        .map_err(|e| e.to_string())?;
    let resumed = ws::wait_for(&mut socket, &["session.resumed"])
        .await
        .map_err(|e| e.to_string())?;
    let elapsed = begun.elapsed();
    match resumed["progress"]["answered"].as_u64() {
        Some(1) => Ok(elapsed),
        _ => Err(format!(
            "session {session_id} resumed with the wrong progress: {resumed}"
        )),
    }
}

fn kill(pid: u32) -> anyhow::Result<()> {
    let status = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .context("running kill")?;
    if !status.success() {
        bail!("kill -9 {pid} failed: {status}");
    }
    Ok(())
}
