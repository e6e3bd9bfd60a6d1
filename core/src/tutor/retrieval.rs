//! The embedded brain's retrieval: maps a student's message to course units, with a
//! confidence, by BM25 ([`super::bm25`]) over each unit's title and tags (three times), its
//! anchor (twice) and its key ideas.
//!
//! **Confidence** is what the policy's 0.55 threshold reads: the unit's coverage of the
//! message. So "how do I read a METAR" is confidently the weather unit (1.0); "what
//! documents must be on board for airworthiness" still is (its one course word names the
//! unit); "tell me about the exam" (no word of any unit) maps to nothing; and "weather pizza
//! sandwich cat dog", mostly off the course, stays below the threshold.

use viva_blueprint::course::Course;

use super::bm25::Bm25;
use super::scope::Mapped;

/// Units returned, best first.
pub const MAPPED_MAX: usize = 3;

/// A course's units, indexed.
#[derive(Debug, Clone)]
pub struct UnitIndex {
    unit_ids: Vec<String>,
    index: Bm25,
}

impl UnitIndex {
    /// Indexes every unit of `course`.
    pub fn build(course: &Course) -> UnitIndex {
        let units = &course.doc.units;
        let ids: Vec<String> = units.iter().map(|u| u.unit_id.replace('-', " ")).collect();
        let fields: Vec<Vec<(&str, f64)>> = units
            .iter()
            .zip(&ids)
            .map(|(unit, id)| {
                let mut fields = vec![(unit.title.as_str(), 3.0), (id.as_str(), 3.0)];
                fields.extend(unit.tags.iter().map(|tag| (tag.as_str(), 3.0)));
                fields.push((unit.anchor.as_str(), 2.0));
                fields.extend(unit.key_ideas.iter().map(|idea| (idea.as_str(), 1.0)));
                fields
            })
            .collect();
        UnitIndex {
            unit_ids: units.iter().map(|u| u.unit_id.clone()).collect(),
            index: Bm25::new(&fields),
        }
    }

    /// The units `message` is about, best first, at most [`MAPPED_MAX`], each with its
    /// confidence in [0, 1]; empty when no unit shares a content word with it.
    pub fn map(&self, message: &str) -> Vec<Mapped> {
        self.index
            .search(message, |_| true)
            .into_iter()
            .take(MAPPED_MAX)
            .map(|hit| Mapped {
                unit: self.unit_ids[hit.doc].clone(),
                confidence: hit.coverage,
            })
            .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::test_courses::Courses;

    #[test]
    fn a_message_maps_to_the_units_it_names_with_its_coverage_as_confidence() {
        let courses = Courses::load();
        let index = UnitIndex::build(courses.course("PPL-GROUND"));
        let top = |text: &str| {
            let mapped = index.map(text);
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

    #[test]
    fn at_most_three_units_come_back_best_first() {
        let courses = Courses::load();
        let index = UnitIndex::build(courses.course("PPL-GROUND"));
        let mapped = index.map("weather airspace performance taxiing emergency systems");
        assert_eq!(mapped.len(), MAPPED_MAX);
        assert!(mapped.iter().all(|m| (0.0..=1.0).contains(&m.confidence)));
    }
}
