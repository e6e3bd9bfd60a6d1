//! The blueprint assessment as a [`SessionMode`]: every step is pure (generate, judge,
//! grade), and a timed assessment completes itself when its time runs out.

use viva_blueprint::library::BlueprintLibrary;
use viva_protocol::config::AssessmentConfig;
use viva_protocol::result::{AssessmentTrigger, SessionResult};
use viva_protocol::{ErrorCode, Mode};

use crate::base::{Listening, ModeInput, Refusal};
use crate::checkpoint::sections::ModeCheckpoint;
use crate::modes::assessment::snapshot::assessment_checkpoint;
use crate::modes::assessment::{AssessmentCore, AssessmentWork, Response};
use crate::modes::opening::Opening;
use crate::session::lifecycle::Lifecycle;
use crate::session::mode::{OpenQuestionRef, SessionMode, StepContext, Work};
use crate::session::rules::{SessionLabel, SessionMarks};
use crate::session::state::wrong_mode;

/// What an assessment is, for its user's list: "Math fundamentals (evaluation)". An
/// evaluation is marked so that no tutor runs beside it.
pub fn label(config: &AssessmentConfig, ctx: StepContext<'_>) -> SessionLabel {
    let id = &config.assessment_id;
    let found = ctx.blueprints.assessment(id);
    let name = found.map_or(id.as_str(), |a| a.title.as_str());
    let kind = if config.learning {
        "learning"
    } else {
        "evaluation"
    };
    SessionLabel {
        mode: Mode::Assessment,
        title: format!("{name} ({kind})"),
        marks: SessionMarks {
            evaluation: !config.learning,
            coaching: false,
        },
    }
}

/// A new assessment of the configured blueprint.
pub fn open(
    config: &AssessmentConfig,
    opening: &Opening,
    ctx: StepContext<'_>,
) -> Result<AssessmentCore, Refusal> {
    let seed = assessment_seed(config.learning, config.seed, opening.seed);
    let id = &config.assessment_id;
    AssessmentCore::create(opening.now_ms, id, config.learning, seed, ctx.blueprints)
}

/// The seed an assessment's items come from. An evaluation always uses the server's own
/// seed: a client seed there would let a second run (or a learning run with the same seed)
/// replay the first run's items and so its keys. A learning session honours a client seed,
/// for reproducible practice.
fn assessment_seed(learning: bool, client_seed: Option<u64>, server_seed: u64) -> u64 {
    match client_seed {
        Some(seed) if learning => seed,
        _ => server_seed,
    }
}

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

    fn take_input(
        &mut self,
        life: &mut Lifecycle,
        input: ModeInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let input = match input {
            ModeInput::Answer(answer) => answer,
            ModeInput::Event(event) => {
                return Err(wrong_mode(Mode::Assessment, event.type_name()));
            }
        };
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

    fn result(&self, with_audit: bool) -> Option<SessionResult> {
        match with_audit {
            true => AssessmentCore::result_with_audit(self).map(SessionResult::Assessment),
            false => self.result.clone().map(SessionResult::Assessment),
        }
    }

    fn marks(&self) -> SessionMarks {
        SessionMarks {
            evaluation: !self.learning,
            coaching: false,
        }
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

    fn checkpoint(&self) -> ModeCheckpoint {
        ModeCheckpoint::Assessment(Box::new(assessment_checkpoint(self)))
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

    #[test]
    fn only_learning_sessions_honour_a_client_seed() {
        assert_eq!(assessment_seed(true, Some(7), 99), 7);
        assert_eq!(assessment_seed(true, None, 99), 99);
        assert_eq!(assessment_seed(false, Some(7), 99), 99);
        assert_eq!(assessment_seed(false, None, 99), 99);
    }
    use crate::modes::test_sessions::{START_MS, World};

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
