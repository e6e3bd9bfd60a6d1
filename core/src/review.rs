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
mod tests {
    use super::*;

    const T0: u64 = 1_765_000_000_000;
    const HOUR_MS: u64 = 60 * 60 * 1000;

    fn entry(outcome: Recall, streak: u32, interval_days: u64, asked: u64) -> ElementHistory {
        let interval_ms = interval_days * DAY_MS;
        ElementHistory {
            last_asked_ms: asked,
            last_outcome: outcome,
            streak,
            interval_ms,
            due_ms: asked + interval_ms,
        }
    }

    #[test]
    fn the_schedule_follows_the_documented_intervals() {
        use Recall::*;
        // (prior streak, prior interval in hours; none: never asked), outcome,
        // expected streak and interval in hours.
        let check = |prior: Option<(u32, u64)>, recall, streak, hours: u64| {
            let prior = prior.map(|(streak, hours)| ElementHistory {
                interval_ms: hours * HOUR_MS,
                ..entry(Satisfactory, streak, 0, T0 - DAY_MS)
            });
            let next = schedule(prior.as_ref(), recall, T0);
            let case = format!("{prior:?} {recall:?}");
            assert_eq!(
                (next.streak, next.interval_ms),
                (streak, hours * HOUR_MS),
                "{case}"
            );
            assert_eq!(next.due_ms, T0 + next.interval_ms, "{case}");
            assert_eq!(
                (next.last_asked_ms, next.last_outcome),
                (T0, recall),
                "{case}"
            );
        };
        check(None, Satisfactory, 1, 24); // first: 1 day
        check(Some((1, 24)), Satisfactory, 2, 144); // second: 6 days (2.5 days is less)
        check(Some((2, 144)), Satisfactory, 3, 360); // then × 2.5: 15 days
        check(Some((3, 360)), Satisfactory, 4, 900); // 37.5 days
        check(Some((4, 900)), Satisfactory, 5, 1440); // capped at 60 days
        check(Some((9, 1440)), Satisfactory, 10, 1440);
        check(Some((0, 72)), Satisfactory, 1, 180); // after a partial: × 2.5 of what is left
        check(None, Partial, 0, 0); // never satisfactory: due at once
        check(Some((1, 24)), Partial, 0, 12); // halved
        check(Some((5, 1440)), Partial, 0, 144); // halved, at most 6 days
        check(Some((5, 1440)), Unsatisfactory, 0, 0); // due at once
        check(None, Unsatisfactory, 0, 0);
    }

    #[test]
    fn standing_and_urgency_order_due_untouched_then_later() {
        use Recall::*;
        let now = T0 + 10 * DAY_MS;
        let known = [
            // (label, what the record knows)
            (
                "sat due long ago",
                Some(Known::History(entry(Satisfactory, 1, 1, T0))),
            ),
            (
                "sat just due",
                Some(Known::History(entry(Satisfactory, 2, 6, now - 6 * DAY_MS))),
            ),
            (
                "sat due in 3 h",
                Some(Known::History(entry(
                    Satisfactory,
                    1,
                    1,
                    now - 21 * HOUR_MS,
                ))),
            ),
            (
                "partial, old",
                Some(Known::History(entry(Partial, 0, 0, T0))),
            ),
            (
                "miss, old",
                Some(Known::History(entry(Unsatisfactory, 0, 0, T0))),
            ),
            (
                "miss, yesterday",
                Some(Known::History(entry(Unsatisfactory, 0, 0, now - DAY_MS))),
            ),
            ("miss, score only", Some(Known::ScoreOnly(Unsatisfactory))),
            ("untouched", None),
            ("sat, score only", Some(Known::ScoreOnly(Satisfactory))),
            (
                "sat due in 5 h",
                Some(Known::History(entry(
                    Satisfactory,
                    1,
                    1,
                    now - 19 * HOUR_MS,
                ))),
            ),
            (
                "sat due in 20 d",
                Some(Known::History(entry(
                    Satisfactory,
                    4,
                    30,
                    now - 10 * DAY_MS,
                ))),
            ),
        ];
        let mut order: Vec<(&str, Standing)> = known
            .iter()
            .map(|(label, known)| (*label, standing(known.as_ref(), now)))
            .collect();
        order.sort_by_key(|(_, standing)| urgency(*standing));
        let labels: Vec<&str> = order.iter().map(|(label, _)| *label).collect();
        let expected = [
            "miss, old",
            "miss, yesterday",
            "miss, score only",
            "partial, old",
            "sat due long ago",
            "sat just due",
            "sat due in 3 h",
            "untouched",
            "sat due in 5 h",
            "sat due in 20 d",
            "sat, score only",
        ];
        assert_eq!(labels, expected);
    }

    #[test]
    fn merging_is_idempotent_and_ignores_older_outcomes() {
        let outcome = |element: &str, recall, at_ms| ElementOutcome {
            element: element.into(),
            recall,
            at_ms,
        };
        let mut history = BTreeMap::new();
        let first = [
            outcome("PA.I.A.K1", Recall::Satisfactory, T0),
            outcome("PA.I.A.K2", Recall::Partial, T0),
        ];
        assert_eq!(merge_outcomes(&mut history, &first), 2);
        let once = history.clone();
        assert_eq!(
            merge_outcomes(&mut history, &first),
            0,
            "the same report again"
        );
        assert_eq!(history, once);
        let second = [outcome("PA.I.A.K1", Recall::Satisfactory, T0 + 2 * DAY_MS)];
        assert_eq!(merge_outcomes(&mut history, &second), 1);
        assert_eq!(history["PA.I.A.K1"].streak, 2);
        assert_eq!(history["PA.I.A.K1"].interval_ms, SECOND_INTERVAL_MS);
        let late = [outcome("PA.I.A.K1", Recall::Unsatisfactory, T0 + DAY_MS)];
        assert_eq!(
            merge_outcomes(&mut history, &late),
            0,
            "older than what is kept"
        );
        assert_eq!(history["PA.I.A.K1"].streak, 2);
    }

    #[test]
    fn the_history_keeps_the_most_recently_asked_within_its_bound() {
        let mut history = BTreeMap::new();
        let outcomes: Vec<ElementOutcome> = (0..ELEMENT_HISTORY_MAX as u64 + 3)
            .map(|n| ElementOutcome {
                element: format!("E{n:05}"),
                recall: Recall::Satisfactory,
                at_ms: T0 + n,
            })
            .collect();
        merge_outcomes(&mut history, &outcomes);
        assert_eq!(history.len(), ELEMENT_HISTORY_MAX);
        assert!(!history.contains_key("E00000") && !history.contains_key("E00002"));
        assert!(history.contains_key("E00003"));
    }

    #[test]
    fn the_review_book_prefers_the_history_and_keeps_older_scores() {
        let history = BTreeMap::from([("A".to_owned(), entry(Recall::Partial, 0, 0, T0))]);
        let scores = BTreeMap::from([
            ("A".to_owned(), "satisfactory".to_owned()),
            ("B".to_owned(), "unsatisfactory".to_owned()),
            ("C".to_owned(), "bogus".to_owned()),
        ]);
        let book = review_book(&history, &scores);
        assert_eq!(book.len(), 2);
        assert_eq!(book["A"], Known::History(entry(Recall::Partial, 0, 0, T0)));
        assert_eq!(book["B"], Known::ScoreOnly(Recall::Unsatisfactory));
    }

    #[test]
    fn the_stored_form_is_the_documented_json() {
        let stored = r#"{"last_asked_ms": 1765000000000, "last_outcome": "satisfactory",
            "streak": 2, "interval_ms": 518400000, "due_ms": 1765518400000}"#;
        let entry: ElementHistory = serde_json::from_str(stored).unwrap();
        assert_eq!(entry, self::entry(Recall::Satisfactory, 2, 6, T0));
        for recall in [
            Recall::Satisfactory,
            Recall::Partial,
            Recall::Unsatisfactory,
        ] {
            let json = serde_json::to_string(&recall).unwrap();
            assert_eq!(json, format!("\"{}\"", recall.as_str()));
            assert_eq!(Recall::parse(recall.as_str()), Some(recall));
        }
    }
}
