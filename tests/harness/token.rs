//! Tokens: minted here with jsonwebtoken (HS256, `{sub, exp}`) or by `viva token`.

use std::hash::{BuildHasher, RandomState};
use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::Serialize;
use serde_json::Value;

use super::TIMEOUT;
use super::server::viva_bin;

/// `VIVA_AUTH_SECRET` of every server the harness starts.
pub const SECRET: &str = "viva-itest-secret-5d0f3b9a7c21e846";

#[derive(Serialize)]
struct Claims<'a> {
    sub: &'a str,
    exp: u64,
}

/// Seconds since the Unix epoch.
pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

fn mint(user: &str, secret: &str, exp: u64) -> String {
    let claims = Claims { sub: user, exp };
    let key = EncodingKey::from_secret(secret.as_bytes());
    jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &key).expect("encode a JWT")
}

/// A valid token for `user`, good for an hour.
pub fn token(user: &str) -> String {
    mint(user, SECRET, now_secs() + 3600)
}

/// A token for `user` that expired an hour ago (far beyond any clock leeway).
pub fn expired_token(user: &str) -> String {
    mint(user, SECRET, now_secs() - 3600)
}

/// A well-formed, unexpired token signed with a secret the server does not know.
pub fn foreign_token(user: &str) -> String {
    mint(
        user,
        "some-other-secret-the-server-never-saw",
        now_secs() + 3600,
    )
}

/// Checks `token` against [`SECRET`] as HS256 and returns its claims.
pub fn verify_token(token: &str) -> Value {
    let header = jsonwebtoken::decode_header(token).expect("a JWT header");
    assert_eq!(
        header.alg,
        Algorithm::HS256,
        "viva token must sign with HS256"
    );
    let mut validation = Validation::new(Algorithm::HS256);
    validation.validate_aud = false;
    let key = DecodingKey::from_secret(SECRET.as_bytes());
    jsonwebtoken::decode::<Value>(token, &key, &validation)
        .unwrap_or_else(|err| panic!("token {token:?} does not verify: {err}"))
        .claims
}

/// Runs `viva token --user USER --ttl TTL` and returns its trimmed stdout.
pub async fn viva_token_command(user: &str, ttl: &str) -> String {
    let output = tokio::process::Command::new(viva_bin())
        .args(["token", "--user", user, "--ttl", ttl])
        .env("VIVA_AUTH_SECRET", SECRET)
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(TIMEOUT, output)
        .await
        .expect("viva token finishes in time")
        .expect("run viva token");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "viva token failed: {}\n{stderr}",
        output.status
    );
    String::from_utf8(output.stdout)
        .expect("utf-8 token")
        .trim()
        .to_owned()
}

/// A random RFC 4122 v4-shaped id that no server has ever issued.
pub fn random_uuid() -> String {
    let hi = RandomState::new().hash_one(SystemTime::now());
    let lo = RandomState::new().hash_one(hi);
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        hi >> 32,
        (hi >> 16) & 0xffff,
        hi & 0xfff,
        0x8000 | ((lo >> 48) & 0x3fff),
        lo & 0xffff_ffff_ffff
    )
}
