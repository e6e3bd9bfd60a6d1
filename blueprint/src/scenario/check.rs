//! The rules a scenario file and a link file meet. Each error names the file, the field path
//! (`steps[2].expects`) and the line its entry starts on.

use std::collections::BTreeSet;

use super::model::{Link, LinkDoc, ScenarioDoc, Setup, Step};
use crate::error::LoadError;
use crate::located::{Errors, is_kebab};
use crate::rubric::RubricSet;
use crate::rubric::check::is_precise_citation;

/// Fewest steps a scenario has: fewer is a question, not a scenario.
pub const MIN_STEPS: usize = 3;

/// Most steps a scenario has: more would crowd out the rest of an exam.
pub const MAX_STEPS: usize = 8;

/// What the caller knows about an element code: `Ok` when it exists and is asked orally,
/// else why not ("PA.IV.A.K1 is a flight skill, never asked orally").
pub type ElementCheck<'a> = &'a dyn Fn(&str) -> Result<(), String>;

/// Every error in one parsed scenario file.
pub fn check_scenario(
    file: &str,
    text: &str,
    doc: &ScenarioDoc,
    rubrics: &RubricSet,
    element_ok: ElementCheck<'_>,
) -> Vec<LoadError> {
    let mut errors = Errors::new(file, text);
    if !is_kebab(&doc.id) {
        let line = errors.line_of("id:", 1);
        errors.at("id", line, format!("{:?} is not kebab-case", doc.id));
    }
    if doc.title.trim().is_empty() {
        errors.at("title", errors.line_of("title:", 1), "must not be empty");
    }
    check_setup(&mut errors, &doc.setup);
    let mut after = 0;
    for (index, cite) in doc.cites.iter().enumerate() {
        let line = errors.line_after(&format!("source: {}", cite.source), &mut after, 1);
        if cite.says.trim().is_empty() {
            errors.at(&format!("cites[{index}].says"), line, "must not be empty");
        }
        if !cite
            .source
            .split(';')
            .all(|c| is_precise_citation(c.trim()))
        {
            let message = format!("{:?} is not a precise citation", cite.source);
            errors.at(&format!("cites[{index}].source"), line, message);
        }
    }
    check_steps(&mut errors, &doc.steps, rubrics, element_ok);
    errors.into_found()
}

fn check_setup(errors: &mut Errors<'_>, setup: &Setup) {
    let line = errors.line_of("setup:", 1);
    let required = [
        ("route", &setup.route),
        ("aircraft", &setup.aircraft),
        ("passengers", &setup.passengers),
        ("time_of_day", &setup.time_of_day),
        ("weather", &setup.weather),
    ];
    for (field, text) in required {
        if text.trim().is_empty() {
            errors.at(&format!("setup.{field}"), line, "must not be empty");
        }
    }
    let optional = [setup.notam.as_deref(), setup.inoperative.as_deref()];
    if optional.iter().flatten().all(|text| text.trim().is_empty()) {
        let message = "a scenario states a NOTAM or an inoperative item (or both)";
        errors.at("setup", line, message);
    }
    if setup.sentences().any(|text| text.contains('?')) {
        errors.at(
            "setup",
            line,
            "the setup states the flight; it asks nothing",
        );
    }
}

fn check_steps(
    errors: &mut Errors<'_>,
    steps: &[Step],
    rubrics: &RubricSet,
    element_ok: ElementCheck<'_>,
) {
    if !(MIN_STEPS..=MAX_STEPS).contains(&steps.len()) {
        let line = errors.line_of("steps:", 1);
        let message = format!(
            "a scenario has {MIN_STEPS} to {MAX_STEPS} steps, not {}",
            steps.len()
        );
        errors.at("steps", line, message);
    }
    let mut seen = BTreeSet::new();
    let mut after = 0;
    for (index, step) in steps.iter().enumerate() {
        let field = format!("steps[{index}]");
        let line = errors.line_after(&format!("element: {}", step.element), &mut after, 1);
        if !seen.insert(step.element.as_str()) {
            let message = format!("{} is asked twice in this scenario", step.element);
            errors.at(&format!("{field}.element"), line, message);
        }
        check_step(errors, &field, line, step, rubrics, element_ok);
    }
}

fn check_step(
    errors: &mut Errors<'_>,
    field: &str,
    line: usize,
    step: &Step,
    rubrics: &RubricSet,
    element_ok: ElementCheck<'_>,
) {
    if let Err(why) = element_ok(&step.element) {
        errors.at(&format!("{field}.element"), line, why);
        return;
    }
    if !step.ask.trim_end().ends_with('?') {
        errors.at(&format!("{field}.ask"), line, "a question ends with \"?\"");
    }
    if step.expects.is_empty() {
        let message = "a step expects at least one fact";
        errors.at(&format!("{field}.expects"), line, message);
    }
    let Some(rubric) = rubrics.get(&step.element) else {
        let message = format!("{} has no rubric to credit it by", step.element);
        errors.at(&format!("{field}.element"), line, message);
        return;
    };
    let mut expected = BTreeSet::new();
    for id in &step.expects {
        if !expected.insert(id.as_str()) {
            let message = format!("{id:?} is expected twice");
            errors.at(&format!("{field}.expects"), line, message);
        }
        if !rubric.facts.iter().any(|fact| &fact.id == id) {
            let message = format!("{id:?} is not a fact of {}'s rubric", step.element);
            errors.at(&format!("{field}.expects"), line, message);
        }
    }
}

/// Every error in one parsed link file; `seen` holds the pairs linked by files checked
/// before it (a pair is linked once, in either direction).
pub fn check_links(
    file: &str,
    text: &str,
    doc: &LinkDoc,
    element_ok: ElementCheck<'_>,
    seen: &mut BTreeSet<(String, String)>,
) -> Vec<LoadError> {
    let mut errors = Errors::new(file, text);
    let mut after = 0;
    for (index, link) in doc.links.iter().enumerate() {
        let field = format!("links[{index}]");
        let line = errors.line_after(&format!("from: {}", link.from), &mut after, 1);
        check_link(&mut errors, &field, line, link, element_ok, seen);
    }
    errors.into_found()
}

fn check_link(
    errors: &mut Errors<'_>,
    field: &str,
    line: usize,
    link: &Link,
    element_ok: ElementCheck<'_>,
    seen: &mut BTreeSet<(String, String)>,
) {
    for (end, code) in [("from", &link.from), ("to", &link.to)] {
        if let Err(why) = element_ok(code) {
            errors.at(&format!("{field}.{end}"), line, why);
        }
    }
    if link.from == link.to {
        let message = format!("{} is linked to itself", link.from);
        errors.at(&format!("{field}.to"), line, message);
    }
    let pair = match link.from <= link.to {
        true => (link.from.clone(), link.to.clone()),
        false => (link.to.clone(), link.from.clone()),
    };
    if !seen.insert(pair) {
        let message = format!("{} and {} are linked twice", link.from, link.to);
        errors.at(field, line, message);
    }
}
