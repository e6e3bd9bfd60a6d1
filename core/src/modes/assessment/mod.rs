//! `AssessmentCore`: one blueprint assessment session — its item plan, the items generated
//! so far (answer keys included, never sent before completion in evaluation mode), the
//! responses, the time limit, and the result. Pure: the actor supplies the blueprints.

use viva_blueprint::generate::{GenerateError, Item, generate};
use viva_blueprint::library::BlueprintLibrary;
use viva_blueprint::plan::{PlannedItem, plan_items};
use viva_protocol::ErrorCode;
use viva_protocol::result::{AssessmentResult, AssessmentTrigger};
use viva_protocol::server::Progress;

use crate::session::lifecycle::{Lifecycle, Refusal};
use crate::session::phase::Phase;

/// Seeds tried for an item whose stem repeats an earlier one in the session.
pub const UNIQUE_STEM_TRIES: u64 = 20;

pub use crate::base::AnswerInput;

pub mod flow;
pub mod mode;
pub mod snapshot;

/// The candidate's response to one item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// What was given, for the audit trail (`None` when skipped).
    pub given: Option<String>,
    /// Whether it was correct.
    pub correct: bool,
    /// Whether the item was skipped.
    pub skipped: bool,
    /// When it was answered.
    pub answered_at_ms: u64,
}

/// One slot of the plan and what happened to it.
#[derive(Debug, Clone, PartialEq)]
pub struct AssessmentItem {
    /// The plan slot.
    pub planned: PlannedItem,
    /// The generated item, once asked.
    pub item: Option<Item>,
    /// When it was shown.
    pub asked_at_ms: Option<u64>,
    /// The response, once judged.
    pub response: Option<Response>,
}

/// An answer committed and not yet judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAnswer {
    /// What was given.
    pub input: AnswerInput,
    /// When.
    pub at_ms: u64,
}

/// The state of one assessment session.
#[derive(Debug, Clone)]
pub struct AssessmentCore {
    /// The assessment blueprint.
    pub assessment_id: String,
    /// Learning (feedback after each item) or evaluation (nothing until the end).
    pub learning: bool,
    /// The session seed the plan came from.
    pub seed: u64,
    /// When the time limit runs out, ms since the epoch; `None` for an untimed assessment.
    pub deadline_ms: Option<u64>,
    /// Every slot, in order.
    pub items: Vec<AssessmentItem>,
    /// The open item.
    pub current: Option<usize>,
    /// A committed answer to the open item.
    pub pending: Option<PendingAnswer>,
    /// The result, once completed (without the audit trail).
    pub result: Option<AssessmentResult>,
}

/// Work the assessment must do before it waits for the candidate again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssessmentWork {
    /// Judge the committed answer.
    Judge,
    /// Generate and ask item `index`.
    Ask(usize),
    /// Grade: every item is done.
    Finish,
    /// Nothing.
    Nothing,
}

impl AssessmentCore {
    /// Plans a new session of `assessment_id`.
    pub fn create(
        created_at_ms: u64,
        assessment_id: &str,
        learning: bool,
        seed: u64,
        library: &BlueprintLibrary,
    ) -> Result<AssessmentCore, Refusal> {
        let assessment = library.assessment(assessment_id).ok_or_else(|| {
            Refusal::new(
                ErrorCode::InvalidConfig,
                format!(
                    "no assessment blueprint {}",
                    viva_protocol::excerpt::quoted(assessment_id)
                ),
            )
        })?;
        let deadline_ms = assessment
            .time_limit_minutes
            .map(|minutes| created_at_ms + (minutes * 60_000.0).round() as u64);
        let items = plan_items(assessment, seed)
            .into_iter()
            .map(|planned| AssessmentItem {
                planned,
                item: None,
                asked_at_ms: None,
                response: None,
            })
            .collect();
        Ok(AssessmentCore {
            assessment_id: assessment_id.to_owned(),
            learning,
            seed,
            deadline_ms,
            items,
            current: None,
            pending: None,
            result: None,
        })
    }

    /// What to do now; pure.
    pub fn pending_work(&self, life: &Lifecycle) -> AssessmentWork {
        if life.phase.live().is_none() {
            return AssessmentWork::Nothing;
        }
        if self.pending.is_some() {
            return AssessmentWork::Judge;
        }
        if self.current.is_some() {
            return AssessmentWork::Nothing;
        }
        match self.items.iter().position(|slot| slot.response.is_none()) {
            Some(index) if matches!(life.phase, Phase::Idle | Phase::Assessed) => {
                AssessmentWork::Ask(index)
            }
            Some(_) => AssessmentWork::Nothing,
            None => AssessmentWork::Finish,
        }
    }

    /// Whether the time limit has run out (never, for an untimed assessment).
    pub fn is_expired(&self, now_ms: u64) -> bool {
        self.deadline_ms.is_some_and(|deadline| now_ms >= deadline)
    }

    /// Whole seconds left before the time limit, as the client is told; `None` when untimed.
    pub fn seconds_remaining(&self, now_ms: u64) -> Option<u32> {
        let deadline = self.deadline_ms?;
        let seconds = deadline.saturating_sub(now_ms) / 1000;
        Some(u32::try_from(seconds).unwrap_or(u32::MAX))
    }

    /// Progress counters, in the exam's terms.
    pub fn progress(&self) -> Progress {
        Progress {
            asked: self.items.iter().filter(|slot| slot.item.is_some()).count() as u32,
            planned_questions: self.items.len() as u32,
            answered: self
                .items
                .iter()
                .filter(|slot| slot.response.is_some())
                .count() as u32,
            credited_by_mention: 0,
            bonus_used: 0,
        }
    }

    /// Generates the item for slot `index`, re-seeding while its stem repeats an earlier one.
    pub fn generate_slot(
        &self,
        index: usize,
        library: &BlueprintLibrary,
    ) -> Result<Item, GenerateError> {
        let planned = &self.items[index].planned;
        let shuffle = library
            .assessment(&self.assessment_id)
            .is_none_or(|a| a.shuffle_options);
        let Some(skill) = library.skill(&planned.skill_id) else {
            return Err(GenerateError::TooFewDistractors {
                skill: planned.skill_id.clone(),
                found: 0,
                needed: 1,
            });
        };
        let mut last = None;
        for attempt in 0..UNIQUE_STEM_TRIES {
            let seed = planned
                .seed
                .wrapping_add(attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let item = generate(skill, planned.difficulty, seed, shuffle)?;
            let repeated = self
                .items
                .iter()
                .filter_map(|slot| slot.item.as_ref())
                .any(|seen| seen.stem == item.stem);
            if !repeated {
                return Ok(item);
            }
            last = Some(item);
        }
        last.ok_or(GenerateError::Unsatisfiable {
            skill: skill.id.clone(),
            difficulty: planned.difficulty.as_str(),
            tries: 0,
        })
    }

    /// The trigger a finished plan completes with.
    pub fn finish_trigger(&self) -> AssessmentTrigger {
        AssessmentTrigger::AllItemsAnswered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core(deadline_ms: Option<u64>) -> AssessmentCore {
        AssessmentCore {
            assessment_id: "A".into(),
            learning: false,
            seed: 1,
            deadline_ms,
            items: Vec::new(),
            current: None,
            pending: None,
            result: None,
        }
    }

    #[test]
    fn time_left_and_expiry() {
        let cases = [
            (Some(61_000), 1_000, Some(60), false),
            (Some(61_000), 60_999, Some(0), false),
            (Some(61_000), 61_000, Some(0), true),
            (Some(61_000), 90_000, Some(0), true),
            (None, 1_000, None, false),
            (None, u64::MAX, None, false),
        ];
        for (deadline, now, left, expired) in cases {
            let core = core(deadline);
            assert_eq!(core.seconds_remaining(now), left, "{deadline:?} at {now}");
            assert_eq!(core.is_expired(now), expired, "{deadline:?} at {now}");
        }
    }
}
