//! The progress board (`GET /v1/tutor/{course_id}/progress`): every unit of the course with
//! its tier, streak and first blocker, the revisit list and the lock countdowns.

use viva_blueprint::course::Course;
use viva_protocol::tutor::{ProgressBoard, UnitBoard};

use super::cards::lite;
use super::graph::first_blocker;
use super::snapshot::StudentSnapshot;

/// The board of `snapshot` over `course` at `now_ms`.
pub fn progress_board(course: &Course, snapshot: &StudentSnapshot, now_ms: u64) -> ProgressBoard {
    let lite = lite(snapshot, course, &course.graph, now_ms);
    let units = course
        .doc
        .units
        .iter()
        .map(|unit| {
            let progress = snapshot.unit(&unit.unit_id);
            UnitBoard {
                unit_id: unit.unit_id.clone(),
                title: unit.title.clone(),
                tier: progress.tier.as_str().to_owned(),
                drill_streak: progress.drill_streak,
                drill_attempts: progress.drill_attempts,
                blocked_by: first_blocker(&course.graph, &unit.unit_id, snapshot)
                    .map(str::to_owned),
            }
        })
        .collect();
    ProgressBoard {
        course_id: course.doc.course_id.clone(),
        title: course.doc.title.clone(),
        focus_unit: snapshot.focus_unit.clone(),
        units,
        revisit: snapshot.revisit.clone(),
        counts: lite.counts,
        locks: lite.locks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::snapshot::{Tier, UnitProgress};
    use crate::tutor::test_courses::Courses;

    #[test]
    fn the_board_lists_every_unit_in_order_with_tier_and_blocker() {
        let courses = Courses::load();
        let course = courses.course("ARITHMETIC");
        let mut snapshot = StudentSnapshot::cold_start("ada", "ARITHMETIC", "add-1digit");
        snapshot.units.insert(
            "add-1digit".into(),
            UnitProgress {
                tier: Tier::Bronze,
                drill_streak: 1,
                drill_attempts: 3,
                ..UnitProgress::default()
            },
        );
        snapshot.lock("q", 0, 1_500);
        let board = progress_board(course, &snapshot, 0);
        assert_eq!(board.units.len(), course.doc.units.len());
        assert_eq!(board.units[0].unit_id, "add-1digit");
        assert_eq!(
            (board.units[0].tier.as_str(), board.units[0].drill_streak),
            ("bronze", 1)
        );
        let add3 = board
            .units
            .iter()
            .find(|u| u.unit_id == "add-3digit")
            .unwrap();
        assert_eq!(add3.blocked_by.as_deref(), Some("add-2digit"));
        let add2 = board
            .units
            .iter()
            .find(|u| u.unit_id == "add-2digit")
            .unwrap();
        assert_eq!(add2.blocked_by, None, "its prerequisite is at bronze");
        assert_eq!((board.counts.bronze, board.counts.none), (1, 11));
        assert_eq!(board.locks[0].seconds_left, 2);
    }
}
