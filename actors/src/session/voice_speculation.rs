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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kameo::message::Context;
use viva_core::base::Listening;
use viva_core::examiner::EmbeddedExaminer;
use viva_core::voice::complete::answer_is_complete;
use viva_core::voice::{DecodeError, DecodeKind};

use super::LiveSession;
use super::voice::Transcribed;

/// A decode of the turn's audio during a pause.
pub(super) struct Speculation {
    /// The audio decoded: the turn as it would end.
    audio: Vec<i16>,
    /// The turn it belongs to.
    turn: u64,
    /// Its number among the session's speculations.
    number: u64,
    /// Stops the decode when speech resumes.
    abort: Arc<AtomicBool>,
    /// Its text, once decoded.
    result: Option<Result<String, DecodeError>>,
    /// The turn ended with this audio and waits for this decode: the connection and the
    /// `audio.commit` event id the final answers.
    awaited_by: Option<(u64, Option<String>)>,
}

/// What the turn's end does with the speculation.
pub(super) enum Ended {
    /// Its text is ready: this final, to handle now.
    Ready(Transcribed),
    /// It is being decoded: its reply becomes the final.
    Awaited,
    /// None matches the turn's audio: decode it.
    Decode,
}

impl LiveSession {
    /// A pause began: decodes the turn as it would end, replacing an earlier speculation.
    /// It takes the session's one preview decode: while a partial is in flight, or the pool
    /// has no thread for it, the audio waits for [`LiveSession::retry_speculation`].
    pub(super) fn speculate(&mut self, audio: Vec<i16>, connection_id: u64) {
        self.drop_speculation();
        let Some(speech) = self.deps.speech.clone() else {
            return;
        };
        let Some(voice) = &mut self.voice else { return };
        if voice.preview_in_flight {
            voice.unsent_speculation = Some(audio);
            return;
        }
        voice.speculations += 1;
        let number = voice.speculations;
        let Some(job) = self.job(audio.clone(), DecodeKind::Speculative, connection_id, None)
        else {
            return;
        };
        // A speculative job has an abort flag of its own (see `job`): the turn ending with
        // other audio, or a takeover, stops it.
        let abort = job.abort.clone();
        let Some(voice) = &mut self.voice else { return };
        let turn = voice.turn;
        if speech.submit(job).is_err() {
            voice.unsent_speculation = Some(audio);
            return;
        }
        voice.preview_in_flight = true;
        voice.speculation = Some(Speculation {
            audio,
            turn,
            number,
            abort,
            result: None,
            awaited_by: None,
        });
    }

    /// Submits a pause's audio that found no room, if its pause still holds.
    pub(super) fn retry_speculation(&mut self, connection_id: u64) {
        let unsent = self
            .voice
            .as_mut()
            .and_then(|v| v.unsent_speculation.take());
        if let Some(audio) = unsent {
            self.speculate(audio, connection_id);
        }
    }

    /// Speech resumed: the pause's audio is not the turn's end. A decode under way goes on
    /// as a preview (shown as a partial when it lands); one not yet sent is forgotten.
    pub(super) fn demote_speculation(&mut self) {
        if let Some(voice) = &mut self.voice {
            voice.unsent_speculation = None;
            voice.speculation = None;
        }
    }

    /// The turn was cleared, taken over or ended with other audio: the speculation is
    /// worthless and its decode is stopped.
    pub(super) fn drop_speculation(&mut self) {
        let Some(voice) = &mut self.voice else { return };
        voice.unsent_speculation = None;
        if let Some(speculation) = voice.speculation.take() {
            speculation.abort.store(true, Ordering::Relaxed);
        }
    }

    /// The turn ended with `audio`: uses the speculation that decoded the same audio.
    pub(super) fn end_with_speculation(
        &mut self,
        audio: &[i16],
        connection_id: u64,
        event_id: Option<String>,
    ) -> Ended {
        let question_id = self.state.open_question_id();
        let Some(voice) = &mut self.voice else {
            return Ended::Decode;
        };
        let matches = voice
            .speculation
            .as_ref()
            .is_some_and(|s| s.turn == voice.turn && s.audio == audio);
        if !matches {
            self.drop_speculation();
            return Ended::Decode;
        }
        let Some(speculation) = voice.speculation.as_mut() else {
            return Ended::Decode;
        };
        match speculation.result.take() {
            Some(Ok(text)) => {
                let turn = speculation.turn;
                voice.speculation = None;
                Ended::Ready(Transcribed {
                    connection_id,
                    turn,
                    kind: DecodeKind::Final,
                    event_id,
                    question_id,
                    speculation: 0,
                    result: Ok(text),
                    _hold: Some(voice.decodes.clone()),
                })
            }
            Some(Err(_)) => {
                voice.speculation = None;
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
    pub(super) async fn on_speculated(&mut self, msg: Transcribed, ctx: &mut Context<Self, ()>) {
        let Some(voice) = &mut self.voice else { return };
        if msg.turn == voice.turn {
            voice.preview_in_flight = false;
        }
        let current = |s: &&mut Speculation| s.turn == msg.turn && s.number == msg.speculation;
        let Some(speculation) = voice.speculation.as_mut().filter(current) else {
            // Speech resumed after its pause: a preview of the turn so far.
            self.show_preview(&msg);
            self.retry_speculation(msg.connection_id);
            return;
        };
        let Some((connection_id, event_id)) = speculation.awaited_by.take() else {
            return self.keep_speculated(msg);
        };
        let Some(speculation) = voice.speculation.take() else {
            return;
        };
        if msg.result.is_err() {
            // Dropped or preempted while the turn's end waited for it: decode it now.
            self.decode_ended_turn(speculation.audio, connection_id, event_id);
            return;
        }
        let last = Transcribed {
            connection_id,
            kind: DecodeKind::Final,
            event_id,
            ..msg
        };
        self.on_final(last, ctx).await;
    }

    /// The pause's decode landed before the turn ended: kept for the end, shown as the
    /// turn's newest partial, heard for a trailing filler, and read for a whole answer that
    /// may end the turn early.
    fn keep_speculated(&mut self, msg: Transcribed) {
        self.show_preview(&msg);
        let whole = msg
            .result
            .as_ref()
            .ok()
            .and_then(|text| self.whole_answer_pause(text));
        let connection_id = msg.connection_id;
        if let Some(speculation) = self.voice.as_mut().and_then(|v| v.speculation.as_mut()) {
            speculation.result = Some(msg.result);
        }
        if let Some(pause) = whole {
            self.end_turn_early(pause, connection_id);
        }
    }

    /// The pause that ends the turn now that its words read as a whole answer to the open
    /// question (`viva_core::voice::complete`); `None` when they do not, or when the server
    /// waits out the thinking pause for this kind of question.
    fn whole_answer_pause(&self, text: &str) -> Option<Duration> {
        let open = self.state.open_listening()?;
        let is_exam = matches!(open, Listening::Exam { .. });
        let pause = self.deps.turns.complete_answer_pause_for(is_exam)?;
        let examiner = EmbeddedExaminer::new(self.deps.modes.acs.clone());
        answer_is_complete(text, &open, &examiner).then_some(pause)
    }

    /// The turn's words so far are a whole answer: it ends once the pause is `pause` long.
    fn end_turn_early(&mut self, pause: Duration, connection_id: u64) {
        self.deps.metrics.whole_answer_pauses.inc();
        let Some(voice) = &mut self.voice else { return };
        let ended = voice.listener.end_early_after(pause);
        self.on_heard(ended.into_iter().collect(), connection_id);
    }
}
