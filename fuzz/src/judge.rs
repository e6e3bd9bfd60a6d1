//! The examiner's judge as an exam runs it: a generated answer (adversarial shapes, rubric
//! words, mutated labelled answers, up to the frame limit; `answers`) assessed for its
//! element with mention credit against every other oral element pending.

use std::time::Duration;

use viva_core::examiner::{AssessRequest, EmbeddedExaminer};

use crate::answers::AnswerWorld;
use crate::corpus::CorpusError;
use crate::draw::Draw;
use crate::run::{Target, excerpt};

/// The judge.
pub struct Judge {
    world: AnswerWorld,
    examiner: EmbeddedExaminer,
}

impl Judge {
    /// Reads the library, rubrics and labelled answers, and prepares every rubric.
    pub fn load() -> Result<Judge, CorpusError> {
        let world = AnswerWorld::load()?;
        let examiner = EmbeddedExaminer::new(world.library.clone());
        let warm = world.request(&mut Draw::new(0, u64::MAX), "three landings".to_owned());
        examiner.assess_now(&warm);
        Ok(Judge { world, examiner })
    }
}

impl Target for Judge {
    type Input = AssessRequest;

    fn name(&self) -> &'static str {
        "judge"
    }

    fn bound(&self) -> Duration {
        Duration::from_millis(50)
    }

    fn input(&self, draw: &mut Draw) -> AssessRequest {
        let (_, answer) = self.world.answer(draw);
        self.world.request(draw, answer)
    }

    fn run(&self, input: &AssessRequest) {
        std::hint::black_box(self.examiner.assess_now(input));
    }

    fn describe(&self, input: &AssessRequest) -> String {
        excerpt(&input.answer)
    }
}
