//! A chat-completions endpoint on loopback that behaves as a test tells it to, and the ACS
//! catalogs the examiner tests need.
#![allow(dead_code, clippy::unwrap_used)] // each test binary uses part of it

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::json;
use viva_actors::exam::acs::{AcsCatalog, AcsLibrary, Rating};

/// How the endpoint answers every request.
#[derive(Clone, Copy)]
pub enum Behaviour {
    /// HTTP 500.
    Fails,
    /// No answer for a minute.
    Hangs,
    /// A body that is not a completion.
    Garbage,
    /// A completion with this content and finish reason.
    Says(&'static str, &'static str),
}

/// Serves `behaviour`; returns the API base URL and a count of the requests it got.
pub async fn endpoint(behaviour: Behaviour) -> (String, Arc<AtomicUsize>) {
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
        Behaviour::Says(content, finish) => axum::Json(completion(content, finish)).into_response(),
    }
}

/// The repository's ACS catalogs.
pub fn library() -> Arc<AcsLibrary> {
    let load = |rating: Rating, elements: &str, tasks: &str| {
        AcsCatalog::from_json(rating, elements, tasks).unwrap()
    };
    Arc::new(AcsLibrary::new(
        load(
            Rating::Private,
            include_str!("../../../blueprints/acs/acs-private-airplane.json"),
            include_str!("../../../blueprints/acs/acs-private-airplane-tasks.json"),
        ),
        load(
            Rating::Commercial,
            include_str!("../../../blueprints/acs/acs-commercial-airplane.json"),
            include_str!("../../../blueprints/acs/acs-commercial-airplane-tasks.json"),
        ),
    ))
}
