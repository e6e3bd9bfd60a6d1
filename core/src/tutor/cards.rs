//! What the embedded brain says: each action's timeline message and card, written from the
//! course's own words (a unit's title, anchor, key ideas and worked example; an exam
//! question's stem, options and memo). Nothing here decides; `brain` does.

use viva_blueprint::course::{Course, ExamQuestion, Unit};
use viva_protocol::tutor::{Card, LockShown, SnapshotLite, TierCounts, TimelineMessage};

use super::drawn::DrillQuestion;
use super::graph::LearningPathGraph;
use super::lite::snapshot_lite;
use super::policy::CONSTRAINTS;
use super::snapshot::{StudentSnapshot, Tier};

/// A message of the tutor, with its card.
pub fn message(text: String, card: Option<Card>) -> TimelineMessage {
    TimelineMessage {
        role: "tutor".to_owned(),
        text,
        card,
    }
}

/// The title of `unit_id`, or the id of a unit the course does not have.
pub fn title_of(course: &Course, unit_id: &str) -> String {
    course
        .unit(unit_id)
        .map_or_else(|| unit_id.to_owned(), |u| u.title.clone())
}

/// A guiding question from the unit's anchor.
pub fn socratic(unit: &Unit) -> TimelineMessage {
    let text = format!(
        "{}: {} How would you put that in your own words, with an example of your own?",
        unit.title,
        unit.anchor.trim()
    );
    let card = Card::SocraticQuestion {
        unit_id: unit.unit_id.clone(),
        unit_title: unit.title.clone(),
    };
    message(text, Some(card))
}

/// The unit's key ideas (at most the constraint's number) and worked example.
pub fn concept(unit: &Unit) -> TimelineMessage {
    let key_ideas: Vec<String> = unit
        .key_ideas
        .iter()
        .take(CONSTRAINTS.max_key_ideas as usize)
        .cloned()
        .collect();
    let text = format!(
        "Let's step back from the drills: here are the key ideas of {}.",
        unit.title
    );
    let card = Card::ConceptCard {
        unit_id: unit.unit_id.clone(),
        title: unit.title.clone(),
        key_ideas,
        worked_example: unit.worked_example.clone(),
    };
    message(text, Some(card))
}

/// Learn `prerequisite` before `unit`, starting with `start` (the first unit on the chain
/// of prerequisites that needs nothing else first; `prerequisite` itself when it is ready).
pub fn nudge(unit: &Unit, prerequisite: &Unit, start: &Unit) -> TimelineMessage {
    let mut text = format!(
        "{} builds on {}, which you have not passed yet.",
        unit.title, prerequisite.title
    );
    if start.unit_id != prerequisite.unit_id {
        text.push_str(&format!(" That in turn builds on {}.", start.title));
    }
    text.push_str(&format!(
        " Start with {}: {}",
        start.title,
        start.anchor.trim()
    ));
    let card = Card::PrerequisiteNudge {
        unit_id: unit.unit_id.clone(),
        prerequisite_id: prerequisite.unit_id.clone(),
        prerequisite_title: prerequisite.title.clone(),
        start_id: start.unit_id.clone(),
    };
    message(text, Some(card))
}

/// A drill card.
pub fn drill(drill_id: &str, unit: &Unit, tier: Tier, question: &DrillQuestion) -> TimelineMessage {
    let text = match question {
        DrillQuestion::Skill(_) => format!("Try this drill on {}.", unit.title),
        DrillQuestion::Rubric { .. } => {
            format!("Answer this in your own words ({}).", unit.title)
        }
    };
    let card = Card::Drill {
        drill_id: drill_id.to_owned(),
        unit_id: unit.unit_id.clone(),
        tier: tier.as_str().to_owned(),
        prompt: question.prompt().to_owned(),
        options: question.options().to_vec(),
        source: question.source().to_owned(),
    };
    message(text, Some(card))
}

/// An exam card; `locked` are the unit's locked questions of this tier.
pub fn exam(question: &ExamQuestion, unit: &Unit, locked: Vec<LockShown>) -> TimelineMessage {
    let tier = question.tier.as_str();
    let text = format!(
        "You are ready for the {tier} exam on {}. One question: a wrong answer, or opening \
         its memo first, locks it for a while.",
        unit.title
    );
    let card = Card::Exam {
        question_id: question.question_id.clone(),
        unit_id: unit.unit_id.clone(),
        tier: tier.to_owned(),
        stem: question.stem.clone(),
        options: question.options.clone(),
        locked,
    };
    message(text, Some(card))
}

/// The snapshot as the tutor screen shows it.
pub fn lite(
    snapshot: &StudentSnapshot,
    course: &Course,
    graph: &LearningPathGraph,
    now_ms: u64,
) -> SnapshotLite {
    let lite = snapshot_lite(snapshot, graph, &course.unit_ids(), now_ms);
    SnapshotLite {
        focus_drill_streak: snapshot.unit(&lite.focus_unit).drill_streak,
        drills: None,
        focus_title: title_of(course, &lite.focus_unit),
        focus_unit: lite.focus_unit,
        focus_tier: lite.focus_tier.as_str().to_owned(),
        prerequisite_nudge: lite.prerequisite_nudge,
        revisit: lite.revisit,
        revisit_more: lite.revisit_more,
        counts: TierCounts {
            none: lite.counts.none,
            bronze: lite.counts.bronze,
            silver: lite.counts.silver,
            gold: lite.counts.gold,
        },
        locks: lite
            .locks
            .into_iter()
            .map(|lock| LockShown {
                question_id: lock.question_id,
                seconds_left: lock.seconds_left,
            })
            .collect(),
    }
}
