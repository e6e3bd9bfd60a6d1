//! The repository's tutoring data: skills, rubrics and courses read from `blueprints/`, and
//! the ACS catalogs with those rubrics — what a tutor session reads.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use viva_blueprint::course::CourseSet;
use viva_blueprint::library::{BlueprintLibrary, Source};
use viva_blueprint::rubric::RubricSet;
use viva_core::exam::acs::AcsLibrary;
use viva_core::tutor::brain::Tutor;
use viva_core::tutor::library::{TutorLibrary, TutorSettings};

/// Skills, ACS catalogs with rubrics, and the courses.
pub struct Courses {
    /// The skill blueprints (skill drills).
    pub skills: Arc<BlueprintLibrary>,
    /// The ACS catalogs with the rubrics (rubric drills).
    pub acs: Arc<AcsLibrary>,
    /// The courses, indexed.
    pub tutor: Arc<TutorLibrary>,
}

impl Courses {
    /// The embedded tutor (no model) on `course_id`.
    pub fn embedded_tutor(&self, course_id: &str) -> Option<Tutor<'_>> {
        let (course, index) = self.tutor.course(course_id)?;
        Some(Tutor {
            course,
            index,
            blueprints: &self.skills,
            acs: &self.acs,
            settings: self.tutor.settings,
            model: None,
            verdict: None,
        })
    }
}

/// Loads the shipped tutoring data with `settings`.
pub fn load(settings: TutorSettings) -> Courses {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints");
    let skills = BlueprintLibrary::load(&sources(&root.join("skills")), &[]).unwrap();
    let rubrics = RubricSet::load(&sources(&root.join("rubrics"))).unwrap();
    let exists = |element: &str| rubrics.get(element).is_some();
    let mut courses = CourseSet::load(&sources(&root.join("courses")), &skills, &exists).unwrap();
    let content = root.join("content");
    if content.is_dir() {
        courses.add_content(&sources(&content)).unwrap();
    }
    let catalogs = crate::acs::library();
    let acs = AcsLibrary::clone(&catalogs).with_rubrics(rubrics);
    let tutor = TutorLibrary::new(courses, &acs, settings);
    Courses {
        skills: Arc::new(skills),
        acs: Arc::new(acs),
        tutor: Arc::new(tutor),
    }
}

/// Every YAML file under `dir`, sorted by path.
fn sources(dir: &Path) -> Vec<Source> {
    let mut paths = Vec::new();
    collect(dir, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| Source {
            text: std::fs::read_to_string(&path).unwrap(),
            path: path.display().to_string(),
        })
        .collect()
}

fn collect(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "yaml") {
            found.push(path);
        }
    }
}
