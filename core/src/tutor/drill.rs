//! Grading a skill drill exactly, and the confusion tag that comes only from grading: the
//! mistake behind the option the student picked, typed or said (EPIC E). Nothing else
//! writes a confusion tag.

use viva_blueprint::generate::Item;
use viva_blueprint::normalize::{Normalized, answers_match, normalize_answer};

use crate::base::AnswerInput;

/// A drill answer, graded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrillGrade {
    /// The answer is the key.
    pub right: bool,
    /// For a wrong answer that is one of the distractors: the mistake that produced it.
    pub confusion: Option<String>,
}

/// Grades `input` against `item`: a choice by its index, a typed or spoken answer through
/// the normaliser (an option letter, or a value read as the key's kind); a skip is wrong.
pub fn grade_drill(item: &Item, input: &AnswerInput) -> DrillGrade {
    let chosen = match input {
        AnswerInput::Skip => None,
        AnswerInput::Choice(index) => Some(*index as usize),
        AnswerInput::Text(text) => match normalize_answer(text, Some(item.options.len())) {
            Normalized::OptionIndex(index) => Some(index),
            read => return grade_value(item, &read),
        },
    };
    match chosen {
        Some(index) if index == item.answer_index => DrillGrade {
            right: true,
            confusion: None,
        },
        Some(index) => wrong(item, Some(index)),
        None => wrong(item, None),
    }
}

/// A typed or spoken value: right if it matches the key; otherwise the mistake of the
/// distractor it matches, if any.
fn grade_value(item: &Item, read: &Normalized) -> DrillGrade {
    if answers_match(read, &item.answer) {
        return DrillGrade {
            right: true,
            confusion: None,
        };
    }
    let matched = item
        .options
        .iter()
        .enumerate()
        .find(|(index, option)| *index != item.answer_index && answers_match(read, option))
        .map(|(index, _)| index);
    wrong(item, matched)
}

fn wrong(item: &Item, option: Option<usize>) -> DrillGrade {
    let confusion = option
        .and_then(|index| item.option_mistakes.get(index).cloned())
        .flatten();
    DrillGrade {
        right: false,
        confusion,
    }
}

#[cfg(test)]
mod tests {
    use viva_blueprint::skill::Difficulty;

    use super::*;

    /// 46 + 29: the key 75, "forgot to carry" 65, "added the carry twice" 76, a fill 74.
    fn item() -> Item {
        let mistakes = [None, Some("no_carry"), Some("double_carry"), None];
        Item {
            skill_id: "MATH.ARITH.ADD.2DIGIT".into(),
            difficulty: Difficulty::Medium,
            seed: 1,
            parameters: Vec::new(),
            stem: "What is 46 + 29?".into(),
            options: ["75", "65", "76", "74"].map(String::from).to_vec(),
            answer_index: 0,
            option_mistakes: mistakes.map(|m| m.map(String::from)).to_vec(),
            answer: "75".into(),
            explanation: None,
        }
    }

    #[test]
    fn a_drill_is_graded_exactly_and_only_a_distractor_s_mistake_is_a_confusion() {
        let text = |t: &str| AnswerInput::Text(t.into());
        let cases = [
            (AnswerInput::Choice(0), true, None),
            (AnswerInput::Choice(1), false, Some("no_carry")),
            (AnswerInput::Choice(3), false, None),
            (AnswerInput::Choice(9), false, None),
            (AnswerInput::Skip, false, None),
            (text("75"), true, None),
            (text("seventy five"), true, None),
            (text("option C"), false, Some("double_carry")),
            (text("sixty five"), false, Some("no_carry")),
            (text("80"), false, None),
            (text("I don't know"), false, None),
        ];
        for (input, right, confusion) in cases {
            let grade = grade_drill(&item(), &input);
            assert_eq!(
                (grade.right, grade.confusion.as_deref()),
                (right, confusion),
                "{input:?}"
            );
        }
    }

    #[test]
    fn an_item_from_an_older_checkpoint_grades_with_no_confusion() {
        let older = Item {
            option_mistakes: vec![None; 4],
            ..item()
        };
        let grade = grade_drill(&older, &AnswerInput::Choice(1));
        assert_eq!(
            grade,
            DrillGrade {
                right: false,
                confusion: None
            }
        );
    }
}
