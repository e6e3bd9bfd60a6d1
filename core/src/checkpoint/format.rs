//! The checkpoint format, version 1: explicit serde types, separate from the actor state.
//!
//! A checkpoint holds everything needed to rebuild a session exactly: plan, planner cursor,
//! open question, transcript, the last `seq` and the applied `event_id`s. Maps are `BTreeMap`
//! so the encoding is deterministic.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
pub use viva_protocol::Mode;
use viva_protocol::config::ExamConfig;
use viva_protocol::result::{AssessmentResult, ExamResult};
use viva_protocol::server::SessionStatus;

pub use super::sections::{ModeCheckpoint, OneQuestionCheckpoint};

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

/// The exam part of a checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExamCheckpoint {
    /// The `session.start` config.
    pub config: ExamConfig,
    /// The seed used for ordering.
    pub seed: u64,
    /// The plan.
    pub plan: PlanCheckpoint,
    /// The planner.
    pub planner: PlannerCheckpoint,
    /// What follows the last assessment, until it is done.
    pub next_step: Option<NextStepCheckpoint>,
    /// Questions asked so far, follow-ups included.
    pub questions_asked: u32,
    /// Answers committed so far.
    pub answered: u32,
    /// The open question.
    pub open_question: Option<OpenQuestionCheckpoint>,
    /// The graded result, once completed.
    pub result: Option<ExamResult>,
}

/// ExamPlanV1 as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanCheckpoint {
    /// Plan layout version.
    pub version: u32,
    /// Questions planned.
    pub planned_question_count: u32,
    /// Elements asked.
    pub asked_count: u32,
    /// Bonus questions granted.
    pub bonus_used: u32,
    /// Bonus budget.
    pub bonus_max: u32,
    /// Follow-up budget per element.
    pub follow_up_max_per_element: u32,
    /// Whether the next new element is a bonus question.
    pub bonus_pending: bool,
    /// Follow-ups per element.
    pub follow_ups: BTreeMap<String, u32>,
    /// Coverage per element.
    pub coverage: BTreeMap<String, String>,
    /// Latest score per element.
    pub scores: BTreeMap<String, String>,
}

/// PlannerState as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannerCheckpoint {
    /// Planner layout version.
    pub version: u32,
    /// Element codes in order.
    pub queue: Vec<String>,
    /// Next scan position.
    pub cursor: usize,
    /// Recent window, oldest first.
    pub recent: Vec<String>,
    /// Questions per element.
    pub attempts: BTreeMap<String, u32>,
}

/// What follows an assessment, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextStepCheckpoint {
    /// `follow_up`, `primary`, `bonus` or `finish`.
    pub step: String,
    /// The element of a follow-up.
    pub element_code: Option<String>,
    /// Readable terms a follow-up asks about.
    #[serde(default)]
    pub missing_terms: Vec<String>,
}

/// The open question as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenQuestionCheckpoint {
    /// Question id.
    pub question_id: String,
    /// The element asked about.
    pub element_code: String,
    /// `primary`, `follow_up` or `bonus`.
    pub kind: String,
    /// 1-based number.
    pub number: u32,
    /// The words asked.
    pub text: String,
    /// A committed answer not yet assessed.
    pub pending_answer: Option<String>,
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
}

/// The assessment part of a checkpoint, answer keys included (checkpoints never leave the
/// server).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssessmentCheckpoint {
    /// The assessment blueprint.
    pub assessment_id: String,
    /// Learning or evaluation.
    pub learning: bool,
    /// The session seed.
    pub seed: u64,
    /// When the time limit runs out; `None` (written as `null`) for an untimed assessment.
    /// Checkpoints written before untimed assessments existed hold a number, read as `Some`.
    #[serde(default)]
    pub deadline_ms: Option<u64>,
    /// The open item.
    pub current: Option<usize>,
    /// A committed, unjudged answer.
    pub pending: Option<PendingCheckpoint>,
    /// Every slot.
    pub items: Vec<ItemCheckpoint>,
    /// The result, once completed.
    pub result: Option<AssessmentResult>,
}

/// A committed, unjudged answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingCheckpoint {
    /// `text`, `choice` or `skip`.
    pub kind: String,
    /// The text of a text answer.
    pub text: Option<String>,
    /// The index of a choice.
    pub index: Option<u32>,
    /// When it was committed.
    pub at_ms: u64,
}

/// One slot of an assessment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemCheckpoint {
    /// Section.
    pub section_id: String,
    /// Skill.
    pub skill_id: String,
    /// Difficulty.
    pub difficulty: String,
    /// The plan's seed for the slot.
    pub plan_seed: u64,
    /// The generated item, once asked.
    pub item: Option<GeneratedCheckpoint>,
    /// When it was shown.
    pub asked_at_ms: Option<u64>,
    /// The response, once judged.
    pub response: Option<ResponseCheckpoint>,
}

/// A generated item, with its key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneratedCheckpoint {
    /// The seed that generated it.
    pub seed: u64,
    /// Parameters and computed values.
    pub parameters: Vec<(String, String)>,
    /// Stem.
    pub stem: String,
    /// Options.
    pub options: Vec<String>,
    /// The key's index.
    pub answer_index: usize,
    /// The key.
    pub answer: String,
    /// The explanation.
    pub explanation: Option<String>,
    /// The mistake beside each option (absent in checkpoints written before they were
    /// kept: then unknown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub option_mistakes: Vec<Option<String>>,
}

/// A judged response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseCheckpoint {
    /// What was given.
    pub given: Option<String>,
    /// Correct or not.
    pub correct: bool,
    /// Skipped or not.
    pub skipped: bool,
    /// When.
    pub answered_at_ms: u64,
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
    /// Latest score per element over all completed exams, for `weak_areas`.
    pub element_scores: BTreeMap<String, String>,
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
