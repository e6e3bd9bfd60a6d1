//! The browser client, served by the binary itself: the page and its scripts are compiled
//! in (`web/`), so the client works offline and always matches the server it came from;
//! and the two small JSON endpoints it reads, `GET /v1/catalog` and `GET /v1/sessions`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use viva_actors::supervisor::ListSessions;
use viva_protocol::catalog::{SessionList, SessionListed};

use crate::app::{App, AppError, authenticate};

/// One file of the client.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

/// Every file of the client, by the path it is served at.
const ASSETS: [Asset; 14] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../web/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/app.js"),
    },
    Asset {
        path: "/app.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../web/app.css"),
    },
    Asset {
        path: "/sign-in.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/sign-in.js"),
    },
    Asset {
        path: "/mic-worklet.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/mic-worklet.js"),
    },
    Asset {
        path: "/resample.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/resample.js"),
    },
    Asset {
        path: "/words.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/words.js"),
    },
    Asset {
        path: "/dom.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/dom.js"),
    },
    Asset {
        path: "/link.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/link.js"),
    },
    Asset {
        path: "/results.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/results.js"),
    },
    Asset {
        path: "/tutor.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/tutor.js"),
    },
    Asset {
        path: "/exam.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/exam.js"),
    },
    Asset {
        path: "/assessment.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/assessment.js"),
    },
    Asset {
        path: "/answer-box.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/answer-box.js"),
    },
];

/// Scripts, styles and connections from this server only (`'self'` covers its own `ws:` and
/// `wss:`), and connections to the OpenID provider's origin when one is configured (its
/// discovery document and token endpoint, `web/sign-in.js`); no inline script, no frames.
pub fn content_security_policy(provider: Option<&str>) -> String {
    let provider = provider
        .and_then(|issuer| reqwest::Url::parse(issuer).ok())
        .map(|url| format!(" {}", url.origin().ascii_serialization()))
        .unwrap_or_default();
    format!(
        "default-src 'self'; connect-src 'self'{provider}; img-src 'self' data:; \
         frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )
}

/// The routes of the client's files.
pub fn asset_paths() -> impl Iterator<Item = &'static str> {
    ASSETS.iter().map(|asset| asset.path)
}

/// Serves the asset at `path` (the router only sends paths from [`asset_paths`]); the edge
/// adds `nosniff` (`crate::edge`).
pub async fn asset(State(app): State<Arc<App>>, uri: axum::http::Uri) -> Response {
    let Some(asset) = ASSETS.iter().find(|a| a.path == uri.path()) else {
        return AppError::NoRoute.into_response();
    };
    let issuer = app.auth.sign_in().map(|sign_in| sign_in.issuer.as_str());
    let csp = HeaderValue::from_str(&content_security_policy(issuer))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    let headers = [
        (
            header::CONTENT_TYPE,
            HeaderValue::from_static(asset.content_type),
        ),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::CONTENT_SECURITY_POLICY, csp),
        // The page's address carries `?access_token=` when a token arrives that way.
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
    ];
    (headers, asset.body).into_response()
}

/// `GET /v1/catalog`: what can be started here. Public: it names no user.
pub async fn catalog(State(app): State<Arc<App>>) -> Response {
    let json = HeaderValue::from_static("application/json");
    ([(header::CONTENT_TYPE, json)], app.catalog_json.clone()).into_response()
}

/// `GET /v1/sessions`: the signed-in user's sessions, most recent first.
pub async fn sessions(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<SessionList>, AppError> {
    let user_id = authenticate(&app, &headers, &query).await?;
    let entries = app
        .directory
        .supervisor(&user_id)
        .ask(ListSessions)
        .await
        .map_err(|err| AppError::Internal(format!("{err:?}")))?
        .ok_or(AppError::StorageUnavailable)?;
    let sessions = entries
        .into_iter()
        .map(|entry| SessionListed {
            session_id: entry.session_id,
            status: entry.status,
            mode: entry.mode,
            title: entry.title,
        })
        .collect();
    Ok(Json(SessionList { sessions }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_small_and_loads_nothing_from_elsewhere() {
        let total: usize = ASSETS.iter().map(|a| a.body.len()).sum();
        assert!(total < 100 * 1024, "{total} bytes of assets");
        for asset in &ASSETS {
            for outside in ["http://", "https://", "//cdn", "fonts.googleapis"] {
                assert!(
                    !asset.body.contains(outside),
                    "{} loads {outside}",
                    asset.path
                );
            }
        }
    }

    /// Every module a script imports (`from "/x.js"`, `addModule("/x.js")`) is served: the
    /// client's module graph is closed.
    #[test]
    fn every_module_a_script_imports_is_served() {
        let served: Vec<&str> = asset_paths().collect();
        let scripts = ASSETS.iter().filter(|a| a.path.ends_with(".js"));
        for script in scripts {
            let quoted = script.body.split('"').skip(1).step_by(2);
            for imported in quoted.filter(|q| q.starts_with('/') && q.ends_with(".js")) {
                assert!(
                    served.contains(&imported),
                    "{} imports {imported}, which is not served",
                    script.path
                );
            }
        }
        let app = ASSETS.iter().find(|a| a.path == "/app.js").map(|a| a.body);
        assert!(app.is_some_and(|body| body.contains(r#"from "/dom.js""#)));
    }

    #[test]
    fn the_policy_lets_the_page_reach_only_the_configured_provider() {
        let check = |issuer: Option<&str>, connect: &str| {
            let policy = content_security_policy(issuer);
            assert!(
                policy.contains(&format!("connect-src {connect};")),
                "{policy}"
            );
            assert!(policy.contains("default-src 'self';"), "{policy}");
        };
        check(None, "'self'");
        check(
            Some("https://idp.example/realms/x"),
            "'self' https://idp.example",
        );
        check(
            Some("http://127.0.0.1:4000"),
            "'self' http://127.0.0.1:4000",
        );
        check(Some("not a url"), "'self'");
    }
}
