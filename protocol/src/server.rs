//! Server → client events: the envelope of every server text frame.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::config::Mode;
use crate::error::ErrorCode;
use crate::result::SessionResult;

/// One server text frame: `seq` beside the event's own fields.
///
/// `seq` rises by one with each event of a session and survives resume and restarts. Replies
/// that belong to the connection rather than a session (`pong`, and errors outside a
/// session) carry no `seq`.
///
/// # Format
/// ```json
/// {"type": "ack", "seq": 12, "event_id": "a-17"}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ServerMessage {
    /// The session's event sequence number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// The event.
    #[serde(flatten)]
    pub event: ServerEvent,
}

/// Every event the server sends, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type")]
pub enum ServerEvent {
    /// `session.started`.
    #[serde(rename = "session.started")]
    SessionStarted(SessionStarted),
    /// `session.resumed`.
    #[serde(rename = "session.resumed")]
    SessionResumed(SessionResumed),
    /// `session.paused`.
    #[serde(rename = "session.paused")]
    SessionPaused(SessionPaused),
    /// `question.delta`.
    #[serde(rename = "question.delta")]
    QuestionDelta(QuestionDelta),
    /// `question`.
    #[serde(rename = "question")]
    Question(Question),
    /// `transcript.partial`.
    #[serde(rename = "transcript.partial")]
    TranscriptPartial(Transcript),
    /// `transcript.final`.
    #[serde(rename = "transcript.final")]
    TranscriptFinal(Transcript),
    /// `speech.started`.
    #[serde(rename = "speech.started")]
    SpeechStarted(SpeechStarted),
    /// `speech.stopped`.
    #[serde(rename = "speech.stopped")]
    SpeechStopped(SpeechStopped),
    /// `answer.unclear`.
    #[serde(rename = "answer.unclear")]
    AnswerUnclear(AnswerUnclear),
    /// `answer.assessing`.
    #[serde(rename = "answer.assessing")]
    AnswerAssessing(AnswerAssessing),
    /// `assessment`.
    #[serde(rename = "assessment")]
    Assessment(Assessment),
    /// `session.completed`.
    #[serde(rename = "session.completed")]
    SessionCompleted(SessionCompleted),
    /// `ack`.
    #[serde(rename = "ack")]
    Ack(Ack),
    /// `error`.
    #[serde(rename = "error")]
    Error(ErrorEvent),
    /// `tutor.turn`.
    #[serde(rename = "tutor.turn")]
    TutorTurn(Box<crate::tutor::TutorTurn>),
    /// `tutor.delta`.
    #[serde(rename = "tutor.delta")]
    TutorDelta(crate::tutor::TutorDelta),
    /// `pong`.
    ///
    /// # Format
    /// ```json
    /// {"type": "pong"}
    /// ```
    #[serde(rename = "pong")]
    Pong,
    /// `examiner.voice.started`.
    #[serde(rename = "examiner.voice.started")]
    VoiceStarted(crate::voice::VoiceStarted),
    /// `examiner.voice.mark`.
    #[serde(rename = "examiner.voice.mark")]
    VoiceMark(crate::voice::VoiceMark),
    /// `examiner.voice.ended`.
    #[serde(rename = "examiner.voice.ended")]
    VoiceEnded(crate::voice::VoiceEnded),
}

impl ServerEvent {
    /// Every `type` the server sends.
    pub const TYPES: &'static [&'static str] = &[
        "session.started",
        "session.resumed",
        "session.paused",
        "question.delta",
        "question",
        "transcript.partial",
        "transcript.final",
        "speech.started",
        "speech.stopped",
        "answer.unclear",
        "answer.assessing",
        "assessment",
        "session.completed",
        "ack",
        "error",
        "tutor.turn",
        "tutor.delta",
        "pong",
        "examiner.voice.started",
        "examiner.voice.mark",
        "examiner.voice.ended",
    ];

    /// This event's `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            ServerEvent::SessionStarted(_) => "session.started",
            ServerEvent::SessionResumed(_) => "session.resumed",
            ServerEvent::SessionPaused(_) => "session.paused",
            ServerEvent::QuestionDelta(_) => "question.delta",
            ServerEvent::Question(_) => "question",
            ServerEvent::TranscriptPartial(_) => "transcript.partial",
            ServerEvent::TranscriptFinal(_) => "transcript.final",
            ServerEvent::SpeechStarted(_) => "speech.started",
            ServerEvent::SpeechStopped(_) => "speech.stopped",
            ServerEvent::AnswerUnclear(_) => "answer.unclear",
            ServerEvent::AnswerAssessing(_) => "answer.assessing",
            ServerEvent::Assessment(_) => "assessment",
            ServerEvent::SessionCompleted(_) => "session.completed",
            ServerEvent::Ack(_) => "ack",
            ServerEvent::Error(_) => "error",
            ServerEvent::TutorTurn(_) => "tutor.turn",
            ServerEvent::TutorDelta(_) => "tutor.delta",
            ServerEvent::Pong => "pong",
            ServerEvent::VoiceStarted(_) => "examiner.voice.started",
            ServerEvent::VoiceMark(_) => "examiner.voice.mark",
            ServerEvent::VoiceEnded(_) => "examiner.voice.ended",
        }
    }
}

/// `session.started`.
///
/// # Format
/// ```json
/// {"type": "session.started", "seq": 1, "session_id": "9b1c…", "mode": "exam",
///  "plan": {"planned_questions": 12, "queue_length": 12, "study_mode": "linear",
///           "bonus_max": 2, "follow_up_max_per_element": 1}}
/// ```
/// An exam started with `"difficulty": "adaptive"` adds its plan's starting level:
/// `"adaptive_difficulty": {"start": "medium", "window": 4, "min_elements_between_changes": 3}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionStarted {
    /// The new session's id.
    pub session_id: String,
    /// The session's mode.
    pub mode: Mode,
    /// What the examiner plans.
    pub plan: PlanSummary,
}

/// The plan announced in `session.started`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlanSummary {
    /// How many questions are planned (bonus questions come on top).
    pub planned_questions: u32,
    /// How many elements are in scope.
    pub queue_length: u32,
    /// Exam only: the planner's ordering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub study_mode: Option<crate::config::StudyMode>,
    /// Assessment only: the time limit in seconds; absent for an untimed assessment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_seconds: Option<u32>,
    /// The most bonus questions the exam may add.
    pub bonus_max: u32,
    /// The most follow-up questions per element.
    pub follow_up_max_per_element: u32,
    /// Exam only, when its difficulty is adaptive: the starting level and the rule's bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive_difficulty: Option<crate::difficulty::AdaptivePlan>,
}

/// `session.resumed`; the open `question` follows if there is one. An answer stored but not
/// yet assessed when the session's node stopped is assessed now: its `assessment` follows,
/// then the next `question` or, after the last answer, `session.completed`.
///
/// # Format
/// ```json
/// {"type": "session.resumed", "seq": 9, "session_id": "9b1c…", "mode": "exam",
///  "status": "active", "progress": {"asked": 3, "planned_questions": 12,
///  "answered": 2, "credited_by_mention": 1, "bonus_used": 0}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionResumed {
    /// The session's id.
    pub session_id: String,
    /// The session's mode.
    pub mode: Mode,
    /// Where the session stands.
    pub status: SessionStatus,
    /// How far it has come.
    pub progress: Progress,
}

/// Where a session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    /// Attached to a device and running.
    Active,
    /// Paused; resume to continue.
    Paused,
    /// Graded; the result follows.
    Completed,
    /// Left paused too long; closed.
    Abandoned,
}

/// Progress counters of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Progress {
    /// Elements asked so far (follow-ups not counted).
    pub asked: u32,
    /// Questions planned.
    pub planned_questions: u32,
    /// Answers committed so far (follow-ups counted).
    pub answered: u32,
    /// Elements credited because an answer covered them.
    pub credited_by_mention: u32,
    /// Bonus questions granted so far.
    pub bonus_used: u32,
}

/// `session.paused`.
///
/// # Format
/// ```json
/// {"type": "session.paused", "seq": 7, "session_id": "9b1c…", "reason": "other_device"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SessionPaused {
    /// The session's id.
    pub session_id: String,
    /// Why it stopped being active here.
    pub reason: PauseReason,
}

/// Why a session was paused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    /// The user sent `session.pause`.
    User,
    /// The user started or resumed an exam on another device.
    OtherDevice,
    /// The server is shutting down; resume on reconnect.
    ServerShutdown,
}

/// `question.delta`: a piece of a question's text while the examiner's model is still
/// writing it, sent only when an LLM examiner streams its phrasing.
///
/// Deltas are a preview, without `seq`, and never replayed on resume. Appending the
/// `text` of a question's deltas in order gives the text so far. The `question` event that
/// follows, with the same `question_id`, is authoritative: its `text` replaces whatever the
/// deltas showed, and it may differ from them when the model's wording was refused and the
/// examiner's own wording is used instead.
///
/// # Format
/// ```json
/// {"type": "question.delta", "question_id": "q3", "number": 3, "text": " privileges"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct QuestionDelta {
    /// The question being written; the `question` that follows carries the same id.
    pub question_id: String,
    /// 1-based count of questions, this one included.
    pub number: u32,
    /// The next piece of text, to append.
    pub text: String,
}

/// `question`.
///
/// # Format
/// ```json
/// {"type": "question", "seq": 2, "question_id": "q3", "number": 3,
///  "text": "Let's talk about pilot qualifications. Explain privileges and limitations.",
///  "kind": "primary", "element_code": "PA.I.A.K2"}
/// ```
/// An adaptive exam's questions add the level each is asked at: `"difficulty": "hard"`.
/// An exam question asked through a flight scenario (`scenarios` on) names it:
/// `"scenario": "night-passengers-frederick"`; its first carries the scenario's setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Question {
    /// Unique within the session; echoed on the `assessment`.
    pub question_id: String,
    /// What the examiner asks.
    pub text: String,
    /// Options of a multiple-choice question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    /// 1-based count of questions asked so far.
    pub number: u32,
    /// Exam only: `primary`, `follow_up` or `bonus`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Exam only: the ACS element asked about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_code: Option<String>,
    /// Exam only: the scenario the question comes from, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// Assessment only, when it shows progress: how many items there are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u32>,
    /// Assessment only: seconds left before the time limit; absent for an untimed assessment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_remaining_seconds: Option<u32>,
    /// Exam only, when its difficulty is adaptive: the level this question is asked at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<crate::difficulty::Level>,
}

/// `transcript.partial` and `transcript.final`.
///
/// Previews of what the server heard: like `question.delta` they carry no `seq` and are
/// never replayed on resume. A turn's partials and its final share `turn`, a number that
/// rises with each turn the session hears (it restarts when the session's actor does), and
/// `question_id` names the open question the turn answers. What a final changed arrives in
/// sequenced events: the `assessment` (and the `ack` of an `audio.commit`), or an
/// unsequenced `answer.unclear` when it could not be read.
///
/// # Format
/// ```json
/// {"type": "transcript.partial", "question_id": "q3", "turn": 4, "text": "you need a current"}
/// {"type": "transcript.final", "question_id": "q3", "turn": 4,
///  "text": "You need a current medical certificate."}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Transcript {
    /// The open question this turn answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question_id: Option<String>,
    /// The turn: its partials and its final share it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u64>,
    /// Speech-to-text of the candidate's current turn.
    pub text: String,
}

/// `speech.started`: the candidate began speaking in a turn, or spoke again after a pause
/// (`speech.stopped`) that did not end it.
///
/// A cue for the device, like transcripts: no `seq`, never replayed. `turn` is the turn's
/// number, as its transcripts carry it.
///
/// # Format
/// ```json
/// {"type": "speech.started", "question_id": "q3", "turn": 4}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SpeechStarted {
    /// The open question the turn answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question_id: Option<String>,
    /// The turn.
    pub turn: u64,
}

/// `speech.stopped`: the candidate paused in a turn. Sent once the server's end-of-turn
/// model has judged the pause (at once when the server has none). `wait_ms` is how long a
/// pause, counted from the end of speech, now ends the turn: short when `end_of_turn` is
/// `complete` (the candidate sounds finished), the thinking pause when it is `incomplete`
/// (mid-answer) or `unjudged` (no model, or it was busy). Speech before then sends
/// `speech.started` again; otherwise the turn's `transcript.final` follows.
///
/// A cue for the device, like transcripts: no `seq`, never replayed.
///
/// # Format
/// ```json
/// {"type": "speech.stopped", "question_id": "q3", "turn": 4, "wait_ms": 400,
///  "end_of_turn": "complete"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SpeechStopped {
    /// The open question the turn answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question_id: Option<String>,
    /// The turn.
    pub turn: u64,
    /// How long a pause, from the end of speech, ends the turn now.
    pub wait_ms: u64,
    /// What the end-of-turn model made of the pause.
    pub end_of_turn: EndOfTurn,
}

/// What the end-of-turn model made of a pause (`speech.stopped`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndOfTurn {
    /// The candidate sounds finished.
    Complete,
    /// The candidate sounds mid-answer.
    Incomplete,
    /// Not judged: the server has no model, or it was busy.
    Unjudged,
}

/// `answer.unclear`: a spoken answer to an item could not be read as what the item expects,
/// so nothing was recorded and the question stays open. The candidate says the answer
/// again; when `confirm` is true, saying "yes" keeps `understood_as` as the answer. A typed
/// answer is never second-guessed and never gets this event.
///
/// `reason` is `not_read` (nothing of the item's kind was heard), `ambiguous` (several
/// readings are about as likely; `readings` lists them) or `not_an_option` (a value of the
/// item's kind that is none of the shown options). A `not_read` answer that is clearly
/// nearest one shown option offers it: `closest_option` is its letter, `understood_as` that
/// option ("option A") and `confirm` true, so "yes" answers with that option (added in issue 37;
/// absent otherwise, so older clients read the event as before). Unsequenced, like
/// transcripts: it records
/// nothing. An `audio.commit` whose turn ends here gets an `error` with code
/// `answer_unclear` and its `event_id` (nothing was applied, so no `ack`).
///
/// # Format
/// ```json
/// {"type": "answer.unclear", "question_id": "i4", "turn": 7, "heard": "7,400",
///  "reason": "not_an_option", "understood_as": "7400", "confirm": true,
///  "message": "I heard 7400, which is not one of the options. Say your answer again, or say yes to keep 7400."}
/// {"type": "answer.unclear", "question_id": "i5", "turn": 9, "heard": "Option \"Apshina\"",
///  "reason": "not_read", "understood_as": "option A", "closest_option": "A", "confirm": true,
///  "message": "I heard \"Option \"Apshina\"\". Did you mean option A, 255.255.255.192? Say yes, or say your answer again."}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AnswerUnclear {
    /// The open question.
    pub question_id: String,
    /// The turn whose final this is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u64>,
    /// What the server heard.
    pub heard: String,
    /// `not_read`, `ambiguous` or `not_an_option`.
    pub reason: String,
    /// The readings the server could not choose between (`ambiguous`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readings: Vec<String>,
    /// The one reading it has (`not_an_option`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub understood_as: Option<String>,
    /// Whether "yes" keeps `understood_as` as the answer.
    pub confirm: bool,
    /// The letter of the shown option a `not_read` answer is clearly nearest to, offered for
    /// a "yes".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closest_option: Option<String>,
    /// What to tell the candidate.
    pub message: String,
}

/// `answer.assessing`: the committed answer to `question_id` is being judged, and its
/// `assessment` follows when the examiner is done. Sent once per judging, after the answer's
/// `ack`, only when the judging is not done at once (a model examiner): with the embedded
/// examiner the `assessment` comes in the same write as the `ack`. A resume that finds an
/// answer stored but not yet assessed sends it again after `session.resumed`, and so does a
/// takeover while the examiner is still judging (to the device that took over).
///
/// Which answers: an exam's (`question_id` is the question's), and a tutor's rubric drill when
/// a model examiner judges it (`question_id` is the drill's `drill_id`; the `tutor.turn` with
/// the drill's result follows). An assessment's items are judged by code at once (their
/// `assessment` follows the `ack` in the same write), so they never get one.
///
/// A cue for the device, like `question.delta`: no `seq`, never replayed. No `question.delta`
/// of the next question reaches the device before this answer's `assessment`.
///
/// # Format
/// ```json
/// {"type": "answer.assessing", "question_id": "q3"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AnswerAssessing {
    /// The question whose answer is being judged (its `assessment` carries the same id), or a
    /// tutor drill's `drill_id`.
    pub question_id: String,
}

/// `assessment`.
///
/// # Format
/// ```json
/// {"type": "assessment", "seq": 4, "question_id": "q3", "score": "partial",
///  "feedback": "Partial: you did not mention recordkeeping.",
///  "source_summary": "Study: 14 CFR part 61; AC 68-1.",
///  "credited_elements": ["PA.I.A.K3"]}
/// ```
/// In evaluation mode, and in a checkride-style exam (`"examiner_style": "checkride"`), only
/// `question_id`, `recorded: true` and `understood_as` are sent. In a study exam, the
/// assessment of an answer a follow-up on the same element comes after says how far the
/// answer went ("Partly right so far.") and names nothing it left out; the element's last
/// answer gets the full feedback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Assessment {
    /// The question answered.
    pub question_id: String,
    /// `satisfactory`, `partial` or `unsatisfactory`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// Feedback for the candidate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    /// Evaluation mode: the answer was recorded, nothing more is said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded: Option<bool>,
    /// Exam only: where to study this element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_summary: Option<String>,
    /// Learning mode only: the correct answer, as shown in the options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correct_answer: Option<String>,
    /// Exam only: other elements this answer covered, now credited by mention.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub credited_elements: Vec<String>,
    /// What the server judged, for an answer it had to read: the normalised value of an
    /// item's spoken or typed answer ("192.168.10.0", "8206", "option B"), or the transcript
    /// of a spoken exam answer. Sent in every mode: it says what was heard, never whether it
    /// was right.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub understood_as: Option<String>,
}

/// `session.completed`.
///
/// # Format
/// ```json
/// {"type": "session.completed", "seq": 30, "session_id": "9b1c…",
///  "result": {"mode": "exam", "outcome": "satisfactory", "trigger": "all_tasks_covered", "…": "…"}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionCompleted {
    /// The session's id.
    pub session_id: String,
    /// The graded result.
    pub result: SessionResult,
}

/// `ack`: the event with this `event_id` was applied and its effects are durable.
///
/// # Format
/// ```json
/// {"type": "ack", "seq": 12, "event_id": "a-17"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ack {
    /// The acknowledged event's id.
    pub event_id: String,
}

/// `error`.
///
/// # Format
/// ```json
/// {"type": "error", "code": "unknown_type", "message": "unknown event type \"foo\"",
///  "event_id": "x1"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorEvent {
    /// Stable code for programs.
    pub code: ErrorCode,
    /// Explanation for people.
    pub message: String,
    /// The `event_id` of the refused event, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_id: Option<String>,
}

impl ServerMessage {
    /// An event that belongs to no session (no `seq`).
    pub fn unsequenced(event: ServerEvent) -> ServerMessage {
        ServerMessage { seq: None, event }
    }

    /// An `error` outside any session.
    pub fn error(code: ErrorCode, message: impl Into<String>, event_id: Option<String>) -> Self {
        ServerMessage::unsequenced(ServerEvent::Error(ErrorEvent {
            code,
            message: crate::excerpt::bounded_message(message.into()),
            event_id,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each documented `# Format` example (with concrete values) round-trips.
    #[test]
    fn documented_examples_round_trip() {
        let examples = [
            r#"{"type":"ack","seq":12,"event_id":"a-17"}"#,
            r#"{"type":"pong"}"#,
            r#"{"type":"session.started","seq":1,"session_id":"s","mode":"exam","plan":{"planned_questions":12,"queue_length":12,"study_mode":"linear","bonus_max":2,"follow_up_max_per_element":1}}"#,
            r#"{"type":"session.started","seq":1,"session_id":"s","mode":"assessment","plan":{"planned_questions":20,"queue_length":20,"bonus_max":0,"follow_up_max_per_element":0,"time_limit_seconds":1800}}"#,
            r#"{"type":"question","seq":2,"question_id":"i1","number":1,"text":"What is 12 + 30?","options":["42","52","32","41"],"total":20,"time_remaining_seconds":1799}"#,
            r#"{"type":"session.started","seq":1,"session_id":"s","mode":"assessment","plan":{"planned_questions":20,"queue_length":20,"bonus_max":0,"follow_up_max_per_element":0}}"#,
            r#"{"type":"question","seq":2,"question_id":"i1","number":1,"text":"What is 12 + 30?","options":["42","52","32","41"],"total":20}"#,
            r#"{"type":"assessment","seq":4,"question_id":"i1","score":"unsatisfactory","feedback":"12 + 30 = 42","correct_answer":"42"}"#,
            r#"{"type":"session.resumed","seq":9,"session_id":"s","mode":"exam","status":"active","progress":{"asked":3,"planned_questions":12,"answered":2,"credited_by_mention":1,"bonus_used":0}}"#,
            r#"{"type":"session.paused","seq":7,"session_id":"s","reason":"other_device"}"#,
            r#"{"type":"question","seq":2,"question_id":"q3","number":3,"text":"Explain.","kind":"primary","element_code":"PA.I.A.K2"}"#,
            r#"{"type":"question","seq":2,"question_id":"q3","number":3,"text":"Pick one.","options":["a","b"]}"#,
            r#"{"type":"question.delta","question_id":"q3","number":3,"text":" privileges"}"#,
            r#"{"type":"answer.assessing","question_id":"q3"}"#,
            r#"{"type":"question","seq":2,"question_id":"q3","number":3,"text":"Explain.","kind":"primary","element_code":"PA.I.A.K2","difficulty":"hard"}"#,
            r#"{"type":"session.started","seq":1,"session_id":"s","mode":"exam","plan":{"planned_questions":12,"queue_length":12,"study_mode":"linear","bonus_max":2,"follow_up_max_per_element":1,"adaptive_difficulty":{"start":"medium","window":4,"min_elements_between_changes":3}}}"#,
            r#"{"type":"tutor.delta","turn":4,"text":" make ten first"}"#,
            r#"{"type":"transcript.partial","seq":5,"text":"you need a current"}"#,
            r#"{"type":"transcript.final","seq":6,"text":"you need a current medical"}"#,
            r#"{"type":"speech.started","question_id":"q3","turn":4}"#,
            r#"{"type":"speech.stopped","question_id":"q3","turn":4,"wait_ms":400,"end_of_turn":"complete"}"#,
            r#"{"type":"speech.stopped","turn":5,"wait_ms":3000,"end_of_turn":"unjudged"}"#,
            r#"{"type":"assessment","seq":4,"question_id":"q3","score":"partial","feedback":"f","source_summary":"s","credited_elements":["PA.I.A.K3"]}"#,
            r#"{"type":"assessment","seq":4,"question_id":"q3","recorded":true}"#,
            r#"{"type":"error","code":"unknown_type","message":"m","event_id":"x1"}"#,
        ];
        for example in examples {
            let expected: serde_json::Value = serde_json::from_str(example).unwrap();
            let message: ServerMessage = serde_json::from_value(expected.clone()).unwrap();
            assert_eq!(
                serde_json::to_value(&message).unwrap(),
                expected,
                "{example}"
            );
            let kind = message.event.type_name();
            assert_eq!(expected["type"], kind, "{example}");
            assert!(ServerEvent::TYPES.contains(&kind), "{kind}");
        }
    }
}
