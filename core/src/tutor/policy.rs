//! The policy of one tutor turn (PV-AI-009), computed in code before any reply is written:
//! the target unit, what blocks it, whether the student is stuck, the exam tier they are
//! working towards, whether they may take that exam now, the actions a reply may take, and
//! its size limits. A reply (the embedded brain's or a model's) is held to it.

use super::graph::{LearningPathGraph, first_blocker};
use super::scope::{Mapped, scoped_units, top_mapped};
use super::snapshot::{StudentSnapshot, Tier};

/// A mapped unit becomes the target only at this confidence or above; else the focus is.
pub const TARGET_CONFIDENCE: f64 = 0.55;
/// Drills attempted, with no streak, after which the student is stuck.
pub const STUCK_AFTER_ATTEMPTS: u32 = 2;
/// Drills right in a row before the exam of the next tier opens.
pub const EXAM_READY_STREAK: u32 = 2;

/// What a tutor reply may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Action {
    /// Ask a guiding question (always allowed).
    SocraticQuestion,
    /// Offer a drill on the target.
    Drill,
    /// Show a concept card: only when the student is stuck.
    ConceptCard,
    /// Point to the prerequisite that blocks the target.
    PrerequisiteNudge,
    /// Offer the exam of the desired tier: only when exam-ready.
    Exam,
}

/// Size limits of a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Constraints {
    /// Most words in the reply's text.
    pub max_words: u32,
    /// Most worked examples.
    pub max_worked_examples: u32,
    /// Most steps a drill card may show.
    pub max_drill_steps: u32,
    /// Most key ideas on a concept card.
    pub max_key_ideas: u32,
}

/// The document's limits: 170 words, 1 worked example, 2 drill steps, 3 key ideas.
pub const CONSTRAINTS: Constraints = Constraints {
    max_words: 170,
    max_worked_examples: 1,
    max_drill_steps: 2,
    max_key_ideas: 3,
};

/// What the policy reads besides the snapshot and graph.
#[derive(Debug, Clone, Copy)]
pub struct TurnFacts<'a> {
    /// The units the student's message maps to.
    pub mapped: &'a [Mapped],
    /// Whether an exam question of the target's desired tier is available (a candidate
    /// not locked for this student).
    pub exam_available: bool,
}

/// The policy of one turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// The unit the reply works on.
    pub target: String,
    /// The target's first prerequisite at tier none, if any.
    pub blocker: Option<String>,
    /// Two drills or more on the target with no streak.
    pub stuck: bool,
    /// The tier above the target's; `None` at gold.
    pub desired_exam_tier: Option<Tier>,
    /// The exam of the desired tier may be offered now.
    pub exam_ready: bool,
    /// What the reply may do, in [`Action`] order.
    pub allowed_actions: Vec<Action>,
    /// The units the reply may name.
    pub scoped_units: Vec<String>,
    /// Size limits.
    pub constraints: Constraints,
}

/// The target: the top mapped unit at confidence ≥ 0.55, else the focus.
pub fn target<'a>(
    mapped: &'a [Mapped],
    snapshot: &'a StudentSnapshot,
    graph: &LearningPathGraph,
) -> &'a str {
    top_mapped(mapped, graph)
        .first()
        .filter(|m| m.confidence >= TARGET_CONFIDENCE)
        .map_or(snapshot.focus_unit.as_str(), |m| m.unit.as_str())
}

/// The policy of this turn.
pub fn policy(
    snapshot: &StudentSnapshot,
    graph: &LearningPathGraph,
    facts: TurnFacts<'_>,
) -> Policy {
    let target = target(facts.mapped, snapshot, graph).to_owned();
    let progress = snapshot.unit(&target);
    let blocker = first_blocker(graph, &target, snapshot).map(str::to_owned);
    let stuck = progress.drill_attempts >= STUCK_AFTER_ATTEMPTS && progress.drill_streak == 0;
    let desired_exam_tier = progress.tier.next();
    let exam_ready = desired_exam_tier.is_some()
        && blocker.is_none()
        && progress.drill_streak >= EXAM_READY_STREAK
        && facts.exam_available;
    let mut allowed_actions = vec![Action::SocraticQuestion];
    if desired_exam_tier.is_some() {
        allowed_actions.push(Action::Drill);
    }
    if stuck {
        allowed_actions.push(Action::ConceptCard);
    }
    if blocker.is_some() {
        allowed_actions.push(Action::PrerequisiteNudge);
    }
    if exam_ready {
        allowed_actions.push(Action::Exam);
    }
    Policy {
        scoped_units: scoped_units(facts.mapped, snapshot, graph),
        target,
        blocker,
        stuck,
        desired_exam_tier,
        exam_ready,
        allowed_actions,
        constraints: CONSTRAINTS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::graph::tests::aviation;
    use crate::tutor::snapshot::UnitProgress;
    use Action::{ConceptCard, Drill, Exam, PrerequisiteNudge, SocraticQuestion};

    fn mapped(unit: &str, confidence: f64) -> Vec<Mapped> {
        vec![Mapped {
            unit: unit.into(),
            confidence,
        }]
    }

    fn progress(tier: Tier, attempts: u32, streak: u32) -> UnitProgress {
        UnitProgress {
            tier,
            drill_attempts: attempts,
            drill_streak: streak,
            last_touched_ms: Some(1),
            exam_touched: false,
        }
    }

    #[test]
    fn the_target_is_a_confident_mapping_else_the_focus() {
        let graph = aviation();
        let snapshot = StudentSnapshot::cold_start("u", "ppl", "theory");
        let cases = [
            (mapped("services", 0.55), "services"),
            (mapped("services", 0.549), "theory"),
            (mapped("no-such-unit", 0.99), "theory"),
            (Vec::new(), "theory"),
        ];
        for (mapped, expected) in cases {
            assert_eq!(target(&mapped, &snapshot, &graph), expected, "{mapped:?}");
        }
    }

    /// (target's progress, other units' tiers, exam available) → (blocker, stuck, desired,
    /// ready, allowed).
    #[test]
    fn the_policy_follows_from_progress_prerequisites_and_exam_availability() {
        let graph = aviation();
        type Row<'a> = (
            UnitProgress,
            &'a [(&'a str, Tier)],
            bool,
            Option<&'a str>,
            bool,
            Option<Tier>,
            bool,
            &'a [Action],
        );
        let rows: [Row<'_>; 7] = [
            // A new unit whose prerequisite is untouched: blocked, so no exam even at streak 2.
            (
                progress(Tier::None, 2, 2),
                &[],
                true,
                Some("theory"),
                false,
                Some(Tier::Bronze),
                false,
                &[SocraticQuestion, Drill, PrerequisiteNudge],
            ),
            // Prerequisite at bronze, streak 2, a bronze question free: exam-ready.
            (
                progress(Tier::None, 2, 2),
                &[("theory", Tier::Bronze)],
                true,
                None,
                false,
                Some(Tier::Bronze),
                true,
                &[SocraticQuestion, Drill, Exam],
            ),
            // The same with every bronze question locked: not ready.
            (
                progress(Tier::None, 2, 2),
                &[("theory", Tier::Bronze)],
                false,
                None,
                false,
                Some(Tier::Bronze),
                false,
                &[SocraticQuestion, Drill],
            ),
            // Two wrong drills: stuck, so a concept card is allowed.
            (
                progress(Tier::None, 2, 0),
                &[("theory", Tier::Bronze)],
                true,
                None,
                true,
                Some(Tier::Bronze),
                false,
                &[SocraticQuestion, Drill, ConceptCard],
            ),
            // One wrong drill: not stuck yet.
            (
                progress(Tier::None, 1, 0),
                &[("theory", Tier::Bronze)],
                true,
                None,
                false,
                Some(Tier::Bronze),
                false,
                &[SocraticQuestion, Drill],
            ),
            // Silver, streak 3: the gold exam.
            (
                progress(Tier::Silver, 5, 3),
                &[("theory", Tier::Gold)],
                true,
                None,
                false,
                Some(Tier::Gold),
                true,
                &[SocraticQuestion, Drill, Exam],
            ),
            // Gold: nothing above, so no drill and no exam.
            (
                progress(Tier::Gold, 9, 4),
                &[("theory", Tier::Gold)],
                true,
                None,
                false,
                None,
                false,
                &[SocraticQuestion],
            ),
        ];
        for (target, others, available, blocker, stuck, desired, ready, allowed) in rows {
            let mut snapshot = StudentSnapshot::cold_start("u", "ppl", "services");
            snapshot.units.insert("services".into(), target.clone());
            for (unit, tier) in others {
                let at = UnitProgress {
                    tier: *tier,
                    ..UnitProgress::default()
                };
                snapshot.units.insert((*unit).into(), at);
            }
            let facts = TurnFacts {
                mapped: &[],
                exam_available: available,
            };
            let got = policy(&snapshot, &graph, facts);
            let what = format!("{target:?} {others:?} {available}");
            assert_eq!(got.target, "services", "{what}");
            assert_eq!(got.blocker.as_deref(), blocker, "{what}");
            assert_eq!(
                (got.stuck, got.desired_exam_tier, got.exam_ready),
                (stuck, desired, ready),
                "{what}"
            );
            assert_eq!(got.allowed_actions, allowed, "{what}");
            assert_eq!(got.constraints, CONSTRAINTS);
        }
    }

    #[test]
    fn the_document_s_limits() {
        let limits = (CONSTRAINTS.max_words, CONSTRAINTS.max_worked_examples);
        assert_eq!(limits, (170, 1));
        assert_eq!(
            (CONSTRAINTS.max_drill_steps, CONSTRAINTS.max_key_ideas),
            (2, 3)
        );
    }
}
