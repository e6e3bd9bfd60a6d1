//! Authentication: HS256 JWTs (`sub` is the user id, `exp` required), the development-mode
//! `?user=` bypass, and the server's signing secret.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::HeaderMap;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

/// Longest user id accepted.
pub const MAX_USER_ID_CHARS: usize = 128;
/// Clock skew tolerated on `exp`, in seconds.
const LEEWAY_SECONDS: u64 = 5;
/// The shortest signing secret accepted, in bytes: HS256's own output size. A shorter one
/// can be guessed offline from any one token.
pub const MIN_SECRET_BYTES: usize = 32;
/// Random bytes in a generated secret (written as hex, so twice as many characters).
const NEW_SECRET_BYTES: usize = 32;

/// The claims Viva reads and writes.
#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: String,
    /// Expiry, seconds since the epoch.
    pub exp: u64,
}

/// Why a request was not authenticated. Every variant answers 401.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("no token")]
    Missing,
    #[error("invalid token: {0}")]
    Invalid(#[from] jsonwebtoken::errors::Error),
    #[error("invalid user id")]
    BadUserId,
}

/// Checks tokens against one secret.
#[derive(Clone)]
pub struct Authenticator {
    key: DecodingKey,
    validation: Validation,
    dev_mode: bool,
}

impl Authenticator {
    pub fn new(secret: &[u8], dev_mode: bool) -> Authenticator {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = LEEWAY_SECONDS;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Authenticator {
            key: DecodingKey::from_secret(secret),
            validation,
            dev_mode,
        }
    }

    /// The user of a request: a bearer header, an `access_token` query parameter, or (in
    /// development mode only) a `user` query parameter.
    pub fn authenticate(
        &self,
        headers: &HeaderMap,
        query: &HashMap<String, String>,
    ) -> Result<String, AuthError> {
        let bearer = headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "));
        let token = bearer.or(query.get("access_token").map(String::as_str));
        match (token, query.get("user")) {
            (Some(token), _) => self.verify(token),
            (None, Some(user)) if self.dev_mode => checked_user_id(user.clone()),
            (None, _) => Err(AuthError::Missing),
        }
    }

    fn verify(&self, token: &str) -> Result<String, AuthError> {
        let data = jsonwebtoken::decode::<Claims>(token, &self.key, &self.validation)?;
        checked_user_id(data.claims.sub)
    }
}

fn checked_user_id(user: String) -> Result<String, AuthError> {
    let length = user.chars().count();
    if length == 0 || length > MAX_USER_ID_CHARS || user.chars().any(char::is_control) {
        return Err(AuthError::BadUserId);
    }
    Ok(user)
}

/// A signed token for `user` valid for `ttl`.
pub fn mint_token(
    secret: &[u8],
    user: &str,
    ttl: Duration,
) -> Result<String, jsonwebtoken::errors::Error> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let claims = Claims {
        sub: user.to_owned(),
        exp: now + ttl.as_secs(),
    };
    jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(secret),
    )
}

/// The signing secret: the configured one, else `<data_dir>/auth-secret`, created by
/// [`new_secret`] on first use so `viva token` and `viva serve` agree. Either must have at
/// least [`MIN_SECRET_BYTES`] bytes.
pub fn resolve_secret(configured: Option<String>, data_dir: &Path) -> anyhow::Result<Vec<u8>> {
    if let Some(secret) = configured.filter(|s| !s.is_empty()) {
        check_secret(&secret, "VIVA_AUTH_SECRET (or [auth] secret)")?;
        return Ok(secret.into_bytes());
    }
    let path = data_dir.join("auth-secret");
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let existing = existing.trim();
        check_secret(existing, &path.display().to_string())?;
        return Ok(existing.as_bytes().to_vec());
    }
    std::fs::create_dir_all(data_dir)?;
    let secret = new_secret()?;
    write_private(&path, &secret)?;
    tracing::warn!(path = %path.display(), "no VIVA_AUTH_SECRET set; generated a signing secret");
    Ok(secret.into_bytes())
}

/// A new signing secret: [`NEW_SECRET_BYTES`] bytes from the operating system's CSPRNG, hex.
pub fn new_secret() -> anyhow::Result<String> {
    let mut bytes = [0u8; NEW_SECRET_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|err| anyhow::anyhow!("no randomness from the operating system: {err}"))?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// Refuses a secret shorter than [`MIN_SECRET_BYTES`], saying where it came from and how to
/// make a good one.
fn check_secret(secret: &str, source: &str) -> anyhow::Result<()> {
    if secret.len() < MIN_SECRET_BYTES {
        anyhow::bail!(
            "the signing secret from {source} is {} bytes; at least {MIN_SECRET_BYTES} are \
             needed. Make one with `viva token --new-secret` (or `openssl rand -hex 32`)",
            secret.len()
        );
    }
    Ok(())
}

fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    #[cfg(unix)]
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    options.mode(0o600);
    options.open(path)?.write_all(contents.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"unit-test-secret-of-thirty-two-bytes";

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn tokens_are_checked() {
        let auth = Authenticator::new(SECRET, false);
        let good = mint_token(SECRET, "alice", Duration::from_secs(60)).unwrap();
        let forged = mint_token(
            b"another-secret-of-thirty-two-bytes!",
            "alice",
            Duration::from_secs(60),
        )
        .unwrap();
        let mut headers = HeaderMap::new();
        headers.insert("authorization", format!("Bearer {good}").parse().unwrap());
        assert_eq!(auth.authenticate(&headers, &query(&[])).unwrap(), "alice");
        assert_eq!(
            auth.authenticate(&HeaderMap::new(), &query(&[("access_token", &good)]))
                .unwrap(),
            "alice"
        );
        assert!(
            auth.authenticate(&HeaderMap::new(), &query(&[("access_token", &forged)]))
                .is_err()
        );
        assert!(matches!(
            auth.authenticate(&HeaderMap::new(), &query(&[])),
            Err(AuthError::Missing)
        ));
        assert!(
            auth.authenticate(&HeaderMap::new(), &query(&[("user", "alice")]))
                .is_err(),
            "no dev mode"
        );
    }

    #[test]
    fn expired_tokens_are_refused() {
        let auth = Authenticator::new(SECRET, false);
        let claims = Claims {
            sub: "alice".into(),
            exp: 1_000,
        };
        let token = jsonwebtoken::encode(
            &Header::default(),
            &claims,
            &EncodingKey::from_secret(SECRET),
        )
        .unwrap();
        assert!(
            auth.authenticate(&HeaderMap::new(), &query(&[("access_token", &token)]))
                .is_err()
        );
    }

    #[test]
    fn dev_mode_accepts_a_user_parameter() {
        let auth = Authenticator::new(SECRET, true);
        assert_eq!(
            auth.authenticate(&HeaderMap::new(), &query(&[("user", "bob")]))
                .unwrap(),
            "bob"
        );
        assert!(
            auth.authenticate(&HeaderMap::new(), &query(&[("user", "")]))
                .is_err()
        );
    }

    #[test]
    fn generated_secret_is_stable_and_long_enough() {
        let dir = tempfile::tempdir().unwrap();
        let first = resolve_secret(None, dir.path()).unwrap();
        assert!(first.len() >= MIN_SECRET_BYTES, "{}", first.len());
        assert_eq!(resolve_secret(None, dir.path()).unwrap(), first);
        let configured = "k".repeat(MIN_SECRET_BYTES);
        assert_eq!(
            resolve_secret(Some(configured.clone()), dir.path()).unwrap(),
            configured.into_bytes()
        );
    }

    #[test]
    fn short_secrets_are_refused_with_the_way_to_make_one() {
        let dir = tempfile::tempdir().unwrap();
        let short = "k".repeat(MIN_SECRET_BYTES - 1);
        let err = resolve_secret(Some(short.clone()), dir.path()).unwrap_err();
        assert!(err.to_string().contains("viva token --new-secret"), "{err}");
        std::fs::write(dir.path().join("auth-secret"), &short).unwrap();
        let err = resolve_secret(None, dir.path()).unwrap_err();
        assert!(err.to_string().contains("auth-secret"), "{err}");
    }

    #[test]
    fn new_secrets_are_hex_and_differ() {
        let first = new_secret().unwrap();
        assert_eq!(first.len(), 2 * NEW_SECRET_BYTES);
        assert!(first.chars().all(|c| c.is_ascii_hexdigit()), "{first}");
        assert_ne!(new_secret().unwrap(), first);
    }
}
