//! The rules a course file meets. Each error names the file, the field path
//! (`exam_questions[4].answer_index`), and the line and column of the node it names. A
//! prerequisite cycle is found when the graph is built ([`super::graph`]).

use std::collections::BTreeSet;

use super::model::{CourseDoc, Drill, ExamQuestion, Unit};
use crate::error::LoadError;
use crate::ids::is_kebab;
use crate::library::BlueprintLibrary;
use crate::yaml::Errors;

/// Most key ideas on a concept card.
pub const MAX_KEY_IDEAS: usize = 3;
/// Options an exam question may have.
pub const OPTIONS: std::ops::RangeInclusive<usize> = 2..=6;

/// Every error in one parsed course file.
pub fn check_course(
    file: &str,
    text: &str,
    doc: &CourseDoc,
    skills: &BlueprintLibrary,
    rubric_exists: &dyn Fn(&str) -> bool,
) -> Vec<LoadError> {
    let mut errors = Errors::new(file, text);
    let id_ok = !doc.course_id.is_empty()
        && doc
            .course_id
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !id_ok {
        errors.at(
            "course_id",
            format!(
                "{:?} is not upper-case letters, digits, '-' and '_'",
                doc.course_id
            ),
        );
    }
    let units = check_units(&mut errors, &doc.units);
    let known = |unit: &str| units.contains(unit);
    if !known(&doc.entry_unit) {
        errors.at("entry_unit", format!("unknown unit {:?}", doc.entry_unit));
    }
    for (index, edge) in doc.prerequisites.iter().enumerate() {
        for (field, unit) in [("unit", &edge.unit), ("before", &edge.before)] {
            if !known(unit) {
                errors.at(
                    &format!("prerequisites[{index}].{field}"),
                    format!("unknown unit {unit:?}"),
                );
            }
        }
    }
    check_drills(&mut errors, &doc.drills, &units, skills, rubric_exists);
    check_questions(&mut errors, &doc.exam_questions, &units);
    errors.into_found()
}

fn check_units<'a>(errors: &mut Errors<'_>, units: &'a [Unit]) -> BTreeSet<&'a str> {
    let mut seen = BTreeSet::new();
    for (index, unit) in units.iter().enumerate() {
        let field = format!("units[{index}]");
        if !is_kebab(&unit.unit_id) {
            errors.at(
                &format!("{field}.unit_id"),
                format!("{:?} is not kebab-case", unit.unit_id),
            );
        }
        if !seen.insert(unit.unit_id.as_str()) {
            errors.at(
                &format!("{field}.unit_id"),
                format!("{:?} is defined twice", unit.unit_id),
            );
        }
        for (name, text) in [("title", &unit.title), ("anchor", &unit.anchor)] {
            if text.trim().is_empty() {
                errors.at(&format!("{field}.{name}"), "must not be empty");
            }
        }
        if unit.key_ideas.is_empty() || unit.key_ideas.len() > MAX_KEY_IDEAS {
            let message = format!(
                "{} key ideas; a concept card takes 1 to {MAX_KEY_IDEAS}",
                unit.key_ideas.len()
            );
            errors.at(&format!("{field}.key_ideas"), message);
        }
    }
    seen
}

fn check_drills(
    errors: &mut Errors<'_>,
    drills: &[Drill],
    units: &BTreeSet<&str>,
    skills: &BlueprintLibrary,
    rubric_exists: &dyn Fn(&str) -> bool,
) {
    let mut drilled = BTreeSet::new();
    for (index, drill) in drills.iter().enumerate() {
        let field = format!("drills[{index}]");
        if !units.contains(drill.unit.as_str()) {
            errors.at(
                &format!("{field}.unit"),
                format!("unknown unit {:?}", drill.unit),
            );
        }
        drilled.insert(drill.unit.as_str());
        match (&drill.skill_id, &drill.rubric_element) {
            (Some(skill), None) if skills.skill(skill).is_none() => {
                errors.at(
                    &format!("{field}.skill_id"),
                    format!("no skill blueprint {skill:?}"),
                );
            }
            (None, Some(element)) if !rubric_exists(element) => {
                errors.at(
                    &format!("{field}.rubric_element"),
                    format!("no rubric for {element:?}"),
                );
            }
            (Some(_), None) | (None, Some(_)) => {}
            _ => errors.at(
                &field,
                "a drill names exactly one of skill_id and rubric_element",
            ),
        }
    }
    for unit in units.iter().filter(|unit| !drilled.contains(*unit)) {
        errors.at("drills", format!("unit {unit:?} has no drill"));
    }
}

fn check_questions(errors: &mut Errors<'_>, questions: &[ExamQuestion], units: &BTreeSet<&str>) {
    let mut seen = BTreeSet::new();
    for (index, question) in questions.iter().enumerate() {
        let field = format!("exam_questions[{index}]");
        let id = &question.question_id;
        if id.trim().is_empty() || !seen.insert(id.as_str()) {
            errors.at(
                &format!("{field}.question_id"),
                format!("{id:?} is empty or defined twice"),
            );
        }
        if !units.contains(question.unit.as_str()) {
            errors.at(
                &format!("{field}.unit"),
                format!("unknown unit {:?}", question.unit),
            );
        }
        check_key(errors, &field, question);
        for (name, text) in [("stem", &question.stem), ("memo", &question.memo)] {
            if text.trim().is_empty() {
                errors.at(&format!("{field}.{name}"), "must not be empty");
            }
        }
    }
}

fn check_key(errors: &mut Errors<'_>, field: &str, question: &ExamQuestion) {
    let options = &question.options;
    if !OPTIONS.contains(&options.len()) {
        let message = format!("{} options; a question has 2 to 6", options.len());
        errors.at(&format!("{field}.options"), message);
    }
    let distinct: BTreeSet<&str> = options.iter().map(|o| o.trim()).collect();
    if distinct.len() != options.len() || distinct.contains("") {
        errors.at(
            &format!("{field}.options"),
            "options must be distinct and not empty",
        );
    }
    if question.answer_index >= options.len() {
        let message = format!(
            "key {} is not one of the {} options",
            question.answer_index,
            options.len()
        );
        errors.at(&format!("{field}.answer_index"), message);
    }
}

#[cfg(test)]
mod tests {
    use crate::course::CourseSet;
    use crate::library::{BlueprintLibrary, Source};

    const GOOD: &str = "\
course_id: TINY
title: Tiny
entry_unit: count
units:
  - unit_id: count
    title: Counting
    anchor: Counting says how many things there are.
    key_ideas: [Each thing is counted once.]
  - unit_id: add
    title: Adding
    anchor: Adding puts two groups together.
    key_ideas: [The order does not change a sum.]
    worked_example: 2 + 3 is 3 + 2, and both are 5.
prerequisites:
  - {unit: add, before: count}
drills:
  - {unit: count, rubric_element: PA.I.A.K1}
  - {unit: add, skill_id: MATH.ARITH.ADD.1DIGIT}
exam_questions:
  - question_id: add-bronze-1
    unit: add
    tier: bronze
    stem: What is 2 + 3?
    options: ['4', '5', '6']
    answer_index: 1
    memo: Two and three make five.
";

    /// A shipped skill: one-digit addition.
    const SKILL: &str = include_str!("../../../blueprints/skills/math/arithmetic/add-1digit.yaml");

    /// The errors of `GOOD` with `from` replaced by `to`, as `file:line:column: field: message`.
    fn errors_with(from: &str, to: &str) -> Vec<String> {
        assert!(GOOD.contains(from), "{from:?} is not in the sample");
        let skill = Source {
            path: "s.yaml".into(),
            text: SKILL.into(),
        };
        let skills = BlueprintLibrary::load(&[skill], &[]).unwrap();
        let course = Source {
            path: "c.yaml".into(),
            text: GOOD.replacen(from, to, 1),
        };
        match CourseSet::load(&[course], &skills, &|element| element == "PA.I.A.K1") {
            Ok(set) => {
                assert_eq!(set.len(), 1);
                Vec::new()
            }
            Err(errors) => errors.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_good_course_loads_with_its_graph() {
        assert_eq!(
            errors_with("title: Tiny", "title: Tiny"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn every_rule_names_file_field_and_line() {
        let cases = [
            (
                "entry_unit: count",
                "entry_unit: counting",
                "c.yaml:3:13: entry_unit: unknown unit \"counting\"",
            ),
            (
                "{unit: add, before: count}",
                "{unit: add, before: sum}",
                "c.yaml:15:25: prerequisites[0].before: unknown unit \"sum\"",
            ),
            (
                "{unit: add, before: count}",
                "{unit: add, before: add}",
                "c.yaml:15:3: prerequisites: prerequisites form a cycle: add -> add",
            ),
            (
                "skill_id: MATH.ARITH.ADD.1DIGIT",
                "skill_id: T.SUM",
                "c.yaml:18:27: drills[1].skill_id: no skill blueprint \"T.SUM\"",
            ),
            (
                "rubric_element: PA.I.A.K1",
                "rubric_element: PA.I.A.K9",
                "c.yaml:17:35: drills[0].rubric_element: no rubric for \"PA.I.A.K9\"",
            ),
            (
                "{unit: add, skill_id: MATH.ARITH.ADD.1DIGIT}",
                "{unit: count, skill_id: MATH.ARITH.ADD.1DIGIT}",
                "c.yaml:17:3: drills: unit \"add\" has no drill",
            ),
            (
                "answer_index: 1",
                "answer_index: 3",
                "c.yaml:25:19: exam_questions[0].answer_index: key 3 is not one of the 3 options",
            ),
            (
                "options: ['4', '5', '6']",
                "options: ['5']",
                "c.yaml:24:14: exam_questions[0].options: 1 options; a question has 2 to 6",
            ),
            (
                "options: ['4', '5', '6']",
                "options: ['5', '5 ']",
                "options must be distinct",
            ),
            (
                "unit_id: add",
                "unit_id: Add",
                "c.yaml:9:14: units[1].unit_id: \"Add\" is not kebab-case",
            ),
            (
                "key_ideas: [Each thing is counted once.]",
                "key_ideas: [a, b, c, d]",
                "c.yaml:8:16: units[0].key_ideas: 4 key ideas",
            ),
            (
                "unit: add\n    tier",
                "unit: sub\n    tier",
                "c.yaml:21:11: exam_questions[0].unit: unknown unit \"sub\"",
            ),
            (
                "tier: bronze",
                "tier: platinum",
                "c.yaml:22:11: exam_questions[0].tier: unknown variant `platinum`",
            ),
            (
                "course_id: TINY",
                "course_id: tiny",
                "c.yaml:1:12: course_id: \"tiny\" is not upper-case",
            ),
        ];
        for (from, to, expected) in cases {
            let errors = errors_with(from, to);
            assert!(
                errors.iter().any(|e| e.contains(expected)),
                "{from:?} → {to:?}: {errors:#?}"
            );
        }
    }
}
