//! Scenarios in an exam: which scenarios fit its scope, the rule that starts one, and where
//! a running scenario stands. Pure; the words of each question are looked up in the library
//! when it is asked (`modes::exam`), and each element is still credited by its own rubric.
//!
//! The rule:
//! - A scenario **fits** an exam when at least [`MIN_PENDING_STEPS`] of its elements are in
//!   the exam's scope; only those are kept, in the scenario's order.
//! - While a scenario **runs**, its next element still pending is asked next; elements
//!   asked or credited by mention meanwhile are passed over. A follow-up on a partial
//!   answer comes first, as without scenarios, and the plan's quota ends the exam as ever.
//! - Otherwise, when the plan asks a new element, a scenario **starts** if it has not run
//!   yet, holds the element the queue would ask next, has at least [`MIN_PENDING_STEPS`]
//!   elements still pending, and the plan has room for that many more questions. Among
//!   several, the one with the most pending elements; on a tie, the first in id order. It
//!   opens on its first pending element, so the queue's order still decides *when* a
//!   scenario comes, and the scenario decides the order within it.
//! - Else the queue goes on, and a scenario that ran out is finished.

use std::collections::HashMap;

/// Fewest pending elements a scenario needs to start (and to fit an exam's scope).
pub const MIN_PENDING_STEPS: usize = 3;

/// A scenario as an exam keeps it: its id and its elements in scope, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioOutline {
    /// The scenario's id.
    pub id: String,
    /// Its elements in the exam's scope, in the scenario's order.
    pub elements: Vec<String>,
}

/// The scenario under way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningScenario {
    /// Its id.
    pub id: String,
    /// Index in its outline's elements where the next scan starts.
    pub next: usize,
    /// Its questions asked so far (its setup is read before the first).
    pub asked: u32,
}

/// The exam's scenarios: those that fit, the one running, those done.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScenarioPlan {
    /// The scenarios that fit the exam, in id order.
    outlines: Vec<ScenarioOutline>,
    /// Element code → positions in `outlines` of the scenarios asking it (derived).
    by_element: HashMap<String, Vec<usize>>,
    /// The scenario under way.
    pub running: Option<RunningScenario>,
    /// Scenarios that ran, in the order they ran.
    pub finished: Vec<String>,
}

/// The next question's place in a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioStep {
    /// The scenario.
    pub scenario_id: String,
    /// The element's index in the outline.
    pub index: usize,
    /// The element.
    pub element_code: String,
    /// Whether this is the scenario's first question (its setup is read before it).
    pub opens: bool,
}

impl ScenarioPlan {
    /// The scenarios (id, elements in order) that fit an exam whose scope `in_scope` gives.
    pub fn fitting<'a>(
        scenarios: impl IntoIterator<Item = (&'a str, Vec<&'a str>)>,
        in_scope: impl Fn(&str) -> bool,
    ) -> ScenarioPlan {
        let outlines = scenarios
            .into_iter()
            .map(|(id, elements)| ScenarioOutline {
                id: id.to_owned(),
                elements: elements
                    .into_iter()
                    .filter(|code| in_scope(code))
                    .map(str::to_owned)
                    .collect(),
            })
            .filter(|outline| outline.elements.len() >= MIN_PENDING_STEPS)
            .collect();
        ScenarioPlan::new(outlines, None, Vec::new())
    }

    /// A plan of these fitting scenarios, this one running and these finished (a restore).
    pub fn new(
        outlines: Vec<ScenarioOutline>,
        running: Option<RunningScenario>,
        finished: Vec<String>,
    ) -> ScenarioPlan {
        let mut by_element: HashMap<String, Vec<usize>> = HashMap::new();
        for (position, outline) in outlines.iter().enumerate() {
            for code in &outline.elements {
                by_element.entry(code.clone()).or_default().push(position);
            }
        }
        ScenarioPlan {
            outlines,
            by_element,
            running,
            finished,
        }
    }

    /// The scenarios that fit the exam, in id order.
    pub fn outlines(&self) -> &[ScenarioOutline] {
        &self.outlines
    }

    /// Drops scenario `id` (the library no longer holds it), running or not.
    pub fn forget(&mut self, id: &str) {
        if self.running_id() == Some(id) {
            self.running = None;
        }
        let mut outlines = std::mem::take(&mut self.outlines);
        outlines.retain(|outline| outline.id != id);
        let running = self.running.take();
        let finished = std::mem::take(&mut self.finished);
        *self = ScenarioPlan::new(outlines, running, finished);
    }

    /// The id of the scenario under way.
    pub fn running_id(&self) -> Option<&str> {
        self.running.as_ref().map(|running| running.id.as_str())
    }

    /// The next question from a scenario, if the rule (module doc) gives one: `queue_next`
    /// is the element the queue would ask next, `room` how many more new elements the plan
    /// allows.
    pub fn next_step(
        &self,
        is_pending: impl Fn(&str) -> bool,
        queue_next: Option<&str>,
        room: u32,
    ) -> Option<ScenarioStep> {
        self.continue_running(&is_pending)
            .or_else(|| self.start(&is_pending, queue_next?, room))
    }

    fn continue_running(&self, is_pending: &impl Fn(&str) -> bool) -> Option<ScenarioStep> {
        let running = self.running.as_ref()?;
        let outline = self.outline(&running.id)?;
        first_pending(outline, running.next, is_pending).map(|(index, code)| ScenarioStep {
            scenario_id: running.id.clone(),
            index,
            element_code: code.to_owned(),
            opens: running.asked == 0,
        })
    }

    fn start(
        &self,
        is_pending: &impl Fn(&str) -> bool,
        queue_next: &str,
        room: u32,
    ) -> Option<ScenarioStep> {
        let pending_count = |outline: &ScenarioOutline| {
            let pending = outline.elements.iter().filter(|code| is_pending(code));
            pending.count()
        };
        let ran =
            |id: &str| self.finished.iter().any(|done| done == id) || self.running_id() == Some(id);
        if room < MIN_PENDING_STEPS as u32 {
            return None;
        }
        let chosen = self
            .by_element
            .get(queue_next)?
            .iter()
            .map(|&position| &self.outlines[position])
            .filter(|outline| !ran(&outline.id))
            .map(|outline| (pending_count(outline), outline))
            .filter(|(pending, _)| *pending >= MIN_PENDING_STEPS)
            .min_by_key(|(pending, _)| std::cmp::Reverse(*pending))?;
        let (index, code) = first_pending(chosen.1, 0, is_pending)?;
        Some(ScenarioStep {
            scenario_id: chosen.1.id.clone(),
            index,
            element_code: code.to_owned(),
            opens: true,
        })
    }

    fn outline(&self, id: &str) -> Option<&ScenarioOutline> {
        self.outlines.iter().find(|outline| outline.id == id)
    }

    /// Records that `step` was asked: a scenario it opens starts running (finishing any other).
    pub fn record_asked(&mut self, step: &ScenarioStep) {
        if self.running_id() != Some(step.scenario_id.as_str()) {
            self.finish_running();
            self.running = Some(RunningScenario {
                id: step.scenario_id.clone(),
                next: 0,
                asked: 0,
            });
        }
        if let Some(running) = self.running.as_mut() {
            running.next = step.index + 1;
            running.asked += 1;
        }
    }

    /// Ends the running scenario, if any: a new element is asked outside it.
    pub fn finish_running(&mut self) {
        if let Some(running) = self.running.take() {
            self.finished.push(running.id);
        }
    }
}

/// The first element of `outline` from `from` on that is pending, with its index.
fn first_pending<'o>(
    outline: &'o ScenarioOutline,
    from: usize,
    is_pending: &impl Fn(&str) -> bool,
) -> Option<(usize, &'o str)> {
    let later = outline.elements.iter().enumerate().skip(from);
    later
        .map(|(index, code)| (index, code.as_str()))
        .find(|(_, code)| is_pending(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(scenarios: &[(&str, &[&str])]) -> ScenarioPlan {
        let all = scenarios.iter().map(|(id, codes)| (*id, codes.to_vec()));
        ScenarioPlan::fitting(all, |_| true)
    }

    /// The step as `id index code opens`, or `-`.
    fn describe(step: Option<ScenarioStep>) -> String {
        step.map_or("-".into(), |s| {
            format!(
                "{} {} {} {}",
                s.scenario_id, s.index, s.element_code, s.opens
            )
        })
    }

    const NIGHT: (&str, &[&str]) = ("night", &["a", "b", "c", "d"]);
    const STORM: (&str, &[&str]) = ("storm", &["x", "b", "y", "z", "w"]);

    #[test]
    fn only_scenarios_with_enough_elements_in_scope_fit() {
        let all = [NIGHT, STORM].map(|(id, codes)| (id, codes.to_vec()));
        let fitted = ScenarioPlan::fitting(all, |code| code != "a" && code != "c");
        let ids: Vec<&str> = fitted.outlines().iter().map(|o| o.id.as_str()).collect();
        assert_eq!(ids, ["storm"], "night keeps b and d only");
        assert_eq!(fitted.outlines()[0].elements, ["x", "b", "y", "z", "w"]);
    }

    #[test]
    fn a_scenario_starts_by_the_rule() {
        // (pending elements, the queue's next element, room left, what is asked)
        let cases: [(&[&str], Option<&str>, u32, &str); 8] = [
            (
                &["a", "b", "c", "d", "x", "y", "z", "w"],
                Some("a"),
                10,
                "night 0 a true",
            ),
            (
                &["a", "b", "c", "d", "x", "y", "z", "w"],
                Some("c"),
                10,
                "night 0 a true",
            ),
            (
                &["a", "b", "c", "d", "x", "y", "z", "w"],
                Some("b"),
                10,
                "storm 0 x true",
            ),
            (&["b", "c", "d", "x", "y"], Some("b"), 10, "night 1 b true"),
            (
                &["b", "c", "d", "x", "y", "z", "w"],
                Some("b"),
                10,
                "storm 0 x true",
            ),
            (&["a", "b", "c", "d"], Some("q"), 10, "-"),
            (&["a", "b", "c", "d"], Some("a"), 2, "-"),
            (&["a", "b", "x", "y"], Some("a"), 10, "-"),
        ];
        let plan = plan(&[NIGHT, STORM]);
        for (pending, next, room, expected) in cases {
            let step = plan.next_step(|code| pending.contains(&code), next, room);
            assert_eq!(
                describe(step),
                expected,
                "{pending:?} next {next:?} room {room}"
            );
        }
        assert_eq!(
            describe(plan.next_step(|_| true, None, 10)),
            "-",
            "no queue element"
        );
    }

    #[test]
    fn a_running_scenario_goes_on_in_its_order_then_finishes() {
        let mut plan = plan(&[NIGHT, STORM]);
        let mut pending = vec!["a", "b", "c", "d", "x", "y", "z", "w"];
        let mut asked = Vec::new();
        // The queue would ask `a`, then `x`; `c` is credited by mention after `a`.
        for queue_next in ["a", "x", "x", "x", "x", "x", "x"] {
            let Some(step) = plan.next_step(|code| pending.contains(&code), Some(queue_next), 10)
            else {
                break;
            };
            pending.retain(|code| *code != step.element_code);
            if step.element_code == "a" {
                pending.retain(|code| *code != "c");
            }
            asked.push(describe(Some(step.clone())));
            plan.record_asked(&step);
        }
        assert_eq!(
            asked,
            [
                "night 0 a true",
                "night 1 b false",
                "night 3 d false",
                "storm 0 x true",
                "storm 2 y false",
                "storm 3 z false",
                "storm 4 w false",
            ]
        );
        assert_eq!(plan.finished, ["night"]);
        assert_eq!(plan.running_id(), Some("storm"));
        assert_eq!(
            describe(plan.next_step(|_| true, Some("a"), 10)),
            "-",
            "both ran"
        );
        plan.finish_running();
        assert_eq!(plan.finished, ["night", "storm"]);
        assert_eq!(plan.running, None);
    }

    #[test]
    fn a_forgotten_scenario_is_neither_run_nor_started() {
        let mut plan = plan(&[NIGHT, STORM]);
        let step = plan.next_step(|_| true, Some("a"), 10).unwrap();
        plan.record_asked(&step);
        plan.forget("night");
        assert_eq!(plan.running, None);
        assert_eq!(plan.outlines().len(), 1);
        assert_eq!(describe(plan.next_step(|_| true, Some("a"), 10)), "-");
        let storm = plan.next_step(|_| true, Some("b"), 10);
        assert_eq!(
            describe(storm),
            "storm 0 x true",
            "the index follows the outlines"
        );
    }

    #[test]
    fn a_scenario_interrupted_by_the_queue_never_restarts() {
        let mut plan = plan(&[NIGHT]);
        let step = plan.next_step(|_| true, Some("a"), 10).unwrap();
        plan.record_asked(&step);
        plan.finish_running();
        assert_eq!(describe(plan.next_step(|_| true, Some("b"), 10)), "-");
    }
}
