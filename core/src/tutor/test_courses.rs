//! The shipped courses, skills, rubrics and ACS catalogs, read from the repository's
//! `blueprints/` for the tutor's in-file tests.

use std::path::{Path, PathBuf};

use viva_blueprint::course::{Course, CourseSet};
use viva_blueprint::library::{BlueprintLibrary, Source};
use viva_blueprint::rubric::RubricSet;

use crate::exam::acs::AcsLibrary;
use crate::exam::queue::tests::{commercial_catalog, private_catalog};

/// Everything a tutor session reads.
pub(crate) struct Courses {
    pub courses: CourseSet,
    pub blueprints: BlueprintLibrary,
    pub acs: AcsLibrary,
}

impl Courses {
    /// Loads the shipped data; panics (a test failure) if any of it does not load.
    pub fn load() -> Courses {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints");
        let blueprints = BlueprintLibrary::load(&sources(&root.join("skills")), &[]).unwrap();
        let rubrics = RubricSet::load(&sources(&root.join("rubrics"))).unwrap();
        let rubric_exists = |element: &str| rubrics.get(element).is_some();
        let mut courses =
            CourseSet::load(&sources(&root.join("courses")), &blueprints, &rubric_exists).unwrap();
        if root.join("content").is_dir() {
            courses
                .add_content(&sources(&root.join("content")))
                .unwrap();
        }
        let acs = AcsLibrary::new(private_catalog(), commercial_catalog()).with_rubrics(rubrics);
        Courses {
            courses,
            blueprints,
            acs,
        }
    }

    /// A shipped course.
    pub fn course(&self, course_id: &str) -> &Course {
        self.courses.get(course_id).unwrap()
    }
}

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
