//! The HTTP routes: the router, the edge's middleware in front of it, and the handlers of
//! the server's own paths (`/healthz`, `/readyz`, `/metrics`, `/v1/auth/config`, `/v1/ws`,
//! results, progress boards, the review report);
//! `web` serves the client's.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use viva_actors::supervisor::{ReadElementRecords, ReadResult, ResultLookup};
use viva_core::clock::{Clock, SystemClock};
use viva_core::exam::progress::progress_report;
use viva_core::modes::tutor::mode::{snapshot_key, snapshot_of_body};
use viva_core::review::review_book;
use viva_core::tutor::board::progress_board;
use viva_core::tutor::snapshot::StudentSnapshot;
use viva_protocol::progress::ProgressReport;
use viva_protocol::result::SessionResult;
use viva_protocol::tutor::ProgressBoard;

use crate::app::{App, AppError, authenticate};
use crate::connections::Refused;
use crate::ws::{self, HARD_FRAME_LIMIT};
use crate::{edge, ready, web};

/// The routes.
pub fn router(app: Arc<App>) -> Router {
    let client = web::asset_paths().fold(Router::new(), |router, path| {
        router.route(path, get(web::asset))
    });
    client
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/v1/catalog", get(web::catalog))
        .route("/v1/auth/config", get(auth_config))
        .route("/v1/sessions", get(web::sessions))
        .route("/metrics", get(metrics))
        .route("/v1/ws", get(websocket))
        .route("/v1/sessions/{id}/result", get(session_result))
        .route("/v1/tutor/{course_id}/progress", get(tutor_progress))
        .route("/v1/progress", get(review_progress))
        // Before the layer, so the edge checks unknown paths too.
        .fallback(|| async { AppError::NoRoute })
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed })
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// The edge's middleware: refuses what [`EdgePolicy::check`](edge::EdgePolicy::check) refuses, before the route (and so
/// before a WebSocket upgrade), and marks every response `nosniff`.
pub async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let mut response = match edge::verdict(&app.edge, &request) {
        Ok(()) => next.run(request).await,
        Err(refusal) => {
            app.metrics.server.refused.inc(refusal.reason());
            AppError::Edge(refusal).into_response()
        }
    };
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Alive: the process answers (always 200). Whether it should get traffic is `/readyz`.
async fn healthz() -> &'static str {
    "ok"
}

/// Ready: 200 when storage answers, new sessions are accepted and the node is not draining;
/// else 503 with the failed checks (`crate::ready`).
async fn readyz(State(app): State<Arc<App>>) -> Response {
    let failed = ready::failed(app.ready.checks().await);
    if failed.is_empty() {
        return "ready".into_response();
    }
    ready::not_ready(&failed).into_response()
}

/// `GET /v1/auth/config`: how the web client signs in: `{"oidc": {issuer, client_id,
/// scopes}}` when an OpenID provider is configured, else `{"oidc": null}`. Public.
async fn auth_config(State(app): State<Arc<App>>) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "oidc": app.auth.sign_in() }))
}

/// Prometheus text exposition. Unauthenticated, like `/healthz`: it names no user or
/// session, only counts; keep the listener off public networks or filter the path.
async fn metrics(State(app): State<Arc<App>>) -> Response {
    let content_type = "text/plain; version=0.0.4; charset=utf-8";
    let headers = [(axum::http::header::CONTENT_TYPE, content_type)];
    (headers, app.metrics_text()).into_response()
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
    let user_id = authenticate(&app, &headers, &query)
        .await
        .map_err(IntoResponse::into_response)?;
    let upgrade =
        upgrade.map_err(|rejection| AppError::NotUpgrade(rejection.status()).into_response())?;
    let slot = app.connections.open(&user_id).map_err(|refused| {
        tracing::info!(user = %user_id, ?refused, "connection refused");
        let error = match refused {
            Refused::User => AppError::TooManyConnections,
            Refused::Server => AppError::Overloaded,
        };
        error.into_response()
    })?;
    let connection_id = app.next_connection_id();
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
    let user_id = authenticate(&app, &headers, &query).await?;
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
    let user_id = authenticate(&app, &headers, &query).await?;
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
    let now = SystemClock.now_ms();
    Ok(Json(progress_board(course, &snapshot, now)))
}

/// The user's spaced review across exams (`GET /v1/progress`): their element history per
/// ACS area and what is due now, read from their record as it is stored now.
async fn review_progress(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<ProgressReport>, AppError> {
    let user_id = authenticate(&app, &headers, &query).await?;
    let records = app
        .directory
        .supervisor(&user_id)
        .ask(ReadElementRecords)
        .await
        .map_err(|err| AppError::Internal(format!("{err:?}")))?
        .ok_or(AppError::StorageUnavailable)?;
    let book = review_book(&records.history, &records.last_scores);
    Ok(Json(progress_report(&app.acs, &book, SystemClock.now_ms())))
}
