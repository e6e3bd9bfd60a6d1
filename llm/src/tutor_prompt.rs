//! The model tutor's prompt bundle (PF-3.6): the fixed rules as the system message (the same
//! for every turn of a course, so providers can cache it as a prefix), then one user message
//! with the POLICY JSON and the CONTEXT JSON the backend built, and what the student did.
//! Nothing in it comes from the model; no answer key or open question's memo is ever in it.

use serde_json::{Value, json};
use viva_core::tutor::grounding::Grounding;
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
        &json!({"course_title": course_title, "max_words": limits.max_words,
                "max_key_ideas": limits.max_key_ideas}),
    )?;
    let user = prompts.render(
        Template::TutorTurn,
        &json!({"policy_json": compact(&policy_json(policy)),
                "context_json": compact(&context_json(policy, grounding, lite)),
                "event": student.event, "student_input": student.input}),
    )?;
    Ok(TutorPrompt { system, user })
}

/// One line of JSON: a small model's context is short, and whitespace costs tokens.
fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The policy as the model reads it.
pub fn policy_json(policy: &Policy) -> Value {
    let limits = policy.constraints;
    json!({
        "target": policy.target,
        "blocker": policy.blocker,
        "stuck": policy.stuck,
        "desired_exam_tier": policy.desired_exam_tier.map(|t| t.as_str()),
        "exam_ready": policy.exam_ready,
        "allowed_actions": policy.allowed_actions.iter().map(|a| action_name(*a)).collect::<Vec<_>>(),
        "scoped_units": policy.scoped_units,
        "constraints": {"max_words": limits.max_words,
                        "max_worked_examples": limits.max_worked_examples,
                        "max_drill_steps": limits.max_drill_steps,
                        "max_key_ideas": limits.max_key_ideas},
    })
}

/// The retrieved context and a short summary of the student. Exam candidates are sent only
/// when the policy allows an exam this turn.
pub fn context_json(policy: &Policy, grounding: &Grounding, lite: &SnapshotLite) -> Value {
    let exam_allowed = policy
        .allowed_actions
        .contains(&viva_core::tutor::policy::Action::Exam);
    let anchors: Vec<Value> = grounding
        .anchors
        .iter()
        .map(|a| json!({"unit_id": a.unit_id, "title": a.title, "anchor": a.anchor}))
        .collect();
    let chunks: Vec<Value> = grounding
        .chunks
        .iter()
        .map(|c| {
            json!({"chunk_id": c.chunk_id, "unit_id": c.unit, "chunk_type": c.chunk_type.as_str(),
                   "source": c.source, "section": c.section, "text": c.text})
        })
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
        "anchors": anchors,
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

#[cfg(test)]
mod tests {
    use viva_core::tutor::grounding::{Anchor, Candidate};
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
        assert!(first.user.find("POLICY") < first.user.find("CONTEXT"));
    }
}
