//! A turn under the policy: the policy over the units the student may take now, the
//! brain's proposal or a model's, validated, rendered, with the fallback when it breaks a
//! rule; and the focus moved after it.

use viva_blueprint::course::{Course, ExamTier};

use super::render::{self, debug_view, open_card, render, turn_action, unit_missing};
use super::state::{OpenCard, Turn, Tutor, TutorState};
use crate::tutor::exams::CandidateQuestion;
use crate::tutor::model::ModelProposal;
use crate::tutor::policy::{Action, Policy, TurnFacts, policy};
use crate::tutor::scope::Mapped;
use crate::tutor::snapshot::{StudentSnapshot, Tier};
use crate::tutor::validate::{fallback_action, validate};

pub(super) fn certain(unit: &str) -> Mapped {
    Mapped {
        unit: unit.to_owned(),
        confidence: 1.0,
    }
}

pub(super) fn open_drill_unit(state: &TutorState) -> Option<String> {
    match &state.open {
        Some(OpenCard::Drill { unit, .. }) => Some(unit.clone()),
        _ => None,
    }
}

/// The turn's policy: an exam counts as available when the would-be target has an unlocked
/// question at its desired tier.
pub(super) fn policy_for(
    tutor: Tutor<'_>,
    state: &TutorState,
    mapped: &[Mapped],
    now_ms: u64,
) -> Policy {
    let graph = &tutor.course.graph;
    let target = crate::tutor::policy::target(mapped, &state.snapshot, graph).to_owned();
    let desired = state.snapshot.tier(&target).next();
    let exam_available =
        desired.is_some_and(|tier| !available(tutor, state, &target, tier, now_ms).is_empty());
    let facts = TurnFacts {
        mapped,
        exam_available,
    };
    policy(&state.snapshot, graph, facts)
}

/// The exam questions of `unit` at `tier` the student may take now.
fn available<'c>(
    tutor: Tutor<'c>,
    state: &TutorState,
    unit: &str,
    tier: Tier,
    now_ms: u64,
) -> Vec<&'c str> {
    let candidates: Vec<CandidateQuestion<'c>> = tutor
        .course
        .doc
        .exam_questions
        .iter()
        .filter_map(|q| {
            Some(CandidateQuestion {
                id: &q.question_id,
                unit: &q.unit,
                tier: tier_of(q.tier)?,
            })
        })
        .collect();
    state
        .snapshot
        .available_questions(&candidates, unit, tier, now_ms)
}

pub(super) fn tier_of(tier: ExamTier) -> Option<Tier> {
    Some(match tier {
        ExamTier::Bronze => Tier::Bronze,
        ExamTier::Silver => Tier::Silver,
        ExamTier::Gold => Tier::Gold,
    })
}

/// The embedded brain's rule: what it proposes under `policy`.
fn propose(policy: &Policy) -> Action {
    if policy.blocker.is_some() {
        Action::PrerequisiteNudge
    } else if policy.stuck {
        Action::ConceptCard
    } else if policy.exam_ready {
        Action::Exam
    } else {
        Action::SocraticQuestion
    }
}

/// A turn under the policy: `wanted` (or the brain's own proposal), validated, with the
/// fallback when it breaks a rule.
pub(super) fn reply(
    tutor: Tutor<'_>,
    state: &mut TutorState,
    mapped: &[Mapped],
    wanted: Option<Action>,
    now_ms: u64,
) -> Turn {
    let policy = policy_for(tutor, state, mapped, now_ms);
    let exams = desired_available(tutor, state, &policy, now_ms);
    let modelled = tutor
        .model
        .and_then(|proposal| model_turn(tutor, state, (&policy, now_ms), &exams, proposal));
    let (rendered, model_fault) = match modelled {
        Some(Ok(rendered)) => (Some(rendered), None),
        Some(Err(fault)) => (None, Some(fault)),
        None => (None, None),
    };
    let action = wanted.unwrap_or_else(|| propose(&policy));
    let rendered = rendered.or_else(|| {
        render(
            tutor,
            state,
            (&policy, now_ms),
            action,
            exams.first().copied(),
        )
    });
    let (chosen, fallback) = match rendered
        .as_ref()
        .map(|r| validate(&r.proposal, &policy, &exams))
    {
        Some(Ok(())) => (rendered, None),
        Some(Err(violation)) => (None, Some(violation.label())),
        None => (None, Some("nothing_to_show")),
    };
    let chosen = chosen.unwrap_or_else(|| {
        let fallback = fallback_action(&policy);
        render(
            tutor,
            state,
            (&policy, now_ms),
            fallback,
            exams.first().copied(),
        )
        .or_else(|| {
            render(
                tutor,
                state,
                (&policy, now_ms),
                Action::SocraticQuestion,
                None,
            )
        })
        .unwrap_or_else(|| unit_missing(&policy.target))
    });
    let fallback = model_fault.or(fallback);
    open_card(state, &chosen);
    move_focus(
        tutor.course,
        &mut state.snapshot,
        &policy,
        chosen.proposal.action,
    );
    let debug = debug_view(state, mapped, &policy, fallback, now_ms);
    Turn {
        action: turn_action(chosen.proposal.action),
        target: policy.target.clone(),
        messages: vec![chosen.message],
        debug,
        fallback,
        outcome: None,
    }
}

pub(super) fn desired_available<'c>(
    tutor: Tutor<'c>,
    state: &TutorState,
    policy: &Policy,
    now_ms: u64,
) -> Vec<&'c str> {
    match policy.desired_exam_tier {
        Some(tier) => available(tutor, state, &policy.target, tier, now_ms),
        None => Vec::new(),
    }
}

/// The focus follows the turn's target; after a prerequisite nudge it moves to where the
/// nudge says to start instead (the target is blocked, so drills and exams there must wait).
fn move_focus(course: &Course, snapshot: &mut StudentSnapshot, policy: &Policy, action: Action) {
    if course.unit(&policy.target).is_none() {
        return;
    }
    snapshot.focus_unit = match (&policy.blocker, action) {
        (Some(blocker), Action::PrerequisiteNudge) => render::ready_unit(course, blocker, snapshot),
        _ => policy.target.clone(),
    };
}

/// The model's proposal, rendered: its action with the brain's card (cards hold the course's
/// data, never the model's words) and the model's text. A proposal for another target than
/// the policy's is not used: `model_remapped` when the model's own mapping moved the target
/// (its words were written for the old one; the brain speaks for the new one). `Err` names why it was not used;
/// `None` when the proposal's action has nothing to show here.
fn model_turn(
    tutor: Tutor<'_>,
    state: &mut TutorState,
    (policy, now_ms): (&Policy, u64),
    exams: &[&str],
    proposal: &ModelProposal,
) -> Option<Result<render::Rendered, &'static str>> {
    let offered = proposal.exam_question.as_deref();
    let checked = crate::tutor::validate::ProposedReply {
        action: proposal.action,
        target: proposal.target.clone(),
        text: proposal.text.clone(),
        exam_question: offered.map(str::to_owned),
        key_ideas: 0,
        worked_examples: 0,
        drill_steps: u32::from(proposal.action == Action::Drill),
        questions: proposal.text.matches('?').count() as u32,
    };
    if proposal.target != policy.target {
        let remapped = proposal.mapped.iter().any(|m| m.unit == policy.target);
        return Some(Err(if remapped {
            "model_remapped"
        } else {
            "model_target_not_the_policys"
        }));
    }
    if let Err(violation) = validate(&checked, policy, exams) {
        return Some(Err(model_label(violation)));
    }
    let mut rendered = render::render(tutor, state, (policy, now_ms), proposal.action, offered)?;
    rendered.message.text = proposal.text.clone();
    rendered.proposal.text = proposal.text.clone();
    Some(Ok(rendered))
}

/// `model_<rule>`: the rule a model's proposal broke, as the turn log and metrics name it.
fn model_label(violation: crate::tutor::validate::Violation) -> &'static str {
    use crate::tutor::validate::Violation::*;
    match violation {
        ActionNotAllowed => "model_action_not_allowed",
        TargetOutOfScope => "model_target_out_of_scope",
        ExamQuestionNotAvailable => "model_exam_question_not_available",
        CardNotAllowed => "model_card_not_allowed",
        TooManyKeyIdeas => "model_too_many_key_ideas",
        TooManyWorkedExamples => "model_too_many_worked_examples",
        TooManyDrillSteps => "model_too_many_drill_steps",
        TooLong => "model_too_long",
        SeveralQuestions => "model_several_questions",
    }
}
