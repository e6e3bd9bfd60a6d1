//! What a client reads over HTTP to build its screens: `GET /v1/catalog` (what can be
//! started on this server, and what the server can do) and `GET /v1/sessions` (the
//! signed-in user's sessions, to resume one).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Mode;
use crate::server::SessionStatus;

/// `GET /v1/catalog`: everything a session can be started on. Public: it names no user.
///
/// # Format
/// ```json
/// {"ratings": [{"rating": "private", "title": "Private Pilot – Airplane",
///    "areas": [{"area": "I", "title": "Preflight Preparation",
///               "tasks": [{"task_code": "PA.I.A", "title": "Pilot Qualifications"}]}]}],
///  "assessments": [{"assessment_id": "MATH-FUNDAMENTALS-L1", "title": "Math fundamentals",
///                   "total_items": 20, "time_limit_minutes": 30.0}],
///  "courses": [{"course_id": "ARITHMETIC", "title": "Arithmetic", "units": 12}],
///  "server": {"dev_mode": true, "voice": true, "model": false}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Catalog {
    /// The ratings examined, with their areas and tasks in ACS order.
    pub ratings: Vec<RatingCatalog>,
    /// The blueprint assessments.
    pub assessments: Vec<AssessmentEntry>,
    /// The tutoring courses.
    pub courses: Vec<CourseEntry>,
    /// What this server can do.
    pub server: ServerFeatures,
}

/// One rating's areas of operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RatingCatalog {
    /// `private` or `commercial` (the `rating` of an exam's config).
    pub rating: String,
    /// For people.
    pub title: String,
    /// Its areas, in order.
    pub areas: Vec<AreaEntry>,
}

/// An area of operation and its tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AreaEntry {
    /// Its Roman numeral (an `areas` filter value).
    pub area: String,
    /// Its title.
    pub title: String,
    /// Its tasks, in order.
    pub tasks: Vec<TaskEntry>,
}

/// A task of an area.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TaskEntry {
    /// Its code (a `tasks` filter value), such as `PA.I.A`.
    pub task_code: String,
    /// Its title.
    pub title: String,
}

/// A blueprint assessment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AssessmentEntry {
    /// The `assessment_id` of its config.
    pub assessment_id: String,
    /// Its title.
    pub title: String,
    /// Items in all.
    pub total_items: u32,
    /// Its time limit, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_minutes: Option<f64>,
}

/// A tutoring course.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CourseEntry {
    /// The `course_id` of its config.
    pub course_id: String,
    /// Its title.
    pub title: String,
    /// How many units it has.
    pub units: u32,
}

/// What the server can do, for a client to offer only that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ServerFeatures {
    /// Development mode: a user name signs in (`?user=`), no token needed.
    pub dev_mode: bool,
    /// Spoken answers are taken (a speech model is loaded).
    pub voice: bool,
    /// A language model phrases, assesses and tutors (else the embedded examiner does).
    pub model: bool,
}

/// `GET /v1/sessions`: the signed-in user's sessions, most recent first.
///
/// # Format
/// ```json
/// {"sessions": [{"session_id": "9b1c…", "status": "paused", "mode": "exam",
///                "title": "Private pilot oral exam"}]}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionList {
    /// The sessions, open ones and the latest finished ones.
    pub sessions: Vec<SessionListed>,
}

/// One session of the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionListed {
    /// Its id (`session.resume`'s `session_id`).
    pub session_id: String,
    /// Where it stands.
    pub status: SessionStatus,
    /// Its mode; absent for sessions listed before modes were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// What it is, for people; absent like `mode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_examples_decode() {
        let catalog: Catalog = serde_json::from_str(
            r#"{"ratings": [{"rating": "private", "title": "Private Pilot – Airplane",
                 "areas": [{"area": "I", "title": "Preflight Preparation",
                 "tasks": [{"task_code": "PA.I.A", "title": "Pilot Qualifications"}]}]}],
                 "assessments": [{"assessment_id": "MATH-FUNDAMENTALS-L1",
                 "title": "Math fundamentals", "total_items": 20, "time_limit_minutes": 30.0}],
                 "courses": [{"course_id": "ARITHMETIC", "title": "Arithmetic", "units": 12}],
                 "server": {"dev_mode": true, "voice": true, "model": false}}"#,
        )
        .unwrap();
        assert_eq!(catalog.ratings[0].areas[0].tasks[0].task_code, "PA.I.A");
        let list: SessionList = serde_json::from_str(
            r#"{"sessions": [{"session_id": "9b1c", "status": "paused", "mode": "exam",
                "title": "Private Pilot – Airplane exam"}]}"#,
        )
        .unwrap();
        assert_eq!(list.sessions[0].status, SessionStatus::Paused);
        let old: SessionListed =
            serde_json::from_str(r#"{"session_id": "9b1c", "status": "completed"}"#).unwrap();
        assert_eq!(
            (old.mode, old.title),
            (None, None),
            "listed before modes were kept"
        );
    }
}
