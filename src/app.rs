//! The state every request shares ([`App`]), authentication, and one `AppError` for responses.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Json;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio_util::sync::CancellationToken;
use viva_actors::directory::Directory;
use viva_core::checkpoint::SideStore;
use viva_core::exam::acs::AcsLibrary;
use viva_core::tutor::library::TutorLibrary;
use viva_core::voice::SpeechToText;

use crate::auth::Authenticator;
use crate::connections::ConnectionLimits;
use crate::edge::{EdgePolicy, Refusal};
use crate::metrics::AllMetrics;

/// State shared by every request.
pub struct App {
    pub directory: Directory,
    pub auth: Authenticator,
    /// Cancelled when the server shuts down; every connection closes on it.
    pub shutdown: CancellationToken,
    /// Open WebSocket connections, in all and per user.
    pub connections: ConnectionLimits,
    /// The speech pool; `None` on a text-only server.
    speech: Option<Arc<dyn SpeechToText>>,
    /// What the server counts (`GET /metrics`).
    pub metrics: Arc<AllMetrics>,
    /// Courses and stored snapshots, for progress boards.
    pub tutor: TutorBoards,
    /// The ACS catalogs, for the review report (`GET /v1/progress`).
    pub acs: Arc<AcsLibrary>,
    /// What can be started here (`GET /v1/catalog`), as JSON: it never changes while the
    /// server runs, so it is written once.
    pub catalog_json: axum::body::Bytes,
    /// How long a connection may send its session nothing before the session hibernates.
    pub hibernate_after: Option<std::time::Duration>,
    /// Which `Origin` and `Host` headers the edge lets through.
    pub edge: EdgePolicy,
    next_connection_id: AtomicU64,
}

/// What `GET /v1/tutor/{course_id}/progress` reads.
pub struct TutorBoards {
    /// The courses.
    pub library: Arc<TutorLibrary>,
    /// Side records, where students' snapshots are stored.
    pub sides: Arc<dyn SideStore>,
}

impl App {
    pub fn new(
        directory: Directory,
        auth: Authenticator,
        connections: ConnectionLimits,
        speech: Option<Arc<dyn SpeechToText>>,
        metrics: Arc<AllMetrics>,
        (tutor, catalog_json): (TutorBoards, axum::body::Bytes),
        acs: Arc<AcsLibrary>,
    ) -> App {
        App {
            directory,
            auth,
            shutdown: CancellationToken::new(),
            connections,
            speech,
            metrics,
            tutor,
            acs,
            catalog_json,
            hibernate_after: None,
            edge: Default::default(),
            next_connection_id: AtomicU64::new(1),
        }
    }

    /// Whether spoken answers are taken (a speech model is loaded).
    pub fn voice(&self) -> bool {
        self.speech.is_some()
    }

    /// A new connection's id, unique on this server.
    pub fn next_connection_id(&self) -> u64 {
        self.next_connection_id.fetch_add(1, Ordering::Relaxed)
    }

    /// The metrics text, with the gauges read off their sources first.
    pub fn metrics_text(&self) -> String {
        let metrics = &self.metrics;
        let server = &metrics.server;
        server
            .connections
            .set_count(self.connections.open_connections());
        server.supervisors.set_count(self.directory.len());
        server.hibernated.set_count(self.directory.hibernated());
        if let Some(speech) = &self.speech {
            metrics.speech.finals_waiting.set_count(speech.depth().0);
        }
        metrics.render()
    }
}

/// Errors as HTTP responses: a status and a small JSON body; details stay in the log.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("unauthorized")]
    Unauthorized,
    #[error("session not found")]
    NotFound,
    #[error("session not completed")]
    NotCompleted,
    #[error("course not found")]
    CourseNotFound,
    /// The server holds `max_connections`.
    #[error("the server is at max_connections")]
    Overloaded,
    /// This user holds `max_connections_per_user`.
    #[error("the user is at max_connections_per_user")]
    TooManyConnections,
    #[error("storage unavailable")]
    StorageUnavailable,
    /// A browser page of another origin (`Origin`), or in development mode a request for a
    /// host name that is not loopback (`Host`).
    #[error("refused at the edge: {0:?}")]
    Edge(Refusal),
    #[error("internal error: {0}")]
    Internal(String),
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, code) = match &self {
            AppError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            AppError::NotFound => (StatusCode::NOT_FOUND, "session_not_found"),
            AppError::NotCompleted => (StatusCode::CONFLICT, "not_completed"),
            AppError::CourseNotFound => (StatusCode::NOT_FOUND, "course_not_found"),
            AppError::Overloaded => (StatusCode::SERVICE_UNAVAILABLE, "overloaded"),
            AppError::TooManyConnections => (StatusCode::TOO_MANY_REQUESTS, "too_many_connections"),
            AppError::StorageUnavailable => {
                (StatusCode::SERVICE_UNAVAILABLE, "storage_unavailable")
            }
            AppError::Edge(Refusal::Origin) => (StatusCode::FORBIDDEN, "origin_not_allowed"),
            AppError::Edge(Refusal::Host) => (StatusCode::FORBIDDEN, "host_not_allowed"),
            AppError::Internal(detail) => {
                tracing::error!(%detail, "request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
        };
        (status, Json(serde_json::json!({ "error": code }))).into_response()
    }
}

pub(crate) fn authenticate(
    app: &App,
    headers: &HeaderMap,
    query: &HashMap<String, String>,
) -> Result<String, AppError> {
    app.auth.authenticate(headers, query).map_err(|err| {
        tracing::info!(%err, "request refused");
        AppError::Unauthorized
    })
}
