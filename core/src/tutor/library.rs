//! The courses a server tutors, each with its retrieval index built once at start, and the
//! operator's tutor settings.

use std::collections::HashMap;

use viva_blueprint::course::{Course, CourseSet};

use super::exams::LOCKOUT_MS;
use super::grounding::CourseGrounding;
use super::retrieval::UnitIndex;
use crate::exam::acs::AcsLibrary;

/// The operator's tutor settings (`[tutor]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TutorSettings {
    /// How long a wrong exam answer or a viewed memo locks the question, ms.
    pub lockout_ms: u64,
    /// Development mode: every tutor turn carries the policy and candidate scores.
    pub debug_view: bool,
    /// A model tutor is configured: a message's turn is proposed by it (and held to the
    /// policy), the embedded brain's turn standing in when it fails.
    pub model: bool,
}

impl Default for TutorSettings {
    fn default() -> TutorSettings {
        TutorSettings {
            lockout_ms: LOCKOUT_MS,
            debug_view: false,
            model: false,
        }
    }
}

/// Every course, its index, and the settings.
#[derive(Debug, Clone, Default)]
pub struct TutorLibrary {
    courses: CourseSet,
    indexes: HashMap<String, UnitIndex>,
    groundings: HashMap<String, CourseGrounding>,
    /// The operator's settings.
    pub settings: TutorSettings,
}

impl TutorLibrary {
    /// Indexes every course of `courses`: its units, and its content with the rubric facts of
    /// its drills (from `acs`) for a model tutor's grounding.
    pub fn new(courses: CourseSet, acs: &AcsLibrary, settings: TutorSettings) -> TutorLibrary {
        let id = |course: &Course| course.doc.course_id.clone();
        let indexes = courses
            .iter()
            .map(|course| (id(course), UnitIndex::build(course)))
            .collect();
        let groundings = courses
            .iter()
            .map(|course| (id(course), CourseGrounding::build(course, acs)))
            .collect();
        TutorLibrary {
            courses,
            indexes,
            groundings,
            settings,
        }
    }

    /// A course's grounding for a model tutor.
    pub fn grounding(&self, course_id: &str) -> Option<&CourseGrounding> {
        self.groundings.get(course_id)
    }

    /// A course and its index.
    pub fn course(&self, course_id: &str) -> Option<(&Course, &UnitIndex)> {
        Some((self.courses.get(course_id)?, self.indexes.get(course_id)?))
    }

    /// The course ids, sorted.
    pub fn course_ids(&self) -> Vec<String> {
        self.courses
            .iter()
            .map(|c| c.doc.course_id.clone())
            .collect()
    }
}
