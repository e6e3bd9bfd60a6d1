//! `GET /metrics`: Prometheus text that follows what clients and sessions do.

use crate::harness::{
    Auth, Client, Server, answer, http_get, metric as value, resume, satisfactory_for, start_exam,
};

async fn scrape(server: &Server) -> String {
    let response = http_get(server, "/metrics", None).await;
    assert_eq!(response.status, 200, "{}", response.body);
    response.body
}

/// A scrape once `series` has reached `at_least`, or the last one after about a second.
/// The ws task records a resume's latency when the supervisor's reply comes back, which
/// can be just after the resumed device has its events.
async fn scrape_once(server: &Server, series: &str, at_least: f64) -> String {
    let mut text = scrape(server).await;
    for _ in 0..50 {
        if value(&text, series) >= at_least {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        text = scrape(server).await;
    }
    text
}

#[tokio::test]
async fn metrics_follow_connections_events_errors_sessions_and_takeovers() {
    let server = Server::start().await;
    let mut a = Client::connect(&server, Auth::bearer("meg")).await;
    let started = start_exam(&mut a, "A").await;
    answer(&mut a, &satisfactory_for(&started.question)).await;
    a.send_text("{not json".to_owned()).await;
    a.expect_error("invalid_json", None).await;

    let text = scrape(&server).await;
    assert_eq!(value(&text, "viva_connections"), 1.0, "{text}");
    assert_eq!(value(&text, "viva_supervisors"), 1.0, "{text}");
    assert_eq!(
        value(&text, "viva_events_in_total{type=\"session.start\"}"),
        1.0
    );
    assert_eq!(
        value(&text, "viva_events_in_total{type=\"answer.text\"}"),
        1.0
    );
    assert_eq!(
        value(&text, "viva_errors_total{code=\"invalid_json\"}"),
        1.0
    );
    assert_eq!(
        value(&text, "viva_events_out_total{type=\"assessment\"}"),
        1.0
    );
    assert_eq!(
        value(&text, "viva_events_out_total{type=\"question\"}"),
        2.0
    );
    assert_eq!(
        value(&text, "viva_sessions{phase=\"awaiting_answer\"}"),
        1.0,
        "{text}"
    );
    assert_eq!(
        value(&text, "viva_checkpoint_seconds_count"),
        2.0,
        "one write for the start and its first question, one for the answer, its \
         assessment and the next question: {text}"
    );
    assert_eq!(value(&text, "viva_checkpoint_failures_total"), 0.0);

    let mut b = Client::connect(&server, Auth::bearer("meg")).await;
    resume(&mut b, "B", None).await;
    a.expect("session.paused").await;
    let text = scrape_once(&server, "viva_resume_seconds_count", 1.0).await;
    assert_eq!(value(&text, "viva_connections"), 2.0, "{text}");
    assert_eq!(value(&text, "viva_takeovers_total"), 1.0, "{text}");
    assert_eq!(value(&text, "viva_resume_seconds_count"), 1.0, "{text}");
    assert_eq!(
        value(&text, "viva_resume_seconds_bucket{le=\"+Inf\"}"),
        1.0,
        "{text}"
    );
    assert!(
        text.contains("# TYPE viva_stt_decode_seconds histogram"),
        "{text}"
    );
}

#[tokio::test]
async fn metrics_need_no_token_and_name_no_user() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("secret-user-42")).await;
    start_exam(&mut client, "A").await;
    let text = scrape(&server).await;
    assert!(!text.contains("secret-user-42"), "{text}");
    assert!(
        text.lines()
            .all(|line| line.is_empty() || line.starts_with('#') || line.starts_with("viva_"))
    );
}

/// `viva_build_info` names the version, the commit it was built from (or "unknown" without
/// git) and the compiler, with the value 1.
#[tokio::test]
async fn metrics_name_the_build() {
    let server = Server::start().await;
    let text = scrape(&server).await;
    assert!(text.contains("# TYPE viva_build_info gauge\n"), "{text}");
    let line = text
        .lines()
        .find(|line| line.starts_with("viva_build_info{"))
        .unwrap_or_else(|| panic!("a viva_build_info series in {text}"));
    let version = env!("CARGO_PKG_VERSION");
    let prefix = format!("viva_build_info{{version=\"{version}\",commit=\"");
    let rest = line
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{line}"));
    let (commit, rest) = rest.split_once('"').unwrap_or_else(|| panic!("{line}"));
    assert!(
        commit == "unknown" || (commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{line}"
    );
    let rustc = rest
        .strip_prefix(",rustc=\"")
        .and_then(|rest| rest.strip_suffix("\"} 1"))
        .unwrap_or_else(|| panic!("{line}"));
    assert!(rustc.starts_with("rustc "), "{line}");
}
