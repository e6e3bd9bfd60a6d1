//! The words of a spoken exam answer as the examiner reads them: an ACS exam's answers are
//! aviation, so the aviation vocabulary's known mis-hearings are repaired
//! (`viva_blueprint::vocabulary`), with the key terms of the element asked about; an item's
//! answer (an assessment's, read by `voice::spoken`) and everything else is left as heard.
//! Pure.

use viva_blueprint::vocabulary::{Vocabulary, repair};

use crate::base::Listening;
use crate::exam::acs::AcsLibrary;

/// `text`, heard for the open question `listening`, with the domain's repairs: for an exam
/// question, the aviation vocabulary and the asked element's rubric terms; otherwise as it is.
pub fn heard_answer(text: &str, listening: Option<&Listening<'_>>, acs: &AcsLibrary) -> String {
    let Some(Listening::Exam { element_code, .. }) = listening else {
        return text.to_owned();
    };
    let Some(vocabulary) = Vocabulary::aviation() else {
        return text.to_owned();
    };
    let terms: Vec<String> = acs
        .rubric(element_code)
        .map(|rubric| {
            let facts = rubric.facts.iter();
            facts.flat_map(|fact| fact.terms.iter().cloned()).collect()
        })
        .unwrap_or_default();
    repair(text, vocabulary, &terms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::acs::Rating;
    use crate::tutor::test_courses::Courses;

    #[test]
    fn an_exam_answer_is_repaired_and_an_item_answer_is_not() {
        let acs = Courses::load().acs;
        let exam = Listening::Exam {
            question_id: "q1",
            question: "What weather do you check?",
            element_code: "PA.I.C.K2",
            rating: Rating::Private,
        };
        assert_eq!(
            heard_answer("The Metro and the TAF.", Some(&exam), &acs),
            "The METAR and the TAF."
        );
        assert_eq!(
            heard_answer("I was proceeding.", Some(&exam), &acs),
            "I was proceeding."
        );
        assert_eq!(heard_answer("The Metro.", None, &acs), "The Metro.");
    }
}
