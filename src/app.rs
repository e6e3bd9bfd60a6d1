//! The HTTP surface: the router, shared state, handlers, and one `AppError` for responses.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Json;
use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio_util::sync::CancellationToken;
use viva_actors::directory::Directory;
use viva_actors::supervisor::{ReadResult, ResultLookup};
use viva_core::checkpoint::SideStore;
use viva_core::modes::tutor::{snapshot_key, snapshot_of_body};
use viva_core::tutor::board::progress_board;
use viva_core::tutor::library::TutorLibrary;
use viva_core::tutor::snapshot::StudentSnapshot;
use viva_core::voice::SpeechToText;
use viva_protocol::result::SessionResult;
use viva_protocol::tutor::ProgressBoard;

use crate::auth::Authenticator;
use crate::connections::{ConnectionLimits, Refused};
use crate::metrics::AllMetrics;
use crate::ws::{self, HARD_FRAME_LIMIT};

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
    /// What can be started here (`GET /v1/catalog`), as JSON: it never changes while the
    /// server runs, so it is written once.
    pub catalog_json: axum::body::Bytes,
    /// How long a connection may send its session nothing before the session hibernates.
    pub hibernate_after: Option<std::time::Duration>,
    /// Which `Origin` and `Host` headers the edge lets through.
    pub edge: crate::edge::EdgePolicy,
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
    ) -> App {
        App {
            directory,
            auth,
            shutdown: CancellationToken::new(),
            connections,
            speech,
            metrics,
            tutor,
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

    /// The metrics text, with the gauges read off their sources first.
    fn metrics_text(&self) -> String {
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

/// The routes.
pub fn router(app: Arc<App>) -> Router {
    let client = crate::web::asset_paths().fold(Router::new(), |router, path| {
        router.route(path, get(crate::web::asset))
    });
    client
        .route("/healthz", get(healthz))
        .route("/v1/catalog", get(crate::web::catalog))
        .route("/v1/sessions", get(crate::web::sessions))
        .route("/metrics", get(metrics))
        .route("/v1/ws", get(websocket))
        .route("/v1/sessions/{id}/result", get(session_result))
        .route("/v1/tutor/{course_id}/progress", get(tutor_progress))
        // Before the layer, so the edge checks unknown paths too.
        .fallback(|| async { StatusCode::NOT_FOUND })
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            crate::edge::guard,
        ))
        .with_state(app)
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
    Edge(crate::edge::Refusal),
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
            AppError::Edge(crate::edge::Refusal::Origin) => {
                (StatusCode::FORBIDDEN, "origin_not_allowed")
            }
            AppError::Edge(crate::edge::Refusal::Host) => {
                (StatusCode::FORBIDDEN, "host_not_allowed")
            }
            AppError::Internal(detail) => {
                tracing::error!(%detail, "request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
        };
        (status, Json(serde_json::json!({ "error": code }))).into_response()
    }
}

async fn healthz() -> &'static str {
    "ok"
}

/// Prometheus text exposition. Unauthenticated, like `/healthz`: it names no user or
/// session, only counts; keep the listener off public networks or filter the path.
async fn metrics(State(app): State<Arc<App>>) -> Response {
    let content_type = "text/plain; version=0.0.4; charset=utf-8";
    let headers = [(axum::http::header::CONTENT_TYPE, content_type)];
    (headers, app.metrics_text()).into_response()
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

/// Each socket's read buffer, kept for the connection's life. axum's default, 128 KiB, was
/// most of an idle session's memory, and 4 KiB still a quarter of a hibernated one's
/// (docs/benchmarks.md). Events are a few hundred bytes; a larger frame (an audio frame is
/// 1,280) still arrives whole, the buffer growing to hold it.
const READ_BUFFER: usize = 1024;

async fn websocket(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, Response> {
    let user_id = authenticate(&app, &headers, &query).map_err(IntoResponse::into_response)?;
    let upgrade = upgrade.map_err(IntoResponse::into_response)?;
    let slot = app.connections.open(&user_id).map_err(|refused| {
        tracing::info!(user = %user_id, ?refused, "connection refused");
        let error = match refused {
            Refused::User => AppError::TooManyConnections,
            Refused::Server => AppError::Overloaded,
        };
        error.into_response()
    })?;
    let connection_id = app.next_connection_id.fetch_add(1, Ordering::Relaxed);
    let upgrade = upgrade
        .read_buffer_size(READ_BUFFER)
        .max_message_size(HARD_FRAME_LIMIT)
        .max_frame_size(HARD_FRAME_LIMIT);
    Ok(upgrade.on_upgrade(move |socket| async move {
        ws::serve(socket, app, user_id, connection_id).await;
        drop(slot);
    }))
}

async fn session_result(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
    Path(session_id): Path<String>,
) -> Result<Json<SessionResult>, AppError> {
    let user_id = authenticate(&app, &headers, &query)?;
    let supervisor = app.directory.supervisor(&user_id);
    let lookup = supervisor
        .ask(ReadResult { session_id })
        .await
        .map_err(|err| AppError::Internal(format!("{err:?}")))?;
    match lookup {
        ResultLookup::Completed(result) => Ok(Json(result)),
        ResultLookup::NotCompleted => Err(AppError::NotCompleted),
        ResultLookup::NotFound => Err(AppError::NotFound),
        ResultLookup::Unavailable => Err(AppError::StorageUnavailable),
    }
}

/// The user's progress board of a course: the stored snapshot (written after every tutor
/// turn), or a new student's board when there is none yet.
async fn tutor_progress(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
    Path(course_id): Path<String>,
) -> Result<Json<ProgressBoard>, AppError> {
    let user_id = authenticate(&app, &headers, &query)?;
    let (course, _) = app
        .tutor
        .library
        .course(&course_id)
        .ok_or(AppError::CourseNotFound)?;
    let key = snapshot_key(&user_id, &course_id);
    let stored = app.tutor.sides.load_side(&key).await.map_err(|err| {
        tracing::error!(user = %user_id, %err, "snapshot not read");
        AppError::StorageUnavailable
    })?;
    let snapshot = match stored {
        Some(stored) => {
            snapshot_of_body(&stored.body).map_err(|refusal| AppError::Internal(refusal.message))?
        }
        None => StudentSnapshot::cold_start(&user_id, &course_id, &course.doc.entry_unit),
    };
    let now = viva_core::clock::Clock::now_ms(&viva_core::clock::SystemClock);
    Ok(Json(progress_board(course, &snapshot, now)))
}
