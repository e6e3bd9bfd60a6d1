//! The claims Viva reads from a token, and why a token is refused: shared by the HS256 check
//! (`auth`) and the identity provider's keys (`jwks`), importing neither.

use jsonwebtoken::Algorithm;
use jsonwebtoken::errors::ErrorKind;
use serde::{Deserialize, Serialize};

/// Clock skew tolerated on `exp`, in seconds.
pub const LEEWAY_SECONDS: u64 = 5;

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
    /// The token names an algorithm this server does not take.
    #[error("algorithm {0:?} not accepted")]
    Algorithm(Algorithm),
    /// No key of the identity provider has the token's `kid`, even after a refresh.
    #[error("unknown signing key {0:?}")]
    UnknownKey(Option<String>),
}

impl AuthError {
    /// What a client may be told (`WWW-Authenticate`'s `error_description`); `None` when no
    /// token came.
    pub fn description(&self) -> Option<&'static str> {
        Some(match self {
            AuthError::Missing => return None,
            AuthError::Invalid(err) => match err.kind() {
                ErrorKind::ExpiredSignature => "the token has expired",
                ErrorKind::InvalidAudience => "the token is for another audience",
                ErrorKind::InvalidIssuer => "the token is from another issuer",
                _ => "the token could not be verified",
            },
            AuthError::BadUserId => "the token's subject is not a valid user id",
            AuthError::Algorithm(_) => "the token's algorithm is not accepted",
            AuthError::UnknownKey(_) => "the token's signing key is unknown",
        })
    }
}
