//! The rules a scenario file and a link file meet. Each error names the file, the field path
//! (`steps[2].expects`), and the line and column of the node it names.

use std::collections::BTreeSet;

use super::model::{Link, LinkDoc, ScenarioDoc, Setup, Step};
use crate::error::LoadError;
use crate::ids::is_kebab;
use crate::rubric::RubricSet;
use crate::rubric::check::is_precise_citation;
use crate::yaml::Errors;

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
        errors.at("id", format!("{:?} is not kebab-case", doc.id));
    }
    if doc.title.trim().is_empty() {
        errors.at("title", "must not be empty");
    }
    check_setup(&mut errors, &doc.setup);
    for (index, cite) in doc.cites.iter().enumerate() {
        if cite.says.trim().is_empty() {
            errors.at(&format!("cites[{index}].says"), "must not be empty");
        }
        if !cite
            .source
            .split(';')
            .all(|c| is_precise_citation(c.trim()))
        {
            let message = format!("{:?} is not a precise citation", cite.source);
            errors.at(&format!("cites[{index}].source"), message);
        }
    }
    check_steps(&mut errors, &doc.steps, rubrics, element_ok);
    errors.into_found()
}

fn check_setup(errors: &mut Errors<'_>, setup: &Setup) {
    let required = [
        ("route", &setup.route),
        ("aircraft", &setup.aircraft),
        ("passengers", &setup.passengers),
        ("time_of_day", &setup.time_of_day),
        ("weather", &setup.weather),
    ];
    for (field, text) in required {
        if text.trim().is_empty() {
            errors.at(&format!("setup.{field}"), "must not be empty");
        }
    }
    let optional = [setup.notam.as_deref(), setup.inoperative.as_deref()];
    if optional.iter().flatten().all(|text| text.trim().is_empty()) {
        let message = "a scenario states a NOTAM or an inoperative item (or both)";
        errors.at("setup", message);
    }
    if setup.sentences().any(|text| text.contains('?')) {
        errors.at("setup", "the setup states the flight; it asks nothing");
    }
}

fn check_steps(
    errors: &mut Errors<'_>,
    steps: &[Step],
    rubrics: &RubricSet,
    element_ok: ElementCheck<'_>,
) {
    if !(MIN_STEPS..=MAX_STEPS).contains(&steps.len()) {
        let message = format!(
            "a scenario has {MIN_STEPS} to {MAX_STEPS} steps, not {}",
            steps.len()
        );
        errors.at("steps", message);
    }
    let mut seen = BTreeSet::new();
    for (index, step) in steps.iter().enumerate() {
        let field = format!("steps[{index}]");
        if !seen.insert(step.element.as_str()) {
            let message = format!("{} is asked twice in this scenario", step.element);
            errors.at(&format!("{field}.element"), message);
        }
        check_step(errors, &field, step, rubrics, element_ok);
    }
}

fn check_step(
    errors: &mut Errors<'_>,
    field: &str,
    step: &Step,
    rubrics: &RubricSet,
    element_ok: ElementCheck<'_>,
) {
    if let Err(why) = element_ok(&step.element) {
        errors.at(&format!("{field}.element"), why);
        return;
    }
    if !step.ask.trim_end().ends_with('?') {
        errors.at(&format!("{field}.ask"), "a question ends with \"?\"");
    }
    if step.expects.is_empty() {
        let message = "a step expects at least one fact";
        errors.at(&format!("{field}.expects"), message);
    }
    let Some(rubric) = rubrics.get(&step.element) else {
        let message = format!("{} has no rubric to credit it by", step.element);
        errors.at(&format!("{field}.element"), message);
        return;
    };
    let mut expected = BTreeSet::new();
    for (index, id) in step.expects.iter().enumerate() {
        let at = format!("{field}.expects[{index}]");
        if !expected.insert(id.as_str()) {
            errors.at(&at, format!("{id:?} is expected twice"));
        }
        if !rubric.facts.iter().any(|fact| &fact.id == id) {
            let message = format!("{id:?} is not a fact of {}'s rubric", step.element);
            errors.at(&at, message);
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
    for (index, link) in doc.links.iter().enumerate() {
        let field = format!("links[{index}]");
        check_link(&mut errors, &field, link, element_ok, seen);
    }
    errors.into_found()
}

fn check_link(
    errors: &mut Errors<'_>,
    field: &str,
    link: &Link,
    element_ok: ElementCheck<'_>,
    seen: &mut BTreeSet<(String, String)>,
) {
    for (end, code) in [("from", &link.from), ("to", &link.to)] {
        if let Err(why) = element_ok(code) {
            errors.at(&format!("{field}.{end}"), why);
        }
    }
    if link.from == link.to {
        let message = format!("{} is linked to itself", link.from);
        errors.at(&format!("{field}.to"), message);
    }
    let pair = match link.from <= link.to {
        true => (link.from.clone(), link.to.clone()),
        false => (link.to.clone(), link.from.clone()),
    };
    if !seen.insert(pair) {
        let message = format!("{} and {} are linked twice", link.from, link.to);
        errors.at(field, message);
    }
}
