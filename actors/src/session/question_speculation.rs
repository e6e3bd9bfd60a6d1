//! Speculative questions: while the candidate answers, a slow examiner (a model) phrases the
//! question most likely asked next (`SessionState::likely_next_question`: the plan's next
//! primary element), so that once the answer is assessed the question is ready and is asked
//! at once. Which draft is phrased, and what it offers the question asked, is
//! `viva_core::session::ahead::QuestionAhead`'s to decide; this file makes the examiner's
//! call, and stops it when the draft is dropped.

use kameo::message::{Context, Message};
use viva_core::examiner::{Examined, QuestionDraft};
use viva_core::session::ahead::Offer;

use super::actor::LiveSession;
use super::phrasing_ahead::Call;

/// A speculative phrasing finished.
#[derive(Debug)]
pub struct QuestionSpeculated {
    number: u32,
    words: Examined<String>,
}

impl Message<QuestionSpeculated> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: QuestionSpeculated, _: &mut Context<Self, ()>) {
        let awaited = self.phrasing_ahead.question.phrased(msg.number, msg.words);
        if awaited && self.in_flight.is_none() {
            // The question may already be waiting for these words.
            self.drive().await;
        }
    }
}

impl LiveSession {
    /// Phrases the likely next question while the candidate answers, once per question, when
    /// the examiner is slow (the embedded one phrases in microseconds and never needs it).
    pub(super) fn speculate_next_question(&mut self) {
        if !(self.deps.phrase_ahead && self.deps.examiner.is_slow()) {
            return;
        }
        let (Some(draft), Some(me)) = (self.state.question_ahead(), self.me.clone()) else {
            return;
        };
        let (request, number) = (draft.request.clone(), draft.number);
        if !self.phrasing_ahead.question.begin(draft) {
            return;
        }
        let examiner = self.deps.examiner.clone();
        let task = tokio::spawn(async move {
            let words = examiner
                .phrase(&request, &viva_core::examiner::no_deltas)
                .await;
            if let Some(session) = me.upgrade() {
                // ignore: a session that stopped meanwhile asks no more questions.
                let _ = session.tell(QuestionSpeculated { number, words }).await;
            }
        });
        // Replacing the call for an earlier draft stops it.
        self.phrasing_ahead.call = Some(Call(task));
    }

    /// What the question phrased ahead offers the question `draft` the session is about to
    /// phrase; one that does not fit is dropped (and its call stopped).
    pub(super) fn offer_speculated(&mut self, draft: &QuestionDraft) -> Offer {
        let offer = self.phrasing_ahead.question.offer(draft);
        let outcome = match &offer {
            Offer::Ready(_) => "held",
            Offer::Missed => "missed",
            Offer::Coming | Offer::Nothing => return offer,
        };
        self.phrasing_ahead.call = None;
        self.deps.metrics.question_speculations.inc(outcome);
        offer
    }
}
