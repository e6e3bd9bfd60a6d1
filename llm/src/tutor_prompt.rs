//! The model tutor's prompt bundle (PF-3.6), ordered so that what changes least comes first
//! and a model server can keep it as a cached prefix. llama-server reuses the longest prefix
//! it has already evaluated, and on two cores each token it must evaluate costs about 12 ms
//! before the first word (docs/benchmarks.md), so what the message changes is kept short and
//! last:
//!
//! 1. the fixed rules, as the system message: the same for every turn of a course;
//! 2. COURSE UNITS: every unit's id and title in the course's order, the same all session;
//! 3. UNIT: the target unit's anchor and its own content, the same turn after turn on one
//!    unit;
//! 4. STUDENT: a short summary, which changes when a tier or a lock does;
//! 5. CANDIDATES: the exam questions on offer, only on a turn that allows an exam;
//! 6. the turn: the POLICY JSON (with the units retrieval related the message to, by id)
//!    and what the student did.
//!
//! Other units' retrieved chunks are not sent: the reply is about the target unit, and
//! content ranked by the message could only sit in the uncached tail. Nothing in the
//! prompt comes from the model; no answer key or open question's memo is ever in it.

use serde_json::{Value, json};
use viva_core::tutor::grounding::{Anchor, GroundChunk, Grounding};
use viva_core::tutor::lite::SnapshotLite;
use viva_core::tutor::policy::{Action, Policy};

use crate::prompts::{PromptError, Prompts, Template};
use crate::tutor_reply::action_name;

/// The two messages of one tutor call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TutorPrompt {
    /// The fixed rules.
    pub system: String,
    /// This turn: the course, the unit, the student, then the policy and the input.
    pub user: String,
}

/// What the student did this turn.
#[derive(Debug, Clone, Copy)]
pub struct StudentTurn<'a> {
    /// The client event (`tutor.message`, `tutor.stuck`, …).
    pub event: &'a str,
    /// Their words, or a description of the card event.
    pub input: &'a str,
}

/// Renders the bundle for one turn.
pub fn tutor_prompt(
    prompts: &Prompts,
    course_title: &str,
    (policy, grounding, lite): (&Policy, &Grounding, &SnapshotLite),
    student: StudentTurn<'_>,
) -> Result<TutorPrompt, PromptError> {
    let limits = policy.constraints;
    let system = prompts.render(
        Template::TutorSystem,
        &json!({"course_title": course_title, "max_words": limits.max_words}),
    )?;
    let candidates = candidates_json(policy, grounding).map(|c| compact(&c));
    let user = prompts.render(
        Template::TutorTurn,
        &json!({"course_json": compact(&course_json(grounding)),
                "unit_json": compact(&unit_json(policy, grounding)),
                "student_json": compact(&student_json(lite)),
                "candidates_json": candidates.unwrap_or_default(),
                "policy_json": compact(&policy_json(policy, grounding)),
                "event": student.event, "student_input": student.input}),
    )?;
    Ok(TutorPrompt { system, user })
}

/// One line of JSON: a small model's context is short, and whitespace costs tokens.
fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Every unit of the course, by id and title.
pub fn course_json(grounding: &Grounding) -> Value {
    grounding
        .course_units
        .iter()
        .map(|unit| json!({"unit_id": unit.unit_id, "title": unit.title}))
        .collect()
}

/// The target unit: its anchor and its own chunks.
pub fn unit_json(policy: &Policy, grounding: &Grounding) -> Value {
    let anchor = grounding
        .anchors
        .iter()
        .find(|a| a.unit_id == policy.target)
        .map(anchor_json);
    let chunks: Vec<Value> = grounding
        .chunks
        .iter()
        .filter(|c| c.unit == policy.target)
        .map(chunk_json)
        .collect();
    json!({"unit": anchor, "chunks": chunks})
}

/// The student, in short.
pub fn student_json(lite: &SnapshotLite) -> Value {
    let counts = lite.counts;
    json!({
        "focus_unit": lite.focus_unit,
        "focus_tier": lite.focus_tier.as_str(),
        "prerequisite_first": lite.prerequisite_nudge,
        "revisit": lite.revisit,
        "units_by_tier": {"none": counts.none, "bronze": counts.bronze,
                          "silver": counts.silver, "gold": counts.gold},
    })
}

/// The exam candidates, only when the policy allows an exam this turn.
pub fn candidates_json(policy: &Policy, grounding: &Grounding) -> Option<Value> {
    if !policy.allowed_actions.contains(&Action::Exam) {
        return None;
    }
    let candidates = grounding.candidates.iter().map(|q| {
        json!({"question_id": q.question_id, "tier": q.tier,
               "stem": q.stem, "options": q.options})
    });
    Some(candidates.collect())
}

/// The policy as the model reads it: only what changes from turn to turn (the target is
/// the UNIT, the fixed limits are in the rules), and the other units retrieval related the
/// message to.
pub fn policy_json(policy: &Policy, grounding: &Grounding) -> Value {
    let mut json = json!({
        "stuck": policy.stuck,
        "allowed_actions": policy.allowed_actions.iter().map(|a| action_name(*a)).collect::<Vec<_>>(),
    });
    if let Some(blocker) = &policy.blocker {
        json["blocker"] = json!(blocker);
    }
    let related: Vec<&str> = grounding
        .anchors
        .iter()
        .map(|a| a.unit_id.as_str())
        .filter(|unit| *unit != policy.target)
        .collect();
    if !related.is_empty() {
        json["related_units"] = json!(related);
    }
    json
}

fn anchor_json(anchor: &Anchor) -> Value {
    json!({"unit_id": anchor.unit_id, "title": anchor.title, "anchor": anchor.anchor})
}

fn chunk_json(chunk: &GroundChunk) -> Value {
    json!({"chunk_id": chunk.chunk_id, "chunk_type": chunk.chunk_type.as_str(),
           "source": chunk.source, "section": chunk.section, "text": chunk.text})
}

#[cfg(test)]
mod tests {
    use viva_core::tutor::grounding::{Candidate, UnitTitle};
    use viva_core::tutor::lite::TierCounts;
    use viva_core::tutor::policy::CONSTRAINTS;
    use viva_core::tutor::snapshot::Tier;

    use super::*;

    fn policy() -> Policy {
        Policy {
            target: "add".into(),
            blocker: None,
            stuck: false,
            desired_exam_tier: Some(Tier::Bronze),
            exam_ready: true,
            allowed_actions: vec![Action::SocraticQuestion, Action::Drill, Action::Exam],
            scoped_units: vec!["add".into()],
            constraints: CONSTRAINTS,
        }
    }

    fn grounding() -> Grounding {
        let title = |unit_id: &str, title: &str| UnitTitle {
            unit_id: unit_id.into(),
            title: title.into(),
        };
        Grounding {
            course_units: vec![title("count", "Counting"), title("add", "Adding")],
            anchors: vec![
                Anchor {
                    unit_id: "add".into(),
                    title: "Adding".into(),
                    anchor: "Adding one-digit numbers.".into(),
                },
                Anchor {
                    unit_id: "count".into(),
                    title: "Counting".into(),
                    anchor: "Counting to twenty.".into(),
                },
            ],
            chunks: Vec::new(),
            candidates: vec![Candidate {
                question_id: "add-b1".into(),
                unit_id: "add".into(),
                tier: "bronze".into(),
                stem: "What is 4 + 3?".into(),
                options: vec!["7".into(), "6".into()],
            }],
        }
    }

    fn lite() -> SnapshotLite {
        SnapshotLite {
            focus_unit: "add".into(),
            focus_tier: Tier::None,
            prerequisite_nudge: None,
            revisit: Vec::new(),
            revisit_more: 0,
            counts: TierCounts::default(),
            locks: Vec::new(),
        }
    }

    fn render(grounding: &Grounding, policy: &Policy, input: &str) -> TutorPrompt {
        let prompts = Prompts::load(None).unwrap();
        let student = StudentTurn {
            event: "tutor.message",
            input,
        };
        tutor_prompt(
            &prompts,
            "Arithmetic",
            (policy, grounding, &lite()),
            student,
        )
        .unwrap()
    }

    #[test]
    fn the_rules_come_first_and_the_turn_carries_course_unit_student_policy_and_input() {
        let first = render(&grounding(), &policy(), "how do I add?");
        let again = render(&Grounding::default(), &policy(), "how do I add?");
        assert_eq!(
            first.system, again.system,
            "the system message is a fixed prefix"
        );
        assert!(first.system.contains("Arithmetic") && first.system.contains("170 words"));
        for expected in [
            "\"allowed_actions\"",
            "\"exam\"",
            "\"add-b1\"",
            "\"related_units\":[\"count\"]",
            "how do I add?",
            "tutor.message",
        ] {
            assert!(
                first.user.contains(expected),
                "{expected} in {}",
                first.user
            );
        }
        assert!(
            !first.user.contains("answer_index"),
            "no key reaches the model"
        );
        let at = |label: &str| first.user.find(label).unwrap();
        let order = ["COURSE UNITS", "UNIT:", "STUDENT:", "CANDIDATES", "POLICY"];
        assert!(
            order.windows(2).all(|pair| at(pair[0]) < at(pair[1])),
            "what changes least comes first: {}",
            first.user
        );
        assert!(
            at("Adding one-digit numbers.") < at("STUDENT:"),
            "the target's anchor is in the UNIT block"
        );
        assert!(
            !first.user.contains("Counting to twenty."),
            "another unit is named, not taught"
        );
    }

    #[test]
    fn what_the_message_changes_is_only_the_tail() {
        let mut quiet = policy();
        quiet.allowed_actions = vec![Action::SocraticQuestion, Action::Drill];
        let one = render(&grounding(), &quiet, "how do I add?");
        let mut other = grounding();
        other.anchors.truncate(1);
        let two = render(&other, &quiet, "what is a sum?");
        let shared = one
            .user
            .chars()
            .zip(two.user.chars())
            .take_while(|(a, b)| a == b)
            .count();
        assert!(
            !one.user.contains("CANDIDATES"),
            "no exam allowed: {}",
            one.user
        );
        assert!(
            shared >= one.user.find("POLICY").unwrap(),
            "everything before the policy is shared: {}\n{}",
            one.user,
            two.user
        );
    }
}
