//! Mastery (PV-AI-014): how drills and exam answers move a unit's streak and tier.
//!
//! A tier is earned only by passing the exam of the next tier with a drill streak of at
//! least 2 (bronze: a streak of 2 and a bronze pass; silver and gold the same at theirs).
//! **A later wrong drill never lowers a tier**: it resets the streak and counts as an
//! attempt, so the student can become stuck and get help, but an exam passed stays passed.
//! (The design document's update function would recompute the tier from the latest drills
//! and could lower it; a tier that a single slip takes away would make the badge and the
//! exam lockouts disagree, so Viva keeps earned tiers.)

use super::policy::EXAM_READY_STREAK;
use super::snapshot::{StudentSnapshot, Tier};

/// What a recorded exam answer did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExamRecord {
    /// Passed: the unit is now at this tier.
    Promoted(Tier),
    /// Right, but it earns nothing: not the next tier, or the streak was short.
    NoChange,
    /// Wrong: the question is locked and the unit goes on the revisit list.
    Failed,
}

impl StudentSnapshot {
    /// A drill on `unit` was graded: right extends the streak, wrong resets it; either is
    /// an attempt at the unit's current tier.
    pub fn record_drill(&mut self, unit: &str, right: bool, now_ms: u64) {
        let progress = self.units.entry(unit.to_owned()).or_default();
        progress.drill_attempts += 1;
        progress.drill_streak = if right { progress.drill_streak + 1 } else { 0 };
        progress.last_touched_ms = Some(now_ms);
    }

    /// An exam question of `tier` on `unit` was answered. A pass of the next tier with a
    /// streak of 2 or more promotes the unit and starts the new tier's drills afresh; a
    /// wrong answer locks the question until `now_ms + lockout_ms`.
    pub fn record_exam(
        &mut self,
        unit: &str,
        question_id: &str,
        tier: Tier,
        passed: bool,
        (now_ms, lockout_ms): (u64, u64),
    ) -> ExamRecord {
        let progress = self.units.entry(unit.to_owned()).or_default();
        progress.exam_touched = true;
        progress.last_touched_ms = Some(now_ms);
        if !passed {
            self.miss_exam(unit, question_id, (now_ms, lockout_ms));
            return ExamRecord::Failed;
        }
        if progress.tier.next() != Some(tier) || progress.drill_streak < EXAM_READY_STREAK {
            return ExamRecord::NoChange;
        }
        progress.tier = tier;
        progress.drill_attempts = 0;
        progress.drill_streak = 0;
        self.revisit.retain(|u| u != unit);
        ExamRecord::Promoted(tier)
    }
}

impl StudentSnapshot {
    /// An exam question of `unit` was missed: answered wrong, or its memo seen before it was
    /// answered. The question locks until `now_ms + lockout_ms`, the unit counts as
    /// exam-touched and goes on the revisit list (once).
    pub fn miss_exam(&mut self, unit: &str, question_id: &str, (now_ms, lockout_ms): (u64, u64)) {
        self.units.entry(unit.to_owned()).or_default().exam_touched = true;
        self.lock(question_id, now_ms, lockout_ms);
        if !self.revisit.iter().any(|u| u == unit) {
            self.revisit.push(unit.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = 24 * 3_600_000;

    fn drills(snapshot: &mut StudentSnapshot, results: &[bool]) {
        for (at, right) in results.iter().enumerate() {
            snapshot.record_drill("add", *right, at as u64);
        }
    }

    #[test]
    fn drills_extend_or_reset_the_streak_and_count_attempts() {
        let cases: [(&[bool], u32, u32); 5] = [
            (&[], 0, 0),
            (&[true], 1, 1),
            (&[true, true, true], 3, 3),
            (&[true, true, false], 3, 0),
            (&[false, false, true], 3, 1),
        ];
        for (results, attempts, streak) in cases {
            let mut snapshot = StudentSnapshot::cold_start("u", "c", "add");
            drills(&mut snapshot, results);
            let unit = snapshot.unit("add");
            assert_eq!(
                (unit.drill_attempts, unit.drill_streak),
                (attempts, streak),
                "{results:?}"
            );
        }
    }

    #[test]
    fn a_tier_is_earned_by_the_next_tier_s_pass_after_a_streak_of_two() {
        let cases: [(&[bool], Tier, bool, ExamRecord, Tier); 6] = [
            (
                &[true, true],
                Tier::Bronze,
                true,
                ExamRecord::Promoted(Tier::Bronze),
                Tier::Bronze,
            ),
            (
                &[true],
                Tier::Bronze,
                true,
                ExamRecord::NoChange,
                Tier::None,
            ),
            (
                &[true, true, false],
                Tier::Bronze,
                true,
                ExamRecord::NoChange,
                Tier::None,
            ),
            (
                &[true, true],
                Tier::Silver,
                true,
                ExamRecord::NoChange,
                Tier::None,
            ),
            (
                &[true, true],
                Tier::Bronze,
                false,
                ExamRecord::Failed,
                Tier::None,
            ),
            (
                &[false, true, true],
                Tier::Bronze,
                true,
                ExamRecord::Promoted(Tier::Bronze),
                Tier::Bronze,
            ),
        ];
        for (results, tier, passed, record, after) in cases {
            let mut snapshot = StudentSnapshot::cold_start("u", "c", "add");
            drills(&mut snapshot, results);
            let got = snapshot.record_exam("add", "q1", tier, passed, (10, DAY));
            assert_eq!(
                (got, snapshot.tier("add")),
                (record, after),
                "{results:?} {tier:?}"
            );
            assert!(snapshot.unit("add").exam_touched);
        }
    }

    #[test]
    fn a_later_wrong_drill_never_lowers_an_earned_tier() {
        let mut snapshot = StudentSnapshot::cold_start("u", "c", "add");
        drills(&mut snapshot, &[true, true]);
        snapshot.record_exam("add", "q1", Tier::Bronze, true, (10, DAY));
        drills(&mut snapshot, &[false, false, false]);
        let unit = snapshot.unit("add");
        assert_eq!(
            (unit.tier, unit.drill_attempts, unit.drill_streak),
            (Tier::Bronze, 3, 0)
        );
    }

    #[test]
    fn a_wrong_exam_answer_locks_its_question_and_queues_a_revisit_until_a_pass() {
        let mut snapshot = StudentSnapshot::cold_start("u", "c", "add");
        drills(&mut snapshot, &[true, true]);
        snapshot.record_exam("add", "q1", Tier::Bronze, false, (100, DAY));
        snapshot.record_exam("add", "q2", Tier::Bronze, false, (200, DAY));
        assert_eq!(snapshot.revisit, ["add"], "listed once");
        assert_eq!(snapshot.locks.get("q1"), Some(&(100 + DAY)));
        assert_eq!(snapshot.locks.get("q2"), Some(&(200 + DAY)));
        snapshot.record_exam("add", "q3", Tier::Bronze, true, (300, DAY));
        assert!(
            snapshot.revisit.is_empty(),
            "a pass takes the unit off the revisit list"
        );
    }
}
