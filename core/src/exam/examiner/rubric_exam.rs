//! The embedded examiner over an element's rubric: which rubric question to ask (primary,
//! bonus or follow-up), which one an answer responds to, and the verdict with feedback
//! that corrects from the rubric's facts and cites their sources.

use viva_blueprint::rubric::{ElementRubric, Question};

use super::super::types::{QuestionDifficulty, QuestionKind, Score};
use super::judge::{self, PreparedRubric, ReadAnswer, RubricVerdict};

/// How a bonus question opens (the same words as the element-text phrasing).
pub const BONUS_LEAD_IN: &str = "Let's try one more area.";

/// The question to ask from the rubric, if it has questions: a primary or bonus question by
/// difficulty (easy the first, medium the second, hard the third, wrapping); a follow-up
/// asks the first question, other than the one just asked, about a fact the last answer
/// left out.
pub fn rubric_question(
    rubric: &ElementRubric,
    kind: QuestionKind,
    difficulty: QuestionDifficulty,
    missing_terms: &[String],
    previous: Option<&str>,
) -> Option<String> {
    let questions = &rubric.questions;
    if questions.is_empty() {
        return None;
    }
    let by_difficulty = || {
        let index = match difficulty {
            QuestionDifficulty::Easy => 0,
            QuestionDifficulty::Medium => 1,
            QuestionDifficulty::Hard => 2,
        };
        &questions[index % questions.len()]
    };
    match kind {
        QuestionKind::Primary => Some(by_difficulty().ask.clone()),
        QuestionKind::Bonus => Some(format!("{BONUS_LEAD_IN} {}", by_difficulty().ask)),
        QuestionKind::FollowUp => follow_up(rubric, missing_terms, previous),
    }
}

fn follow_up(
    rubric: &ElementRubric,
    missing_terms: &[String],
    previous: Option<&str>,
) -> Option<String> {
    let missing: Vec<&str> = rubric
        .facts
        .iter()
        .filter(|fact| {
            fact.terms
                .first()
                .is_some_and(|t| missing_terms.contains(t))
        })
        .map(|fact| fact.id.as_str())
        .collect();
    rubric
        .questions
        .iter()
        .filter(|q| previous.is_none_or(|p| !p.ends_with(q.ask.as_str())))
        .find(|q| q.facts.iter().any(|f| missing.contains(&f.as_str())))
        .map(|q| q.ask.clone())
}

/// The rubric question `asked` is (the words asked end with it: a bonus has a lead-in).
pub fn asked_question<'r>(rubric: &'r ElementRubric, asked: &str) -> Option<&'r Question> {
    let asked = asked.trim();
    rubric
        .questions
        .iter()
        .find(|q| asked.ends_with(q.ask.trim()))
}

/// The rubric's verdict on an answer to `asked`, with what the examiner says.
#[derive(Debug, Clone, PartialEq)]
pub struct RubricAssessment {
    /// The score.
    pub score: Score,
    /// What the examiner says: what was wrong or missing, the fact and its source.
    pub feedback: String,
    /// The first phrase of each required fact the answer left out (for a follow-up).
    pub missing_terms: Vec<String>,
    /// What to study: the sources of the facts named and stated.
    pub source_summary: Option<String>,
    /// The evidence: each fact's status, misconceptions held, non-answer.
    pub verdict: RubricVerdict,
}

/// Judges `answer` (already read) to the question `asked` against a prepared rubric.
pub fn assess_prepared(
    prepared: &PreparedRubric,
    asked: &str,
    answer: &ReadAnswer,
) -> RubricAssessment {
    assess_asked(prepared, asked_question(&prepared.rubric, asked), answer)
}

/// Judges `answer` (already read) against a prepared rubric, as the answer to `question`
/// (a rubric's or a scenario's, with the facts it expects), if one was asked.
pub fn assess_asked(
    prepared: &PreparedRubric,
    question: Option<&Question>,
    answer: &ReadAnswer,
) -> RubricAssessment {
    let rubric = &prepared.rubric;
    let verdict = judge::judge_read(prepared, answer, question);
    let said = judge::feedback(rubric, &verdict, question);
    RubricAssessment {
        score: verdict.score,
        feedback: said.text,
        missing_terms: said.missing_terms,
        source_summary: (!said.sources.is_empty()).then(|| format!("Study: {}.", said.sources)),
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use viva_blueprint::library::Source;
    use viva_blueprint::rubric::RubricSet;

    use super::*;

    fn rubric() -> ElementRubric {
        let text = "task: PA.I.A\nelements:\n  - element: PA.I.A.K1\n    facts:\n      \
            - id: currency\n        claim: Three takeoffs and landings within 90 days.\n        \
            source: 14 CFR 61.57(a)\n        terms: [three takeoffs and landings]\n        \
            value: {kind: count, amount: 3, of: takeoffs and landings}\n      \
            - id: review\n        claim: A flight review every 24 calendar months.\n        \
            source: 14 CFR 61.56(c)\n        terms: [flight review]\n    \
            satisfactory: [currency, review]\n    partial: {at_least: 1}\n    questions:\n      \
            - ask: How many takeoffs and landings do you need to carry passengers?\n        \
            facts: [currency]\n      - ask: How often do you need a flight review?\n        \
            facts: [review]\n";
        let source = Source {
            path: "r.yaml".into(),
            text: text.into(),
        };
        let set = RubricSet::load(&[source]).expect("valid");
        set.get("PA.I.A.K1").cloned().expect("rubric")
    }

    #[test]
    fn questions_follow_difficulty_and_a_follow_up_asks_for_what_was_missing() {
        let rubric = rubric();
        let ask = |kind, difficulty, missing: &[&str], previous| {
            let missing: Vec<String> = missing.iter().map(|m| m.to_string()).collect();
            rubric_question(&rubric, kind, difficulty, &missing, previous)
        };
        let easy = ask(QuestionKind::Primary, QuestionDifficulty::Easy, &[], None);
        assert_eq!(easy.as_deref(), Some(rubric.questions[0].ask.as_str()));
        let hard = ask(QuestionKind::Primary, QuestionDifficulty::Hard, &[], None);
        assert!(hard.is_some());
        let follow = ask(
            QuestionKind::FollowUp,
            QuestionDifficulty::Easy,
            &["flight review"],
            Some(rubric.questions[0].ask.as_str()),
        );
        assert_eq!(follow.as_deref(), Some(rubric.questions[1].ask.as_str()));
    }

    fn assess(rubric: &ElementRubric, asked: &str, answer: &str) -> RubricAssessment {
        assess_prepared(
            &PreparedRubric::new(rubric.clone()),
            asked,
            &ReadAnswer::of(answer),
        )
    }

    #[test]
    fn an_answer_to_a_rubric_question_is_judged_on_its_facts() {
        let rubric = rubric();
        let asked = format!("{BONUS_LEAD_IN} {}", rubric.questions[0].ask);
        let right = assess(&rubric, &asked, "Three takeoffs and landings.");
        assert_eq!(right.score, Score::Satisfactory);
        let general = assess(
            &rubric,
            "Tell me about currency.",
            "Three takeoffs and landings.",
        );
        assert_eq!(general.score, Score::Partial);
        assert!(general.feedback.contains("flight review"), "{general:?}");
        assert_eq!(
            general.source_summary.as_deref(),
            Some("Study: 14 CFR 61.56(c); 14 CFR 61.57(a).")
        );
    }
}
