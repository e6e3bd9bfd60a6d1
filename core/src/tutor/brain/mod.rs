//! The embedded tutor brain (the default with no LLM): one student input in, one tutor turn
//! out. A message is mapped to units by retrieval; the policy is computed; the brain
//! proposes an action by a fixed rule (a prerequisite nudge when the target is blocked, a
//! concept card when the student is stuck, an exam when ready, else a Socratic question);
//! the proposal is validated like any model's would be, and replaced by the fallback if it
//! breaks a rule. Card events (drill checks, exam answers, memos) are graded here too.
//!
//! Pure: the caller passes the time and keeps the state.
//!
//! - `state`: what the brain reads, the student's inputs, a session's state, a turn.
//! - `reply`: a turn under the policy, validated, with the fallback.
//! - `render`: the cards and messages of an action.
//! - `grading`: card events graded.

mod grading;
mod render;
mod reply;
mod state;
#[cfg(test)]
mod tests;

use grading::{check_open_drill, memo_viewed, stuck, submit_exam};
pub use grading::{countdown, move_focus_on};
use reply::{certain, desired_available, open_drill_unit, policy_for, reply};
pub use state::{OpenCard, Tally, Turn, Tutor, TutorInput, TutorState};

use viva_blueprint::course::Course;
use viva_protocol::ErrorCode;

use crate::base::Refusal;
use crate::tutor::grounding::CourseGrounding;
use crate::tutor::lite::snapshot_lite;
use crate::tutor::model::ModelTurnRequest;
use crate::tutor::policy::{Action, TARGET_CONFIDENCE};
use crate::tutor::scope::merge_mapping;

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

/// After a result: an exam when ready, else another drill.
fn continue_action(tutor: Tutor<'_>, state: &TutorState, unit: &str, now_ms: u64) -> Action {
    let policy = policy_for(tutor, state, &[certain(unit)], now_ms);
    if policy.exam_ready {
        Action::Exam
    } else {
        Action::Drill
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
