//! The provider against a real HTTP server on loopback that misbehaves on purpose: it fails
//! with 500, hangs, sends a body that is not a completion, or stops at the token cap. Every
//! call returns within its timeout, and each is made exactly once (no retries).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::time::{Duration, Instant};

use viva_llm::provider::{CallError, Flow, LlmSettings, Provider};
use viva_testkit::openai::{Behaviour, endpoint};

/// Each call's limit: generous, since this machine may be busy building.
const TIMEOUT: Duration = Duration::from_secs(3);

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
    (outcome, began.elapsed(), hits.count())
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
    let (outcome, _, _) = call(Behaviour::Says("{\"score\": \"par", "length")).await;
    assert!(outcome.unwrap().truncated);
}

#[tokio::test]
async fn a_good_reply_carries_its_text_and_tokens() {
    let (outcome, _, hits) = call(Behaviour::Says("What is VFR?", "stop")).await;
    let reply = outcome.unwrap();
    assert_eq!(reply.text, "What is VFR?");
    assert_eq!((reply.prompt_tokens, reply.completion_tokens), (12, 5));
    assert!(!reply.truncated);
    assert_eq!(hits, 1);
}

#[tokio::test]
async fn a_streamed_reply_comes_in_pieces_and_stops_when_told() {
    let text = "Which documents must be on board before a flight, and who checks them?";
    let (url, hits) = endpoint(Behaviour::Says(text, "stop")).await;
    let provider = provider(url);
    let mut pieces = Vec::new();
    let mut keep = |piece: &str| {
        pieces.push(piece.to_owned());
        Flow::Continue
    };
    let reply = provider
        .stream("system", "user", None, &mut keep)
        .await
        .unwrap();
    assert_eq!(reply.text, text);
    assert_eq!(pieces.concat(), text);
    assert!(pieces.len() > 3, "{pieces:?}");
    assert!(
        reply
            .first_token
            .is_some_and(|first| first <= reply.latency)
    );
    assert_eq!((reply.prompt_tokens, reply.completion_tokens), (12, 5));

    let mut stop_after_two = {
        let mut seen = 0;
        move |_: &str| {
            seen += 1;
            if seen == 2 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        }
    };
    let cut = provider
        .stream("system", "user", None, &mut stop_after_two)
        .await
        .unwrap();
    assert_eq!(cut.text, pieces[..2].concat());
    assert_eq!(hits.count(), 2, "each stream is one request");
}

#[tokio::test]
async fn a_hanging_stream_times_out_and_garbage_in_a_stream_fails() {
    let mut ignore = |_: &str| Flow::Continue;
    let (url, _) = endpoint(Behaviour::Hangs).await;
    let began = Instant::now();
    let outcome = provider(url).stream("s", "u", None, &mut ignore).await;
    assert_eq!(outcome.unwrap_err(), CallError::Timeout(TIMEOUT));
    assert!(began.elapsed() < TIMEOUT + Duration::from_secs(1));
    let (url, _) = endpoint(Behaviour::Garbage).await;
    let outcome = provider(url).stream("s", "u", None, &mut ignore).await;
    assert_eq!(outcome.unwrap_err().label(), "endpoint");
}
