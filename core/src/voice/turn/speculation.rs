//! Speculative finals: when the listener hears a pause begin inside a turn, the turn's
//! audio as it would end is decoded at once, in the preview lane (below every session's
//! finals). If the pause runs out with no new speech, the turn ends with that same audio and
//! the decode already done, or under way, is its final: no decode after the turn ends.
//! Speech after the pause makes it a mere preview (shown as a partial when it lands); a
//! decode that was dropped or preempted is worth nothing, and the turn's end then decodes
//! as before. It is the session's one preview decode in flight: while a partial runs, the
//! pause's audio waits, and is sent when the partial lands. A decode that lands during the
//! pause and reads as a whole answer (`viva_core::voice::complete`) lets the turn end after
//! the short pause instead of the thinking pause.

use std::time::Duration;

use super::SpokenTurns;
use super::actions::{Action, Decode, Decoded, Ticket};
use super::pending::{Ended, Speculation};
use crate::voice::DecodeKind;

impl SpokenTurns {
    /// A pause began: decodes the turn as it would end, replacing an earlier speculation.
    /// It takes the session's one preview decode: while one is in flight the audio waits for
    /// [`SpokenTurns::retry_speculation`].
    pub(super) fn speculate(
        &mut self,
        audio: Vec<i16>,
        connection_id: u64,
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) {
        self.drop_speculation(out);
        if self.preview_in_flight {
            self.unsent_speculation = Some(audio);
            return;
        }
        self.speculations += 1;
        let turn = (connection_id, self.turn);
        let ticket = self.ticket(DecodeKind::Speculative, turn, None, question);
        out.push(Action::Decode(Decode {
            ticket,
            audio: audio.clone(),
        }));
        self.preview_in_flight = true;
        self.speculation = Some(Speculation {
            audio,
            turn: self.turn,
            number: self.speculations,
            result: None,
            awaited_by: None,
        });
    }

    /// Submits a pause's audio that found no room, if its pause still holds.
    pub(super) fn retry_speculation(
        &mut self,
        connection_id: u64,
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) {
        if let Some(audio) = self.unsent_speculation.take() {
            self.speculate(audio, connection_id, question, out);
        }
    }

    /// Speech resumed: the pause's audio is not the turn's end. A decode under way goes on
    /// as a preview (shown as a partial when it lands); one not yet sent is forgotten.
    pub(super) fn demote_speculation(&mut self) {
        self.unsent_speculation = None;
        self.speculation = None;
    }

    /// The turn was taken over or ended with other audio: the speculation is worthless and
    /// its decode is stopped.
    pub(super) fn drop_speculation(&mut self, out: &mut Vec<Action>) {
        self.unsent_speculation = None;
        if self.speculation.take().is_some() {
            out.push(Action::AbortSpeculation);
        }
    }

    /// The turn ended with `audio`: uses the speculation that decoded the same audio.
    pub(super) fn end_with_speculation(
        &mut self,
        audio: &[i16],
        (connection_id, event_id): (u64, Option<String>),
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) -> Ended {
        let turn = self.turn;
        let matches = |s: &&mut Speculation| s.turn == turn && s.audio == audio;
        let Some(speculation) = self.speculation.as_mut().filter(matches) else {
            self.drop_speculation(out);
            return Ended::Decode;
        };
        match speculation.result.take() {
            Some(Ok(text)) => {
                let ticket = Ticket {
                    kind: DecodeKind::Final,
                    turn: speculation.turn,
                    speculation: 0,
                    connection_id,
                    event_id,
                    question_id: question.clone(),
                };
                self.speculation = None;
                Ended::Ready(Decoded {
                    ticket,
                    result: Ok(text),
                })
            }
            Some(Err(_)) => {
                self.speculation = None;
                Ended::Decode
            }
            None => {
                speculation.awaited_by = Some((connection_id, event_id));
                Ended::Awaited
            }
        }
    }

    /// The speculative decode finished: kept for the turn's end, or, when the turn already
    /// ended with its audio, handled as that turn's final (decoded again if it failed).
    pub(super) fn on_speculated(
        &mut self,
        reply: Decoded,
        question: &Option<String>,
        whole_answer_pause: impl FnOnce(&str) -> Option<Duration>,
        out: &mut Vec<Action>,
    ) {
        if reply.ticket.turn == self.turn {
            self.preview_in_flight = false;
        }
        let current = |s: &&mut Speculation| s.is(&reply.ticket);
        let Some(speculation) = self.speculation.as_mut().filter(current) else {
            // Speech resumed after its pause: a preview of the turn so far.
            self.show_preview(&reply, out);
            self.retry_speculation(reply.ticket.connection_id, question, out);
            return;
        };
        let Some(awaited_by) = speculation.awaited_by.take() else {
            return self.keep_speculated(reply, question, whole_answer_pause, out);
        };
        let Some(speculation) = self.speculation.take() else {
            return;
        };
        if reply.result.is_err() {
            // Dropped or preempted while the turn's end waited for it: decode it now.
            return self.decode_ended_turn(speculation.audio, awaited_by, question, out);
        }
        let (connection_id, event_id) = awaited_by;
        let ticket = Ticket {
            connection_id,
            kind: DecodeKind::Final,
            event_id,
            ..reply.ticket
        };
        self.finish(
            Decoded {
                ticket,
                result: reply.result,
            },
            out,
        );
    }

    /// The pause's decode landed before the turn ended: kept for the end, shown as the
    /// turn's newest partial, heard for a trailing filler, and read for a whole answer that
    /// may end the turn early.
    fn keep_speculated(
        &mut self,
        reply: Decoded,
        question: &Option<String>,
        whole_answer_pause: impl FnOnce(&str) -> Option<Duration>,
        out: &mut Vec<Action>,
    ) {
        self.show_preview(&reply, out);
        let whole = reply
            .result
            .as_ref()
            .ok()
            .and_then(|t| whole_answer_pause(t));
        let connection_id = reply.ticket.connection_id;
        if let Some(speculation) = &mut self.speculation {
            speculation.result = Some(reply.result);
        }
        if let Some(pause) = whole {
            // The turn's words so far are a whole answer: it ends once the pause is this long.
            out.push(Action::CountWholeAnswerPause);
            let ended = self.listener.end_early_after(pause);
            self.on_heard(ended.into_iter().collect(), connection_id, question, out);
        }
    }

    /// The pool refused the speculative decode `ticket`: its audio waits for room, or, when
    /// the turn already ended with it, is decoded as the final.
    pub(super) fn speculation_refused(
        &mut self,
        ticket: &Ticket,
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) {
        if !self.speculation.as_ref().is_some_and(|s| s.is(ticket)) {
            return;
        }
        let Some(speculation) = self.speculation.take() else {
            return;
        };
        match speculation.awaited_by {
            Some(awaited_by) => {
                self.decode_ended_turn(speculation.audio, awaited_by, question, out)
            }
            None => self.unsent_speculation = Some(speculation.audio),
        }
    }
}
