//! Tests of the identity provider's keys: RSA and EC keys generated per run (by `openssl`),
//! key sets in files, tokens signed as a provider would.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use axum::http::HeaderMap;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;

use super::*;
use crate::auth::settings::AuthSettings;
use crate::auth::{AuthError, Authenticator};

const SECRET: &[u8] = b"unit-test-secret-of-thirty-two-bytes";
const ISSUER: &str = "https://idp.example";
const AUDIENCE: &str = "viva";

/// A private key made by `openssl` in `dir`: RSA as PKCS#1 DER, EC (P-256) as PKCS#8 DER,
/// the forms jsonwebtoken's `from_rsa_der` and `from_ec_der` read.
fn generate(dir: &Path, alg: Algorithm, name: &str) -> EncodingKey {
    let pem = dir.join(format!("{name}.pem"));
    let der = dir.join(format!("{name}.der"));
    let run = |args: &[&str]| {
        let output = Command::new("openssl").args(args).output();
        assert!(output.is_ok_and(|o| o.status.success()), "openssl {args:?}");
    };
    let (pem, der) = (pem.to_str().unwrap(), der.to_str().unwrap());
    match alg {
        Algorithm::RS256 => {
            run(&[
                "genpkey",
                "-algorithm",
                "RSA",
                "-pkeyopt",
                "rsa_keygen_bits:2048",
                "-out",
                pem,
            ]);
            run(&[
                "rsa",
                "-in",
                pem,
                "-traditional",
                "-outform",
                "DER",
                "-out",
                der,
            ]);
            EncodingKey::from_rsa_der(&std::fs::read(der).unwrap())
        }
        _ => {
            let curve = "ec_paramgen_curve:P-256";
            run(&[
                "genpkey",
                "-algorithm",
                "EC",
                "-pkeyopt",
                curve,
                "-out",
                pem,
            ]);
            run(&[
                "pkcs8", "-topk8", "-nocrypt", "-in", pem, "-outform", "DER", "-out", der,
            ]);
            EncodingKey::from_ec_der(&std::fs::read(der).unwrap())
        }
    }
}

/// The public JWK of `key`, with this `kid`.
fn public(key: &EncodingKey, alg: Algorithm, kid: &str) -> Jwk {
    let mut jwk = Jwk::from_encoding_key(key, alg).unwrap();
    jwk.common.key_id = Some(kid.to_owned());
    jwk
}

fn write_set(path: &Path, keys: &[&Jwk]) {
    let set = JwkSet {
        keys: keys.iter().map(|jwk| (*jwk).clone()).collect(),
    };
    std::fs::write(path, serde_json::to_vec(&set).unwrap()).unwrap();
}

fn sign(key: &EncodingKey, alg: Algorithm, kid: Option<&str>, claims: serde_json::Value) -> String {
    let mut header = Header::new(alg);
    header.kid = kid.map(str::to_owned);
    jsonwebtoken::encode(&header, &claims, key).unwrap()
}

fn claims(aud: &str, iss: &str, exp: u64) -> serde_json::Value {
    json!({"sub": "alice", "aud": aud, "iss": iss, "exp": exp, "iat": exp - 600})
}

/// Ten minutes from now, in seconds since the epoch.
fn later() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 600
}

async fn authenticator(keys: &Path) -> Authenticator {
    let settings = AuthSettings {
        secret: SECRET.to_vec(),
        issuer: Some(IssuerSettings {
            keys: KeySource::File(keys.to_owned()),
            issuer: ISSUER.to_owned(),
            audience: AUDIENCE.to_owned(),
            algorithms: vec![Algorithm::RS256, Algorithm::ES256],
        }),
        sign_in: None,
    };
    Authenticator::start(&settings, false).await.unwrap()
}

async fn user_of(auth: &Authenticator, token: &str) -> Result<String, AuthError> {
    let query = HashMap::from([("access_token".to_owned(), token.to_owned())]);
    auth.authenticate(&HeaderMap::new(), &query).await
}

#[tokio::test]
async fn provider_tokens_are_checked_for_signature_audience_issuer_and_expiry() {
    let dir = tempfile::tempdir().unwrap();
    let rsa = generate(dir.path(), Algorithm::RS256, "rsa");
    let ec = generate(dir.path(), Algorithm::ES256, "ec");
    let other = generate(dir.path(), Algorithm::RS256, "other");
    let keys = dir.path().join("jwks.json");
    let (rsa_jwk, ec_jwk) = (
        public(&rsa, Algorithm::RS256, "r1"),
        public(&ec, Algorithm::ES256, "e1"),
    );
    write_set(&keys, &[&rsa_jwk, &ec_jwk]);
    let auth = authenticator(&keys).await;
    let exp = later();
    let good = claims(AUDIENCE, ISSUER, exp);
    // (token, accepted, what a refusal is)
    let cases: Vec<(&str, String, Option<&str>)> = vec![
        (
            "good RS256",
            sign(&rsa, Algorithm::RS256, Some("r1"), good.clone()),
            None,
        ),
        (
            "good ES256",
            sign(&ec, Algorithm::ES256, Some("e1"), good.clone()),
            None,
        ),
        (
            "wrong aud",
            sign(
                &rsa,
                Algorithm::RS256,
                Some("r1"),
                claims("other", ISSUER, exp),
            ),
            Some("the token is for another audience"),
        ),
        (
            "wrong iss",
            sign(
                &rsa,
                Algorithm::RS256,
                Some("r1"),
                claims(AUDIENCE, "https://evil.example", exp),
            ),
            Some("the token is from another issuer"),
        ),
        (
            "expired",
            sign(
                &ec,
                Algorithm::ES256,
                Some("e1"),
                claims(AUDIENCE, ISSUER, 1_000),
            ),
            Some("the token has expired"),
        ),
        (
            "signed by another key under a known kid",
            sign(&other, Algorithm::RS256, Some("r1"), good.clone()),
            Some("the token could not be verified"),
        ),
        (
            "an RSA kid for an ES256 token",
            sign(&ec, Algorithm::ES256, Some("r1"), good.clone()),
            Some("the token's signing key is unknown"),
        ),
    ];
    for (name, token, refusal) in cases {
        let result = user_of(&auth, &token).await;
        match refusal {
            None => assert_eq!(result.unwrap(), "alice", "{name}"),
            Some(description) => {
                let err = result.expect_err(name);
                assert_eq!(err.description(), Some(description), "{name}: {err}");
            }
        }
    }
}

#[tokio::test]
async fn an_unknown_kid_refreshes_the_keys_once_per_interval() {
    let dir = tempfile::tempdir().unwrap();
    let first = generate(dir.path(), Algorithm::ES256, "first");
    let second = generate(dir.path(), Algorithm::ES256, "second");
    let third = generate(dir.path(), Algorithm::ES256, "third");
    let keys = dir.path().join("jwks.json");
    let jwks = [
        public(&first, Algorithm::ES256, "k1"),
        public(&second, Algorithm::ES256, "k2"),
        public(&third, Algorithm::ES256, "k3"),
    ];
    write_set(&keys, &[&jwks[0]]);
    let auth = authenticator(&keys).await;
    let good = claims(AUDIENCE, ISSUER, later());
    let token = |key, kid| sign(key, Algorithm::ES256, Some(kid), good.clone());
    assert_eq!(user_of(&auth, &token(&first, "k1")).await.unwrap(), "alice");
    // The provider rotates in k2: the first token naming it refreshes the set.
    write_set(&keys, &[&jwks[0], &jwks[1]]);
    assert_eq!(
        user_of(&auth, &token(&second, "k2")).await.unwrap(),
        "alice"
    );
    // k3 arrives within the interval: no second refresh, so k3 is unknown for now.
    write_set(&keys, &[&jwks[0], &jwks[1], &jwks[2]]);
    let err = user_of(&auth, &token(&third, "k3")).await.unwrap_err();
    assert!(
        matches!(err, AuthError::UnknownKey(Some(ref kid)) if kid == "k3"),
        "{err}"
    );
    assert_eq!(
        user_of(&auth, &token(&second, "k2")).await.unwrap(),
        "alice"
    );
}

#[tokio::test]
async fn an_hs256_token_signed_with_the_public_key_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let rsa = generate(dir.path(), Algorithm::RS256, "rsa");
    let jwk = public(&rsa, Algorithm::RS256, "r1");
    let keys = dir.path().join("jwks.json");
    write_set(&keys, &[&jwk]);
    let auth = authenticator(&keys).await;
    let good = claims(AUDIENCE, ISSUER, later());
    // What an attacker could sign with: the public key as published, and its modulus.
    let published = serde_json::to_vec(&jwk).unwrap();
    let jsonwebtoken::jwk::AlgorithmParameters::RSA(rsa_params) = &jwk.algorithm else {
        panic!("not an RSA key");
    };
    for secret in [published, rsa_params.n.clone().into_bytes()] {
        let forged = sign(
            &EncodingKey::from_secret(&secret),
            Algorithm::HS256,
            Some("r1"),
            good.clone(),
        );
        assert!(
            user_of(&auth, &forged).await.is_err(),
            "alg confusion accepted"
        );
    }
    // An algorithm not configured is refused before any key is looked at.
    let ps = sign(&rsa, Algorithm::PS256, Some("r1"), good);
    assert!(matches!(
        user_of(&auth, &ps).await,
        Err(AuthError::Algorithm(Algorithm::PS256))
    ));
}

#[test]
fn refreshes_are_spaced() {
    let now = std::time::Instant::now();
    let every = MIN_REFRESH_INTERVAL;
    let check = |last: Option<std::time::Instant>, expected: bool| {
        assert_eq!(may_refresh(last, now, every), expected, "{last:?}");
    };
    check(None, true);
    check(Some(now), false);
    check(now.checked_sub(every / 2), false);
    check(now.checked_sub(every), true);
}

#[test]
fn the_discovery_url_follows_the_issuer_path() {
    let check = |issuer: &str, expected: &str| {
        let url = discovery_url(&Url::parse(issuer).unwrap());
        assert_eq!(url.as_str(), expected);
    };
    check(
        "https://idp.example",
        "https://idp.example/.well-known/openid-configuration",
    );
    check(
        "https://idp.example/",
        "https://idp.example/.well-known/openid-configuration",
    );
    check(
        "https://idp.example/realms/x",
        "https://idp.example/realms/x/.well-known/openid-configuration",
    );
}

/// Serves one HTTP response with a body of `size` bytes on a loopback port; returns its URL.
async fn serve_once(size: usize) -> Url {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = Url::parse(&format!("http://{}/jwks", listener.local_addr().unwrap())).unwrap();
    tokio::spawn(async move {
        let (mut stream, _) = listener.accept().await.unwrap();
        let mut request = [0u8; 1024];
        let _ = stream.read(&mut request).await;
        let head =
            format!("HTTP/1.1 200 OK\r\ncontent-length: {size}\r\nconnection: close\r\n\r\n");
        let _ = stream.write_all(head.as_bytes()).await;
        let _ = stream.write_all(&vec![b' '; size]).await;
    });
    url
}

#[tokio::test]
async fn a_key_set_larger_than_the_bound_is_refused() {
    let client = reqwest::Client::new();
    let small = fetch(&client, &serve_once(1024).await).await.unwrap();
    assert_eq!(small.len(), 1024);
    let large = fetch(&client, &serve_once(MAX_BODY_BYTES + 1).await).await;
    assert!(matches!(large, Err(KeyError::TooLarge(_))), "{large:?}");
}
