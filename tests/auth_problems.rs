//! HTTP errors as RFC 9457 problem details: `application/problem+json` with `type`, `title`,
//! `status`, `detail` and `code`; `WWW-Authenticate` on 401 (RFC 6750).

use crate::harness::{
    Auth, HttpResponse, Server, connect_or_refusal, expired_token, foreign_token, http_get,
};

/// Checks the problem members of an error response and returns its body.
fn assert_problem(response: &HttpResponse, status: u16, code: &str) -> serde_json::Value {
    assert_eq!(response.status, status, "{response:?}");
    let content_type = response.content_type.as_deref();
    assert_eq!(
        content_type,
        Some("application/problem+json"),
        "{response:?}"
    );
    let body = response.json();
    let expected_type = format!("https://viva.example/problems/{code}");
    assert_eq!(body["type"], expected_type.as_str(), "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["title"].is_string() && body["detail"].is_string(),
        "{body}"
    );
    body
}

#[tokio::test]
async fn a_request_without_a_token_gets_a_bearer_challenge() {
    let server = Server::start().await;
    let response = http_get(&server, "/v1/sessions", None).await;
    assert_problem(&response, 401, "unauthorized");
    let challenge = response.header("www-authenticate");
    assert_eq!(challenge, Some("Bearer realm=\"viva\""), "{response:?}");
}

#[tokio::test]
async fn a_bad_token_gets_an_invalid_token_challenge_saying_why() {
    let server = Server::start().await;
    let cases = [
        (expired_token("alice"), "the token has expired"),
        (foreign_token("alice"), "the token could not be verified"),
    ];
    for (token, why) in cases {
        let response = http_get(&server, "/v1/progress", Some(&token)).await;
        let body = assert_problem(&response, 401, "unauthorized");
        assert_eq!(body["detail"], why, "{body}");
        let expected =
            format!("Bearer realm=\"viva\", error=\"invalid_token\", error_description=\"{why}\"");
        assert_eq!(response.header("www-authenticate"), Some(expected.as_str()));
    }
    // The same on the WebSocket handshake.
    let refused = match connect_or_refusal(&server, Auth::Bearer(expired_token("bob"))).await {
        Err(refusal) => refusal,
        Ok(_) => panic!("an expired token was upgraded"),
    };
    assert_eq!(refused.status, 401, "{refused:?}");
    assert_eq!(refused.code(), "unauthorized");
    let challenge = refused.header("www-authenticate").unwrap_or_default();
    assert!(challenge.contains("error=\"invalid_token\""), "{refused:?}");
}

#[tokio::test]
async fn unknown_paths_and_plain_requests_to_the_socket_are_problems() {
    let server = Server::start().await;
    let missing = http_get(&server, "/no/such/path", None).await;
    assert_problem(&missing, 404, "not_found");
    let session = http_get(
        &server,
        "/v1/sessions/nope/result",
        Some(&crate::harness::token("alice")),
    )
    .await;
    let body = assert_problem(&session, 404, "session_not_found");
    assert!(body.get("error").is_none(), "{body}");
    let plain = http_get(
        &server,
        "/v1/ws?user=x",
        Some(&crate::harness::token("alice")),
    )
    .await;
    assert_eq!(
        plain.json()["code"],
        "websocket_upgrade_required",
        "{plain:?}"
    );
}

#[tokio::test]
async fn a_method_a_path_does_not_take_is_a_problem() {
    let server = Server::start().await;
    let url = format!("http://{}/healthz", server.addr());
    let response = reqwest::Client::new()
        .post(url)
        .send()
        .await
        .expect("POST /healthz");
    assert_eq!(response.status().as_u16(), 405);
    let content_type = response.headers().get("content-type").cloned();
    assert_eq!(
        content_type.as_ref().and_then(|v| v.to_str().ok()),
        Some("application/problem+json")
    );
    let body: serde_json::Value =
        serde_json::from_slice(&response.bytes().await.expect("body")).expect("JSON");
    assert_eq!(body["code"], "method_not_allowed", "{body}");
}
