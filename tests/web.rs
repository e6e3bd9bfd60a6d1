//! What the web client reads over HTTP, against a real server: the page and its scripts
//! (no outside origin), the public catalogue, and each user's own session list.

use crate::harness::{
    Auth, Client, Server, http_get, start_assessment, start_exam, start_tutor, token,
};

#[tokio::test]
async fn the_page_and_its_scripts_are_served_with_a_strict_policy() {
    let server = Server::start().await;
    let page = http_get(&server, "/", None).await;
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains("<script type=\"module\" src=\"/app.js\">")
    );
    let mut total = page.body.len();
    for path in [
        "/app.js",
        "/app.css",
        "/mic-worklet.js",
        "/resample.js",
        "/words.js",
        "/dom.js",
        "/link.js",
        "/results.js",
        "/tutor.js",
        "/exam.js",
        "/assessment.js",
        "/answer-box.js",
        "/sign-in.js",
    ] {
        let asset = http_get(&server, path, None).await;
        assert_eq!(asset.status, 200, "{path}");
        total += asset.body.len();
    }
    assert!(total < 100 * 1024, "the client weighs {total} bytes");
    assert_eq!(http_get(&server, "/nothing.js", None).await.status, 404);
}

#[tokio::test]
async fn the_catalogue_lists_ratings_areas_assessments_and_courses() {
    let server = Server::start().await;
    let response = http_get(&server, "/v1/catalog", None).await;
    assert_eq!(response.content_type.as_deref(), Some("application/json"));
    let catalog = response.json();
    let ratings: Vec<&str> = catalog["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rating"].as_str().unwrap())
        .collect();
    assert_eq!(ratings, ["private", "commercial"]);
    let first = &catalog["ratings"][0]["areas"][0];
    assert_eq!(first["area"], "I", "{first}");
    assert_eq!(first["tasks"][0]["task_code"], "PA.I.A", "{first}");
    let has = |list: &str, key: &str, id: &str| {
        catalog[list]
            .as_array()
            .unwrap()
            .iter()
            .any(|entry| entry[key] == id)
    };
    assert!(has("assessments", "assessment_id", "MATH-FUNDAMENTALS-L1"));
    assert!(has("courses", "course_id", "ARITHMETIC"));
    assert_eq!(catalog["server"]["voice"], false, "no speech model here");
    assert_eq!(catalog["server"]["dev_mode"], false);
}

#[tokio::test]
async fn each_user_lists_only_their_own_sessions_most_recent_first() {
    let server = Server::start().await;
    let mut ada = Client::connect(&server, Auth::bearer("ada")).await;
    let exam = start_exam(&mut ada, "laptop").await;
    let (tutoring, _) = start_tutor(&mut ada, "ARITHMETIC").await;
    let mut bo = Client::connect(&server, Auth::bearer("bo")).await;
    start_assessment(&mut bo, "MATH-FUNDAMENTALS-L1", true).await;
    let listed = http_get(&server, "/v1/sessions", Some(&token("ada")))
        .await
        .json();
    let sessions = listed["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2, "{listed}");
    assert_eq!(sessions[0]["session_id"], tutoring["session_id"]);
    assert_eq!(sessions[0]["mode"], "tutor");
    assert_eq!(sessions[0]["title"], "Arithmetic (tutoring)");
    assert_eq!(sessions[0]["status"], "active");
    assert_eq!(sessions[1]["session_id"], exam.session_id.as_str());
    assert_eq!(sessions[1]["title"], "Private pilot oral exam");
    assert_eq!(
        sessions[1]["status"], "paused",
        "one active session per user"
    );
    let theirs = http_get(&server, "/v1/sessions", Some(&token("bo")))
        .await
        .json();
    assert_eq!(theirs["sessions"].as_array().unwrap().len(), 1, "{theirs}");
    assert_eq!(
        theirs["sessions"][0]["title"],
        "Math Fundamentals, Level 1 (learning)"
    );
    assert_eq!(http_get(&server, "/v1/sessions", None).await.status, 401);
}
