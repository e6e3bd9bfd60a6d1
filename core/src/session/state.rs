//! `SessionState`: a session of any mode, as the actor sees it — its [`Lifecycle`] plus one
//! [`SessionMode`]. The actor asks it for work, runs what the work needs (the examiner, the
//! mode's call, the side-record store), and lets it do everything else itself.

use viva_protocol::result::SessionResult;
use viva_protocol::{ErrorCode, Mode};

use super::lifecycle::Lifecycle;
use super::phase::LivePhase;
use super::side::{SideClaim, SideHold, SideKey, SideWrite};
use crate::base::{AnswerInput, Listening, ModeInput, Refusal};
use crate::examiner::QuestionDraft;
use crate::review::ElementOutcome;

pub use super::mode::{
    Call, CallAnswer, OpenQuestionRef, SessionMode, StepContext, Work, WorkReply,
};

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

    /// The lifecycle and the mode, both mutably (for a mode's own commands in its tests).
    pub fn parts_mut(&mut self) -> (&mut Lifecycle, &mut dyn SessionMode) {
        (&mut self.life, &mut *self.mode)
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

    /// The call a [`Work::Call`] runs.
    pub fn call(&self, ctx: StepContext<'_>, now_ms: u64) -> Option<Call> {
        self.mode.call(ctx, now_ms)
    }

    /// Takes what came back for the work the mode asked for.
    pub fn take_reply(
        &mut self,
        reply: WorkReply,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.mode.take_reply(&mut self.life, reply, ctx, now_ms)
    }

    /// Queues `session.started`.
    pub fn announce_start(&mut self, ctx: StepContext<'_>) {
        self.mode.announce_start(&mut self.life, ctx);
    }

    /// Takes the client's input and queues its `ack`.
    pub fn take_input(
        &mut self,
        input: ModeInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.mode
            .take_input(&mut self.life, input, event_id, ctx, now_ms)
    }

    /// Commits an answer to the open question and queues its `ack`.
    pub fn commit_answer(
        &mut self,
        input: AnswerInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.take_input(ModeInput::Answer(input), event_id, ctx, now_ms)
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
        self.mode.result(false)
    }

    /// The result with the audit trail, for its owner once completed.
    pub fn result_with_audit(&self) -> Option<SessionResult> {
        self.mode.result(true)
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

    /// The question most likely asked after the open one, to phrase ahead.
    pub fn question_ahead(&self) -> Option<QuestionDraft> {
        self.mode.question_ahead(&self.life)
    }

    /// Outcomes by element, for the user's element history once the session ends, each at
    /// the time it was assessed (the session's last change where the mode noted none).
    pub fn history(&self) -> Vec<ElementOutcome> {
        self.mode.history(self.life.updated_at_ms)
    }

    /// The side records the session holds, to claim again on resume.
    pub fn side_holds(&self) -> Vec<SideHold> {
        self.mode.side_holds()
    }

    /// The side records changed since they were last stored.
    pub fn side_writes(&self) -> Vec<SideWrite> {
        self.mode.side_writes()
    }

    /// A side record's write at `revision` is stored.
    pub fn side_stored(&mut self, key: &SideKey, revision: u64) {
        self.mode.side_stored(key, revision);
    }

    /// A side record claimed again on resume.
    pub fn side_reclaimed(&mut self, claim: SideClaim) -> Result<(), Refusal> {
        self.mode.side_reclaimed(&self.life, claim)
    }
}

/// The refusal of a mode event a session's mode does not take.
pub fn wrong_mode(mode: Mode, event: &str) -> Refusal {
    Refusal::new(
        ErrorCode::WrongMode,
        format!(
            "{event} needs another kind of session; this is a {} session",
            mode.as_str()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::types::Score;
    use crate::modes::test_sessions::{START_MS, World, verdict};

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
            let refusal = state.take_reply(verdict(Score::Satisfactory), world.ctx(), START_MS + 1);
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
        let history = exam.history();
        let k1 = history
            .iter()
            .find(|outcome| outcome.element == "PA.I.A.K1");
        let satisfactory = crate::review::Recall::Satisfactory;
        assert_eq!(
            k1.map(|outcome| (outcome.recall, outcome.at_ms)),
            Some((satisfactory, START_MS)),
            "the outcome at the time it was assessed"
        );
        assert!(world.assessment("UNTIMED", false).history().is_empty());
        let refusal = exam.end(world.ctx(), START_MS + 2).unwrap_err();
        assert_eq!(
            refusal.code,
            ErrorCode::SessionCompleted,
            "an ended session ends once"
        );
    }
}
