//! Which units a student is blocked on: a unit is blocked while one of its direct
//! prerequisites is still at tier none. The graph itself (units, edges, no cycle) is the
//! course's: [`LearningPathGraph`].

pub use viva_blueprint::course::graph::{GraphError, LearningPathGraph, Prerequisite};

use super::snapshot::{StudentSnapshot, Tier};

/// The first direct prerequisite of `unit` still at tier none: what blocks it.
pub fn first_blocker<'a>(
    graph: &'a LearningPathGraph,
    unit: &str,
    snapshot: &StudentSnapshot,
) -> Option<&'a str> {
    graph
        .prerequisites(unit)
        .iter()
        .find(|before| snapshot.tier(before) == Tier::None)
        .map(String::as_str)
}

/// Whether a direct prerequisite of `unit` is still at tier none.
pub fn is_blocked(graph: &LearningPathGraph, unit: &str, snapshot: &StudentSnapshot) -> bool {
    first_blocker(graph, unit, snapshot).is_some()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::tutor::snapshot::UnitProgress;

    pub(crate) fn edge(unit: &str, before: &str) -> Prerequisite {
        Prerequisite {
            unit: unit.into(),
            before: before.into(),
        }
    }

    pub(crate) fn names(units: &[&str]) -> Vec<String> {
        units.iter().map(|u| (*u).to_owned()).collect()
    }

    /// Weather theory before weather services; aerodynamics before performance, which also
    /// needs weather theory.
    pub(crate) fn aviation() -> LearningPathGraph {
        let units = names(&["theory", "services", "aero", "performance"]);
        let edges = [
            edge("services", "theory"),
            edge("performance", "aero"),
            edge("performance", "theory"),
        ];
        LearningPathGraph::new(&units, &edges).unwrap()
    }

    #[test]
    fn a_unit_is_blocked_by_its_first_prerequisite_at_tier_none() {
        let graph = aviation();
        let mut snapshot = StudentSnapshot::cold_start("u", "ppl", "theory");
        let at = |tier| UnitProgress {
            tier,
            ..UnitProgress::default()
        };
        type Tiers<'a> = &'a [(&'a str, Tier)];
        let cases: [(Tiers<'_>, &str, Option<&str>); 5] = [
            (&[], "theory", None),
            (&[], "services", Some("theory")),
            (&[], "performance", Some("aero")),
            (&[("aero", Tier::Bronze)], "performance", Some("theory")),
            (
                &[("aero", Tier::Bronze), ("theory", Tier::Silver)],
                "performance",
                None,
            ),
        ];
        for (tiers, unit, blocker) in cases {
            snapshot.units.clear();
            for (id, tier) in tiers {
                snapshot.units.insert((*id).to_owned(), at(*tier));
            }
            assert_eq!(
                first_blocker(&graph, unit, &snapshot),
                blocker,
                "{unit} {tiers:?}"
            );
            assert_eq!(is_blocked(&graph, unit, &snapshot), blocker.is_some());
        }
    }
}
