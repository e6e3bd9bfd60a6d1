//! Spaced review across sessions: each element's history (last asked, outcome, streak,
//! interval, due), the SM-2-like rule that schedules it, and how urgent an element is now.
//!
//! The rule (docs/review.md has it with its reasons; docs/decisions.md why SM-2):
//! - **satisfactory**: the streak grows by one; the interval is the last one × 2.5, at least
//!   1 day on the first satisfactory answer and 6 days from the second, at most 60 days;
//! - **partial**: the streak ends; the interval is halved, at most 6 days (an element never
//!   answered satisfactorily stays due at once);
//! - **unsatisfactory**: the streak ends; the element is due at once.
//!
//! An element is due at `last asked + interval`; it counts as due from [`DUE_AHEAD_MS`]
//! before then. Due elements come first, weakest, then most overdue (time since last asked
//! over the interval, at least a day); then untouched ones; then the rest, soonest due
//! first. Times are the session clock's ms since the epoch; nothing here reads a clock.
//!
//! Mode-free: a mode reports its outcomes as [`Recall`]s; the user's supervisor merges them
//! into the record ([`merge_outcomes`]), and the exam orders `weak_areas` by [`Standing`].

use std::cmp::Reverse;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One day in ms.
pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;
/// The interval after the first satisfactory answer of a streak (at least).
pub const FIRST_INTERVAL_MS: u64 = DAY_MS;
/// The interval from the second satisfactory answer of a streak on (at least).
pub const SECOND_INTERVAL_MS: u64 = 6 * DAY_MS;
/// The longest interval: a candidate preparing for a checkride sees everything again
/// within two months.
pub const MAX_INTERVAL_MS: u64 = 60 * DAY_MS;
/// How much a satisfactory answer multiplies the interval, as a fraction (2.5 = 5/2: SM-2's
/// starting ease, fixed).
const EASE: (u64, u64) = (5, 2);
/// An element counts as due this long before its due time, so a study session the next
/// morning re-tests what came due overnight.
pub const DUE_AHEAD_MS: u64 = 4 * 60 * 60 * 1000;
/// The most elements a user's history keeps: above the oral elements of every catalog
/// (Private and Commercial, every class: 718), so only codes no catalog asks any more can
/// ever be dropped; beyond it the least recently asked go first.
pub const ELEMENT_HISTORY_MAX: usize = 1024;

/// How well an element was answered, for the schedule (an exam's final score of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recall {
    /// Covered.
    Satisfactory,
    /// Partly covered.
    Partial,
    /// Missed.
    Unsatisfactory,
}

impl Recall {
    /// The stored and wire name: `satisfactory`, `partial` or `unsatisfactory`.
    pub fn as_str(self) -> &'static str {
        match self {
            Recall::Satisfactory => "satisfactory",
            Recall::Partial => "partial",
            Recall::Unsatisfactory => "unsatisfactory",
        }
    }

    /// Parses a stored name (also the last scores of records written before the history).
    pub fn parse(name: &str) -> Option<Recall> {
        match name {
            "satisfactory" => Some(Recall::Satisfactory),
            "partial" => Some(Recall::Partial),
            "unsatisfactory" => Some(Recall::Unsatisfactory),
            _ => None,
        }
    }

    /// 0 for the weakest: due elements are asked weakest first.
    fn weakness_rank(self) -> u8 {
        match self {
            Recall::Unsatisfactory => 0,
            Recall::Partial => 1,
            Recall::Satisfactory => 2,
        }
    }
}

/// One element's review history, as the user record keeps it.
///
/// # Format
/// ```json
/// {"last_asked_ms": 1765000000000, "last_outcome": "satisfactory", "streak": 2,
///  "interval_ms": 518400000, "due_ms": 1765518400000}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementHistory {
    /// When it was last asked and assessed (the assessment's time).
    pub last_asked_ms: u64,
    /// The outcome then.
    pub last_outcome: Recall,
    /// Satisfactory outcomes in a row, up to the last one (0 after a partial or a miss).
    pub streak: u32,
    /// The current interval.
    pub interval_ms: u64,
    /// When it comes due: `last_asked_ms + interval_ms`.
    pub due_ms: u64,
}

/// An element's outcome in a finished session, as the session reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementOutcome {
    /// The element's code.
    pub element: String,
    /// Its final outcome in the session.
    pub recall: Recall,
    /// When it was assessed (the session's finish time if the session did not note it).
    pub at_ms: u64,
}

/// The history after `prior` (none: never asked) and an outcome at `at_ms`.
pub fn schedule(prior: Option<&ElementHistory>, recall: Recall, at_ms: u64) -> ElementHistory {
    let (streak, interval) = prior.map_or((0, 0), |p| (p.streak, p.interval_ms));
    let (streak, interval_ms) = match recall {
        Recall::Satisfactory => {
            let streak = streak.saturating_add(1);
            let floor = match streak {
                1 => FIRST_INTERVAL_MS,
                _ => SECOND_INTERVAL_MS,
            };
            let grown = interval.saturating_mul(EASE.0) / EASE.1;
            (streak, grown.max(floor).min(MAX_INTERVAL_MS))
        }
        Recall::Partial => (0, (interval / 2).min(SECOND_INTERVAL_MS)),
        Recall::Unsatisfactory => (0, 0),
    };
    ElementHistory {
        last_asked_ms: at_ms,
        last_outcome: recall,
        streak,
        interval_ms,
        due_ms: at_ms.saturating_add(interval_ms),
    }
}

/// Merges a finished session's outcomes into a user's history; returns how many entries
/// changed. An outcome no newer than the entry's `last_asked_ms` is skipped, so merging
/// the same session twice (a repeated report, a compare-and-set retry) or an older one late
/// changes nothing. The history stays within [`ELEMENT_HISTORY_MAX`].
pub fn merge_outcomes(
    history: &mut BTreeMap<String, ElementHistory>,
    outcomes: &[ElementOutcome],
) -> usize {
    let mut changed = 0;
    for outcome in outcomes {
        let prior = history.get(&outcome.element);
        if prior.is_some_and(|p| p.last_asked_ms >= outcome.at_ms) {
            continue;
        }
        let next = schedule(prior, outcome.recall, outcome.at_ms);
        history.insert(outcome.element.clone(), next);
        changed += 1;
    }
    bound(history, ELEMENT_HISTORY_MAX);
    changed
}

/// Drops the least recently asked entries (ties: code order) beyond `max`.
fn bound(history: &mut BTreeMap<String, ElementHistory>, max: usize) {
    let excess = history.len().saturating_sub(max);
    if excess == 0 {
        return;
    }
    let mut by_age: Vec<(u64, String)> = history
        .iter()
        .map(|(code, entry)| (entry.last_asked_ms, code.clone()))
        .collect();
    by_age.sort();
    for (_, code) in by_age.into_iter().take(excess) {
        history.remove(&code);
    }
}

/// What the user's record knows of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Its review history.
    History(ElementHistory),
    /// Only its last score, from a record written before the history was kept.
    ScoreOnly(Recall),
}

/// What the user's record knows, by element code.
pub type ReviewBook = BTreeMap<String, Known>;

/// The review book of a user record: each element's history, and the last score alone of
/// elements the history does not hold (unknown score names are left out).
pub fn review_book(
    history: &BTreeMap<String, ElementHistory>,
    last_scores: &BTreeMap<String, String>,
) -> ReviewBook {
    let scores_only = last_scores
        .iter()
        .filter(|(code, _)| !history.contains_key(*code))
        .filter_map(|(code, name)| Some((code.clone(), Known::ScoreOnly(Recall::parse(name)?))));
    let histories = history
        .iter()
        .map(|(code, entry)| (code.clone(), Known::History(*entry)));
    histories.chain(scores_only).collect()
}

/// Where an element stands for review now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Due: asked before and its time has come (a miss or a partial answer on an element
    /// never satisfactory: at once).
    Due {
        /// Its last outcome.
        recall: Recall,
        /// Time since it was last asked over its interval (at least a day), in thousandths;
        /// 0 for a score recorded before the history was kept.
        overdue_permille: u64,
    },
    /// Never asked.
    Untouched,
    /// Not due yet.
    Later {
        /// When it comes due; `None` for a satisfactory score recorded before the history.
        due_ms: Option<u64>,
    },
}

/// Where an element the record knows as `known` stands at `now_ms`.
pub fn standing(known: Option<&Known>, now_ms: u64) -> Standing {
    match known {
        None => Standing::Untouched,
        Some(Known::History(entry)) if is_due(entry, now_ms) => Standing::Due {
            recall: entry.last_outcome,
            overdue_permille: overdue_permille(entry, now_ms),
        },
        Some(Known::History(entry)) => Standing::Later {
            due_ms: Some(entry.due_ms),
        },
        Some(Known::ScoreOnly(Recall::Satisfactory)) => Standing::Later { due_ms: None },
        Some(Known::ScoreOnly(recall)) => Standing::Due {
            recall: *recall,
            overdue_permille: 0,
        },
    }
}

/// Whether `entry` is due at `now_ms` (from [`DUE_AHEAD_MS`] before its due time).
pub fn is_due(entry: &ElementHistory, now_ms: u64) -> bool {
    entry.due_ms <= now_ms.saturating_add(DUE_AHEAD_MS)
}

fn overdue_permille(entry: &ElementHistory, now_ms: u64) -> u64 {
    let elapsed = now_ms.saturating_sub(entry.last_asked_ms);
    let interval = entry.interval_ms.max(DAY_MS);
    elapsed.saturating_mul(1000) / interval
}

/// A sort key: smaller is asked sooner. Due (weakest, then most overdue), untouched, then
/// the rest (soonest due first, a score recorded before the history last).
pub fn urgency(standing: Standing) -> (u8, u8, Reverse<u64>, u64) {
    match standing {
        Standing::Due {
            recall,
            overdue_permille,
        } => (0, recall.weakness_rank(), Reverse(overdue_permille), 0),
        Standing::Untouched => (1, 0, Reverse(0), 0),
        Standing::Later { due_ms } => (2, 0, Reverse(0), due_ms.unwrap_or(u64::MAX)),
    }
}

#[cfg(test)]
#[path = "review_tests.rs"]
mod tests;
