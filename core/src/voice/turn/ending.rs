//! How a turn ends: its number moves on, its commit is remembered while it is decoded, and
//! its final transcript becomes an answer, an error or nothing.

use viva_protocol::ErrorCode;

use super::actions::{Action, Decode, Decoded, Final, Ticket};
use super::pending::{Ended, no_speech};
use super::{COMMITS_REMEMBERED, SpokenTurns};
use crate::voice::listener::spoken_text;
use crate::voice::{DecodeError, DecodeKind};

const NOT_TRANSCRIBED: &str = "the answer could not be transcribed; say it again";
const TOO_BUSY: &str = "the server is too busy to transcribe this answer; say it again";

impl SpokenTurns {
    /// The turn ended with `audio` (by its pause, or a commit `event_id`): answered with the
    /// speculation that decoded the same audio, or decoded now.
    pub(super) fn end_turn(
        &mut self,
        audio: Vec<i16>,
        (connection_id, event_id): (u64, Option<String>),
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) {
        let ended =
            self.end_with_speculation(&audio, (connection_id, event_id.clone()), question, out);
        self.close_turn(event_id.as_ref(), out);
        match ended {
            Ended::Ready(last) => self.finish(last, out),
            Ended::Awaited => {}
            Ended::Decode => {
                self.decode_ended_turn(audio, (connection_id, event_id), question, out)
            }
        }
    }

    /// The turn is over: the next audio is a new turn, and a commit's event id is kept
    /// until its transcript is handled.
    pub(super) fn close_turn(&mut self, event_id: Option<&String>, out: &mut Vec<Action>) {
        self.unsent_speculation = None;
        self.next_turn(out);
        self.stop_ticker(out);
        if let Some(id) = event_id {
            self.committing.push_back(id.clone());
            while self.committing.len() > COMMITS_REMEMBERED {
                self.committing.pop_front();
            }
        }
    }

    pub(super) fn next_turn(&mut self, out: &mut Vec<Action>) {
        out.push(Action::AbortPartials);
        self.turn += 1;
        self.preview_in_flight = false;
    }

    pub(super) fn stop_ticker(&mut self, out: &mut Vec<Action>) {
        if self.ticking {
            self.ticking = false;
            out.push(Action::StopTicker);
        }
    }

    /// Decodes the turn that just ended (its number is the one before the open turn's).
    pub(super) fn decode_ended_turn(
        &mut self,
        audio: Vec<i16>,
        (connection_id, event_id): (u64, Option<String>),
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) {
        let ended = (connection_id, self.turn.saturating_sub(1));
        let ticket = self.ticket(DecodeKind::Final, ended, event_id, question);
        out.push(Action::Decode(Decode { ticket, audio }));
    }

    /// The commit's turn is transcribed (or refused): a resend is a new commit again.
    pub(super) fn forget_commit(&mut self, event_id: Option<&str>) {
        if let Some(id) = event_id {
            self.committing.retain(|committing| committing != id);
        }
    }

    /// The pool refused a turn's final decode: the server is overloaded, and a resent
    /// commit is a new commit again.
    pub(super) fn final_refused(&mut self, ticket: Ticket, out: &mut Vec<Action>) {
        self.forget_commit(ticket.event_id.as_deref());
        out.push(Action::Error {
            code: ErrorCode::Overloaded,
            message: TOO_BUSY,
            event_id: ticket.event_id,
        });
    }

    /// A turn's final transcript: its commit is answered, and its words become the answer.
    pub(super) fn finish(&mut self, reply: Decoded, out: &mut Vec<Action>) {
        self.forget_commit(reply.ticket.event_id.as_deref());
        out.extend(finished(reply));
    }
}

/// What a final transcript comes to: an answer, an error (the decode failed, or no speech
/// was heard in a committed turn), or nothing (the decode was aborted, or a turn that ended
/// by its pause held no words).
pub fn finished(reply: Decoded) -> Option<Action> {
    let Ticket {
        connection_id,
        turn,
        event_id,
        question_id,
        ..
    } = reply.ticket;
    let text = match &reply.result {
        Ok(text) => spoken_text(text),
        Err(DecodeError::Aborted) => return None,
        Err(DecodeError::Failed(reason)) => {
            tracing::error!(%reason, "speech decoding failed");
            return Some(Action::Error {
                code: ErrorCode::Internal,
                message: NOT_TRANSCRIBED,
                event_id,
            });
        }
    };
    let Some(text) = text else {
        return event_id.is_some().then(|| no_speech(event_id));
    };
    Some(Action::Answer(Final {
        connection_id,
        turn,
        event_id,
        question_id,
        text,
    }))
}
