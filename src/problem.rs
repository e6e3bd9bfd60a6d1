//! HTTP errors as RFC 9457 problem details (`application/problem+json`), with the headers a
//! status calls for: `Retry-After` on 429 and 503, `WWW-Authenticate` on 401 (RFC 6750).
//!
//! Every body carries `type` (`https://viva.example/problems/<code>`: a stable identifier,
//! not a page to fetch), `title`, `status`, `detail` and the extension member `code`, the
//! machine-readable code clients match on. A 5xx body's `detail` is generic; the cause goes
//! to the log.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};

/// The prefix of every problem's `type`; the code follows it.
pub const TYPE_PREFIX: &str = "https://viva.example/problems/";
/// The media type of every error body.
pub const CONTENT_TYPE: &str = "application/problem+json";
/// The `realm` of every `WWW-Authenticate` challenge.
pub const REALM: &str = "viva";

/// One problem: what a client is told, as data (no IO), turned into a response at the end.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The HTTP status.
    pub status: StatusCode,
    /// The machine-readable code (`type` ends with it; the `code` member repeats it).
    pub code: &'static str,
    /// A short summary of the kind of problem, the same for every occurrence.
    pub title: &'static str,
    /// This occurrence, in words.
    pub detail: String,
    /// Seconds before a retry may succeed (`Retry-After`), for 429 and 503.
    pub retry_after: Option<u64>,
    /// The `WWW-Authenticate` challenge, for 401.
    pub challenge: Option<String>,
    /// More members, such as `failed` on `/readyz`.
    pub extensions: Map<String, Value>,
}

impl Problem {
    /// A problem with no headers or extensions.
    pub fn new(status: StatusCode, code: &'static str, title: &'static str) -> Problem {
        Problem {
            status,
            code,
            title,
            detail: title.to_owned(),
            retry_after: None,
            challenge: None,
            extensions: Map::new(),
        }
    }

    /// The same with this `detail`.
    pub fn detail(mut self, detail: impl Into<String>) -> Problem {
        self.detail = detail.into();
        self
    }

    /// The same with `Retry-After: seconds`.
    pub fn retry_after(mut self, seconds: u64) -> Problem {
        self.retry_after = Some(seconds);
        self
    }

    /// The same with an extension member.
    pub fn with(mut self, name: &str, value: Value) -> Problem {
        self.extensions.insert(name.to_owned(), value);
        self
    }

    /// The JSON body.
    pub fn body(&self) -> Value {
        let mut body = Map::new();
        body.insert("type".into(), format!("{TYPE_PREFIX}{}", self.code).into());
        body.insert("title".into(), self.title.into());
        body.insert("status".into(), self.status.as_u16().into());
        body.insert("detail".into(), self.detail.clone().into());
        body.insert("code".into(), self.code.into());
        for (name, value) in &self.extensions {
            body.entry(name.clone()).or_insert_with(|| value.clone());
        }
        Value::Object(body)
    }
}

/// The `WWW-Authenticate` challenge of a 401 (RFC 6750 §3): the bare realm when no token came,
/// `invalid_token` with a description when one came but failed.
pub fn bearer_challenge(invalid: Option<&str>) -> String {
    match invalid {
        None => format!("Bearer realm=\"{REALM}\""),
        Some(description) => {
            // RFC 6750 allows %x20-21 / %x23-5B / %x5D-7E in error_description.
            let safe: String = description
                .chars()
                .filter(|c| matches!(c, ' '..='~') && *c != '"' && *c != '\\')
                .collect();
            format!(
                "Bearer realm=\"{REALM}\", error=\"invalid_token\", error_description=\"{safe}\""
            )
        }
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = self.body().to_string();
        let mut response = (self.status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if let Some(challenge) = self.challenge
            && let Ok(value) = HeaderValue::from_str(&challenge)
        {
            headers.insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_body_has_the_rfc_9457_members_and_the_code() {
        let problem = Problem::new(StatusCode::NOT_FOUND, "session_not_found", "Not found")
            .detail("no such session")
            .with("failed", json!(["storage"]))
            .with("status", json!(1));
        assert_eq!(
            problem.body(),
            json!({
                "type": "https://viva.example/problems/session_not_found",
                "title": "Not found",
                "status": 404,
                "detail": "no such session",
                "code": "session_not_found",
                "failed": ["storage"],
            })
        );
    }

    #[test]
    fn challenges_follow_rfc_6750() {
        let check = |invalid: Option<&str>, expected: &str| {
            assert_eq!(bearer_challenge(invalid), expected, "{invalid:?}");
        };
        check(None, "Bearer realm=\"viva\"");
        check(
            Some("the token has expired"),
            "Bearer realm=\"viva\", error=\"invalid_token\", error_description=\"the token has expired\"",
        );
        check(
            Some("a \"quoted\"\\ é"),
            "Bearer realm=\"viva\", error=\"invalid_token\", error_description=\"a quoted \"",
        );
    }

    #[test]
    fn headers_are_set_from_the_problem() {
        let mut problem = Problem::new(StatusCode::SERVICE_UNAVAILABLE, "overloaded", "Busy");
        problem = problem.retry_after(5);
        problem.challenge = Some(bearer_challenge(None));
        let response = problem.into_response();
        let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok());
        assert_eq!(header(header::CONTENT_TYPE), Some(CONTENT_TYPE));
        assert_eq!(header(header::RETRY_AFTER), Some("5"));
        assert_eq!(
            header(header::WWW_AUTHENTICATE),
            Some("Bearer realm=\"viva\"")
        );
    }
}
