//! The priority of a candidate unit for this turn (PV-AI-008): what the student asked about,
//! what they worked on lately, what is in progress, how far the unit is from gold, and how
//! close its drills are to exam-ready.
//!
//! `score = 0.35·intent + 0.15·recency + 0.15·in_progress + 0.20·tier_need + 0.15·drill`,
//! clamped to [0, 1], where `intent = 0.7·mapped + 0.3·focus`.

use super::snapshot::{Tier, UnitProgress};

/// Recency falls linearly to 0 over this many hours.
pub const RECENCY_HOURS: f64 = 72.0;

/// What the score of one unit reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PriorityInputs {
    /// The mapping's confidence that the student's message is about this unit (0 if not
    /// mapped), in [0, 1].
    pub mapped: f64,
    /// The unit is the student's focus.
    pub focus: bool,
    /// When the student last worked on it, ms since the epoch.
    pub last_touched_ms: Option<u64>,
    /// Started and not yet gold.
    pub in_progress: bool,
    /// Its tier.
    pub tier: Tier,
    /// Drills right in a row.
    pub drill_streak: u32,
}

impl PriorityInputs {
    /// The inputs of a unit with this progress.
    pub fn of(progress: &UnitProgress, mapped: f64, focus: bool) -> PriorityInputs {
        PriorityInputs {
            mapped,
            focus,
            last_touched_ms: progress.last_touched_ms,
            in_progress: progress.in_progress(),
            tier: progress.tier,
            drill_streak: progress.drill_streak,
        }
    }
}

/// 1 just after the student worked on the unit, falling linearly to 0 after 72 h; 0 for a
/// unit never touched. (A unit touched "in the future" by a skewed clock counts as now.)
pub fn recency(last_touched_ms: Option<u64>, now_ms: u64) -> f64 {
    let Some(touched) = last_touched_ms else {
        return 0.0;
    };
    let hours = now_ms.saturating_sub(touched) as f64 / 3_600_000.0;
    (1.0 - hours / RECENCY_HOURS).clamp(0.0, 1.0)
}

/// Drill readiness: 0 with no streak, 0.5 after one right drill, 1 after two or more.
pub fn drill_readiness(streak: u32) -> f64 {
    match streak {
        0 => 0.0,
        1 => 0.5,
        _ => 1.0,
    }
}

/// What the student means to work on: 0.7 of the mapping's confidence (clamped to [0, 1];
/// not a number counts as 0), 0.3 for the focus.
pub fn intent(mapped: f64, focus: bool) -> f64 {
    let mapped = if mapped.is_nan() {
        0.0
    } else {
        mapped.clamp(0.0, 1.0)
    };
    0.7 * mapped + if focus { 0.3 } else { 0.0 }
}

/// The unit's priority, in [0, 1].
pub fn priority(inputs: &PriorityInputs, now_ms: u64) -> f64 {
    let score = 0.35 * intent(inputs.mapped, inputs.focus)
        + 0.15 * recency(inputs.last_touched_ms, now_ms)
        + 0.15 * if inputs.in_progress { 1.0 } else { 0.0 }
        + 0.20 * inputs.tier.need()
        + 0.15 * drill_readiness(inputs.drill_streak);
    score.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: u64 = 3_600_000;
    const NOW: u64 = 1_000 * HOUR;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn recency_falls_linearly_over_72_hours() {
        let cases = [
            (None, 0.0),
            (Some(NOW), 1.0),
            (Some(NOW - 18 * HOUR), 0.75),
            (Some(NOW - 36 * HOUR), 0.5),
            (Some(NOW - 72 * HOUR), 0.0),
            (Some(NOW - 500 * HOUR), 0.0),
            (Some(NOW + HOUR), 1.0),
        ];
        for (touched, expected) in cases {
            assert!(close(recency(touched, NOW), expected), "{touched:?}");
        }
    }

    #[test]
    fn drill_streak_and_intent_follow_the_document() {
        let streaks = [(0, 0.0), (1, 0.5), (2, 1.0), (7, 1.0)];
        for (streak, expected) in streaks {
            assert_eq!(drill_readiness(streak), expected);
        }
        let intents = [
            (1.0, true, 1.0),
            (1.0, false, 0.7),
            (0.0, true, 0.3),
            (0.5, false, 0.35),
            (f64::NAN, true, 0.3),
            (-2.0, false, 0.0),
        ];
        for (mapped, focus, expected) in intents {
            assert!(close(intent(mapped, focus), expected), "{mapped} {focus}");
        }
    }

    #[test]
    fn the_score_weighs_intent_recency_progress_need_and_drills() {
        let base = PriorityInputs {
            mapped: 0.0,
            focus: false,
            last_touched_ms: None,
            in_progress: false,
            tier: Tier::Gold,
            drill_streak: 0,
        };
        let cases = [
            // Only tier need: gold 0.1 × 0.20.
            (base, 0.02),
            (
                PriorityInputs {
                    tier: Tier::None,
                    ..base
                },
                0.20,
            ),
            (
                PriorityInputs {
                    tier: Tier::Bronze,
                    ..base
                },
                0.14,
            ),
            (
                PriorityInputs {
                    tier: Tier::Silver,
                    ..base
                },
                0.08,
            ),
            // Mapped at 0.8 and the focus: intent 0.86 × 0.35 = 0.301, + 0.02.
            (
                PriorityInputs {
                    mapped: 0.8,
                    focus: true,
                    ..base
                },
                0.321,
            ),
            // Touched 36 h ago and in progress: 0.075 + 0.15 + 0.02.
            (
                PriorityInputs {
                    last_touched_ms: Some(NOW - 36 * HOUR),
                    in_progress: true,
                    ..base
                },
                0.245,
            ),
            // One right drill: 0.075 + 0.02.
            (
                PriorityInputs {
                    drill_streak: 1,
                    ..base
                },
                0.095,
            ),
            // Everything at its top: 0.35 + 0.15 + 0.15 + 0.20 + 0.15 = 1.0.
            (
                PriorityInputs {
                    mapped: 1.0,
                    focus: true,
                    last_touched_ms: Some(NOW),
                    in_progress: true,
                    tier: Tier::None,
                    drill_streak: 2,
                },
                1.0,
            ),
            // A confidence above 1 from a careless mapper is clamped.
            (
                PriorityInputs {
                    mapped: 9.0,
                    focus: true,
                    tier: Tier::None,
                    ..base
                },
                0.55,
            ),
        ];
        for (inputs, expected) in cases {
            let got = priority(&inputs, NOW);
            assert!(close(got, expected), "{inputs:?}: {got} ≠ {expected}");
        }
    }
}
