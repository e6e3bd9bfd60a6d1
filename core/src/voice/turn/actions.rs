//! What goes in and out of [`SpokenTurns`](super::SpokenTurns): the tickets that travel with decodes, the
//! replies, the audio frames, and the actions the session performs.

use std::time::Duration;

use viva_protocol::ErrorCode;

use crate::voice::end_of_turn::EndOfTurn;
use crate::voice::{DecodeError, DecodeKind};

/// Which decode a job is: the session puts it in the job and gets it back with the reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    /// Final, partial or speculative.
    pub kind: DecodeKind,
    /// The turn whose audio it is.
    pub turn: u64,
    /// The session's speculations started when it was made: for a speculative decode, its
    /// number.
    pub speculation: u64,
    /// The connection whose audio it is: only that device may have it answered.
    pub connection_id: u64,
    /// The `audio.commit` that ended the turn, if one did.
    pub event_id: Option<String>,
    /// The question open when it was made.
    pub question_id: Option<String>,
}

/// A decode to submit to the speech pool; if the pool refuses it, tell
/// [`SpokenTurns::refused`](super::SpokenTurns::refused). A partial stops with its turn ([`Action::AbortPartials`]), a
/// speculative decode on [`Action::AbortSpeculation`], a final never.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decode {
    /// What comes back with the reply.
    pub ticket: Ticket,
    /// PCM16 mono 16 kHz.
    pub audio: Vec<i16>,
}

/// A decode's reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The decode it answers.
    pub ticket: Ticket,
    /// Its text.
    pub result: Result<String, DecodeError>,
}

/// The words of a finished turn, to answer with (after the admission guard).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Final {
    /// The connection that spoke.
    pub connection_id: u64,
    /// The turn.
    pub turn: u64,
    /// The `audio.commit` that ended it, if one did.
    pub event_id: Option<String>,
    /// The question open when it was heard; `None` checks none.
    pub question_id: Option<String>,
    /// The spoken text, annotations removed.
    pub text: String,
}

/// Which pause a judgement is of: the session puts it in the job and gets it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgeTicket {
    /// The turn.
    pub turn: u64,
    /// The pause's number among the session's pauses.
    pub pause: u64,
    /// The question open when the pause began.
    pub question_id: Option<String>,
}

/// A pause to judge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judge {
    /// What comes back with the verdict.
    pub ticket: JudgeTicket,
    /// The turn's audio up to the pause, PCM16 mono 16 kHz.
    pub audio: Vec<i16>,
}

/// What the session does, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Submit this decode.
    Decode(Decode),
    /// Stop the partial decodes of the turn that just closed.
    AbortPartials,
    /// Stop the speculative decode last submitted.
    AbortSpeculation,
    /// Send a `transcript.partial`.
    Partial {
        /// The question it answers.
        question_id: Option<String>,
        /// The turn.
        turn: u64,
        /// The words so far.
        text: String,
    },
    /// Answer with a finished turn's words.
    Answer(Final),
    /// Send an error.
    Error {
        /// Its code.
        code: ErrorCode,
        /// What to tell the candidate.
        message: &'static str,
        /// The event it answers.
        event_id: Option<String>,
    },
    /// Acknowledge an event.
    Ack(Option<String>),
    /// Start the gap ticker: [`SpokenTurns::tick`](super::SpokenTurns::tick) every [`TICK`](super::TICK).
    StartTicker,
    /// Stop the gap ticker.
    StopTicker,
    /// Count a turn ended early because its words read as a whole answer.
    CountWholeAnswerPause,
    /// Have this pause judged by the end-of-turn model, and tell
    /// [`SpokenTurns::judged`](super::SpokenTurns::judged) the verdict
    /// ([`EndOfTurn::Unjudged`] when there is no model, or it is busy or failed).
    Judge(Judge),
    /// Count a turn ended early because the end-of-turn model found it complete.
    CountModelEndOfTurn,
    /// Send a `speech.started`: the candidate began speaking, or spoke again after a pause.
    SpeechStarted {
        /// The open question.
        question_id: Option<String>,
        /// The turn.
        turn: u64,
    },
    /// Send a `speech.stopped`: a pause began and was judged.
    SpeechStopped {
        /// The open question.
        question_id: Option<String>,
        /// The turn.
        turn: u64,
        /// How long a pause, counted from the end of speech, now ends the turn.
        wait_ms: u64,
        /// The model's verdict.
        end_of_turn: EndOfTurn,
    },
}

/// Audio frames from the attached connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frames {
    /// The sending connection.
    pub connection_id: u64,
    /// PCM16 mono 16 kHz.
    pub samples: Vec<i16>,
    /// When they arrived, in ms.
    pub now_ms: u64,
    /// The open question's thinking pause; `None` when no question is open (nothing is
    /// heard, and the turn so far is forgotten).
    pub thinking_pause: Option<Duration>,
    /// The open question.
    pub question_id: Option<String>,
}
