//! The model tutor's prompt bundle (PF-3.6), ordered so that what changes least comes first
//! and a model server can keep it as a cached prefix (llama-server reuses the longest prefix
//! it has already evaluated; on two cores each token not reused costs milliseconds before
//! the first word):
//!
//! 1. the fixed rules, as the system message: the same for every turn of a course;
//! 2. the UNIT JSON: the target unit's anchor and its own content, the same turn after turn
//!    on one unit;
//! 3. the CONTEXT JSON of this turn: the other scoped units, their chunks the message
//!    retrieved, the exam candidates (only when an exam is allowed) and a short summary of
//!    the student;
//! 4. the POLICY JSON, and what the student did.
//!
//! Nothing in it comes from the model; no answer key or open question's memo is ever in it.

use serde_json::{Value, json};
use viva_core::tutor::grounding::{Anchor, GroundChunk, Grounding};
use viva_core::tutor::lite::SnapshotLite;
use viva_core::tutor::policy::Policy;

use crate::prompts::{PromptError, Prompts, Template};
use crate::tutor_reply::action_name;

/// The two messages of one tutor call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TutorPrompt {
    /// The fixed rules.
    pub system: String,
    /// This turn: policy, context, input.
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
    let user = prompts.render(
        Template::TutorTurn,
        &json!({"unit_json": compact(&unit_json(policy, grounding)),
                "context_json": compact(&context_json(policy, grounding, lite)),
                "policy_json": compact(&policy_json(policy)),
                "event": student.event, "student_input": student.input}),
    )?;
    Ok(TutorPrompt { system, user })
}

/// One line of JSON: a small model's context is short, and whitespace costs tokens.
fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The policy as the model reads it (its fixed limits are in the rules).
pub fn policy_json(policy: &Policy) -> Value {
    json!({
        "target": policy.target,
        "blocker": policy.blocker,
        "stuck": policy.stuck,
        "desired_exam_tier": policy.desired_exam_tier.map(|t| t.as_str()),
        "exam_ready": policy.exam_ready,
        "allowed_actions": policy.allowed_actions.iter().map(|a| action_name(*a)).collect::<Vec<_>>(),
    })
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

/// This turn's other retrieved context and a short summary of the student. Exam candidates
/// are sent only when the policy allows an exam this turn.
pub fn context_json(policy: &Policy, grounding: &Grounding, lite: &SnapshotLite) -> Value {
    let exam_allowed = policy
        .allowed_actions
        .contains(&viva_core::tutor::policy::Action::Exam);
    let anchors: Vec<Value> = grounding
        .anchors
        .iter()
        .filter(|a| a.unit_id != policy.target)
        .map(anchor_json)
        .collect();
    let chunks: Vec<Value> = grounding
        .chunks
        .iter()
        .filter(|c| c.unit != policy.target)
        .map(chunk_json)
        .collect();
    let candidates: Vec<Value> = grounding
        .candidates
        .iter()
        .filter(|_| exam_allowed)
        .map(|q| {
            json!({"question_id": q.question_id, "unit_id": q.unit_id, "tier": q.tier,
                   "stem": q.stem, "options": q.options})
        })
        .collect();
    let counts = lite.counts;
    json!({
        "other_units": anchors,
        "chunks": chunks,
        "candidates": candidates,
        "student": {
            "focus_unit": lite.focus_unit,
            "focus_tier": lite.focus_tier.as_str(),
            "prerequisite_first": lite.prerequisite_nudge,
            "revisit": lite.revisit,
            "units_by_tier": {"none": counts.none, "bronze": counts.bronze,
                              "silver": counts.silver, "gold": counts.gold},
        },
    })
}

fn anchor_json(anchor: &Anchor) -> Value {
    json!({"unit_id": anchor.unit_id, "title": anchor.title, "anchor": anchor.anchor})
}

fn chunk_json(chunk: &GroundChunk) -> Value {
    json!({"chunk_id": chunk.chunk_id, "unit_id": chunk.unit,
           "chunk_type": chunk.chunk_type.as_str(), "source": chunk.source,
           "section": chunk.section, "text": chunk.text})
}

#[cfg(test)]
mod tests {
    use viva_core::tutor::grounding::Candidate;
    use viva_core::tutor::lite::TierCounts;
    use viva_core::tutor::policy::{Action, CONSTRAINTS};
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
        Grounding {
            anchors: vec![Anchor {
                unit_id: "add".into(),
                title: "Adding".into(),
                anchor: "Adding one-digit numbers.".into(),
            }],
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

    #[test]
    fn the_rules_come_first_and_the_turn_carries_policy_context_and_input() {
        let prompts = Prompts::load(None).unwrap();
        let student = StudentTurn {
            event: "tutor.message",
            input: "how do I add?",
        };
        let first = tutor_prompt(
            &prompts,
            "Arithmetic",
            (&policy(), &grounding(), &lite()),
            student,
        )
        .unwrap();
        let again = tutor_prompt(
            &prompts,
            "Arithmetic",
            (&policy(), &Grounding::default(), &lite()),
            student,
        )
        .unwrap();
        assert_eq!(
            first.system, again.system,
            "the system message is a fixed prefix"
        );
        assert!(first.system.contains("Arithmetic") && first.system.contains("170 words"));
        for expected in [
            "\"allowed_actions\"",
            "\"exam\"",
            "\"add-b1\"",
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
        assert!(
            at("UNIT") < at("CONTEXT") && at("CONTEXT") < at("POLICY"),
            "what changes least comes first: {}",
            first.user
        );
        assert!(
            first.user.find("Adding one-digit numbers.") < Some(at("CONTEXT")),
            "the target's anchor is in the UNIT block"
        );
    }
}
