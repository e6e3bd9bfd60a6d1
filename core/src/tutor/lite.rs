//! `SnapshotLite` (PV-AI-019): the part of a student's snapshot the tutor screen shows —
//! the focus unit and its tier badge, the prerequisite to do first, what to revisit, how
//! many units are at each tier, and the countdown of each locked question.

use super::graph::{LearningPathGraph, first_blocker};
use super::snapshot::{StudentSnapshot, Tier};

/// Revisit entries shown.
pub const REVISIT_SHOWN: usize = 3;

/// Units of the course at each tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TierCounts {
    /// At none (untouched included).
    pub none: u32,
    /// At bronze.
    pub bronze: u32,
    /// At silver.
    pub silver: u32,
    /// At gold.
    pub gold: u32,
}

/// A locked exam question and when it unlocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockShown {
    /// The question.
    pub question_id: String,
    /// Whole seconds left, rounded up.
    pub seconds_left: u64,
}

/// What the tutor screen shows of the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotLite {
    /// The focus unit.
    pub focus_unit: String,
    /// Its tier badge.
    pub focus_tier: Tier,
    /// The focus unit's first prerequisite at tier none, to do first.
    pub prerequisite_nudge: Option<String>,
    /// Units to come back to, oldest first, at most [`REVISIT_SHOWN`].
    pub revisit: Vec<String>,
    /// How many more are on the revisit list.
    pub revisit_more: u32,
    /// Units at each tier.
    pub counts: TierCounts,
    /// Locked questions, soonest to unlock first.
    pub locks: Vec<LockShown>,
}

/// The lite view of `snapshot` over the course's `units` at `now_ms`.
pub fn snapshot_lite(
    snapshot: &StudentSnapshot,
    graph: &LearningPathGraph,
    units: &[String],
    now_ms: u64,
) -> SnapshotLite {
    let mut counts = TierCounts::default();
    for unit in units {
        let count = match snapshot.tier(unit) {
            Tier::None => &mut counts.none,
            Tier::Bronze => &mut counts.bronze,
            Tier::Silver => &mut counts.silver,
            Tier::Gold => &mut counts.gold,
        };
        *count += 1;
    }
    let mut locks: Vec<LockShown> = snapshot
        .locks
        .keys()
        .filter_map(|id| {
            let left = snapshot.locked_for_ms(id, now_ms)?;
            let seconds_left = left.div_ceil(1000);
            Some(LockShown {
                question_id: id.clone(),
                seconds_left,
            })
        })
        .collect();
    locks.sort_by(|a, b| {
        a.seconds_left
            .cmp(&b.seconds_left)
            .then(a.question_id.cmp(&b.question_id))
    });
    let focus = &snapshot.focus_unit;
    SnapshotLite {
        focus_unit: focus.clone(),
        focus_tier: snapshot.tier(focus),
        prerequisite_nudge: first_blocker(graph, focus, snapshot).map(str::to_owned),
        revisit: snapshot
            .revisit
            .iter()
            .take(REVISIT_SHOWN)
            .cloned()
            .collect(),
        revisit_more: snapshot.revisit.len().saturating_sub(REVISIT_SHOWN) as u32,
        counts,
        locks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::graph::tests::aviation;
    use crate::tutor::snapshot::UnitProgress;

    #[test]
    fn the_lite_view_shows_focus_nudge_revisits_counts_and_countdowns() {
        let graph = aviation();
        let units: Vec<String> = ["theory", "services", "aero", "performance"]
            .map(String::from)
            .to_vec();
        let mut snapshot = StudentSnapshot::cold_start("u", "ppl", "performance");
        let at = |tier| UnitProgress {
            tier,
            ..UnitProgress::default()
        };
        snapshot.units.insert("aero".into(), at(Tier::Silver));
        snapshot.units.insert("services".into(), at(Tier::Gold));
        snapshot.revisit = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        snapshot.lock("q-late", 0, 90_000);
        snapshot.lock("q-soon", 0, 1_500);
        snapshot.lock("q-done", 0, 500);
        let lite = snapshot_lite(&snapshot, &graph, &units, 1_000);
        assert_eq!(
            (lite.focus_unit.as_str(), lite.focus_tier),
            ("performance", Tier::None)
        );
        assert_eq!(
            lite.prerequisite_nudge.as_deref(),
            Some("theory"),
            "aero is past none"
        );
        assert_eq!(
            (lite.revisit, lite.revisit_more),
            (vec!["a".into(), "b".into(), "c".into()], 2)
        );
        let counts = TierCounts {
            none: 2,
            bronze: 0,
            silver: 1,
            gold: 1,
        };
        assert_eq!(lite.counts, counts);
        let shown: Vec<(&str, u64)> = lite
            .locks
            .iter()
            .map(|l| (l.question_id.as_str(), l.seconds_left))
            .collect();
        assert_eq!(
            shown,
            [("q-soon", 1), ("q-late", 89)],
            "an expired lock is not shown"
        );
    }
}
