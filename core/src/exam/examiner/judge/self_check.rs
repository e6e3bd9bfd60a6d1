//! A rubric judged by its own words: each fact's claim must state that fact, each
//! misconception's claim must be recognised as that misconception, and the true claims
//! together must neither hold a misconception nor contradict a fact (a number in a claim
//! that no fact has as its value). What fails here would misjudge real answers too. An
//! authored probe must give no fact away.

use viva_blueprint::rubric::ElementRubric;

use super::give_away::{GiveAway, give_aways};
use super::{FactStatus, PreparedRubric, ReadAnswer, RubricVerdict, judge_read};

/// One way a rubric misjudges its own words: the element, the field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfCheckProblem {
    /// The element code.
    pub element: String,
    /// The field: `facts[2] (night-currency)`, `misconceptions[0] (one-landing-a-year)`.
    pub field: String,
    /// What is wrong, and how to fix it.
    pub message: String,
}

/// Every problem found in `rubric`.
pub fn self_check(rubric: &ElementRubric) -> Vec<SelfCheckProblem> {
    let prepared = PreparedRubric::new(rubric.clone());
    let judge = |text: &str| judge_read(&prepared, &ReadAnswer::of(text), None);
    let problem = |field: String, message: &str| SelfCheckProblem {
        element: rubric.element.clone(),
        field,
        message: message.to_owned(),
    };
    let mut problems = Vec::new();
    for (index, fact) in rubric.facts.iter().enumerate() {
        let status = judge(&fact.claim).status(&fact.id);
        if status != FactStatus::Stated {
            let field = format!("facts[{index}] ({})", fact.id);
            problems.push(problem(field, own_claim_message(status)));
        }
    }
    for (index, misconception) in rubric.misconceptions.iter().enumerate() {
        let verdict = judge(&misconception.claim);
        if !verdict.misconceptions.contains(&misconception.id) {
            let field = format!("misconceptions[{index}] ({})", misconception.id);
            problems.push(problem(
                field,
                "its own claim is not recognised: give it a term (or false value) the claim states",
            ));
        }
    }
    let claims: Vec<&str> = rubric.facts.iter().map(|f| f.claim.as_str()).collect();
    problems.extend(true_claims_problems(rubric, &judge(&claims.join(" "))));
    problems.extend(probe_problems(&prepared));
    problems
}

/// Each authored probe judged as if the candidate had said it: it must state no fact of its
/// element and hold no fact's value (a follow-up asks, it never tells).
fn probe_problems(prepared: &PreparedRubric) -> Vec<SelfCheckProblem> {
    let rubric = &prepared.rubric;
    let facts: Vec<&viva_blueprint::rubric::Fact> = rubric.facts.iter().collect();
    let mut problems = Vec::new();
    for (index, fact) in rubric.facts.iter().enumerate() {
        let Some(probe) = &fact.probe else {
            continue;
        };
        let given = give_aways(prepared, probe, &facts);
        if given.is_empty() {
            continue;
        }
        let what: Vec<String> = given
            .iter()
            .map(|g| match g {
                GiveAway::Credits(id) => format!("states {id}"),
                GiveAway::Value(id) => format!("holds {id}'s value"),
            })
            .collect();
        problems.push(SelfCheckProblem {
            element: rubric.element.clone(),
            field: format!("facts[{index}] ({}).probe", fact.id),
            message: format!(
                "the probe gives a fact away ({}): ask about it without its terms or value",
                what.join(", ")
            ),
        });
    }
    problems
}

fn own_claim_message(status: FactStatus) -> &'static str {
    match status {
        FactStatus::Contradicted => {
            "its own claim contradicts it: the claim states a number of its kind that is not its \
             value, denies one of its terms, or its slot reads another domain member, another \
             condition or the opposite polarity under its subject (check the slot's subject, \
             attribute, is and when against the claim's words)"
        }
        _ => "its own claim does not state it: give it a term the claim uses",
    }
}

/// What the facts' claims together (as the best answer would say them) got wrong.
fn true_claims_problems(rubric: &ElementRubric, verdict: &RubricVerdict) -> Vec<SelfCheckProblem> {
    let mut problems = Vec::new();
    for (index, misconception) in rubric.misconceptions.iter().enumerate() {
        if verdict.misconceptions.contains(&misconception.id) {
            problems.push(SelfCheckProblem {
                element: rubric.element.clone(),
                field: format!("misconceptions[{index}] ({})", misconception.id),
                message: "the true claims hold it: its terms must be phrases only someone holding \
                          it would say"
                    .to_owned(),
            });
        }
    }
    for (index, (id, status)) in verdict.facts.iter().enumerate() {
        if *status == FactStatus::Contradicted {
            problems.push(SelfCheckProblem {
                element: rubric.element.clone(),
                field: format!("facts[{index}] ({id})"),
                message: "the true claims contradict it: a claim states a value of its kind that \
                          no fact has (add that fact with its value), denies one of its terms, or \
                          binds another domain member, condition or polarity to its slot's \
                          subject (another fact's claim may name the same subject: narrow the \
                          subject or attribute phrases)"
                    .to_owned(),
            });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use viva_blueprint::library::Source;
    use viva_blueprint::rubric::RubricSet;

    use super::*;

    const CURRENCY: &str = "Three takeoffs and landings within the preceding 90 days.";
    const REVIEW: &str = "A flight review every 24 calendar months.";

    fn rubric(
        misconception_terms: &str,
        currency_claim: &str,
        review_claim: &str,
    ) -> ElementRubric {
        let text = format!(
            "task: PA.I.A\nelements:\n  - element: PA.I.A.K1\n    facts:\n      \
             - id: currency\n        claim: {currency_claim}\n        source: 14 CFR 61.57(a)\n        terms: [three takeoffs and landings]\n      \
             - id: review\n        claim: {review_claim}\n        source: 14 CFR 61.56(c)\n        \
             terms: [flight review]\n        value: {{kind: duration, amount: 24, unit: \
             calendar_months}}\n    satisfactory: [currency, review]\n    misconceptions:\n      \
             - id: yearly\n        claim: One landing a year keeps you current.\n        terms: \
             [{misconception_terms}]\n        correction: Three within 90 days.\n        source: \
             14 CFR 61.57(a)\n"
        );
        let source = Source {
            path: "r.yaml".into(),
            text,
        };
        let set = RubricSet::load(&[source]).expect("valid");
        set.get("PA.I.A.K1").cloned().expect("rubric")
    }

    #[test]
    fn a_sound_rubric_has_no_problems() {
        let sound = rubric("landing a year", CURRENCY, REVIEW);
        assert_eq!(self_check(&sound), Vec::new());
    }

    #[test]
    fn each_kind_of_problem_is_reported() {
        let fields = |r: &ElementRubric| -> Vec<String> {
            self_check(r).into_iter().map(|p| p.field).collect()
        };
        // A misconception term a true claim uses, and one its own claim lacks.
        assert_eq!(
            fields(&rubric("takeoffs and landings", CURRENCY, REVIEW)),
            vec![
                "misconceptions[0] (yearly)".to_owned(),
                "misconceptions[0] (yearly)".to_owned()
            ]
        );
        // A required fact its own claim denies (and so do the claims together).
        assert_eq!(
            fields(&rubric(
                "landing a year",
                "Not three takeoffs and landings but one.",
                REVIEW
            )),
            vec![
                "facts[0] (currency)".to_owned(),
                "facts[0] (currency)".to_owned()
            ]
        );
        // A claim without its fact's term or value.
        assert_eq!(
            fields(&rubric(
                "landing a year",
                CURRENCY,
                "A proficiency check now and then."
            )),
            vec!["facts[1] (review)".to_owned()]
        );
    }

    #[test]
    fn a_probe_that_gives_a_fact_away_is_reported() {
        let with_probe = |probe: &str| {
            let mut rubric = rubric("landing a year", CURRENCY, REVIEW);
            rubric.facts[1].probe = Some(probe.to_owned());
            self_check(&rubric)
        };
        assert_eq!(
            with_probe("What limits how long that stays valid?"),
            Vec::new()
        );
        for (probe, found) in [
            ("How often do you need a flight review?", "states review"),
            ("Is it every twenty-four months?", "states review"),
            ("Is it more than 24?", "holds review's value"),
            ("Is it three takeoffs and landings?", "states currency"),
        ] {
            let problems = with_probe(probe);
            assert_eq!(problems.len(), 1, "{probe:?}: {problems:?}");
            assert_eq!(problems[0].field, "facts[1] (review).probe");
            assert!(
                problems[0].message.contains(found),
                "{probe:?}: {problems:?}"
            );
        }
    }
}
