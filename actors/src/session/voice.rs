//! Spoken answers: the session's `SpokenTurns` (`viva_core::voice::turn`: voice activity,
//! turn-taking, previews, speculative finals, commits) decides; this file feeds it the
//! session's messages and performs what it returns. Decodes go to the speech pool (with no
//! prompt: the benchmark found every hint of what the question expects cost more than it
//! won, see `viva_core::voice::hint`) and their replies come back through the mailbox as
//! [`Transcribed`]; a finished turn's words are answered in `voice_final`. While a turn is
//! open a ticker counts wall-clock time in which no audio arrived, so a client that stops
//! sending still gets its turn ended. A pause's end-of-turn judgement is `voice_judge`'s.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use kameo::actor::{ActorRef, WeakActorRef};
use kameo::message::{Context, Message};
use viva_protocol::ErrorCode;

use super::actor::LiveSession;
use super::voice_state::Voice;
use crate::timer::tell_every;
use viva_core::voice::turn::{Action, Decode, Decoded, Frames, TICK, Ticket};
use viva_core::voice::{DecodeError, DecodeJob, DecodeKind, Reply};

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

    fn of(ticket: Ticket, result: Result<String, DecodeError>, hold: Arc<()>) -> Transcribed {
        Transcribed {
            connection_id: ticket.connection_id,
            turn: ticket.turn,
            kind: ticket.kind,
            event_id: ticket.event_id,
            question_id: ticket.question_id,
            speculation: ticket.speculation,
            result,
            _hold: Some(hold),
        }
    }

    /// The reply as the turns read it, and the decode count it holds until it is handled.
    pub(super) fn split(self) -> (Decoded, Option<Arc<()>>) {
        let ticket = Ticket {
            kind: self.kind,
            turn: self.turn,
            speculation: self.speculation,
            connection_id: self.connection_id,
            event_id: self.event_id,
            question_id: self.question_id,
        };
        let result = self.result;
        (Decoded { ticket, result }, self._hold)
    }
}

impl Message<Audio> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Audio, ctx: &mut Context<Self, ()>) {
        if self.refusal_for(msg.connection_id).is_some() {
            tracing::debug!("audio from a connection that is not attached; dropped");
            return;
        }
        let thinking_pause =
            self.state
                .open_question_kind()
                .map(|kind| match self.state.life().thinking_pause_ms {
                    Some(ms) => Duration::from_millis(u64::from(ms)),
                    None => self.deps.turns.pause_for(Some(kind)),
                });
        let frames = Frames {
            connection_id: msg.connection_id,
            samples: msg.samples,
            now_ms: self.now(),
            thinking_pause,
            question_id: self.state.open_question_id(),
        };
        let voice = match thinking_pause {
            Some(_) => self.voice_mut(),
            // Nothing to hear: a turn so far is forgotten, and no voice is made for it.
            None => self.voice.as_mut(),
        };
        let Some(voice) = voice else { return };
        let actions = voice.turns.audio(frames);
        if actions.iter().any(|a| matches!(a, Action::StartTicker)) {
            self.barge_in();
        }
        self.perform(actions, ctx.actor_ref()).await;
    }
}

impl Message<VoiceTick> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, _: VoiceTick, ctx: &mut Context<Self, ()>) {
        let (now, question_id) = (self.now(), self.state.open_question_id());
        let Some(voice) = &mut self.voice else { return };
        let actions = voice.turns.tick(now, question_id);
        self.perform(actions, ctx.actor_ref()).await;
    }
}

impl Message<AudioControl> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: AudioControl, ctx: &mut Context<Self, ()>) {
        if let Some(refusal) = self.refusal_for(msg.connection_id) {
            return self.send_error(refusal.code, &refusal.message, msg.event_id);
        }
        let repeated = |id: &String| self.state.life().is_applied(id);
        if msg.commit && msg.event_id.as_ref().is_some_and(repeated) {
            // A resent commit whose answer was applied: the envelope's repeated ack.
            return self.send_ack(msg.event_id);
        }
        let question_id = self.state.open_question_id();
        let Some(voice) = self.voice_mut() else {
            let message = "voice input is not available on this server; use answer.text";
            return self.send_error(ErrorCode::VoiceUnavailable, message, msg.event_id);
        };
        let actions = match msg.commit {
            true => voice
                .turns
                .commit(msg.connection_id, msg.event_id, question_id),
            false => voice.turns.clear(msg.event_id),
        };
        self.perform(actions, ctx.actor_ref()).await;
    }
}

impl LiveSession {
    /// The voice state, created on first use; `None` when the server has no speech model.
    fn voice_mut(&mut self) -> Option<&mut Voice> {
        self.deps.speech.as_ref()?;
        Some(self.voice.get_or_insert_with(Voice::new))
    }

    /// Performs what the turns decided, in order; a decode the pool refuses is told back to
    /// them, and what they decide then comes next.
    pub(super) async fn perform(&mut self, actions: Vec<Action>, me: &ActorRef<Self>) {
        let mut queue = VecDeque::from(actions);
        while let Some(action) = queue.pop_front() {
            match action {
                Action::Decode(decode) => {
                    for action in self.submit(decode).into_iter().rev() {
                        queue.push_front(action);
                    }
                }
                Action::Judge(judge) => {
                    for action in self.submit_judge(judge).into_iter().rev() {
                        queue.push_front(action);
                    }
                }
                action @ (Action::SpeechStarted { .. } | Action::SpeechStopped { .. }) => {
                    self.send_speech(action)
                }
                Action::CountModelEndOfTurn => self.deps.metrics.model_turn_ends.inc(),
                Action::Answer(last) => self.answer(last, me).await,
                Action::Partial {
                    question_id,
                    turn,
                    text,
                } => self.send_transcript(question_id, turn, text, false),
                Action::Error {
                    code,
                    message,
                    event_id,
                } => self.send_error(code, message, event_id),
                Action::Ack(event_id) => self.send_ack(event_id),
                Action::CountWholeAnswerPause => self.deps.metrics.whole_answer_pauses.inc(),
                action => self.perform_on_voice(action, me),
            }
        }
    }

    /// The actions that touch only the voice's own flags and ticker.
    fn perform_on_voice(&mut self, action: Action, me: &ActorRef<Self>) {
        let Some(voice) = &mut self.voice else { return };
        match action {
            Action::AbortPartials => voice.abort_partials(),
            Action::AbortSpeculation => voice.speculative.store(true, Ordering::Relaxed),
            Action::StartTicker => {
                voice.ticker = Some(tell_every(me.downgrade(), TICK, || VoiceTick));
            }
            Action::StopTicker => voice.ticker = None,
            _ => {}
        }
    }

    /// Submits a decode to the speech pool; what the turns make of a refusal.
    fn submit(&mut self, decode: Decode) -> Vec<Action> {
        let (Some(speech), Some(me)) = (self.deps.speech.clone(), self.me.clone()) else {
            return Vec::new();
        };
        let question_id = self.state.open_question_id();
        let Some(voice) = &mut self.voice else {
            return Vec::new();
        };
        let ticket = decode.ticket.clone();
        let job = DecodeJob {
            audio: decode.audio,
            kind: ticket.kind,
            hint: None,
            abort: voice.abort_flag(ticket.kind),
            reply: reply_to(me, decode.ticket, voice.decodes.clone()),
        };
        let Err(err) = speech.submit(job) else {
            return Vec::new();
        };
        if ticket.kind == DecodeKind::Final {
            tracing::warn!(%err, "speech pool overloaded; a turn was refused");
        }
        voice.turns.refused(ticket, question_id)
    }

    /// A device took the session over: the turn the previous one was speaking is dropped,
    /// and so is a reading it was offered to confirm.
    pub(super) async fn forget_turn(&mut self, me: &ActorRef<Self>) {
        let Some(voice) = &mut self.voice else { return };
        let actions = voice.turns.take_over();
        self.perform(actions, me).await;
    }
}

/// The reply of a decode: told to the session as [`Transcribed`], holding its decode count.
fn reply_to(me: WeakActorRef<LiveSession>, ticket: Ticket, hold: Arc<()>) -> Reply {
    Box::new(move |result| {
        if let Some(session) = me.upgrade() {
            let done = Transcribed::of(ticket, result, hold);
            // ignore: a session that stopped meanwhile has no turn to finish.
            let _ = session.tell(done).blocking_send();
        }
    })
}
