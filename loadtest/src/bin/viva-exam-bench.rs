//! `viva-exam-bench`: whole exams one wave at a time over real WebSockets, with percentiles.
//!
//! This first version runs `--sessions` narrow-scope exams (`--concurrency` at a time), each
//! on its own connection in development mode, and measures per exam the wall time from
//! `session.start` to `session.completed`, and per answer the time from sending it to the
//! next question. As a baseline from the same run and server it measures the protocol-level
//! `ping` → `pong` round trip, and prints every figure also as a ratio to that baseline.
//! Checkpoint writes to Redis and resumes after a node kill have their own benches:
//! `viva-checkpoint-bench` and `viva-failover-bench`.

use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::json;
use viva_loadtest::stats::report;
use viva_loadtest::ws::{connect, send, wait_for};

/// Command-line options.
#[derive(Debug, Parser)]
struct Args {
    /// Server base URL.
    #[arg(long, default_value = "ws://127.0.0.1:8080")]
    url: String,
    /// Exams to run in all.
    #[arg(long, default_value_t = 50)]
    sessions: usize,
    /// Exams running at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Task filter for the exam scope.
    #[arg(long, default_value = "PA.I.A")]
    task: String,
    /// Ping round trips for the baseline.
    #[arg(long, default_value_t = 200)]
    pings: usize,
    /// Stop each exam when this question number is open, and print its session id.
    #[arg(long)]
    stop_at_question: Option<u64>,
    /// Whole-rating scope instead of `--task`.
    #[arg(long)]
    full_scope: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let baseline = ping_baseline(&args).await?;
    let mut exam_times = Vec::new();
    let mut ack_times = Vec::new();
    let mut answer_times = Vec::new();
    let started = Instant::now();
    for wave in (0..args.sessions)
        .collect::<Vec<_>>()
        .chunks(args.concurrency.max(1))
    {
        let runs = wave.iter().map(|index| run_exam(&args, *index));
        for outcome in futures_util::future::join_all(runs).await {
            let times = outcome?;
            exam_times.push(times.exam);
            ack_times.extend(times.acks);
            answer_times.extend(times.answers);
        }
    }
    let elapsed = started.elapsed();
    report("ping round trip (baseline)", &baseline, None);
    report("answer -> ack (durable)", &ack_times, Some(&baseline));
    report("answer -> next question", &answer_times, Some(&baseline));
    report(
        "whole exam, start -> completed",
        &exam_times,
        Some(&baseline),
    );
    println!(
        "{} exams in {:.2?} ({:.1} exams/s)",
        exam_times.len(),
        elapsed,
        exam_times.len() as f64 / elapsed.as_secs_f64()
    );
    Ok(())
}

async fn ping_baseline(args: &Args) -> anyhow::Result<Vec<Duration>> {
    let mut socket = connect(&args.url, "loadtest-baseline").await?;
    let mut samples = Vec::with_capacity(args.pings);
    for _ in 0..args.pings {
        let sent = Instant::now();
        send(&mut socket, json!({"type": "ping"})).await?;
        wait_for(&mut socket, &["pong"]).await?;
        samples.push(sent.elapsed());
    }
    Ok(samples)
}

/// What one exam measured.
struct ExamTimes {
    exam: Duration,
    acks: Vec<Duration>,
    answers: Vec<Duration>,
}

async fn run_exam(args: &Args, index: usize) -> anyhow::Result<ExamTimes> {
    let mut socket = connect(&args.url, &format!("loadtest-{index}")).await?;
    let config = if args.full_scope {
        json!({"rating": "private"})
    } else {
        json!({"rating": "private", "tasks": [args.task]})
    };
    let started = Instant::now();
    send(
        &mut socket,
        json!({"type": "session.start", "device_id": "loadtest", "mode": "exam", "config": config}),
    )
    .await?;
    let session = wait_for(&mut socket, &["session.started"]).await?;
    let mut question = wait_for(&mut socket, &["question"]).await?;
    let mut answers = Vec::new();
    let mut acks = Vec::new();
    loop {
        if args
            .stop_at_question
            .is_some_and(|stop| question["number"].as_u64() == Some(stop))
        {
            println!(
                "stopped at question {} of session {}",
                question["number"], session["session_id"]
            );
            return Ok(ExamTimes {
                exam: started.elapsed(),
                acks,
                answers,
            });
        }
        let sent = Instant::now();
        let text = format!(
            "My answer to {}: regulations, weather, and risk management.",
            question["element_code"]
        );
        let event_id = format!("a{}", question["number"]);
        send(
            &mut socket,
            json!({"type": "answer.text", "event_id": event_id, "text": text}),
        )
        .await?;
        wait_for(&mut socket, &["ack"]).await?;
        acks.push(sent.elapsed());
        let next = wait_for(&mut socket, &["question", "session.completed"]).await?;
        answers.push(sent.elapsed());
        if next["type"] == "session.completed" {
            return Ok(ExamTimes {
                exam: started.elapsed(),
                acks,
                answers,
            });
        }
        question = next;
    }
}
