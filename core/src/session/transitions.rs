//! The commands that change an `ExamCore`: create, ask, answer, assess, pause, resume, end.
//! Each one checks the phase through the one transition function and queues its events.

use viva_protocol::config::ExamConfig;
use viva_protocol::result::Trigger;
use viva_protocol::server::{Assessment, PlanSummary, Question, SessionStatus};
use viva_protocol::{ErrorCode, Mode, ServerEvent};

use super::core::{ExamCore, OpenQuestion, QuestionDraft, Refusal, StepAfter, Turn, question_id};
use super::lifecycle::Lifecycle;
use super::phase::PhaseEvent;
use crate::exam::acs::AcsCatalog;
use crate::exam::grading::grade;
use crate::exam::plan::{ExamPlan, NextStep, PlanDefaults};
use crate::exam::planner::PlannerState;
use crate::exam::queue::{QueueSpec, build_queue, oral_elements};
use crate::exam::types::{QuestionKind, Score};
use crate::examiner::{Examined, ExaminerAssessment};

/// Everything needed to create an exam session.
#[derive(Debug, Clone)]
pub struct NewExam<'a> {
    /// The new session's id.
    pub session_id: String,
    /// The owner.
    pub user_id: String,
    /// The client's config.
    pub config: ExamConfig,
    /// Seed when the config has none.
    pub default_seed: u64,
    /// Plan sizing.
    pub defaults: PlanDefaults,
    /// The user's earlier scores, for `weak_areas`.
    pub prior_scores: &'a std::collections::HashMap<String, Score>,
    /// Now, ms since the epoch.
    pub now_ms: u64,
}

impl ExamCore {
    /// Builds the plan of a new exam; refuses a config whose scope has no oral element.
    pub fn create(new: NewExam<'_>, catalog: &AcsCatalog) -> Result<ExamCore, Refusal> {
        let seed = new.config.seed.unwrap_or(new.default_seed);
        let class = new.config.aircraft_class.as_str();
        let spec = QueueSpec {
            aircraft_class: class,
            areas: new.config.areas.as_deref(),
            tasks: new.config.tasks.as_deref(),
            study_mode: new.config.study_mode,
            seed,
            prior_scores: new.prior_scores,
        };
        let queue = build_queue(catalog, &spec);
        if queue.is_empty() {
            let message =
                "no oral-eligible ACS element matches this rating, class, areas and tasks";
            return Err(Refusal::new(ErrorCode::InvalidConfig, message));
        }
        let plan = ExamPlan::new(&queue, oral_elements(catalog, class).len(), &new.defaults);
        Ok(ExamCore {
            life: Lifecycle::new(new.session_id, new.user_id, new.now_ms),
            config: new.config,
            seed,
            plan,
            planner: PlannerState::new(queue),
            next_step: None,
            questions_asked: 0,
            answered: 0,
            open_question: None,
            result: None,
            transcript: Vec::new(),
        })
    }

    /// Queues `session.started`.
    pub fn announce_start(&mut self) {
        let plan = PlanSummary {
            planned_questions: self.plan.planned_question_count,
            queue_length: self.planner.queue.len() as u32,
            study_mode: Some(self.config.study_mode),
            time_limit_seconds: None,
            bonus_max: self.plan.bonus_max,
            follow_up_max_per_element: self.plan.follow_up_max_per_element,
        };
        self.life.announce(Mode::Exam, plan);
    }

    /// Commits a phrased question: it becomes the one open question.
    pub fn commit_question(
        &mut self,
        draft: QuestionDraft,
        phrased: Examined<String>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let Examined { value: text, call } = phrased;
        self.life.advance(PhaseEvent::QuestionCommitted, now_ms)?;
        let code = draft.request.element_code;
        let kind = match draft.planner_index {
            Some(index) => {
                self.planner.record_asked(index);
                self.plan.mark_asked(&code)
            }
            None => {
                self.planner.record_attempt(&code);
                self.plan.mark_follow_up(&code);
                QuestionKind::FollowUp
            }
        };
        self.questions_asked += 1;
        self.next_step = None;
        let open = OpenQuestion {
            question_id: question_id(self.questions_asked),
            element_code: code,
            kind,
            number: self.questions_asked,
            text,
            pending_answer: None,
        };
        self.transcript.push(Turn {
            question_id: open.question_id.clone(),
            element_code: open.element_code.clone(),
            kind,
            question: open.text.clone(),
            answer: None,
            score: None,
            feedback: None,
            examiner: call.into_iter().collect(),
        });
        self.open_question = Some(open);
        self.emit_open_question();
        Ok(())
    }

    /// Queues the open question (again, after a resume).
    pub fn emit_open_question(&mut self) {
        let Some(open) = &self.open_question else {
            return;
        };
        let question = Question {
            question_id: open.question_id.clone(),
            text: open.text.clone(),
            options: None,
            number: open.number,
            kind: Some(open.kind.as_str().to_owned()),
            element_code: Some(open.element_code.clone()),
            total: None,
            time_remaining_seconds: None,
        };
        self.life.emit(ServerEvent::Question(question));
    }

    /// Commits a text answer to the open question and queues its `ack`.
    pub fn commit_answer(
        &mut self,
        text: String,
        event_id: Option<String>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.life.require_live()?;
        let Some(open) = self
            .open_question
            .as_mut()
            .filter(|open| open.pending_answer.is_none())
        else {
            return Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "there is no open question to answer",
            ));
        };
        open.pending_answer = Some(text.clone());
        if let Some(turn) = self.transcript.last_mut() {
            turn.answer = Some(text);
        }
        self.answered += 1;
        self.life.updated_at_ms = now_ms;
        self.life.acknowledge(event_id);
        Ok(())
    }

    /// Stores the examiner's verdict on the committed answer and queues the `assessment`.
    pub fn store_assessment(
        &mut self,
        assessed: Examined<ExaminerAssessment>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let Examined {
            value: verdict,
            call,
        } = assessed;
        let Some(open) = self
            .open_question
            .clone()
            .filter(|open| open.pending_answer.is_some())
        else {
            return Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "no answer awaits assessment",
            ));
        };
        self.life.advance(PhaseEvent::AnswerAssessed, now_ms)?;
        let step = self.plan.record_score(&open.element_code, verdict.score);
        let credited = self.plan.credit_mentions(&verdict.mentioned_elements);
        self.next_step = Some(match step {
            NextStep::FollowUp => StepAfter::FollowUp {
                element_code: open.element_code.clone(),
                missing_terms: verdict.missing_terms.clone(),
            },
            NextStep::Ask(kind) => StepAfter::Ask(kind),
            NextStep::Finish => StepAfter::Finish,
        });
        if let Some(turn) = self.transcript.last_mut() {
            turn.score = Some(verdict.score);
            turn.feedback = Some(verdict.feedback.clone());
            turn.examiner.extend(call);
        }
        self.open_question = None;
        self.life.emit(ServerEvent::Assessment(Assessment {
            question_id: open.question_id,
            score: Some(verdict.score.as_str().to_owned()),
            feedback: Some(verdict.feedback),
            recorded: None,
            source_summary: Some(verdict.source_summary),
            correct_answer: None,
            credited_elements: credited,
            understood_as: open.pending_answer,
        }));
        Ok(())
    }

    /// Grades the exam and queues `session.completed`.
    pub fn complete(
        &mut self,
        trigger: Trigger,
        catalog: &AcsCatalog,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.life.advance(PhaseEvent::Completed, now_ms)?;
        self.plan.close();
        self.open_question = None;
        self.next_step = None;
        let result = grade(&self.plan, &self.planner.queue, catalog, trigger);
        self.result = Some(result);
        self.emit_completed();
        Ok(())
    }

    fn emit_completed(&mut self) {
        if let Some(result) = self.result.clone() {
            self.life
                .announce_completed(viva_protocol::result::SessionResult::Exam(result));
        }
    }

    /// Resumes the session; queues `session.resumed`, then the open question or the result.
    pub fn resume(&mut self, now_ms: u64) -> Result<(), Refusal> {
        let progress = self.progress();
        let status = self.life.resume(Mode::Exam, progress, now_ms)?;
        if status == SessionStatus::Completed {
            self.emit_completed();
        } else if self
            .open_question
            .as_ref()
            .is_some_and(|open| open.pending_answer.is_none())
        {
            self.emit_open_question();
        }
        Ok(())
    }
}
