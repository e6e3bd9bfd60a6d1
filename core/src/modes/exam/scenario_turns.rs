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
        let scenarios = self.scenarios.as_ref()?;
        let pending = |code: &str| self.plan.is_pending(code);
        let queue_next = self.planner.next_element(pending);
        let queue_next = queue_next.map(|index| self.planner.queue[index].as_str());
        let allowed = self.plan.planned_question_count + self.plan.bonus_used;
        let room = allowed.saturating_sub(self.plan.asked_count);
        scenarios.next_step(pending, queue_next, room)
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
        let closing = self.leaves_scenario(Some(&draft.step.scenario_id));
        let step = &draft.step;
        let text = library.scenarios().get(&step.scenario_id).and_then(|scenario| {
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
        let new_topic = draft.planner_index.is_some() && draft.request.kind == QuestionKind::Primary;
        if self.scenarios.is_none() || !new_topic {
            return phrased;
        }
        let previous = self.transcript.last().map(|turn| turn.element_code.as_str());
        let bridge = previous.and_then(|previous| {
            lead_in(library, self.rating(), previous, &draft.request.element_code)
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
        let last = self.transcript.last().and_then(|turn| turn.scenario.as_deref());
        last.is_some_and(|last| Some(last) != next)
    }

    fn forget_scenario(&mut self, id: &str) {
        if let Some(scenarios) = self.scenarios.as_mut() {
            scenarios.outlines.retain(|outline| outline.id != id);
            if scenarios.running_id() == Some(id) {
                scenarios.running = None;
            }
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
        self.questions_asked += 1;
        self.next_step = None;
        let open = OpenQuestion {
            question_id: question_id(self.questions_asked),
            element_code: code,
            kind,
            number: self.questions_asked,
            text,
            pending_answer: None,
            scenario,
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
