//! Tutoring courses (`blueprints/courses/*.yaml`): units joined by prerequisite edges,
//! drill sources per unit, and tiered multiple-choice exam questions. Loaded and checked
//! here; the tutor's policy over them is `viva_core::tutor`.
//!
//! - [`model`]: the YAML documents.
//! - [`graph`]: `LearningPathGraph`, the prerequisite graph (no unknown unit, no cycle).
//! - [`check`]: the rules a course file meets, each error with file, field and line.
//! - [`content`]: sourced content chunks per unit (`blueprints/content/`), for grounding.

pub mod check;
pub mod content;
pub mod graph;
pub mod model;

use std::collections::BTreeMap;

use crate::error::LoadError;
use crate::library::{BlueprintLibrary, Source, parse};
use graph::{LearningPathGraph, Prerequisite};
pub use model::{CourseDoc, Drill, ExamQuestion, ExamTier, Unit};

/// A checked course and its prerequisite graph.
#[derive(Debug, Clone)]
pub struct Course {
    /// The course as written.
    pub doc: CourseDoc,
    /// Its prerequisites, acyclic.
    pub graph: LearningPathGraph,
    /// Its written content chunks (lessons, worked explanations), in file order.
    pub content: Vec<content::Chunk>,
    /// The publications they cite.
    pub sources: Vec<content::ContentSource>,
}

impl Course {
    /// The unit ids, in the course's order.
    pub fn unit_ids(&self) -> Vec<String> {
        self.doc.units.iter().map(|u| u.unit_id.clone()).collect()
    }

    /// A unit by id.
    pub fn unit(&self, unit_id: &str) -> Option<&Unit> {
        self.doc.units.iter().find(|u| u.unit_id == unit_id)
    }
}

/// Every course, by id.
#[derive(Debug, Clone, Default)]
pub struct CourseSet {
    courses: BTreeMap<String, Course>,
}

impl CourseSet {
    /// Parses and checks every course; `rubric_exists` says whether an ACS element has a
    /// rubric. All errors are reported together.
    pub fn load(
        sources: &[Source],
        skills: &BlueprintLibrary,
        rubric_exists: &dyn Fn(&str) -> bool,
    ) -> Result<CourseSet, Vec<LoadError>> {
        let mut errors = Vec::new();
        let mut set = CourseSet::default();
        for source in sources {
            let doc = match parse::<CourseDoc>(source) {
                Ok(doc) => doc,
                Err(found) => {
                    errors.extend(found);
                    continue;
                }
            };
            let found =
                check::check_course(&source.path, &source.text, &doc, skills, rubric_exists);
            if !found.is_empty() {
                errors.extend(found);
                continue;
            }
            match course_of(doc) {
                Ok(course) if set.courses.contains_key(&course.doc.course_id) => {
                    let id = &course.doc.course_id;
                    errors.push(LoadError::at(
                        &source.path,
                        "course_id",
                        format!("{id:?} is defined twice"),
                    ));
                }
                Ok(course) => {
                    set.courses.insert(course.doc.course_id.clone(), course);
                }
                Err(err) => errors.push(LoadError::at(
                    &source.path,
                    "prerequisites",
                    err.to_string(),
                )),
            }
        }
        if errors.is_empty() {
            return Ok(set);
        }
        crate::yaml::place_in(sources, &mut errors);
        Err(errors)
    }

    /// Adds each content file's chunks to its course, after checking them all; every error
    /// is reported together and then nothing is added.
    pub fn add_content(&mut self, sources: &[Source]) -> Result<(), Vec<LoadError>> {
        let mut errors = Vec::new();
        let mut docs = Vec::new();
        for source in sources {
            match parse::<content::ContentDoc>(source) {
                Ok(doc) => {
                    let course = self.courses.get(&doc.course_id);
                    let course = course.map(|course| &course.doc);
                    let found = content::check_content(&source.path, &source.text, &doc, course);
                    if found.is_empty() {
                        docs.push(doc);
                    }
                    errors.extend(found);
                }
                Err(found) => errors.extend(found),
            }
        }
        if !errors.is_empty() {
            crate::yaml::place_in(sources, &mut errors);
            return Err(errors);
        }
        for doc in docs {
            if let Some(course) = self.courses.get_mut(&doc.course_id) {
                course.content.extend(doc.chunks);
                course.sources.extend(doc.sources);
            }
        }
        Ok(())
    }

    /// A course by id.
    pub fn get(&self, course_id: &str) -> Option<&Course> {
        self.courses.get(course_id)
    }

    /// Every course, by id.
    pub fn iter(&self) -> impl Iterator<Item = &Course> {
        self.courses.values()
    }

    /// How many courses.
    pub fn len(&self) -> usize {
        self.courses.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.courses.is_empty()
    }
}

fn course_of(doc: CourseDoc) -> Result<Course, graph::GraphError> {
    let units: Vec<String> = doc.units.iter().map(|u| u.unit_id.clone()).collect();
    let edges: Vec<Prerequisite> = doc
        .prerequisites
        .iter()
        .map(|e| Prerequisite {
            unit: e.unit.clone(),
            before: e.before.clone(),
        })
        .collect();
    let graph = LearningPathGraph::new(&units, &edges)?;
    Ok(Course {
        doc,
        graph,
        content: Vec::new(),
        sources: Vec::new(),
    })
}
