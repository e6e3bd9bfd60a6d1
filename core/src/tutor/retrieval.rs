//! The embedded brain's retrieval: maps a student's message to course units, with a
//! confidence, by BM25 ([`super::bm25`]) over each unit's title and tags (three times), its
//! anchor (twice) and its key ideas.
//!
//! **Confidence** is what the policy's 0.55 threshold reads: the unit's coverage of the
//! message. So "how do I read a METAR" is confidently the weather unit (1.0); "what
//! documents must be on board for airworthiness" still is (its one course word names the
//! unit); "tell me about the exam" (no word of any unit) maps to nothing; and "weather pizza
//! sandwich cat dog", mostly off the course, stays below the threshold.
//!
//! **Ties** (units the message's words hold alike) are settled by [`super::tiebreak`]: the
//! unit whose title or tag the message names whole, then the student's focus, then the
//! prerequisite order; a tie those words leave open is reported unsure.

use viva_blueprint::course::{Course, Unit};

use super::bm25::{Bm25, phrase_words, without_numbers};
use super::graph::LearningPathGraph;
use super::scope::Mapped;
use super::tiebreak::{Specificity, TieKey, settle, specificity, tied};

/// Units returned, best first.
pub const MAPPED_MAX: usize = 3;

/// A course's units, indexed.
#[derive(Debug, Clone)]
pub struct UnitIndex {
    unit_ids: Vec<String>,
    index: Bm25,
    /// The same fields without the numbers of anchors and key ideas: what ties are read on.
    topic: Bm25,
    /// Each unit's title and tags, as phrase words.
    phrases: Vec<(Vec<String>, Vec<Vec<String>>)>,
    /// Each unit's longest chain of prerequisites.
    depths: Vec<usize>,
}

impl UnitIndex {
    /// Indexes every unit of `course`.
    pub fn build(course: &Course) -> UnitIndex {
        let units = &course.doc.units;
        let ids: Vec<String> = units.iter().map(|u| u.unit_id.replace('-', " ")).collect();
        let stripped: Vec<(String, Vec<String>)> = units
            .iter()
            .map(|u| {
                let ideas = u.key_ideas.iter().map(|idea| without_numbers(idea));
                (without_numbers(&u.anchor), ideas.collect())
            })
            .collect();
        let whole: Vec<Vec<(&str, f64)>> = (units.iter().zip(&ids))
            .map(|(unit, id)| fields(unit, id, &unit.anchor, &unit.key_ideas))
            .collect();
        let topic: Vec<Vec<(&str, f64)>> = (units.iter().zip(&ids).zip(&stripped))
            .map(|((unit, id), (anchor, ideas))| fields(unit, id, anchor, ideas))
            .collect();
        let phrases = units
            .iter()
            .map(|u| {
                (
                    phrase_words(&u.title),
                    u.tags.iter().map(|t| phrase_words(t)).collect(),
                )
            })
            .collect();
        let unit_ids: Vec<String> = units.iter().map(|u| u.unit_id.clone()).collect();
        UnitIndex {
            depths: depths(&unit_ids, &course.graph),
            unit_ids,
            index: Bm25::new(&whole),
            topic: Bm25::new(&topic),
            phrases,
        }
    }

    /// The units `message` is about, best first, at most [`MAPPED_MAX`], each with its
    /// confidence in [0, 1] (never above the one before); empty when no unit shares a
    /// content word with it. Ties are settled towards `focus`, the student's focus unit,
    /// after the message's own words.
    pub fn map(&self, message: &str, focus: &str) -> Vec<Mapped> {
        let hits = self.index.search(message, |_| true);
        let Some(top) = hits.first() else {
            return Vec::new();
        };
        let tied = tied(top.doc, &self.topic.search(message, |_| true));
        let words = phrase_words(message);
        let key = |doc: usize| TieKey {
            specificity: self.specificity(&words, doc),
            focus: self.unit_ids[doc] == focus,
            depth: self.depths[doc],
            position: doc,
        };
        settle(&hits, &tied, key)
            .into_iter()
            .take(MAPPED_MAX)
            .map(|(doc, confidence)| Mapped {
                unit: self.unit_ids[doc].clone(),
                confidence,
            })
            .collect()
    }

    fn specificity(&self, words: &[String], doc: usize) -> Specificity {
        let (title, tags) = &self.phrases[doc];
        specificity(words, title, tags)
    }

    /// The units `message` is about among `allowed`, best first: the model tutor's anchors.
    pub fn ranked_among(&self, message: &str, allowed: &[String]) -> Vec<&str> {
        let keep = |doc: usize| allowed.contains(&self.unit_ids[doc]);
        self.index
            .search(message, keep)
            .into_iter()
            .map(|hit| self.unit_ids[hit.doc].as_str())
            .collect()
    }
}

/// A unit's weighted fields: title, id and tags three times, `anchor` twice, `ideas` once.
fn fields<'a>(
    unit: &'a Unit,
    id: &'a str,
    anchor: &'a str,
    ideas: &'a [String],
) -> Vec<(&'a str, f64)> {
    let mut fields = vec![(unit.title.as_str(), 3.0), (id, 3.0)];
    fields.extend(unit.tags.iter().map(|tag| (tag.as_str(), 3.0)));
    fields.push((anchor, 2.0));
    fields.extend(ideas.iter().map(|idea| (idea.as_str(), 1.0)));
    fields
}

/// Each unit's longest chain of prerequisites (0: none), in `units`' order. The graph has
/// no cycle, so the walk ends.
fn depths(units: &[String], graph: &LearningPathGraph) -> Vec<usize> {
    fn depth<'g>(
        unit: &'g str,
        graph: &'g LearningPathGraph,
        known: &mut std::collections::HashMap<&'g str, usize>,
    ) -> usize {
        if let Some(depth) = known.get(unit) {
            return *depth;
        }
        let below = graph.prerequisites(unit).iter();
        let depth = below.map(|p| depth(p, graph, known) + 1).max().unwrap_or(0);
        known.insert(unit, depth);
        depth
    }
    let mut known = std::collections::HashMap::new();
    units.iter().map(|u| depth(u, graph, &mut known)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::policy::TARGET_CONFIDENCE;
    use crate::tutor::test_courses::Courses;

    #[test]
    fn a_message_maps_to_the_units_it_names_with_its_coverage_as_confidence() {
        let courses = Courses::load();
        let index = UnitIndex::build(courses.course("PPL-GROUND"));
        let top = |text: &str| {
            let mapped = index.map(text, "pilot-qualifications");
            mapped.first().map(|m| (m.unit.clone(), m.confidence))
        };
        let cases = [
            ("how do I read a METAR", "weather-information"),
            (
                "density altitude on a hot day",
                "performance-and-limitations",
            ),
            ("what airspace needs a clearance", "national-airspace"),
            (
                "light gun signals from the tower",
                "communications-and-light-signals",
            ),
            (
                "what documents must be on board for airworthiness",
                "airworthiness-requirements",
            ),
        ];
        for (text, unit) in cases {
            let (got, confidence) = top(text).expect(text);
            assert_eq!(got, unit, "{text}");
            assert!(confidence >= 0.55, "{text}: {confidence}");
        }
        assert_eq!(top("tell me about it"), None, "no content words");
        assert_eq!(top("my cat likes pizza"), None, "no course words");
        let (_, confidence) = top("weather pizza sandwich cat dog").expect("weather");
        assert!(confidence < 0.55, "mostly off the course: {confidence}");
    }

    /// (message, the student's focus) → (top unit, confident at the policy's threshold).
    #[test]
    fn ties_go_to_the_unit_named_whole_then_the_focus_then_the_earlier_and_are_unsure() {
        let courses = Courses::load();
        let index = UnitIndex::build(courses.course("ARITHMETIC"));
        let tables = "Can you help me with the times tables, like 7 × 8?";
        let one_digit = "Can you help me with adding one-digit numbers?";
        let cases = [
            // "times tables" is a tag of both facts units; the 7 and 8 match division's
            // sample sum by chance. Multiplication comes first in the graph.
            (tables, "add-1digit", "mul-single", false),
            (tables, "div-single", "div-single", false),
            // The whole title of one addition unit.
            (one_digit, "add-1digit", "add-1digit", true),
            (one_digit, "add-3digit", "add-1digit", true),
            ("adding two-digit numbers", "add-1digit", "add-2digit", true),
            // "two digits" names four units alike: the first in the graph, unsure.
            (
                "what about numbers with two digits",
                "add-1digit",
                "add-2digit",
                false,
            ),
        ];
        for (message, focus, unit, confident) in cases {
            let mapped = index.map(message, focus);
            let top = &mapped[0];
            assert_eq!(
                (top.unit.as_str(), top.confidence >= TARGET_CONFIDENCE),
                (unit, confident),
                "{message} (focus {focus}): {mapped:?}"
            );
            let ordered = mapped
                .windows(2)
                .all(|w| w[0].confidence >= w[1].confidence);
            assert!(ordered, "{mapped:?}");
        }
    }

    #[test]
    fn at_most_three_units_come_back_best_first() {
        let courses = Courses::load();
        let index = UnitIndex::build(courses.course("PPL-GROUND"));
        let mapped = index.map(
            "weather airspace performance taxiing emergency systems",
            "pilot-qualifications",
        );
        assert_eq!(mapped.len(), MAPPED_MAX);
        assert!(mapped.iter().all(|m| (0.0..=1.0).contains(&m.confidence)));
    }
}
