//! `LearningPathGraph`: a course's units and their prerequisite edges. Built only from a
//! graph that names known units and has no cycle. (Which units a student is blocked on is
//! the tutor's: `viva_core::tutor::graph`.)

use std::collections::{BTreeMap, BTreeSet};

/// Why a course's units and edges are not a learning path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// An edge names a unit the course does not have.
    #[error("prerequisite edge {index} names unknown unit {unit:?}")]
    UnknownUnit {
        /// The edge's position.
        index: usize,
        /// The unknown unit.
        unit: String,
    },
    /// A unit is its own prerequisite, directly or through others.
    #[error("prerequisites form a cycle: {}", .0.join(" -> "))]
    Cycle(Vec<String>),
}

/// A prerequisite edge: `before` is a prerequisite of `unit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prerequisite {
    /// The unit that needs it.
    pub unit: String,
    /// The unit to learn first.
    pub before: String,
}

/// A course's units and prerequisites, acyclic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LearningPathGraph {
    /// Each unit's direct prerequisites, in the order the course lists them.
    prerequisites: BTreeMap<String, Vec<String>>,
}

impl LearningPathGraph {
    /// The graph of `units` and `edges`; refuses unknown units and cycles.
    pub fn new(units: &[String], edges: &[Prerequisite]) -> Result<LearningPathGraph, GraphError> {
        let mut prerequisites: BTreeMap<String, Vec<String>> =
            units.iter().map(|u| (u.clone(), Vec::new())).collect();
        for (index, edge) in edges.iter().enumerate() {
            for unit in [&edge.unit, &edge.before] {
                if !prerequisites.contains_key(unit) {
                    let unit = unit.clone();
                    return Err(GraphError::UnknownUnit { index, unit });
                }
            }
            if let Some(list) = prerequisites.get_mut(&edge.unit) {
                list.push(edge.before.clone());
            }
        }
        let graph = LearningPathGraph { prerequisites };
        match graph.find_cycle() {
            Some(cycle) => Err(GraphError::Cycle(cycle)),
            None => Ok(graph),
        }
    }

    /// A unit's direct prerequisites (none for an unknown unit).
    pub fn prerequisites(&self, unit: &str) -> &[String] {
        self.prerequisites.get(unit).map_or(&[], Vec::as_slice)
    }

    /// Whether the unit exists.
    pub fn contains(&self, unit: &str) -> bool {
        self.prerequisites.contains_key(unit)
    }

    /// A cycle, as the units along it (first repeated at the end), if there is one.
    fn find_cycle(&self) -> Option<Vec<String>> {
        let mut done = BTreeSet::new();
        for start in self.prerequisites.keys() {
            let mut path = Vec::new();
            if let Some(cycle) = self.cycle_from(start, &mut path, &mut done) {
                return Some(cycle);
            }
        }
        None
    }

    fn cycle_from<'a>(
        &'a self,
        unit: &'a str,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|u| *u == unit) {
            let mut cycle: Vec<String> = path[at..].iter().map(|u| (*u).to_owned()).collect();
            cycle.push(unit.to_owned());
            return Some(cycle);
        }
        if done.contains(unit) {
            return None;
        }
        path.push(unit);
        for before in self.prerequisites(unit) {
            if let Some(cycle) = self.cycle_from(before, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(unit);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(unit: &str, before: &str) -> Prerequisite {
        Prerequisite {
            unit: unit.into(),
            before: before.into(),
        }
    }

    fn names(units: &[&str]) -> Vec<String> {
        units.iter().map(|u| (*u).to_owned()).collect()
    }

    #[test]
    fn unknown_units_and_cycles_are_refused() {
        let units = names(&["a", "b", "c"]);
        let cases = [
            (
                vec![edge("a", "z")],
                "prerequisite edge 0 names unknown unit \"z\"",
            ),
            (
                vec![edge("b", "a"), edge("q", "a")],
                "prerequisite edge 1 names unknown unit \"q\"",
            ),
            (vec![edge("a", "a")], "prerequisites form a cycle: a -> a"),
            (
                vec![edge("a", "b"), edge("b", "c"), edge("c", "a")],
                "prerequisites form a cycle: a -> b -> c -> a",
            ),
        ];
        for (edges, message) in cases {
            let err = LearningPathGraph::new(&units, &edges).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
        let diamond = [edge("b", "a"), edge("c", "a"), edge("c", "b")];
        assert!(
            LearningPathGraph::new(&units, &diamond).is_ok(),
            "a diamond is no cycle"
        );
    }
}
