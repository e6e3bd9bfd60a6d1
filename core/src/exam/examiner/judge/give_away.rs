//! Whether words an examiner means to say give a fact away: the words judged as if the
//! candidate had said them, with the same judge, against the element's rubric. A follow-up
//! (the embedded examiner's, a model's, an authored probe) must credit no fact the last
//! answer left out, and must not hold any such fact's value, in digits or in words.

use viva_blueprint::rubric::{Fact, FactValue};

use super::quantity::{value_of, written_amount};
use super::{FactStatus, PreparedRubric, ReadAnswer, judge_read};

/// How words give a fact away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GiveAway {
    /// Said by the candidate, the words would state the fact: the judge credits it.
    Credits(String),
    /// The words hold the fact's value (`90`, `ninety`, `two years` for 24 months,
    /// `steady green`, `Class B`).
    Value(String),
}

impl GiveAway {
    /// The fact given away.
    pub fn fact(&self) -> &str {
        match self {
            GiveAway::Credits(id) | GiveAway::Value(id) => id,
        }
    }
}

/// Every way `text` gives one of `facts` away (facts of `prepared`'s rubric), in the facts'
/// order; empty when it gives none away.
pub fn give_aways(prepared: &PreparedRubric, text: &str, facts: &[&Fact]) -> Vec<GiveAway> {
    if facts.is_empty() {
        return Vec::new();
    }
    let said = ReadAnswer::of(text);
    let verdict = judge_read(prepared, &said, None);
    let mut found = Vec::new();
    for fact in facts {
        if verdict.status(&fact.id) == FactStatus::Stated {
            found.push(GiveAway::Credits(fact.id.clone()));
        } else if fact
            .value
            .as_ref()
            .is_some_and(|value| holds_value(prepared, &said, value))
        {
            found.push(GiveAway::Value(fact.id.clone()));
        }
    }
    found
}

/// Whether `text` gives none of `facts` away.
pub fn is_clean(prepared: &PreparedRubric, text: &str, facts: &[&Fact]) -> bool {
    give_aways(prepared, text, facts).is_empty()
}

/// Whether the words hold `value`: its number as written (a bare `90` or `ninety`, whatever
/// follows it), a transponder code's digits, or any value they state that is the same
/// quantity (`two years` for 24 calendar months, a light signal or class named).
fn holds_value(prepared: &PreparedRubric, said: &ReadAnswer, value: &FactValue) -> bool {
    let number = match value {
        FactValue::Squawk { code } => code.trim().parse::<f64>().ok(),
        other => written_amount(other),
    };
    let bare = number.is_some_and(|amount| {
        said.reading
            .numbers
            .iter()
            .any(|n| (n.value - amount).abs() <= 1e-6 * amount.abs().max(1.0))
    });
    bare || value_of(value).is_some_and(|wanted| {
        said.values
            .stated(&prepared.counts, None)
            .iter()
            .any(|stated| stated.value.same_as(&wanted))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUBRIC: &str = "\
task: PA.I.A
elements:
  - element: PA.I.A.K1
    facts:
      - id: passenger-currency
        claim: Three takeoffs and three landings to carry passengers.
        source: 14 CFR 61.57(a)
        terms: [three takeoffs and landings, takeoffs and landings]
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
    satisfactory: [passenger-currency, currency-window, flight-review]
";

    fn check(text: &str, expected: &[GiveAway]) {
        let rubric = super::super::test_rubric("domains: []\n", RUBRIC, "PA.I.A.K1");
        let prepared = PreparedRubric::new(rubric.clone());
        let facts: Vec<&Fact> = rubric.facts.iter().collect();
        assert_eq!(give_aways(&prepared, text, &facts), expected, "{text:?}");
    }

    #[test]
    fn words_that_state_a_fact_or_hold_its_value_give_it_away() {
        use GiveAway::*;
        let table: [(&str, &[GiveAway]); 7] = [
            (
                "What recent experience do you need to carry passengers?",
                &[],
            ),
            (
                "How many takeoffs and landings do you need?",
                &[Credits("passenger-currency".into())],
            ),
            (
                "What about your flight review?",
                &[Credits("flight-review".into())],
            ),
            ("Is it ninety, or more?", &[Value("currency-window".into())]),
            ("What happens after 90?", &[Value("currency-window".into())]),
            ("Is it every two years?", &[Credits("flight-review".into())]),
            (
                "Is three the number?",
                &[Value("passenger-currency".into())],
            ),
        ];
        for (text, expected) in table {
            check(text, expected);
        }
    }
}
