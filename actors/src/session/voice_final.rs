//! A decoded turn comes back (to the turns, see `voice`); a final passes the admission guard like
//! any client event, is shown with the question and turn it belongs to, and becomes an
//! answer. An item's spoken answer is read first (`voice::spoken`): what cannot be read, or
//! could be read several ways, records nothing and gets an `answer.unclear` instead. An exam
//! answer's words get the aviation vocabulary's repairs first (`voice::vocabulary`), and the
//! final sent back shows them.

use std::time::Duration;

use kameo::actor::ActorRef;
use kameo::message::{Context, Message};
use viva_blueprint::normalize::Expectation;
use viva_protocol::server::{AnswerUnclear, ServerEvent, Transcript};
use viva_protocol::{ErrorCode, ServerMessage};

use super::actor::{LiveSession, SessionDeps};
use super::admission::Admitted;
use super::messages::SessionCommand;
use super::voice::Transcribed;
use viva_core::base::AnswerInput;
use viva_core::base::Listening;
use viva_core::examiner::EmbeddedExaminer;
use viva_core::session::state::SessionState;
use viva_core::voice::DecodeKind;
use viva_core::voice::complete::answer_is_complete;
use viva_core::voice::spoken::{Confirmable, SpokenDecision, Unclear, decide};
use viva_core::voice::turn::Final;
use viva_core::voice::turn::ending::finished;
use viva_core::voice::vocabulary::heard_answer;

impl Message<Transcribed> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Transcribed, ctx: &mut Context<Self, ()>) {
        let (reply, _hold) = msg.split();
        let question_id = self.state.open_question_id();
        let actions = match &mut self.voice {
            Some(voice) => {
                let (state, deps) = (&self.state, &self.deps);
                let whole = |text: &str| whole_answer_pause(state, deps, text);
                voice.turns.decoded(reply, question_id, whole)
            }
            // A final with no voice made yet (tests land one at a chosen moment).
            None if reply.ticket.kind == DecodeKind::Final => finished(reply).into_iter().collect(),
            None => Vec::new(),
        };
        self.perform(actions, ctx.actor_ref()).await;
    }
}

/// The pause that ends the turn now that its words read as a whole answer to the open
/// question (`viva_core::voice::complete`); `None` when they do not, or when the server
/// waits out the thinking pause for this kind of question.
fn whole_answer_pause(state: &SessionState, deps: &SessionDeps, text: &str) -> Option<Duration> {
    let open = state.open_listening()?;
    let is_exam = matches!(open, Listening::Exam { .. });
    let pause = deps.turns.complete_answer_pause_for(is_exam)?;
    let examiner = EmbeddedExaminer::new(deps.modes.acs.clone());
    answer_is_complete(text, &open, &examiner).then_some(pause)
}

impl LiveSession {
    pub(super) fn send_ack(&self, event_id: Option<String>) {
        if let (Some(link), Some(event_id)) = (&self.link, event_id) {
            let ack = viva_protocol::server::Ack { event_id };
            link.send(ServerMessage::unsequenced(ServerEvent::Ack(ack)));
        }
    }

    pub(super) fn send_transcript(
        &self,
        question_id: Option<String>,
        turn: u64,
        text: String,
        last: bool,
    ) {
        let Some(link) = &self.link else { return };
        let transcript = Transcript {
            question_id,
            turn: Some(turn),
            text,
        };
        let event = match last {
            true => ServerEvent::TranscriptFinal(transcript),
            false => ServerEvent::TranscriptPartial(transcript),
        };
        link.send(ServerMessage::unsequenced(event));
    }

    /// A finished turn's words: answered as an `answer.text` would be, by the device that
    /// spoke them, for the question they were heard for.
    pub(super) async fn answer(&mut self, last: Final, me: &ActorRef<Self>) {
        if !self.is_attached(last.connection_id) {
            // The device that spoke lost the session (it was told `session.paused`).
            tracing::info!("a transcript finished after its device let go; not answered");
            return;
        }
        let event_id = last.event_id.clone();
        let admission = self
            .admit_client(last.connection_id, event_id.as_deref())
            .await;
        if admission == Admitted::Repeated {
            return self.send_ack(event_id);
        }
        let mut last = last;
        let listening = self.state.open_listening();
        last.text = heard_answer(&last.text, listening.as_ref(), &self.deps.modes.acs);
        let (question_id, text) = (last.question_id.clone(), last.text.clone());
        self.send_transcript(question_id, last.turn, text, true);
        if let Admitted::Refused(refusal) = admission {
            return self.send_error(refusal.code, &refusal.message, event_id);
        }
        if last.question_id.is_some() && last.question_id != self.state.open_question_id() {
            let message = "the question this spoken answer was for is no longer open";
            return self.send_error(ErrorCode::NoOpenQuestion, message, event_id);
        }
        let Some(answer) = self.spoken_answer(&last) else {
            return;
        };
        let answer = SessionCommand::Answer(AnswerInput::Text(answer));
        if let Err(refusal) = self.apply(answer, event_id.clone(), me.clone()).await {
            self.send_error(refusal.code, &refusal.message, event_id);
        }
    }

    /// The text to record for a spoken answer: an exam answer as transcribed, an item's as
    /// read; `None` when the candidate was asked again instead.
    fn spoken_answer(&mut self, last: &Final) -> Option<String> {
        let pending = self
            .voice
            .as_mut()
            .and_then(|voice| voice.turns.take_confirming());
        let Some(Listening::Item { question_id, item }) = self.state.open_listening() else {
            return Some(last.text.clone());
        };
        let expect = Expectation::of_item(&item.answer, &item.options);
        let pending = pending.filter(|p| p.question_id == question_id);
        match decide(&last.text, &expect, pending.as_ref()) {
            SpokenDecision::Record(answer) => Some(answer),
            SpokenDecision::AskAgain(unclear) => {
                self.ask_again(question_id, unclear, last);
                None
            }
        }
    }

    fn ask_again(&mut self, question_id: String, unclear: Unclear, last: &Final) {
        if let (Some(voice), Some(understood_as)) = (&mut self.voice, &unclear.understood_as) {
            voice.turns.offer_confirming(Confirmable {
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
                turn: Some(last.turn),
                heard: unclear.heard,
                reason: unclear.reason.to_owned(),
                readings: unclear.readings,
                confirm: unclear.understood_as.is_some(),
                understood_as: unclear.understood_as,
                closest_option: unclear.closest_option,
                message: unclear.message,
            });
            link.send(ServerMessage::unsequenced(event));
        }
        if last.event_id.is_some() {
            self.send_error(ErrorCode::AnswerUnclear, &message, last.event_id.clone());
        }
    }
}
