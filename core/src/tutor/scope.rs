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
/// The confidence at which a model's mapping may settle what retrieval left unsure.
pub const MODEL_MAPPING_CONFIDENCE: f64 = 0.8;

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

/// The mapping a turn's policy reads when a model mapped the message too. Retrieval's own
/// mapping stands when it is sure: its top unit at `sure` or above and ahead of the next
/// (word coverage often ties: "what about numbers with two digits" covers adding,
/// subtracting and multiplying two-digit numbers alike). Otherwise the model's most
/// confident unit, at [`MODEL_MAPPING_CONFIDENCE`] or above, leads — but only if retrieval
/// found it too (the message shares course words with it): the model may settle a choice
/// the evidence leaves open, never bring in a unit the evidence does not support. It leads
/// at retrieval's top confidence (at least `sure`), followed by retrieval's other units.
/// Unknown units and confidences that are not a number in [0, 1] never count.
pub fn merge_mapping(retrieved: &[Mapped], model: &[Mapped], sure: f64) -> Vec<Mapped> {
    let top = retrieved.first().map_or(0.0, |m| m.confidence);
    let runner_up = retrieved.get(1).map_or(0.0, |m| m.confidence);
    let retrieval_is_sure = top >= sure && top > runner_up;
    let settled = model
        .iter()
        .filter(|m| (MODEL_MAPPING_CONFIDENCE..=1.0).contains(&m.confidence))
        .max_by(|a, b| a.confidence.total_cmp(&b.confidence))
        .filter(|m| retrieved.iter().any(|r| r.unit == m.unit));
    match settled {
        Some(chosen) if !retrieval_is_sure => {
            let lead = Mapped {
                unit: chosen.unit.clone(),
                confidence: top.max(sure),
            };
            let rest = retrieved.iter().filter(|r| r.unit != chosen.unit).cloned();
            std::iter::once(lead).chain(rest).collect()
        }
        _ => retrieved.to_vec(),
    }
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

    #[test]
    fn a_models_mapping_settles_only_what_retrieval_left_unsure_and_allows() {
        let sure = 0.55;
        let unsure = mapped(&[("add", 0.4), ("sub", 0.3)]);
        type Pairs<'a> = &'a [(&'a str, f64)];
        let table: &[(&[Mapped], Pairs, Pairs)] = &[
            // Retrieval unsure, model sure of a unit retrieval found: it leads.
            (&unsure, &[("sub", 0.9)], &[("sub", 0.55), ("add", 0.4)]),
            // The model unsure: retrieval's mapping stands.
            (&unsure, &[("sub", 0.7)], &[("add", 0.4), ("sub", 0.3)]),
            // A unit retrieval never found: no evidence, no say.
            (&unsure, &[("mul", 1.0)], &[("add", 0.4), ("sub", 0.3)]),
            // Not a confidence at all.
            (&unsure, &[("sub", 1.5)], &[("add", 0.4), ("sub", 0.3)]),
        ];
        for (retrieved, model, expected) in table {
            let merged = merge_mapping(retrieved, &mapped(model), sure);
            assert_eq!(merged, mapped(expected), "{model:?}");
        }
        let certain = mapped(&[("add", 0.9), ("sub", 0.3)]);
        assert_eq!(
            merge_mapping(&certain, &mapped(&[("sub", 1.0)]), sure),
            certain,
            "a sure retrieval stands"
        );
        let tied = mapped(&[("add", 1.0), ("sub", 1.0), ("mul", 0.4)]);
        assert_eq!(
            merge_mapping(&tied, &mapped(&[("sub", 0.9)]), sure),
            mapped(&[("sub", 1.0), ("add", 1.0), ("mul", 0.4)]),
            "a tie is settled by the model, among the tied"
        );
        assert_eq!(
            merge_mapping(&[], &mapped(&[("sub", 1.0)]), sure),
            Vec::<Mapped>::new(),
            "nothing retrieved: an off-course message stays off-course"
        );
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
