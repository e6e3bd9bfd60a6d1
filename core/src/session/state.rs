//! `SessionState`: a session of any mode, as the actor sees it — its [`Lifecycle`] plus one
//! [`SessionMode`]. The actor asks it for work, runs the examiner when the mode needs one,
//! and lets it do everything else itself.

use std::collections::HashMap;

use viva_protocol::result::SessionResult;
use viva_protocol::{ErrorCode, Mode};

use super::assessment::AnswerInput;
use super::core::QuestionDraft;
use super::lifecycle::{Lifecycle, Refusal};
use super::phase::LivePhase;
use crate::exam::types::Score;

pub use super::mode::{ExaminerReply, Listening, OpenQuestionRef, SessionMode, StepContext, Work};

/// A session: the lifecycle every mode shares, and its mode.
#[derive(Debug)]
pub struct SessionState {
    life: Lifecycle,
    mode: Box<dyn SessionMode>,
}

impl Clone for SessionState {
    fn clone(&self) -> SessionState {
        SessionState {
            life: self.life.clone(),
            mode: self.mode.clone_mode(),
        }
    }
}

impl SessionState {
    /// A session of `mode` with this lifecycle.
    pub fn new(life: Lifecycle, mode: Box<dyn SessionMode>) -> SessionState {
        SessionState { life, mode }
    }

    /// The shared lifecycle.
    pub fn life(&self) -> &Lifecycle {
        &self.life
    }

    /// The shared lifecycle, mutably.
    pub fn life_mut(&mut self) -> &mut Lifecycle {
        &mut self.life
    }

    /// The mode's state.
    pub fn mode_state(&self) -> &dyn SessionMode {
        &*self.mode
    }

    /// The lifecycle and the mode, both mutably (for a mode's own commands).
    pub fn parts_mut(&mut self) -> (&mut Lifecycle, &mut dyn SessionMode) {
        (&mut self.life, &mut *self.mode)
    }

    /// Takes a tutor's card event or message (other modes refuse it with `wrong_mode`).
    pub fn take_tutor_input(
        &mut self,
        input: crate::tutor::brain::TutorInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.mode
            .take_tutor_input(&mut self.life, input, event_id, ctx, now_ms)
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode.kind()
    }

    /// What to do next; pure.
    pub fn work(&self) -> Work {
        self.mode.work(&self.life)
    }

    /// Does one pure step: grade a finished exam; judge, ask or grade an assessment.
    pub fn step(&mut self, ctx: StepContext<'_>, now_ms: u64) -> Result<(), Refusal> {
        self.mode.step(&mut self.life, ctx, now_ms)
    }

    /// Takes the examiner's reply to the work it was asked for.
    pub fn take_examiner_reply(
        &mut self,
        reply: ExaminerReply,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.mode
            .take_examiner_reply(&mut self.life, reply, ctx, now_ms)
    }

    /// Takes a model tutor's answer to the [`Work::Tutor`] it was asked for.
    pub fn take_tutor_answer(
        &mut self,
        answer: crate::tutor::model::ModelAnswer,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.mode
            .take_tutor_answer(&mut self.life, answer, ctx, now_ms)
    }

    /// What a model tutor is asked for the pending message, in a tutor session with one.
    pub fn tutor_request(
        &self,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Option<crate::tutor::model::ModelTurnRequest> {
        self.mode.tutor()?.model_request(ctx, now_ms)
    }

    /// Queues `session.started`.
    pub fn announce_start(&mut self, ctx: StepContext<'_>) {
        self.mode.announce_start(&mut self.life, ctx);
    }

    /// Commits an answer and queues its `ack`.
    pub fn commit_answer(
        &mut self,
        input: AnswerInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.mode
            .commit_answer(&mut self.life, input, event_id, ctx, now_ms)
    }

    /// The user ends the session: it is graded as it stands.
    pub fn end(&mut self, ctx: StepContext<'_>, now_ms: u64) -> Result<(), Refusal> {
        self.life.require_live()?;
        self.mode.end(&mut self.life, ctx, now_ms)
    }

    /// Whether the session is live and its time limit has run out.
    pub fn is_due_to_expire(&self, now_ms: u64) -> bool {
        self.life.phase.live().is_some()
            && self
                .mode
                .deadline_ms()
                .is_some_and(|deadline| now_ms >= deadline)
    }

    /// Completes a session whose time limit has run out; true if it did.
    pub fn expire_if_due(&mut self, ctx: StepContext<'_>, now_ms: u64) -> bool {
        self.is_due_to_expire(now_ms) && self.mode.expire(&mut self.life, ctx, now_ms).is_ok()
    }

    /// When the time limit runs out: for timed modes only.
    pub fn deadline_ms(&self) -> Option<u64> {
        self.mode.deadline_ms()
    }

    /// Resumes; queues `session.resumed` and the open question or the result.
    pub fn resume(&mut self, ctx: StepContext<'_>, now_ms: u64) -> Result<(), Refusal> {
        self.mode.resume(&mut self.life, ctx, now_ms)
    }

    /// The result once completed, as sent in `session.completed`.
    pub fn result(&self) -> Option<SessionResult> {
        self.mode.result()
    }

    /// The result with the audit trail, for its owner once completed.
    pub fn result_with_audit(&self) -> Option<SessionResult> {
        self.mode.result_with_audit()
    }

    /// The kind of the open question (`primary`, `follow_up`, `bonus`, or `item` in an
    /// assessment), while one awaits an answer.
    pub fn open_question_kind(&self) -> Option<&'static str> {
        if self.life.phase.live() != Some(LivePhase::AwaitingAnswer) {
            return None;
        }
        self.mode.open_question().map(|open| open.kind)
    }

    /// The id of the open question (`q3`, `i7`), asked and not yet assessed.
    pub fn open_question_id(&self) -> Option<String> {
        self.mode.open_question().map(|open| open.question_id)
    }

    /// What the open question expects to hear, while one awaits an answer: for spoken
    /// answers, the recogniser's hint and the reading of an item's answer.
    pub fn open_listening(&self) -> Option<Listening<'_>> {
        self.open_question_kind()?;
        self.mode.listening()
    }

    /// The question most likely asked after the open one (exams only), to phrase ahead.
    pub fn likely_next_question(&self) -> Option<QuestionDraft> {
        self.mode.likely_next_question(&self.life)
    }

    /// Final element scores of an exam, for `weak_areas` later.
    pub fn element_scores(&self) -> HashMap<String, Score> {
        self.mode.element_scores()
    }
}

/// The refusal of a reply to work the mode never asked for.
pub(super) fn unasked_reply() -> Refusal {
    Refusal::new(
        ErrorCode::Internal,
        "a reply to work this session did not ask for",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::types::Score;
    use crate::session::test_sessions::{START_MS, World, verdict};

    #[test]
    fn each_mode_takes_the_answers_of_its_kind_only() {
        let world = World::new();
        let cases: [(&str, SessionState, AnswerInput, Option<ErrorCode>); 4] = [
            (
                "exam, typed",
                world.exam(),
                AnswerInput::Text("the AROW".into()),
                None,
            ),
            (
                "exam, a choice",
                world.exam(),
                AnswerInput::Choice(0),
                Some(ErrorCode::InvalidAnswer),
            ),
            (
                "exam, a skip",
                world.exam(),
                AnswerInput::Skip,
                Some(ErrorCode::InvalidAnswer),
            ),
            (
                "assessment, a choice",
                world.assessment("UNTIMED", false),
                AnswerInput::Choice(0),
                None,
            ),
        ];
        for (what, mut state, input, refused) in cases {
            world.run(&mut state, Score::Satisfactory, START_MS);
            let got = state.commit_answer(input, Some("e1".into()), world.ctx(), START_MS + 1);
            assert_eq!(got.err().map(|r| r.code), refused, "{what}");
            assert_eq!(state.life().is_applied("e1"), refused.is_none(), "{what}");
        }
    }

    #[test]
    fn an_examiner_reply_nobody_asked_for_is_refused() {
        let world = World::new();
        let mut assessment = world.assessment("UNTIMED", false);
        world.run(&mut assessment, Score::Satisfactory, START_MS);
        let mut exam = world.exam();
        world.run(&mut exam, Score::Satisfactory, START_MS);
        for (what, mut state) in [
            ("assessment", assessment),
            ("exam awaiting its answer", exam),
        ] {
            let before = crate::session::snapshot::checkpoint_of(&state);
            let refusal =
                state.take_examiner_reply(verdict(Score::Satisfactory), world.ctx(), START_MS + 1);
            assert_eq!(refusal.unwrap_err().code, ErrorCode::Internal, "{what}");
            assert_eq!(
                crate::session::snapshot::checkpoint_of(&state),
                before,
                "{what}"
            );
        }
    }

    #[test]
    fn only_a_live_timed_session_expires_and_only_after_its_deadline() {
        let world = World::new();
        let deadline = START_MS + 60_000;
        let mut paused = world.assessment("TIMED", false);
        paused
            .life_mut()
            .pause(viva_protocol::server::PauseReason::User, START_MS)
            .unwrap();
        let cases: [(&str, SessionState, u64, bool); 5] = [
            (
                "timed, before",
                world.assessment("TIMED", false),
                deadline - 1,
                false,
            ),
            (
                "timed, at the deadline",
                world.assessment("TIMED", false),
                deadline,
                true,
            ),
            (
                "untimed",
                world.assessment("UNTIMED", false),
                u64::MAX,
                false,
            ),
            ("exam", world.exam(), u64::MAX, false),
            ("timed, paused", paused, deadline, false),
        ];
        for (what, mut state, now, expires) in cases {
            assert_eq!(state.is_due_to_expire(now), expires, "{what}");
            assert_eq!(state.expire_if_due(world.ctx(), now), expires, "{what}");
            assert_eq!(state.result().is_some(), expires, "{what}");
        }
    }

    #[test]
    fn the_open_question_is_heard_only_while_it_awaits_an_answer() {
        let world = World::new();
        let mut exam = world.exam();
        assert_eq!(exam.open_question_kind(), None, "nothing asked yet");
        world.run(&mut exam, Score::Satisfactory, START_MS);
        assert_eq!(exam.open_question_kind(), Some("primary"));
        assert_eq!(
            exam.open_listening().map(|l| l.question_id()),
            Some("q1".into())
        );
        let mut item = world.assessment("UNTIMED", false);
        world.run(&mut item, Score::Satisfactory, START_MS);
        assert_eq!(
            (item.open_question_kind(), item.open_question_id()),
            (Some("item"), Some("i1".into()))
        );
        item.commit_answer(AnswerInput::Choice(0), None, world.ctx(), START_MS)
            .unwrap();
        item.life_mut()
            .pause(viva_protocol::server::PauseReason::User, START_MS)
            .unwrap();
        assert_eq!(item.open_question_kind(), None, "paused");
        assert!(item.open_listening().is_none(), "paused");
    }

    #[test]
    fn a_finished_exam_reports_its_element_scores_and_an_assessment_none() {
        let world = World::new();
        let mut exam = world.exam();
        world.run(&mut exam, Score::Satisfactory, START_MS);
        exam.commit_answer(
            AnswerInput::Text("the AROW".into()),
            None,
            world.ctx(),
            START_MS,
        )
        .unwrap();
        world.run(&mut exam, Score::Satisfactory, START_MS);
        exam.end(world.ctx(), START_MS + 1).unwrap();
        assert_eq!(
            exam.element_scores().get("PA.I.A.K1"),
            Some(&Score::Satisfactory)
        );
        assert!(
            world
                .assessment("UNTIMED", false)
                .element_scores()
                .is_empty()
        );
        let refusal = exam.end(world.ctx(), START_MS + 2).unwrap_err();
        assert_eq!(
            refusal.code,
            ErrorCode::SessionCompleted,
            "an ended session ends once"
        );
    }
}
