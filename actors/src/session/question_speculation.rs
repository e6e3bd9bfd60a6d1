//! Speculative questions: while the candidate answers, a slow examiner (a model) phrases the
//! question most likely asked next (`SessionState::likely_next_question`: the plan's next
//! primary element), so that once the answer is assessed the question is ready and is asked
//! at once. When the time comes the speculation is used only if it was phrased for the same
//! question ([`QuestionRequest::phrased_alike`]); a follow-up, a bonus or mention credit
//! takes its place and it is dropped. Its words are never shown before they are asked.
//!
//! [`QuestionRequest::phrased_alike`]: viva_core::examiner::QuestionRequest::phrased_alike

use kameo::message::{Context, Message};
use viva_core::examiner::Examined;
use viva_core::examiner::QuestionDraft;

use super::LiveSession;

/// A question phrased ahead.
pub(super) struct QuestionSpeculation {
    /// What it was phrased for.
    draft: QuestionDraft,
    /// The words, once the examiner returned them.
    words: Option<Examined<String>>,
    /// The examiner's call while it runs.
    task: tokio::task::JoinHandle<()>,
}

impl QuestionSpeculation {
    /// Whether its words fit `draft`: the same question number, phrased alike.
    fn fits(&self, draft: &QuestionDraft) -> bool {
        self.draft.number == draft.number && self.draft.request.phrased_alike(&draft.request)
    }
}

impl Drop for QuestionSpeculation {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// What a speculation offers the question about to be phrased.
pub(super) enum Offer {
    /// Its words, to ask now.
    Ready(Examined<String>),
    /// It is being phrased: the words will come as [`QuestionSpeculated`].
    Coming,
    /// Nothing fits: phrase the question now.
    Nothing,
}

/// A speculative phrasing finished.
#[derive(Debug)]
pub struct QuestionSpeculated {
    number: u32,
    words: Examined<String>,
}

impl Message<QuestionSpeculated> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: QuestionSpeculated, _: &mut Context<Self, ()>) {
        let Some(speculation) = self
            .speculated_question
            .as_mut()
            .filter(|s| s.draft.number == msg.number && s.words.is_none())
        else {
            return;
        };
        speculation.words = Some(msg.words);
        if self.in_flight.is_none() {
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
        let Some(draft) = self.state.question_ahead() else {
            return;
        };
        if self
            .speculated_question
            .as_ref()
            .is_some_and(|s| s.fits(&draft))
        {
            return;
        }
        let Some(me) = self.me.clone() else { return };
        let examiner = self.deps.examiner.clone();
        let (request, number) = (draft.request.clone(), draft.number);
        let task = tokio::spawn(async move {
            let words = examiner
                .phrase(&request, &viva_core::examiner::no_deltas)
                .await;
            if let Some(session) = me.upgrade() {
                // ignore: a session that stopped meanwhile asks no more questions.
                let _ = session.tell(QuestionSpeculated { number, words }).await;
            }
        });
        self.speculated_question = Some(QuestionSpeculation {
            draft,
            words: None,
            task,
        });
    }

    /// What the speculation offers the question `draft` the session is about to phrase;
    /// one that does not fit is dropped (and its call stopped).
    pub(super) fn offer_speculated(&mut self, draft: &QuestionDraft) -> Offer {
        let Some(speculation) = self.speculated_question.as_mut() else {
            return Offer::Nothing;
        };
        if !speculation.fits(draft) {
            tracing::debug!(
                speculated = ?speculation.draft.request,
                asked = ?draft.request,
                "the question phrased ahead was not the one asked"
            );
            self.speculated_question = None;
            self.deps.metrics.question_speculations.inc("missed");
            return Offer::Nothing;
        }
        let Some(words) = speculation.words.take() else {
            return Offer::Coming;
        };
        self.speculated_question = None;
        self.deps.metrics.question_speculations.inc("held");
        Offer::Ready(words)
    }
}
