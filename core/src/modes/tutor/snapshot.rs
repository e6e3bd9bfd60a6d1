//! `TutorCore` ⇄ its checkpoint section, and a `StudentSnapshot` ⇄ its stored record.

use crate::checkpoint::format::TurnCheckpoint;
use crate::checkpoint::tutor_format::{
    OpenCardCheckpoint, PendingAnswerCheckpoint, SnapshotRecord, TallyCheckpoint, TutorCheckpoint,
    UnitRecord,
};
use crate::tutor::brain::{OpenCard, Tally, TutorState};
use crate::tutor::drawn::DrillQuestion;
use crate::tutor::snapshot::{StudentSnapshot, Tier, UnitProgress};
use viva_blueprint::skill::Difficulty;

use crate::exam::acs::Rating;
use crate::modes::assessment::snapshot::{generated_checkpoint, restore_generated};
use crate::modes::tutor::{Awaiting, PendingAnswer, TutorCore};

/// The tutor's section of its checkpoint.
pub fn tutor_checkpoint(core: &TutorCore) -> TutorCheckpoint {
    let state = &core.state;
    TutorCheckpoint {
        course_id: core.course_id.clone(),
        seed: state.seed,
        snapshot: snapshot_record(&state.snapshot),
        fence: core.fence,
        revision: core.revision,
        stored_revision: core.stored_revision,
        open: state.open.as_ref().map(open_checkpoint),
        drills_drawn: state.drills_drawn,
        last_passed: state.last_passed.clone(),
        last_answered: state.last_answered.clone(),
        tally: TallyCheckpoint {
            drills_checked: state.tally.drills_checked,
            drills_right: state.tally.drills_right,
            exams_taken: state.tally.exams_taken,
            exams_passed: state.tally.exams_passed,
            tiers_earned: state
                .tally
                .tiers_earned
                .iter()
                .map(|(unit, tier)| (unit.clone(), tier.as_str().to_owned()))
                .collect(),
        },
        last_turn: core.last_turn.clone(),
        result: core.result.clone(),
        pending: match &core.awaiting {
            Some(Awaiting::Proposal(message)) => Some(message.clone()),
            _ => None,
        },
        pending_answer: match &core.awaiting {
            Some(Awaiting::Verdict(answer)) => Some(PendingAnswerCheckpoint {
                text: answer.text.clone(),
                rating: answer.rating.as_str().to_owned(),
                element: answer.element.clone(),
                ask: answer.ask.clone(),
            }),
            _ => None,
        },
    }
}

/// Rebuilds a tutor from its checkpoint section and turn log.
pub fn restore_tutor(
    stored: &TutorCheckpoint,
    transcript: &[TurnCheckpoint],
) -> Result<TutorCore, String> {
    let tiers_earned = stored
        .tally
        .tiers_earned
        .iter()
        .map(|(unit, tier)| Ok((unit.clone(), tier_named(tier)?)))
        .collect::<Result<Vec<_>, String>>()?;
    let state = TutorState {
        snapshot: restore_snapshot(&stored.snapshot)?,
        open: stored.open.as_ref().map(restore_open).transpose()?,
        seed: stored.seed,
        drills_drawn: stored.drills_drawn,
        last_passed: stored.last_passed.clone(),
        last_answered: stored.last_answered.clone(),
        tally: Tally {
            drills_checked: stored.tally.drills_checked,
            drills_right: stored.tally.drills_right,
            exams_taken: stored.tally.exams_taken,
            exams_passed: stored.tally.exams_passed,
            tiers_earned,
        },
    };
    Ok(TutorCore {
        course_id: stored.course_id.clone(),
        state,
        fence: stored.fence,
        revision: stored.revision,
        stored_revision: stored.stored_revision,
        turns: transcript.len() as u32,
        last_turn: stored.last_turn.clone(),
        transcript: transcript.to_vec(),
        result: stored.result.clone(),
        awaiting: restore_awaiting(stored)?,
        model_call: None,
    })
}

fn restore_awaiting(stored: &TutorCheckpoint) -> Result<Option<Awaiting>, String> {
    match (&stored.pending, &stored.pending_answer) {
        (None, None) => Ok(None),
        (Some(message), None) => Ok(Some(Awaiting::Proposal(message.clone()))),
        (None, Some(answer)) => Ok(Some(Awaiting::Verdict(restore_pending_answer(answer)?))),
        (Some(_), Some(_)) => Err("a message and a drill answer both awaiting a model".into()),
    }
}

fn restore_pending_answer(stored: &PendingAnswerCheckpoint) -> Result<PendingAnswer, String> {
    Ok(PendingAnswer {
        text: stored.text.clone(),
        rating: Rating::parse(&stored.rating)
            .ok_or_else(|| format!("unknown rating {:?}", stored.rating))?,
        element: stored.element.clone(),
        ask: stored.ask.clone(),
    })
}

fn tier_named(name: &str) -> Result<Tier, String> {
    Tier::parse(name).ok_or_else(|| format!("unknown tier {name:?}"))
}

fn open_checkpoint(open: &OpenCard) -> OpenCardCheckpoint {
    match open {
        OpenCard::Drill {
            drill_id,
            unit,
            tier,
            question,
        } => match question {
            DrillQuestion::Skill(item) => OpenCardCheckpoint::SkillDrill {
                drill_id: drill_id.clone(),
                unit: unit.clone(),
                tier: tier.as_str().to_owned(),
                skill_id: item.skill_id.clone(),
                difficulty: item.difficulty.as_str().to_owned(),
                item: generated_checkpoint(item),
            },
            DrillQuestion::Rubric { element, ask } => OpenCardCheckpoint::RubricDrill {
                drill_id: drill_id.clone(),
                unit: unit.clone(),
                tier: tier.as_str().to_owned(),
                element: element.clone(),
                ask: ask.clone(),
            },
        },
        OpenCard::Exam { question_id } => OpenCardCheckpoint::Exam {
            question_id: question_id.clone(),
        },
    }
}

fn restore_open(stored: &OpenCardCheckpoint) -> Result<OpenCard, String> {
    Ok(match stored {
        OpenCardCheckpoint::SkillDrill {
            drill_id,
            unit,
            tier,
            skill_id,
            difficulty,
            item,
        } => {
            let difficulty = Difficulty::parse(difficulty)
                .ok_or_else(|| format!("unknown difficulty {difficulty:?}"))?;
            OpenCard::Drill {
                drill_id: drill_id.clone(),
                unit: unit.clone(),
                tier: tier_named(tier)?,
                question: DrillQuestion::Skill(restore_generated(skill_id, difficulty, item)),
            }
        }
        OpenCardCheckpoint::RubricDrill {
            drill_id,
            unit,
            tier,
            element,
            ask,
        } => OpenCard::Drill {
            drill_id: drill_id.clone(),
            unit: unit.clone(),
            tier: tier_named(tier)?,
            question: DrillQuestion::Rubric {
                element: element.clone(),
                ask: ask.clone(),
            },
        },
        OpenCardCheckpoint::Exam { question_id } => OpenCard::Exam {
            question_id: question_id.clone(),
        },
    })
}

/// A snapshot as stored.
pub fn snapshot_record(snapshot: &StudentSnapshot) -> SnapshotRecord {
    SnapshotRecord {
        user_id: snapshot.user_id.clone(),
        course_id: snapshot.course_id.clone(),
        focus_unit: snapshot.focus_unit.clone(),
        units: snapshot
            .units
            .iter()
            .map(|(id, p)| {
                let record = UnitRecord {
                    tier: p.tier.as_str().to_owned(),
                    drill_attempts: p.drill_attempts,
                    drill_streak: p.drill_streak,
                    last_touched_ms: p.last_touched_ms,
                    exam_touched: p.exam_touched,
                };
                (id.clone(), record)
            })
            .collect(),
        locks: snapshot.locks.clone(),
        revisit: snapshot.revisit.clone(),
    }
}

/// A stored snapshot, read back; an unknown tier name is refused.
pub fn restore_snapshot(stored: &SnapshotRecord) -> Result<StudentSnapshot, String> {
    let units = stored
        .units
        .iter()
        .map(|(id, u)| {
            let progress = UnitProgress {
                tier: tier_named(&u.tier)?,
                drill_attempts: u.drill_attempts,
                drill_streak: u.drill_streak,
                last_touched_ms: u.last_touched_ms,
                exam_touched: u.exam_touched,
            };
            Ok((id.clone(), progress))
        })
        .collect::<Result<_, String>>()?;
    Ok(StudentSnapshot {
        user_id: stored.user_id.clone(),
        course_id: stored.course_id.clone(),
        focus_unit: stored.focus_unit.clone(),
        units,
        locks: stored.locks.clone(),
        revisit: stored.revisit.clone(),
    })
}
