//! `ExamCore`: the whole state of one exam session and every rule that changes it, as a
//! plain struct with no IO. The actor feeds it events, runs the examiner and the store,
//! and sends what it leaves in its outbox.

use viva_protocol::config::{Difficulty, ExamConfig};
use viva_protocol::result::{ExamResult, TranscriptTurn};
use viva_protocol::server::Progress;

use crate::exam::acs::Rating;
use crate::exam::plan::ExamPlan;
use crate::exam::planner::PlannerState;
use crate::exam::types::{QuestionDifficulty, QuestionKind, Score};
use crate::examiner::{AssessRequest, ExaminerCall, PreviousTurn, QuestionRequest};
pub use crate::examiner::{QuestionDraft, question_id};
use crate::session::lifecycle::Lifecycle;
use crate::session::phase::Phase;

pub use crate::session::lifecycle::Refusal;

pub mod mode;
pub mod snapshot;
pub mod transitions;

/// The question currently open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenQuestion {
    /// `q<number>`.
    pub question_id: String,
    /// The element asked about.
    pub element_code: String,
    /// Primary, follow-up or bonus.
    pub kind: QuestionKind,
    /// 1-based number.
    pub number: u32,
    /// The words asked.
    pub text: String,
    /// A committed answer awaiting assessment.
    pub pending_answer: Option<String>,
    /// A follow-up's missing terms: what the answer before it left out, which its answer is
    /// judged on; empty for any other question.
    pub missing_terms: Vec<String>,
}

/// One question of the transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Question id.
    pub question_id: String,
    /// The element asked about.
    pub element_code: String,
    /// Question kind.
    pub kind: QuestionKind,
    /// The words asked.
    pub question: String,
    /// The committed answer.
    pub answer: Option<String>,
    /// The score.
    pub score: Option<Score>,
    /// The feedback.
    pub feedback: Option<String>,
    /// The turn log: the model calls behind this turn's question and assessment.
    pub examiner: Vec<ExaminerCall>,
}

/// What comes after an assessment, until it is done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepAfter {
    /// A follow-up on this element, asking about what was missing.
    FollowUp {
        /// The element.
        element_code: String,
        /// Readable missing terms.
        missing_terms: Vec<String>,
    },
    /// A new element.
    Ask(QuestionKind),
    /// Grade the exam.
    Finish,
}

/// Work the session must do before it waits for the candidate again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PendingWork {
    /// Assess the committed answer.
    Assess(AssessRequest),
    /// Phrase and commit this question.
    Ask(QuestionDraft),
    /// Grade the exam.
    Finish,
    /// Nothing: waiting for the candidate, paused, or ended.
    Nothing,
}

/// The state of one exam session.
#[derive(Debug, Clone)]
pub struct ExamCore {
    /// The `session.start` config.
    pub config: ExamConfig,
    /// Seed of the ordering.
    pub seed: u64,
    /// The plan.
    pub plan: ExamPlan,
    /// The planner.
    pub planner: PlannerState,
    /// What follows the last assessment.
    pub next_step: Option<StepAfter>,
    /// Questions asked, follow-ups included.
    pub questions_asked: u32,
    /// Answers committed.
    pub answered: u32,
    /// The open question.
    pub open_question: Option<OpenQuestion>,
    /// The result, once graded.
    pub result: Option<ExamResult>,
    /// Questions, answers and assessments.
    pub transcript: Vec<Turn>,
}

impl ExamCore {
    /// The result with every question, answer and score, for its owner once graded.
    pub fn result_with_transcript(&self) -> Option<ExamResult> {
        let mut result = self.result.clone()?;
        result.transcript = self
            .transcript
            .iter()
            .map(|turn| TranscriptTurn {
                question_id: turn.question_id.clone(),
                element_code: turn.element_code.clone(),
                kind: turn.kind.as_str().to_owned(),
                answer: turn.answer.clone(),
                score: turn.score.map(|score| score.as_str().to_owned()),
                examiner: turn.examiner.clone(),
            })
            .collect();
        Some(result)
    }

    /// The rating of the exam.
    pub fn rating(&self) -> Rating {
        rating_of(&self.config)
    }

    /// Progress counters.
    pub fn progress(&self) -> Progress {
        Progress {
            asked: self.plan.asked_count,
            planned_questions: self.plan.planned_question_count,
            answered: self.answered,
            credited_by_mention: self
                .plan
                .count(crate::exam::plan::Coverage::CreditedByMention),
            bonus_used: self.plan.bonus_used,
        }
    }

    /// Decides the work to do now; pure.
    pub fn pending_work(&self, life: &Lifecycle) -> PendingWork {
        if life.phase.live().is_none() {
            return PendingWork::Nothing;
        }
        if let Some(open) = &self.open_question {
            return match &open.pending_answer {
                Some(answer) => PendingWork::Assess(self.assess_request(open, answer)),
                None => PendingWork::Nothing,
            };
        }
        match &self.next_step {
            Some(StepAfter::Finish) => PendingWork::Finish,
            Some(StepAfter::FollowUp {
                element_code,
                missing_terms,
            }) => PendingWork::Ask(self.draft(
                None,
                element_code.clone(),
                QuestionKind::FollowUp,
                missing_terms.clone(),
            )),
            Some(StepAfter::Ask(kind)) => self.next_element_work(*kind),
            None if life.phase == Phase::Idle => self.next_element_work(QuestionKind::Primary),
            None => PendingWork::Nothing,
        }
    }

    /// While a question waits for its answer, the question most likely asked next: the
    /// plan's next element, as it would be drafted if the answer were satisfactory and
    /// mentioned no other element (a primary question, or the bonus one already earned). A model may phrase it while the candidate speaks
    /// ([`QuestionRequest::phrased_alike`] tells whether it still fits when the time comes).
    /// `None` when nothing is open, an answer is in, or the plan is used up.
    pub fn likely_next_question(&self, life: &Lifecycle) -> Option<QuestionDraft> {
        life.phase.live()?;
        let open = self.open_question.as_ref()?;
        if open.pending_answer.is_some() || self.plan.quota_reached() {
            return None;
        }
        let pending = |code: &str| code != open.element_code && self.plan.is_pending(code);
        let index = self.planner.next_element(pending)?;
        let number = self.questions_asked + 1;
        Some(QuestionDraft {
            planner_index: Some(index),
            request: QuestionRequest {
                rating: self.rating(),
                element_code: self.planner.queue[index].clone(),
                kind: match self.plan.bonus_pending {
                    true => QuestionKind::Bonus,
                    false => QuestionKind::Primary,
                },
                difficulty: question_difficulty(self.config.difficulty, number),
                missing_terms: Vec::new(),
                previous: Some(PreviousTurn {
                    element_code: open.element_code.clone(),
                    question: open.text.clone(),
                    answer: None,
                }),
            },
            number,
        })
    }

    fn next_element_work(&self, kind: QuestionKind) -> PendingWork {
        if self.plan.quota_reached() {
            return PendingWork::Finish;
        }
        match self.planner.next_element(|code| self.plan.is_pending(code)) {
            Some(index) => {
                let code = self.planner.queue[index].clone();
                PendingWork::Ask(self.draft(Some(index), code, kind, Vec::new()))
            }
            None => PendingWork::Finish,
        }
    }

    fn draft(
        &self,
        index: Option<usize>,
        code: String,
        kind: QuestionKind,
        missing: Vec<String>,
    ) -> QuestionDraft {
        let number = self.questions_asked + 1;
        QuestionDraft {
            planner_index: index,
            request: QuestionRequest {
                rating: self.rating(),
                element_code: code,
                kind,
                difficulty: question_difficulty(self.config.difficulty, number),
                missing_terms: missing,
                previous: self.previous_turn(),
            },
            number,
        }
    }

    fn previous_turn(&self) -> Option<PreviousTurn> {
        self.transcript.last().map(|turn| PreviousTurn {
            element_code: turn.element_code.clone(),
            question: turn.question.clone(),
            answer: turn.answer.clone(),
        })
    }

    fn assess_request(&self, open: &OpenQuestion, answer: &str) -> AssessRequest {
        let other_pending = self
            .planner
            .queue
            .iter()
            .filter(|code| **code != open.element_code && self.plan.is_pending(code))
            .cloned()
            .collect();
        AssessRequest {
            rating: self.rating(),
            element_code: open.element_code.clone(),
            question: open.text.clone(),
            answer: answer.to_owned(),
            other_pending,
            follow_ups_left: self.follow_ups_left(&open.element_code),
            missing_terms: open.missing_terms.clone(),
        }
    }

    fn follow_ups_left(&self, code: &str) -> u32 {
        let used = self.plan.follow_ups.get(code).copied().unwrap_or(0);
        self.plan.follow_up_max_per_element.saturating_sub(used)
    }
}

/// The ACS rating an exam config asks for.
pub fn rating_of(config: &ExamConfig) -> Rating {
    match config.rating {
        viva_protocol::config::ExamRating::Private => Rating::Private,
        viva_protocol::config::ExamRating::Commercial => Rating::Commercial,
    }
}

/// The difficulty of question `number`; `mixed` rotates easy, medium, hard.
pub fn question_difficulty(difficulty: Difficulty, number: u32) -> QuestionDifficulty {
    match difficulty {
        Difficulty::Easy => QuestionDifficulty::Easy,
        Difficulty::Medium => QuestionDifficulty::Medium,
        Difficulty::Hard => QuestionDifficulty::Hard,
        Difficulty::Mixed => match number % 3 {
            1 => QuestionDifficulty::Easy,
            2 => QuestionDifficulty::Medium,
            _ => QuestionDifficulty::Hard,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::test_sessions::World;
    use crate::session::phase::LivePhase;

    /// The work as one line: what to do, on which element, of which kind.
    fn describe(work: &PendingWork) -> String {
        match work {
            PendingWork::Assess(request) => {
                format!("assess {} {:?}", request.element_code, request.answer)
            }
            PendingWork::Ask(draft) => format!(
                "ask q{} {} {} {:?} {:?}",
                draft.number,
                draft.request.element_code,
                draft.request.kind.as_str(),
                draft.planner_index,
                draft.request.missing_terms,
            ),
            PendingWork::Finish => "finish".into(),
            PendingWork::Nothing => "nothing".into(),
        }
    }

    fn open(pending_answer: Option<&str>) -> OpenQuestion {
        OpenQuestion {
            question_id: "q1".into(),
            element_code: "PA.I.A.K1".into(),
            kind: QuestionKind::Primary,
            number: 1,
            text: "Which documents?".into(),
            pending_answer: pending_answer.map(str::to_owned),
            missing_terms: Vec::new(),
        }
    }

    #[test]
    fn the_work_follows_from_the_phase_the_open_question_and_the_next_step() {
        let world = World::new();
        let follow_up = StepAfter::FollowUp {
            element_code: "PA.I.A.K1".into(),
            missing_terms: vec!["airworthiness".into()],
        };
        let paused = Phase::Paused {
            resume_to: LivePhase::Idle,
        };
        let cases: [(Phase, Option<OpenQuestion>, Option<StepAfter>, &str); 10] = [
            (
                Phase::Idle,
                None,
                None,
                "ask q1 PA.I.A.K1 primary Some(0) []",
            ),
            (paused, None, None, "nothing"),
            (Phase::Completed, None, None, "nothing"),
            (Phase::AwaitingAnswer, Some(open(None)), None, "nothing"),
            (
                Phase::AwaitingAnswer,
                Some(open(Some("the AROW"))),
                None,
                "assess PA.I.A.K1 \"the AROW\"",
            ),
            (
                Phase::Assessed,
                None,
                Some(follow_up),
                "ask q1 PA.I.A.K1 follow_up None [\"airworthiness\"]",
            ),
            (
                Phase::Assessed,
                None,
                Some(StepAfter::Ask(QuestionKind::Bonus)),
                "ask q1 PA.I.A.K1 bonus Some(0) []",
            ),
            (Phase::Assessed, None, Some(StepAfter::Finish), "finish"),
            (Phase::Assessed, None, None, "nothing"),
            (paused, Some(open(Some("the AROW"))), None, "nothing"),
        ];
        for (phase, open_question, next_step, expected) in cases {
            let mut life = world.life();
            life.phase = phase;
            let core = ExamCore {
                open_question,
                next_step,
                ..world.exam_core()
            };
            assert_eq!(describe(&core.pending_work(&life)), expected, "{phase:?}");
        }
    }

    #[test]
    fn an_exam_whose_quota_is_reached_or_queue_is_done_finishes() {
        let world = World::new();
        let life = world.life();
        let mut core = world.exam_core();
        core.plan.asked_count = core.plan.planned_question_count;
        assert_eq!(
            core.pending_work(&life),
            PendingWork::Finish,
            "quota reached"
        );
        let mut core = world.exam_core();
        for code in core.planner.queue.clone() {
            core.plan.mark_asked(&code);
        }
        core.plan.asked_count = 0;
        assert_eq!(
            core.pending_work(&life),
            PendingWork::Finish,
            "nothing left to ask"
        );
    }

    #[test]
    fn mixed_difficulty_rotates_easy_medium_hard() {
        let cases = [
            (
                Difficulty::Mixed,
                [1, 2, 3, 4],
                ["easy", "medium", "hard", "easy"],
            ),
            (Difficulty::Hard, [1, 2, 3, 4], ["hard"; 4]),
            (Difficulty::Easy, [1, 2, 3, 4], ["easy"; 4]),
        ];
        for (difficulty, numbers, expected) in cases {
            let got =
                numbers.map(|n| format!("{:?}", question_difficulty(difficulty, n)).to_lowercase());
            assert_eq!(got, expected, "{difficulty:?}");
        }
    }
}
