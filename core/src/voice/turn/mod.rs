//! `SpokenTurns`: the rules of a session's spoken-answer turns, IO-free. The session feeds it
//! what happens (audio, a gap tick, `audio.commit` or `audio.clear`, a takeover, a decode's
//! reply or its refusal by the pool) and performs the [`Action`]s it returns: submit a
//! decode, abort decodes, send a transcript, an error or an ack, answer with a finished
//! turn's words, start or stop the gap ticker.
//!
//! Turns are numbered, so a late reply for an earlier turn is recognised; a preview (a
//! partial, or a pause's speculative decode, see `speculation.rs`) is at most one in flight;
//! a finished turn is decoded once, unless a speculation already decoded the same audio.
//! When a pause begins, the end-of-turn model judges it (see `judging.rs`); the client
//! hears of speech starting and stopping.
//! Decodes are submitted optimistically: a refusal by the pool comes back as
//! [`SpokenTurns::refused`] and undoes what the submission assumed.

use std::collections::VecDeque;
use std::time::Duration;

use super::DecodeKind;
use super::listener::{Heard, Listener};
use super::spoken::Confirmable;

mod actions;
pub mod ending;
mod judging;
mod pending;
mod speculation;

pub use actions::{Action, Decode, Decoded, Final, Frames, Judge, JudgeTicket, Ticket};
use pending::Speculation;

/// How often an open turn checks for a gap in the audio.
pub const TICK: Duration = Duration::from_millis(250);
/// A gap shorter than this is network jitter, not a pause.
pub const GAP_GRACE_MS: u64 = 300;
/// `audio.commit` event ids remembered while their turns are decoded.
pub const COMMITS_REMEMBERED: usize = 8;

/// The spoken turns of one session: its listener and the decodes in flight.
pub struct SpokenTurns {
    listener: Listener,
    /// Numbers turns, so a late reply for an earlier one is recognised.
    turn: u64,
    /// A preview decode (a partial or a pause's speculation) is in flight: one at a time.
    preview_in_flight: bool,
    /// The connection whose audio the open turn is.
    speaker: u64,
    /// When audio last arrived, and how much of the gap since was counted as silence.
    last_audio_ms: u64,
    gap_counted_ms: u64,
    /// The gap ticker runs.
    ticking: bool,
    /// `audio.commit` event ids whose turns are being decoded: a resend waits for the same
    /// answer instead of finding no turn.
    committing: VecDeque<String>,
    /// A reading offered on the last turn, which "yes" records.
    confirming: Option<Confirmable>,
    /// The open turn decoded during a pause, ahead of its end.
    speculation: Option<Speculation>,
    /// A pause's audio that found no room (a preview in flight, or no free thread): tried
    /// again as audio arrives and when the preview lands.
    unsent_speculation: Option<Vec<i16>>,
    /// Speculations started: numbers each, so the reply of one given up is not taken for
    /// a later one of the same turn.
    speculations: u64,
    /// Pauses judged: numbers each, so a verdict that comes after speech resumed is not
    /// taken for a later pause's.
    pauses: u64,
    /// The pause whose verdict is awaited.
    judging: Option<u64>,
}

impl SpokenTurns {
    /// Turns heard by `listener`.
    pub fn new(listener: Listener) -> SpokenTurns {
        SpokenTurns {
            listener,
            turn: 0,
            preview_in_flight: false,
            speaker: 0,
            last_audio_ms: 0,
            gap_counted_ms: 0,
            ticking: false,
            committing: VecDeque::new(),
            confirming: None,
            speculation: None,
            unsent_speculation: None,
            speculations: 0,
            pauses: 0,
            judging: None,
        }
    }

    /// Nothing spoken is under way here: no open turn, no commit being decoded, no reading
    /// waiting for a "yes", no speculation. (Decodes out are the session's to count.)
    pub fn is_quiet(&self) -> bool {
        !self.listener.in_turn()
            && self.committing.is_empty()
            && self.confirming.is_none()
            && self.speculation.is_none()
            && self.unsent_speculation.is_none()
    }

    /// The reading offered on the last turn, taken to decide this one.
    pub fn take_confirming(&mut self) -> Option<Confirmable> {
        self.confirming.take()
    }

    /// Offers a reading the next turn may confirm with "yes".
    pub fn offer_confirming(&mut self, reading: Confirmable) {
        self.confirming = Some(reading);
    }

    /// Audio arrived.
    pub fn audio(&mut self, frames: Frames) -> Vec<Action> {
        let mut out = Vec::new();
        let Some(pause) = frames.thinking_pause else {
            tracing::debug!("audio with no open question; dropped");
            // Nothing to answer (the question is still being asked, or was answered).
            self.listener.clear();
            return out;
        };
        let (connection_id, question) = (frames.connection_id, &frames.question_id);
        self.listener.set_thinking_pause(pause);
        self.speaker = connection_id;
        self.last_audio_ms = frames.now_ms;
        self.gap_counted_ms = 0;
        let was_in_turn = self.listener.in_turn();
        let heard = self.listener.feed(&frames.samples);
        if !was_in_turn && self.listener.in_turn() {
            self.speech_started(question, &mut out);
        }
        tracing::trace!(samples = frames.samples.len(), ?heard, "audio heard");
        self.on_heard(heard, connection_id, question, &mut out);
        self.retry_speculation(connection_id, question, &mut out);
        if self.listener.in_turn() && !self.ticking {
            self.ticking = true;
            out.push(Action::StartTicker);
        }
        out
    }

    /// The gap ticker: the time since audio last arrived counts as silence, so a client that
    /// stops sending still gets its turn ended.
    pub fn tick(&mut self, now_ms: u64, question_id: Option<String>) -> Vec<Action> {
        let mut out = Vec::new();
        if !self.listener.in_turn() {
            self.stop_ticker(&mut out);
            return out;
        }
        let gap = now_ms.saturating_sub(self.last_audio_ms);
        if gap < GAP_GRACE_MS {
            return out;
        }
        let uncounted = gap.saturating_sub(self.gap_counted_ms);
        self.gap_counted_ms = gap;
        let heard = self.listener.note_gap(Duration::from_millis(uncounted));
        if matches!(heard, Some(Heard::TurnEnded(_))) {
            tracing::debug!(
                gap_ms = gap,
                "no audio arrived for the thinking pause; turn ended"
            );
        }
        let speaker = self.speaker;
        self.on_heard(heard.into_iter().collect(), speaker, &question_id, &mut out);
        out
    }

    /// `audio.commit`: ends the turn now.
    pub fn commit(
        &mut self,
        connection_id: u64,
        event_id: Option<String>,
        question_id: Option<String>,
    ) -> Vec<Action> {
        let mut out = Vec::new();
        if let Some(id) = &event_id
            && self.committing.contains(id)
        {
            // A resend while its turn is still being decoded: the answer's ack will come.
            tracing::debug!("audio.commit resent while its turn is decoded");
            return out;
        }
        match self.listener.commit() {
            Some(audio) => self.end_turn(audio, (connection_id, event_id), &question_id, &mut out),
            None => out.push(pending::no_speech(event_id)),
        }
        out
    }

    /// `audio.clear`: forgets the turn so far.
    pub fn clear(&mut self, event_id: Option<String>) -> Vec<Action> {
        let mut out = Vec::new();
        self.listener.clear();
        self.next_turn(&mut out);
        out.push(Action::Ack(event_id));
        out
    }

    /// A device took the session over: the turn the previous one was speaking is dropped,
    /// and so is a reading it was offered to confirm.
    pub fn take_over(&mut self) -> Vec<Action> {
        let mut out = Vec::new();
        self.drop_speculation(&mut out);
        self.listener.clear();
        self.next_turn(&mut out);
        self.stop_ticker(&mut out);
        self.confirming = None;
        out
    }

    /// A decode's reply. `whole_answer_pause` reads a pause's transcript: the pause that
    /// ends the turn when its words are a whole answer (`super::complete`), or `None`.
    pub fn decoded(
        &mut self,
        reply: Decoded,
        question_id: Option<String>,
        whole_answer_pause: impl FnOnce(&str) -> Option<Duration>,
    ) -> Vec<Action> {
        let mut out = Vec::new();
        match reply.ticket.kind {
            DecodeKind::Partial => self.on_partial(reply, &question_id, &mut out),
            DecodeKind::Final => self.finish(reply, &mut out),
            DecodeKind::Speculative => {
                self.on_speculated(reply, &question_id, whole_answer_pause, &mut out)
            }
        }
        out
    }

    /// The pool refused a [`Decode`] this returned: a preview makes room for the next; a
    /// final is refused to the candidate.
    pub fn refused(&mut self, ticket: Ticket, question_id: Option<String>) -> Vec<Action> {
        let mut out = Vec::new();
        let open = ticket.turn == self.turn;
        match ticket.kind {
            DecodeKind::Partial if open => {
                self.preview_in_flight = false;
                self.retry_speculation(ticket.connection_id, &question_id, &mut out);
            }
            DecodeKind::Partial => {}
            DecodeKind::Speculative => {
                if open {
                    self.preview_in_flight = false;
                }
                self.speculation_refused(&ticket, &question_id, &mut out);
            }
            DecodeKind::Final => self.final_refused(ticket, &mut out),
        }
        out
    }

    fn on_heard(
        &mut self,
        heard: Vec<Heard>,
        connection_id: u64,
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) {
        for heard in heard {
            match heard {
                Heard::PartialDue => self.decode_partial(connection_id, question, out),
                Heard::SilenceBegan(audio) => {
                    self.judge_pause(&audio, question, out);
                    self.speculate(audio, connection_id, question, out);
                }
                Heard::SpeechResumed => {
                    self.speech_started(question, out);
                    self.demote_speculation();
                }
                Heard::TurnEnded(audio) => {
                    self.end_turn(audio, (connection_id, None), question, out)
                }
            }
        }
    }

    /// A ticket for a decode of `turn`.
    fn ticket(
        &self,
        kind: DecodeKind,
        (connection_id, turn): (u64, u64),
        event_id: Option<String>,
        question: &Option<String>,
    ) -> Ticket {
        Ticket {
            kind,
            turn,
            speculation: self.speculations,
            connection_id,
            event_id,
            question_id: question.clone(),
        }
    }

    fn decode_partial(
        &mut self,
        connection_id: u64,
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) {
        if self.preview_in_flight {
            return;
        }
        let audio = self.listener.heard_so_far();
        let ticket = self.ticket(
            DecodeKind::Partial,
            (connection_id, self.turn),
            None,
            question,
        );
        out.push(Action::Decode(Decode { ticket, audio }));
        self.preview_in_flight = true;
    }

    fn on_partial(&mut self, reply: Decoded, question: &Option<String>, out: &mut Vec<Action>) {
        if reply.ticket.turn != self.turn {
            return;
        }
        self.preview_in_flight = false;
        self.show_preview(&reply, out);
        self.retry_speculation(reply.ticket.connection_id, question, out);
    }

    /// A preview of the open turn (a partial, or a pause's decode): shown, and heard for a
    /// trailing filler that lengthens the pause.
    fn show_preview(&mut self, reply: &Decoded, out: &mut Vec<Action>) {
        let Ok(text) = &reply.result else { return };
        if reply.ticket.turn != self.turn {
            return;
        }
        self.listener.note_partial(text);
        if !text.is_empty() {
            out.push(Action::Partial {
                question_id: reply.ticket.question_id.clone(),
                turn: reply.ticket.turn,
                text: text.clone(),
            });
        }
    }
}

#[cfg(test)]
mod tests;
