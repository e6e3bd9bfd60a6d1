//! The embedded tutor brain (the default with no LLM): one student input in, one tutor turn
//! out. A message is mapped to units by retrieval; the policy is computed; the brain
//! proposes an action by a fixed rule (a prerequisite nudge when the target is blocked, a
//! concept card when the student is stuck, an exam when ready, else a Socratic question);
//! the proposal is validated like any model's would be, and replaced by the fallback if it
//! breaks a rule. Card events (drill checks, exam answers, memos) are graded here too.
//!
//! Pure: the caller passes the time and keeps the state.

mod grading;
mod render;
#[cfg(test)]
mod tests;

use grading::{check_open_drill, memo_viewed, stuck, submit_exam};
pub use grading::{countdown, move_focus_on};
use render::{debug_view, open_card, render, turn_action, unit_missing};

use viva_blueprint::course::{Course, ExamTier};
use viva_blueprint::library::BlueprintLibrary;
use viva_protocol::ErrorCode;
use viva_protocol::tutor::{PolicyDebug, TimelineMessage, TurnAction};

use crate::base::AnswerInput;
use crate::base::Refusal;
use crate::exam::acs::AcsLibrary;
use crate::examiner::ExaminerAssessment;
use crate::tutor::drawn::DrillQuestion;
use crate::tutor::exams::CandidateQuestion;
use crate::tutor::grounding::CourseGrounding;
use crate::tutor::library::TutorSettings;
use crate::tutor::lite::snapshot_lite;
use crate::tutor::model::{ModelProposal, ModelTurnRequest};
use crate::tutor::policy::{Action, Policy, TARGET_CONFIDENCE, TurnFacts, policy};
use crate::tutor::retrieval::UnitIndex;
use crate::tutor::scope::{Mapped, merge_mapping};
use crate::tutor::snapshot::{StudentSnapshot, Tier};
use crate::tutor::validate::{fallback_action, validate};

/// What the brain reads.
#[derive(Clone, Copy)]
pub struct Tutor<'a> {
    /// The course.
    pub course: &'a Course,
    /// Its retrieval index.
    pub index: &'a UnitIndex,
    /// Skill blueprints (skill drills).
    pub blueprints: &'a BlueprintLibrary,
    /// ACS rubrics (rubric drills).
    pub acs: &'a AcsLibrary,
    /// Lockout and debug view.
    pub settings: TutorSettings,
    /// A model's proposal for this turn, if one was asked for and came back.
    pub model: Option<&'a ModelProposal>,
    /// The examiner's verdict on the open rubric drill's answer, if the session asked for
    /// one (a model is configured); it decides right or wrong.
    pub verdict: Option<&'a ExaminerAssessment>,
}

/// A card waiting for the student.
// allow: a session holds at most one open card; boxing the drill would only add a pointer.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum OpenCard {
    /// A drill to check.
    Drill {
        /// `d<n>`.
        drill_id: String,
        /// The unit.
        unit: String,
        /// The tier drilled.
        tier: Tier,
        /// The question (with its key).
        question: DrillQuestion,
    },
    /// An exam question to submit.
    Exam {
        /// The course's question id.
        question_id: String,
    },
}

/// What the student did.
#[derive(Debug, Clone, PartialEq)]
pub enum TutorInput {
    /// The session opened: the tutor greets on the focus unit.
    Opening,
    /// A message, typed or spoken.
    Message(String),
    /// `REQUEST_DRILL`, on a unit or the focus.
    RequestDrill(Option<String>),
    /// An answer to the open drill.
    DrillCheck {
        /// The drill it answers, when the client named it.
        drill_id: Option<String>,
        /// The answer.
        answer: AnswerInput,
    },
    /// "I'm stuck".
    Stuck,
    /// "Try another".
    TryAnother,
    /// `DRILL_CONTINUE`.
    DrillContinue,
    /// An answer to the open exam question.
    ExamSubmit {
        /// The question.
        question_id: String,
        /// The option chosen.
        index: u32,
    },
    /// The student opened a question's memo.
    MemoViewed {
        /// The question.
        question_id: String,
    },
    /// `EXAM_CONTINUE`.
    ExamContinue,
}

/// Running counts of a session, for its result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Drills checked.
    pub drills_checked: u32,
    /// Drills right.
    pub drills_right: u32,
    /// Exam answers submitted.
    pub exams_taken: u32,
    /// Exam answers that earned a tier.
    pub exams_passed: u32,
    /// Tiers earned, in order.
    pub tiers_earned: Vec<(String, Tier)>,
}

/// A tutoring session's state, beside its lifecycle.
#[derive(Debug, Clone, PartialEq)]
pub struct TutorState {
    /// The student's snapshot.
    pub snapshot: StudentSnapshot,
    /// The card waiting for the student.
    pub open: Option<OpenCard>,
    /// The session's seed; drill `n` is generated from it and `n`.
    pub seed: u64,
    /// Drills drawn so far.
    pub drills_drawn: u32,
    /// The last exam question answered right (its memo then locks nothing).
    pub last_passed: Option<String>,
    /// The last exam question answered or whose memo closed its card: the one whose result
    /// the student sees, and so the only one besides the open card whose memo may be viewed.
    pub last_answered: Option<String>,
    /// Counts for the result.
    pub tally: Tally,
}

impl TutorState {
    /// A new session's state for `snapshot` (stored, or a cold start), drawing drills from
    /// `seed`.
    pub fn new(snapshot: StudentSnapshot, seed: u64) -> TutorState {
        TutorState {
            snapshot,
            open: None,
            seed,
            drills_drawn: 0,
            last_passed: None,
            last_answered: None,
            tally: Tally::default(),
        }
    }
}

/// One tutor turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// What the tutor did.
    pub action: TurnAction,
    /// The unit it is about.
    pub target: String,
    /// Its timeline messages.
    pub messages: Vec<TimelineMessage>,
    /// The policy behind it (sent only in development mode).
    pub debug: PolicyDebug,
    /// Why a proposal was replaced, when it was.
    pub fallback: Option<&'static str>,
    /// Right or wrong, for a checked card.
    pub outcome: Option<&'static str>,
}

/// Takes one input; a refusal changes nothing.
pub fn take_turn(
    tutor: Tutor<'_>,
    state: &mut TutorState,
    input: TutorInput,
    now_ms: u64,
) -> Result<Turn, Refusal> {
    state.snapshot.expire_locks(now_ms);
    match input {
        TutorInput::Opening => Ok(reply(tutor, state, &[], None, now_ms)),
        TutorInput::Message(text) => {
            let model_mapped = tutor.model.map_or(&[][..], |p| p.mapped.as_slice());
            let mapped = merge_mapping(
                &tutor.index.map(&text, &state.snapshot.focus_unit),
                model_mapped,
                TARGET_CONFIDENCE,
            );
            Ok(reply(tutor, state, &mapped, None, now_ms))
        }
        TutorInput::RequestDrill(unit) => {
            let unit = unit.unwrap_or_else(|| state.snapshot.focus_unit.clone());
            require_unit(tutor.course, &unit)?;
            let mapped = [certain(&unit)];
            Ok(reply(tutor, state, &mapped, Some(Action::Drill), now_ms))
        }
        TutorInput::DrillCheck { drill_id, answer } => {
            check_open_drill(tutor, state, drill_id.as_deref(), &answer, now_ms)
        }
        TutorInput::Stuck => Ok(stuck(tutor, state, now_ms)),
        TutorInput::TryAnother => {
            let unit = open_drill_unit(state).unwrap_or_else(|| state.snapshot.focus_unit.clone());
            state.open = None;
            Ok(reply(
                tutor,
                state,
                &[certain(&unit)],
                Some(Action::Drill),
                now_ms,
            ))
        }
        TutorInput::DrillContinue | TutorInput::ExamContinue => {
            let focus = state.snapshot.focus_unit.clone();
            let next = continue_action(tutor, state, &focus, now_ms);
            Ok(reply(tutor, state, &[certain(&focus)], Some(next), now_ms))
        }
        TutorInput::ExamSubmit { question_id, index } => {
            submit_exam(tutor, state, &question_id, index, now_ms)
        }
        TutorInput::MemoViewed { question_id } => memo_viewed(tutor, state, &question_id, now_ms),
    }
}

pub(super) fn certain(unit: &str) -> Mapped {
    Mapped {
        unit: unit.to_owned(),
        confidence: 1.0,
    }
}

fn require_unit(course: &Course, unit: &str) -> Result<(), Refusal> {
    match course.unit(unit) {
        Some(_) => Ok(()),
        None => Err(Refusal::new(
            ErrorCode::InvalidField,
            format!(
                "unit_id: the course has no unit {}",
                viva_protocol::excerpt::quoted(unit)
            ),
        )),
    }
}

pub(super) fn open_drill_unit(state: &TutorState) -> Option<String> {
    match &state.open {
        Some(OpenCard::Drill { unit, .. }) => Some(unit.clone()),
        _ => None,
    }
}

/// After a result: an exam when ready, else another drill.
fn continue_action(tutor: Tutor<'_>, state: &TutorState, unit: &str, now_ms: u64) -> Action {
    let policy = policy_for(tutor, state, &[certain(unit)], now_ms);
    if policy.exam_ready {
        Action::Exam
    } else {
        Action::Drill
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
    let target = super::policy::target(mapped, &state.snapshot, graph).to_owned();
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

fn desired_available<'c>(
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
    let checked = super::validate::ProposedReply {
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
fn model_label(violation: super::validate::Violation) -> &'static str {
    use super::validate::Violation::*;
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

/// What a model tutor is asked for a message: the policy the message leads to (the brain's
/// own mapping), the grounding retrieved for it, and the bounds of the reply. Its `turn` is
/// 0: a session sets the number the turn will have.
pub fn model_request(
    tutor: Tutor<'_>,
    state: &TutorState,
    grounding: &CourseGrounding,
    message: &str,
    now_ms: u64,
) -> ModelTurnRequest {
    let mapped = tutor.index.map(message, &state.snapshot.focus_unit);
    let policy = policy_for(tutor, state, &mapped, now_ms);
    let available = desired_available(tutor, state, &policy, now_ms);
    let context = (tutor.course, tutor.index);
    let grounding = grounding.ground(context, message, &policy, (&state.snapshot, now_ms));
    let units = tutor.course.unit_ids();
    let lite = snapshot_lite(&state.snapshot, &tutor.course.graph, &units, now_ms);
    ModelTurnRequest {
        turn: 0,
        course_title: tutor.course.doc.title.clone(),
        available: available.into_iter().map(str::to_owned).collect(),
        policy,
        grounding,
        lite,
        event: "tutor.message".to_owned(),
        input: message.to_owned(),
    }
}
