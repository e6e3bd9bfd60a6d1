//! The commands that change an `ExamCore`: create, ask, answer, assess, pause, resume, end.
//! Each one checks the phase through the one transition function and queues its events.

use std::collections::BTreeMap;

use viva_protocol::config::{Difficulty, ExamConfig, ExaminerStyle};
use viva_protocol::result::Trigger;
use viva_protocol::server::{Assessment, PlanSummary, Question, SessionStatus};
use viva_protocol::{ErrorCode, Mode, ServerEvent};

use crate::exam::acs::{AcsCatalog, AcsLibrary};
use crate::exam::adaptive::{AdaptiveDifficulty, wire_level};
use crate::exam::grading::grade;
use crate::exam::plan::{ExamPlan, NextStep, PlanDefaults};
use crate::exam::planner::PlannerState;
use crate::exam::queue::{QueueSpec, build_queue, oral_elements};
use crate::exam::scenarios::ScenarioPlan;
use crate::exam::types::{QuestionKind, Score};
use crate::examiner::{Examined, ExaminerAssessment};
use crate::modes::exam::debrief::debrief;
use crate::modes::exam::{ExamCore, OpenQuestion, QuestionDraft, Refusal, StepAfter, rating_of};
use crate::review::ReviewBook;
use crate::session::lifecycle::Lifecycle;
use crate::session::phase::PhaseEvent;

/// What a checkride's examiner says on moving on from an element to come back to.
const COME_BACK_LATER: &str = "Let's come back to that later.";

/// Everything needed to create an exam session.
#[derive(Debug, Clone)]
pub struct NewExam<'a> {
    /// The client's config.
    pub config: ExamConfig,
    /// Seed when the config has none.
    pub default_seed: u64,
    /// Plan sizing.
    pub defaults: PlanDefaults,
    /// What the user's record knows of each element, for `weak_areas`.
    pub review: &'a ReviewBook,
    /// Now (the session clock), for what is due.
    pub now_ms: u64,
}

impl ExamCore {
    /// Builds the plan of a new exam (and, when its config turns them on, the scenarios
    /// that fit its scope); refuses a config whose scope has no oral element.
    pub fn create(new: NewExam<'_>, library: &AcsLibrary) -> Result<ExamCore, Refusal> {
        let catalog = library.catalog(rating_of(&new.config));
        // A checkride is asked through flight scenarios, as a practical test is.
        let with_scenarios =
            new.config.scenarios || new.config.examiner_style == ExaminerStyle::Checkride;
        let seed = new.config.seed.unwrap_or(new.default_seed);
        let class = new.config.aircraft_class.as_str();
        let spec = QueueSpec {
            aircraft_class: class,
            areas: new.config.areas.as_deref(),
            tasks: new.config.tasks.as_deref(),
            study_mode: new.config.study_mode,
            seed,
            review: new.review,
            now_ms: new.now_ms,
            links: with_scenarios.then(|| library.links()),
        };
        let queue = build_queue(catalog, &spec);
        if queue.is_empty() {
            let message =
                "no oral-eligible ACS element matches this rating, class, areas and tasks";
            return Err(Refusal::new(ErrorCode::InvalidConfig, message));
        }
        let mut plan = ExamPlan::new(&queue, oral_elements(catalog, class).len(), &new.defaults);
        if new.config.examiner_style == ExaminerStyle::Checkride {
            // A practical test has no bonus question: its second chance is the examiner
            // coming back to the element once, and a bonus would tell the candidate a verdict.
            plan.bonus_max = 0;
        }
        let adaptive = new.config.difficulty == Difficulty::Adaptive;
        let scenarios = with_scenarios.then(|| {
            let all = library.scenarios().iter().map(|scenario| {
                let steps = scenario.doc.steps.iter().map(|s| s.element.as_str());
                (scenario.id(), steps.collect())
            });
            ScenarioPlan::fitting(all, |code| plan.coverage.contains_key(code))
        });
        Ok(ExamCore {
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
            come_back: Vec::new(),
            came_back: Vec::new(),
            adaptive: adaptive.then(AdaptiveDifficulty::default),
            assessed_at: BTreeMap::new(),
            scenarios,
        })
    }

    /// Queues `session.started`.
    pub fn announce_start(&self, life: &mut Lifecycle) {
        let plan = PlanSummary {
            planned_questions: self.plan.planned_question_count,
            queue_length: self.planner.queue.len() as u32,
            study_mode: Some(self.config.study_mode),
            time_limit_seconds: None,
            bonus_max: self.plan.bonus_max,
            follow_up_max_per_element: self.plan.follow_up_max_per_element,
            adaptive_difficulty: self.adaptive.as_ref().map(|_| AdaptiveDifficulty::plan()),
        };
        life.announce(Mode::Exam, plan);
    }

    /// Commits a phrased question: it becomes the one open question.
    pub fn commit_question(
        &mut self,
        life: &mut Lifecycle,
        draft: QuestionDraft,
        phrased: Examined<String>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let Examined { value: text, call } = phrased;
        life.advance(PhaseEvent::QuestionCommitted, now_ms)?;
        let code = draft.request.element_code;
        let scenario = self.scenario_of_asked(&code, draft.planner_index.is_some());
        let missing_terms = match draft.planner_index {
            Some(_) => Vec::new(),
            None => draft.request.missing_terms,
        };
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
        let examiner = call.into_iter().collect();
        self.open_new_question(life, code, kind, text, scenario, examiner);
        // A follow-up's answer is judged on what the answer before it left out.
        if let Some(open) = self.open_question.as_mut() {
            open.missing_terms = missing_terms;
        }
        Ok(())
    }

    /// Queues the open question (again, after a resume).
    pub fn emit_open_question(&self, life: &mut Lifecycle) {
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
            scenario: open.scenario.clone(),
            total: None,
            time_remaining_seconds: None,
            difficulty: self
                .adaptive
                .as_ref()
                .and_then(AdaptiveDifficulty::asked_level)
                .map(wire_level),
        };
        life.emit(ServerEvent::Question(question));
    }

    /// The open question, if its answer is committed (`answered`) or not, as asked; else a
    /// `no_open_question` refusal saying `why`.
    fn open_question_where(
        &mut self,
        answered: bool,
        why: &'static str,
    ) -> Result<&mut OpenQuestion, Refusal> {
        self.open_question
            .as_mut()
            .filter(|open| open.pending_answer.is_some() == answered)
            .ok_or_else(|| Refusal::new(ErrorCode::NoOpenQuestion, why))
    }

    /// Commits a text answer to the open question and queues its `ack`.
    pub fn commit_answer(
        &mut self,
        life: &mut Lifecycle,
        text: String,
        event_id: Option<String>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        life.require_live()?;
        let open = self.open_question_where(false, "there is no open question to answer")?;
        open.pending_answer = Some(text.clone());
        if let Some(turn) = self.transcript.last_mut() {
            turn.answer = Some(text);
        }
        self.answered += 1;
        life.updated_at_ms = now_ms;
        life.acknowledge(event_id);
        Ok(())
    }

    /// Stores the examiner's verdict on the committed answer and queues the `assessment`.
    pub fn store_assessment(
        &mut self,
        life: &mut Lifecycle,
        assessed: Examined<ExaminerAssessment>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let Examined {
            value: verdict,
            call,
        } = assessed;
        let open = self
            .open_question_where(true, "no answer awaits assessment")?
            .clone();
        life.advance(PhaseEvent::AnswerAssessed, now_ms)?;
        let step = (self.plan).record_score(&open.element_code, verdict.score, verdict.draw_out);
        if !matches!(step, NextStep::FollowUp) {
            self.defer_if_unsatisfactory(&open.element_code, verdict.score);
        }
        self.assessed_at.insert(open.element_code.clone(), now_ms);
        // Study mode's feedback waits: an answer a follow-up comes after is told how far it
        // went, never what it left out; the element's last answer gets the full feedback.
        let (feedback, source_summary) = match step {
            NextStep::FollowUp => (verdict.interim.feedback, verdict.interim.source_summary),
            _ => (verdict.feedback, verdict.source_summary),
        };
        let credited = self.plan.credit_mentions(&verdict.mentioned_elements);
        // The element is left (no follow-up on it): its final score may move the level.
        if let (Some(adaptive), false) = (&mut self.adaptive, step == NextStep::FollowUp) {
            adaptive.settle(verdict.score);
        }
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
            turn.feedback = Some(feedback.clone());
            turn.sources = Some(source_summary.clone());
            turn.examiner.extend(call);
        }
        self.open_question = None;
        let assessment = Assessment {
            question_id: open.question_id,
            score: Some(verdict.score.as_str().to_owned()),
            feedback: Some(feedback),
            recorded: None,
            source_summary: Some(source_summary),
            correct_answer: None,
            credited_elements: credited,
            understood_as: open.pending_answer,
        };
        life.emit(ServerEvent::Assessment(self.shown(assessment)));
        Ok(())
    }

    /// `text` as a checkride asks it: after "Let's come back to that later." when it moves on
    /// from an element to come back to; a question on such an element is that second look.
    pub(super) fn with_come_back(&mut self, code: &str, text: String) -> String {
        let text = match self.leaves_one_for_later(code) {
            true => format!("{COME_BACK_LATER} {text}"),
            false => text,
        };
        self.note_come_back(code);
        text
    }

    /// Whether the question on `code` leaves the element just answered for later: a
    /// checkride moved on from it unsatisfactory, and will come back to it.
    fn leaves_one_for_later(&self, code: &str) -> bool {
        let Some(last) = self.transcript.last() else {
            return false;
        };
        last.element_code != code && self.come_back.contains(&last.element_code)
    }

    /// A question on an element waiting to be come back to is that second look.
    fn note_come_back(&mut self, code: &str) {
        if let Some(index) = self.come_back.iter().position(|c| c == code) {
            let code = self.come_back.remove(index);
            self.came_back.push(code);
        }
    }

    /// In a checkride, an element that ends unsatisfactory is come back to once, before
    /// the exam is graded.
    fn defer_if_unsatisfactory(&mut self, code: &str, score: Score) {
        let deferred = self.config.examiner_style == ExaminerStyle::Checkride
            && score == Score::Unsatisfactory
            && !self.came_back.iter().any(|c| c == code)
            && !self.come_back.iter().any(|c| c == code);
        if deferred {
            self.come_back.push(code.to_owned());
        }
    }

    /// The `assessment` as the device sees it: whole in study style; in a checkride only
    /// `recorded: true` and what was heard, the verdict kept for the debrief.
    fn shown(&self, assessment: Assessment) -> Assessment {
        match self.config.examiner_style {
            ExaminerStyle::Study => assessment,
            ExaminerStyle::Checkride => Assessment {
                question_id: assessment.question_id,
                score: None,
                feedback: None,
                recorded: Some(true),
                source_summary: None,
                correct_answer: None,
                credited_elements: Vec::new(),
                understood_as: assessment.understood_as,
            },
        }
    }

    /// Grades the exam and queues `session.completed`.
    pub fn complete(
        &mut self,
        life: &mut Lifecycle,
        trigger: Trigger,
        catalog: &AcsCatalog,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        life.advance(PhaseEvent::Completed, now_ms)?;
        self.plan.close();
        self.open_question = None;
        self.next_step = None;
        let mut result = grade(&self.plan, &self.planner.queue, catalog, trigger);
        if self.config.examiner_style == ExaminerStyle::Checkride {
            result.debrief = Some(debrief(&result, &self.transcript, catalog));
        }
        result.adaptive_difficulty = self.adaptive.as_ref().map(AdaptiveDifficulty::report);
        self.tag_scenarios(&mut result);
        if let Some(scenarios) = self.scenarios.as_mut() {
            scenarios.finish_running();
        }
        self.result = Some(result);
        self.emit_completed(life);
        Ok(())
    }

    fn emit_completed(&self, life: &mut Lifecycle) {
        if let Some(result) = self.result.clone() {
            life.announce_completed(viva_protocol::result::SessionResult::Exam(result));
        }
    }

    /// Resumes the session; queues `session.resumed`, then the open question or the result.
    pub fn resume(&self, life: &mut Lifecycle, now_ms: u64) -> Result<(), Refusal> {
        let progress = self.progress();
        let status = life.resume(Mode::Exam, progress, now_ms)?;
        if status == SessionStatus::Completed {
            self.emit_completed(life);
        } else if self
            .open_question
            .as_ref()
            .is_some_and(|open| open.pending_answer.is_none())
        {
            self.emit_open_question(life);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use viva_protocol::ServerMessage;

    use super::*;
    use crate::exam::types::Score;
    use crate::examiner::QuestionRequest;
    use crate::modes::exam::PendingWork;
    use crate::modes::test_sessions::{START_MS, World};
    use crate::session::phase::Phase;

    fn assessed(score: Score, mentioned: &[&str]) -> Examined<ExaminerAssessment> {
        Examined::offline(ExaminerAssessment {
            score,
            feedback: "feedback".into(),
            missing_terms: vec!["registration".into()],
            mentioned_elements: mentioned.iter().map(|c| (*c).to_owned()).collect(),
            source_summary: "14 CFR 91.203".into(),
            draw_out: false,
            interim: crate::examiner::Interim {
                feedback: "Partly right so far.".into(),
                source_summary: "14 CFR 91.9".into(),
            },
        })
    }

    /// The last `assessment` queued: its score, feedback and source summary.
    fn last_assessment(life: &Lifecycle) -> (Option<String>, Option<String>, Option<String>) {
        let Some(ServerMessage {
            event: ServerEvent::Assessment(assessment),
            ..
        }) = life.outbox.last()
        else {
            panic!("an assessment is queued");
        };
        let a = assessment.clone();
        (a.score, a.feedback, a.source_summary)
    }

    #[test]
    fn feedback_waits_until_the_element_closes() {
        let world = World::new();
        let partial = || assessed(Score::Partial, &[]);
        let drawn_out = || {
            let mut verdict = assessed(Score::Unsatisfactory, &[]);
            verdict.value.draw_out = true;
            verdict
        };
        type Verdict = fn() -> Examined<ExaminerAssessment>;
        let cases: [(&str, Verdict); 2] = [("partial", partial), ("drawn out", drawn_out)];
        for (what, first) in cases {
            let (mut core, mut life) = asked(&world);
            core.commit_answer(&mut life, "an answer".into(), None, START_MS + 1)
                .unwrap();
            core.store_assessment(&mut life, first(), START_MS + 2)
                .unwrap();
            let (_, feedback, sources) = last_assessment(&life);
            let interim = (feedback.as_deref(), sources.as_deref());
            assert_eq!(
                interim,
                (Some("Partly right so far."), Some("14 CFR 91.9")),
                "{what}"
            );
            assert_eq!(
                core.transcript.last().unwrap().feedback.as_deref(),
                Some("Partly right so far."),
                "{what}: the transcript keeps what was said"
            );
            let PendingWork::Ask(draft) = core.pending_work(&life) else {
                panic!("{what}: a follow-up comes next");
            };
            assert_eq!(draft.request.kind, QuestionKind::FollowUp, "{what}");
            core.commit_question(
                &mut life,
                draft,
                Examined::offline("And?".into()),
                START_MS + 3,
            )
            .unwrap();
            life.mark_delivered(START_MS + 3);
            core.commit_answer(&mut life, "more".into(), None, START_MS + 4)
                .unwrap();
            let PendingWork::Assess(request) = core.pending_work(&life) else {
                panic!("{what}: the follow-up's answer is assessed");
            };
            assert_eq!(
                request.missing_terms,
                ["registration"],
                "{what}: judged on them"
            );
            core.store_assessment(&mut life, partial(), START_MS + 5)
                .unwrap();
            let (_, feedback, sources) = last_assessment(&life);
            let full = (feedback.as_deref(), sources.as_deref());
            assert_eq!(
                full,
                (Some("feedback"), Some("14 CFR 91.203")),
                "{what}: the element closes"
            );
        }
    }

    /// An exam with its first question asked and delivered.
    fn asked(world: &World) -> (ExamCore, Lifecycle) {
        let (mut core, mut life) = (world.exam_core(), world.life());
        let PendingWork::Ask(draft) = core.pending_work(&life) else {
            panic!("a new exam asks first");
        };
        core.commit_question(
            &mut life,
            draft,
            Examined::offline("Which documents?".into()),
            START_MS,
        )
        .unwrap();
        life.mark_delivered(START_MS);
        (core, life)
    }

    #[test]
    fn each_score_leads_to_its_next_step() {
        let world = World::new();
        let cases = [
            (Score::Satisfactory, "Ask(Primary)"),
            (
                Score::Partial,
                "FollowUp { element_code: \"PA.I.A.K1\", missing_terms: [\"registration\"] }",
            ),
            (Score::Unsatisfactory, "Ask(Bonus)"),
        ];
        for (score, next) in cases {
            let (mut core, mut life) = asked(&world);
            core.commit_answer(
                &mut life,
                "an answer".into(),
                Some("e1".into()),
                START_MS + 1,
            )
            .unwrap();
            core.store_assessment(&mut life, assessed(score, &[]), START_MS + 2)
                .unwrap();
            assert_eq!(format!("{:?}", core.next_step.unwrap()), next, "{score:?}");
            assert_eq!(life.phase, Phase::Assessed);
            let turn = core.transcript.last().unwrap();
            assert_eq!(
                (turn.answer.as_deref(), turn.score),
                (Some("an answer"), Some(score))
            );
        }
    }

    #[test]
    fn an_answer_mentioning_other_pending_elements_credits_them() {
        let world = World::new();
        let (mut core, mut life) = asked(&world);
        core.commit_answer(&mut life, "an answer".into(), None, START_MS + 1)
            .unwrap();
        let verdict = assessed(
            Score::Satisfactory,
            &["PA.I.A.K2", "PA.I.A.K1", "PA.IX.A.K1"],
        );
        core.store_assessment(&mut life, verdict, START_MS + 2)
            .unwrap();
        let Some(ServerMessage {
            event: ServerEvent::Assessment(assessment),
            ..
        }) = life.outbox.last()
        else {
            panic!("the assessment is queued");
        };
        assert_eq!(
            assessment.credited_elements,
            ["PA.I.A.K2"],
            "only other pending elements of the plan"
        );
        assert!(!core.plan.is_pending("PA.I.A.K2"));
    }

    #[test]
    fn commands_out_of_turn_are_refused_and_change_nothing() {
        let world = World::new();
        let (core, life) = asked(&world);
        let verdict = || assessed(Score::Satisfactory, &[]);
        type Command =
            fn(&mut ExamCore, &mut Lifecycle, Examined<ExaminerAssessment>) -> Result<(), Refusal>;
        let answer_twice: Command = |core, life, _| {
            core.commit_answer(life, "one".into(), None, START_MS + 1)?;
            core.commit_answer(life, "two".into(), None, START_MS + 1)
        };
        let assess_unanswered: Command =
            |core, life, verdict| core.store_assessment(life, verdict, START_MS + 1);
        let answer_paused: Command = |core, life, _| {
            life.pause(viva_protocol::server::PauseReason::User, START_MS + 1)?;
            core.commit_answer(life, "one".into(), None, START_MS + 1)
        };
        let cases: [(&str, Command, ErrorCode); 3] = [
            (
                "a second answer to one question",
                answer_twice,
                ErrorCode::NoOpenQuestion,
            ),
            (
                "an assessment before any answer",
                assess_unanswered,
                ErrorCode::NoOpenQuestion,
            ),
            (
                "an answer while paused",
                answer_paused,
                ErrorCode::SessionPaused,
            ),
        ];
        for (what, command, code) in cases {
            let (mut core, mut life) = (core.clone(), life.clone());
            let refusal = command(&mut core, &mut life, verdict()).unwrap_err();
            assert_eq!(refusal.code, code, "{what}");
        }
    }

    #[test]
    fn a_follow_up_is_counted_against_its_element_and_not_the_plan() {
        let world = World::new();
        let (mut core, mut life) = asked(&world);
        core.commit_answer(&mut life, "an answer".into(), None, START_MS + 1)
            .unwrap();
        core.store_assessment(&mut life, assessed(Score::Partial, &[]), START_MS + 2)
            .unwrap();
        let PendingWork::Ask(draft) = core.pending_work(&life) else {
            panic!("a partial answer gets a follow-up");
        };
        let QuestionRequest { kind, .. } = draft.request.clone();
        assert_eq!(
            (kind, draft.planner_index, draft.number),
            (QuestionKind::FollowUp, None, 2)
        );
        let asked_before = core.plan.asked_count;
        core.commit_question(
            &mut life,
            draft,
            Examined::offline("And?".into()),
            START_MS + 3,
        )
        .unwrap();
        assert_eq!(
            core.plan.asked_count, asked_before,
            "a follow-up is not a planned question"
        );
        assert_eq!(core.plan.follow_ups.get("PA.I.A.K1"), Some(&1));
        assert_eq!(core.questions_asked, 2);
    }

    #[test]
    fn resuming_resends_the_open_question_or_the_result() {
        let world = World::new();
        let (mut core, mut life) = asked(&world);
        life.outbox.clear();
        core.resume(&mut life, START_MS + 1).unwrap();
        let names: Vec<_> = life.outbox.iter().map(|m| m.event.type_name()).collect();
        assert_eq!(names, ["session.resumed", "question"]);
        let catalog = world.acs.catalog(core.rating());
        core.complete(&mut life, Trigger::UserEnded, catalog, START_MS + 2)
            .unwrap();
        life.outbox.clear();
        core.resume(&mut life, START_MS + 3).unwrap();
        let names: Vec<_> = life.outbox.iter().map(|m| m.event.type_name()).collect();
        assert_eq!(names, ["session.resumed", "session.completed"]);
    }
}
