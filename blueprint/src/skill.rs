//! Compiling a skill blueprint: every expression parsed once, every name checked against
//! what is in scope where it is used, every field validated.

use crate::error::LoadError;
use crate::expr::{CompileError, Program, Template, Value};
use crate::model::{ParameterDoc, Scalar, SkillDoc};

/// Item difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difficulty {
    /// Easy.
    Easy,
    /// Medium.
    Medium,
    /// Hard.
    Hard,
}

impl Difficulty {
    /// All three, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// `easy`, `medium` or `hard`.
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// Parses a name.
    pub fn parse(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.as_str() == name)
    }
}

/// What the keyed answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerType {
    /// A whole number.
    Integer,
    /// Text.
    String,
}

/// A sampled parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Parameter {
    /// `min + step × k` for `k` in `0..count`, never one of `exclude`.
    Integer {
        /// Lowest value.
        min: i64,
        /// Spacing.
        step: i64,
        /// How many values the range has.
        count: u64,
        /// Values never drawn.
        exclude: Vec<i64>,
    },
    /// One of these.
    Choice(Vec<Value>),
}

/// A distractor strategy, compiled.
#[derive(Debug, Clone)]
pub struct Strategy {
    /// The mistake it models.
    pub kind: String,
    /// The wrong value.
    pub formula: Program,
    /// Only used when this holds.
    pub condition: Option<Program>,
}

/// A skill blueprint ready to generate items.
#[derive(Debug, Clone)]
pub struct Skill {
    /// Unique id.
    pub id: String,
    /// What the skill is.
    pub statement: String,
    /// ACS element codes it exercises, if any.
    pub acs_codes: Vec<String>,
    /// Parameters in sampling order.
    pub parameters: Vec<(String, Parameter)>,
    /// Computed values in order.
    pub computed: Vec<(String, Program)>,
    /// The answer.
    pub answer: Program,
    /// What the answer is.
    pub answer_type: AnswerType,
    /// Constraints for easy, medium and hard, in [`Difficulty::ALL`] order.
    pub constraints: [Vec<Program>; 3],
    /// For each constraint, the earliest sampling stage where all its names are bound:
    /// 0 after the parameters, `k` after the `k`-th computed value, `computed.len() + 1`
    /// after the answer. Checking a constraint as soon as it can be checked rejects a draw
    /// before the rest of its values are computed.
    pub constraint_stages: [Vec<usize>; 3],
    /// Stem templates.
    pub stems: Vec<Template>,
    /// Options per item.
    pub option_count: usize,
    /// Distractor strategies.
    pub strategies: Vec<Strategy>,
    /// Distractor checks.
    pub validation: Vec<Program>,
    /// Explanation template.
    pub explanation: Option<Template>,
}

/// Compiles expressions of one file, collecting every error instead of stopping at the first.
struct Compiler<'a> {
    file: &'a str,
    errors: Vec<LoadError>,
}

impl Compiler<'_> {
    fn fail(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(LoadError::at(self.file, field, message));
    }

    fn positioned(&mut self, field: &str, err: CompileError) {
        let message = format!(
            "{} (column {} of the expression)",
            err.message,
            err.position + 1
        );
        self.errors.push(LoadError::at(self.file, field, message));
    }

    fn program(&mut self, field: &str, source: &str, scope: &[&str]) -> Option<Program> {
        match Program::compile(source) {
            Ok(program) => {
                self.check_names(field, &program.names(), scope);
                Some(program)
            }
            Err(err) => {
                self.positioned(field, err);
                None
            }
        }
    }

    fn template(&mut self, field: &str, source: &str, scope: &[&str]) -> Option<Template> {
        match Template::compile(source) {
            Ok(template) => {
                self.check_names(field, &template.names(), scope);
                Some(template)
            }
            Err(err) => {
                self.positioned(field, err);
                None
            }
        }
    }

    fn check_names(&mut self, field: &str, names: &[&str], scope: &[&str]) {
        for name in names {
            if !scope.contains(name) {
                self.fail(
                    field,
                    format!(
                        "unknown name `{name}` (in scope here: {})",
                        scope.join(", ")
                    ),
                );
            }
        }
    }
}

/// Compiles one skill document from `file`.
pub fn compile_skill(file: &str, doc: SkillDoc) -> Result<Skill, Vec<LoadError>> {
    let mut c = Compiler {
        file,
        errors: Vec::new(),
    };
    check_header(&mut c, &doc);
    let parameters = compile_parameters(&mut c, &doc);
    let mut scope: Vec<String> = parameters.iter().map(|(name, _)| name.clone()).collect();
    let computed = compile_computed(&mut c, &doc, &mut scope);
    let base: Vec<&str> = scope.iter().map(String::as_str).collect();
    let with_answer: Vec<&str> = base.iter().copied().chain(["answer"]).collect();
    let answer = c.program(
        "generation.answer_formula",
        &doc.generation.answer_formula,
        &base,
    );
    let answer_type = match doc.generation.answer_type.as_str() {
        "integer" => AnswerType::Integer,
        "string" => AnswerType::String,
        other => {
            c.fail(
                "generation.answer_type",
                format!("must be integer or string, not {other:?}"),
            );
            AnswerType::String
        }
    };
    let constraints = compile_constraints(&mut c, &doc, &with_answer);
    let constraint_stages = constraints.each_ref().map(|programs| {
        programs
            .iter()
            .map(|program| stage_of(program, &parameters, &computed))
            .collect()
    });
    let stems = compile_stems(&mut c, &doc, &base);
    let strategies = compile_strategies(&mut c, &doc, &with_answer);
    let checks: Vec<&str> = with_answer
        .iter()
        .copied()
        .chain(["distractor", "other_distractors"])
        .collect();
    let validation = doc
        .presentation
        .distractor_validation
        .iter()
        .enumerate()
        .filter_map(|(i, source)| {
            c.program(
                &format!("presentation.distractor_validation[{i}]"),
                source,
                &checks,
            )
        })
        .collect();
    let explanation = doc
        .presentation
        .explanation_template
        .as_deref()
        .and_then(|source| c.template("presentation.explanation_template", source, &with_answer));
    match (c.errors.is_empty(), answer) {
        (true, Some(answer)) => Ok(Skill {
            id: doc.skill_id,
            statement: doc.metadata.skill_statement,
            acs_codes: doc.metadata.acs_codes,
            parameters,
            computed,
            answer,
            answer_type,
            constraints,
            constraint_stages,
            stems,
            option_count: doc.presentation.option_count,
            strategies,
            validation,
            explanation,
        }),
        _ => Err(c.errors),
    }
}

/// The sampling stage after which every name `program` reads is bound.
fn stage_of(
    program: &Program,
    parameters: &[(String, Parameter)],
    computed: &[(String, Program)],
) -> usize {
    let stage_of_name = |name: &str| {
        if parameters.iter().any(|(p, _)| p == name) {
            0
        } else {
            computed
                .iter()
                .position(|(c, _)| c == name)
                .map_or(computed.len() + 1, |k| k + 1)
        }
    };
    program
        .names()
        .into_iter()
        .map(stage_of_name)
        .max()
        .unwrap_or(0)
}

fn check_header(c: &mut Compiler<'_>, doc: &SkillDoc) {
    if doc.skill_id.trim().is_empty() {
        c.fail("skill_id", "must not be empty");
    }
    if doc.generation.item_type != "multiple_choice" {
        c.fail(
            "generation.item_type",
            format!(
                "only multiple_choice is supported, not {:?}",
                doc.generation.item_type
            ),
        );
    }
    if !(2..=8).contains(&doc.presentation.option_count) {
        c.fail("presentation.option_count", "must be between 2 and 8");
    }
    if doc.presentation.stem_templates.is_empty() {
        c.fail("presentation.stem_templates", "needs at least one template");
    }
    if doc
        .evaluation
        .method
        .as_deref()
        .is_some_and(|m| m != "exact_match")
        || doc.evaluation.partial_credit
    {
        c.fail(
            "evaluation",
            "only method exact_match without partial_credit is supported",
        );
    }
    for name in doc.generation.difficulty_levels.keys() {
        if Difficulty::parse(name).is_none() {
            c.fail(
                &format!("generation.difficulty_levels.{name}"),
                "must be easy, medium or hard",
            );
        }
    }
}

fn compile_parameters(c: &mut Compiler<'_>, doc: &SkillDoc) -> Vec<(String, Parameter)> {
    let mut parameters = Vec::new();
    for (name, parameter) in &doc.generation.parameters.0 {
        let field = format!("generation.parameters.{name}");
        if RESERVED.contains(&name.as_str()) {
            c.fail(&field, format!("`{name}` is reserved"));
        }
        match compile_parameter(parameter) {
            Ok(parameter) => parameters.push((name.clone(), parameter)),
            Err(message) => c.fail(&field, message),
        }
    }
    parameters
}

/// Names the generator binds itself.
const RESERVED: &[&str] = &["answer", "distractor", "other_distractors"];

fn compile_parameter(doc: &ParameterDoc) -> Result<Parameter, String> {
    match doc {
        ParameterDoc::Integer {
            min,
            max,
            exclude,
            step,
        } => {
            let step = step.unwrap_or(1);
            if step <= 0 || min > max {
                return Err(format!(
                    "needs min <= max and step > 0 (min {min}, max {max}, step {step})"
                ));
            }
            let count = (max.abs_diff(*min) / step.unsigned_abs()) + 1;
            Ok(Parameter::Integer {
                min: *min,
                step,
                count,
                exclude: exclude.clone(),
            })
        }
        ParameterDoc::Choice { values } if values.is_empty() => {
            Err("choice needs at least one value".to_owned())
        }
        ParameterDoc::Choice { values } => {
            Ok(Parameter::Choice(values.iter().map(scalar_value).collect()))
        }
    }
}

fn scalar_value(scalar: &Scalar) -> Value {
    match scalar {
        Scalar::Bool(b) => Value::Bool(*b),
        Scalar::Int(i) => Value::Int(*i),
        Scalar::Float(f) => Value::Float(*f),
        Scalar::Str(s) => Value::Str(s.clone()),
    }
}

fn compile_computed(
    c: &mut Compiler<'_>,
    doc: &SkillDoc,
    scope: &mut Vec<String>,
) -> Vec<(String, Program)> {
    let mut computed = Vec::new();
    for (name, source) in &doc.generation.computed_values.0 {
        let visible: Vec<&str> = scope.iter().map(String::as_str).collect();
        if let Some(program) = c.program(
            &format!("generation.computed_values.{name}"),
            source,
            &visible,
        ) {
            computed.push((name.clone(), program));
        }
        scope.push(name.clone());
    }
    computed
}

fn compile_constraints(c: &mut Compiler<'_>, doc: &SkillDoc, scope: &[&str]) -> [Vec<Program>; 3] {
    Difficulty::ALL.map(|difficulty| {
        let Some(level) = doc.generation.difficulty_levels.get(difficulty.as_str()) else {
            c.fail(
                "generation.difficulty_levels",
                format!("missing level {}", difficulty.as_str()),
            );
            return Vec::new();
        };
        let prefix = format!(
            "generation.difficulty_levels.{}.constraints",
            difficulty.as_str()
        );
        let sources = level.constraints.iter().enumerate();
        sources
            .filter_map(|(i, source)| c.program(&format!("{prefix}[{i}]"), source, scope))
            .collect()
    })
}

fn compile_stems(c: &mut Compiler<'_>, doc: &SkillDoc, scope: &[&str]) -> Vec<Template> {
    let stems = doc.presentation.stem_templates.iter().enumerate();
    stems
        .filter_map(|(i, source)| {
            c.template(&format!("presentation.stem_templates[{i}]"), source, scope)
        })
        .collect()
}

fn compile_strategies(c: &mut Compiler<'_>, doc: &SkillDoc, scope: &[&str]) -> Vec<Strategy> {
    let mut strategies = Vec::new();
    for (i, strategy) in doc.presentation.distractor_strategies.iter().enumerate() {
        let field = format!("presentation.distractor_strategies[{i}]");
        let formula = c.program(&format!("{field}.formula"), &strategy.formula, scope);
        let condition = match &strategy.condition {
            Some(source) => match c.program(&format!("{field}.condition"), source, scope) {
                Some(program) => Some(program),
                None => continue,
            },
            None => None,
        };
        if let Some(formula) = formula {
            strategies.push(Strategy {
                kind: strategy.kind.clone(),
                formula,
                condition,
            });
        }
    }
    strategies
}
