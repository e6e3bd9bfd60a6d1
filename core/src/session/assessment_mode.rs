//! The blueprint assessment as a [`SessionMode`]: every step is pure (generate, judge,
//! grade), and a timed assessment completes itself when its time runs out.

use viva_blueprint::library::BlueprintLibrary;
use viva_protocol::result::{AssessmentTrigger, SessionResult};
use viva_protocol::{ErrorCode, Mode};

use super::assessment::{AnswerInput, AssessmentCore, AssessmentWork, Response};
use super::assessment_snapshot::assessment_checkpoint;
use super::lifecycle::{Lifecycle, Refusal};
use super::mode::{Listening, OpenQuestionRef, SessionMode, StepContext, Work};
use crate::checkpoint::format::SessionCheckpoint;

impl SessionMode for AssessmentCore {
    fn kind(&self) -> Mode {
        Mode::Assessment
    }

    fn announce_start(&mut self, life: &mut Lifecycle, ctx: StepContext<'_>) {
        AssessmentCore::announce_start(self, life, ctx.blueprints);
    }

    fn work(&self, life: &Lifecycle) -> Work {
        match self.pending_work(life) {
            AssessmentWork::Nothing => Work::Nothing,
            AssessmentWork::Judge | AssessmentWork::Ask(_) | AssessmentWork::Finish => Work::Step,
        }
    }

    fn step(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        match self.pending_work(life) {
            AssessmentWork::Judge => self.judge(life, now_ms),
            AssessmentWork::Ask(index) => ask_slot(self, life, index, ctx.blueprints, now_ms),
            AssessmentWork::Finish => {
                let trigger = self.finish_trigger();
                self.complete(life, trigger, ctx.blueprints, now_ms)
            }
            AssessmentWork::Nothing => Err(Refusal::new(
                ErrorCode::Internal,
                "no assessment step is due",
            )),
        }
    }

    fn commit_answer(
        &mut self,
        life: &mut Lifecycle,
        input: AnswerInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let allow_skip = ctx
            .blueprints
            .assessment(&self.assessment_id)
            .is_some_and(|a| a.allow_skip);
        AssessmentCore::commit_answer(self, life, input, allow_skip, event_id, now_ms)
    }

    fn end(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.complete(life, AssessmentTrigger::UserEnded, ctx.blueprints, now_ms)
    }

    fn deadline_ms(&self) -> Option<u64> {
        self.deadline_ms
    }

    fn expire(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.complete(life, AssessmentTrigger::TimeLimit, ctx.blueprints, now_ms)
    }

    fn resume(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        AssessmentCore::resume(self, life, ctx.blueprints, now_ms)
    }

    fn result(&self) -> Option<SessionResult> {
        self.result.clone().map(SessionResult::Assessment)
    }

    fn result_with_audit(&self) -> Option<SessionResult> {
        AssessmentCore::result_with_audit(self).map(SessionResult::Assessment)
    }

    fn open_question(&self) -> Option<OpenQuestionRef> {
        self.current.map(|index| OpenQuestionRef {
            question_id: item_id(index),
            kind: "item",
        })
    }

    fn listening(&self) -> Option<Listening<'_>> {
        let index = self.current?;
        let item = self.items.get(index)?.item.as_ref()?;
        Some(Listening::Item {
            question_id: item_id(index),
            item,
        })
    }

    fn write_checkpoint(&self, checkpoint: &mut SessionCheckpoint) {
        checkpoint.mode = Mode::Assessment;
        checkpoint.assessment = Some(assessment_checkpoint(self));
    }

    fn clone_mode(&self) -> Box<dyn SessionMode> {
        Box::new(self.clone())
    }
}

/// The id of slot `index`: `i1` for the first.
pub fn item_id(index: usize) -> String {
    format!("i{}", index + 1)
}

/// Generates and asks slot `index`. A skill that cannot generate (a defect in a blueprint
/// written elsewhere; the shipped ones are property-tested) loses its slot, which is
/// recorded as skipped and logged, rather than stalling the session.
fn ask_slot(
    core: &mut AssessmentCore,
    life: &mut Lifecycle,
    index: usize,
    blueprints: &BlueprintLibrary,
    now_ms: u64,
) -> Result<(), Refusal> {
    match core.generate_slot(index, blueprints) {
        Ok(item) => core.ask(life, index, item, blueprints, now_ms),
        Err(err) => {
            tracing::error!(session = %life.session_id, %err, "item generation failed; slot dropped");
            core.items[index].response = Some(Response {
                given: None,
                correct: false,
                skipped: true,
                answered_at_ms: now_ms,
            });
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::test_sessions::{START_MS, World};

    #[test]
    fn every_step_is_pure_and_none_is_taken_when_none_is_due() {
        let world = World::new();
        let mut life = world.life();
        let mut core =
            AssessmentCore::create(START_MS, "UNTIMED", false, 3, &world.blueprints).unwrap();
        let rows = [(Work::Step, "i1"), (Work::Nothing, "i1")];
        for (work, open) in rows {
            assert_eq!(SessionMode::work(&core, &life), work);
            if work == Work::Step {
                core.step(&mut life, world.ctx(), START_MS).unwrap();
            }
            assert_eq!(
                core.open_question().map(|q| q.question_id).as_deref(),
                Some(open)
            );
        }
        let refused = core.step(&mut life, world.ctx(), START_MS);
        assert_eq!(
            refused.unwrap_err().code,
            ErrorCode::Internal,
            "waiting for an answer"
        );
        assert_eq!([item_id(0), item_id(9)], ["i1", "i10"]);
    }
}
