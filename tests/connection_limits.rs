//! Connection limits: one user cannot take every connection (429), the server's own limit
//! still holds (503), and a closed connection gives its slots back.

use std::time::Duration;

use crate::harness::{Auth, Client, Options, Refusal, Server, connect_or_refusal};

/// The server's default `max_connections_per_user`.
const PER_USER_DEFAULT: usize = 16;
/// Long enough for the server to notice a closed socket on the busiest machine.
const RELEASED_WITHIN: Duration = Duration::from_secs(30);

async fn refusal(server: &Server, user: &str) -> Refusal {
    match connect_or_refusal(server, Auth::bearer(user)).await {
        Err(refusal) => refusal,
        Ok(_) => panic!("{user}: the server upgraded a connection beyond a limit"),
    }
}

/// Connects as `user` as soon as a slot is free again; panics after [`RELEASED_WITHIN`].
async fn connect_once_released(server: &Server, user: &str) -> Client {
    let deadline = tokio::time::Instant::now() + RELEASED_WITHIN;
    loop {
        match connect_or_refusal(server, Auth::bearer(user)).await {
            Ok(client) => return client,
            Err(refusal) if tokio::time::Instant::now() < deadline => {
                assert_eq!(refusal.status, 429, "{refusal:?}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(refusal) => {
                panic!("{user}: slot not released within {RELEASED_WITHIN:?}: {refusal:?}")
            }
        }
    }
}

fn server_args(args: &[&str]) -> Options {
    Options {
        blueprints: None,
        args: args.iter().map(|arg| (*arg).to_owned()).collect(),
        ..Default::default()
    }
}

#[tokio::test]
async fn one_user_cannot_take_every_connection() {
    let server = Server::start().await;
    let mut held = Vec::new();
    for _ in 0..PER_USER_DEFAULT {
        held.push(Client::connect(&server, Auth::bearer("hog")).await);
    }
    let refused = refusal(&server, "hog").await;
    assert_eq!(refused.status, 429, "{refused:?}");
    assert_eq!(refused.code(), "too_many_connections");
    assert_eq!(refused.header("retry-after"), Some("10"), "{refused:?}");
    let mut neighbour = Client::connect(&server, Auth::bearer("neighbour")).await;
    neighbour.assert_alive().await;
    for client in &mut held {
        client.assert_alive().await;
    }
    drop(held.pop());
    connect_once_released(&server, "hog")
        .await
        .assert_alive()
        .await;
}

#[tokio::test]
async fn the_per_user_limit_comes_from_the_flag() {
    let server =
        Server::start_with_options(server_args(&["--max-connections-per-user", "1"])).await;
    let first = Client::connect(&server, Auth::bearer("solo")).await;
    assert_eq!(refusal(&server, "solo").await.status, 429);
    drop(first);
    connect_once_released(&server, "solo")
        .await
        .assert_alive()
        .await;
}

#[tokio::test]
async fn the_per_user_limit_comes_from_the_config_file() {
    let dir = tempfile::tempdir().expect("config dir");
    let config = dir.path().join("viva.toml");
    std::fs::write(&config, "[server]\nmax_connections_per_user = 2\n").expect("write config");
    let config = config.display().to_string();
    let server = Server::start_with_options(server_args(&["--config", &config])).await;
    let _one = Client::connect(&server, Auth::bearer("pair")).await;
    let _two = Client::connect(&server, Auth::bearer("pair")).await;
    assert_eq!(
        refusal(&server, "pair").await.code(),
        "too_many_connections"
    );
}

#[tokio::test]
async fn the_server_limit_still_holds() {
    let server = Server::start_with_options(server_args(&["--max-connections", "2"])).await;
    let _a = Client::connect(&server, Auth::bearer("a")).await;
    let _b = Client::connect(&server, Auth::bearer("b")).await;
    let refused = refusal(&server, "c").await;
    assert_eq!(refused.status, 503, "{refused:?}");
    assert_eq!(refused.code(), "overloaded");
    assert_eq!(refused.header("retry-after"), Some("5"), "{refused:?}");
    let content_type = refused.header("content-type");
    assert_eq!(
        content_type,
        Some("application/problem+json"),
        "{refused:?}"
    );
}
