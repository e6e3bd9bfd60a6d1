//! The catalogue a client builds its start screen from (`GET /v1/catalog`): the ratings'
//! areas and tasks, the assessments and the courses this server loaded, and what it can do.
//! Built once at start; it names no user.

use viva_blueprint::library::BlueprintLibrary;
use viva_core::exam::acs::{AcsCatalog, AcsLibrary, Rating};
use viva_core::tutor::library::TutorLibrary;
use viva_protocol::catalog::{
    AreaEntry, AssessmentEntry, Catalog, CourseEntry, RatingCatalog, ServerFeatures, TaskEntry,
};

/// The catalogue of what was loaded.
pub fn build(
    acs: &AcsLibrary,
    blueprints: &BlueprintLibrary,
    tutor: &TutorLibrary,
    server: ServerFeatures,
) -> Catalog {
    let ratings = [
        (Rating::Private, "Private Pilot – Airplane"),
        (Rating::Commercial, "Commercial Pilot – Airplane"),
    ];
    Catalog {
        ratings: ratings
            .into_iter()
            .map(|(rating, title)| rating_catalog(acs.catalog(rating), title))
            .collect(),
        assessments: blueprints
            .assessments()
            .map(|a| AssessmentEntry {
                assessment_id: a.id.clone(),
                title: a.title.clone(),
                total_items: a.total_items,
                time_limit_minutes: a.time_limit_minutes,
            })
            .collect(),
        courses: courses(tutor),
        server,
    }
}

/// A rating's areas and tasks, in the order of its elements (the ACS's own order).
fn rating_catalog(catalog: &AcsCatalog, title: &str) -> RatingCatalog {
    let mut areas: Vec<AreaEntry> = Vec::new();
    for element in catalog.elements().iter().filter(|e| !e.archived) {
        if areas.last().is_none_or(|area| area.area != element.area) {
            areas.push(AreaEntry {
                area: element.area.clone(),
                title: element.area_title.clone(),
                tasks: Vec::new(),
            });
        }
        let Some(area) = areas.last_mut() else {
            continue;
        };
        if area
            .tasks
            .last()
            .is_none_or(|t| t.task_code != element.task_code)
        {
            area.tasks.push(TaskEntry {
                task_code: element.task_code.clone(),
                title: element.task_title.clone(),
            });
        }
    }
    RatingCatalog {
        rating: catalog.rating().as_str().to_owned(),
        title: title.to_owned(),
        areas,
    }
}

fn courses(tutor: &TutorLibrary) -> Vec<CourseEntry> {
    tutor
        .course_ids()
        .iter()
        .filter_map(|id| tutor.course(id))
        .map(|(course, _)| CourseEntry {
            course_id: course.doc.course_id.clone(),
            title: course.doc.title.clone(),
            units: course.doc.units.len() as u32,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_and_tasks_follow_the_acs_order_once_each() {
        let acs = viva_testkit::acs::library();
        let catalog = rating_catalog(acs.catalog(Rating::Private), "Private");
        let areas: Vec<&str> = catalog.areas.iter().map(|a| a.area.as_str()).collect();
        assert_eq!(&areas[..3], ["I", "II", "III"], "{areas:?}");
        let mut seen = std::collections::HashSet::new();
        for area in &catalog.areas {
            assert!(seen.insert(area.area.clone()), "{} listed twice", area.area);
            assert!(!area.tasks.is_empty(), "{} has tasks", area.area);
            for task in &area.tasks {
                let prefix = format!("PA.{}.", area.area);
                assert!(task.task_code.starts_with(&prefix), "{}", task.task_code);
                assert!(
                    seen.insert(task.task_code.clone()),
                    "{} twice",
                    task.task_code
                );
            }
        }
        assert_eq!(catalog.areas[0].tasks[0].task_code, "PA.I.A");
    }
}
