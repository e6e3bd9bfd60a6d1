//! Exam questions a student may take (PV-AI-017) and Viva's lockouts: a wrong answer or a
//! viewed memo locks that question for that student for 24 h (configurable). Availability
//! is computed from the turn's candidate question ids only, never from anything a reply
//! names.

use super::snapshot::{StudentSnapshot, Tier};

/// How long a question stays locked by default.
pub const LOCKOUT_MS: u64 = 24 * 3_600_000;

/// An exam question the retrieval proposed for this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CandidateQuestion<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its unit.
    pub unit: &'a str,
    /// Its tier.
    pub tier: Tier,
}

impl StudentSnapshot {
    /// Locks `question_id` until `now_ms + lockout_ms` (a later lock never shortens one).
    pub fn lock(&mut self, question_id: &str, now_ms: u64, lockout_ms: u64) {
        let until = now_ms.saturating_add(lockout_ms);
        let lock = self.locks.entry(question_id.to_owned()).or_insert(until);
        *lock = (*lock).max(until);
    }

    /// Milliseconds until `question_id` unlocks; `None` when it is not locked.
    pub fn locked_for_ms(&self, question_id: &str, now_ms: u64) -> Option<u64> {
        self.locks
            .get(question_id)
            .filter(|until| **until > now_ms)
            .map(|until| until - now_ms)
    }

    /// Forgets locks that have run out.
    pub fn expire_locks(&mut self, now_ms: u64) {
        self.locks.retain(|_, until| *until > now_ms);
    }

    /// The candidates of `unit` at `tier` this student may take now, in candidate order.
    pub fn available_questions<'a>(
        &self,
        candidates: &[CandidateQuestion<'a>],
        unit: &str,
        tier: Tier,
        now_ms: u64,
    ) -> Vec<&'a str> {
        candidates
            .iter()
            .filter(|q| q.unit == unit && q.tier == tier)
            .filter(|q| self.locked_for_ms(q.id, now_ms).is_none())
            .map(|q| q.id)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(id: &'static str, unit: &'static str, tier: Tier) -> CandidateQuestion<'static> {
        CandidateQuestion { id, unit, tier }
    }

    #[test]
    fn a_lock_runs_its_time_and_a_later_one_never_shortens_it() {
        let mut snapshot = StudentSnapshot::cold_start("u", "c", "add");
        snapshot.lock("q1", 1_000, LOCKOUT_MS);
        snapshot.lock("q1", 2_000, 10);
        let cases = [
            (1_000, Some(LOCKOUT_MS)),
            (1_000 + LOCKOUT_MS - 1, Some(1)),
            (1_000 + LOCKOUT_MS, None),
        ];
        for (now, left) in cases {
            assert_eq!(snapshot.locked_for_ms("q1", now), left, "{now}");
        }
        assert_eq!(snapshot.locked_for_ms("q2", 0), None);
        snapshot.expire_locks(1_000 + LOCKOUT_MS);
        assert!(snapshot.locks.is_empty());
    }

    #[test]
    fn only_unlocked_candidates_of_the_unit_and_tier_are_available() {
        let mut snapshot = StudentSnapshot::cold_start("u", "c", "add");
        snapshot.lock("b2", 0, LOCKOUT_MS);
        let candidates = [
            q("b1", "add", Tier::Bronze),
            q("b2", "add", Tier::Bronze),
            q("s1", "add", Tier::Silver),
            q("x1", "sub", Tier::Bronze),
            q("b3", "add", Tier::Bronze),
        ];
        let cases = [
            ("add", Tier::Bronze, 5, vec!["b1", "b3"]),
            ("add", Tier::Bronze, LOCKOUT_MS, vec!["b1", "b2", "b3"]),
            ("add", Tier::Silver, 5, vec!["s1"]),
            ("add", Tier::Gold, 5, vec![]),
            ("mul", Tier::Bronze, 5, vec![]),
        ];
        for (unit, tier, now, expected) in cases {
            let got = snapshot.available_questions(&candidates, unit, tier, now);
            assert_eq!(got, expected, "{unit} {tier:?} at {now}");
        }
    }
}
