//! Spoken answers: audio frames feed the session's listener (voice activity and turn-taking);
//! a finished turn is decoded by the speech pool (with no prompt: the benchmark found every
//! hint of what the question expects cost more than it won, see `viva_core::voice::hint`),
//! and its text is answered as an `answer.text` would be (an item's answer read
//! first, see `voice_final`). Partials are previews: at most one in flight per session, and
//! dropped when the pool is busy. While a turn is open a ticker counts wall-clock time in
//! which no audio arrived, so a client that stops sending still gets its turn ended.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kameo::actor::ActorRef;
use kameo::message::{Context, Message};
use viva_protocol::ErrorCode;

use super::LiveSession;
use super::voice_speculation::{Ended, Speculation};
use crate::timer::{Timer, tell_every};
use viva_core::voice::listener::{Heard, Listener};
use viva_core::voice::spoken::Confirmable;
use viva_core::voice::{DecodeError, DecodeJob, DecodeKind};

/// How often an open turn checks for a gap in the audio.
const TICK: Duration = Duration::from_millis(250);
/// A gap shorter than this is network jitter, not a pause.
const GAP_GRACE_MS: u64 = 300;
/// `audio.commit` event ids remembered while their turns are decoded.
const COMMITS_REMEMBERED: usize = 8;

/// The voice side of a session: its listener and the decodes in flight.
pub(super) struct Voice {
    pub(super) listener: Listener,
    /// Numbers turns, so a late reply for an earlier one is recognised.
    pub(super) turn: u64,
    /// A preview decode (a partial or a pause's speculation) is in flight: one at a time.
    pub(super) preview_in_flight: bool,
    /// Aborts the current turn's partial decodes when the turn is cleared.
    abort: Arc<AtomicBool>,
    /// The connection whose audio the open turn is.
    speaker: u64,
    /// When audio last arrived, and how much of the gap since was counted as silence.
    last_audio_ms: u64,
    gap_counted_ms: u64,
    /// Counts gaps while a turn is open.
    ticker: Option<Timer>,
    /// `audio.commit` event ids whose turns are being decoded: a resend waits for the same
    /// answer instead of finding no turn.
    pub(super) committing: VecDeque<String>,
    /// A reading offered on the last turn, which "yes" records.
    pub(super) confirming: Option<Confirmable>,
    /// The open turn decoded during a pause, ahead of its end.
    pub(super) speculation: Option<Speculation>,
    /// A pause's audio that found no room (a preview in flight, or no free thread): tried
    /// again as audio arrives and when the preview lands.
    pub(super) unsent_speculation: Option<Vec<i16>>,
    /// Speculations started: numbers each, so the reply of one given up is not taken for
    /// a later one of the same turn.
    pub(super) speculations: u64,
    /// Cloned into every decode job and its reply: more than one holder means a decode is
    /// queued, running, or its reply not yet handled.
    pub(super) decodes: Arc<()>,
}

impl Voice {
    pub(super) fn new(listener: Listener) -> Voice {
        Voice {
            listener,
            turn: 0,
            preview_in_flight: false,
            abort: Arc::new(AtomicBool::new(false)),
            speaker: 0,
            last_audio_ms: 0,
            gap_counted_ms: 0,
            ticker: None,
            committing: VecDeque::new(),
            confirming: None,
            speculation: None,
            unsent_speculation: None,
            speculations: 0,
            decodes: Arc::new(()),
        }
    }

    /// Nothing spoken is under way: no open turn, no decode out or reply unhandled, no
    /// commit being decoded, no reading waiting for a "yes", no speculation.
    pub(super) fn is_quiet(&self) -> bool {
        !self.listener.in_turn()
            && Arc::strong_count(&self.decodes) == 1
            && self.committing.is_empty()
            && self.confirming.is_none()
            && self.speculation.is_none()
            && self.unsent_speculation.is_none()
    }

    fn next_turn(&mut self) {
        self.abort.store(true, Ordering::Relaxed);
        self.abort = Arc::new(AtomicBool::new(false));
        self.turn += 1;
        self.preview_in_flight = false;
    }

    fn stop_ticker(&mut self) {
        self.ticker = None;
    }
}

/// PCM16 mono 16 kHz samples from the attached connection.
#[derive(Debug)]
pub struct Audio {
    /// The sending connection.
    pub connection_id: u64,
    /// The samples.
    pub samples: Vec<i16>,
}

/// `audio.commit` (end the turn now) or `audio.clear` (discard it).
#[derive(Debug)]
pub struct AudioControl {
    /// The sending connection.
    pub connection_id: u64,
    /// Its `event_id`.
    pub event_id: Option<String>,
    /// Commit (true) or clear (false).
    pub commit: bool,
}

/// The ticker of an open turn: counts the time no audio arrived.
#[derive(Debug)]
pub struct VoiceTick;

/// A decode finished (sent from the decoding thread).
#[derive(Debug)]
pub struct Transcribed {
    /// The connection whose audio it was: only that device, still holding the session, may
    /// have it answered.
    pub(super) connection_id: u64,
    pub(super) turn: u64,
    pub(super) kind: DecodeKind,
    pub(super) event_id: Option<String>,
    /// The question open when the turn was heard.
    pub(super) question_id: Option<String>,
    /// For a speculative decode: which speculation of the session it was.
    pub(super) speculation: u64,
    pub(super) result: Result<String, DecodeError>,
    /// The voice's decode count, held until this reply is handled.
    pub(super) _hold: Option<Arc<()>>,
}

impl Transcribed {
    /// The transcript of a finished turn spoken on `connection_id` for the open question, as
    /// the decoding thread reports it (tests use it to land a transcript at a chosen moment).
    pub fn finished(connection_id: u64, event_id: Option<String>, text: String) -> Transcribed {
        Transcribed {
            connection_id,
            turn: 0,
            kind: DecodeKind::Final,
            event_id,
            question_id: None,
            speculation: 0,
            result: Ok(text),
            _hold: None,
        }
    }
}

impl Message<Audio> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Audio, ctx: &mut Context<Self, ()>) {
        if self.refusal_for(msg.connection_id).is_some() {
            tracing::debug!("audio from a connection that is not attached; dropped");
            return;
        }
        let Some(kind) = self.state.open_question_kind() else {
            tracing::debug!("audio with no open question; dropped");
            // Nothing to answer (the question is still being asked, or was answered).
            if let Some(voice) = &mut self.voice {
                voice.listener.clear();
            }
            return;
        };
        let pause = match self.state.life().thinking_pause_ms {
            Some(ms) => Duration::from_millis(u64::from(ms)),
            None => self.deps.turns.pause_for(Some(kind)),
        };
        let now = self.now();
        let Some(voice) = self.voice_mut() else {
            return;
        };
        voice.listener.set_thinking_pause(pause);
        voice.speaker = msg.connection_id;
        voice.last_audio_ms = now;
        voice.gap_counted_ms = 0;
        let heard = voice.listener.feed(&msg.samples);
        tracing::trace!(samples = msg.samples.len(), ?heard, "audio heard");
        self.on_heard(heard, msg.connection_id);
        self.retry_speculation(msg.connection_id);
        self.keep_ticking(ctx.actor_ref().clone());
    }
}

impl Message<VoiceTick> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, _: VoiceTick, _: &mut Context<Self, ()>) {
        let now = self.now();
        let Some(voice) = &mut self.voice else { return };
        if !voice.listener.in_turn() {
            return voice.stop_ticker();
        }
        let gap = now.saturating_sub(voice.last_audio_ms);
        if gap < GAP_GRACE_MS {
            return;
        }
        let uncounted = gap.saturating_sub(voice.gap_counted_ms);
        voice.gap_counted_ms = gap;
        let speaker = voice.speaker;
        let ended = voice.listener.note_gap(Duration::from_millis(uncounted));
        if ended.is_some() {
            tracing::debug!(
                gap_ms = gap,
                "no audio arrived for the thinking pause; turn ended"
            );
        }
        self.on_heard(ended.into_iter().collect(), speaker);
    }
}

impl Message<AudioControl> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: AudioControl, _: &mut Context<Self, ()>) {
        if let Some(refusal) = self.refusal_for(msg.connection_id) {
            return self.send_error(refusal.code, &refusal.message, msg.event_id);
        }
        let repeated = |id: &String| self.state.life().is_applied(id);
        if msg.commit && msg.event_id.as_ref().is_some_and(repeated) {
            // A resent commit whose answer was applied: the envelope's repeated ack.
            return self.send_ack(msg.event_id);
        }
        let Some(voice) = self.voice_mut() else {
            let message = "voice input is not available on this server; use answer.text";
            return self.send_error(ErrorCode::VoiceUnavailable, message, msg.event_id);
        };
        if !msg.commit {
            voice.listener.clear();
            voice.next_turn();
            return self.send_ack(msg.event_id);
        }
        if let Some(id) = &msg.event_id
            && voice.committing.contains(id)
        {
            // A resend while its turn is still being decoded: the answer's ack will come.
            tracing::debug!("audio.commit resent while its turn is decoded");
            return;
        }
        match voice.listener.commit() {
            Some(audio) => self.decode_final(audio, msg.connection_id, msg.event_id),
            None => {
                let message = "no speech was heard in this turn; nothing was answered";
                self.send_error(ErrorCode::NoSpeech, message, msg.event_id);
            }
        }
    }
}

impl LiveSession {
    /// The voice state, created on first use; `None` when the server has no speech model.
    fn voice_mut(&mut self) -> Option<&mut Voice> {
        self.deps.speech.as_ref()?;
        Some(
            self.voice
                .get_or_insert_with(|| Voice::new(Listener::new())),
        )
    }

    pub(super) fn on_heard(&mut self, heard: Vec<Heard>, connection_id: u64) {
        for heard in heard {
            match heard {
                Heard::PartialDue => self.decode_partial(connection_id),
                Heard::SilenceBegan(audio) => self.speculate(audio, connection_id),
                Heard::SpeechResumed => self.demote_speculation(),
                Heard::TurnEnded(audio) => self.decode_final(audio, connection_id, None),
            }
        }
    }

    /// Starts the gap ticker while a turn is open; it ends with the turn or the actor.
    fn keep_ticking(&mut self, actor_ref: ActorRef<Self>) {
        let Some(voice) = &mut self.voice else { return };
        if !voice.listener.in_turn() || voice.ticker.is_some() {
            return;
        }
        voice.ticker = Some(tell_every(actor_ref.downgrade(), TICK, || VoiceTick));
    }

    /// A decode of `audio`. A partial shares its turn's abort flag, so clearing or ending
    /// the turn stops it; a final has a flag of its own, for its turn is already over.
    pub(super) fn job(
        &mut self,
        audio: Vec<i16>,
        kind: DecodeKind,
        connection_id: u64,
        event_id: Option<String>,
    ) -> Option<DecodeJob> {
        let turn = self.voice.as_ref()?.turn;
        self.job_of_turn(audio, kind, (connection_id, turn), event_id)
    }

    /// A decode of `audio` heard in `turn`.
    fn job_of_turn(
        &mut self,
        audio: Vec<i16>,
        kind: DecodeKind,
        (connection_id, turn): (u64, u64),
        event_id: Option<String>,
    ) -> Option<DecodeJob> {
        let question_id = self.state.open_question_id();
        let voice = self.voice.as_ref()?;
        let me = self.me.clone()?;
        let speculation = voice.speculations;
        let hold = Some(voice.decodes.clone());
        let abort = match kind {
            DecodeKind::Partial => voice.abort.clone(),
            DecodeKind::Final | DecodeKind::Speculative => Arc::new(AtomicBool::new(false)),
        };
        Some(DecodeJob {
            audio,
            kind,
            hint: None,
            abort,
            reply: Box::new(move |result| {
                if let Some(session) = me.upgrade() {
                    let done = Transcribed {
                        connection_id,
                        turn,
                        kind,
                        event_id,
                        question_id,
                        speculation,
                        result,
                        _hold: hold,
                    };
                    // ignore: a session that stopped meanwhile has no turn to finish.
                    let _ = session.tell(done).blocking_send();
                }
            }),
        })
    }

    fn decode_partial(&mut self, connection_id: u64) {
        let Some(speech) = self.deps.speech.clone() else {
            return;
        };
        let Some(voice) = self.voice.as_ref().filter(|v| !v.preview_in_flight) else {
            return;
        };
        let audio = voice.listener.heard_so_far();
        let Some(job) = self.job(audio, DecodeKind::Partial, connection_id, None) else {
            return;
        };
        if speech.submit(job).is_ok()
            && let Some(voice) = &mut self.voice
        {
            voice.preview_in_flight = true;
        }
    }

    fn decode_final(&mut self, audio: Vec<i16>, connection_id: u64, event_id: Option<String>) {
        if self.deps.speech.is_none() {
            return;
        }
        let ended = self.end_with_speculation(&audio, connection_id, event_id.clone());
        self.close_turn(event_id.as_ref());
        match ended {
            Ended::Ready(last) => self.handle_later(last, audio, event_id),
            Ended::Awaited => {}
            Ended::Decode => self.decode_ended_turn(audio, connection_id, event_id),
        }
    }

    /// The turn is over: the next audio is a new turn, and a commit's event id is kept
    /// until its transcript is handled.
    fn close_turn(&mut self, event_id: Option<&String>) {
        if let Some(voice) = &mut self.voice {
            voice.unsent_speculation = None;
            voice.next_turn();
            voice.stop_ticker();
            if let Some(id) = event_id {
                voice.committing.push_back(id.clone());
                while voice.committing.len() > COMMITS_REMEMBERED {
                    voice.committing.pop_front();
                }
            }
        }
    }

    /// A speculation's text, handled as the turn's final through the mailbox like every
    /// decode's reply; decoded again if the mailbox is full.
    fn handle_later(&mut self, last: Transcribed, audio: Vec<i16>, event_id: Option<String>) {
        let connection_id = last.connection_id;
        let sent = self
            .me
            .clone()
            .and_then(|me| me.upgrade())
            .is_some_and(|me| me.tell(last).try_send().is_ok());
        if !sent {
            self.decode_ended_turn(audio, connection_id, event_id);
        }
    }

    /// Decodes the turn that just ended (its number is the one before the open turn's).
    pub(super) fn decode_ended_turn(
        &mut self,
        audio: Vec<i16>,
        connection_id: u64,
        event_id: Option<String>,
    ) {
        let Some(speech) = self.deps.speech.clone() else {
            return;
        };
        let Some(turn) = self.voice.as_ref().map(|v| v.turn.saturating_sub(1)) else {
            return;
        };
        let ended = (connection_id, turn);
        let job = self.job_of_turn(audio, DecodeKind::Final, ended, event_id.clone());
        let Some(job) = job else { return };
        if let Err(err) = speech.submit(job) {
            tracing::warn!(%err, "speech pool overloaded; a turn was refused");
            self.forget_commit(event_id.as_deref());
            let message = "the server is too busy to transcribe this answer; say it again";
            self.send_error(ErrorCode::Overloaded, message, event_id);
        }
    }

    /// The commit's turn is transcribed (or refused): a resend is a new commit again.
    pub(super) fn forget_commit(&mut self, event_id: Option<&str>) {
        if let (Some(voice), Some(id)) = (&mut self.voice, event_id) {
            voice.committing.retain(|committing| committing != id);
        }
    }

    /// A device took the session over: the turn the previous one was speaking is dropped,
    /// and so is a reading it was offered to confirm.
    pub(super) fn forget_turn(&mut self) {
        self.drop_speculation();
        if let Some(voice) = &mut self.voice {
            voice.listener.clear();
            voice.next_turn();
            voice.stop_ticker();
            voice.confirming = None;
        }
    }
}
