//! Answering the open question: typed, with a unique mark, or spoken, by streaming a clip at
//! real-time pace and committing it. A typed answer whose socket is lost before its ack —
//! dropped on purpose (`reconnect`) or by a dead node (`chaos`) — is resent after the resume
//! with the same event id, so the server applies it once.

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use super::audit::mark;
use super::recorder::Step;
use super::user::{Live, Scenario, UserRun, UserSpec, fail_over, is_lost, prompt_id, reconnect};
use crate::voice::client::{LIVE_FRAME, audio_time, pcm_bytes};
use crate::ws::{WsError, send, wait_for};

/// How an answer went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answered {
    /// Acked: `text` is what the audit looks for; `completed` when no question followed.
    Acked {
        /// The mark (typed) or the final transcript (spoken).
        text: String,
        /// The exam completed with it.
        completed: bool,
    },
    /// The exam was found completed after a resume (the answer's fate is unknown, so it is
    /// not audited).
    Completed,
}

/// Types answer `n` to the open question. In the reconnect scenario every `every`-th answer
/// loses its socket right after sending.
pub async fn type_answer(
    spec: &UserSpec,
    run: &mut UserRun,
    live: &mut Live,
    n: u64,
) -> Result<Answered, WsError> {
    let (frame, mark) = answer_frame(spec, n);
    let asked = prompt_id(&live.question);
    let began = Instant::now();
    let dropped = spec.scenario.drops_sockets() && n.is_multiple_of(spec.every);
    let outcome = match send(&mut live.socket, frame.clone()).await {
        Ok(()) if dropped => Err(None),
        Ok(()) => wait_ack_and_next(live, began).await.map_err(Some),
        Err(err) => Err(Some(err)),
    };
    let resumed = match outcome {
        Ok(completed) => return Ok(acked(spec, run, began, mark, completed)),
        Err(None) => reconnect(spec, run, live).await,
        Err(Some(err)) if is_lost(spec, &err) => fail_over(spec, run, live).await,
        Err(Some(err)) => return Err(err),
    };
    *live = match resumed {
        Ok(resumed) => resumed,
        // That answer was applied and was the last: the exam is over.
        Err(WsError::Server(error)) if error["code"] == "session_completed" => {
            return Ok(Answered::Completed);
        }
        Err(err) => return Err(err),
    };
    resend(spec, run, live, (frame, asked), mark, began).await
}

/// Input `n` and the mark the audit looks for (none for a tutor's drill request). A tutor
/// user asks for a drill, answers it, and writes a message, in turn.
fn answer_frame(spec: &UserSpec, n: u64) -> (Value, String) {
    let mark = mark(&spec.user, n);
    let event_id = format!("a{n}");
    let text = match (spec.scenario, n % 3) {
        (Scenario::Tutor, 1) => {
            let frame = json!({"type": "tutor.request_drill", "event_id": event_id});
            return (frame, String::new());
        }
        (Scenario::Tutor, 2) => format!("12 {mark}"),
        (Scenario::Tutor, _) => format!("How do I add two-digit numbers? {mark}"),
        (Scenario::Assessment, _) => format!("42 {mark}"),
        _ => format!("Regulations, weather and risk management {mark}"),
    };
    let frame = json!({"type": "answer.text", "event_id": event_id, "text": text});
    (frame, mark)
}

/// After a resume: the answer again, with the same event id. If the question it answered
/// (`asked`) is no longer open, it was applied before the socket was lost and only its ack
/// comes back.
async fn resend(
    spec: &UserSpec,
    run: &mut UserRun,
    live: &mut Live,
    (frame, asked): (Value, Value),
    mark: String,
    began: Instant,
) -> Result<Answered, WsError> {
    if live.question["type"] == "session.completed" {
        return Ok(Answered::Completed);
    }
    send(&mut live.socket, frame).await?;
    if prompt_id(&live.question) != asked {
        wait_for(&mut live.socket, &["ack"]).await?;
        return Ok(Answered::Acked {
            text: mark,
            completed: false,
        });
    }
    let next = wait_ack_and_next(live, began).await?;
    Ok(acked(spec, run, began, mark, next))
}

/// What came after an answer's ack.
struct Next {
    /// The session completed instead of asking again.
    completed: bool,
    /// Since the answer was sent: the first streamed word of the next question, if any.
    first_word: Option<Duration>,
    /// The answer's `assessment` → the first word of the next primary question (its first
    /// `question.delta`, or the `question` when it came whole).
    assessed_to_primary: Option<Duration>,
}

/// Waits for the answer's ack and what follows it.
async fn wait_ack_and_next(live: &mut Live, began: Instant) -> Result<Next, WsError> {
    wait_for(&mut live.socket, &["ack"]).await?;
    let next_types = [
        "assessment",
        "question.delta",
        "tutor.delta",
        "question",
        "tutor.turn",
        "session.completed",
    ];
    let (mut first_word, mut assessed, mut first_seen) = (None, None, None);
    let next = loop {
        let next = wait_for(&mut live.socket, &next_types).await?;
        match next["type"].as_str().unwrap_or_default() {
            "assessment" => assessed = Some(Instant::now()),
            "question.delta" | "tutor.delta" => {
                first_word.get_or_insert_with(|| began.elapsed());
                first_seen.get_or_insert_with(Instant::now);
            }
            _ => break next,
        }
    };
    let seen = first_seen.unwrap_or_else(Instant::now);
    let primary = next["type"] == "question" && next["kind"] == "primary";
    let assessed_to_primary = assessed
        .filter(|_| primary)
        .map(|at| seen.saturating_duration_since(at));
    let completed = next["type"] == "session.completed";
    live.question = next;
    Ok(Next {
        completed,
        first_word,
        assessed_to_primary,
    })
}

fn acked(spec: &UserSpec, run: &mut UserRun, began: Instant, text: String, next: Next) -> Answered {
    run.record(spec, Step::AnswerToNext, began.elapsed());
    if let Some(first_word) = next.first_word {
        run.record(spec, Step::AnswerToFirstWord, first_word);
    }
    if let Some(waited) = next.assessed_to_primary {
        run.record(spec, Step::AssessmentToPrimary, waited);
    }
    Answered::Acked {
        text,
        completed: next.completed,
    }
}

/// Speaks answer `n`: a clip streamed in 100 ms frames at real-time pace, then
/// `audio.commit` (push-to-talk). Measures the end of speech → `transcript.final`, and the
/// end of speech → the next question.
pub async fn speak(
    spec: &UserSpec,
    run: &mut UserRun,
    live: &mut Live,
    n: u64,
) -> Result<Answered, WsError> {
    let Some(clip) = pick_clip(spec, n) else {
        return Err(WsError::Other("the voice scenario has no clips".to_owned()));
    };
    stream(live, &clip.samples).await?;
    let commit = json!({"type": "audio.commit", "event_id": format!("v{n}")});
    send(&mut live.socket, commit).await?;
    let spoken = Instant::now();
    let heard = wait_for(&mut live.socket, &["transcript.final"]).await?;
    run.record(spec, Step::SpeechToFinal, spoken.elapsed());
    let text = heard["text"].as_str().unwrap_or_default().to_owned();
    let next = wait_ack_and_next(live, spoken).await?;
    Ok(acked(spec, run, spoken, text, next))
}

/// The clip for answer `n` of this user: users start at different clips.
fn pick_clip(spec: &UserSpec, n: u64) -> Option<&crate::voice::corpus::Clip> {
    let offset = spec.user.bytes().map(u64::from).sum::<u64>();
    let count = spec.clips.len() as u64;
    (count > 0).then(|| &spec.clips[((offset + n) % count.max(1)) as usize])
}

/// Sends `samples` in 100 ms frames, each once its audio would have been captured.
async fn stream(live: &mut Live, samples: &[i16]) -> Result<(), WsError> {
    let start = tokio::time::Instant::now();
    let mut sent = 0;
    for frame in samples.chunks(LIVE_FRAME) {
        sent += frame.len();
        tokio::time::sleep_until(start + audio_time(sent)).await;
        let audio = Message::Binary(pcm_bytes(frame).into());
        live.socket.send(audio).await?;
    }
    Ok(())
}
