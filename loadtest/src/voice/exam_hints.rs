//! Free exam answers with the exam's hint: each sentence of the accuracy corpus
//! ([`ANSWERS`](super::corpus::ANSWERS)) paired with the Private Pilot ASEL element it answers and a question
//! asking for it — the rubric's own `questions[].ask` where one fits, else one written here
//! for that element — so the listening phase can compare word error with no hint against
//! `exam_hint(question, rubric)`, the hint the server gives whisper for that question.

use viva_blueprint::rubric::RubricSet;
use viva_core::voice::hint::exam_hint;

/// `(answer, element, question)`, in the order of [`ANSWERS`](super::corpus::ANSWERS).
pub const QUESTIONS: &[(&str, &str, &str)] = &[
    (
        "Carburetor ice.",
        "PA.IX.C.K1",
        "What could cause a partial power loss with the engine running rough?",
    ),
    (
        "Check the weather.",
        "PA.I.C.K1",
        "What is the first thing you do when you plan any flight?",
    ),
    (
        "Runway two seven.",
        "PA.III.B.K2",
        "The wind is from 280 at 10 knots. Which runway do you use?",
    ),
    (
        "Pitot static system.",
        "PA.I.G.K1",
        "Which system do the airspeed indicator, the altimeter and the vertical speed indicator use?",
    ),
    (
        "Aviate, navigate, communicate.",
        "PA.IX.B.R6",
        "What are your priorities in an engine failure, in order?",
    ),
    (
        "Oil pressure is in the green.",
        "PA.II.C.K3",
        "What do you check immediately after the engine starts, and why?",
    ),
    (
        "Class B airspace requires a clearance.",
        "PA.I.E.K1",
        "What do you need before entering Class B airspace?",
    ),
    (
        "The stall speed is forty eight knots.",
        "PA.VII.B.K1",
        "What is the stall speed of your airplane in the landing configuration?",
    ),
    (
        "Best glide speed is sixty eight knots.",
        "PA.IX.B.K2",
        "What is the best glide speed of your airplane?",
    ),
    (
        "Climb to three thousand five hundred feet.",
        "PA.III.A.K2",
        "Which parts of an ATC clearance or instruction must you read back?",
    ),
    (
        "Density altitude increases with temperature.",
        "PA.I.F.K2",
        "How does temperature affect density altitude?",
    ),
    (
        "Wind two seven zero at fifteen knots.",
        "PA.III.B.K4",
        "What wind does the ATIS report?",
    ),
    (
        "Eight hours from bottle to throttle.",
        "PA.I.H.K2",
        "How long after drinking alcohol must you wait before acting as a crewmember, and what alcohol concentration disqualifies you?",
    ),
    (
        "Thirty minutes of fuel reserve during the day.",
        "PA.I.D.K3",
        "What are the VFR fuel reserve requirements for day and night?",
    ),
    (
        "At night the reserve is forty five minutes.",
        "PA.I.D.R6",
        "What are the VFR fuel reserve requirements for day and night?",
    ),
    (
        "An annual inspection every twelve calendar months.",
        "PA.I.B.K1",
        "Which inspections does an airplane used only for personal flying need, and how often?",
    ),
    (
        "A flight review every twenty four calendar months.",
        "PA.I.A.K1",
        "How often must you complete a flight review, and what is the minimum training it includes?",
    ),
    (
        "Squawk seven thousand seven hundred in an emergency.",
        "PA.III.A.K4",
        "What are the transponder codes for an emergency, lost communications and hijacking?",
    ),
    (
        "Visibility three statute miles, clear of clouds.",
        "PA.I.E.R1",
        "What are the VFR visibility and cloud clearance minimums in Class B airspace?",
    ),
    (
        "Hypoxia, hyperventilation and spatial disorientation.",
        "PA.VIII.E.K1",
        "What physiological factors can lead to an unusual attitude?",
    ),
    (
        "The magnetic compass lags in turns to the north.",
        "PA.VI.A.K2",
        "In the Northern Hemisphere, what does the compass do when you turn from a heading of north?",
    ),
    (
        "A transponder is required above ten thousand feet.",
        "PA.III.A.K4",
        "In what airspace is a Mode C transponder required?",
    ),
    (
        "Three takeoffs and landings within the preceding ninety days.",
        "PA.I.A.K1",
        "How many takeoffs and landings must you have made to carry passengers, and within what time?",
    ),
    (
        "The maximum gross weight is two thousand four hundred fifty pounds.",
        "PA.I.F.R2",
        "What is the maximum gross weight of your airplane?",
    ),
    (
        "Private pilots may not fly for compensation or hire.",
        "PA.I.A.K2",
        "May a private pilot carry passengers or property for compensation or hire?",
    ),
    (
        "A pilot certificate, a medical, and photo identification.",
        "PA.I.A.K4",
        "What personal documents must you have with you to act as pilot in command?",
    ),
    (
        "The stall warning sounds five to ten knots above the stall.",
        "PA.VII.A.R2",
        "How much margin above the stall does the stall warning give?",
    ),
    (
        "Lower the nose, level the wings, and add full power.",
        "PA.VIII.E.K2",
        "What are the recovery steps, in order, for a nose-high unusual attitude?",
    ),
    (
        "The airspeed indicator and altimeter use the pitot static system.",
        "PA.I.G.K1",
        "Which instruments use the pitot-static system and which use the vacuum system?",
    ),
    (
        "Cruise at six thousand five hundred feet, heading one eight zero.",
        "PA.I.D.K2",
        "What cruising altitude and heading will you fly on this leg?",
    ),
];

/// The element and exam question of corpus answer `index`; `None` past the table.
pub fn question(index: usize) -> Option<(&'static str, &'static str)> {
    QUESTIONS
        .get(index)
        .map(|(_, element, ask)| (*element, *ask))
}

/// Whether `ask` is one of the questions of `element`'s rubric.
pub fn is_rubric_question(rubrics: &RubricSet, element: &str, ask: &str) -> bool {
    rubrics
        .get(element)
        .is_some_and(|rubric| rubric.questions.iter().any(|q| q.ask.trim() == ask))
}

/// The hint the server would give whisper for corpus answer `index`: its question and the
/// key terms of its element's rubric.
pub fn hint(rubrics: &RubricSet, index: usize) -> Option<String> {
    let (element, ask) = question(index)?;
    exam_hint(ask, rubrics.get(element))
}

#[cfg(test)]
mod tests {
    use super::super::blueprints::{load_rubrics, repository_blueprints};
    use super::super::corpus::ANSWERS;
    use super::*;

    #[test]
    fn every_corpus_answer_has_a_question_in_order() {
        assert_eq!(QUESTIONS.len(), ANSWERS.len());
        for (index, (answer, _, _)) in QUESTIONS.iter().enumerate() {
            assert_eq!(*answer, ANSWERS[index], "answer {index}");
        }
    }

    #[test]
    fn every_element_has_a_rubric_and_most_questions_are_its_own() {
        let rubrics = load_rubrics(&repository_blueprints()).expect("rubrics");
        for (_, element, _) in QUESTIONS {
            assert!(rubrics.get(element).is_some(), "no rubric for {element}");
        }
        let own = QUESTIONS
            .iter()
            .filter(|(_, element, ask)| is_rubric_question(&rubrics, element, ask))
            .count();
        assert!(own >= 18, "only {own} rubric questions");
        let first = hint(&rubrics, 0).unwrap_or_default();
        assert!(
            first.starts_with("What could cause a partial power loss"),
            "{first}"
        );
        assert!(first.contains("Key terms:"), "{first}");
    }
}
