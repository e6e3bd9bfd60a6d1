//! The state every request shares ([`App`]), authentication, and one `AppError` for responses.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

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
use crate::problem::{Problem, bearer_challenge};
use crate::ready::Readiness;

/// State shared by every request.
pub struct App {
    pub directory: Directory,
    pub auth: Authenticator,
    /// `/readyz`'s probe and the draining flag.
    pub ready: Readiness,
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
        (auth, ready): (Authenticator, Readiness),
        connections: ConnectionLimits,
        speech: Option<Arc<dyn SpeechToText>>,
        metrics: Arc<AllMetrics>,
        (tutor, catalog_json): (TutorBoards, axum::body::Bytes),
        acs: Arc<AcsLibrary>,
    ) -> App {
        App {
            directory,
            auth,
            ready,
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

/// Seconds a client is asked to wait (`Retry-After`) after a 503.
pub const RETRY_UNAVAILABLE_SECS: u64 = 5;
/// Seconds a client is asked to wait (`Retry-After`) after a 429.
pub const RETRY_TOO_MANY_SECS: u64 = 10;

/// Errors as HTTP responses: RFC 9457 problem details (`crate::problem`) with the old code in
/// `code`; a 5xx body says nothing of its cause, which goes to the log.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No token (`None`), or one that failed, with a description safe to show.
    #[error("unauthorized")]
    Unauthorized(Option<&'static str>),
    #[error("session not found")]
    NotFound,
    #[error("session not completed")]
    NotCompleted,
    #[error("course not found")]
    CourseNotFound,
    /// No route has this path.
    #[error("no such path")]
    NoRoute,
    /// The path has a route, but not for this method.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// `/v1/ws` without a WebSocket upgrade, with the status axum gave it.
    #[error("not a WebSocket upgrade")]
    NotUpgrade(StatusCode),
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

impl AppError {
    /// The problem a client is told.
    pub fn problem(&self) -> Problem {
        use StatusCode as S;
        match self {
            AppError::Unauthorized(invalid) => {
                let mut problem = Problem::new(S::UNAUTHORIZED, "unauthorized", "Unauthorized")
                    .detail(invalid.unwrap_or("a bearer token is required"));
                problem.challenge = Some(bearer_challenge(*invalid));
                problem
            }
            AppError::NotFound => {
                Problem::new(S::NOT_FOUND, "session_not_found", "Session not found")
                    .detail("no session of yours has this id")
            }
            AppError::NotCompleted => {
                Problem::new(S::CONFLICT, "not_completed", "Session not completed")
                    .detail("the session has no result until it completes")
            }
            AppError::CourseNotFound => {
                Problem::new(S::NOT_FOUND, "course_not_found", "Course not found")
            }
            AppError::NoRoute => Problem::new(S::NOT_FOUND, "not_found", "Not found"),
            AppError::MethodNotAllowed => Problem::new(
                S::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "Method not allowed",
            ),
            AppError::NotUpgrade(status) => Problem::new(
                *status,
                "websocket_upgrade_required",
                "WebSocket upgrade required",
            ),
            AppError::Overloaded => {
                Problem::new(S::SERVICE_UNAVAILABLE, "overloaded", "Server busy")
                    .detail("the server holds as many connections as it may")
                    .retry_after(RETRY_UNAVAILABLE_SECS)
            }
            AppError::TooManyConnections => Problem::new(
                S::TOO_MANY_REQUESTS,
                "too_many_connections",
                "Too many connections",
            )
            .detail("this user holds as many connections as one user may")
            .retry_after(RETRY_TOO_MANY_SECS),
            AppError::StorageUnavailable => Problem::new(
                S::SERVICE_UNAVAILABLE,
                "storage_unavailable",
                "Storage unavailable",
            )
            .detail("storage could not be reached; retry")
            .retry_after(RETRY_UNAVAILABLE_SECS),
            AppError::Edge(Refusal::Origin) => {
                Problem::new(S::FORBIDDEN, "origin_not_allowed", "Origin not allowed")
            }
            AppError::Edge(Refusal::Host) => {
                Problem::new(S::FORBIDDEN, "host_not_allowed", "Host not allowed")
            }
            AppError::Internal(_) => {
                Problem::new(S::INTERNAL_SERVER_ERROR, "internal", "Internal error")
                    .detail("the request failed; the cause is in the server's log")
            }
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let AppError::Internal(detail) = &self {
            tracing::error!(%detail, "request failed");
        }
        self.problem().into_response()
    }
}

pub(crate) async fn authenticate(
    app: &App,
    headers: &HeaderMap,
    query: &HashMap<String, String>,
) -> Result<String, AppError> {
    app.auth.authenticate(headers, query).await.map_err(|err| {
        tracing::info!(%err, "request refused");
        AppError::Unauthorized(err.description())
    })
}
