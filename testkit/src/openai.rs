//! A chat-completions endpoint on loopback that behaves as a test tells it to.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

/// How the endpoint answers every request.
#[derive(Clone, Copy)]
pub enum Behaviour {
    /// HTTP 500.
    Fails,
    /// No answer for a minute.
    Hangs,
    /// A body that is not a completion.
    Garbage,
    /// A completion with this content and finish reason (streamed when asked to stream).
    Says(&'static str, &'static str),
    /// A model that does its job: streamed requests (phrasing) get `{"question": question}`,
    /// fact checks against a rubric (schema `fact_check`) get [`NO_FINDINGS`], and other
    /// assessments get `verdict`.
    Examines {
        /// The phrasing, streamed in pieces.
        question: &'static str,
        /// The assessment JSON.
        verdict: &'static str,
        /// How long each assessment takes.
        assess_delay: Duration,
    },
}

/// The request bodies an endpoint got, in order, and how many it has answered.
#[derive(Clone, Default)]
pub struct Requests(Arc<Mutex<Vec<Value>>>, Arc<AtomicUsize>);

impl Requests {
    /// How many came.
    pub fn count(&self) -> usize {
        self.0.lock().unwrap().len()
    }

    /// Every one so far.
    pub fn all(&self) -> Vec<Value> {
        self.0.lock().unwrap().clone()
    }

    /// How many got their answer (after any delay).
    pub fn answered(&self) -> usize {
        self.1.load(Ordering::SeqCst)
    }
}

/// Serves `behaviour`; returns the API base URL and the requests it gets.
pub async fn endpoint(behaviour: Behaviour) -> (String, Requests) {
    let requests = Requests::default();
    let recorded = requests.clone();
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move |axum::Json(request): axum::Json<Value>| {
            let recorded = recorded.clone();
            async move {
                let streamed = request["stream"] == json!(true);
                let fact_check = request["response_format"]["json_schema"]["name"] == "fact_check";
                recorded.0.lock().unwrap().push(request);
                let response = reply(behaviour, streamed, fact_check).await;
                recorded.1.fetch_add(1, Ordering::SeqCst);
                response
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}/v1"), requests)
}

/// The user prompt of a recorded request.
pub fn user_prompt(request: &Value) -> String {
    request["messages"][1]["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn completion(content: &str, finish: &str) -> serde_json::Value {
    json!({"id": "c1", "object": "chat.completion", "created": 1, "model": "test",
           "choices": [{"index": 0, "finish_reason": finish,
                        "message": {"role": "assistant", "content": content}}],
           "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}})
}

/// A fact check that finds nothing of its own: the embedded findings stand.
pub const NO_FINDINGS: &str = r#"{"facts": [], "misconceptions": []}"#;

async fn reply(behaviour: Behaviour, streamed: bool, fact_check: bool) -> Response {
    match behaviour {
        Behaviour::Fails => (StatusCode::INTERNAL_SERVER_ERROR, "boom").into_response(),
        Behaviour::Hangs => {
            tokio::time::sleep(Duration::from_secs(60)).await;
            StatusCode::OK.into_response()
        }
        Behaviour::Garbage if streamed => sse(vec!["{\"choices\": [{\"oops\"".to_owned()]),
        Behaviour::Garbage => (StatusCode::OK, "{\"choices\": [{\"oops\"").into_response(),
        Behaviour::Says(content, finish) if streamed => sse(chunks(content, finish)),
        Behaviour::Says(content, finish) => axum::Json(completion(content, finish)).into_response(),
        Behaviour::Examines { question, .. } if streamed => {
            let reply = json!({"question": question}).to_string();
            sse(chunks(&reply, "stop"))
        }
        Behaviour::Examines {
            verdict,
            assess_delay,
            ..
        } => {
            tokio::time::sleep(assess_delay).await;
            let content = if fact_check { NO_FINDINGS } else { verdict };
            axum::Json(completion(content, "stop")).into_response()
        }
    }
}

/// A streamed completion of `content`, a few words per chunk, then the finish reason and
/// the usage, as `data:` lines.
fn chunks(content: &str, finish: &str) -> Vec<String> {
    let chunk = |delta: serde_json::Value, finish: Option<&str>| {
        json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "test",
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        .to_string()
    };
    let words: Vec<&str> = content.split_inclusive(' ').collect();
    let mut events: Vec<String> = words
        .chunks(2)
        .map(|piece| chunk(json!({"content": piece.concat()}), None))
        .collect();
    events.push(chunk(json!({}), Some(finish)));
    let usage = json!({"id": "c1", "object": "chat.completion.chunk", "created": 1,
        "model": "test", "choices": [],
        "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}});
    events.push(usage.to_string());
    events.push("[DONE]".to_owned());
    events
}

fn sse(events: Vec<String>) -> Response {
    let body: String = events
        .iter()
        .map(|data| format!("data: {data}\n\n"))
        .collect();
    ([("content-type", "text/event-stream")], body).into_response()
}
