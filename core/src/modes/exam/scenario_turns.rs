//! An exam's scenario turns: the next question from a scenario (the rule is
//! `exam::scenarios`), asking it in the scenario's words, the bridge before a new topic, and
//! which scenario each element of the result was asked through.

use viva_protocol::result::ExamResult;

use crate::exam::acs::AcsLibrary;
use crate::exam::bridges::{SCENARIO_CLOSING, lead_in, scenario_question};
use crate::exam::scenarios::ScenarioStep;
use crate::exam::types::QuestionKind;
use crate::examiner::Examined;
use crate::modes::exam::{
    ExamCore, OpenQuestion, QuestionDraft, Refusal, ScenarioDraft, Turn, question_id,
};
use crate::session::lifecycle::Lifecycle;
use crate::session::phase::PhaseEvent;

impl ExamCore {
    /// The next question from a scenario, if the exam has scenarios and the rule gives one.
    pub fn scenario_step(&self) -> Option<ScenarioStep> {
        self.scenarios.as_ref()?;
        let queue_next = self.planner.next_element(|code| self.plan.is_pending(code));
        self.scenario_step_at(queue_next)
    }

    /// [`ExamCore::scenario_step`] when the queue's next element (its index) is known.
    pub fn scenario_step_at(&self, queue_next: Option<usize>) -> Option<ScenarioStep> {
        let scenarios = self.scenarios.as_ref()?;
        let queue_next = queue_next.map(|index| self.planner.queue[index].as_str());
        let allowed = self.plan.planned_question_count + self.plan.bonus_used;
        let room = allowed.saturating_sub(self.plan.asked_count);
        scenarios.next_step(|code| self.plan.is_pending(code), queue_next, room)
    }

    /// Asks a scenario question in the scenario's words (its setup first, on its first
    /// question). When the library no longer holds the scenario (the data changed under a
    /// restored exam), the exam leaves it and the queue goes on.
    pub fn ask_scenario(
        &mut self,
        life: &mut Lifecycle,
        draft: ScenarioDraft,
        library: &AcsLibrary,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let closing = self.leaves_scenario(Some(draft.step.scenario_id.as_str()));
        let step = &draft.step;
        let text = library
            .scenarios()
            .get(&step.scenario_id)
            .and_then(|scenario| {
                scenario_question(scenario, &step.element_code, step.opens, closing)
            });
        let Some(text) = text else {
            self.forget_scenario(&step.scenario_id);
            return Ok(());
        };
        life.advance(PhaseEvent::QuestionCommitted, now_ms)?;
        let code = step.element_code.clone();
        self.planner.record_attempt(&code);
        let kind = self.plan.mark_asked(&code);
        if let Some(scenarios) = self.scenarios.as_mut() {
            scenarios.record_asked(step);
        }
        let scenario = Some(step.scenario_id.clone());
        self.open_new_question(life, code, kind, text, scenario, Vec::new());
        Ok(())
    }

    /// The words of a phrased question on a new element, with what opens it: the closing of
    /// a scenario it leaves, and the bridge from the last topic when the two are linked.
    /// Exams without scenarios, follow-ups and bonus questions are left as phrased.
    pub fn bridged(
        &self,
        draft: &QuestionDraft,
        phrased: Examined<String>,
        library: &AcsLibrary,
    ) -> Examined<String> {
        let new_topic =
            draft.planner_index.is_some() && draft.request.kind == QuestionKind::Primary;
        if self.scenarios.is_none() || !new_topic {
            return phrased;
        }
        let previous = self
            .transcript
            .last()
            .map(|turn| turn.element_code.as_str());
        let bridge = previous.and_then(|previous| {
            lead_in(
                library,
                self.rating(),
                previous,
                &draft.request.element_code,
            )
        });
        let closing = self.leaves_scenario(None).then_some(SCENARIO_CLOSING);
        let opening: Vec<&str> = closing.into_iter().chain(bridge.as_deref()).collect();
        if opening.is_empty() {
            return phrased;
        }
        let Examined { value, call } = phrased;
        let value = format!("{} {value}", opening.join(" "));
        Examined { value, call }
    }

    /// Whether the last question came from a scenario other than `next`.
    fn leaves_scenario(&self, next: Option<&str>) -> bool {
        let last = self
            .transcript
            .last()
            .and_then(|turn| turn.scenario.as_deref());
        last.is_some_and(|last| Some(last) != next)
    }

    fn forget_scenario(&mut self, id: &str) {
        if let Some(scenarios) = self.scenarios.as_mut() {
            scenarios.forget(id);
        }
    }

    /// Opens a question: it becomes the one open question and the transcript's last turn.
    pub(crate) fn open_new_question(
        &mut self,
        life: &mut Lifecycle,
        code: String,
        kind: QuestionKind,
        text: String,
        scenario: Option<String>,
        examiner: Vec<crate::examiner::ExaminerCall>,
    ) {
        let text = self.with_come_back(&code, text);
        self.questions_asked += 1;
        if let Some(adaptive) = &mut self.adaptive {
            adaptive.asked_at(self.questions_asked);
        }
        self.next_step = None;
        let open = OpenQuestion {
            question_id: question_id(self.questions_asked),
            element_code: code,
            kind,
            number: self.questions_asked,
            text,
            pending_answer: None,
            scenario,
            missing_terms: Vec::new(),
        };
        self.transcript.push(Turn {
            question_id: open.question_id.clone(),
            element_code: open.element_code.clone(),
            kind,
            question: open.text.clone(),
            answer: None,
            score: None,
            feedback: None,
            examiner,
            scenario: open.scenario.clone(),
            sources: None,
        });
        self.open_question = Some(open);
        self.emit_open_question(life);
    }

    /// The scenario a new question on `code` belongs to: a follow-up stays in the scenario
    /// of the question it follows; a new element outside a scenario ends the running one.
    pub(crate) fn scenario_of_asked(&mut self, code: &str, new_element: bool) -> Option<String> {
        if new_element {
            if let Some(scenarios) = self.scenarios.as_mut() {
                scenarios.finish_running();
            }
            return None;
        }
        let last = self.transcript.last()?;
        (last.element_code == code).then(|| last.scenario.clone())?
    }

    /// Names, in the result, the scenario each element was asked through.
    pub(crate) fn tag_scenarios(&self, result: &mut ExamResult) {
        for element in &mut result.elements {
            element.scenario = self
                .transcript
                .iter()
                .find(|turn| turn.element_code == element.code && turn.scenario.is_some())
                .and_then(|turn| turn.scenario.clone());
        }
    }
}

#[cfg(test)]
mod tests {

    use viva_blueprint::library::BlueprintLibrary;

    use super::*;
    use crate::exam::bridges::SCENARIO_OPENING;
    use crate::exam::plan::PlanDefaults;
    use crate::exam::test_scenarios::library;
    use crate::exam::types::Score;
    use crate::examiner::{ExaminerAssessment, QuestionRequest};
    use crate::modes::exam::snapshot::{exam_checkpoint, restore_exam, turn_checkpoint};
    use crate::modes::exam::transitions::NewExam;
    use crate::modes::test_sessions::START_MS;
    use crate::session::mode::{SessionMode, StepContext, Work, WorkReply};
    use crate::tutor::library::TutorLibrary;

    /// An exam driven as the actor drives it, over the shipped scenarios and links.
    struct Drive {
        core: ExamCore,
        life: Lifecycle,
        blueprints: BlueprintLibrary,
        tutor: TutorLibrary,
    }

    /// One question as asked: its element, its scenario, its words.
    type Asked = (String, Option<String>, String);

    impl Drive {
        fn new(config: serde_json::Value) -> Drive {
            let review = crate::review::ReviewBook::new();
            let new = NewExam {
                config: serde_json::from_value(config).expect("a valid config"),
                default_seed: 1,
                defaults: PlanDefaults::default(),
                review: &review,
                now_ms: START_MS,
            };
            Drive {
                core: ExamCore::create(new, library()).expect("an exam"),
                life: Lifecycle::new("s-1".into(), "alice".into(), START_MS),
                blueprints: BlueprintLibrary::default(),
                tutor: TutorLibrary::default(),
            }
        }

        fn ctx(&self) -> StepContext<'_> {
            StepContext::offline(library(), &self.blueprints, &self.tutor)
        }

        /// Asks the next question (phrased "Question?" by the examiner), if there is one.
        fn ask(&mut self) -> Option<Asked> {
            let ctx = StepContext::offline(library(), &self.blueprints, &self.tutor);
            let done = match SessionMode::work(&self.core, &self.life) {
                Work::Step if self.core.plan.quota_reached() => return None,
                Work::Step => self.core.step(&mut self.life, ctx, START_MS),
                Work::Phrase(draft) => {
                    let words = Examined::offline("Question?".to_owned());
                    let reply = WorkReply::Phrased(draft, words);
                    self.core.take_reply(&mut self.life, reply, ctx, START_MS)
                }
                _ => return None,
            };
            done.expect("the question is asked");
            self.life.mark_delivered(START_MS);
            let open = self.core.open_question.as_ref()?;
            Some((
                open.element_code.clone(),
                open.scenario.clone(),
                open.text.clone(),
            ))
        }

        /// Answers the open question; the examiner scores it and credits `mentioned`.
        fn answer(&mut self, score: Score, mentioned: &[&str]) {
            let ctx = StepContext::offline(library(), &self.blueprints, &self.tutor);
            self.core
                .commit_answer(&mut self.life, "An answer.".into(), None, START_MS)
                .expect("the answer is taken");
            let verdict = Examined::offline(ExaminerAssessment {
                score,
                feedback: "feedback".into(),
                missing_terms: Vec::new(),
                mentioned_elements: mentioned.iter().map(|c| (*c).to_owned()).collect(),
                source_summary: String::new(),
                draw_out: false,
                interim: crate::examiner::Interim {
                    feedback: "Partly right so far.".into(),
                    source_summary: String::new(),
                },
            });
            let reply = WorkReply::Assessed(verdict);
            self.core
                .take_reply(&mut self.life, reply, ctx, START_MS)
                .expect("the verdict is taken");
        }
    }

    fn night() -> &'static viva_blueprint::scenario::Scenario {
        library()
            .scenarios()
            .get("night-passengers-lancaster")
            .unwrap()
    }

    fn linear(scenarios: bool) -> serde_json::Value {
        serde_json::json!({"rating": "private", "study_mode": "linear", "scenarios": scenarios})
    }

    #[test]
    fn a_scenario_is_asked_in_its_order_with_its_setup_read_once() {
        let mut exam = Drive::new(linear(true));
        let scenario = night();
        let mut asked = Vec::new();
        for _ in 0..scenario.doc.steps.len() {
            let question = exam.ask().expect("a question");
            asked.push(question);
            exam.answer(Score::Satisfactory, &[]);
        }
        let codes: Vec<&str> = asked.iter().map(|(code, _, _)| code.as_str()).collect();
        let steps: Vec<&str> = scenario
            .doc
            .steps
            .iter()
            .map(|s| s.element.as_str())
            .collect();
        assert_eq!(codes, steps, "the queue's first element opens the scenario");
        let setup = scenario.doc.setup.spoken();
        for (index, (_, tag, text)) in asked.iter().enumerate() {
            assert_eq!(tag.as_deref(), Some(scenario.id()), "q{index}");
            assert!(
                text.ends_with(&scenario.doc.steps[index].ask),
                "q{index}: {text}"
            );
            assert_eq!(
                text.contains(&setup),
                index == 0,
                "q{index}: the setup once"
            );
        }
        assert!(asked[0].2.starts_with(SCENARIO_OPENING), "{}", asked[0].2);
        let (code, tag, text) = exam.ask().expect("the exam goes on");
        assert_eq!(code, "PA.I.A.K2", "the queue's next element");
        assert_eq!(tag.as_deref(), Some("wedding-weekend-traverse-city"));
        let opening = format!("{SCENARIO_CLOSING} {SCENARIO_OPENING}");
        assert!(text.starts_with(&opening), "{text}");
        let plan = exam.core.scenarios.as_ref().unwrap();
        assert_eq!(plan.finished, [scenario.id()]);
    }

    #[test]
    fn follow_ups_stay_in_the_scenario_and_mention_credit_skips_a_step() {
        let mut exam = Drive::new(linear(true));
        let steps = &night().doc.steps;
        exam.ask();
        exam.answer(Score::Partial, &[steps[2].element.as_str()]);
        let follow_up = exam.ask().expect("a follow-up");
        assert_eq!(follow_up.0, steps[0].element);
        assert_eq!(follow_up.1.as_deref(), Some(night().id()));
        assert_eq!(
            exam.core.open_question.as_ref().unwrap().kind,
            QuestionKind::FollowUp
        );
        exam.answer(Score::Satisfactory, &[]);
        let next: Vec<String> = (0..2)
            .map(|_| {
                let (code, _, _) = exam.ask().expect("a question");
                exam.answer(Score::Satisfactory, &[]);
                code
            })
            .collect();
        assert_eq!(
            next,
            [steps[1].element.clone(), steps[3].element.clone()],
            "step 2 credited"
        );
    }

    #[test]
    fn the_result_names_the_scenario_of_each_element() {
        let mut exam = Drive::new(linear(true));
        exam.ask();
        exam.answer(Score::Satisfactory, &[]);
        let catalog = library().catalog(exam.core.rating());
        let trigger = viva_protocol::result::Trigger::UserEnded;
        exam.core
            .complete(&mut exam.life, trigger, catalog, START_MS)
            .unwrap();
        let result = exam.core.result_with_transcript().unwrap();
        let tagged: Vec<(&str, Option<&str>)> = result
            .elements
            .iter()
            .filter(|e| e.status == "asked")
            .map(|e| (e.code.as_str(), e.scenario.as_deref()))
            .collect();
        assert_eq!(tagged, [("PA.I.A.K1", Some(night().id()))]);
        assert_eq!(result.transcript[0].scenario.as_deref(), Some(night().id()));
    }

    #[test]
    fn a_running_scenario_survives_a_checkpoint_and_old_checkpoints_have_none() {
        let mut exam = Drive::new(linear(true));
        for _ in 0..2 {
            exam.ask();
            exam.answer(Score::Satisfactory, &[]);
        }
        let written = exam_checkpoint(&exam.core);
        let turns: Vec<_> = exam.core.transcript.iter().map(turn_checkpoint).collect();
        let json = serde_json::to_value(&written).unwrap();
        assert_eq!(json["scenarios"]["running"]["id"], night().id());
        let read = serde_json::from_value(json.clone()).unwrap();
        let mut restored = restore_exam(&read, &turns).unwrap();
        assert_eq!(exam_checkpoint(&restored), written);
        let life = exam.life.clone();
        assert_eq!(restored.pending_work(&life), exam.core.pending_work(&life));
        let ctx = exam.ctx();
        let mut life = exam.life.clone();
        restored.step(&mut life, ctx, START_MS).unwrap();
        let open = restored.open_question.as_ref().unwrap();
        assert_eq!(open.element_code, night().doc.steps[2].element);
        assert!(
            !open.text.contains(&night().doc.setup.spoken()),
            "read once, even after a restore"
        );
        let mut old = json;
        old.as_object_mut().unwrap().remove("scenarios");
        let read = serde_json::from_value(old).unwrap();
        assert_eq!(restore_exam(&read, &turns).unwrap().scenarios, None);
    }

    #[test]
    fn without_scenarios_the_exam_asks_as_before() {
        let mut exam = Drive::new(linear(false));
        let mut codes = Vec::new();
        for _ in 0..6 {
            let (code, tag, text) = exam.ask().expect("a question");
            assert_eq!(
                (tag, text.as_str()),
                (None, "Question?"),
                "phrased words, untouched"
            );
            codes.push(code);
            exam.answer(Score::Satisfactory, &[]);
        }
        let queue = &exam.core.planner.queue[..6];
        assert_eq!(codes, queue, "the queue's order");
        assert_eq!(exam.core.scenarios, None);
        assert!(exam_checkpoint(&exam.core).scenarios.is_none());
    }

    #[test]
    fn a_new_topic_linked_to_the_last_is_bridged() {
        let config = serde_json::json!({"rating": "private", "study_mode": "linear",
            "tasks": ["PA.I.C", "PA.I.D"], "scenarios": true});
        let exam = Drive::new(config);
        let mut core = exam.core;
        let draft = |code: &str, kind: QuestionKind| QuestionDraft {
            planner_index: core.planner.queue.iter().position(|c| c == code),
            request: QuestionRequest {
                rating: core.rating(),
                element_code: code.to_owned(),
                kind,
                difficulty: crate::exam::types::QuestionDifficulty::Easy,
                missing_terms: Vec::new(),
                previous: None,
            },
            number: 2,
        };
        let primary = draft("PA.I.D.K1", QuestionKind::Primary);
        let bonus = draft("PA.I.D.K1", QuestionKind::Bonus);
        let unlinked = draft("PA.I.D.K4", QuestionKind::Primary);
        core.transcript.push(Turn {
            question_id: "q1".into(),
            element_code: "PA.I.C.K2".into(),
            kind: QuestionKind::Primary,
            question: "Q?".into(),
            answer: None,
            score: None,
            feedback: None,
            examiner: Vec::new(),
            scenario: None,
            sources: None,
        });
        let words = |draft: &QuestionDraft, core: &ExamCore| {
            let phrased = Examined::offline("What would you check?".to_owned());
            core.bridged(draft, phrased, library()).value
        };
        assert_eq!(
            words(&primary, &core),
            "Since we talked about weather information, let's talk about how that shapes \
             cross-country flight planning. What would you check?"
        );
        assert_eq!(
            words(&bonus, &core),
            "What would you check?",
            "a bonus has its lead-in"
        );
        assert_eq!(
            words(&unlinked, &core),
            "What would you check?",
            "no link, no bridge"
        );
        core.scenarios = None;
        assert_eq!(
            words(&primary, &core),
            "What would you check?",
            "scenarios off"
        );
    }
}
