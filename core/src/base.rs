//! The words every layer of a session shares, below them all: [`Refusal`], the one way a
//! command is turned down; [`AnswerInput`] and [`ModeInput`], what a candidate gives a mode;
//! [`Listening`], what the open question expects to hear. The session seam, each mode, the
//! tutor's brain and the voice turn import these from here, never from one another.

use viva_protocol::ErrorCode;
use viva_protocol::client::ClientEvent;

use crate::exam::acs::Rating;

/// A refusal of a client command; becomes an `error` event and changes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The stable code.
    pub code: ErrorCode,
    /// What was wrong.
    pub message: String,
}

impl Refusal {
    /// A refusal with this code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

/// What the candidate gave for the open question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerInput {
    /// `answer.text`, or a spoken answer's transcript; normalised before judging.
    Text(String),
    /// `answer.choice`.
    Choice(u32),
    /// `answer.skip`.
    Skip,
}

/// Everything a client gives a session's mode: an answer, or one of the mode's own events
/// (a tutor's `tutor.*` cards), passed as the client sent it for the mode to read. A mode
/// refuses what it does not take (`wrong_mode`, `invalid_answer`).
#[derive(Debug, Clone, PartialEq)]
pub enum ModeInput {
    /// An answer to the open question.
    Answer(AnswerInput),
    /// A client event the session layer does not handle itself.
    Event(ClientEvent),
}

/// The open question, as the listener needs it.
#[derive(Debug, Clone)]
pub enum Listening<'a> {
    /// A free spoken answer about an ACS element.
    Exam {
        /// `q<number>`.
        question_id: &'a str,
        /// The words asked.
        question: &'a str,
        /// The element asked about.
        element_code: &'a str,
        /// The catalog's rating.
        rating: Rating,
    },
    /// A generated item.
    Item {
        /// `i<number>`.
        question_id: String,
        /// The generated item (its key never leaves the server).
        item: &'a viva_blueprint::generate::Item,
    },
}

impl Listening<'_> {
    /// The question's id.
    pub fn question_id(&self) -> String {
        match self {
            Listening::Exam { question_id, .. } => (*question_id).to_owned(),
            Listening::Item { question_id, .. } => question_id.clone(),
        }
    }
}
