//! The HTTP edge against a real server: a page of another origin is refused before the
//! upgrade and on the HTTP API, development mode answers only a loopback `Host` (DNS
//! rebinding), a configured origin is let through, and the headers every response carries.

use crate::harness::{
    Auth, Client, Options, Server, connect_with_headers, http_get, http_get_with, metric,
    start_exam, token,
};

const EVIL: &str = "http://evil.example";

async fn refused_upgrade(server: &Server, auth: Auth, headers: &[(&str, &str)]) -> String {
    match connect_with_headers(server, auth, headers).await {
        Ok(_) => panic!("upgraded a connection with {headers:?}"),
        Err(refusal) => {
            assert_eq!(refusal.status, 403, "{refusal:?}");
            refusal.code()
        }
    }
}

#[tokio::test]
async fn a_page_of_another_origin_is_refused_before_the_upgrade_and_on_the_api() {
    let server = Server::start_dev().await;
    let anyone = || Auth::DevUser("anyone".to_owned());
    let code = refused_upgrade(&server, anyone(), &[("Origin", EVIL)]).await;
    assert_eq!(code, "origin_not_allowed");
    let other_port = format!("http://127.0.0.1:{}", server.addr().port() + 1);
    let code = refused_upgrade(&server, anyone(), &[("Origin", &other_port)]).await;
    assert_eq!(code, "origin_not_allowed", "another port is another origin");
    let sessions = http_get_with(&server, "/v1/sessions?user=anyone", &[("Origin", EVIL)]).await;
    assert_eq!(sessions.status, 403, "{sessions:?}");
    assert_eq!(sessions.json()["code"], "origin_not_allowed");

    let own = format!("http://{}", server.addr());
    let mut page = connect_with_headers(&server, anyone(), &[("Origin", &own)])
        .await
        .expect("the server's own page connects");
    start_exam(&mut page, "browser").await;
    let mut cli = Client::connect(&server, anyone()).await;
    cli.assert_alive().await;
    let listed = http_get_with(&server, "/v1/sessions?user=anyone", &[("Origin", &own)]).await;
    assert_eq!(listed.json()["sessions"].as_array().map(Vec::len), Some(1));

    let metrics = http_get(&server, "/metrics", None).await.body;
    let refused = r#"viva_http_refused_total{reason="origin"}"#;
    assert_eq!(metric(&metrics, refused), 3.0, "{metrics}");
}

#[tokio::test]
async fn development_mode_answers_only_a_loopback_host() {
    let server = Server::start_dev().await;
    let port = server.addr().port();
    let rebound = format!("evil.example:{port}");
    let sessions = "/v1/sessions?user=anyone";
    let response = http_get_with(&server, sessions, &[("Host", &rebound)]).await;
    assert_eq!(response.status, 403, "{response:?}");
    assert_eq!(response.json()["code"], "host_not_allowed");
    // A rebound page is its own origin: the Origin matches the Host, the Host gives it away.
    let origin = format!("http://{rebound}");
    let headers = [("Host", rebound.as_str()), ("Origin", origin.as_str())];
    let code = refused_upgrade(&server, Auth::DevUser("anyone".to_owned()), &headers).await;
    assert_eq!(code, "host_not_allowed");
    let page = http_get_with(&server, "/", &[("Host", &rebound)]).await;
    assert_eq!(page.status, 403, "not even the page");

    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let response = http_get_with(&server, sessions, &[("Host", &host)]).await;
        assert_eq!(response.status, 200, "{host}: {response:?}");
    }
    let metrics = http_get(&server, "/metrics", None).await.body;
    let refused = r#"viva_http_refused_total{reason="host"}"#;
    assert_eq!(metric(&metrics, refused), 3.0, "{metrics}");
}

#[tokio::test]
async fn outside_development_mode_any_host_is_served_and_a_listed_origin_let_through() {
    let server = Server::start_with_options(Options {
        args: vec![
            "--allowed-origins".into(),
            "https://exams.example,http://127.0.0.1:9".into(),
        ],
        ..Default::default()
    })
    .await;
    let ada = token("ada");
    let bearer = format!("Bearer {ada}");
    let behind_a_proxy = [("Host", "viva.example"), ("Authorization", &bearer)];
    let response = http_get_with(&server, "/v1/sessions", &behind_a_proxy).await;
    assert_eq!(response.status, 200, "{response:?}");

    for listed in ["https://exams.example", "http://127.0.0.1:9"] {
        let origin = [("Origin", listed)];
        let connected = connect_with_headers(&server, Auth::bearer("ada"), &origin).await;
        assert!(connected.is_ok(), "{listed}");
    }
    let code = refused_upgrade(&server, Auth::bearer("ada"), &[("Origin", EVIL)]).await;
    assert_eq!(
        code, "origin_not_allowed",
        "a token does not make any page welcome"
    );
}

#[tokio::test]
async fn every_response_says_nosniff_and_the_page_keeps_to_its_own_origin() {
    let server = Server::start_dev().await;
    let page = http_get(&server, "/", None).await;
    let policy = page.header("content-security-policy").unwrap_or_default();
    assert!(policy.contains("connect-src 'self';"), "{policy}");
    assert!(
        !policy.contains("ws:") && !policy.contains("wss:"),
        "{policy}"
    );
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));

    let refused = http_get_with(&server, "/v1/catalog", &[("Origin", EVIL)]).await;
    assert_eq!(refused.status, 403);
    let mut responses = vec![("/", page), ("refused", refused)];
    for path in [
        "/app.js",
        "/v1/catalog",
        "/metrics",
        "/healthz",
        "/v1/sessions",
        "/none",
    ] {
        responses.push((path, http_get(&server, path, None).await));
    }
    let statuses: Vec<u16> = responses.iter().map(|(_, r)| r.status).collect();
    assert_eq!(statuses, [200, 403, 200, 200, 200, 200, 401, 404]);
    for (path, response) in &responses {
        let sniff = response.header("x-content-type-options");
        assert_eq!(sniff, Some("nosniff"), "{path}: {:?}", response.headers);
    }
}
