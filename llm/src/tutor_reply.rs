//! The model tutor's reply, held to the turn's policy in code (PF-3.6.6, PF-3.7). The model
//! proposes; code disposes:
//!
//! - the response format is a JSON schema built from this turn's policy — allowed actions,
//!   scoped unit ids and the available exam questions as enums — so a model that honours
//!   schemas cannot even write a forbidden action;
//! - whatever comes back is checked again here: a reply cut at the token cap, unparseable
//!   JSON, unknown fields or an unknown action is rejected; an empty text is rejected; a
//!   Socratic question or a nudge carrying card content is rejected; then every rule of the
//!   policy ([`viva_core::tutor::validate::validate`]) — allowed action, scoped target, an
//!   exam question from the candidates at the desired tier and not locked, a concept card
//!   only when stuck with at most 3 key ideas and 1 worked example, 170 words, one question;
//! - the units the model maps the message to feed the policy only through code: unknown
//!   units are dropped, confidences clamped to [0, 1], a confidence that is not a number
//!   dropped.
//!
//! A rejection names its reason; the caller uses the embedded brain's turn instead, with no
//! retry, and counts and logs the reason.

use serde::Deserialize;
use serde_json::{Value, json};
use viva_core::tutor::policy::{Action, Policy};
use viva_core::tutor::scope::Mapped;
use viva_core::tutor::validate::{ProposedReply, Violation, validate};

use crate::json_stream::{FieldStream, complete_value};

/// Longest key idea accepted, in characters.
pub const MAX_KEY_IDEA: usize = 240;
/// Most units a reply may map the message to.
pub const MAX_MAPPED: usize = 3;
/// Longest text the schema lets a model write, in characters (the policy's word limit is
/// checked in code).
pub const MAX_TEXT: usize = 1200;

/// What this turn allows the model to say.
#[derive(Debug, Clone, Copy)]
pub struct TurnBounds<'a> {
    /// The turn's policy.
    pub policy: &'a Policy,
    /// Every unit id of the course (what `mapped_units` may name).
    pub course_units: &'a [String],
    /// The exam questions available at the desired tier (what an exam reply may offer).
    pub available: &'a [&'a str],
}

/// A checked reply.
#[derive(Debug, Clone, PartialEq)]
pub struct TutorReply {
    /// What it proposes, as the policy checked it.
    pub proposal: ProposedReply,
    /// A concept card's key ideas, in the model's words.
    pub key_ideas: Vec<String>,
    /// A concept card's worked example.
    pub worked_example: Option<String>,
    /// The units the model mapped the message to, cleaned.
    pub mapped: Vec<Mapped>,
}

/// Why a reply was not used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TutorRejection {
    /// The reply stopped at the token cap.
    #[error("truncated at the token cap")]
    Truncated,
    /// Not the JSON asked for.
    #[error("unparseable: {0}")]
    Unparseable(String),
    /// An action the protocol does not have.
    #[error("unknown action {0:?}")]
    UnknownAction(String),
    /// No words.
    #[error("empty text")]
    EmptyText,
    /// Card content (key ideas, a worked example) on a reply that has no card.
    #[error("card content on a {0} reply")]
    CardOnPlainReply(&'static str),
    /// A key idea longer than allowed.
    #[error("key idea too long")]
    KeyIdeaTooLong,
    /// The text recites the prompt (its block names or field names).
    #[error("the text recites the prompt")]
    RecitesPrompt,
    /// A rule of the policy.
    #[error("{0}")]
    Policy(Violation),
}

/// The prompt's own words, which a student is never meant to see: a text that writes one
/// is reciting its instructions (seen: a 0.5B model answered "what should I practise next"
/// with the rules, word for word).
const PROMPT_WORDS: [&str; 7] = [
    "POLICY",
    "CANDIDATES",
    "COURSE UNITS",
    "allowed_actions",
    "mapped_units",
    "related_units",
    "question_id",
];

fn recites_prompt(text: &str) -> bool {
    PROMPT_WORDS.iter().any(|word| text.contains(word))
}

impl TutorRejection {
    /// A stable label, for the turn log and metrics.
    pub fn label(&self) -> &'static str {
        match self {
            TutorRejection::Truncated => "truncated",
            TutorRejection::Unparseable(_) => "unparseable",
            TutorRejection::UnknownAction(_) => "unknown_action",
            TutorRejection::EmptyText => "empty_text",
            TutorRejection::CardOnPlainReply(_) => "card_on_plain_reply",
            TutorRejection::KeyIdeaTooLong => "key_idea_too_long",
            TutorRejection::RecitesPrompt => "recites_prompt",
            TutorRejection::Policy(violation) => violation.label(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    action: String,
    #[serde(default)]
    target_unit: Option<String>,
    text: String,
    #[serde(default)]
    exam_question_id: Option<String>,
    #[serde(default)]
    key_ideas: Vec<String>,
    #[serde(default)]
    worked_example: Option<String>,
    #[serde(default)]
    mapped_units: Vec<RawMapped>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMapped {
    unit_id: String,
    confidence: f64,
}

/// The wire name of each action the policy knows.
pub fn action_name(action: Action) -> &'static str {
    match action {
        Action::SocraticQuestion => "socratic_question",
        Action::Drill => "drill",
        Action::ConceptCard => "concept_card",
        Action::PrerequisiteNudge => "prerequisite_nudge",
        Action::Exam => "exam",
    }
}

fn action_named(name: &str) -> Option<Action> {
    [
        Action::SocraticQuestion,
        Action::Drill,
        Action::ConceptCard,
        Action::PrerequisiteNudge,
        Action::Exam,
    ]
    .into_iter()
    .find(|action| action_name(*action) == name)
}

/// Checks a model's reply (`truncated` when it stopped at the token cap).
pub fn check_tutor_reply(
    reply: &str,
    truncated: bool,
    bounds: TurnBounds<'_>,
) -> Result<TutorReply, TutorRejection> {
    if truncated {
        return Err(TutorRejection::Truncated);
    }
    let raw: Raw = serde_json::from_str(reply.trim())
        .map_err(|err| TutorRejection::Unparseable(err.to_string()))?;
    let action = action_named(&raw.action)
        .ok_or_else(|| TutorRejection::UnknownAction(raw.action.clone()))?;
    let text = raw.text.trim().to_owned();
    if text.is_empty() {
        return Err(TutorRejection::EmptyText);
    }
    if recites_prompt(&text) {
        return Err(TutorRejection::RecitesPrompt);
    }
    let has_card = !raw.key_ideas.is_empty() || raw.worked_example.is_some();
    if has_card && action != Action::ConceptCard {
        return Err(TutorRejection::CardOnPlainReply(action_name(action)));
    }
    if raw
        .key_ideas
        .iter()
        .any(|idea| idea.chars().count() > MAX_KEY_IDEA)
    {
        return Err(TutorRejection::KeyIdeaTooLong);
    }
    let proposal = ProposedReply {
        action,
        target: raw
            .target_unit
            .clone()
            .unwrap_or_else(|| bounds.policy.target.clone()),
        questions: text.matches('?').count() as u32,
        text,
        exam_question: raw.exam_question_id.clone(),
        key_ideas: raw.key_ideas.len() as u32,
        worked_examples: u32::from(raw.worked_example.is_some()),
        drill_steps: u32::from(action == Action::Drill),
    };
    validate(&proposal, bounds.policy, bounds.available).map_err(TutorRejection::Policy)?;
    Ok(TutorReply {
        proposal,
        key_ideas: raw.key_ideas,
        worked_example: raw.worked_example,
        mapped: cleaned(raw.mapped_units, bounds.course_units),
    })
}

/// Why a reply that is still arriving cannot be used, as soon as what it has written shows
/// it: an action that is unknown or not allowed, a target out of scope, an exam question
/// that is not available. `None` while nothing written so far breaks the policy. The stream
/// is dropped at once on a refusal (nothing more is shown, and the brain's turn follows
/// without waiting for the rest).
pub fn refused_so_far(raw: &str, bounds: TurnBounds<'_>) -> Option<TutorRejection> {
    let mut text = FieldStream::new("text");
    text.push(raw);
    if recites_prompt(&text.text()) {
        return Some(TutorRejection::RecitesPrompt);
    }
    if let Some(action) = complete_value(raw, "action") {
        match action_named(&action) {
            None => return Some(TutorRejection::UnknownAction(action)),
            Some(action) if !bounds.policy.allowed_actions.contains(&action) => {
                return Some(TutorRejection::Policy(Violation::ActionNotAllowed));
            }
            Some(_) => {}
        }
    }
    if complete_value(raw, "target_unit")
        .is_some_and(|target| !bounds.policy.scoped_units.contains(&target))
    {
        return Some(TutorRejection::Policy(Violation::TargetOutOfScope));
    }
    complete_value(raw, "exam_question_id")
        .filter(|id| !bounds.available.contains(&id.as_str()))
        .map(|_| TutorRejection::Policy(Violation::ExamQuestionNotAvailable))
}

/// The model's mapping, as the policy may read it: known units only, at most
/// [`MAX_MAPPED`], confidences clamped, not-a-number dropped.
fn cleaned(mapped: Vec<RawMapped>, course_units: &[String]) -> Vec<Mapped> {
    mapped
        .into_iter()
        .filter(|m| course_units.contains(&m.unit_id) && !m.confidence.is_nan())
        .take(MAX_MAPPED)
        .map(|m| Mapped {
            unit: m.unit_id,
            confidence: m.confidence.clamp(0.0, 1.0),
        })
        .collect()
}

/// The response format asked of the model for this turn: one branch per allowed action
/// (`anyOf`), each naming its action as a constant, with only the fields that action may
/// carry: an exam names one of the available questions, and no branch has card content (a
/// card's key ideas and worked example come from the course's data, never from the model).
/// The target is not asked for: it is the policy's, decided in code (a reply that names
/// another is refused). A model that honours schemas can write nothing this turn forbids.
/// The text comes first, so the student's first word is not kept waiting behind the
/// fields before it (each token costs tens of milliseconds on a small CPU).
pub fn tutor_schema(bounds: TurnBounds<'_>) -> Value {
    let branches: Vec<Value> = bounds
        .policy
        .allowed_actions
        .iter()
        .filter(|action| **action != Action::Exam || !bounds.available.is_empty())
        .map(|action| action_branch(*action, bounds))
        .collect();
    json!({"anyOf": branches})
}

fn action_branch(action: Action, bounds: TurnBounds<'_>) -> Value {
    let mut properties = serde_json::Map::new();
    properties.insert(
        "text".into(),
        json!({"type": "string", "minLength": 1, "maxLength": MAX_TEXT}),
    );
    properties.insert("action".into(), json!({"const": action_name(action)}));
    if action == Action::Exam {
        properties.insert(
            "exam_question_id".into(),
            json!({"type": "string", "enum": bounds.available}),
        );
    }
    properties.insert(
        "mapped_units".into(),
        json!({"type": "array", "maxItems": MAX_MAPPED, "items": {
            "type": "object", "additionalProperties": false,
            "required": ["unit_id", "confidence"],
            "properties": {
                "unit_id": {"type": "string", "enum": bounds.course_units},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1}
            }
        }}),
    );
    let required: Vec<&String> = properties.keys().collect();
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": properties,
    })
}

#[cfg(test)]
mod tests {
    use viva_core::tutor::policy::CONSTRAINTS;
    use viva_core::tutor::snapshot::Tier;

    use super::*;

    fn policy(allowed: &[Action], stuck: bool) -> Policy {
        Policy {
            target: "add".into(),
            blocker: None,
            stuck,
            desired_exam_tier: Some(Tier::Bronze),
            exam_ready: allowed.contains(&Action::Exam),
            allowed_actions: allowed.to_vec(),
            scoped_units: vec!["add".into(), "sub".into()],
            constraints: CONSTRAINTS,
        }
    }

    fn units() -> Vec<String> {
        ["add", "sub", "mul"].map(String::from).to_vec()
    }

    fn check(reply: Value, policy: &Policy) -> Result<TutorReply, TutorRejection> {
        let units = units();
        let bounds = TurnBounds {
            policy,
            course_units: &units,
            available: &["add-b1", "add-b2"],
        };
        check_tutor_reply(&reply.to_string(), false, bounds)
    }

    fn socratic() -> Value {
        json!({"action": "socratic_question", "target_unit": "add", "text": "What is 3 + 4?",
               "exam_question_id": null, "key_ideas": [], "worked_example": null,
               "mapped_units": [{"unit_id": "add", "confidence": 0.9}]})
    }

    #[test]
    fn a_reply_within_the_policy_is_used_with_its_mapping_cleaned() {
        let open = policy(&[Action::SocraticQuestion, Action::Drill], false);
        let mut reply = socratic();
        reply["mapped_units"] = json!([
            {"unit_id": "add", "confidence": 1.7},
            {"unit_id": "nope", "confidence": 0.9},
            {"unit_id": "sub", "confidence": -2.0}
        ]);
        let checked = check(reply, &open).unwrap();
        assert_eq!(checked.proposal.action, Action::SocraticQuestion);
        let mapped: Vec<(&str, f64)> = checked
            .mapped
            .iter()
            .map(|m| (m.unit.as_str(), m.confidence))
            .collect();
        assert_eq!(mapped, [("add", 1.0), ("sub", 0.0)]);
    }

    /// Every fault a model can make, each with its reason.
    #[test]
    fn every_rule_has_its_rejection() {
        let open = policy(
            &[Action::SocraticQuestion, Action::Drill, Action::Exam],
            false,
        );
        let stuck = policy(&[Action::SocraticQuestion, Action::ConceptCard], true);
        let with = |field: &str, value: Value| {
            let mut reply = socratic();
            reply[field] = value;
            reply
        };
        let cases: Vec<(Value, &Policy, &str)> = vec![
            (json!({"garbage": true}), &open, "unparseable"),
            (with("action", json!("lecture")), &open, "unknown_action"),
            (with("text", json!("   ")), &open, "empty_text"),
            (
                with("key_ideas", json!(["x"])),
                &open,
                "card_on_plain_reply",
            ),
            (
                with("action", json!("concept_card")),
                &open,
                "action_not_allowed",
            ),
            (
                with("target_unit", json!("mul")),
                &open,
                "target_out_of_scope",
            ),
            (
                with("action", json!("exam")),
                &open,
                "exam_question_not_available",
            ),
            (
                json!({"action": "exam", "target_unit": "add", "text": "Try it.",
                       "exam_question_id": "add-b9", "key_ideas": [], "worked_example": null,
                       "mapped_units": []}),
                &open,
                "exam_question_not_available",
            ),
            (with("text", json!("Why? How?")), &open, "several_questions"),
            (with("text", json!("word ".repeat(171))), &open, "too_long"),
            (
                json!({"action": "concept_card", "target_unit": "add", "text": "Ideas.",
                       "exam_question_id": null, "key_ideas": ["a", "b", "c", "d"],
                       "worked_example": null, "mapped_units": []}),
                &stuck,
                "too_many_key_ideas",
            ),
            (
                json!({"action": "concept_card", "target_unit": "add", "text": "Ideas.",
                       "exam_question_id": null, "key_ideas": ["x".repeat(300)],
                       "worked_example": null, "mapped_units": []}),
                &stuck,
                "key_idea_too_long",
            ),
        ];
        for (reply, policy, label) in cases {
            let rejection = check(reply.clone(), policy).unwrap_err();
            assert_eq!(rejection.label(), label, "{reply}: {rejection}");
        }
        let units = units();
        let bounds = TurnBounds {
            policy: &open,
            course_units: &units,
            available: &[],
        };
        let cut = check_tutor_reply(&socratic().to_string(), true, bounds);
        assert_eq!(cut.unwrap_err(), TutorRejection::Truncated);
    }

    #[test]
    fn an_exam_offers_only_an_available_question_and_a_card_only_when_stuck() {
        let ready = policy(&[Action::SocraticQuestion, Action::Exam], false);
        let exam = json!({"action": "exam", "target_unit": "add", "text": "Ready?",
                          "exam_question_id": "add-b2", "key_ideas": [], "worked_example": null,
                          "mapped_units": []});
        assert_eq!(
            check(exam, &ready)
                .unwrap()
                .proposal
                .exam_question
                .as_deref(),
            Some("add-b2")
        );
        let stuck = policy(&[Action::SocraticQuestion, Action::ConceptCard], true);
        let card = json!({"action": "concept_card", "target_unit": "add", "text": "Key ideas.",
                          "exam_question_id": null, "key_ideas": ["Count on.", "Make ten."],
                          "worked_example": "8 + 5 = 10 + 3", "mapped_units": []});
        let checked = check(card, &stuck).unwrap();
        assert_eq!(
            (checked.key_ideas.len(), checked.worked_example.is_some()),
            (2, true)
        );
    }

    #[test]
    fn the_schema_names_only_what_this_turn_allows() {
        let ready = policy(&[Action::SocraticQuestion, Action::Exam], false);
        let units = units();
        let bounds = TurnBounds {
            policy: &ready,
            course_units: &units,
            available: &["add-b1"],
        };
        let branches = tutor_schema(bounds)["anyOf"].as_array().unwrap().clone();
        let actions: Vec<&Value> = branches
            .iter()
            .map(|b| &b["properties"]["action"]["const"])
            .collect();
        assert_eq!(actions, [&json!("socratic_question"), &json!("exam")]);
        for branch in &branches {
            let props = &branch["properties"];
            assert!(props.get("target_unit").is_none(), "the target is code's");
            assert!(props.get("key_ideas").is_none(), "no card content, ever");
            assert_eq!(
                props["mapped_units"]["items"]["properties"]["unit_id"]["enum"],
                json!(units)
            );
            let names: Vec<&str> = props
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(names.first(), Some(&"text"), "the words come first");
            assert_eq!(branch["required"].as_array().unwrap().len(), names.len());
        }
        assert!(branches[0]["properties"].get("exam_question_id").is_none());
        assert_eq!(
            branches[1]["properties"]["exam_question_id"]["enum"],
            json!(["add-b1"])
        );
        let none_left = TurnBounds {
            available: &[],
            ..bounds
        };
        assert_eq!(
            tutor_schema(none_left)["anyOf"].as_array().unwrap().len(),
            1,
            "no exam branch without a question to offer"
        );
    }

    #[test]
    fn a_streaming_reply_is_refused_as_soon_as_it_breaks_the_policy() {
        let ready = policy(&[Action::SocraticQuestion, Action::Exam], false);
        let units = units();
        let bounds = TurnBounds {
            policy: &ready,
            course_units: &units,
            available: &["add-b1"],
        };
        let table = [
            (r#"{"text": "What is 3 + 4?", "acti"#, None),
            (r#"{"text": "Hi", "action": "socratic_question""#, None),
            (
                r#"{"text": "Hi", "action": "drill""#,
                Some("action_not_allowed"),
            ),
            (r#"{"action": "lecture", "text": "#, Some("unknown_action")),
            (
                r#"{"action": "socratic_question", "target_unit": "mul""#,
                Some("target_out_of_scope"),
            ),
            (r#"{"action": "exam", "exam_question_id": "add-b"#, None),
            (
                r#"{"action": "exam", "exam_question_id": "add-b7""#,
                Some("exam_question_not_available"),
            ),
            (r#"{"action": "exam", "exam_question_id": "add-b1""#, None),
            (
                r#"{"text": "Here are the rules: 1. Choose one of POLICY.allowed"#,
                Some("recites_prompt"),
            ),
            (r#"{"text": "Your insurance policy", "action": "#, None),
        ];
        for (raw, expected) in table {
            let label = refused_so_far(raw, bounds).map(|rejection| rejection.label());
            assert_eq!(label, expected, "{raw}");
        }
    }

    #[test]
    fn a_reply_without_a_target_is_the_policys() {
        let open = policy(&[Action::SocraticQuestion], false);
        let reply = json!({"text": "What is 3 + 4?", "action": "socratic_question",
                           "mapped_units": []});
        assert_eq!(check(reply, &open).unwrap().proposal.target, "add");
    }
}
