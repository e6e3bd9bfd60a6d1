//! `/readyz` beside `/healthz`: ready only while storage answers, new sessions are accepted
//! and the node is not draining; else 503 with `Retry-After` and the failed checks.

use std::time::Duration;

use crate::harness::{
    Auth, Client, HttpResponse, RedisServer, Server, TIMEOUT, data_dir_of, exams, http_get,
    start_exam,
};

/// `GET /readyz` until it answers `status` (the probe's result is cached for a second, and
/// Redis reconnects in the background); panics with the last answer after [`TIMEOUT`].
async fn readyz_until(server: &Server, status: u16) -> HttpResponse {
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        let response = http_get(server, "/readyz", None).await;
        if response.status == status || tokio::time::Instant::now() > deadline {
            assert_eq!(response.status, status, "{response:?}");
            return response;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Checks a 503 from `/readyz`: a problem naming `failed`, with `Retry-After`.
fn assert_not_ready(response: &HttpResponse, failed: &[&str]) {
    assert_eq!(response.status, 503, "{response:?}");
    let content_type = response.content_type.as_deref();
    assert_eq!(
        content_type,
        Some("application/problem+json"),
        "{response:?}"
    );
    assert_eq!(response.header("retry-after"), Some("5"), "{response:?}");
    let body = response.json();
    assert_eq!(body["code"], "not_ready", "{body}");
    assert_eq!(body["status"], 503, "{body}");
    assert_eq!(body["failed"], serde_json::json!(failed), "{body}");
}

#[tokio::test]
async fn readyz_follows_the_new_sessions_switch_while_healthz_stays_alive() {
    let server = Server::start().await;
    let ready = readyz_until(&server, 200).await;
    assert_eq!(ready.body, "ready");
    let storage = data_dir_of(&server);
    exams("stop-new", &storage).await;
    let stopped = readyz_until(&server, 503).await;
    assert_not_ready(&stopped, &["new_sessions"]);
    let alive = http_get(&server, "/healthz", None).await;
    assert_eq!(alive.status, 200, "{alive:?}");
    exams("allow-new", &storage).await;
    readyz_until(&server, 200).await;
}

#[tokio::test]
async fn readyz_fails_while_redis_is_down_and_recovers_when_it_is_back() {
    let mut redis = RedisServer::start();
    let node = Server::node(&[redis.url()], false, "ready", &[]).await;
    readyz_until(&node, 200).await;
    redis.stop();
    let down = readyz_until(&node, 503).await;
    assert_not_ready(&down, &["storage"]);
    let alive = http_get(&node, "/healthz", None).await;
    assert_eq!(alive.status, 200, "{alive:?}");
    redis.restart();
    readyz_until(&node, 200).await;
}

#[tokio::test]
async fn readyz_says_draining_once_shutdown_begins() {
    let mut redis = RedisServer::start();
    let mut node = Server::node(&[redis.url()], false, "drain", &[]).await;
    let mut alice = Client::connect(&node, Auth::bearer("alice")).await;
    start_exam(&mut alice, "drain").await;
    readyz_until(&node, 200).await;
    // With Redis gone, shutdown waits (within the stall wait) to store alice's session,
    // and the listener stays open meanwhile: long enough to see the drain.
    redis.stop();
    node.signal("TERM");
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    let draining = loop {
        let response = http_get(&node, "/readyz", None).await;
        let failed = response.json()["failed"].clone();
        if failed
            .as_array()
            .is_some_and(|f| f.iter().any(|c| c == "draining"))
        {
            break response;
        }
        assert!(tokio::time::Instant::now() < deadline, "{response:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // `storage` may be listed too, once a probe sees Redis gone.
    assert_eq!(draining.status, 503, "{draining:?}");
    assert_eq!(draining.header("retry-after"), Some("5"), "{draining:?}");
    assert_eq!(draining.json()["code"], "not_ready", "{draining:?}");
    let alive = http_get(&node, "/healthz", None).await;
    assert_eq!(alive.status, 200, "{alive:?}");
    node.stop().await;
}
