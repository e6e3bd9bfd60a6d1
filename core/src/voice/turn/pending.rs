//! What a turn holds while it is decoded: the speculation (a decode of the turn as it would
//! end, made during a pause), what the turn's end does with it, and the error of a turn with
//! no speech. Shared by the turn's ending and its speculation, and importing neither.

use viva_protocol::ErrorCode;

use super::actions::{Action, Decoded, Ticket};
use crate::voice::DecodeError;

const NO_SPEECH: &str = "no speech was heard in this turn; nothing was answered";

/// A decode of the turn's audio during a pause.
pub(super) struct Speculation {
    /// The audio decoded: the turn as it would end.
    pub(super) audio: Vec<i16>,
    /// The turn it belongs to.
    pub(super) turn: u64,
    /// Its number among the session's speculations.
    pub(super) number: u64,
    /// Its text, once decoded.
    pub(super) result: Option<Result<String, DecodeError>>,
    /// The turn ended with this audio and waits for this decode: the connection and the
    /// `audio.commit` event id the final answers.
    pub(super) awaited_by: Option<(u64, Option<String>)>,
}

/// What the turn's end does with the speculation.
pub(super) enum Ended {
    /// Its text is ready: this final, to handle now.
    Ready(Decoded),
    /// It is being decoded: its reply becomes the final.
    Awaited,
    /// None matches the turn's audio: decode it.
    Decode,
}

impl Speculation {
    pub(super) fn is(&self, ticket: &Ticket) -> bool {
        self.turn == ticket.turn && self.number == ticket.speculation
    }
}

pub(super) fn no_speech(event_id: Option<String>) -> Action {
    Action::Error {
        code: ErrorCode::NoSpeech,
        message: NO_SPEECH,
        event_id,
    }
}
