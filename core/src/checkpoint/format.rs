//! The checkpoint format, version 1: explicit serde types, separate from the actor state.
//!
//! A checkpoint holds everything needed to rebuild a session exactly: plan, planner cursor,
//! open question, transcript, the last `seq` and the applied `event_id`s. Maps are `BTreeMap`
//! so the encoding is deterministic.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
pub use viva_protocol::Mode;

use viva_protocol::server::SessionStatus;

pub use super::mode_format::{
    AdaptiveCheckpoint, AssessmentCheckpoint, ExamCheckpoint, GeneratedCheckpoint, ItemCheckpoint,
    NextStepCheckpoint, OpenQuestionCheckpoint, PendingCheckpoint, PlanCheckpoint,
    PlannerCheckpoint, ResponseCheckpoint, RunningScenarioCheckpoint, ScenarioOutlineCheckpoint,
    ScenarioPlanCheckpoint,
};
use super::sections::{ModeCheckpoint, OneQuestionCheckpoint};
use super::tutor_format::TutorCheckpoint;
use crate::review::ElementHistory;

/// The current checkpoint format version.
pub const CHECKPOINT_FORMAT: u32 = 1;
/// The current user record format version.
pub const USER_RECORD_FORMAT: u32 = 1;
/// The current format version of the operator's new-session switch.
pub const SWITCH_FORMAT: u32 = 1;

/// A phase as a checkpoint stores it: the same name as `Phase::as_str`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    /// No question asked yet.
    Idle,
    /// A question committed, not yet delivered.
    QuestionAsked,
    /// The candidate is answering.
    AwaitingAnswer,
    /// The last answer is assessed.
    Assessed,
    /// No device drives the session.
    Paused,
    /// Graded.
    Completed,
    /// Paused for too long.
    Abandoned,
}

/// A session checkpoint. Stored as the mode's tag (`mode`) beside one section named after
/// it (`exam`, `assessment`, `tutor`, …): [`WireCheckpoint`].
#[derive(Debug, Clone, PartialEq)]
pub struct SessionCheckpoint {
    /// Format version; readers refuse versions they do not know.
    pub format: u32,
    /// The session id.
    pub session_id: String,
    /// The owning user.
    pub user_id: String,
    /// Write version: strictly increasing over every write attempt of the session, so a
    /// store can refuse an older write that arrives late.
    pub version: u64,
    /// Wall-clock milliseconds since the Unix epoch.
    pub created_at_ms: u64,
    /// When this checkpoint was taken.
    pub updated_at_ms: u64,
    /// When the session was last paused, while it is paused.
    pub paused_at_ms: Option<u64>,
    /// The thinking pause the session asked for, ms.
    pub thinking_pause_ms: Option<u32>,
    /// The last `seq` used.
    pub seq: u64,
    /// The phase, such as `awaiting_answer` or `paused`.
    pub phase: PhaseName,
    /// The phase to return to on resume, while paused.
    pub resume_to: Option<PhaseName>,
    /// The mode's own section, tagged with the mode.
    pub state: ModeCheckpoint,
    /// Every question, answer and assessment so far (a tutor's turn log).
    pub transcript: Vec<TurnCheckpoint>,
    /// Recently applied `event_id`s, oldest first.
    pub applied_event_ids: Vec<String>,
}

impl SessionCheckpoint {
    /// Everything but the transcript, which stores keep apart and append to; cloned field by
    /// field, so the transcript is never copied.
    pub fn head(&self) -> SessionCheckpoint {
        SessionCheckpoint {
            format: self.format,
            session_id: self.session_id.clone(),
            user_id: self.user_id.clone(),
            version: self.version,
            created_at_ms: self.created_at_ms,
            updated_at_ms: self.updated_at_ms,
            paused_at_ms: self.paused_at_ms,
            thinking_pause_ms: self.thinking_pause_ms,
            seq: self.seq,
            phase: self.phase,
            resume_to: self.resume_to,
            state: self.state.clone(),
            transcript: Vec::new(),
            applied_event_ids: self.applied_event_ids.clone(),
        }
    }
}

/// One question of the transcript, with its answer and assessment once they exist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnCheckpoint {
    /// Question id.
    pub question_id: String,
    /// The element asked about.
    pub element_code: String,
    /// Question kind.
    pub kind: String,
    /// The words asked.
    pub question: String,
    /// The committed answer.
    pub answer: Option<String>,
    /// The score given.
    pub score: Option<String>,
    /// The feedback given.
    pub feedback: Option<String>,
    /// The turn log of the model calls behind the turn (absent in checkpoints written
    /// before the LLM examiner, and when no model was asked).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examiner: Vec<viva_protocol::result::ExaminerCall>,
    /// The sources behind the feedback (absent in checkpoints written before the
    /// checkride debrief, and in modes that give none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sources: Option<String>,
    /// The scenario the question came from (absent when none, and in checkpoints written
    /// before scenarios existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
}

/// Per-user state: which sessions the user has, which is active, and earlier element scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRecord {
    /// Format version.
    pub format: u32,
    /// The user.
    pub user_id: String,
    /// Record version, bumped by every write: the compare-and-set that makes takeovers
    /// linearizable across nodes.
    #[serde(default)]
    pub version: u64,
    /// The active (or most recently active) exam.
    pub active_session: Option<String>,
    /// The node whose device holds the active exam, told when another device takes it.
    #[serde(default)]
    pub active_node: Option<String>,
    /// The user's sessions, most recent last (bounded).
    pub sessions: Vec<SessionEntry>,
    /// Recent `session.start` event ids and the session each created, for idempotent starts.
    pub start_event_ids: Vec<(String, String)>,
    /// Latest score per element over all completed exams: kept and still written for
    /// nodes of earlier versions; read for elements the history does not hold.
    pub element_scores: BTreeMap<String, String>,
    /// Each element's review history (`crate::review`), merged from every finished
    /// session; absent in records written before it was kept.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub element_history: BTreeMap<String, ElementHistory>,
}

/// The user's active session and the node whose device holds it: who a takeover pauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// The active session.
    pub session_id: String,
    /// The node whose device holds it (`None` in records written before nodes were noted).
    pub node: Option<String>,
}

impl UserRecord {
    /// Who holds the user's active session, if anyone.
    pub fn holder(&self) -> Option<Holder> {
        self.active_session.clone().map(|session_id| Holder {
            session_id,
            node: self.active_node.clone(),
        })
    }

    /// Makes `session_id` the active session, held on `node`; returns the previous holder.
    pub fn hold(&mut self, session_id: &str, node: &str) -> Option<Holder> {
        let previous = self.holder();
        self.active_session = Some(session_id.to_owned());
        self.active_node = Some(node.to_owned());
        previous
    }

    /// Clears the active session if it is `session_id` (it has finished); true if it was.
    pub fn release(&mut self, session_id: &str) -> bool {
        let held = self.active_session.as_deref() == Some(session_id);
        if held {
            self.active_session = None;
            self.active_node = None;
        }
        held
    }
}

/// A session listed in a user record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionEntry {
    /// The session id.
    pub session_id: String,
    /// Where it stands; stored as its name (`active`, `paused`, `completed`, `abandoned`).
    #[serde(with = "status_name")]
    pub status: SessionStatus,
    /// An evaluation-mode assessment (no tutor session may start while one is open).
    /// Absent in records written before tutoring, and for every other session.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub evaluation: bool,
    /// Its mode; absent in records written before sessions were listed to their user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<viva_protocol::Mode>,
    /// What it is, for people ("Private pilot oral exam"); absent like `mode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl SessionEntry {
    /// Whether the session is still open: active or paused, not completed or abandoned.
    pub fn is_open(&self) -> bool {
        matches!(self.status, SessionStatus::Active | SessionStatus::Paused)
    }

    /// Whether the session is over: completed or abandoned.
    pub fn is_finished(&self) -> bool {
        !self.is_open()
    }
}

/// A session status stored as its name, the same bytes in JSON and MessagePack as the plain
/// string the record held before it was typed.
mod status_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use viva_protocol::server::SessionStatus;

    const NAMES: [(SessionStatus, &str); 4] = [
        (SessionStatus::Active, "active"),
        (SessionStatus::Paused, "paused"),
        (SessionStatus::Completed, "completed"),
        (SessionStatus::Abandoned, "abandoned"),
    ];

    pub fn serialize<S: Serializer>(status: &SessionStatus, out: S) -> Result<S::Ok, S::Error> {
        let name = NAMES
            .iter()
            .find(|(known, _)| known == status)
            .map_or("active", |(_, name)| name);
        out.serialize_str(name)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<SessionStatus, D::Error> {
        let name = String::deserialize(input)?;
        NAMES
            .iter()
            .find(|(_, known)| *known == name)
            .map(|(status, _)| *status)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown session status {name:?}")))
    }
}

impl UserRecord {
    /// An empty record for a new user.
    pub fn new(user_id: &str) -> UserRecord {
        UserRecord {
            format: USER_RECORD_FORMAT,
            user_id: user_id.to_owned(),
            version: 0,
            active_session: None,
            active_node: None,
            sessions: Vec::new(),
            start_event_ids: Vec::new(),
            element_scores: BTreeMap::new(),
            element_history: BTreeMap::new(),
        }
    }
}

/// The operator's switch for new sessions, as stored once for every node (see
/// `viva_actors::new_sessions`). No record means each node follows its own configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwitchRecord {
    /// Format version.
    pub format: u32,
    /// Whether `session.start` may open new sessions.
    pub accept_new_sessions: bool,
    /// When an operator set it, ms since the Unix epoch.
    pub changed_at_ms: u64,
}

impl SwitchRecord {
    /// The record an operator stores to open (`true`) or stop (`false`) new sessions.
    pub fn new(accept_new_sessions: bool, now_ms: u64) -> SwitchRecord {
        SwitchRecord {
            format: SWITCH_FORMAT,
            accept_new_sessions,
            changed_at_ms: now_ms,
        }
    }
}

/// How a checkpoint is laid out when stored (format 1, unchanged since before the mode's
/// section was tagged): the mode's name under `mode`, and its section under a key of the
/// same name (`"mode": "exam", "exam": {…}`).
/// A checkpoint as written: borrowed, with only the tagged section present.
#[derive(Serialize)]
struct WireOut<'a> {
    format: u32,
    session_id: &'a str,
    user_id: &'a str,
    version: u64,
    created_at_ms: u64,
    updated_at_ms: u64,
    paused_at_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    thinking_pause_ms: Option<u32>,
    seq: u64,
    phase: PhaseName,
    resume_to: Option<PhaseName>,
    mode: Mode,
    #[serde(skip_serializing_if = "Option::is_none")]
    exam: Option<&'a ExamCheckpoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assessment: Option<&'a AssessmentCheckpoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tutor: Option<&'a TutorCheckpoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    one_question: Option<&'a OneQuestionCheckpoint>,
    transcript: &'a [TurnCheckpoint],
    applied_event_ids: &'a [String],
}

/// A checkpoint as read: one optional section per mode, of which the tagged one must be
/// present.
#[derive(Deserialize)]
struct WireIn {
    format: u32,
    session_id: String,
    user_id: String,
    #[serde(default)]
    version: u64,
    created_at_ms: u64,
    updated_at_ms: u64,
    paused_at_ms: Option<u64>,
    #[serde(default)]
    thinking_pause_ms: Option<u32>,
    seq: u64,
    phase: PhaseName,
    resume_to: Option<PhaseName>,
    mode: Mode,
    #[serde(default)]
    exam: Option<ExamCheckpoint>,
    #[serde(default)]
    assessment: Option<AssessmentCheckpoint>,
    #[serde(default)]
    tutor: Option<TutorCheckpoint>,
    #[serde(default)]
    one_question: Option<OneQuestionCheckpoint>,
    transcript: Vec<TurnCheckpoint>,
    applied_event_ids: Vec<String>,
}

impl WireIn {
    /// The tagged section; an error when it is missing.
    fn section(&mut self) -> Result<ModeCheckpoint, String> {
        let section = match self.mode {
            Mode::Exam => self.exam.take().map(|e| ModeCheckpoint::Exam(Box::new(e))),
            Mode::Assessment => {
                let assessment = self.assessment.take();
                assessment.map(|a| ModeCheckpoint::Assessment(Box::new(a)))
            }
            Mode::Tutor => self
                .tutor
                .take()
                .map(|t| ModeCheckpoint::Tutor(Box::new(t))),
            Mode::OneQuestion => self.one_question.take().map(ModeCheckpoint::OneQuestion),
        };
        section.ok_or_else(|| format!("mode {:?} without its state", self.mode.as_str()))
    }
}

impl Serialize for SessionCheckpoint {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let section = &self.state;
        WireOut {
            format: self.format,
            session_id: &self.session_id,
            user_id: &self.user_id,
            version: self.version,
            created_at_ms: self.created_at_ms,
            updated_at_ms: self.updated_at_ms,
            paused_at_ms: self.paused_at_ms,
            thinking_pause_ms: self.thinking_pause_ms,
            seq: self.seq,
            phase: self.phase,
            resume_to: self.resume_to,
            mode: section.mode(),
            exam: match section {
                ModeCheckpoint::Exam(exam) => Some(exam.as_ref()),
                _ => None,
            },
            assessment: match section {
                ModeCheckpoint::Assessment(assessment) => Some(assessment.as_ref()),
                _ => None,
            },
            tutor: match section {
                ModeCheckpoint::Tutor(tutor) => Some(tutor.as_ref()),
                _ => None,
            },
            one_question: match section {
                ModeCheckpoint::OneQuestion(one) => Some(one),
                _ => None,
            },
            transcript: &self.transcript,
            applied_event_ids: &self.applied_event_ids,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SessionCheckpoint {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut wire = WireIn::deserialize(deserializer)?;
        let state = wire.section().map_err(serde::de::Error::custom)?;
        Ok(SessionCheckpoint {
            format: wire.format,
            session_id: wire.session_id,
            user_id: wire.user_id,
            version: wire.version,
            created_at_ms: wire.created_at_ms,
            updated_at_ms: wire.updated_at_ms,
            paused_at_ms: wire.paused_at_ms,
            thinking_pause_ms: wire.thinking_pause_ms,
            seq: wire.seq,
            phase: wire.phase,
            resume_to: wire.resume_to,
            state,
            transcript: wire.transcript,
            applied_event_ids: wire.applied_event_ids,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD_TURN: &str = r#"{"question_id": "q1", "element_code": "PA.I.A.K1",
        "kind": "primary", "question": "Which documents?", "answer": null, "score": null,
        "feedback": null}"#;

    #[test]
    fn session_statuses_are_stored_by_name_and_unknown_names_refused() {
        for (status, name) in [
            (SessionStatus::Active, "active"),
            (SessionStatus::Paused, "paused"),
            (SessionStatus::Completed, "completed"),
            (SessionStatus::Abandoned, "abandoned"),
        ] {
            let entry = SessionEntry {
                session_id: "s1".into(),
                status,
                evaluation: false,
                mode: None,
                title: None,
            };
            let written = serde_json::to_string(&entry).unwrap();
            assert_eq!(
                written,
                format!(r#"{{"session_id":"s1","status":"{name}"}}"#)
            );
            assert_eq!(
                serde_json::from_str::<SessionEntry>(&written).unwrap(),
                entry
            );
            assert_eq!(entry.is_open(), !entry.is_finished());
        }
        let unknown = r#"{"session_id":"s1","status":"running"}"#;
        let err = serde_json::from_str::<SessionEntry>(unknown).unwrap_err();
        assert!(err.to_string().contains("running"), "{err}");
    }

    #[test]
    fn holding_replaces_the_holder_and_releasing_clears_only_its_own_session() {
        let mut record: UserRecord = serde_json::from_value(serde_json::json!({
            "format": 1, "user_id": "u", "active_session": "s0", "sessions": [],
            "start_event_ids": [], "element_scores": {}
        }))
        .unwrap();
        let written_before_nodes = Holder {
            session_id: "s0".into(),
            node: None,
        };
        assert_eq!(record.hold("s1", "n1"), Some(written_before_nodes));
        let previous = record.hold("s2", "n2");
        let expected = Holder {
            session_id: "s1".into(),
            node: Some("n1".into()),
        };
        assert_eq!(previous, Some(expected));
        let cases = [
            ("s1", false, Some("s2")),
            ("s2", true, None),
            ("s2", false, None),
        ];
        for (finished, released, active) in cases {
            assert_eq!(record.release(finished), released, "{finished}");
            assert_eq!(record.holder().map(|h| h.session_id).as_deref(), active);
        }
        assert_eq!(record.active_node, None);
    }

    #[test]
    fn a_record_keeps_its_element_history_and_one_from_before_it_reads_without() {
        let old: UserRecord = serde_json::from_value(serde_json::json!({
            "format": 1, "user_id": "u", "active_session": null, "sessions": [],
            "start_event_ids": [], "element_scores": {"PA.I.A.K1": "partial"}
        }))
        .unwrap();
        assert!(old.element_history.is_empty());
        assert_eq!(old.element_scores["PA.I.A.K1"], "partial");
        let written = serde_json::to_value(&old).unwrap();
        assert!(written.get("element_history").is_none(), "{written}");
        let mut record = old;
        let entry = ElementHistory {
            last_asked_ms: 1_765_000_000_000,
            last_outcome: crate::review::Recall::Satisfactory,
            streak: 1,
            interval_ms: crate::review::DAY_MS,
            due_ms: 1_765_000_000_000 + crate::review::DAY_MS,
        };
        record.element_history.insert("PA.I.A.K1".into(), entry);
        let text = serde_json::to_string(&record).unwrap();
        assert_eq!(serde_json::from_str::<UserRecord>(&text).unwrap(), record);
    }

    #[test]
    fn a_turn_written_before_the_turn_log_still_reads() {
        let turn: TurnCheckpoint = serde_json::from_str(OLD_TURN).unwrap();
        assert!(turn.examiner.is_empty());
    }

    /// An assessment checkpoint as written before untimed assessments: a number deadline.
    const OLD_ASSESSMENT: &str = r#"{"assessment_id": "MATH-FUNDAMENTALS-L1", "learning": false,
        "seed": 9, "deadline_ms": 1700000060000, "current": null, "pending": null, "items": [],
        "result": null}"#;

    #[test]
    fn an_assessment_checkpoint_from_before_untimed_assessments_still_reads() {
        let stored: AssessmentCheckpoint = serde_json::from_str(OLD_ASSESSMENT).unwrap();
        assert_eq!(stored.deadline_ms, Some(1_700_000_060_000));
    }

    #[test]
    fn an_untimed_assessment_checkpoint_round_trips() {
        let mut stored: AssessmentCheckpoint = serde_json::from_str(OLD_ASSESSMENT).unwrap();
        stored.deadline_ms = None;
        let written = serde_json::to_string(&stored).unwrap();
        assert!(written.contains(r#""deadline_ms":null"#), "{written}");
        let read: AssessmentCheckpoint = serde_json::from_str(&written).unwrap();
        assert_eq!(read, stored);
    }

    #[test]
    fn the_turn_log_survives_a_checkpoint() {
        let mut turn: TurnCheckpoint = serde_json::from_str(OLD_TURN).unwrap();
        turn.examiner.push(viva_protocol::result::ExaminerCall {
            call: "assess".into(),
            model: "qwen".into(),
            prompt_hash: "0123456789abcdef".into(),
            latency_ms: 2_100,
            first_token_ms: None,
            prompt_tokens: 600,
            completion_tokens: 80,
            outcome: "fallback".into(),
            fallback_reason: Some("truncated".into()),
        });
        let written = serde_json::to_string(&turn).unwrap();
        let read: TurnCheckpoint = serde_json::from_str(&written).unwrap();
        assert_eq!(read, turn);
    }
}
