//! Labelled answers for measuring an examiner's judgement (`bench/examiner/answers/*.yaml`):
//! each an answer to one ACS element, the kind of answer it is, and an expert's label.
//! Written apart from the rubrics, so that the rubrics are not tuned to single answers.

use serde::Deserialize;

use crate::error::LoadError;
use crate::library::{Source, parse};

/// One file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerFile {
    /// The answers.
    pub answers: Vec<LabelledAnswer>,
}

/// An answer with its label.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelledAnswer {
    /// The element answered, such as `PA.I.A.K1`.
    pub element: String,
    /// What sort of answer it is.
    pub kind: AnswerKindLabel,
    /// Written as the tiny.en speech model transcribes speech.
    #[serde(default)]
    pub spoken: bool,
    /// The answer.
    pub answer: String,
    /// The expert's grade.
    pub label: Label,
    /// Why, in a line.
    #[serde(default)]
    pub note: Option<String>,
}

/// The sorts of answer in the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKindLabel {
    /// A correct paraphrase.
    Correct,
    /// Correct but incomplete.
    Partial,
    /// A false statement reusing the element's key words.
    False,
    /// A belief real candidates hold.
    Misconception,
    /// "I don't know", hedges.
    NonAnswer,
    /// A fluent answer about something else.
    OffTopic,
}

impl AnswerKindLabel {
    /// The name used in the files.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Correct => "correct",
            Self::Partial => "partial",
            Self::False => "false",
            Self::Misconception => "misconception",
            Self::NonAnswer => "non_answer",
            Self::OffTopic => "off_topic",
        }
    }
}

/// An expert's grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// Satisfactory.
    Satisfactory,
    /// Partial.
    Partial,
    /// Unsatisfactory.
    Unsatisfactory,
}

/// Loads every file's answers, in file order; every error of every file together.
pub fn load_answers(sources: &[Source]) -> Result<Vec<LabelledAnswer>, Vec<LoadError>> {
    let mut answers = Vec::new();
    let mut errors = Vec::new();
    for source in sources {
        match parse::<AnswerFile>(source) {
            Ok(file) => answers.extend(file.answers),
            Err(found) => errors.extend(found),
        }
    }
    if errors.is_empty() {
        Ok(answers)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_load_and_a_bad_label_is_reported_with_its_file() {
        let good = Source {
            path: "a.yaml".into(),
            text: "answers:\n- element: PA.I.A.K1\n  kind: non_answer\n  answer: pass\n  \
                   label: unsatisfactory\n"
                .into(),
        };
        let answers = load_answers(std::slice::from_ref(&good)).expect("loads");
        assert_eq!(answers[0].kind, AnswerKindLabel::NonAnswer);
        assert!(!answers[0].spoken);
        let bad = Source {
            path: "b.yaml".into(),
            text: good.text.replace("unsatisfactory", "great"),
        };
        let errors = load_answers(&[good, bad]).expect_err("a bad label");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].file, "b.yaml");
    }
}
