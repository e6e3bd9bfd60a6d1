//! `ExamCore`: the whole state of one exam session and every rule that changes it, as a
//! plain struct with no IO. The actor feeds it events, runs the examiner and the store,
//! and sends what it leaves in its outbox.

use std::collections::BTreeMap;

use viva_protocol::config::{Difficulty, ExamConfig};
use viva_protocol::result::{ExamResult, TranscriptTurn};
use viva_protocol::server::Progress;

use crate::exam::acs::Rating;
use crate::exam::adaptive::{self, AdaptiveDifficulty};
use crate::exam::plan::ExamPlan;
use crate::exam::planner::PlannerState;
use crate::exam::scenarios::{ScenarioPlan, ScenarioStep};
use crate::exam::types::{QuestionDifficulty, QuestionKind, Score};
use crate::examiner::{AssessRequest, ExaminerCall, PreviousTurn, QuestionRequest};
pub use crate::examiner::{QuestionDraft, question_id};
use crate::session::lifecycle::Lifecycle;
use crate::session::phase::Phase;

pub use crate::session::lifecycle::Refusal;

pub mod debrief;
pub mod mode;
pub mod scenario_turns;
pub mod snapshot;
pub mod transitions;

#[cfg(test)]
mod adaptive_tests;

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
    /// The scenario it comes from, if one.
    pub scenario: Option<String>,
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
    /// The sources behind the feedback, `; `-separated.
    pub sources: Option<String>,
    /// The scenario the question came from, if one.
    pub scenario: Option<String>,
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
    /// Ask this scenario question: its words are the scenario's, so it is a pure step.
    AskScenario(ScenarioDraft),
    /// Grade the exam.
    Finish,
    /// Nothing: waiting for the candidate, paused, or ended.
    Nothing,
}

/// A scenario question chosen but not yet asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioDraft {
    /// Where it stands in its scenario.
    pub step: ScenarioStep,
    /// The 1-based number it will have once asked.
    pub number: u32,
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
    /// A checkride's elements left unsatisfactory, to come back to once before the end.
    pub come_back: Vec<String>,
    /// A checkride's elements already come back to (never deferred again).
    pub came_back: Vec<String>,
    /// The level in force, when the difficulty is adaptive.
    pub adaptive: Option<AdaptiveDifficulty>,
    /// When each answered element was last assessed (the session clock), for the user's
    /// review history.
    pub assessed_at: BTreeMap<String, u64>,
    /// The exam's scenarios, when its config turns them on.
    pub scenarios: Option<ScenarioPlan>,
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
                question: Some(turn.question.clone()).filter(|q| !q.is_empty()),
                answer: turn.answer.clone(),
                score: turn.score.map(|score| score.as_str().to_owned()),
                scenario: turn.scenario.clone(),
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
            Some(StepAfter::Finish) => self.come_back_or_finish(),
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
        if self.scenario_step().is_some() {
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
                difficulty: self.likely_difficulty(number),
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
            return self.come_back_or_finish();
        }
        let next = self.planner.next_element(|code| self.plan.is_pending(code));
        if let Some(step) = self.scenario_step_at(next) {
            let number = self.questions_asked + 1;
            return PendingWork::AskScenario(ScenarioDraft { step, number });
        }
        match next {
            Some(index) => {
                let code = self.planner.queue[index].clone();
                PendingWork::Ask(self.draft(Some(index), code, kind, Vec::new()))
            }
            None => self.come_back_or_finish(),
        }
    }

    /// Before a checkride ends, the examiner comes back once to each element left
    /// unsatisfactory (a follow-up on it); then the exam is graded.
    fn come_back_or_finish(&self) -> PendingWork {
        match self.come_back.first() {
            Some(code) => {
                PendingWork::Ask(self.draft(None, code.clone(), QuestionKind::FollowUp, Vec::new()))
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
                difficulty: self.difficulty(number),
                missing_terms: missing,
                previous: self.previous_turn(),
            },
            number,
        }
    }

    /// The level question `number` is asked at: the adaptive level in force, or the fixed
    /// difficulty's.
    fn difficulty(&self, number: u32) -> QuestionDifficulty {
        match &self.adaptive {
            Some(adaptive) => adaptive.level,
            None => question_difficulty(self.config.difficulty, number),
        }
    }

    /// The level of question `number` if the open question's answer is satisfactory.
    fn likely_difficulty(&self, number: u32) -> QuestionDifficulty {
        match &self.adaptive {
            Some(adaptive) => adaptive.after(Score::Satisfactory),
            None => question_difficulty(self.config.difficulty, number),
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

/// The difficulty of question `number`; `mixed` rotates easy, medium, hard. An adaptive exam
/// asks at its level in force ([`AdaptiveDifficulty`]), which starts at [`adaptive::START`].
pub fn question_difficulty(difficulty: Difficulty, number: u32) -> QuestionDifficulty {
    match difficulty {
        Difficulty::Easy => QuestionDifficulty::Easy,
        Difficulty::Medium => QuestionDifficulty::Medium,
        Difficulty::Hard => QuestionDifficulty::Hard,
        Difficulty::Adaptive => adaptive::START,
        Difficulty::Mixed => match number % 3 {
            1 => QuestionDifficulty::Easy,
            2 => QuestionDifficulty::Medium,
            _ => QuestionDifficulty::Hard,
        },
    }
}

#[cfg(test)]
mod tests {
    use viva_protocol::ServerEvent;
    use viva_protocol::server::Question;

    use super::*;
    use crate::base::AnswerInput;
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
            PendingWork::AskScenario(draft) => format!(
                "scenario q{} {} {}",
                draft.number, draft.step.scenario_id, draft.step.element_code
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
            scenario: None,
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

    /// Runs an exam of `config`, scoring the answers in turn from `scores` (the last one
    /// repeated), until it completes; returns every event it queued.
    fn run_exam(config: serde_json::Value, scores: &[Score]) -> Vec<ServerEvent> {
        let world = World::new();
        let mut state = world.exam_with(config);
        world.run(&mut state, Score::Satisfactory, 0);
        for n in 0..30 {
            if state.life().phase == Phase::Completed {
                break;
            }
            let answer = AnswerInput::Text(format!("answer {n}"));
            let score = scores[n.min(scores.len() - 1)];
            state
                .commit_answer(answer, None, world.ctx(), 0)
                .expect("the open question takes an answer");
            world.run(&mut state, score, 0);
        }
        assert_eq!(state.life().phase, Phase::Completed);
        state
            .life()
            .outbox
            .iter()
            .map(|m| m.event.clone())
            .collect()
    }

    fn checkride(style: &str) -> serde_json::Value {
        serde_json::json!({"rating": "private", "study_mode": "linear", "tasks": ["PA.I.A"],
            "seed": 7, "examiner_style": style})
    }

    #[test]
    fn a_checkride_records_quietly_comes_back_once_and_debriefs() {
        use Score::{Satisfactory, Unsatisfactory};
        let events = run_exam(checkride("checkride"), &[Unsatisfactory, Satisfactory]);
        let questions: Vec<&Question> = events
            .iter()
            .filter_map(|e| match e {
                ServerEvent::Question(q) => Some(q),
                _ => None,
            })
            .collect();
        let first = questions[0].element_code.clone();
        assert!(
            questions.iter().all(|q| q.kind.as_deref() != Some("bonus")),
            "a checkride has no bonus question: {questions:?}"
        );
        assert!(
            questions[1]
                .text
                .starts_with("Let's come back to that later."),
            "{:?}",
            questions[1].text
        );
        let back: Vec<&&Question> = questions
            .iter()
            .filter(|q| q.element_code == first)
            .collect();
        assert_eq!(
            back.len(),
            2,
            "asked, then come back to once: {questions:?}"
        );
        assert_eq!(back[1].kind.as_deref(), Some("follow_up"));
        assert_eq!(
            questions.last().map(|q| &q.element_code),
            Some(&first),
            "the second look comes before the end"
        );
        for event in &events {
            if let ServerEvent::Assessment(a) = event {
                assert_eq!(a.recorded, Some(true), "{a:?}");
                assert!(a.score.is_none() && a.feedback.is_none(), "{a:?}");
            }
        }
        let debrief = completed_result(&events).debrief.expect("a debrief");
        assert!(!debrief.outcome_statement.is_empty());
    }

    #[test]
    fn a_checkride_comes_back_only_once_and_a_study_exam_never() {
        use Score::Unsatisfactory;
        let events = run_exam(checkride("checkride"), &[Unsatisfactory]);
        let mut seen = std::collections::HashMap::<Option<String>, u32>::new();
        for event in &events {
            if let ServerEvent::Question(q) = event {
                assert_ne!(q.kind.as_deref(), Some("bonus"), "{q:?}");
                *seen.entry(q.element_code.clone()).or_default() += 1;
            }
        }
        assert!(seen.values().all(|&n| n <= 2), "{seen:?}");
        assert!(seen.values().any(|&n| n == 2), "{seen:?}");
        let study = run_exam(checkride("study"), &[Unsatisfactory]);
        for event in &study {
            match event {
                ServerEvent::Question(q) => assert!(!q.text.contains("come back"), "{q:?}"),
                ServerEvent::Assessment(a) => {
                    assert_eq!(a.score.as_deref(), Some("unsatisfactory"))
                }
                _ => {}
            }
        }
        assert!(completed_result(&study).debrief.is_none());
    }

    fn completed_result(events: &[ServerEvent]) -> ExamResult {
        events
            .iter()
            .find_map(|e| match e {
                ServerEvent::SessionCompleted(c) => match &c.result {
                    viva_protocol::result::SessionResult::Exam(r) => Some(r.clone()),
                    _ => None,
                },
                _ => None,
            })
            .expect("a completed exam")
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
