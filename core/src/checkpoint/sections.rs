//! `ModeCheckpoint`: each mode's section of a session checkpoint, tagged with its mode, and
//! how a checkpoint is laid out when stored. The one place a mode's stored form is named:
//! stores encode a [`SessionCheckpoint`] whole and never look inside its section.
//!
//! Stored layout (format 1, unchanged since before the tag existed): the mode's name under
//! `mode`, and its section under a key of the same name (`"mode": "exam", "exam": {…}`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use viva_protocol::Mode;

use super::format::{
    AssessmentCheckpoint, ExamCheckpoint, PhaseName, SessionCheckpoint, TurnCheckpoint,
};
use super::tutor_format::TutorCheckpoint;

/// A mode's own section of its session's checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub enum ModeCheckpoint {
    /// An ACS oral exam.
    Exam(Box<ExamCheckpoint>),
    /// A blueprint assessment.
    Assessment(Box<AssessmentCheckpoint>),
    /// A tutoring session.
    Tutor(Box<TutorCheckpoint>),
    /// A one-question check.
    OneQuestion(OneQuestionCheckpoint),
}

impl ModeCheckpoint {
    /// The mode this section belongs to.
    pub fn mode(&self) -> Mode {
        match self {
            ModeCheckpoint::Exam(_) => Mode::Exam,
            ModeCheckpoint::Assessment(_) => Mode::Assessment,
            ModeCheckpoint::Tutor(_) => Mode::Tutor,
            ModeCheckpoint::OneQuestion(_) => Mode::OneQuestion,
        }
    }
}

/// The one-question check's section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OneQuestionCheckpoint {
    /// The words asked.
    pub question: String,
    /// Whether the question is asked.
    pub asked: bool,
    /// The answer, once given.
    pub answer: Option<String>,
    /// Whether the check completed.
    #[serde(default)]
    pub completed: bool,
}

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
