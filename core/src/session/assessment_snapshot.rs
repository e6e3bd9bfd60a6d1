//! Converting an `AssessmentCore` to and from its checkpoint form, explicitly.

use viva_blueprint::generate::Item;
use viva_blueprint::plan::PlannedItem;
use viva_blueprint::skill::Difficulty;

use super::assessment::{AnswerInput, AssessmentCore, AssessmentItem, PendingAnswer, Response};
use super::lifecycle::Lifecycle;
use crate::checkpoint::format::{
    AssessmentCheckpoint, GeneratedCheckpoint, ItemCheckpoint, PendingCheckpoint,
    ResponseCheckpoint,
};

/// The checkpoint part of an assessment.
pub fn assessment_checkpoint(core: &AssessmentCore) -> AssessmentCheckpoint {
    AssessmentCheckpoint {
        assessment_id: core.assessment_id.clone(),
        learning: core.learning,
        seed: core.seed,
        deadline_ms: core.deadline_ms,
        current: core.current,
        pending: core.pending.as_ref().map(pending_checkpoint),
        items: core.items.iter().map(item_checkpoint).collect(),
        result: core.result.clone(),
    }
}

fn pending_checkpoint(pending: &PendingAnswer) -> PendingCheckpoint {
    let (kind, text, index) = match &pending.input {
        AnswerInput::Text(text) => ("text", Some(text.clone()), None),
        AnswerInput::Choice(index) => ("choice", None, Some(*index)),
        AnswerInput::Skip => ("skip", None, None),
    };
    PendingCheckpoint {
        kind: kind.to_owned(),
        text,
        index,
        at_ms: pending.at_ms,
    }
}

fn item_checkpoint(slot: &AssessmentItem) -> ItemCheckpoint {
    ItemCheckpoint {
        section_id: slot.planned.section_id.clone(),
        skill_id: slot.planned.skill_id.clone(),
        difficulty: slot.planned.difficulty.as_str().to_owned(),
        plan_seed: slot.planned.seed,
        item: slot.item.as_ref().map(|item| GeneratedCheckpoint {
            seed: item.seed,
            parameters: item.parameters.clone(),
            stem: item.stem.clone(),
            options: item.options.clone(),
            answer_index: item.answer_index,
            answer: item.answer.clone(),
            explanation: item.explanation.clone(),
        }),
        asked_at_ms: slot.asked_at_ms,
        response: slot.response.as_ref().map(|r| ResponseCheckpoint {
            given: r.given.clone(),
            correct: r.correct,
            skipped: r.skipped,
            answered_at_ms: r.answered_at_ms,
        }),
    }
}

/// Rebuilds an assessment from its checkpoint.
pub fn restore_assessment(
    life: Lifecycle,
    stored: &AssessmentCheckpoint,
) -> Result<AssessmentCore, String> {
    let items = stored
        .items
        .iter()
        .map(restore_item)
        .collect::<Result<Vec<_>, _>>()?;
    let pending = stored.pending.as_ref().map(restore_pending).transpose()?;
    Ok(AssessmentCore {
        life,
        assessment_id: stored.assessment_id.clone(),
        learning: stored.learning,
        seed: stored.seed,
        deadline_ms: stored.deadline_ms,
        items,
        current: stored.current,
        pending,
        result: stored.result.clone(),
    })
}

fn restore_pending(stored: &PendingCheckpoint) -> Result<PendingAnswer, String> {
    let input = match (stored.kind.as_str(), &stored.text, stored.index) {
        ("text", Some(text), _) => AnswerInput::Text(text.clone()),
        ("choice", _, Some(index)) => AnswerInput::Choice(index),
        ("skip", _, _) => AnswerInput::Skip,
        (kind, _, _) => return Err(format!("unknown pending answer {kind:?}")),
    };
    Ok(PendingAnswer {
        input,
        at_ms: stored.at_ms,
    })
}

fn restore_item(stored: &ItemCheckpoint) -> Result<AssessmentItem, String> {
    let difficulty = Difficulty::parse(&stored.difficulty)
        .ok_or(format!("unknown difficulty {:?}", stored.difficulty))?;
    let planned = PlannedItem {
        section_id: stored.section_id.clone(),
        skill_id: stored.skill_id.clone(),
        difficulty,
        seed: stored.plan_seed,
    };
    let item = stored.item.as_ref().map(|g| Item {
        skill_id: stored.skill_id.clone(),
        difficulty,
        seed: g.seed,
        parameters: g.parameters.clone(),
        stem: g.stem.clone(),
        options: g.options.clone(),
        answer_index: g.answer_index,
        answer: g.answer.clone(),
        explanation: g.explanation.clone(),
    });
    let response = stored.response.as_ref().map(|r| Response {
        given: r.given.clone(),
        correct: r.correct,
        skipped: r.skipped,
        answered_at_ms: r.answered_at_ms,
    });
    Ok(AssessmentItem {
        planned,
        item,
        asked_at_ms: stored.asked_at_ms,
        response,
    })
}
