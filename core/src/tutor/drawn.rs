//! Drills drawn for a session (EPIC E): generated at the tier's difficulty from the unit's
//! drill sources, never stored in the course. A skill drill is a generated item, graded
//! exactly ([`super::drill::grade_drill`]); a rubric drill is one of an ACS element's rubric
//! questions, judged by the rubric assessor, whose misconception (if it found one) is the
//! confusion tag. With a model configured, the session asks the examiner for the verdict
//! (the model's findings, every quote checked in code, or the embedded judge's when the
//! model fails); the verdict decides right or wrong, and the confusion tag still comes only
//! from the rubric's own list of misconceptions, as the embedded judge reads the answer.

use viva_blueprint::course::Course;
use viva_blueprint::generate::{Item, generate};
use viva_blueprint::library::BlueprintLibrary;
use viva_blueprint::skill::Difficulty;

use super::drill::{DrillGrade, grade_drill};
use super::snapshot::Tier;
use crate::base::AnswerInput;
use crate::exam::acs::AcsLibrary;
use crate::exam::examiner::judge::ReadAnswer;
use crate::exam::examiner::rubric_exam::assess_prepared;
use crate::exam::types::Score;
use crate::examiner::ExaminerAssessment;

/// A drill's question.
#[derive(Debug, Clone, PartialEq)]
pub enum DrillQuestion {
    /// A generated item of a skill blueprint.
    Skill(Item),
    /// A rubric question of an ACS element.
    Rubric {
        /// The element.
        element: String,
        /// The question's words.
        ask: String,
    },
}

impl DrillQuestion {
    /// The words shown.
    pub fn prompt(&self) -> &str {
        match self {
            DrillQuestion::Skill(item) => &item.stem,
            DrillQuestion::Rubric { ask, .. } => ask,
        }
    }

    /// The options to choose from (none for a rubric drill).
    pub fn options(&self) -> &[String] {
        match self {
            DrillQuestion::Skill(item) => &item.options,
            DrillQuestion::Rubric { .. } => &[],
        }
    }

    /// `skill` or `rubric`.
    pub fn source(&self) -> &'static str {
        match self {
            DrillQuestion::Skill(_) => "skill",
            DrillQuestion::Rubric { .. } => "rubric",
        }
    }
}

/// A drill answer, graded, with what the tutor says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedDrill {
    /// Right or wrong, and the confusion tag from grading.
    pub grade: DrillGrade,
    /// The key and its explanation, or the rubric's feedback.
    pub feedback: String,
}

/// The difficulty a tier is drilled at.
pub fn difficulty_of(tier: Tier) -> Difficulty {
    match tier {
        Tier::None | Tier::Bronze => Difficulty::Easy,
        Tier::Silver => Difficulty::Medium,
        Tier::Gold => Difficulty::Hard,
    }
}

/// Draws drill `number` of `unit` at `tier`: the unit's drill sources taken in turn, a
/// skill's item generated from `seed`. `None` when the unit has no drill source that can
/// produce one.
pub fn draw_drill(
    course: &Course,
    unit: &str,
    tier: Tier,
    (number, seed): (u32, u64),
    blueprints: &BlueprintLibrary,
    acs: &AcsLibrary,
) -> Option<DrillQuestion> {
    let sources: Vec<_> = course
        .doc
        .drills
        .iter()
        .filter(|d| d.unit == unit)
        .collect();
    let count = sources.len();
    (0..count).find_map(|offset| {
        let source = sources[(number as usize + offset) % count];
        if let Some(skill_id) = &source.skill_id {
            let skill = blueprints.skill(skill_id)?;
            return generate(skill, difficulty_of(tier), seed, true)
                .ok()
                .map(DrillQuestion::Skill);
        }
        let element = source.rubric_element.as_ref()?;
        let questions = &acs.rubric(element)?.questions;
        let rank = tier_rank(tier) + number as usize / count.max(1);
        let ask = &questions.get(rank % questions.len().max(1))?.ask;
        Some(DrillQuestion::Rubric {
            element: element.clone(),
            ask: ask.clone(),
        })
    })
}

fn tier_rank(tier: Tier) -> usize {
    match tier {
        Tier::None | Tier::Bronze => 0,
        Tier::Silver => 1,
        Tier::Gold => 2,
    }
}

/// Grades `input` to `question`; a rubric drill by the examiner's `verdict` when the session
/// asked for one.
pub fn check_drill(
    question: &DrillQuestion,
    input: &AnswerInput,
    acs: &AcsLibrary,
    verdict: Option<&ExaminerAssessment>,
) -> CheckedDrill {
    match question {
        DrillQuestion::Skill(item) => {
            let grade = grade_drill(item, input);
            let feedback = skill_feedback(item, grade.right);
            CheckedDrill { grade, feedback }
        }
        DrillQuestion::Rubric { element, ask } => {
            let checked = check_rubric(element, ask, input, acs);
            match verdict {
                Some(verdict) => judged_by(verdict, checked),
                None => checked,
            }
        }
    }
}

/// The examiner's verdict decides; a confusion tag only on a wrong answer, and only the
/// rubric misconception the embedded judge found.
fn judged_by(verdict: &ExaminerAssessment, embedded: CheckedDrill) -> CheckedDrill {
    let right = verdict.score == Score::Satisfactory;
    CheckedDrill {
        grade: DrillGrade {
            right,
            confusion: embedded.grade.confusion.filter(|_| !right),
        },
        feedback: verdict.feedback.clone(),
    }
}

fn skill_feedback(item: &Item, right: bool) -> String {
    let lead = if right {
        format!("Right: {}.", item.answer)
    } else {
        format!("Not quite. The answer is {}.", item.answer)
    };
    match &item.explanation {
        Some(explanation) => format!("{lead} {explanation}"),
        None => lead,
    }
}

/// A rubric drill: satisfactory is right; the first misconception the assessor found is the
/// confusion tag. A choice or a skip to a free question is wrong, with no tag.
fn check_rubric(element: &str, ask: &str, input: &AnswerInput, acs: &AcsLibrary) -> CheckedDrill {
    let (AnswerInput::Text(text), Some(prepared)) = (input, acs.prepared(element)) else {
        return CheckedDrill {
            grade: DrillGrade {
                right: false,
                confusion: None,
            },
            feedback: "Answer this one in your own words.".to_owned(),
        };
    };
    let assessed = assess_prepared(prepared, ask, &[], &ReadAnswer::of(text));
    CheckedDrill {
        grade: DrillGrade {
            right: assessed.score == Score::Satisfactory,
            confusion: assessed.verdict.misconceptions.first().cloned(),
        },
        feedback: assessed.feedback,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::test_courses::Courses;

    #[test]
    fn tiers_drill_at_rising_difficulty() {
        let cases = [
            (Tier::None, Difficulty::Easy),
            (Tier::Bronze, Difficulty::Easy),
            (Tier::Silver, Difficulty::Medium),
            (Tier::Gold, Difficulty::Hard),
        ];
        for (tier, difficulty) in cases {
            assert_eq!(difficulty_of(tier), difficulty, "{tier:?}");
        }
    }

    #[test]
    fn a_skill_drill_is_generated_at_the_tier_and_graded_exactly() {
        let world = Courses::load();
        let course = world.course("ARITHMETIC");
        let drawn = draw_drill(
            course,
            "add-2digit",
            Tier::Silver,
            (0, 7),
            &world.blueprints,
            &world.acs,
        );
        let Some(DrillQuestion::Skill(item)) = drawn else {
            panic!("a skill drill: {drawn:?}");
        };
        assert_eq!(item.difficulty, Difficulty::Medium);
        let question = DrillQuestion::Skill(item.clone());
        let right = check_drill(
            &question,
            &AnswerInput::Text(item.answer.clone()),
            &world.acs,
            None,
        );
        assert!(right.grade.right, "{right:?}");
        assert!(right.feedback.starts_with("Right"));
        let wrong_index = (item.answer_index + 1) % item.options.len();
        let wrong = check_drill(
            &question,
            &AnswerInput::Choice(wrong_index as u32),
            &world.acs,
            None,
        );
        assert!(!wrong.grade.right);
        assert_eq!(wrong.grade.confusion, item.option_mistakes[wrong_index]);
        assert!(
            wrong.feedback.contains(&item.answer),
            "the key is shown after a check"
        );
    }

    #[test]
    fn a_rubric_drill_asks_the_rubric_and_takes_the_assessors_misconception() {
        let world = Courses::load();
        let course = world.course("PPL-GROUND");
        let unit = course
            .doc
            .drills
            .iter()
            .find_map(|d| d.rubric_element.as_ref().map(|_| d.unit.clone()))
            .expect("a rubric drill");
        let drawn = (0..8)
            .find_map(|n| {
                match draw_drill(
                    course,
                    &unit,
                    Tier::Bronze,
                    (n, 1),
                    &world.blueprints,
                    &world.acs,
                ) {
                    Some(question @ DrillQuestion::Rubric { .. }) => Some(question),
                    _ => None,
                }
            })
            .expect("a rubric question");
        assert!(drawn.options().is_empty());
        assert_eq!(drawn.source(), "rubric");
        let dont_know = check_drill(
            &drawn,
            &AnswerInput::Text("I don't know".into()),
            &world.acs,
            None,
        );
        assert!(!dont_know.grade.right, "a non-answer never passes");
        assert_eq!(dont_know.grade.confusion, None);
        let choice = check_drill(&drawn, &AnswerInput::Choice(0), &world.acs, None);
        assert!(!choice.grade.right);
    }

    /// With the examiner's verdict (a model's, evidence-checked), the verdict decides right or
    /// wrong and gives the feedback; the confusion tag is still the rubric's own
    /// misconception, and only on a wrong answer.
    #[test]
    fn a_rubric_drill_judged_by_the_examiner_keeps_the_rubrics_confusion_tags() {
        let world = Courses::load();
        let (element, misconception) = world
            .course("PPL-GROUND")
            .doc
            .drills
            .iter()
            .filter_map(|d| d.rubric_element.as_ref())
            .find_map(|element| {
                let first = world.acs.rubric(element)?.misconceptions.first()?;
                Some((element.clone(), first.clone()))
            })
            .expect("a drilled element with a misconception");
        let question = DrillQuestion::Rubric {
            element,
            ask: "Explain.".into(),
        };
        let mistaken = AnswerInput::Text(misconception.claim.clone());
        let embedded = check_drill(&question, &mistaken, &world.acs, None);
        assert_eq!(
            embedded.grade.confusion.as_deref(),
            Some(misconception.id.as_str())
        );
        let verdict = |score| ExaminerAssessment {
            score,
            feedback: "The examiner's words.".into(),
            missing_terms: Vec::new(),
            mentioned_elements: Vec::new(),
            source_summary: String::new(),
            draw_out: false,
            interim: Default::default(),
        };
        let wrong = check_drill(
            &question,
            &mistaken,
            &world.acs,
            Some(&verdict(Score::Unsatisfactory)),
        );
        assert_eq!(
            (wrong.grade.right, wrong.feedback.as_str()),
            (false, "The examiner's words.")
        );
        assert_eq!(wrong.grade.confusion, embedded.grade.confusion);
        let right = check_drill(
            &question,
            &mistaken,
            &world.acs,
            Some(&verdict(Score::Satisfactory)),
        );
        assert!(right.grade.right);
        assert_eq!(right.grade.confusion, None, "no tag on a right answer");
    }

    #[test]
    fn a_unit_without_drill_sources_draws_none() {
        let world = Courses::load();
        let course = world.course("ARITHMETIC");
        let none = draw_drill(
            course,
            "no-such-unit",
            Tier::Bronze,
            (0, 1),
            &world.blueprints,
            &world.acs,
        );
        assert_eq!(none, None);
    }
}
