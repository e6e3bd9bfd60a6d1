//! Item generation: sample parameters, apply the difficulty's constraints by bounded
//! rejection sampling, compute the answer (the backend computes it; nothing else does),
//! render a stem, build validated distractors, and shuffle the options — all from one seed,
//! so an item can be regenerated exactly for audit.

use crate::expr::{Env, EvalError, Program, Value};
use crate::rng::SeededRng;
use crate::skill::{AnswerType, Difficulty, Parameter, Skill};

/// Parameter draws tried before a difficulty's constraints count as unsatisfiable.
pub const MAX_SAMPLING_TRIES: u32 = 1_000;
/// How far from an integer answer the deterministic distractor fill looks.
pub const MAX_FILL_DISTANCE: i64 = 50;

/// One generated item, with everything needed to show it, judge it and audit it.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The skill.
    pub skill_id: String,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// The seed that regenerates this exact item.
    pub seed: u64,
    /// Sampled parameters and computed values, shown with `str()`.
    pub parameters: Vec<(String, String)>,
    /// The question.
    pub stem: String,
    /// The options, the answer among them.
    pub options: Vec<String>,
    /// Index of the answer in `options`.
    pub answer_index: usize,
    /// Beside each option, the mistake (distractor strategy `type`) that produced it; `None`
    /// for the key and for a distractor that only fills the count. A student who picks or
    /// says an option made that mistake: the tutor's confusion tag comes from here.
    pub option_mistakes: Vec<Option<String>>,
    /// The keyed answer.
    pub answer: String,
    /// The explanation, when the blueprint has one.
    pub explanation: Option<String>,
}

/// Why an item could not be generated. These are blueprint defects, found by the property
/// tests and `viva blueprints check`; sessions retry with another seed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// No draw satisfied the constraints within the bound.
    #[error("skill {skill}: no {difficulty} item satisfied the constraints in {tries} draws")]
    Unsatisfiable {
        /// The skill.
        skill: String,
        /// The level.
        difficulty: &'static str,
        /// Draws tried.
        tries: u32,
    },
    /// An expression failed.
    #[error("skill {skill}: {field}: {source}")]
    Eval {
        /// The skill.
        skill: String,
        /// Which expression.
        field: String,
        /// The failure.
        source: EvalError,
    },
    /// Too few distinct valid distractors.
    #[error("skill {skill}: only {found} of {needed} distractors")]
    TooFewDistractors {
        /// The skill.
        skill: String,
        /// How many were found.
        found: usize,
        /// How many were needed.
        needed: usize,
    },
    /// The answer is not of the declared type.
    #[error("skill {skill}: the answer {answer} is not an integer")]
    AnswerType {
        /// The skill.
        skill: String,
        /// The value.
        answer: String,
    },
}

/// Generates the item of `skill` at `difficulty` for `seed`.
pub fn generate(
    skill: &Skill,
    difficulty: Difficulty,
    seed: u64,
    shuffle_options: bool,
) -> Result<Item, GenerateError> {
    let mut rng = SeededRng::new(seed);
    let (mut env, answer) = sample(skill, difficulty, &mut rng)?;
    let keyed = keyed_answer(skill, &answer)?;
    let stem_index = rng.next_index(skill.stems.len().max(1));
    let stem = match skill.stems.get(stem_index) {
        Some(template) => template
            .render(&env)
            .map_err(|e| eval_error(skill, "presentation.stem_templates", e))?,
        None => String::new(),
    };
    let parameters = shown_parameters(skill, &env);
    env.set("answer", answer.clone());
    let explanation = match &skill.explanation {
        Some(template) => Some(
            template
                .render(&env)
                .map_err(|e| eval_error(skill, "presentation.explanation_template", e))?,
        ),
        None => None,
    };
    let distractors = distractors(skill, &mut env, &answer, &keyed)?;
    let (options, option_mistakes, answer_index) =
        arrange_options(keyed.clone(), distractors, shuffle_options, &mut rng);
    Ok(Item {
        skill_id: skill.id.clone(),
        difficulty,
        seed,
        parameters,
        stem,
        options,
        answer_index,
        option_mistakes,
        answer: keyed,
        explanation,
    })
}

fn eval_error(skill: &Skill, field: &str, source: EvalError) -> GenerateError {
    GenerateError::Eval {
        skill: skill.id.clone(),
        field: field.to_owned(),
        source,
    }
}

fn eval(skill: &Skill, field: &str, program: &Program, env: &Env) -> Result<Value, GenerateError> {
    program.eval(env).map_err(|e| eval_error(skill, field, e))
}

/// Draws parameters until the difficulty's constraints hold; returns the bindings and answer.
/// Each constraint is checked as soon as its names are bound, so most rejected draws cost
/// only their parameters.
fn sample(
    skill: &Skill,
    difficulty: Difficulty,
    rng: &mut SeededRng,
) -> Result<(Env, Value), GenerateError> {
    let level = difficulty as usize;
    let mut env = Env::new();
    for _ in 0..MAX_SAMPLING_TRIES {
        if !draw_parameters(skill, rng, &mut env) || !holds_at(skill, level, 0, &env)? {
            continue;
        }
        if let Some(answer) = compute_rest(skill, level, &mut env)? {
            return Ok((env, answer));
        }
    }
    Err(GenerateError::Unsatisfiable {
        skill: skill.id.clone(),
        difficulty: difficulty.as_str(),
        tries: MAX_SAMPLING_TRIES,
    })
}

/// Computed values and the answer for one draw, checking constraints stage by stage;
/// `None` when a constraint fails.
fn compute_rest(
    skill: &Skill,
    level: usize,
    env: &mut Env,
) -> Result<Option<Value>, GenerateError> {
    for (k, (name, program)) in skill.computed.iter().enumerate() {
        let value = eval(skill, "generation.computed_values", program, env)?;
        env.set(name, value);
        if !holds_at(skill, level, k + 1, env)? {
            return Ok(None);
        }
    }
    let answer = eval(skill, "generation.answer_formula", &skill.answer, env)?;
    env.set("answer", answer.clone());
    let answer_stage = skill.computed.len() + 1;
    Ok(holds_at(skill, level, answer_stage, env)?.then_some(answer))
}

/// Whether every constraint of this level checked at `stage` holds.
fn holds_at(skill: &Skill, level: usize, stage: usize, env: &Env) -> Result<bool, GenerateError> {
    let stages = &skill.constraint_stages[level];
    for (program, _) in skill.constraints[level]
        .iter()
        .zip(stages)
        .filter(|(_, s)| **s == stage)
    {
        if !eval(
            skill,
            "generation.difficulty_levels.constraints",
            program,
            env,
        )?
        .is_truthy()
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// One draw of every parameter into `env`; false when a draw hit an excluded value.
fn draw_parameters(skill: &Skill, rng: &mut SeededRng, env: &mut Env) -> bool {
    for (name, parameter) in &skill.parameters {
        let value = match parameter {
            Parameter::Integer {
                min,
                step,
                count,
                exclude,
            } => {
                let k = rng.next_u64() % count;
                let Some(value) = i64::try_from(k)
                    .ok()
                    .and_then(|k| step.checked_mul(k))
                    .and_then(|o| min.checked_add(o))
                else {
                    return false;
                };
                if exclude.contains(&value) {
                    return false;
                }
                Value::Int(value)
            }
            Parameter::Choice(values) => match values.get(rng.next_index(values.len())) {
                Some(value) => value.clone(),
                None => return false,
            },
        };
        env.set(name, value);
    }
    true
}

fn keyed_answer(skill: &Skill, answer: &Value) -> Result<String, GenerateError> {
    match (skill.answer_type, answer) {
        (AnswerType::Integer, Value::Int(i)) => Ok(i.to_string()),
        (AnswerType::Integer, Value::Float(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
            Ok(format!("{}", *f as i64))
        }
        (AnswerType::Integer, other) => Err(GenerateError::AnswerType {
            skill: skill.id.clone(),
            answer: other.to_display_string(),
        }),
        (AnswerType::String, value) => Ok(value.to_display_string()),
    }
}

fn shown_parameters(skill: &Skill, env: &Env) -> Vec<(String, String)> {
    let names = skill
        .parameters
        .iter()
        .map(|(name, _)| name)
        .chain(skill.computed.iter().map(|(name, _)| name));
    names
        .filter_map(|name| {
            env.get(name)
                .map(|value| (name.clone(), value.to_display_string()))
        })
        .collect()
}

/// Distractors from the strategies whose conditions hold, validated and deduplicated, then a
/// deterministic fill around integer answers. A strategy whose condition or formula cannot
/// be evaluated for this draw (an overflow at the edge of the parameter space, say) is
/// skipped, as if its condition were false: a wrong answer that cannot be computed is simply
/// not offered.
fn distractors(
    skill: &Skill,
    env: &mut Env,
    answer: &Value,
    keyed: &str,
) -> Result<Vec<(String, Option<String>)>, GenerateError> {
    let needed = skill.option_count.saturating_sub(1);
    let mut accepted: Vec<Value> = Vec::with_capacity(needed);
    let mut mistakes: Vec<Option<String>> = Vec::with_capacity(needed);
    for strategy in &skill.strategies {
        if accepted.len() == needed {
            break;
        }
        let applies = strategy
            .condition
            .as_ref()
            .is_none_or(|c| c.eval(env).is_ok_and(|v| v.is_truthy()));
        let Some(candidate) = applies.then(|| strategy.formula.eval(env).ok()).flatten() else {
            continue;
        };
        if try_accept(skill, env, candidate, keyed, &mut accepted) {
            mistakes.push(Some(strategy.kind.clone()));
        }
    }
    fill(skill, env, answer, keyed, &mut accepted, needed);
    mistakes.resize(accepted.len(), None);
    if accepted.len() < needed {
        return Err(GenerateError::TooFewDistractors {
            skill: skill.id.clone(),
            found: accepted.len(),
            needed,
        });
    }
    let shown = accepted.iter().map(Value::to_display_string);
    Ok(shown.zip(mistakes).collect())
}

fn fill(
    skill: &Skill,
    env: &mut Env,
    answer: &Value,
    keyed: &str,
    accepted: &mut Vec<Value>,
    needed: usize,
) {
    let Value::Int(center) = answer else { return };
    for distance in 1..=MAX_FILL_DISTANCE {
        for candidate in [center.checked_add(distance), center.checked_sub(distance)]
            .into_iter()
            .flatten()
        {
            if accepted.len() == needed {
                return;
            }
            try_accept(skill, env, Value::Int(candidate), keyed, accepted);
        }
    }
}

/// Accepts `candidate` if it differs from the answer and every accepted one, and passes
/// every validation expression (one that cannot be evaluated rejects the candidate);
/// whether it did.
fn try_accept(
    skill: &Skill,
    env: &mut Env,
    candidate: Value,
    keyed: &str,
    accepted: &mut Vec<Value>,
) -> bool {
    let shown = candidate.to_display_string();
    if shown == keyed || accepted.iter().any(|a| a.to_display_string() == shown) {
        return false;
    }
    env.set("distractor", candidate.clone());
    env.set("other_distractors", Value::List(accepted.clone()));
    if skill
        .validation
        .iter()
        .all(|check| check.eval(env).is_ok_and(|v| v.is_truthy()))
    {
        accepted.push(candidate);
        return true;
    }
    false
}

/// The options (the key first, then the distractors, shuffled when asked), the mistake
/// beside each, and the key's index.
fn arrange_options(
    answer: String,
    distractors: Vec<(String, Option<String>)>,
    shuffle: bool,
    rng: &mut SeededRng,
) -> (Vec<String>, Vec<Option<String>>, usize) {
    let mut options = Vec::with_capacity(distractors.len() + 1);
    options.push((answer.clone(), None));
    options.extend(distractors);
    if shuffle {
        for i in (1..options.len()).rev() {
            options.swap(i, rng.next_index(i + 1));
        }
    }
    let answer_index = options
        .iter()
        .position(|(option, _)| *option == answer)
        .unwrap_or(0);
    let (shown, mistakes) = options.into_iter().unzip();
    (shown, mistakes, answer_index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::{BlueprintLibrary, Source};

    fn skill(answer: &str, answer_type: &str, hard: &str, strategies: &str) -> Skill {
        let yaml = format!(
            r#"
skill_id: "T"
generation:
  item_type: multiple_choice
  parameters: {{a: {{type: integer, min: 1, max: 9}}, b: {{type: integer, min: 0, max: 9}}}}
  answer_formula: "{answer}"
  answer_type: {answer_type}
  difficulty_levels: {{easy: {{constraints: []}}, medium: {{constraints: ["a > 2"]}}, hard: {{constraints: ["{hard}"]}}}}
presentation:
  stem_templates: ["{{a}} and {{b}}?", "Again: {{a}}, {{b}}?"]
  option_count: 4
  distractor_strategies: [{strategies}]
"#
        );
        let library = BlueprintLibrary::load(
            &[Source {
                path: "t.yaml".into(),
                text: yaml,
            }],
            &[],
        )
        .unwrap();
        library.skill("T").unwrap().clone()
    }

    #[test]
    fn items_are_deterministic_and_keyed() {
        let skill = skill(
            "a + b",
            "integer",
            "a + b > 12",
            "{type: ten, formula: 'answer + 10'}",
        );
        for seed in 0..200 {
            for difficulty in Difficulty::ALL {
                let item = generate(&skill, difficulty, seed, true).unwrap();
                assert_eq!(
                    item,
                    generate(&skill, difficulty, seed, true).unwrap(),
                    "seed {seed}"
                );
                assert_eq!(item.options[item.answer_index], item.answer);
                assert_eq!(item.options.len(), 4);
                let value = |name: &str| {
                    item.parameters
                        .iter()
                        .find(|(n, _)| n == name)
                        .unwrap()
                        .1
                        .parse::<i64>()
                        .unwrap()
                };
                assert_eq!(item.answer, (value("a") + value("b")).to_string());
                if difficulty == Difficulty::Hard {
                    assert!(value("a") + value("b") > 12, "constraint holds: {item:?}");
                }
            }
        }
    }

    /// Each option carries the mistake that produced it, through the shuffle: the key and
    /// the fill none, each strategy's distractor its `type`.
    #[test]
    fn each_option_names_the_mistake_behind_it() {
        let strategies =
            "{type: plus_ten, formula: 'answer + 10'}, {type: doubled, formula: 'answer * 2'}";
        let skill = skill("a + b", "integer", "a + b > 12", strategies);
        for seed in 0..100 {
            let item = generate(&skill, Difficulty::Easy, seed, true).unwrap();
            assert_eq!(item.option_mistakes.len(), item.options.len());
            let answer: i64 = item.answer.parse().unwrap();
            for (option, mistake) in item.options.iter().zip(&item.option_mistakes) {
                let value: i64 = option.parse().unwrap();
                let expected = if value == answer {
                    None
                } else if value == answer + 10 {
                    Some("plus_ten")
                } else if value == answer * 2 && answer != 10 {
                    Some("doubled")
                } else {
                    None
                };
                assert_eq!(mistake.as_deref(), expected, "seed {seed}: {item:?}");
            }
        }
    }

    #[test]
    fn unsatisfiable_constraints_are_a_clear_error() {
        let skill = skill("a + b", "integer", "answer > 100", "");
        let err = generate(&skill, Difficulty::Hard, 1, true).unwrap_err();
        assert!(
            matches!(
                err,
                GenerateError::Unsatisfiable {
                    tries: MAX_SAMPLING_TRIES,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("hard"), "{err}");
    }

    #[test]
    fn a_distractor_that_cannot_be_computed_is_skipped() {
        let failing = "{type: div, formula: 'answer // b'}, {type: ten, formula: 'answer + 10'}";
        let skill = skill("a + b", "integer", "b == 0", failing);
        let item = generate(&skill, Difficulty::Hard, 3, false).unwrap();
        assert_eq!(
            item.options[0], item.answer,
            "unshuffled: the answer comes first"
        );
        let answer: i64 = item.answer.parse().unwrap();
        assert_eq!(
            item.options[1],
            (answer + 10).to_string(),
            "the division by zero was skipped"
        );
    }

    #[test]
    fn string_answers_without_enough_distractors_are_refused() {
        let skill = skill(
            "str(a)",
            "string",
            "a > 0",
            "{type: same, formula: 'str(a)'}",
        );
        let err = generate(&skill, Difficulty::Easy, 1, true).unwrap_err();
        assert!(
            matches!(
                err,
                GenerateError::TooFewDistractors {
                    found: 0,
                    needed: 3,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn integer_answers_are_filled_deterministically() {
        let skill = skill("a", "integer", "a > 0", "");
        let item = generate(&skill, Difficulty::Easy, 5, false).unwrap();
        let answer: i64 = item.answer.parse().unwrap();
        let expected = [answer, answer + 1, answer - 1, answer + 2].map(|v| v.to_string());
        assert_eq!(item.options, expected);
    }
}
