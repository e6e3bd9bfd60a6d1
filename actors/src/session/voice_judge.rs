//! The end-of-turn model's side of spoken answers: a pause's audio goes to the server's
//! `TurnJudge` (when it has one), and its verdict comes back through the mailbox as
//! [`Judged`] for the turns (`viva_core::voice::turn`, `judging.rs`) to act on. A busy or
//! absent model leaves the pause unjudged at once: the turn waits out its thinking pause.

use kameo::actor::WeakActorRef;
use kameo::message::{Context, Message};

use viva_protocol::ServerMessage;
use viva_protocol::server::{ServerEvent, SpeechStarted, SpeechStopped};

use super::actor::LiveSession;
use viva_core::voice::end_of_turn::{EndOfTurn, JudgeJob, JudgeReply};
use viva_core::voice::turn::{Action, Judge, JudgeTicket};

/// The model's verdict on a pause (sent from the judge's thread).
#[derive(Debug)]
pub struct Judged {
    pub(super) ticket: JudgeTicket,
    pub(super) verdict: EndOfTurn,
}

impl Message<Judged> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Judged, ctx: &mut Context<Self, ()>) {
        let actions = self.judged(msg.ticket, msg.verdict);
        self.perform(actions, ctx.actor_ref()).await;
    }
}

impl LiveSession {
    /// Submits a pause to the model; what the turns make of a verdict given at once (no
    /// model, or a full queue).
    pub(super) fn submit_judge(&mut self, judge: Judge) -> Vec<Action> {
        let (Some(model), Some(me)) = (self.deps.judge.clone(), self.me.clone()) else {
            return self.judged(judge.ticket, EndOfTurn::Unjudged);
        };
        let job = JudgeJob {
            audio: judge.audio,
            reply: reply_to(me, judge.ticket.clone()),
        };
        match model.submit(job) {
            Ok(()) => Vec::new(),
            Err(busy) => {
                tracing::debug!(%busy, "end-of-turn model busy; pause left unjudged");
                self.judged(judge.ticket, EndOfTurn::Unjudged)
            }
        }
    }

    fn judged(&mut self, ticket: JudgeTicket, verdict: EndOfTurn) -> Vec<Action> {
        let complete_pause = self
            .deps
            .judge
            .as_ref()
            .and(self.deps.turns.end_of_turn_pause);
        match &mut self.voice {
            Some(voice) => voice.turns.judged(ticket, verdict, complete_pause),
            None => Vec::new(),
        }
    }

    /// Tells the client that speech started, or a pause's verdict.
    pub(super) fn send_speech(&self, action: Action) {
        let Some(link) = &self.link else { return };
        let event = match action {
            Action::SpeechStarted { question_id, turn } => {
                ServerEvent::SpeechStarted(SpeechStarted { question_id, turn })
            }
            Action::SpeechStopped {
                question_id,
                turn,
                wait_ms,
                end_of_turn,
            } => ServerEvent::SpeechStopped(SpeechStopped {
                question_id,
                turn,
                wait_ms,
                end_of_turn: wire(end_of_turn),
            }),
            _ => return,
        };
        link.send(ServerMessage::unsequenced(event));
    }
}

fn wire(verdict: EndOfTurn) -> viva_protocol::server::EndOfTurn {
    use viva_protocol::server::EndOfTurn as Wire;
    match verdict {
        EndOfTurn::Complete => Wire::Complete,
        EndOfTurn::Incomplete => Wire::Incomplete,
        EndOfTurn::Unjudged => Wire::Unjudged,
    }
}

/// The reply of a judgement: told to the session as [`Judged`].
fn reply_to(me: WeakActorRef<LiveSession>, ticket: JudgeTicket) -> JudgeReply {
    Box::new(move |result| {
        let verdict = match result {
            Ok(probability) => EndOfTurn::from_probability(probability),
            Err(error) => {
                tracing::warn!(%error, "end-of-turn model failed; pause left unjudged");
                EndOfTurn::Unjudged
            }
        };
        if let Some(session) = me.upgrade() {
            // ignore: a session that stopped meanwhile has no turn to end.
            let _ = session.tell(Judged { ticket, verdict }).blocking_send();
        }
    })
}
