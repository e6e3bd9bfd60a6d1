//! The provider against a real HTTP server on loopback that misbehaves on purpose: it fails
//! with 500, hangs, sends a body that is not a completion, or stops at the token cap. Every
//! call returns within its timeout, and each is made exactly once (no retries).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::json;
use viva_llm::provider::{CallError, LlmSettings, Provider};

/// Each call's limit: generous, since this machine may be busy building.
const TIMEOUT: Duration = Duration::from_secs(3);

#[derive(Clone, Copy)]
enum Behaviour {
    Fails,
    Hangs,
    Garbage,
    Truncated,
    Answers,
}

/// A chat-completions endpoint that behaves as told; returns its base URL and a count of
/// the requests it got.
async fn endpoint(behaviour: Behaviour) -> (String, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move || {
            let counted = counted.clone();
            async move {
                counted.fetch_add(1, Ordering::SeqCst);
                reply(behaviour).await
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}/v1"), hits)
}

fn completion(content: &str, finish: &str) -> serde_json::Value {
    json!({"id": "c1", "object": "chat.completion", "created": 1, "model": "test",
           "choices": [{"index": 0, "finish_reason": finish,
                        "message": {"role": "assistant", "content": content}}],
           "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}})
}

async fn reply(behaviour: Behaviour) -> Response {
    match behaviour {
        Behaviour::Fails => (StatusCode::INTERNAL_SERVER_ERROR, "boom").into_response(),
        Behaviour::Hangs => {
            tokio::time::sleep(Duration::from_secs(60)).await;
            StatusCode::OK.into_response()
        }
        Behaviour::Garbage => (StatusCode::OK, "{\"choices\": [{\"oops\"").into_response(),
        Behaviour::Truncated => {
            axum::Json(completion("{\"score\": \"par", "length")).into_response()
        }
        Behaviour::Answers => axum::Json(completion("What is VFR?", "stop")).into_response(),
    }
}

fn provider(base_url: String) -> Provider {
    Provider::new(LlmSettings {
        base_url,
        model: "test".into(),
        api_key: Some("not-needed".into()),
        timeout: TIMEOUT,
        max_in_flight: 2,
        max_tokens: 64,
    })
}

async fn call(
    behaviour: Behaviour,
) -> (
    Result<viva_llm::provider::Reply, CallError>,
    Duration,
    usize,
) {
    let (url, hits) = endpoint(behaviour).await;
    let began = Instant::now();
    let outcome = provider(url).complete("system", "user", None).await;
    (outcome, began.elapsed(), hits.load(Ordering::SeqCst))
}

#[tokio::test]
async fn a_server_error_fails_once_without_retry() {
    let (outcome, took, hits) = call(Behaviour::Fails).await;
    assert_eq!(outcome.unwrap_err().label(), "endpoint");
    assert_eq!(hits, 1, "no retry");
    assert!(took < TIMEOUT, "{took:?}");
}

#[tokio::test]
async fn a_hanging_server_times_out_on_time() {
    let (outcome, took, hits) = call(Behaviour::Hangs).await;
    assert_eq!(outcome.unwrap_err(), CallError::Timeout(TIMEOUT));
    assert_eq!(hits, 1);
    let limit = TIMEOUT + Duration::from_secs(1);
    assert!(took < limit, "bounded by the timeout: {took:?}");
}

#[tokio::test]
async fn malformed_json_is_an_endpoint_failure() {
    let (outcome, _, hits) = call(Behaviour::Garbage).await;
    assert_eq!(outcome.unwrap_err().label(), "endpoint");
    assert_eq!(hits, 1);
}

#[tokio::test]
async fn a_reply_at_the_token_cap_is_marked_truncated() {
    let (outcome, _, _) = call(Behaviour::Truncated).await;
    assert!(outcome.unwrap().truncated);
}

#[tokio::test]
async fn a_good_reply_carries_its_text_and_tokens() {
    let (outcome, _, hits) = call(Behaviour::Answers).await;
    let reply = outcome.unwrap();
    assert_eq!(reply.text, "What is VFR?");
    assert_eq!((reply.prompt_tokens, reply.completion_tokens), (12, 5));
    assert!(!reply.truncated);
    assert_eq!(hits, 1);
}
