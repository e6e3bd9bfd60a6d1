//! Converting an `AssessmentCore` to and from its checkpoint form, explicitly.

use viva_blueprint::generate::Item;
use viva_blueprint::plan::PlannedItem;
use viva_blueprint::skill::Difficulty;

use crate::checkpoint::format::{
    AssessmentCheckpoint, GeneratedCheckpoint, ItemCheckpoint, PendingCheckpoint,
    ResponseCheckpoint,
};
use crate::modes::assessment::{
    AnswerInput, AssessmentCore, AssessmentItem, PendingAnswer, Response,
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
        item: slot.item.as_ref().map(generated_checkpoint),
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
pub fn restore_assessment(stored: &AssessmentCheckpoint) -> Result<AssessmentCore, String> {
    let items = stored
        .items
        .iter()
        .map(restore_item)
        .collect::<Result<Vec<_>, _>>()?;
    let pending = stored.pending.as_ref().map(restore_pending).transpose()?;
    Ok(AssessmentCore {
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

/// The mistakes beside the options; unknown (all `None`) in a checkpoint written before
/// they were kept.
fn restore_mistakes(stored: &[Option<String>], options: usize) -> Vec<Option<String>> {
    if stored.len() == options {
        stored.to_vec()
    } else {
        vec![None; options]
    }
}

/// A generated item as checkpoints keep it (with its key).
pub fn generated_checkpoint(item: &Item) -> GeneratedCheckpoint {
    GeneratedCheckpoint {
        seed: item.seed,
        parameters: item.parameters.clone(),
        stem: item.stem.clone(),
        options: item.options.clone(),
        answer_index: item.answer_index,
        answer: item.answer.clone(),
        explanation: item.explanation.clone(),
        option_mistakes: item.option_mistakes.clone(),
    }
}

/// A generated item of `skill_id` at `difficulty`, as a checkpoint kept it.
pub fn restore_generated(skill_id: &str, difficulty: Difficulty, g: &GeneratedCheckpoint) -> Item {
    Item {
        skill_id: skill_id.to_owned(),
        difficulty,
        seed: g.seed,
        parameters: g.parameters.clone(),
        stem: g.stem.clone(),
        options: g.options.clone(),
        answer_index: g.answer_index,
        answer: g.answer.clone(),
        explanation: g.explanation.clone(),
        option_mistakes: restore_mistakes(&g.option_mistakes, g.options.len()),
    }
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
    let item = stored
        .item
        .as_ref()
        .map(|g| restore_generated(&stored.skill_id, difficulty, g));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(kind: &str, text: Option<&str>, index: Option<u32>) -> PendingCheckpoint {
        PendingCheckpoint {
            kind: kind.into(),
            text: text.map(str::to_owned),
            index,
            at_ms: 5,
        }
    }

    #[test]
    fn every_pending_answer_round_trips_and_a_malformed_one_is_refused() {
        let inputs = [
            AnswerInput::Text("192.168.1.0".into()),
            AnswerInput::Choice(2),
            AnswerInput::Skip,
        ];
        for input in inputs {
            let pending = PendingAnswer { input, at_ms: 5 };
            assert_eq!(restore_pending(&pending_checkpoint(&pending)), Ok(pending));
        }
        let malformed = [
            stored("text", None, Some(1)),
            stored("choice", Some("B"), None),
            stored("voice", Some("B"), None),
        ];
        for bad in malformed {
            let err = restore_pending(&bad).unwrap_err();
            assert!(err.contains("unknown pending answer"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn mistakes_beside_the_options_are_kept_and_unknown_in_older_checkpoints() {
        let kept = vec![None, Some("off_by_one".to_owned())];
        let cases = [
            (kept.clone(), 2, kept.clone()),
            (Vec::new(), 2, vec![None, None]),
            (kept, 3, vec![None, None, None]),
        ];
        for (stored, options, expected) in cases {
            assert_eq!(restore_mistakes(&stored, options), expected);
        }
    }

    #[test]
    fn an_item_with_an_unknown_difficulty_is_refused() {
        let item = ItemCheckpoint {
            section_id: "s".into(),
            skill_id: "T.ADD".into(),
            difficulty: "brutal".into(),
            plan_seed: 1,
            item: None,
            asked_at_ms: None,
            response: None,
        };
        assert_eq!(
            restore_item(&item).unwrap_err(),
            "unknown difficulty \"brutal\""
        );
        let easy = ItemCheckpoint {
            difficulty: "easy".into(),
            ..item
        };
        assert_eq!(item_checkpoint(&restore_item(&easy).unwrap()), easy);
    }
}
