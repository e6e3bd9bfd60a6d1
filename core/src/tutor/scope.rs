//! Which units a turn may touch (PV-AI-007). Candidates: the top 3 units the student's
//! message maps to, the focus unit, the 3 units most recently in progress, and one hop of
//! prerequisites of each. The scoped units are the candidates in that order, each once, at
//! most 6; the tutor's reply may target only those.

use super::graph::LearningPathGraph;
use super::snapshot::StudentSnapshot;

/// Mapped units that become candidates.
pub const TOP_MAPPED: usize = 3;
/// Units in progress that become candidates.
pub const IN_PROGRESS: usize = 3;
/// Most scoped units.
pub const MAX_SCOPED: usize = 6;

/// A unit the student's message was mapped to, with the mapping's confidence.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapped {
    /// The unit.
    pub unit: String,
    /// Confidence in [0, 1].
    pub confidence: f64,
}

/// The top mapped units, highest confidence first (ties keep the mapper's order); unknown
/// units and confidences that are not a number in [0, 1] are dropped, whoever mapped them.
pub fn top_mapped<'a>(mapped: &'a [Mapped], graph: &LearningPathGraph) -> Vec<&'a Mapped> {
    let mut known: Vec<&Mapped> = mapped
        .iter()
        .filter(|m| graph.contains(&m.unit) && (0.0..=1.0).contains(&m.confidence))
        .collect();
    known.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    known.truncate(TOP_MAPPED);
    known
}

/// The turn's scoped units, in the document's order, at most [`MAX_SCOPED`].
pub fn scoped_units(
    mapped: &[Mapped],
    snapshot: &StudentSnapshot,
    graph: &LearningPathGraph,
) -> Vec<String> {
    let mut first: Vec<&str> = top_mapped(mapped, graph)
        .into_iter()
        .map(|m| m.unit.as_str())
        .collect();
    first.push(&snapshot.focus_unit);
    first.extend(snapshot.in_progress().into_iter().take(IN_PROGRESS));
    let prerequisites: Vec<&str> = first
        .iter()
        .flat_map(|unit| graph.prerequisites(unit))
        .map(String::as_str)
        .collect();
    let mut scoped: Vec<String> = Vec::new();
    for unit in first.into_iter().chain(prerequisites) {
        if scoped.len() == MAX_SCOPED {
            break;
        }
        if graph.contains(unit) && !scoped.iter().any(|s| s == unit) {
            scoped.push(unit.to_owned());
        }
    }
    scoped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::graph::tests::{edge, names};
    use crate::tutor::snapshot::UnitProgress;

    pub(crate) fn mapped(pairs: &[(&str, f64)]) -> Vec<Mapped> {
        pairs
            .iter()
            .map(|(unit, confidence)| Mapped {
                unit: (*unit).into(),
                confidence: *confidence,
            })
            .collect()
    }

    fn graph() -> LearningPathGraph {
        let units = names(&["a", "b", "c", "d", "e", "f", "g", "h"]);
        let edges = [
            edge("b", "a"),
            edge("c", "b"),
            edge("h", "g"),
            edge("d", "f"),
        ];
        LearningPathGraph::new(&units, &edges).unwrap()
    }

    fn snapshot(focus: &str, in_progress: &[(&str, u64)]) -> StudentSnapshot {
        let mut snapshot = StudentSnapshot::cold_start("u", "c", focus);
        for (unit, at) in in_progress {
            let progress = UnitProgress {
                last_touched_ms: Some(*at),
                ..UnitProgress::default()
            };
            snapshot.units.insert((*unit).into(), progress);
        }
        snapshot
    }

    #[test]
    fn scoped_units_are_mapped_then_focus_then_in_progress_then_prerequisites() {
        let graph = graph();
        let cases: [(Vec<Mapped>, StudentSnapshot, &[&str]); 6] = [
            (mapped(&[]), snapshot("a", &[]), &["a"]),
            (mapped(&[("c", 0.9)]), snapshot("a", &[]), &["c", "a", "b"]),
            // Highest confidence first, at most 3, unknown units dropped.
            (
                mapped(&[("e", 0.2), ("zz", 0.99), ("c", 0.9), ("g", 0.5), ("f", 0.1)]),
                snapshot("a", &[]),
                &["c", "g", "e", "a", "b"],
            ),
            // A confidence that is not a number in [0, 1] is dropped.
            (
                mapped(&[("c", f64::NAN), ("e", 1.5), ("g", -0.1), ("f", 0.4)]),
                snapshot("a", &[]),
                &["f", "a"],
            ),
            // In progress, most recent first, at most 3.
            (
                mapped(&[]),
                snapshot("a", &[("e", 1), ("f", 4), ("g", 3), ("h", 2)]),
                &["a", "f", "g", "h"],
            ),
            // At most 6: the prerequisites come last and are cut first.
            (
                mapped(&[("c", 0.9), ("d", 0.8)]),
                snapshot("h", &[("e", 1), ("f", 3), ("g", 2)]),
                &["c", "d", "h", "f", "g", "e"],
            ),
        ];
        for (mapped, snapshot, expected) in cases {
            assert_eq!(
                scoped_units(&mapped, &snapshot, &graph),
                expected,
                "{mapped:?}"
            );
        }
    }
}
