//! Rendering an action into its message and card, what it proposes for validation, and the
//! policy debug view.

use viva_blueprint::course::{Course, ExamQuestion};
use viva_protocol::tutor::{Card, LockShown, PolicyDebug, ScoredUnit, TimelineMessage, TurnAction};

use super::state::{OpenCard, Tutor, TutorState};
use crate::tutor::cards;
use crate::tutor::drawn::draw_drill;
use crate::tutor::graph::first_blocker;
use crate::tutor::policy::{Action, Policy};
use crate::tutor::priority::{PriorityInputs, priority};
use crate::tutor::scope::Mapped;
use crate::tutor::snapshot::StudentSnapshot;
use crate::tutor::validate::ProposedReply;

/// A rendered action: its message, what it proposes (for validation), what it opens.
pub(super) struct Rendered {
    pub(super) message: TimelineMessage,
    pub(super) proposal: ProposedReply,
    pub(super) opens: Option<OpenCard>,
}

pub(super) fn render(
    tutor: Tutor<'_>,
    state: &mut TutorState,
    (policy, now_ms): (&Policy, u64),
    action: Action,
    exam_question: Option<&str>,
) -> Option<Rendered> {
    let course = tutor.course;
    let unit = course.unit(&policy.target)?;
    let (message, opens) = match action {
        Action::SocraticQuestion => (cards::socratic(unit), None),
        Action::ConceptCard => (cards::concept(unit), None),
        Action::PrerequisiteNudge => {
            let prerequisite = course.unit(policy.blocker.as_deref()?)?;
            let start = course.unit(&ready_unit(course, &prerequisite.unit_id, &state.snapshot))?;
            (cards::nudge(unit, prerequisite, start), None)
        }
        Action::Drill => {
            let tier = policy.desired_exam_tier?;
            let number = state.drills_drawn;
            let seed = drill_seed(state.seed, number);
            let question = draw_drill(
                course,
                &unit.unit_id,
                tier,
                (number, seed),
                tutor.blueprints,
                tutor.acs,
            )?;
            state.drills_drawn += 1;
            let drill_id = format!("d{}", state.drills_drawn);
            let message = cards::drill(&drill_id, unit, tier, &question);
            let opens = OpenCard::Drill {
                drill_id,
                unit: unit.unit_id.clone(),
                tier,
                question,
            };
            (message, Some(opens))
        }
        Action::Exam => {
            let question = exam_question.and_then(|id| exam_question_of(course, id))?;
            let locked = locked_at_tier(state, course, question, now_ms);
            let opens = OpenCard::Exam {
                question_id: question.question_id.clone(),
            };
            (cards::exam(question, unit, locked), Some(opens))
        }
    };
    let proposal = proposal_of(action, &policy.target, &message, exam_question);
    Some(Rendered {
        message,
        proposal,
        opens,
    })
}

/// Drill `number`'s seed: the session's seed and the number, mixed (SplitMix64's constant).
pub(super) fn drill_seed(seed: u64, number: u32) -> u64 {
    seed ^ (u64::from(number) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

pub(super) fn proposal_of(
    action: Action,
    target: &str,
    message: &TimelineMessage,
    exam_question: Option<&str>,
) -> ProposedReply {
    let (key_ideas, worked_examples) = match &message.card {
        Some(Card::ConceptCard {
            key_ideas,
            worked_example,
            ..
        }) => (key_ideas.len() as u32, u32::from(worked_example.is_some())),
        _ => (0, 0),
    };
    ProposedReply {
        action,
        target: target.to_owned(),
        text: message.text.clone(),
        exam_question: (action == Action::Exam)
            .then(|| exam_question.map(str::to_owned))
            .flatten(),
        key_ideas,
        worked_examples,
        drill_steps: u32::from(action == Action::Drill),
        questions: message.text.matches('?').count() as u32,
    }
}

pub(super) fn unit_missing(unit: &str) -> Rendered {
    let text = format!("Unit {unit} is not in this course.");
    Rendered {
        proposal: proposal_of(
            Action::SocraticQuestion,
            unit,
            &cards::message(text.clone(), None),
            None,
        ),
        message: cards::message(text, None),
        opens: None,
    }
}

pub(super) fn open_card(state: &mut TutorState, rendered: &Rendered) {
    if let Some(card) = &rendered.opens {
        state.open = Some(card.clone());
    }
}

pub(super) fn turn_action(action: Action) -> TurnAction {
    match action {
        Action::SocraticQuestion => TurnAction::SocraticQuestion,
        Action::Drill => TurnAction::Drill,
        Action::ConceptCard => TurnAction::ConceptCard,
        Action::PrerequisiteNudge => TurnAction::PrerequisiteNudge,
        Action::Exam => TurnAction::Exam,
    }
}

pub(super) fn exam_question_of<'c>(
    course: &'c Course,
    question_id: &str,
) -> Option<&'c ExamQuestion> {
    course
        .doc
        .exam_questions
        .iter()
        .find(|q| q.question_id == question_id)
}

/// The locked questions of `question`'s unit and tier, with their countdowns.
pub(super) fn locked_at_tier(
    state: &TutorState,
    course: &Course,
    question: &ExamQuestion,
    now_ms: u64,
) -> Vec<LockShown> {
    course
        .doc
        .exam_questions
        .iter()
        .filter(|q| q.unit == question.unit && q.tier == question.tier)
        .filter_map(|q| {
            let left = state.snapshot.locked_for_ms(&q.question_id, now_ms)?;
            Some(LockShown {
                question_id: q.question_id.clone(),
                seconds_left: left.div_ceil(1000),
            })
        })
        .collect()
}

/// The policy and candidate scores behind a turn.
pub(super) fn debug_view(
    state: &TutorState,
    mapped: &[Mapped],
    policy: &Policy,
    fallback: Option<&'static str>,
    now_ms: u64,
) -> PolicyDebug {
    let confidence = |unit: &str| {
        mapped
            .iter()
            .find(|m| m.unit == unit)
            .map_or(0.0, |m| m.confidence)
    };
    let mut candidates: Vec<ScoredUnit> = policy
        .scoped_units
        .iter()
        .map(|unit| {
            let focus = *unit == state.snapshot.focus_unit;
            let inputs = PriorityInputs::of(&state.snapshot.unit(unit), confidence(unit), focus);
            ScoredUnit {
                unit_id: unit.clone(),
                score: priority(&inputs, now_ms),
            }
        })
        .collect();
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    PolicyDebug {
        mapped: mapped
            .iter()
            .map(|m| ScoredUnit {
                unit_id: m.unit.clone(),
                score: m.confidence,
            })
            .collect(),
        candidates,
        target: policy.target.clone(),
        blocker: policy.blocker.clone(),
        stuck: policy.stuck,
        desired_exam_tier: policy.desired_exam_tier.map(|t| t.as_str().to_owned()),
        exam_ready: policy.exam_ready,
        allowed_actions: policy
            .allowed_actions
            .iter()
            .map(|a| turn_action(*a).as_str().to_owned())
            .collect(),
        fallback: fallback.map(str::to_owned),
    }
}

/// The first unit down `unit`'s chain of first blockers that is not blocked itself: where a
/// student sent to learn `unit` first should start.
pub fn ready_unit(course: &Course, unit: &str, snapshot: &StudentSnapshot) -> String {
    let mut ready = unit.to_owned();
    // The graph is acyclic, so a chain is never longer than the course.
    for _ in 0..course.doc.units.len() {
        match first_blocker(&course.graph, &ready, snapshot) {
            Some(blocker) => ready = blocker.to_owned(),
            None => break,
        }
    }
    ready
}
