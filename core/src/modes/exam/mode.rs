//! The ACS oral exam as a [`SessionMode`]: the examiner assesses and phrases, the exam
//! grades itself when its plan is done.

use viva_protocol::config::{ExamConfig, ExamRating};
use viva_protocol::result::{SessionResult, Trigger};
use viva_protocol::{ErrorCode, Mode};

use crate::base::{AnswerInput, Listening, ModeInput, Refusal};
use crate::checkpoint::format::TurnCheckpoint;
use crate::checkpoint::sections::ModeCheckpoint;
use crate::exam::types::Score;
use crate::modes::exam::snapshot::{exam_checkpoint, turn_checkpoint};
use crate::modes::exam::transitions::NewExam;
use crate::modes::exam::{ExamCore, PendingWork, QuestionDraft};
use crate::modes::opening::Opening;
use crate::review::{ElementOutcome, review_book};
use crate::session::lifecycle::Lifecycle;
use crate::session::mode::{
    OpenQuestionRef, SessionMode, StepContext, Work, WorkReply, unasked_reply,
};
use crate::session::rules::{SessionLabel, SessionMarks};
use crate::session::state::wrong_mode;

/// What an exam is, for its user's list: "Private pilot oral exam".
pub fn label(config: &ExamConfig) -> SessionLabel {
    let rating = match config.rating {
        ExamRating::Private => "Private",
        ExamRating::Commercial => "Commercial",
    };
    SessionLabel {
        mode: Mode::Exam,
        title: format!("{rating} pilot oral exam"),
        marks: SessionMarks::default(),
    }
}

/// A new exam, its plan built from the config and the user's element history (for weak
/// areas: what is due at the opening's time; unknown score names count as none).
pub fn open(
    config: ExamConfig,
    opening: &Opening,
    ctx: StepContext<'_>,
) -> Result<ExamCore, Refusal> {
    let review = review_book(&opening.element_history, &opening.history);
    let new = NewExam {
        config,
        default_seed: opening.seed,
        defaults: ctx.plan_defaults,
        review: &review,
        now_ms: opening.now_ms,
    };
    ExamCore::create(new, ctx.acs)
}

impl SessionMode for ExamCore {
    fn kind(&self) -> Mode {
        Mode::Exam
    }

    fn announce_start(&mut self, life: &mut Lifecycle, _ctx: StepContext<'_>) {
        ExamCore::announce_start(self, life);
    }

    fn work(&self, life: &Lifecycle) -> Work {
        match self.pending_work(life) {
            PendingWork::Assess(request) => Work::Assess(request),
            PendingWork::Ask(draft) => Work::Phrase(draft),
            PendingWork::AskScenario(_) | PendingWork::Finish => Work::Step,
            PendingWork::Nothing => Work::Nothing,
        }
    }

    fn step(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        match self.pending_work(life) {
            PendingWork::AskScenario(draft) => self.ask_scenario(life, draft, ctx.acs, now_ms),
            PendingWork::Finish => {
                let catalog = ctx.acs.catalog(self.rating());
                self.complete(life, Trigger::AllTasksCovered, catalog, now_ms)
            }
            _ => Err(Refusal::new(ErrorCode::Internal, "no exam step is due")),
        }
    }

    fn take_reply(
        &mut self,
        life: &mut Lifecycle,
        reply: WorkReply,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        match (self.work(life), reply) {
            (Work::Assess(_), WorkReply::Assessed(verdict)) => {
                self.store_assessment(life, verdict, now_ms)
            }
            (Work::Phrase(wanted), WorkReply::Phrased(draft, words)) if wanted == draft => {
                let words = self.bridged(&draft, words, ctx.acs);
                self.commit_question(life, draft, words, now_ms)
            }
            _ => Err(unasked_reply()),
        }
    }

    fn take_input(
        &mut self,
        life: &mut Lifecycle,
        input: ModeInput,
        event_id: Option<String>,
        _ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        match input {
            ModeInput::Answer(AnswerInput::Text(text)) => {
                ExamCore::commit_answer(self, life, text, event_id, now_ms)
            }
            ModeInput::Event(event) => Err(wrong_mode(Mode::Exam, event.type_name())),
            ModeInput::Answer(AnswerInput::Choice(_) | AnswerInput::Skip) => {
                life.require_live()?;
                Err(Refusal::new(
                    ErrorCode::InvalidAnswer,
                    "exam questions are answered with answer.text",
                ))
            }
        }
    }

    fn end(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let catalog = ctx.acs.catalog(self.rating());
        self.complete(life, Trigger::UserEnded, catalog, now_ms)
    }

    fn resume(
        &mut self,
        life: &mut Lifecycle,
        _ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        ExamCore::resume(self, life, now_ms)
    }

    fn result(&self, with_audit: bool) -> Option<SessionResult> {
        match with_audit {
            true => self.result_with_transcript().map(SessionResult::Exam),
            false => self.result.clone().map(SessionResult::Exam),
        }
    }

    fn open_question(&self) -> Option<OpenQuestionRef> {
        self.open_question.as_ref().map(|open| OpenQuestionRef {
            question_id: open.question_id.clone(),
            kind: open.kind.as_str(),
        })
    }

    fn listening(&self) -> Option<Listening<'_>> {
        self.open_question.as_ref().map(|open| Listening::Exam {
            question_id: &open.question_id,
            question: &open.text,
            element_code: &open.element_code,
            rating: self.rating(),
        })
    }

    fn question_ahead(&self, life: &Lifecycle) -> Option<QuestionDraft> {
        ExamCore::likely_next_question(self, life)
    }

    fn history(&self, finished_ms: u64) -> Vec<ElementOutcome> {
        let scores = self.plan.scores.iter();
        let outcome = |(code, score): (&String, &Score)| ElementOutcome {
            element: code.clone(),
            recall: score.recall(),
            at_ms: self.assessed_at.get(code).copied().unwrap_or(finished_ms),
        };
        let mut outcomes: Vec<ElementOutcome> = scores.map(outcome).collect();
        outcomes.sort_by(|a, b| a.element.cmp(&b.element));
        outcomes
    }

    fn checkpoint(&self) -> ModeCheckpoint {
        ModeCheckpoint::Exam(Box::new(exam_checkpoint(self)))
    }

    fn transcript(&self) -> Vec<TurnCheckpoint> {
        self.transcript.iter().map(turn_checkpoint).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::types::{QuestionKind, Score};
    use crate::examiner::Examined;
    use crate::modes::test_sessions::{START_MS, World, verdict};
    use crate::session::state::SessionState;

    #[test]
    fn only_the_reply_to_the_work_asked_for_is_taken() {
        let world = World::new();
        let (mut core, mut life) = (world.exam_core(), world.life());
        let Work::Phrase(draft) = SessionMode::work(&core, &life) else {
            panic!("a new exam phrases its first question");
        };
        let mut other = draft.clone();
        other.number += 1;
        let words = || Examined::offline("Which documents?".to_owned());
        let cases = [
            (verdict(Score::Satisfactory), Some(ErrorCode::Internal)),
            (
                WorkReply::Phrased(other, words()),
                Some(ErrorCode::Internal),
            ),
            (WorkReply::Phrased(draft, words()), None),
            (verdict(Score::Satisfactory), Some(ErrorCode::Internal)),
        ];
        for (reply, refused) in cases {
            let got = core.take_reply(&mut life, reply, world.ctx(), START_MS);
            assert_eq!(got.err().map(|r| r.code), refused);
        }
        assert_eq!(core.questions_asked, 1, "one question, asked once");
    }

    #[test]
    fn a_pure_step_is_taken_only_when_the_exam_is_due_to_finish() {
        let world = World::new();
        let (mut core, mut life) = (world.exam_core(), world.life());
        let refused = core.step(&mut life, world.ctx(), START_MS);
        assert_eq!(
            refused.unwrap_err().code,
            ErrorCode::Internal,
            "a new exam asks first"
        );
        core.next_step = Some(crate::modes::exam::StepAfter::Finish);
        life.phase = crate::session::phase::Phase::Assessed;
        core.step(&mut life, world.ctx(), START_MS).unwrap();
        assert!(core.result.is_some());
    }

    #[test]
    fn the_history_reports_each_element_at_its_assessment_or_else_the_finish() {
        use crate::review::Recall;
        let world = World::new();
        let mut core = world.exam_core();
        core.plan.scores.insert("PA.I.A.K2".into(), Score::Partial);
        core.plan
            .scores
            .insert("PA.I.A.K1".into(), Score::Unsatisfactory);
        core.assessed_at.insert("PA.I.A.K1".into(), START_MS + 5);
        let reported: Vec<(String, Recall, u64)> = SessionMode::history(&core, START_MS + 9)
            .into_iter()
            .map(|o| (o.element, o.recall, o.at_ms))
            .collect();
        let expected = vec![
            ("PA.I.A.K1".to_owned(), Recall::Unsatisfactory, START_MS + 5),
            // Noted before assessment times were kept: the session's finish time.
            ("PA.I.A.K2".to_owned(), Recall::Partial, START_MS + 9),
        ];
        assert_eq!(reported, expected);
    }

    /// Answers the open question with `score`, then returns the question the exam asks next.
    fn next_after(world: &World, state: &mut SessionState, score: Score) -> Option<QuestionDraft> {
        let answer = AnswerInput::Text("An answer.".into());
        state
            .commit_answer(answer, None, world.ctx(), START_MS)
            .unwrap();
        match state.work() {
            Work::Assess(_) => state
                .take_reply(verdict(score), world.ctx(), START_MS)
                .unwrap(),
            work => panic!("an answer is assessed first, not {work:?}"),
        }
        while let Work::Step = state.work() {
            state.step(world.ctx(), START_MS).unwrap();
        }
        match state.work() {
            Work::Phrase(draft) => Some(draft),
            _ => None,
        }
    }

    #[test]
    fn the_likely_next_question_is_the_one_asked_after_a_plain_answer_and_no_other() {
        let world = World::new();
        let mut state = world.exam();
        world.run(&mut state, Score::Satisfactory, START_MS);
        let likely = state.question_ahead().expect("a question is open");
        assert_eq!(likely.request.kind, QuestionKind::Primary);
        let asked = next_after(&world, &mut state, Score::Satisfactory).expect("another question");
        assert!(
            likely.request.phrased_alike(&asked.request),
            "{likely:?} vs {asked:?}"
        );
        assert_eq!(
            (likely.number, likely.planner_index),
            (asked.number, asked.planner_index)
        );

        world.run(&mut state, Score::Satisfactory, START_MS);
        let likely = state.question_ahead().expect("a question is open");
        let asked = next_after(&world, &mut state, Score::Partial).expect("a follow-up");
        assert_eq!(asked.request.kind, QuestionKind::FollowUp);
        assert!(
            !likely.request.phrased_alike(&asked.request),
            "a follow-up took its place"
        );
        assert!(
            state.question_ahead().is_none(),
            "nothing is open while phrasing"
        );
    }
}
