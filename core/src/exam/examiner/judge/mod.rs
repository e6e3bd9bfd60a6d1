//! Judging an answer against an element's rubric, in code, from evidence it can check:
//! which facts the answer states (one of their phrases, or their value in like units), which
//! it contradicts (another value for the same quantity, or a required fact denied), which
//! misconceptions it holds, and whether it says anything at all. The score follows from
//! those alone; the feedback names what was wrong or missing, the correct fact and its
//! source.
//!
//! - `answer`: an answer read once (reading, stem index, values) for any number of rubrics.
//! - `evidence`: what the answer shows about one rubric's facts and misconceptions.
//! - `reading`: the answer's clauses, numbers as digits, stemmed content words, negations.
//! - `stated`: the values an answer states, read once and indexed by measure.
//! - `work`: a count of the judge's steps, so tests can bound its work without a clock.
//! - `phrase`: rubric terms matched as phrases, affirmed or denied.
//! - `quantity`: typed values (durations, heights, counts, codes, classes) and comparing them.
//! - `slots`: what an answer binds to a fact's subject: domain values, conditions,
//!   modality and definitions (docs/rubrics.md).
//! - `non_answer`: "I don't know", hedges, and answers that disclaim themselves.
//! - `mutants`: each fact's claim falsified every way its value and slot allow; the judge
//!   must refuse every mutant.
//! - `verdict`: the verdict on one answer: its score and each fact's status.
//! - `feedback`: what the examiner says, and the sources it cites.
//! - `give_away`: whether words the examiner means to say (a follow-up) give a fact away.

mod answer;
mod evidence;
pub mod feedback;
pub mod give_away;
pub mod mutants;
pub mod non_answer;
pub mod phrase;
pub mod prepared;
pub mod quantity;
pub mod reading;
pub mod self_check;
mod slots;
pub mod stated;
mod verdict;
pub mod work;

use viva_blueprint::rubric::{ElementRubric, Question};

use super::super::types::Score;
use evidence::Evidence;

pub use answer::ReadAnswer;
pub use feedback::{Feedback, feedback};
pub use prepared::PreparedRubric;
pub use verdict::{FactStatus, RubricVerdict};

/// How many facts of any kind make an answer at least partial.
pub const PARTIAL_ANY_FACTS: usize = 2;

/// An answer of at most this many content words is short ([`is_short`]): stating one fact
/// and contradicting none, it is partial ("eight hours bottle to throttle"); correct as far as
/// it goes and incomplete, it is drawn out ([`draws_out`]). A long answer that states one
/// fact among much else is not.
pub const SHORT_ANSWER_WORDS: usize = 12;

/// The one rule for "short": an answer is short when it has at most [`SHORT_ANSWER_WORDS`]
/// content words as the judge reads them (little words such as "the", "is", "you", "I" and
/// "um" are not counted; a spoken number is one word; a synonym phrase such as "air traffic
/// control" is one).
pub fn is_short(answer: &str) -> bool {
    is_short_reading(&reading::Reading::of(answer))
}

fn is_short_reading(reading: &reading::Reading) -> bool {
    reading.words.len() <= SHORT_ANSWER_WORDS
}

/// Whether an answer is drawn out rather than scored at once: it is correct as far as it
/// goes (it says something, holds no misconception and contradicts no fact), short
/// ([`is_short`]) and incomplete (not satisfactory). The examiner then asks the candidate to
/// expand, naming nothing missing, if the plan still allows a follow-up on the element.
pub fn draws_out(verdict: &RubricVerdict) -> bool {
    verdict.draws_out()
}

/// Judges `answer` against `rubric`; `asked` is the rubric question it answers, if the
/// examiner asked one (its facts are then required too, and stating them all satisfies).
/// Reads the rubric afresh: a caller judging often prepares it once ([`judge_read`]).
pub fn judge(rubric: &ElementRubric, answer: &str, asked: Option<&Question>) -> RubricVerdict {
    judge_read(
        &PreparedRubric::new(rubric.clone()),
        &ReadAnswer::of(answer),
        asked,
    )
}

/// [`judge`] over a prepared rubric and an answer already read.
pub fn judge_read(
    prepared: &PreparedRubric,
    answer: &ReadAnswer,
    asked: Option<&Question>,
) -> RubricVerdict {
    let rubric = &prepared.rubric;
    let evidence = Evidence::gather(prepared, answer);
    let required = |id: &str| {
        rubric.satisfactory.iter().any(|r| r == id)
            || asked.is_some_and(|q| q.facts.iter().any(|f| f == id))
    };
    let facts: Vec<(String, FactStatus)> = rubric
        .facts
        .iter()
        .enumerate()
        .map(|(index, fact)| (fact.id.clone(), evidence.status(index, required(&fact.id))))
        .collect();
    let misconceptions = rubric
        .misconceptions
        .iter()
        .enumerate()
        .filter(|(index, _)| evidence.holds(*index))
        .map(|(_, m)| m.id.clone())
        .collect();
    let mut verdict = RubricVerdict {
        score: Score::Unsatisfactory,
        facts,
        misconceptions,
        non_answer: answer.non_answer,
        disclaimed: answer.disclaimed,
        short: is_short_reading(&answer.reading),
    };
    verdict.score = score_of(rubric, asked, &verdict);
    verdict
}

/// Whether `answer` could satisfy `prepared` unasked (its mention credit): not a non-answer
/// or a disclaimed one, and enough of the core facts could be stated (all of them, or all but
/// one of two or more) by the words and values the answer has. Cheap, and never false where
/// [`judge_read`] with no question would say satisfactory, so a long answer is judged in
/// full only against the rubrics it could satisfy.
pub fn may_satisfy(prepared: &PreparedRubric, answer: &ReadAnswer) -> bool {
    let rubric = &prepared.rubric;
    let core = rubric.satisfactory.len();
    let needed = if core >= 2 { core - 1 } else { core };
    if answer.non_answer || answer.disclaimed || needed == 0 {
        return false;
    }
    // Stops as soon as the answer lacks more core facts than one may miss.
    let may_miss = prepared.core.len() - needed.min(prepared.core.len());
    let mut missed = 0;
    for &index in &prepared.core {
        if !Evidence::may_state(prepared, answer, index) {
            missed += 1;
            if missed > may_miss {
                return false;
            }
        }
    }
    prepared.core.len() >= needed
}

/// The score from the findings:
/// - a non-answer, a misconception or a contradiction is unsatisfactory whatever else is said;
/// - satisfactory: every required fact of the element (or of the question asked), or all but
///   one of the element's core facts when it has two or more and the answer states as many
///   facts in all as the core list holds (an oral answer need not be complete);
/// - partial: the rubric's partial rule, a fact of the question asked, or
///   [`PARTIAL_ANY_FACTS`] facts of any kind, or one in a short answer;
/// - a disclaimed answer ("I'm not sure, maybe ...") scores one step lower.
pub fn score_of(
    rubric: &ElementRubric,
    asked: Option<&Question>,
    verdict: &RubricVerdict,
) -> Score {
    let contradicted = verdict
        .facts
        .iter()
        .any(|(_, s)| *s == FactStatus::Contradicted);
    if verdict.non_answer || contradicted || !verdict.misconceptions.is_empty() {
        return Score::Unsatisfactory;
    }
    let stated = |ids: &[String]| {
        ids.iter()
            .filter(|id| verdict.status(id) == FactStatus::Stated)
            .count()
    };
    let total = verdict
        .facts
        .iter()
        .filter(|(_, s)| *s == FactStatus::Stated)
        .count();
    let all = |ids: &[String]| !ids.is_empty() && stated(ids) == ids.len();
    let core = rubric.satisfactory.len();
    let all_but_one = core >= 2 && stated(&rubric.satisfactory) + 1 >= core && total >= core;
    let asked_facts = asked.map_or(&[][..], |q| q.facts.as_slice());
    let score = if all(&rubric.satisfactory) || all(asked_facts) || all_but_one {
        Score::Satisfactory
    } else if partial_rule_met(rubric, &stated)
        || stated(asked_facts) > 0
        || total >= PARTIAL_ANY_FACTS
        || (verdict.short && total >= 1)
    {
        Score::Partial
    } else {
        Score::Unsatisfactory
    };
    match (verdict.disclaimed, score) {
        (true, Score::Satisfactory) => Score::Partial,
        (true, _) => Score::Unsatisfactory,
        (false, score) => score,
    }
}

fn partial_rule_met(rubric: &ElementRubric, stated: &dyn Fn(&[String]) -> usize) -> bool {
    rubric
        .partial
        .as_ref()
        .is_some_and(|p| stated(p.counted(&rubric.satisfactory)) >= p.at_least)
}

/// Element `element`'s rubric from a rubric file and a domain file, loaded as the server
/// loads them (for tests of slots and mutants).
#[cfg(test)]
fn test_rubric(domains: &str, rubric: &str, element: &str) -> ElementRubric {
    use viva_blueprint::library::Source;
    let sources = [
        Source {
            path: "rubrics/domains/test.yaml".into(),
            text: domains.into(),
        },
        Source {
            path: "rubrics/test.yaml".into(),
            text: rubric.into(),
        },
    ];
    let set = viva_blueprint::rubric::RubricSet::load(&sources).expect("a valid rubric");
    set.get(element).cloned().expect("the rubric")
}

#[cfg(test)]
mod tests {
    use viva_blueprint::library::Source;
    use viva_blueprint::rubric::RubricSet;

    use super::*;

    const RUBRIC: &str = "\
task: PA.I.A
elements:
  - element: PA.I.A.K1
    facts:
      - id: passenger-currency
        claim: Three takeoffs and three landings to carry passengers.
        source: 14 CFR 61.57(a)
        terms: [three takeoffs and landings, three takeoffs and three landings, three landings]
        value: {kind: count, amount: 3, of: takeoffs and landings}
      - id: currency-window
        claim: Within the preceding 90 days.
        source: 14 CFR 61.57(a)
        terms: [90 days, preceding 90 days]
        value: {kind: duration, amount: 90, unit: days}
      - id: flight-review
        claim: A flight review every 24 calendar months.
        source: 14 CFR 61.56(c)
        terms: [flight review, BFR]
        value: {kind: duration, amount: 24, unit: calendar_months}
      - id: night-currency
        claim: At night, to a full stop, between an hour after sunset and an hour before sunrise.
        source: 14 CFR 61.57(b)
        terms: [full stop, night landings]
      - id: medical
        claim: A current medical certificate or BasicMed is needed to act as PIC.
        source: 14 CFR 61.23(a)
        terms: [medical certificate, BasicMed, current medical]
    satisfactory: [passenger-currency, currency-window, flight-review]
    partial: {at_least: 1}
    misconceptions:
      - id: one-landing-a-year
        claim: One landing a year keeps you current.
        terms: [landing a year, landing per year, landing each year]
        correction: Three takeoffs and three landings within 90 days.
        source: 14 CFR 61.57(a)
        contradicts: passenger-currency
        value: {kind: count, amount: 1, of: landings}
    questions:
      - ask: How many takeoffs and landings must you have made to carry passengers, and within what time?
        facts: [passenger-currency, currency-window]
";

    fn rubric() -> ElementRubric {
        let source = Source {
            path: "r.yaml".into(),
            text: RUBRIC.into(),
        };
        let set = RubricSet::load(&[source]).expect("a valid rubric");
        set.get("PA.I.A.K1").cloned().expect("the rubric")
    }

    fn check(answer: &str, asked: bool, expected: Score) {
        let rubric = rubric();
        let question = asked.then(|| &rubric.questions[0]);
        let verdict = judge(&rubric, answer, question);
        assert_eq!(verdict.score, expected, "{answer:?}: {verdict:?}");
    }

    #[test]
    fn scores_follow_the_facts_stated() {
        use Score::*;
        let table = [
            (
                "Three takeoffs and landings within the last 90 days to carry passengers, and a \
              flight review every 24 calendar months.",
                Satisfactory,
            ),
            (
                "three takeoffs and three landings in ninety days, BFR every twenty four calendar \
              months",
                Satisfactory,
            ),
            (
                "You need a flight review every 24 calendar months.",
                Partial,
            ),
            (
                "A current medical and night landings to a full stop.",
                Partial,
            ),
            (
                "Recent flight experience and recordkeeping.",
                Unsatisfactory,
            ),
            (
                "Cross-country planning starts with the weather briefing.",
                Unsatisfactory,
            ),
        ];
        for (answer, expected) in table {
            check(answer, false, expected);
        }
    }

    #[test]
    fn the_question_asked_sets_what_suffices() {
        let answer = "Three takeoffs and landings in the preceding ninety days.";
        check(answer, true, Score::Satisfactory);
        check(answer, false, Score::Partial);
        check("Three landings.", true, Score::Partial);
    }

    #[test]
    fn a_wrong_value_a_denial_or_a_misconception_is_unsatisfactory_whatever_else_is_said() {
        let table = [
            "Three takeoffs and landings within 30 days, and a flight review every 24 calendar \
             months.",
            "One landing per year keeps you current, plus a flight review every 24 calendar \
             months.",
            "Five takeoffs and landings in 90 days and a flight review every 24 calendar months.",
            "Three takeoffs and landings in 90 days, and a flight review every 12 calendar months.",
            "Three takeoffs and landings in 90 days; you do not need a flight review.",
        ];
        for answer in table {
            check(answer, false, Score::Unsatisfactory);
        }
        let verdict = judge(&rubric(), "One landing per year.", None);
        assert_eq!(
            verdict.misconceptions,
            vec!["one-landing-a-year".to_owned()]
        );
        assert_eq!(
            verdict.status("passenger-currency"),
            FactStatus::Contradicted
        );
    }

    #[test]
    fn right_numbers_beside_each_other_do_not_contradict() {
        check(
            "Flight review every two years, which is 24 calendar months, and three takeoffs and \
             landings in 90 days.",
            false,
            Score::Satisfactory,
        );
    }

    #[test]
    fn non_answers_and_disclaimed_answers() {
        for answer in [
            "I don't know.",
            "Pass.",
            "Um, not sure, sorry.",
            "",
            "It depends.",
        ] {
            let verdict = judge(&rubric(), answer, None);
            assert!(verdict.non_answer, "{answer:?}");
            assert_eq!(verdict.score, Score::Unsatisfactory, "{answer:?}");
        }
        check(
            "I'm not sure, maybe three takeoffs and landings in 90 days and a flight review \
             every 24 calendar months?",
            false,
            Score::Partial,
        );
    }

    #[test]
    fn feedback_corrects_with_the_fact_and_its_source() {
        let rubric = rubric();
        let say = |answer: &str| {
            let verdict = judge(&rubric, answer, None);
            feedback(&rubric, &verdict, None)
        };
        let wrong = say("One landing per year.");
        assert!(wrong.text.starts_with("That is not correct"), "{wrong:?}");
        assert!(wrong.text.contains("90 days") && wrong.text.contains("14 CFR 61.57(a)"));
        let partial = say("A flight review every 24 calendar months.");
        assert!(partial.text.contains("left out"), "{partial:?}");
        assert!(partial.sources.contains("14 CFR 61.57(a)"), "{partial:?}");
        assert!(partial.sources.contains("14 CFR 61.56(c)"), "{partial:?}");
        assert_eq!(partial.missing_terms[0], "three takeoffs and landings");
        let none = say("I don't know");
        assert!(none.text.starts_with("No answer"), "{none:?}");
        assert!(none.text.contains("Three takeoffs"), "{none:?}");
    }

    #[test]
    fn short_is_at_most_twelve_content_words() {
        let table = [
            ("", true),
            ("Um, I, you, the, it, that is.", true),
            ("Three takeoffs and landings in ninety days.", true),
            (
                "red green blue black white brown pink gray gold silver tan teal",
                true,
            ),
            (
                "red green blue black white brown pink gray gold silver tan teal navy",
                false,
            ),
            (
                "You need a flight review every 24 calendar months with an instructor who signs \
                 your logbook, and you should stay proficient.",
                false,
            ),
        ];
        for (answer, short) in table {
            assert_eq!(is_short(answer), short, "{answer:?}");
            assert_eq!(judge(&rubric(), answer, None).short, short, "{answer:?}");
        }
    }

    #[test]
    fn a_short_correct_incomplete_answer_is_drawn_out() {
        let table = [
            ("Three landings.", true),
            ("A current medical.", true),
            ("Recent flight experience.", true),
            ("I don't know.", false),
            ("One landing per year.", false),
            ("Three takeoffs and landings within 30 days.", false),
            (
                "Three takeoffs and landings in 90 days, flight review every 24 calendar months.",
                false,
            ),
            (
                "You need a flight review every 24 calendar months with an instructor who signs \
                 your logbook, and you should also stay proficient by flying often.",
                false,
            ),
        ];
        for (answer, drawn_out) in table {
            let verdict = judge(&rubric(), answer, None);
            assert_eq!(draws_out(&verdict), drawn_out, "{answer:?}: {verdict:?}");
        }
    }
}
