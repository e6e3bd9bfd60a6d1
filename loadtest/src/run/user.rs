//! One simulated candidate: who it is ([`UserSpec`]), what it did ([`UserRun`]), and its
//! exam's connection: starting, resuming after a dropped socket (`reconnect`), moving to
//! another device (`takeover`), or resuming on another node when its node dies (`chaos`).
//! The exam it runs is `exam`'s.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::audit::Audit;
use super::http;
use super::recorder::{Recorder, Step};
use super::timeline::Timeline;
use crate::voice::corpus::Clip;
use crate::ws::{Socket, WsError, connect_url, send, wait_for};

/// What a user does besides answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    /// Answer ACS exams in text with think times.
    TextExam,
    /// Answer blueprint evaluations (`--assessment`) in text.
    Assessment,
    /// Answer exams by voice: synthesised answers streamed at real-time pace, then committed.
    Voice,
    /// Move to another device every few answers: start or resume there; the old one pauses.
    Takeover,
    /// Drop the socket every few answers, right after sending, then resume and resend.
    Reconnect,
    /// Text exams on several nodes sharing one Redis; one node is killed and restarted, and
    /// its users resume on another node.
    Chaos,
    /// Tutoring sessions (`--course`): messages, drill requests and drill answers in turn;
    /// every few inputs the socket drops right after sending, then resumes and resends.
    Tutor,
}

impl Scenario {
    /// Whether a lost socket is resumed on another node instead of failing the user.
    fn fails_over(self) -> bool {
        self == Scenario::Chaos
    }

    /// Whether every `every`-th input loses its socket right after it is sent.
    pub(super) fn drops_sockets(self) -> bool {
        matches!(self, Scenario::Reconnect | Scenario::Tutor)
    }

    /// The event that shows the session's open prompt: a tutor's turn, else a question.
    pub(super) fn prompt_event(self) -> &'static str {
        match self {
            Scenario::Tutor => "tutor.turn",
            _ => "question",
        }
    }
}

/// What identifies the open prompt: a question's id, or a tutor turn's number.
pub(super) fn prompt_id(prompt: &Value) -> Value {
    match prompt.get("question_id") {
        Some(id) => id.clone(),
        None => prompt["turn"].clone(),
    }
}

/// How one user behaves.
#[derive(Clone)]
pub struct UserSpec {
    /// The user id.
    pub user: String,
    /// WebSocket base URLs of the server nodes; the user starts on one and moves round.
    pub urls: Vec<String>,
    /// A token (sent as `access_token`), or none for a development-mode server.
    pub token: Option<String>,
    /// The scenario.
    pub scenario: Scenario,
    /// When answers come.
    pub pace: Pace,
    /// No new answer after this.
    pub end: Instant,
    /// Latencies are recorded from this moment (the end of the ramp-up, or the start).
    pub measure_from: Instant,
    /// ...of steps that began before this moment ([`MEASURE_TAIL`] before `end`): at `end`
    /// every user ends its exam and reads its result at once, a burst no steady load has.
    pub measure_until: Instant,
    /// Every how many answers the scenario's move happens.
    pub every: u64,
    /// The exam's scope (an ACS task).
    pub task: String,
    /// The evaluation of the `assessment` scenario.
    pub assessment: String,
    /// The course of the `tutor` scenario.
    pub course: String,
    /// Spoken answers of the `voice` scenario.
    pub clips: Arc<Vec<Clip>>,
    /// The run's timeline.
    pub timeline: Arc<Timeline>,
}

/// When a user answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pace {
    /// After a think time following the previous question.
    Think(Duration),
    /// On a fixed schedule, this far apart, whatever the server's latency (open loop).
    Every(Duration),
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
    /// Sessions resumed on another node after losing theirs.
    pub failovers: u64,
    /// The audit of its exams.
    pub audit: Audit,
    /// Why the user stopped early, if it did.
    pub failure: Option<String>,
}

impl UserRun {
    pub(super) fn record(&mut self, spec: &UserSpec, step: Step, took: Duration) {
        // The timeline shows the ramp-up too; the percentiles may leave it out.
        if step == Step::AnswerToNext {
            spec.timeline.answered(took);
        }
        let now = Instant::now();
        let began = now.checked_sub(took).unwrap_or(now);
        if now >= spec.measure_from && began < spec.measure_until {
            self.recorder.record(step, took);
        }
    }

    pub(super) fn error(&mut self, spec: &UserSpec, code: &str) {
        self.recorder.error(code);
        spec.timeline.errored();
    }
}

/// The user's live connection and exam.
pub struct Live {
    /// Its socket.
    pub socket: Socket,
    /// Which device it is (and so which node: devices go round the URLs).
    pub device: u64,
    /// The session.
    pub session_id: String,
    /// The open question, or `{"type": "session.completed"}`.
    pub question: Value,
}

async fn open(spec: &UserSpec, run: &mut UserRun, device: u64) -> Result<Socket, WsError> {
    let base = &spec.urls[(device as usize) % spec.urls.len().max(1)];
    let url = format!(
        "{base}/v1/ws?{}",
        auth_query(spec.token.as_deref(), &spec.user)
    );
    let began = Instant::now();
    let socket = connect_url(&url).await?;
    run.record(spec, Step::Connect, began.elapsed());
    Ok(socket)
}

/// Starts an exam; a node lost meanwhile is left for the next one, with the same event id,
/// so the server starts the exam once.
pub(super) async fn start(
    spec: &UserSpec,
    run: &mut UserRun,
    device: &mut u64,
) -> Result<Live, WsError> {
    let event_id = format!("start-{}-{}", spec.user, run.exams);
    let mut tries = 0;
    loop {
        match start_on(spec, run, *device, &event_id).await {
            Err(err) if is_lost(spec, &err) && tries < spec.urls.len() * 3 => {
                tries += 1;
                *device += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            outcome => return outcome,
        }
    }
}

async fn start_on(
    spec: &UserSpec,
    run: &mut UserRun,
    device: u64,
    event_id: &str,
) -> Result<Live, WsError> {
    let mut socket = open(spec, run, device).await?;
    let began = Instant::now();
    let (mode, config) = match spec.scenario {
        Scenario::Assessment => (
            "assessment",
            json!({"assessment_id": spec.assessment, "learning": false}),
        ),
        Scenario::Voice => (
            "exam",
            json!({"rating": "private", "tasks": [spec.task], "input": "voice"}),
        ),
        Scenario::Tutor => ("tutor", json!({"course_id": spec.course})),
        _ => ("exam", json!({"rating": "private", "tasks": [spec.task]})),
    };
    let start = json!({"type": "session.start", "event_id": event_id, "device_id": device_id(device),
                       "mode": mode, "config": config});
    send(&mut socket, start).await?;
    let started = wait_for(&mut socket, &["session.started", "session.resumed"]).await?;
    let question = wait_for(&mut socket, &[spec.scenario.prompt_event()]).await?;
    run.record(spec, Step::SessionStart, began.elapsed());
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

/// Whether `err` means the node (or the socket to it) was lost and the scenario resumes
/// elsewhere.
pub(super) fn is_lost(spec: &UserSpec, err: &WsError) -> bool {
    spec.scenario.fails_over()
        && matches!(
            err,
            WsError::Closed | WsError::Socket(_) | WsError::Connect { .. } | WsError::Timeout
        )
}

/// Resumes the session on the next node after losing this one, trying each node in turn
/// (three rounds at most, 100 ms apart).
pub(super) async fn fail_over(
    spec: &UserSpec,
    run: &mut UserRun,
    live: &Live,
) -> Result<Live, WsError> {
    let lost_at = Instant::now();
    let mut device = live.device;
    let mut last = WsError::Closed;
    for _ in 0..spec.urls.len().max(1) * 3 {
        device += 1;
        match resume(spec, run, device, &live.session_id).await {
            Ok(resumed) => {
                run.record(spec, Step::Failover, lost_at.elapsed());
                run.failovers += 1;
                return Ok(resumed);
            }
            Err(err) if is_lost(spec, &err) => {
                // A dead node refuses or drops the socket; one that answers nothing for a
                // whole step is stuck, which the run must show, not only in its latency.
                if matches!(err, WsError::Timeout) {
                    run.error(spec, "resume_timeout");
                }
                last = err;
            }
            Err(err) => return Err(err),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(last)
}

/// Drops the socket and resumes the same session on a fresh one (same device).
pub(super) async fn reconnect(
    spec: &UserSpec,
    run: &mut UserRun,
    live: &mut Live,
) -> Result<Live, WsError> {
    // ignore: the socket is being thrown away on purpose; a failed close changes nothing.
    let _ = live.socket.close(None).await;
    resume(spec, run, live.device, &live.session_id).await
}

/// Resumes the exam on the next device; the old device must be paused.
pub(super) async fn take_over(
    spec: &UserSpec,
    run: &mut UserRun,
    mut old: Live,
) -> Result<Live, WsError> {
    let next = resume(spec, run, old.device + 1, &old.session_id).await?;
    let paused = wait_for(&mut old.socket, &["session.paused"]).await?;
    if paused["reason"] != "other_device" {
        run.error(spec, "unexpected_pause_reason");
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
    // A session that completed meanwhile is resumed as it stands: no question follows. Nor
    // does one when the resume itself completes the session: its last answer was stored but
    // not yet assessed when its node died, so the resume assesses it and grades the exam.
    let question = if resumed["status"] == "completed" {
        json!({"type": "session.completed"})
    } else {
        let prompt_or_end = [spec.scenario.prompt_event(), "session.completed"];
        wait_for(&mut socket, &prompt_or_end).await?
    };
    run.record(spec, Step::Resume, began.elapsed());
    Ok(Live {
        socket,
        device,
        session_id: session_id.to_owned(),
        question,
    })
}

/// The owner's result, from the first node that answers.
pub(super) async fn read_result(spec: &UserSpec, session_id: &str) -> Result<Value, WsError> {
    let auth = auth_query(spec.token.as_deref(), &spec.user);
    let path = format!("/v1/sessions/{session_id}/result?{auth}");
    let mut last = WsError::Other("no server URL".to_owned());
    for base in &spec.urls {
        match http::get(base, &path).await {
            Ok(response) if response.status == 200 => {
                return Ok(serde_json::from_str(&response.body)?);
            }
            Ok(response) => {
                let detail = format!("result: HTTP {} {}", response.status, response.body);
                return Err(WsError::Other(detail));
            }
            Err(err) => last = WsError::Other(format!("reading the result: {err}")),
        }
    }
    Err(last)
}

/// How `user` signs in on a URL: its token, or its name on a development-mode server.
pub(super) fn auth_query(token: Option<&str>, user: &str) -> String {
    match token {
        Some(token) => format!("access_token={token}"),
        None => format!("user={user}"),
    }
}

/// The error code a failure is counted under.
pub(super) fn code_of(err: &WsError) -> String {
    match err {
        WsError::Server(event) => event["code"].as_str().unwrap_or("error").to_owned(),
        WsError::Timeout => "client_timeout".to_owned(),
        WsError::Closed => "connection_closed".to_owned(),
        WsError::Connect { .. } => "connect_failed".to_owned(),
        _ => "client_error".to_owned(),
    }
}
