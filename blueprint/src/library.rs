//! `BlueprintLibrary`: every skill and assessment, parsed from YAML text and compiled, with
//! all errors reported together. The caller reads the files; this module does no IO.

use std::collections::{BTreeMap, BTreeSet};

use crate::assessment::{Assessment, compile_assessment};
use crate::error::LoadError;
use crate::model::{AssessmentDoc, SkillDoc};
use crate::skill::{Skill, compile_skill};

pub use crate::source::Source;

/// The loaded blueprints.
#[derive(Debug, Clone, Default)]
pub struct BlueprintLibrary {
    skills: BTreeMap<String, Skill>,
    assessments: BTreeMap<String, Assessment>,
}

impl BlueprintLibrary {
    /// Parses and compiles every skill, then every assessment (which may name any skill).
    pub fn load(
        skills: &[Source],
        assessments: &[Source],
    ) -> Result<BlueprintLibrary, Vec<LoadError>> {
        let mut errors = Vec::new();
        let mut library = BlueprintLibrary::default();
        for source in skills {
            let compiled =
                parse::<SkillDoc>(source).and_then(|doc| compile_skill(&source.path, doc));
            match compiled {
                Ok(skill) if library.skills.contains_key(&skill.id) => {
                    errors.push(LoadError::at(
                        &source.path,
                        "skill_id",
                        format!("{:?} is defined twice", skill.id),
                    ));
                }
                Ok(skill) => {
                    library.skills.insert(skill.id.clone(), skill);
                }
                Err(found) => errors.extend(found),
            }
        }
        let skill_ids: BTreeSet<String> = library.skills.keys().cloned().collect();
        for source in assessments {
            let compiled = parse::<AssessmentDoc>(source)
                .and_then(|doc| compile_assessment(&source.path, doc, &skill_ids));
            match compiled {
                Ok(assessment) if library.assessments.contains_key(&assessment.id) => {
                    let message = format!("{:?} is defined twice", assessment.id);
                    errors.push(LoadError::at(&source.path, "assessment_id", message));
                }
                Ok(assessment) => {
                    library
                        .assessments
                        .insert(assessment.id.clone(), assessment);
                }
                Err(found) => errors.extend(found),
            }
        }
        if errors.is_empty() {
            return Ok(library);
        }
        crate::yaml::place_in(skills, &mut errors);
        crate::yaml::place_in(assessments, &mut errors);
        Err(errors)
    }

    /// A skill by id.
    pub fn skill(&self, id: &str) -> Option<&Skill> {
        self.skills.get(id)
    }

    /// An assessment by id.
    pub fn assessment(&self, id: &str) -> Option<&Assessment> {
        self.assessments.get(id)
    }

    /// Every skill, by id.
    pub fn skills(&self) -> impl Iterator<Item = &Skill> {
        self.skills.values()
    }

    /// Every assessment, by id.
    pub fn assessments(&self) -> impl Iterator<Item = &Assessment> {
        self.assessments.values()
    }
}

/// Parses one YAML source as `T`; an error names its file, the offending node's path, line
/// and column.
pub fn parse<T: serde::de::DeserializeOwned>(source: &Source) -> Result<T, Vec<LoadError>> {
    crate::yaml::parse_str(&source.path, &source.text).map_err(|err| vec![err])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(path: &str, text: &str) -> Source {
        Source {
            path: path.into(),
            text: text.into(),
        }
    }

    const ADD: &str = r#"
skill_id: "T.ADD"
generation:
  item_type: multiple_choice
  parameters:
    a: {type: integer, min: 1, max: 9}
    b: {type: integer, min: 1, max: 9}
  answer_formula: "a + b"
  answer_type: integer
  difficulty_levels:
    easy: {constraints: ["answer < 10"]}
    medium: {constraints: []}
    hard: {constraints: ["answer >= 10"]}
presentation:
  stem_templates: ["What is {a} + {b}?"]
  option_count: 4
  distractor_strategies:
    - {type: off_by_ten, formula: "answer + 10"}
  distractor_validation: ["distractor > 0"]
"#;

    #[test]
    fn a_valid_skill_loads() {
        let library = BlueprintLibrary::load(&[source("add.yaml", ADD)], &[]).unwrap();
        assert!(library.skill("T.ADD").is_some());
    }

    #[test]
    fn errors_name_file_line_column_and_field() {
        let check = |text: String, line: usize, column: usize, field: &str, needle: &str| {
            let errors = BlueprintLibrary::load(&[source("bad.yaml", &text)], &[]).unwrap_err();
            let error = errors
                .iter()
                .find(|e| e.field == field)
                .unwrap_or_else(|| panic!("{field} not in {errors:?}"));
            let shown = error.to_string();
            assert!(
                shown.starts_with(&format!("bad.yaml:{line}:{column}: {field}: ")),
                "{shown}"
            );
            assert!(shown.contains(needle), "{shown}");
        };
        let cases = [
            (
                "a + b",
                "a +* b",
                8,
                19,
                "generation.answer_formula",
                "(column 4 of",
            ),
            (
                "\"answer < 10\"",
                "\"answr < 10\"",
                11,
                26,
                "generation.difficulty_levels.easy.constraints[0]",
                "answr",
            ),
            (
                "What is {a}",
                "What is {answer}",
                15,
                20,
                "presentation.stem_templates[0]",
                "answer",
            ),
            (
                "\"a + b\"",
                "\"open('x')\"",
                8,
                19,
                "generation.answer_formula",
                "open",
            ),
            (
                "answer_type: integer",
                "answer_type: decimal",
                9,
                16,
                "generation.answer_type",
                "decimal",
            ),
            (
                "option_count: 4",
                "option_count: 1",
                16,
                17,
                "presentation.option_count",
                "between",
            ),
            (
                "  item_type: multiple_choice\n",
                "",
                4,
                3,
                "generation",
                "missing field `item_type`",
            ),
        ];
        for (from, to, line, column, field, needle) in cases {
            check(ADD.replace(from, to), line, column, field, needle);
        }
    }

    const UNTIMED: &str = r#"
assessment_id: "X"
configuration:
  total_items: 2
  passing_score_percent: 50
sections:
  - {section_id: s, item_count: 2, skill_blueprints: [{skill_id: "T.ADD", weight: 1}], difficulty_distribution: {easy: 1, hard: 1}}
scoring:
  method: "percent_correct"
  grade_bands: [{label: A, min_percent: 0}]
"#;

    fn load_assessment(text: &str) -> Result<BlueprintLibrary, Vec<LoadError>> {
        BlueprintLibrary::load(&[source("a.yaml", ADD)], &[source("x.yaml", text)])
    }

    #[test]
    fn the_time_limit_is_optional() {
        let library = load_assessment(UNTIMED).unwrap();
        assert_eq!(library.assessment("X").unwrap().time_limit_minutes, None);
        let timed = UNTIMED.replace(
            "  total_items: 2\n",
            "  total_items: 2\n  time_limit_minutes: 7.5\n",
        );
        let library = load_assessment(&timed).unwrap();
        assert_eq!(
            library.assessment("X").unwrap().time_limit_minutes,
            Some(7.5)
        );
        let null = UNTIMED.replace(
            "  total_items: 2\n",
            "  total_items: 2\n  time_limit_minutes: null\n",
        );
        assert_eq!(
            load_assessment(&null)
                .unwrap()
                .assessment("X")
                .unwrap()
                .time_limit_minutes,
            None
        );
        let zero = UNTIMED.replace(
            "  total_items: 2\n",
            "  total_items: 2\n  time_limit_minutes: 0\n",
        );
        let errors = load_assessment(&zero).unwrap_err();
        assert_eq!(
            errors[0].field, "configuration.time_limit_minutes",
            "{errors:?}"
        );
        assert!(errors[0].message.contains("untimed"), "{errors:?}");
    }

    #[test]
    fn unknown_scoring_methods_are_refused_where_they_are_written() {
        let errors = load_assessment(&UNTIMED.replace("percent_correct", "irt_3pl")).unwrap_err();
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "x.yaml:9:11: scoring.method: unknown scoring method \"irt_3pl\" \
                 (implemented: percent_correct)"
            ],
        );
        let flow = UNTIMED.replace(
            "scoring:\n  method: \"percent_correct\"\n  grade_bands: [{label: A, min_percent: 0}]",
            "scoring: {method: weighted, grade_bands: [{label: A, min_percent: 0}]}",
        );
        let errors = load_assessment(&flow).unwrap_err();
        assert_eq!(errors[0].field, "scoring.method", "{errors:?}");
        assert_eq!(
            errors[0].position,
            Some(crate::error::Position {
                line: 8,
                column: 19
            }),
            "{errors:?}"
        );
    }

    #[test]
    fn duplicate_ids_and_unknown_skills_are_rejected() {
        let errors = BlueprintLibrary::load(&[source("a.yaml", ADD), source("b.yaml", ADD)], &[])
            .unwrap_err();
        assert!(
            errors[0].to_string().contains("defined twice"),
            "{errors:?}"
        );
        let assessment = r#"
assessment_id: "X"
configuration: {total_items: 2, time_limit_minutes: 5, passing_score_percent: 50}
sections:
  - {section_id: s, item_count: 2, skill_blueprints: [{skill_id: "NOPE", weight: 1}], difficulty_distribution: {easy: 1, hard: 1}}
scoring: {grade_bands: [{label: A, min_percent: 0}]}
"#;
        let errors =
            BlueprintLibrary::load(&[source("a.yaml", ADD)], &[source("x.yaml", assessment)])
                .unwrap_err();
        assert!(
            errors.iter().any(|e| e.message.contains("NOPE")),
            "{errors:?}"
        );
    }
}
