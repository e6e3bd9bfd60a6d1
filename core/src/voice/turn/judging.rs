//! End of turn by a model: when a pause begins, the turn's audio so far goes to the
//! end-of-turn model ([`Action::Judge`]; the session performs it with its
//! `TurnJudge`, or answers [`EndOfTurn::Unjudged`] at once when it has none). A "complete"
//! verdict lets the turn end once the pause is the short end-of-turn pause; "incomplete" or
//! none waits out the thinking pause as before. Each verdict is told to the client as
//! [`Action::SpeechStopped`], and speech starting or resuming as [`Action::SpeechStarted`].
//! Pauses are numbered: a verdict that comes after speech resumed, or after its turn ended,
//! is stale and ignored.

use std::time::Duration;

use super::SpokenTurns;
use super::actions::{Action, Judge, JudgeTicket};
use crate::voice::end_of_turn::EndOfTurn;

impl SpokenTurns {
    /// A pause began with the turn's audio so far: has it judged.
    pub(super) fn judge_pause(
        &mut self,
        audio: &[i16],
        question: &Option<String>,
        out: &mut Vec<Action>,
    ) {
        self.pauses += 1;
        self.judging = Some(self.pauses);
        let ticket = JudgeTicket {
            turn: self.turn,
            pause: self.pauses,
            question_id: question.clone(),
        };
        out.push(Action::Judge(Judge {
            ticket,
            audio: audio.to_vec(),
        }));
    }

    /// Speech began (a new turn) or resumed (the pause was not the end): a verdict still
    /// out for the pause is stale.
    pub(super) fn speech_started(&mut self, question: &Option<String>, out: &mut Vec<Action>) {
        self.judging = None;
        out.push(Action::SpeechStarted {
            question_id: question.clone(),
            turn: self.turn,
        });
    }

    /// The model's verdict on a pause (or [`EndOfTurn::Unjudged`]). `complete_pause` is the
    /// pause that ends a turn the model finds complete (`None`: the verdict ends nothing).
    /// Tells the client how long the server now waits; a complete turn whose pause is that
    /// long already ends now.
    pub fn judged(
        &mut self,
        ticket: JudgeTicket,
        verdict: EndOfTurn,
        complete_pause: Option<Duration>,
    ) -> Vec<Action> {
        let mut out = Vec::new();
        if ticket.turn != self.turn || self.judging != Some(ticket.pause) {
            tracing::trace!(?ticket, "stale end-of-turn verdict; ignored");
            return out;
        }
        self.judging = None;
        let allowed = self.listener.allowed_pause();
        let early = complete_pause.filter(|_| verdict == EndOfTurn::Complete);
        let wait = early.map_or(allowed, |pause| pause.min(allowed));
        out.push(Action::SpeechStopped {
            question_id: ticket.question_id.clone(),
            turn: ticket.turn,
            wait_ms: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
            end_of_turn: verdict,
        });
        if let Some(pause) = early {
            out.push(Action::CountModelEndOfTurn);
            let ended = self.listener.end_early_after(pause);
            let speaker = self.speaker;
            self.on_heard(
                ended.into_iter().collect(),
                speaker,
                &ticket.question_id,
                &mut out,
            );
        }
        out
    }
}
