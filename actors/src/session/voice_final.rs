//! A decoded turn comes back: a partial is shown; a final passes the admission guard like
//! any client event, is shown with the question and turn it belongs to, and becomes an
//! answer. An item's spoken answer is read first (`voice::spoken`): what cannot be read, or
//! could be read several ways, records nothing and gets an `answer.unclear` instead.

use kameo::message::{Context, Message};
use viva_blueprint::normalize::Expectation;
use viva_protocol::server::{AnswerUnclear, ServerEvent, Transcript};
use viva_protocol::{ErrorCode, ServerMessage};

use super::admission::Admitted;
use super::voice::Transcribed;
use super::{LiveSession, SessionCommand};
use viva_core::base::AnswerInput;
use viva_core::base::Listening;
use viva_core::voice::spoken::{Confirmable, SpokenDecision, Unclear, decide};
use viva_core::voice::{DecodeError, DecodeKind};

impl Message<Transcribed> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Transcribed, ctx: &mut Context<Self, ()>) {
        match msg.kind {
            DecodeKind::Partial => self.on_partial(msg),
            DecodeKind::Final => self.on_final(msg, ctx).await,
            DecodeKind::Speculative => self.on_speculated(msg, ctx).await,
        }
    }
}

impl LiveSession {
    pub(super) fn send_ack(&self, event_id: Option<String>) {
        if let (Some(link), Some(event_id)) = (&self.link, event_id) {
            let ack = viva_protocol::server::Ack { event_id };
            link.send(ServerMessage::unsequenced(ServerEvent::Ack(ack)));
        }
    }

    fn send_transcript(&self, msg: &Transcribed, text: String, last: bool) {
        let Some(link) = &self.link else { return };
        let transcript = Transcript {
            question_id: msg.question_id.clone(),
            turn: Some(msg.turn),
            text,
        };
        let event = match last {
            true => ServerEvent::TranscriptFinal(transcript),
            false => ServerEvent::TranscriptPartial(transcript),
        };
        link.send(ServerMessage::unsequenced(event));
    }

    fn on_partial(&mut self, msg: Transcribed) {
        let Some(voice) = &mut self.voice else { return };
        if msg.turn != voice.turn {
            return;
        }
        voice.preview_in_flight = false;
        self.show_preview(&msg);
        self.retry_speculation(msg.connection_id);
    }

    /// A preview of the open turn (a partial, or a pause's decode): shown, and heard for a
    /// trailing filler that lengthens the pause.
    pub(super) fn show_preview(&mut self, msg: &Transcribed) {
        let Some(voice) = &mut self.voice else { return };
        let Ok(text) = &msg.result else { return };
        if msg.turn != voice.turn {
            return;
        }
        voice.listener.note_partial(text);
        if !text.is_empty() {
            self.send_transcript(msg, text.clone(), false);
        }
    }

    pub(super) async fn on_final(&mut self, msg: Transcribed, ctx: &mut Context<Self, ()>) {
        self.forget_commit(msg.event_id.as_deref());
        let text = match &msg.result {
            Ok(text) => viva_core::voice::listener::spoken_text(text),
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
        let event_id = msg.event_id.clone();
        let admission = self
            .admit_client(msg.connection_id, event_id.as_deref())
            .await;
        if admission == Admitted::Repeated {
            return self.send_ack(event_id);
        }
        self.send_transcript(&msg, text.clone(), true);
        if let Admitted::Refused(refusal) = admission {
            return self.send_error(refusal.code, &refusal.message, event_id);
        }
        if msg.question_id.is_some() && msg.question_id != self.state.open_question_id() {
            let message = "the question this spoken answer was for is no longer open";
            return self.send_error(ErrorCode::NoOpenQuestion, message, event_id);
        }
        let Some(answer) = self.spoken_answer(&text, &msg) else {
            return;
        };
        let answer = SessionCommand::Answer(AnswerInput::Text(answer));
        if let Err(refusal) = self
            .apply(answer, event_id.clone(), ctx.actor_ref().clone())
            .await
        {
            self.send_error(refusal.code, &refusal.message, event_id);
        }
    }

    /// The text to record for a spoken answer: an exam answer as transcribed, an item's as
    /// read; `None` when the candidate was asked again instead.
    fn spoken_answer(&mut self, text: &str, msg: &Transcribed) -> Option<String> {
        let pending = self
            .voice
            .as_mut()
            .and_then(|voice| voice.confirming.take());
        let Some(Listening::Item { question_id, item }) = self.state.open_listening() else {
            return Some(text.to_owned());
        };
        let expect = Expectation::of_item(&item.answer, &item.options);
        let pending = pending.filter(|p| p.question_id == question_id);
        match decide(text, &expect, pending.as_ref()) {
            SpokenDecision::Record(answer) => Some(answer),
            SpokenDecision::AskAgain(unclear) => {
                self.ask_again(question_id, unclear, msg);
                None
            }
        }
    }

    fn ask_again(&mut self, question_id: String, unclear: Unclear, msg: &Transcribed) {
        if let (Some(voice), Some(understood_as)) = (&mut self.voice, &unclear.understood_as) {
            voice.confirming = Some(Confirmable {
                question_id: question_id.clone(),
                understood_as: understood_as.clone(),
            });
        }
        tracing::info!(
            reason = unclear.reason,
            "a spoken answer was unclear; asked again"
        );
        self.deps.metrics.spoken_answers_unclear.inc();
        let message = unclear.message.clone();
        if let Some(link) = &self.link {
            let event = ServerEvent::AnswerUnclear(AnswerUnclear {
                question_id,
                turn: Some(msg.turn),
                heard: unclear.heard,
                reason: unclear.reason.to_owned(),
                readings: unclear.readings,
                confirm: unclear.understood_as.is_some(),
                understood_as: unclear.understood_as,
                message: unclear.message,
            });
            link.send(ServerMessage::unsequenced(event));
        }
        if msg.event_id.is_some() {
            self.send_error(ErrorCode::AnswerUnclear, &message, msg.event_id.clone());
        }
    }
}
