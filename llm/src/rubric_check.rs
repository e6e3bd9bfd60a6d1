//! The model's fact-by-fact reading of an answer against the element's rubric, checked in
//! code before any of it counts. The model proposes a status and a verbatim quote for each
//! fact; code disposes:
//!
//! - a reply that does not parse, names a fact or misconception the rubric lacks, or was
//!   cut at the token cap is rejected (the embedded verdict stands);
//! - a quote that is not in the answer (after both are normalised: case, punctuation,
//!   spoken numbers) is no evidence, and a finding without evidence counts for nothing;
//! - a quoted "stated" must share a word with the fact it claims to state;
//! - what the embedded checks found stands: a contradiction, a misconception, a non-answer;
//!   the model can add findings with evidence, never remove one;
//! - the score is computed from the merged statuses by the same rule as the embedded
//!   judge's, never taken from the model.

use serde::Deserialize;
use serde_json::{Value, json};
use viva_blueprint::rubric::{ElementRubric, Question};
use viva_core::exam::examiner::judge::reading::Reading;
use viva_core::exam::examiner::judge::{FactStatus, RubricVerdict, score_of};

/// The fewest words a quote needs to count as evidence.
const MIN_QUOTE_WORDS: usize = 2;

/// What the model says about one fact.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactFinding {
    /// The fact's id.
    pub id: String,
    /// `stated`, `missing` or `contradicted`.
    pub status: String,
    /// The answer's words that show it.
    #[serde(default)]
    pub quote: String,
}

/// A misconception the model says the answer holds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeliefFinding {
    /// The misconception's id.
    pub id: String,
    /// The answer's words that show it.
    #[serde(default)]
    pub quote: String,
}

/// The model's whole reply.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Findings {
    /// One per fact (facts it leaves out count as missing).
    pub facts: Vec<FactFinding>,
    /// The misconceptions it says the answer holds.
    #[serde(default)]
    pub misconceptions: Vec<BeliefFinding>,
}

/// Why a reply was refused; its label is the fallback reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingsRejection {
    /// Cut at the token cap.
    Truncated,
    /// Not the JSON asked for.
    Unparseable,
    /// A fact or misconception id the rubric does not have, or a status not in the list.
    UnknownFact,
}

impl FindingsRejection {
    /// The fallback reason.
    pub fn label(self) -> &'static str {
        match self {
            FindingsRejection::Truncated => "truncated",
            FindingsRejection::Unparseable => "unparseable",
            FindingsRejection::UnknownFact => "unknown_fact",
        }
    }
}

/// The template's variables for `rubric`.
pub fn rubric_variables(rubric: &ElementRubric) -> (Value, Value) {
    let facts: Vec<Value> = rubric
        .facts
        .iter()
        .map(|f| json!({"id": f.id, "claim": one_line(&f.claim)}))
        .collect();
    let beliefs: Vec<Value> = rubric
        .misconceptions
        .iter()
        .map(|m| json!({"id": m.id, "claim": one_line(&m.claim)}))
        .collect();
    (Value::Array(facts), Value::Array(beliefs))
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The JSON schema asked of the model: statuses from the list, ids from the rubric.
pub fn findings_schema(rubric: &ElementRubric) -> Value {
    let fact_ids: Vec<&str> = rubric.facts.iter().map(|f| f.id.as_str()).collect();
    let belief_ids: Vec<&str> = rubric
        .misconceptions
        .iter()
        .map(|m| m.id.as_str())
        .collect();
    let beliefs = if belief_ids.is_empty() {
        json!({"type": "array", "maxItems": 0, "items": {"type": "object"}})
    } else {
        json!({"type": "array", "maxItems": belief_ids.len(), "items": {
            "type": "object", "additionalProperties": false, "required": ["id", "quote"],
            "properties": {"id": {"type": "string", "enum": belief_ids},
                           "quote": {"type": "string", "maxLength": 200}}}})
    };
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["facts", "misconceptions"],
        "properties": {
            "facts": {"type": "array", "maxItems": fact_ids.len(), "items": {
                "type": "object", "additionalProperties": false,
                "required": ["id", "status", "quote"],
                "properties": {
                    "id": {"type": "string", "enum": fact_ids},
                    "status": {"type": "string", "enum": ["stated", "missing", "contradicted"]},
                    "quote": {"type": "string", "maxLength": 200}}}},
            "misconceptions": beliefs
        }
    })
}

/// Parses and checks the model's reply against `rubric`.
pub fn check_findings(
    text: &str,
    truncated: bool,
    rubric: &ElementRubric,
) -> Result<Findings, FindingsRejection> {
    if truncated {
        return Err(FindingsRejection::Truncated);
    }
    let findings: Findings =
        serde_json::from_str(text.trim()).map_err(|_| FindingsRejection::Unparseable)?;
    let known_fact = |id: &str| rubric.facts.iter().any(|f| f.id == id);
    let known_belief = |id: &str| rubric.misconceptions.iter().any(|m| m.id == id);
    let statuses = ["stated", "missing", "contradicted"];
    let facts_ok = findings
        .facts
        .iter()
        .all(|f| known_fact(&f.id) && statuses.contains(&f.status.as_str()));
    if !facts_ok || !findings.misconceptions.iter().all(|m| known_belief(&m.id)) {
        return Err(FindingsRejection::UnknownFact);
    }
    Ok(findings)
}

/// The embedded verdict with the model's evidenced findings added, scored in code.
pub fn merge(
    rubric: &ElementRubric,
    asked: Option<&Question>,
    answer: &str,
    embedded: &RubricVerdict,
    findings: &Findings,
) -> RubricVerdict {
    let answer_tokens = tokens(answer);
    let evidenced = |quote: &str| is_in(&tokens(quote), &answer_tokens);
    let mut verdict = embedded.clone();
    for (id, status) in &mut verdict.facts {
        let Some(finding) = findings.facts.iter().find(|f| &f.id == id) else {
            continue;
        };
        if *status == FactStatus::Contradicted || !evidenced(&finding.quote) {
            continue;
        }
        match finding.status.as_str() {
            "contradicted" => *status = FactStatus::Contradicted,
            "stated" if *status == FactStatus::Missing && about(rubric, id, &finding.quote) => {
                *status = FactStatus::Stated;
            }
            _ => {}
        }
    }
    for belief in &findings.misconceptions {
        if evidenced(&belief.quote) && !verdict.misconceptions.contains(&belief.id) {
            verdict.misconceptions.push(belief.id.clone());
        }
    }
    verdict.score = score_of(rubric, asked, &verdict);
    verdict
}

/// The words of a text as the judge reads them (numbers as digits), in one run.
fn tokens(text: &str) -> Vec<String> {
    Reading::of(text).clauses.into_iter().flatten().collect()
}

/// Whether `quote` (at least [`MIN_QUOTE_WORDS`] words) occurs, contiguous, in `answer`.
fn is_in(quote: &[String], answer: &[String]) -> bool {
    quote.len() >= MIN_QUOTE_WORDS && answer.windows(quote.len()).any(|window| window == quote)
}

/// Whether the quote shares a content word with the fact's claim or terms.
fn about(rubric: &ElementRubric, id: &str, quote: &str) -> bool {
    let Some(fact) = rubric.facts.iter().find(|f| f.id == id) else {
        return false;
    };
    let quoted = Reading::of(quote);
    let mut vocabulary = Reading::of(&fact.claim).stems().join(" ");
    vocabulary.push(' ');
    vocabulary.push_str(&Reading::of(&fact.terms.join(". ")).stems().join(" "));
    let known: Vec<&str> = vocabulary.split_whitespace().collect();
    quoted.stems().iter().any(|stem| known.contains(stem))
}

#[cfg(test)]
mod tests {
    use viva_blueprint::library::Source;
    use viva_blueprint::rubric::RubricSet;
    use viva_core::exam::examiner::judge::judge;
    use viva_core::exam::types::Score;

    use super::*;

    fn rubric() -> ElementRubric {
        let text = "task: PA.I.A\nelements:\n  - element: PA.I.A.K1\n    facts:\n      \
            - id: currency\n        claim: Three takeoffs and landings within 90 days to carry \
            passengers.\n        source: 14 CFR 61.57(a)\n        terms: [three takeoffs and \
            landings]\n        value: {kind: count, amount: 3, of: takeoffs and landings}\n      \
            - id: review\n        claim: A flight review every 24 calendar months.\n        \
            source: 14 CFR 61.56(c)\n        terms: [flight review]\n    \
            satisfactory: [currency, review]\n    partial: {at_least: 1}\n    misconceptions:\n      \
            - id: yearly\n        claim: One landing a year keeps you current.\n        \
            terms: [landing a year]\n        correction: Three in 90 days.\n        \
            source: 14 CFR 61.57(a)\n";
        let source = Source {
            path: "r.yaml".into(),
            text: text.into(),
        };
        RubricSet::load(&[source])
            .expect("valid")
            .get("PA.I.A.K1")
            .cloned()
            .expect("rubric")
    }

    /// The reply as the model sends it: the test writes it over several lines.
    fn merged(answer: &str, reply: &str) -> RubricVerdict {
        let rubric = rubric();
        let reply = reply.split_whitespace().collect::<Vec<_>>().join(" ");
        let findings = check_findings(&reply, false, &rubric).expect("a valid reply");
        merge(
            &rubric,
            None,
            answer,
            &judge(&rubric, answer, None),
            &findings,
        )
    }

    #[test]
    fn an_evidenced_paraphrase_is_credited_and_the_score_is_computed() {
        let answer = "To take people up I need three trips around the pattern to a landing in the \
                      last ninety days, and a flight review every two years.";
        let reply = r#"{"facts": [{"id": "currency", "status": "stated", "quote": "three trips
            around the pattern to a landing in the last ninety days"}, {"id": "review",
            "status": "stated", "quote": "a flight review every two years"}],
            "misconceptions": []}"#;
        assert_eq!(judge(&rubric(), answer, None).score, Score::Partial);
        assert_eq!(merged(answer, reply).score, Score::Satisfactory);
    }

    #[test]
    fn a_quote_not_in_the_answer_is_no_evidence() {
        let answer = "I need a flight review every 24 calendar months.";
        let reply = r#"{"facts": [{"id": "currency", "status": "stated", "quote": "three
            takeoffs and landings"}, {"id": "review", "status": "stated", "quote": "flight
            review every 24 calendar months"}], "misconceptions": []}"#;
        let verdict = merged(answer, reply);
        assert_eq!(verdict.status("currency"), FactStatus::Missing);
        assert_eq!(verdict.score, Score::Partial);
    }

    #[test]
    fn the_model_cannot_clear_what_the_embedded_checks_found() {
        let answer = "One landing a year, and a flight review every 24 calendar months.";
        let reply = r#"{"facts": [{"id": "currency", "status": "stated", "quote": "One landing
            a year"}, {"id": "review", "status": "stated", "quote": "flight review every 24
            calendar months"}], "misconceptions": []}"#;
        assert_eq!(merged(answer, reply).score, Score::Unsatisfactory);
        let nothing = "I don't know";
        let reply = r#"{"facts": [{"id": "currency", "status": "stated", "quote": "I don't
            know"}], "misconceptions": []}"#;
        assert_eq!(merged(nothing, reply).score, Score::Unsatisfactory);
    }

    #[test]
    fn an_evidenced_contradiction_or_misconception_from_the_model_counts() {
        let answer = "You need a flight review every 24 calendar months and landings now and then.";
        let reply = r#"{"facts": [{"id": "currency", "status": "contradicted", "quote":
            "landings now and then"}], "misconceptions": []}"#;
        assert_eq!(merged(answer, reply).score, Score::Unsatisfactory);
    }

    #[test]
    fn unknown_ids_statuses_or_shapes_are_rejected() {
        let rubric = rubric();
        let check = |reply: &str| check_findings(reply, false, &rubric).map(|_| ());
        assert_eq!(
            check(r#"{"facts": [{"id": "nope", "status": "stated", "quote": ""}]}"#),
            Err(FindingsRejection::UnknownFact)
        );
        assert_eq!(
            check(r#"{"facts": [{"id": "review", "status": "sort of", "quote": ""}]}"#),
            Err(FindingsRejection::UnknownFact)
        );
        assert_eq!(
            check("score: satisfactory"),
            Err(FindingsRejection::Unparseable)
        );
        assert_eq!(
            check_findings("{}", true, &rubric).map(|_| ()),
            Err(FindingsRejection::Truncated)
        );
        let schema = findings_schema(&rubric);
        assert_eq!(
            schema["properties"]["facts"]["items"]["properties"]["id"]["enum"][1],
            "review"
        );
    }
}
