//! The embedded examiner over an element's rubric: which rubric question to ask (primary,
//! bonus or follow-up), which one an answer responds to, and the verdict with feedback
//! that corrects from the rubric's facts and cites their sources.

use viva_blueprint::rubric::{ElementRubric, Fact, Question};

use super::super::types::{QuestionDifficulty, QuestionKind, Score};
use super::judge::{self, PreparedRubric, ReadAnswer, RubricVerdict, feedback};

/// How a bonus question opens (the same words as the element-text phrasing).
pub const BONUS_LEAD_IN: &str = "Let's try one more area.";

/// The question to ask from the rubric, if it has questions: a primary or bonus question by
/// difficulty (easy the first, medium the second, hard the third, wrapping). A follow-up is
/// never a rubric question (it would name what it asks for): `probe` phrases it.
pub fn rubric_question(
    rubric: &ElementRubric,
    kind: QuestionKind,
    difficulty: QuestionDifficulty,
) -> Option<String> {
    let questions = &rubric.questions;
    if questions.is_empty() {
        return None;
    }
    let index = match difficulty {
        QuestionDifficulty::Easy => 0,
        QuestionDifficulty::Medium => 1,
        QuestionDifficulty::Hard => 2,
    };
    let question = &questions[index % questions.len()];
    match kind {
        QuestionKind::Primary => Some(question.ask.clone()),
        QuestionKind::Bonus => Some(format!("{BONUS_LEAD_IN} {}", question.ask)),
        QuestionKind::FollowUp => None,
    }
}

/// The facts `missing_terms` name (each the first term of a fact, as feedback reports what
/// an answer left out), in their order.
pub fn missing_facts<'r>(rubric: &'r ElementRubric, missing_terms: &[String]) -> Vec<&'r Fact> {
    let mut facts: Vec<&Fact> = Vec::new();
    for term in missing_terms {
        for fact in &rubric.facts {
            if fact.terms.first() == Some(term) && !facts.iter().any(|f| f.id == fact.id) {
                facts.push(fact);
            }
        }
    }
    facts
}

/// The rubric question `asked` is (the words asked end with it: a bonus has a lead-in).
pub fn asked_question<'r>(rubric: &'r ElementRubric, asked: &str) -> Option<&'r Question> {
    let asked = asked.trim();
    rubric
        .questions
        .iter()
        .find(|q| asked.ends_with(q.ask.trim()))
}

/// What an answer must state, by the question it answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Asked<'r> {
    /// A follow-up: it asked (whatever its words) for the facts the answer before it left
    /// out; stating them all satisfies.
    FollowUp(Question),
    /// A rubric question: its facts are required too, and stating them all satisfies.
    Rubric(&'r Question),
    /// A question asked through a flight scenario, with the facts it expects (as a rubric
    /// question's).
    Expected(Question),
    /// Any other question: the element's core facts.
    Open,
}

impl Asked<'_> {
    /// The question whose facts the judge requires, if any.
    pub fn question(&self) -> Option<&Question> {
        match self {
            Asked::FollowUp(question) => Some(question),
            Asked::Rubric(question) => Some(question),
            Asked::Expected(question) => Some(question),
            Asked::Open => None,
        }
    }

    /// An open question is, when `expected` knows it, the question it names (a scenario's).
    pub fn or_expected(self, expected: impl FnOnce() -> Option<Question>) -> Self {
        match self {
            Asked::Open => expected().map_or(Asked::Open, Asked::Expected),
            asked => asked,
        }
    }
}

/// What the question `asked` asks for: a follow-up asking about `missing_terms` (the last
/// answer's, empty for a question that is not a follow-up) asks for the facts they name; any
/// other question is a rubric question or an open one.
pub fn asked<'r>(rubric: &'r ElementRubric, asked: &str, missing_terms: &[String]) -> Asked<'r> {
    let facts: Vec<String> = missing_facts(rubric, missing_terms)
        .into_iter()
        .map(|f| f.id.clone())
        .collect();
    if !facts.is_empty() {
        return Asked::FollowUp(Question {
            ask: asked.to_owned(),
            facts,
        });
    }
    asked_question(rubric, asked).map_or(Asked::Open, Asked::Rubric)
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
    /// Whether the answer is drawn out ([`judge::draws_out`]).
    pub draw_out: bool,
    /// What the examiner says instead while a follow-up is still to come
    /// ([`judge::feedback::interim`]): nothing of what was missing.
    pub interim_feedback: String,
    /// What to study meanwhile: the sources of the required facts stated.
    pub interim_source_summary: Option<String>,
    /// The evidence: each fact's status, misconceptions held, non-answer.
    pub verdict: RubricVerdict,
}

/// Judges `answer` (already read) to the question `asked` (a follow-up on `missing_terms`,
/// the last answer's, or empty) against a prepared rubric.
pub fn assess_prepared(
    prepared: &PreparedRubric,
    asked_words: &str,
    missing_terms: &[String],
    answer: &ReadAnswer,
) -> RubricAssessment {
    let asked = asked(&prepared.rubric, asked_words, missing_terms);
    assess_asked(prepared, &asked, answer)
}

/// Judges `answer` (already read) against a prepared rubric, as the answer to `asked`.
pub fn assess_asked(
    prepared: &PreparedRubric,
    asked: &Asked<'_>,
    answer: &ReadAnswer,
) -> RubricAssessment {
    let verdict = judge::judge_read(prepared, answer, asked.question());
    assessment_of(&prepared.rubric, asked, verdict)
}

/// What the examiner says of `verdict` (the judge's, or one a model's checked findings
/// added to) on an answer to `asked`: the full feedback and, for while a follow-up is still
/// to come, the interim one.
pub fn assessment_of(
    rubric: &ElementRubric,
    asked: &Asked<'_>,
    verdict: RubricVerdict,
) -> RubricAssessment {
    let required = match asked {
        Asked::FollowUp(probe) => feedback::probe_facts(rubric, probe),
        other => feedback::required_facts(rubric, other.question()),
    };
    let said = feedback::feedback_on(rubric, &verdict, required.clone());
    let meanwhile = feedback::interim(rubric, &verdict, required);
    let study = |sources: &str| (!sources.is_empty()).then(|| format!("Study: {sources}."));
    RubricAssessment {
        score: verdict.score,
        source_summary: study(&said.sources),
        feedback: said.text,
        missing_terms: said.missing_terms,
        draw_out: judge::draws_out(&verdict),
        interim_source_summary: study(&meanwhile.sources),
        interim_feedback: meanwhile.text,
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
    fn questions_follow_difficulty_and_a_follow_up_is_never_a_rubric_question() {
        let rubric = rubric();
        let ask = |kind, difficulty| rubric_question(&rubric, kind, difficulty);
        let easy = ask(QuestionKind::Primary, QuestionDifficulty::Easy);
        assert_eq!(easy.as_deref(), Some(rubric.questions[0].ask.as_str()));
        let hard = ask(QuestionKind::Primary, QuestionDifficulty::Hard);
        assert_eq!(hard.as_deref(), Some(rubric.questions[0].ask.as_str()));
        assert_eq!(ask(QuestionKind::FollowUp, QuestionDifficulty::Easy), None);
    }

    #[test]
    fn a_follow_up_asks_for_the_facts_the_last_answer_left_out_whatever_its_words() {
        let rubric = rubric();
        let missing = vec![
            "flight review".to_owned(),
            "nothing of this rubric".to_owned(),
        ];
        let follow_up = asked(&rubric, "What limits how long that stays valid?", &missing);
        let Asked::FollowUp(question) = &follow_up else {
            panic!("a follow-up: {follow_up:?}");
        };
        assert_eq!(question.facts, ["review"]);
        let prepared = PreparedRubric::new(rubric.clone());
        let probed = |answer: &str| {
            let words = "Anything else?";
            assess_prepared(&prepared, words, &missing, &ReadAnswer::of(answer))
        };
        let answered = probed("A flight review every 24 calendar months.");
        assert_eq!(answered.score, Score::Satisfactory, "{answered:?}");
        let unanswered = probed("I am not sure.");
        assert_eq!(unanswered.score, Score::Unsatisfactory);
        assert!(
            unanswered.feedback.contains("24 calendar months"),
            "{unanswered:?}"
        );
        assert!(
            !unanswered.feedback.contains("Three"),
            "only what it asked for: {unanswered:?}"
        );
        let rubric_asked = asked(&rubric, &rubric.questions[1].ask, &[]);
        assert_eq!(rubric_asked, Asked::Rubric(&rubric.questions[1]));
        assert_eq!(asked(&rubric, "Tell me about currency.", &[]), Asked::Open);
    }

    #[test]
    fn a_partial_answer_has_interim_feedback_naming_nothing_missing() {
        let rubric = rubric();
        let prepared = PreparedRubric::new(rubric.clone());
        let long = "You need three takeoffs and landings, and that is something I always keep \
                    track of carefully before flying anyone anywhere at all.";
        let table = [
            (
                long,
                Score::Partial,
                false,
                judge::feedback::PARTLY_RIGHT_SO_FAR,
            ),
            (
                "Three takeoffs and landings.",
                Score::Partial,
                true,
                judge::feedback::DRAWN_OUT,
            ),
            (
                "Recency matters.",
                Score::Unsatisfactory,
                true,
                judge::feedback::DRAWN_OUT,
            ),
        ];
        for (answer, score, draw_out, interim) in table {
            let said = assess_prepared(&prepared, "Tell me.", &[], &ReadAnswer::of(answer));
            assert_eq!(
                (said.score, said.draw_out, said.interim_feedback.as_str()),
                (score, draw_out, interim),
                "{answer:?}"
            );
            assert!(said.feedback.contains("flight review"), "{said:?}");
            assert!(
                said.missing_terms.contains(&"flight review".to_owned()),
                "{said:?}"
            );
            let meanwhile = said.interim_source_summary.unwrap_or_default();
            assert!(
                !meanwhile.contains("61.56"),
                "no missing fact's source: {meanwhile}"
            );
        }
    }

    fn assess(rubric: &ElementRubric, asked: &str, answer: &str) -> RubricAssessment {
        assess_prepared(
            &PreparedRubric::new(rubric.clone()),
            asked,
            &[],
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
