//! Authentication: bearer JWTs whose `sub` is the user id (`exp` required): HS256 with the
//! server's secret, and RS256/ES256 from an identity provider's key set (`jwks`) when one is
//! configured; plus the development-mode `?user=` bypass.
//!
//! Layout:
//! - `errors`: the claims read and why a token is refused (shared by the others).
//! - `secret`: the HS256 signing secret, configured or generated.
//! - `settings`: `[auth]` in the config file, validated into `AuthSettings`.
//! - `jwks`: the identity provider's keys: loaded, cached, refreshed on an unknown `kid`.

pub mod errors;
pub mod jwks;
pub mod secret;
pub mod settings;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::HeaderMap;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};

pub use errors::{AuthError, Claims, LEEWAY_SECONDS};
pub use secret::{new_secret, resolve_secret};

use jwks::Issuer;
use settings::{AuthSettings, SignIn};

/// Longest user id accepted.
pub const MAX_USER_ID_CHARS: usize = 128;
/// Checks tokens: HS256 against the secret, others against the identity provider's keys.
#[derive(Clone)]
pub struct Authenticator {
    key: DecodingKey,
    validation: Validation,
    dev_mode: bool,
    issuer: Option<Arc<Issuer>>,
    sign_in: Option<SignIn>,
}

impl Authenticator {
    /// HS256 with `secret` only.
    pub fn new(secret: &[u8], dev_mode: bool) -> Authenticator {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = LEEWAY_SECONDS;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Authenticator {
            key: DecodingKey::from_secret(secret),
            validation,
            dev_mode,
            issuer: None,
            sign_in: None,
        }
    }

    /// HS256, and the identity provider's keys when configured (loaded now: a key file that
    /// cannot be read stops the start; a URL that cannot be fetched is retried on use).
    pub async fn start(settings: &AuthSettings, dev_mode: bool) -> anyhow::Result<Authenticator> {
        let mut auth = Authenticator::new(&settings.secret, dev_mode);
        if let Some(issuer) = &settings.issuer {
            auth.issuer = Some(Arc::new(Issuer::start(issuer.clone()).await?));
        }
        auth.sign_in = settings.sign_in.clone();
        Ok(auth)
    }

    /// The OpenID provider the web client signs in with, if any.
    pub fn sign_in(&self) -> Option<&SignIn> {
        self.sign_in.as_ref()
    }

    /// The user of a request: a bearer header, an `access_token` query parameter, or (in
    /// development mode only) a `user` query parameter.
    pub async fn authenticate(
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
            (Some(token), _) => self.verify(token).await,
            (None, Some(user)) if self.dev_mode => checked_user_id(user.clone()),
            (None, _) => Err(AuthError::Missing),
        }
    }

    /// HS256 tokens against the secret; any other algorithm only against the identity
    /// provider's keys (so an HS256 token signed with a public key never meets that key).
    async fn verify(&self, token: &str) -> Result<String, AuthError> {
        let header = jsonwebtoken::decode_header(token)?;
        let sub = match (header.alg, &self.issuer) {
            (Algorithm::HS256, _) => {
                jsonwebtoken::decode::<Claims>(token, &self.key, &self.validation)?
                    .claims
                    .sub
            }
            (_, Some(issuer)) => issuer.verify(token, &header).await?,
            (alg, None) => return Err(AuthError::Algorithm(alg)),
        };
        checked_user_id(sub)
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

    #[tokio::test]
    async fn tokens_are_checked() {
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
        assert_eq!(
            auth.authenticate(&headers, &query(&[])).await.unwrap(),
            "alice"
        );
        assert_eq!(
            auth.authenticate(&HeaderMap::new(), &query(&[("access_token", &good)]))
                .await
                .unwrap(),
            "alice"
        );
        assert!(
            auth.authenticate(&HeaderMap::new(), &query(&[("access_token", &forged)]))
                .await
                .is_err()
        );
        assert!(matches!(
            auth.authenticate(&HeaderMap::new(), &query(&[])).await,
            Err(AuthError::Missing)
        ));
        assert!(
            auth.authenticate(&HeaderMap::new(), &query(&[("user", "alice")]))
                .await
                .is_err(),
            "no dev mode"
        );
    }

    #[tokio::test]
    async fn expired_tokens_are_refused() {
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
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn dev_mode_accepts_a_user_parameter() {
        let auth = Authenticator::new(SECRET, true);
        assert_eq!(
            auth.authenticate(&HeaderMap::new(), &query(&[("user", "bob")]))
                .await
                .unwrap(),
            "bob"
        );
        assert!(
            auth.authenticate(&HeaderMap::new(), &query(&[("user", "")]))
                .await
                .is_err()
        );
    }
}
