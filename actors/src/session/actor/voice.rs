//! Spoken answers: audio frames feed the session's listener (voice activity and turn-taking);
//! a finished turn is decoded by the speech pool and its text is answered exactly as an
//! `answer.text` would be. Partials are previews: at most one in flight per session, and
//! dropped when the pool is busy.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use kameo::message::{Context, Message};
use viva_protocol::server::{ServerEvent, Transcript};
use viva_protocol::{ErrorCode, ServerMessage};

use super::admission::Admission;
use super::{LiveSession, SessionCommand};
use crate::session::assessment::AnswerInput;
use crate::voice::listener::{Heard, Listener};
use crate::voice::{DecodeError, DecodeJob, DecodeKind};

/// The voice side of a session: its listener and the decodes in flight.
pub(super) struct Voice {
    listener: Listener,
    /// Numbers turns, so a late reply for an earlier one is recognised.
    turn: u64,
    partial_in_flight: bool,
    /// Aborts the current turn's partial decodes when the turn is cleared.
    abort: Arc<AtomicBool>,
}

impl Voice {
    pub(super) fn new(listener: Listener) -> Voice {
        Voice {
            listener,
            turn: 0,
            partial_in_flight: false,
            abort: Arc::new(AtomicBool::new(false)),
        }
    }

    fn next_turn(&mut self) {
        self.abort.store(true, Ordering::Relaxed);
        self.abort = Arc::new(AtomicBool::new(false));
        self.turn += 1;
        self.partial_in_flight = false;
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

/// A decode finished (sent from the decoding thread).
#[derive(Debug)]
pub struct Transcribed {
    /// The connection whose audio it was: only that device, still holding the session, may
    /// have it answered.
    connection_id: u64,
    turn: u64,
    kind: DecodeKind,
    event_id: Option<String>,
    result: Result<String, DecodeError>,
}

impl Transcribed {
    /// The transcript of a finished turn spoken on `connection_id`, as the decoding thread
    /// reports it (tests use it to land a transcript at a chosen moment).
    pub fn finished(connection_id: u64, event_id: Option<String>, text: String) -> Transcribed {
        Transcribed {
            connection_id,
            turn: 0,
            kind: DecodeKind::Final,
            event_id,
            result: Ok(text),
        }
    }
}

impl Message<Audio> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Audio, _: &mut Context<Self, ()>) {
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
            Some(ms) => std::time::Duration::from_millis(u64::from(ms)),
            None => self.deps.turns.pause_for(Some(kind)),
        };
        let Some(voice) = self.voice_mut() else {
            return;
        };
        voice.listener.set_thinking_pause(pause);
        let heard = voice.listener.feed(&msg.samples);
        tracing::trace!(samples = msg.samples.len(), ?heard, "audio heard");
        for heard in heard {
            match heard {
                Heard::PartialDue => self.decode_partial(msg.connection_id),
                Heard::TurnEnded(audio) => self.decode_final(audio, msg.connection_id, None),
            }
        }
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
        match voice.listener.commit() {
            Some(audio) => self.decode_final(audio, msg.connection_id, msg.event_id),
            None => {
                let message = "no speech was heard in this turn; nothing was answered";
                self.send_error(ErrorCode::NoSpeech, message, msg.event_id);
            }
        }
    }
}

impl Message<Transcribed> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Transcribed, ctx: &mut Context<Self, ()>) {
        match msg.kind {
            DecodeKind::Partial => self.on_partial(msg),
            DecodeKind::Final => self.on_final(msg, ctx).await,
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

    fn send_ack(&self, event_id: Option<String>) {
        if let (Some(link), Some(event_id)) = (&self.link, event_id) {
            let ack = viva_protocol::server::Ack { event_id };
            link.send(ServerMessage::unsequenced(ServerEvent::Ack(ack)));
        }
    }

    /// A decode of `audio`. A partial shares its turn's abort flag, so clearing or ending
    /// the turn stops it; a final has a flag of its own, for its turn is already over.
    fn job(
        &self,
        audio: Vec<i16>,
        kind: DecodeKind,
        connection_id: u64,
        event_id: Option<String>,
    ) -> Option<DecodeJob> {
        let voice = self.voice.as_ref()?;
        let me = self.me.clone()?;
        let turn = voice.turn;
        let abort = match kind {
            DecodeKind::Partial => voice.abort.clone(),
            DecodeKind::Final => Arc::new(AtomicBool::new(false)),
        };
        Some(DecodeJob {
            audio,
            kind,
            abort,
            reply: Box::new(move |result| {
                if let Some(session) = me.upgrade() {
                    let done = Transcribed {
                        connection_id,
                        turn,
                        kind,
                        event_id,
                        result,
                    };
                    // ignore: a session that stopped meanwhile has no turn to finish.
                    let _ = session.tell(done).blocking_send();
                }
            }),
        })
    }

    fn decode_partial(&mut self, connection_id: u64) {
        let (Some(speech), Some(voice)) = (self.deps.speech.clone(), self.voice.as_ref()) else {
            return;
        };
        if voice.partial_in_flight {
            return;
        }
        let audio = voice.listener.heard_so_far();
        let Some(job) = self.job(audio, DecodeKind::Partial, connection_id, None) else {
            return;
        };
        if speech.submit(job).is_ok()
            && let Some(voice) = &mut self.voice
        {
            voice.partial_in_flight = true;
        }
    }

    fn decode_final(&mut self, audio: Vec<i16>, connection_id: u64, event_id: Option<String>) {
        let Some(speech) = self.deps.speech.clone() else {
            return;
        };
        let job = self.job(audio, DecodeKind::Final, connection_id, event_id.clone());
        if let Some(voice) = &mut self.voice {
            voice.next_turn();
        }
        let Some(job) = job else { return };
        if let Err(err) = speech.submit(job) {
            tracing::warn!(%err, "speech pool overloaded; a turn was refused");
            let message = "the server is too busy to transcribe this answer; say it again";
            self.send_error(ErrorCode::Overloaded, message, event_id);
        }
    }

    fn on_partial(&mut self, msg: Transcribed) {
        let Some(voice) = &mut self.voice else { return };
        if msg.turn != voice.turn {
            return;
        }
        voice.partial_in_flight = false;
        let Ok(text) = msg.result else { return };
        voice.listener.note_partial(&text);
        if let (Some(link), false) = (&self.link, text.is_empty()) {
            let event = ServerEvent::TranscriptPartial(Transcript { text });
            link.send(ServerMessage::unsequenced(event));
        }
    }

    async fn on_final(&mut self, msg: Transcribed, ctx: &mut Context<Self, ()>) {
        let text = match msg.result {
            Ok(text) => crate::voice::listener::spoken_text(&text),
            Err(DecodeError::Aborted) => return,
            Err(DecodeError::Failed(reason)) => {
                tracing::error!(%reason, "speech decoding failed");
                let message = "the answer could not be transcribed; say it again";
                return self.send_error(ErrorCode::Internal, message, msg.event_id);
            }
        };
        let Some(text) = text else {
            if msg.event_id.is_some() {
                let message = "no speech was heard in this turn; nothing was answered";
                self.send_error(ErrorCode::NoSpeech, message, msg.event_id);
            }
            return;
        };
        if !self.is_attached(msg.connection_id) {
            // The device that spoke lost the session (it was told `session.paused`).
            tracing::info!("a transcript finished after its device let go; not answered");
            return;
        }
        let event_id = msg.event_id;
        let admission = self.admit(msg.connection_id, event_id.as_deref()).await;
        if admission == Admission::Repeated {
            return self.send_ack(event_id);
        }
        if let Some(link) = &self.link {
            let event = ServerEvent::TranscriptFinal(Transcript { text: text.clone() });
            link.send(ServerMessage::unsequenced(event));
        }
        if let Admission::Refused(refusal) = admission {
            return self.send_error(refusal.code, &refusal.message, event_id);
        }
        let answer = SessionCommand::Answer(AnswerInput::Text(text));
        if let Err(refusal) = self
            .apply(answer, event_id.clone(), ctx.actor_ref().clone())
            .await
        {
            self.send_error(refusal.code, &refusal.message, event_id);
        }
    }

    /// A device took the session over: the turn the previous one was speaking is dropped.
    pub(super) fn forget_turn(&mut self) {
        if let Some(voice) = &mut self.voice {
            voice.listener.clear();
            voice.next_turn();
        }
    }
}
