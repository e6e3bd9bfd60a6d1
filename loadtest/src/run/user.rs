//! One simulated candidate. It connects, starts a narrow-scope exam and answers it with
//! think times until the exam completes or the run ends, then ends it and reads the result
//! for the audit. Depending on the scenario it also drops its socket in the middle of a
//! question and resumes (`reconnect`), or moves its exam to another device (`takeover`).
//! Every answer carries a unique mark; the marks the server acked are kept for the audit.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::audit::{Audit, audit, mark};
use super::http;
use super::recorder::{Recorder, Step};
use crate::ws::{Socket, WsError, connect_url, send, wait_for};

/// What a user does besides answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    /// Answer exams in text with think times.
    TextExam,
    /// Move to another device every few answers: start or resume there; the old one pauses.
    Takeover,
    /// Drop the socket every few answers, right after sending, then resume and resend.
    Reconnect,
}

/// How one user behaves.
#[derive(Debug, Clone)]
pub struct UserSpec {
    /// The user id.
    pub user: String,
    /// WebSocket base URLs of the server nodes; the user starts on one and moves round.
    pub urls: Vec<String>,
    /// A token (sent as `access_token`), or none for a development-mode server.
    pub token: Option<String>,
    /// The scenario.
    pub scenario: Scenario,
    /// Pause before each answer.
    pub think: Duration,
    /// No new answer after this.
    pub end: Instant,
    /// Every how many answers the scenario's move happens.
    pub every: u64,
    /// The exam's scope (an ACS task).
    pub task: String,
}

/// What one user measured and saw.
#[derive(Debug, Default)]
pub struct UserRun {
    /// Latencies and errors.
    pub recorder: Recorder,
    /// Answers acked.
    pub answers: u64,
    /// Exams started.
    pub exams: u64,
    /// The audit of its exams.
    pub audit: Audit,
    /// Why the user stopped early, if it did.
    pub failure: Option<String>,
}

/// The user's live connection and exam.
struct Live {
    socket: Socket,
    device: u64,
    session_id: String,
    question: Value,
}

/// Runs one user until `spec.end`; never panics, every wait is bounded.
pub async fn run(spec: UserSpec) -> UserRun {
    let mut run = UserRun::default();
    let mut device = 0;
    while Instant::now() < spec.end {
        if let Err(err) = exam(&spec, &mut run, &mut device).await {
            run.recorder.error(&code_of(&err));
            run.failure = Some(err.to_string());
            break;
        }
    }
    run
}

/// One exam from start to result, audited.
async fn exam(spec: &UserSpec, run: &mut UserRun, device: &mut u64) -> Result<(), WsError> {
    let mut live = start(spec, run, *device).await?;
    run.exams += 1;
    let mut acked = Vec::new();
    let mut completed = false;
    while !completed && Instant::now() < spec.end {
        tokio::time::sleep(spec.think).await;
        let n = run.answers + 1;
        completed = answer(spec, run, &mut live, n, &mut acked).await?;
        if !completed && n.is_multiple_of(spec.every) && spec.scenario == Scenario::Takeover {
            live = take_over(spec, run, live).await?;
        }
    }
    if !completed {
        send(
            &mut live.socket,
            json!({"type": "session.end", "event_id": "end"}),
        )
        .await?;
        wait_for(&mut live.socket, &["session.completed"]).await?;
    }
    *device = live.device + 1;
    let result = read_result(spec, &live.session_id).await?;
    run.audit.merge(audit(&acked, &result));
    Ok(())
}

async fn open(spec: &UserSpec, run: &mut UserRun, device: u64) -> Result<Socket, WsError> {
    let base = &spec.urls[(device as usize) % spec.urls.len().max(1)];
    let url = match &spec.token {
        Some(token) => format!("{base}/v1/ws?access_token={token}"),
        None => format!("{base}/v1/ws?user={}", spec.user),
    };
    let began = Instant::now();
    let socket = connect_url(&url).await?;
    run.recorder.record(Step::Connect, began.elapsed());
    Ok(socket)
}

async fn start(spec: &UserSpec, run: &mut UserRun, device: u64) -> Result<Live, WsError> {
    let mut socket = open(spec, run, device).await?;
    let began = Instant::now();
    let config = json!({"rating": "private", "tasks": [spec.task]});
    let event_id = format!("start-{}-{device}", spec.user);
    let start = json!({"type": "session.start", "event_id": event_id, "device_id": device_id(device),
                       "mode": "exam", "config": config});
    send(&mut socket, start).await?;
    let started = wait_for(&mut socket, &["session.started"]).await?;
    let question = wait_for(&mut socket, &["question"]).await?;
    run.recorder.record(Step::SessionStart, began.elapsed());
    let session_id = started["session_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    Ok(Live {
        socket,
        device,
        session_id,
        question,
    })
}

fn device_id(device: u64) -> String {
    format!("device-{device}")
}

/// Answers the open question; true when the exam completed. In the reconnect scenario,
/// every `every`-th answer loses its socket right after sending and is resent after a
/// resume, with the same event id.
async fn answer(
    spec: &UserSpec,
    run: &mut UserRun,
    live: &mut Live,
    n: u64,
    acked: &mut Vec<String>,
) -> Result<bool, WsError> {
    let mark = mark(&spec.user, n);
    let text = format!("Regulations, weather and risk management {mark}");
    let frame = json!({"type": "answer.text", "event_id": format!("a{n}"), "text": text});
    let began = Instant::now();
    send(&mut live.socket, frame.clone()).await?;
    if spec.scenario == Scenario::Reconnect && n.is_multiple_of(spec.every) {
        let asked = live.question["question_id"].clone();
        *live = match reconnect(spec, run, live).await {
            Ok(resumed) => resumed,
            // That answer was applied and was the last: the exam is over.
            Err(WsError::Server(error)) if error["code"] == "session_completed" => {
                return Ok(true);
            }
            Err(err) => return Err(err),
        };
        if live.question["type"] == "session.completed" {
            return Ok(true);
        }
        // Resent with the same event id: applied once, whether or not it was before the drop.
        send(&mut live.socket, frame).await?;
        if live.question["question_id"] != asked {
            // It was applied before the drop: only its ack comes again, no new question.
            wait_for(&mut live.socket, &["ack"]).await?;
            acked.push(mark);
            run.answers += 1;
            return Ok(false);
        }
    }
    wait_for(&mut live.socket, &["ack"]).await?;
    acked.push(mark);
    run.answers += 1;
    let next = wait_for(&mut live.socket, &["question", "session.completed"]).await?;
    run.recorder.record(Step::AnswerToNext, began.elapsed());
    let completed = next["type"] == "session.completed";
    live.question = next;
    Ok(completed)
}

/// Drops the socket and resumes the same session on a fresh one (same device).
async fn reconnect(spec: &UserSpec, run: &mut UserRun, live: &mut Live) -> Result<Live, WsError> {
    // ignore: the socket is being thrown away on purpose; a failed close changes nothing.
    let _ = live.socket.close(None).await;
    resume(spec, run, live.device, &live.session_id).await
}

/// Resumes the exam on the next device; the old device must be paused.
async fn take_over(spec: &UserSpec, run: &mut UserRun, mut old: Live) -> Result<Live, WsError> {
    let next = resume(spec, run, old.device + 1, &old.session_id).await?;
    let paused = wait_for(&mut old.socket, &["session.paused"]).await?;
    if paused["reason"] != "other_device" {
        run.recorder.error("unexpected_pause_reason");
    }
    // ignore: the old device is done; a failed close changes nothing.
    let _ = old.socket.close(None).await;
    Ok(next)
}

async fn resume(
    spec: &UserSpec,
    run: &mut UserRun,
    device: u64,
    session_id: &str,
) -> Result<Live, WsError> {
    let mut socket = open(spec, run, device).await?;
    let began = Instant::now();
    let frame = json!({"type": "session.resume", "event_id": format!("resume-{device}"),
                       "device_id": device_id(device), "session_id": session_id});
    send(&mut socket, frame).await?;
    let resumed = wait_for(&mut socket, &["session.resumed"]).await?;
    // A session that completed meanwhile is resumed as it stands: no question follows.
    let question = if resumed["status"] == "completed" {
        json!({"type": "session.completed"})
    } else {
        wait_for(&mut socket, &["question"]).await?
    };
    run.recorder.record(Step::Resume, began.elapsed());
    Ok(Live {
        socket,
        device,
        session_id: session_id.to_owned(),
        question,
    })
}

async fn read_result(spec: &UserSpec, session_id: &str) -> Result<Value, WsError> {
    let auth = match &spec.token {
        Some(token) => format!("access_token={token}"),
        None => format!("user={}", spec.user),
    };
    let path = format!("/v1/sessions/{session_id}/result?{auth}");
    let base = spec.urls.first().map_or("", String::as_str);
    let response = http::get(base, &path)
        .await
        .map_err(|err| WsError::Other(format!("reading the result: {err}")))?;
    if response.status != 200 {
        let detail = format!("result: HTTP {} {}", response.status, response.body);
        return Err(WsError::Other(detail));
    }
    Ok(serde_json::from_str(&response.body)?)
}

/// The error code a failure is counted under.
fn code_of(err: &WsError) -> String {
    match err {
        WsError::Server(event) => event["code"].as_str().unwrap_or("error").to_owned(),
        WsError::Timeout => "client_timeout".to_owned(),
        WsError::Closed => "connection_closed".to_owned(),
        WsError::Connect { .. } => "connect_failed".to_owned(),
        _ => "client_error".to_owned(),
    }
}
