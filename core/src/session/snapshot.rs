//! Converting an `ExamCore` to and from the versioned checkpoint format, explicitly.

use std::collections::{BTreeMap, HashMap};

use crate::checkpoint::format::{
    CHECKPOINT_FORMAT, ExamCheckpoint, NextStepCheckpoint, OpenQuestionCheckpoint, PlanCheckpoint,
    PlannerCheckpoint, SessionCheckpoint, TurnCheckpoint,
};
use crate::exam::plan::{Coverage, ExamPlan};
use crate::exam::planner::PlannerState;
use crate::exam::types::{QuestionKind, Score};

use super::assessment_snapshot::{assessment_checkpoint, restore_assessment};
use super::core::{ExamCore, OpenQuestion, StepAfter, Turn};
use super::lifecycle::Lifecycle;
use super::phase::{LivePhase, Phase};
use super::state::SessionState;

/// A checkpoint that does not describe a valid session.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("checkpoint of session {session_id} is invalid: {reason}")]
pub struct InvalidCheckpoint {
    /// The session.
    pub session_id: String,
    /// What was wrong.
    pub reason: String,
}

/// The checkpoint of a session as it stands.
pub fn checkpoint_of(state: &SessionState) -> SessionCheckpoint {
    let life = state.life();
    let resume_to = match life.phase {
        Phase::Paused { resume_to } => Some(Phase::from(resume_to).as_str().to_owned()),
        _ => None,
    };
    let (mode, exam, assessment, transcript) = match state {
        SessionState::Exam(core) => (
            "exam",
            Some(exam_checkpoint(core)),
            None,
            core.transcript.iter().map(turn_checkpoint).collect(),
        ),
        SessionState::Assessment(core) => (
            "assessment",
            None,
            Some(assessment_checkpoint(core)),
            Vec::new(),
        ),
    };
    SessionCheckpoint {
        format: CHECKPOINT_FORMAT,
        session_id: life.session_id.clone(),
        user_id: life.user_id.clone(),
        version: 0,
        created_at_ms: life.created_at_ms,
        updated_at_ms: life.updated_at_ms,
        paused_at_ms: life.paused_at_ms,
        thinking_pause_ms: life.thinking_pause_ms,
        seq: life.seq,
        phase: life.phase.as_str().to_owned(),
        resume_to,
        mode: mode.to_owned(),
        exam,
        assessment,
        transcript,
        applied_event_ids: life.applied_event_ids.iter().cloned().collect(),
    }
}

fn exam_checkpoint(core: &ExamCore) -> ExamCheckpoint {
    ExamCheckpoint {
        config: core.config.clone(),
        seed: core.seed,
        plan: plan_checkpoint(&core.plan),
        planner: planner_checkpoint(&core.planner),
        next_step: core.next_step.as_ref().map(step_checkpoint),
        questions_asked: core.questions_asked,
        answered: core.answered,
        open_question: core.open_question.as_ref().map(open_checkpoint),
        result: core.result.clone(),
    }
}

fn plan_checkpoint(plan: &ExamPlan) -> PlanCheckpoint {
    PlanCheckpoint {
        version: plan.version,
        planned_question_count: plan.planned_question_count,
        asked_count: plan.asked_count,
        bonus_used: plan.bonus_used,
        bonus_max: plan.bonus_max,
        follow_up_max_per_element: plan.follow_up_max_per_element,
        bonus_pending: plan.bonus_pending,
        follow_ups: plan
            .follow_ups
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
        coverage: plan
            .coverage
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().to_owned()))
            .collect(),
        scores: plan
            .scores
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().to_owned()))
            .collect(),
    }
}

fn planner_checkpoint(planner: &PlannerState) -> PlannerCheckpoint {
    PlannerCheckpoint {
        version: planner.version,
        queue: planner.queue.clone(),
        cursor: planner.cursor,
        recent: planner.recent.iter().cloned().collect(),
        attempts: planner
            .attempts
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
    }
}

fn step_checkpoint(step: &StepAfter) -> NextStepCheckpoint {
    let (name, element_code, missing_terms) = match step {
        StepAfter::FollowUp {
            element_code,
            missing_terms,
        } => (
            "follow_up",
            Some(element_code.clone()),
            missing_terms.clone(),
        ),
        StepAfter::Ask(kind) => (kind.as_str(), None, Vec::new()),
        StepAfter::Finish => ("finish", None, Vec::new()),
    };
    NextStepCheckpoint {
        step: name.to_owned(),
        element_code,
        missing_terms,
    }
}

fn open_checkpoint(open: &OpenQuestion) -> OpenQuestionCheckpoint {
    OpenQuestionCheckpoint {
        question_id: open.question_id.clone(),
        element_code: open.element_code.clone(),
        kind: open.kind.as_str().to_owned(),
        number: open.number,
        text: open.text.clone(),
        pending_answer: open.pending_answer.clone(),
    }
}

fn turn_checkpoint(turn: &Turn) -> TurnCheckpoint {
    TurnCheckpoint {
        question_id: turn.question_id.clone(),
        element_code: turn.element_code.clone(),
        kind: turn.kind.as_str().to_owned(),
        question: turn.question.clone(),
        answer: turn.answer.clone(),
        score: turn.score.map(|s| s.as_str().to_owned()),
        feedback: turn.feedback.clone(),
        examiner: turn.examiner.clone(),
    }
}

/// Rebuilds a session from its checkpoint, checking every name it holds.
pub fn state_from_checkpoint(
    checkpoint: SessionCheckpoint,
) -> Result<SessionState, InvalidCheckpoint> {
    let fail = |reason: String| InvalidCheckpoint {
        session_id: checkpoint.session_id.clone(),
        reason,
    };
    if checkpoint.format != CHECKPOINT_FORMAT {
        return Err(fail(format!("unknown format {}", checkpoint.format)));
    }
    let phase = parse_phase(&checkpoint.phase, checkpoint.resume_to.as_deref()).map_err(&fail)?;
    let life = Lifecycle {
        session_id: checkpoint.session_id.clone(),
        user_id: checkpoint.user_id.clone(),
        phase,
        applied_event_ids: checkpoint.applied_event_ids.iter().cloned().collect(),
        seq: checkpoint.seq,
        created_at_ms: checkpoint.created_at_ms,
        updated_at_ms: checkpoint.updated_at_ms,
        paused_at_ms: checkpoint.paused_at_ms,
        thinking_pause_ms: checkpoint.thinking_pause_ms,
        outbox: Vec::new(),
    };
    match (
        checkpoint.mode.as_str(),
        &checkpoint.exam,
        &checkpoint.assessment,
    ) {
        ("exam", Some(exam), _) => restore_exam(life, exam, &checkpoint.transcript)
            .map(|c| SessionState::Exam(Box::new(c))),
        ("assessment", _, Some(stored)) => {
            restore_assessment(life, stored).map(|c| SessionState::Assessment(Box::new(c)))
        }
        (mode, _, _) => Err(format!("mode {mode:?} without its state")),
    }
    .map_err(fail)
}

fn restore_exam(
    life: Lifecycle,
    exam: &ExamCheckpoint,
    transcript: &[TurnCheckpoint],
) -> Result<ExamCore, String> {
    let plan = restore_plan(&exam.plan)?;
    let next_step = exam.next_step.as_ref().map(restore_step).transpose()?;
    let open_question = exam.open_question.as_ref().map(restore_open).transpose()?;
    let transcript = transcript
        .iter()
        .map(restore_turn)
        .collect::<Result<_, _>>()?;
    Ok(ExamCore {
        life,
        config: exam.config.clone(),
        seed: exam.seed,
        plan,
        planner: restore_planner(&exam.planner),
        next_step,
        questions_asked: exam.questions_asked,
        answered: exam.answered,
        open_question,
        result: exam.result.clone(),
        transcript,
    })
}

fn parse_phase(name: &str, resume_to: Option<&str>) -> Result<Phase, String> {
    let live = |name: &str| match name {
        "idle" => Ok(LivePhase::Idle),
        "question_asked" => Ok(LivePhase::QuestionAsked),
        "awaiting_answer" => Ok(LivePhase::AwaitingAnswer),
        "assessed" => Ok(LivePhase::Assessed),
        other => Err(format!("unknown phase {other:?}")),
    };
    match name {
        "paused" => Ok(Phase::Paused {
            resume_to: live(resume_to.unwrap_or("idle"))?,
        }),
        "completed" => Ok(Phase::Completed),
        "abandoned" => Ok(Phase::Abandoned),
        other => live(other).map(Phase::from),
    }
}

fn restore_plan(stored: &PlanCheckpoint) -> Result<ExamPlan, String> {
    let coverage = stored
        .coverage
        .iter()
        .map(|(code, name)| {
            Coverage::parse(name)
                .map(|c| (code.clone(), c))
                .ok_or(format!("unknown coverage {name:?}"))
        })
        .collect::<Result<HashMap<_, _>, _>>()?;
    let scores = parse_scores(&stored.scores)?;
    Ok(ExamPlan {
        version: stored.version,
        planned_question_count: stored.planned_question_count,
        asked_count: stored.asked_count,
        bonus_used: stored.bonus_used,
        bonus_max: stored.bonus_max,
        follow_up_max_per_element: stored.follow_up_max_per_element,
        follow_ups: stored.follow_ups.clone().into_iter().collect(),
        coverage,
        scores,
        bonus_pending: stored.bonus_pending,
    })
}

/// Parses stored score names; also used for user records.
pub fn parse_scores(stored: &BTreeMap<String, String>) -> Result<HashMap<String, Score>, String> {
    stored
        .iter()
        .map(|(code, name)| {
            Score::parse(name)
                .map(|s| (code.clone(), s))
                .ok_or(format!("unknown score {name:?}"))
        })
        .collect()
}

fn restore_planner(stored: &PlannerCheckpoint) -> PlannerState {
    PlannerState {
        version: stored.version,
        queue: stored.queue.clone(),
        cursor: stored.cursor,
        recent: stored.recent.iter().cloned().collect(),
        attempts: stored.attempts.clone().into_iter().collect(),
    }
}

fn parse_kind(name: &str) -> Result<QuestionKind, String> {
    QuestionKind::parse(name).ok_or(format!("unknown question kind {name:?}"))
}

fn restore_step(stored: &NextStepCheckpoint) -> Result<StepAfter, String> {
    match (stored.step.as_str(), &stored.element_code) {
        ("follow_up", Some(code)) => Ok(StepAfter::FollowUp {
            element_code: code.clone(),
            missing_terms: stored.missing_terms.clone(),
        }),
        ("finish", _) => Ok(StepAfter::Finish),
        (name, _) => parse_kind(name).map(StepAfter::Ask),
    }
}

fn restore_open(stored: &OpenQuestionCheckpoint) -> Result<OpenQuestion, String> {
    Ok(OpenQuestion {
        question_id: stored.question_id.clone(),
        element_code: stored.element_code.clone(),
        kind: parse_kind(&stored.kind)?,
        number: stored.number,
        text: stored.text.clone(),
        pending_answer: stored.pending_answer.clone(),
    })
}

fn restore_turn(stored: &TurnCheckpoint) -> Result<Turn, String> {
    let score = stored
        .score
        .as_deref()
        .map(|name| Score::parse(name).ok_or(format!("unknown score {name:?}")))
        .transpose()?;
    Ok(Turn {
        question_id: stored.question_id.clone(),
        element_code: stored.element_code.clone(),
        kind: parse_kind(&stored.kind)?,
        question: stored.question.clone(),
        answer: stored.answer.clone(),
        score,
        feedback: stored.feedback.clone(),
        examiner: stored.examiner.clone(),
    })
}
