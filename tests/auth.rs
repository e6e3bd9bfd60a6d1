//! Authentication: JWT in header or query, 401 before the upgrade, `viva token`, dev mode.

use crate::harness::{
    Auth, Client, SECRET, Server, expired_token, field_str, field_u64, foreign_token, http_get,
    now_secs, random_uuid, refused_status, result_path, resume, run_viva, start_exam, token,
    verify_token, viva_token_command,
};

#[tokio::test]
async fn healthz_answers_200_without_a_token() {
    let server = Server::start().await;
    let response = http_get(&server, "/healthz", None).await;
    assert_eq!(response.status, 200, "{response:?}");
}

#[tokio::test]
async fn missing_token_is_401() {
    let server = Server::start().await;
    assert_eq!(refused_status(&server, Auth::Nothing).await, 401);
}

#[tokio::test]
async fn expired_token_is_401() {
    let server = Server::start().await;
    let header = Auth::Bearer(expired_token("alice"));
    assert_eq!(refused_status(&server, header).await, 401);
    let query = Auth::Query(expired_token("alice"));
    assert_eq!(refused_status(&server, query).await, 401);
}

#[tokio::test]
async fn bad_signature_is_401() {
    let server = Server::start().await;
    let header = Auth::Bearer(foreign_token("alice"));
    assert_eq!(refused_status(&server, header).await, 401);
    let query = Auth::Query(foreign_token("alice"));
    assert_eq!(refused_status(&server, query).await, 401);
}

#[tokio::test]
async fn malformed_token_is_401() {
    let server = Server::start().await;
    let garbage = Auth::Bearer("not.a.jwt".to_owned());
    assert_eq!(refused_status(&server, garbage).await, 401);
}

#[tokio::test]
async fn header_and_query_tokens_both_work() {
    let server = Server::start().await;
    let mut laptop = Client::connect(&server, Auth::Bearer(token("alice"))).await;
    let started = start_exam(&mut laptop, "laptop").await;
    let mut phone = Client::connect(&server, Auth::Query(token("alice"))).await;
    let resumed = resume(&mut phone, "phone", None).await;
    assert_eq!(
        resumed.resumed["session_id"],
        started.session_id.as_str(),
        "both connections authenticate as the same user"
    );
    assert_eq!(
        resumed.question["question_id"],
        started.question["question_id"]
    );
}

#[tokio::test]
async fn viva_token_command_mints_a_working_token() {
    let jwt = viva_token_command("carol", "1h").await;
    assert_eq!(
        jwt.split('.').count(),
        3,
        "one compact JWT on stdout: {jwt:?}"
    );
    let claims = verify_token(&jwt);
    assert_eq!(field_str(&claims, "sub"), "carol", "{claims}");
    let expected_exp = now_secs() + 3600;
    let exp = field_u64(&claims, "exp");
    assert!(
        exp.abs_diff(expected_exp) <= 120,
        "--ttl 1h: exp {exp} vs {expected_exp}"
    );
    let server = Server::start().await;
    let mut carol = Client::connect(&server, Auth::Bearer(jwt)).await;
    let started = start_exam(&mut carol, "cli").await;
    assert!(!started.session_id.is_empty());
}

#[tokio::test]
async fn dev_mode_accepts_user_query_param() {
    let server = Server::start_dev().await;
    let mut dave = Client::connect(&server, Auth::DevUser("dave".to_owned())).await;
    let started = start_exam(&mut dave, "dev").await;
    let mut again = Client::connect(&server, Auth::DevUser("dave".to_owned())).await;
    let resumed = resume(&mut again, "dev2", None).await;
    assert_eq!(resumed.resumed["session_id"], started.session_id.as_str());
}

#[tokio::test]
async fn user_query_param_needs_dev_mode() {
    let server = Server::start().await;
    let dev_user = Auth::DevUser("dave".to_owned());
    assert_eq!(refused_status(&server, dev_user).await, 401);
}

#[tokio::test]
async fn result_endpoint_requires_a_valid_token() {
    let server = Server::start().await;
    let path = result_path(&random_uuid());
    assert_eq!(http_get(&server, &path, None).await.status, 401);
    let expired = expired_token("alice");
    assert_eq!(http_get(&server, &path, Some(&expired)).await.status, 401);
    let foreign = foreign_token("alice");
    assert_eq!(http_get(&server, &path, Some(&foreign)).await.status, 401);
}

#[tokio::test]
async fn the_longest_user_id_starts_and_resumes_an_exam() {
    let server = Server::start().await;
    // 128 characters of 4 bytes: the most a token's subject may hold (512 bytes).
    let user = "\u{1F6E9}".repeat(128);
    let mut laptop = Client::connect(&server, Auth::bearer(&user)).await;
    let started = start_exam(&mut laptop, "laptop").await;
    let mut phone = Client::connect(&server, Auth::bearer(&user)).await;
    let resumed = resume(&mut phone, "phone", None).await;
    assert_eq!(resumed.resumed["session_id"], started.session_id.as_str());
}

#[tokio::test]
async fn a_short_secret_stops_the_server_with_the_way_to_make_one() {
    let dir = tempfile::tempdir().expect("data dir");
    let data_dir = dir.path().display().to_string();
    let args = ["serve", "--listen", "127.0.0.1:0", "--data-dir", &data_dir];
    let output = run_viva(&args, "short-secret!").await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "served with a 13-byte secret: {stderr}"
    );
    assert!(stderr.contains("at least 32"), "{stderr}");
    assert!(stderr.contains("viva token --new-secret"), "{stderr}");
}

#[tokio::test]
async fn viva_token_new_secret_prints_a_secret_the_server_takes() {
    let mut secrets = Vec::new();
    for _ in 0..2 {
        let output = run_viva(&["token", "--new-secret"], SECRET).await;
        assert!(output.status.success(), "{output:?}");
        let secret = String::from_utf8(output.stdout)
            .expect("utf-8")
            .trim()
            .to_owned();
        assert!(secret.len() >= 64, "{secret:?}");
        assert!(secret.chars().all(|c| c.is_ascii_hexdigit()), "{secret:?}");
        secrets.push(secret);
    }
    assert_ne!(secrets[0], secrets[1], "each secret is new");
    let output = run_viva(&["token", "--user", "erin"], &secrets[0]).await;
    assert!(
        output.status.success(),
        "the new secret signs tokens: {output:?}"
    );
}
