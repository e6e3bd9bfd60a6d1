//! An identity provider's signing keys (a JWK Set), for RS256/ES256 tokens: read from a file
//! or fetched from a URL (or the `jwks_uri` of an OpenID provider's discovery document),
//! cached, and refreshed when a token names a `kid` the cache lacks — at most once per
//! [`MIN_REFRESH_INTERVAL`], so a flood of made-up `kid`s cannot hammer the provider.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Header, Validation};
use reqwest::Url;

use super::errors::{AuthError, Claims, LEEWAY_SECONDS};

/// The fewest seconds between two refreshes of the key set.
pub const MIN_REFRESH_INTERVAL: Duration = Duration::from_secs(30);
/// The longest a fetch (discovery or keys) may take.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest key set or discovery document read, in bytes.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Where the keys come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// A JWK Set file.
    File(PathBuf),
    /// A JWK Set URL.
    Url(Url),
    /// An OpenID provider: its `jwks_uri` from `<issuer>/.well-known/openid-configuration`.
    Discovery(Url),
}

/// How tokens from the identity provider are checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuerSettings {
    /// The keys.
    pub keys: KeySource,
    /// The `iss` every token must carry.
    pub issuer: String,
    /// The `aud` every token must carry.
    pub audience: String,
    /// The algorithms taken (never HS*: those are the shared secret's).
    pub algorithms: Vec<Algorithm>,
}

/// Why the keys could not be had.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("reading {0}: {1}")]
    File(PathBuf, std::io::Error),
    #[error("fetching {0}: {1}")]
    Fetch(String, reqwest::Error),
    #[error("{0} is larger than {MAX_BODY_BYTES} bytes")]
    TooLarge(String),
    #[error("the discovery document's jwks_uri {0:?} is not a URL")]
    BadUrl(String),
    #[error("{0} is not a JWK Set or discovery document: {1}")]
    Parse(String, serde_json::Error),
}

/// Whether a refresh may run now, the last one having run at `last`.
pub fn may_refresh(last: Option<Instant>, now: Instant, every: Duration) -> bool {
    last.is_none_or(|last| now.saturating_duration_since(last) >= every)
}

/// The key of `set` that may verify a token with this `kid` and `alg`: the one with that
/// `kid` (or the only key, when the token names none), for signing, of `alg` if it says.
pub fn pick<'a>(set: &'a JwkSet, kid: Option<&str>, alg: Algorithm) -> Option<&'a Jwk> {
    let jwk = match kid {
        Some(kid) => set.find(kid)?,
        None if set.keys.len() == 1 => set.keys.first()?,
        None => return None,
    };
    let for_signing = matches!(
        jwk.common.public_key_use,
        None | Some(PublicKeyUse::Signature)
    );
    let same_alg = jwk
        .common
        .key_algorithm
        .is_none_or(|declared| Algorithm::try_from(declared).ok() == Some(alg));
    (for_signing && same_alg && family_fits(&jwk.algorithm, alg)).then_some(jwk)
}

/// Whether a key of this type can verify `alg`: RSA keys RS*/PS*, EC keys ES*; never a
/// symmetric key from a key set.
fn family_fits(key: &AlgorithmParameters, alg: Algorithm) -> bool {
    use Algorithm::*;
    match key {
        AlgorithmParameters::RSA(_) => matches!(alg, RS256 | RS384 | RS512 | PS256 | PS384 | PS512),
        AlgorithmParameters::EllipticCurve(_) => matches!(alg, ES256 | ES384),
        _ => false,
    }
}

/// The provider's keys, cached.
pub struct Issuer {
    settings: IssuerSettings,
    keys: RwLock<Arc<JwkSet>>,
    /// When the last refresh ran; held over a refresh, so concurrent ones wait for it.
    refreshed: tokio::sync::Mutex<Option<Instant>>,
    client: reqwest::Client,
}

impl Issuer {
    /// Loads the keys: a file must be readable; a URL that fails is logged and retried
    /// when a token needs a key.
    pub async fn start(settings: IssuerSettings) -> anyhow::Result<Issuer> {
        let client = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .redirect(reqwest::redirect::Policy::limited(3))
            .build()?;
        let issuer = Issuer {
            settings,
            keys: RwLock::new(Arc::new(JwkSet { keys: Vec::new() })),
            refreshed: tokio::sync::Mutex::new(None),
            client,
        };
        match (issuer.load().await, &issuer.settings.keys) {
            (Ok(set), _) => {
                tracing::info!(keys = set.keys.len(), issuer = %issuer.settings.issuer, "identity provider keys loaded");
                // Not counted as a refresh: a key rotated in just after start is found
                // by the first token that names it.
                issuer.replace(set);
            }
            (Err(err), KeySource::File(_)) => return Err(err.into()),
            (Err(err), _) => {
                tracing::warn!(%err, "identity provider keys not loaded; retried on use")
            }
        }
        Ok(issuer)
    }

    /// The user id of a token signed with one of the provider's keys.
    pub async fn verify(&self, token: &str, header: &Header) -> Result<String, AuthError> {
        let alg = header.alg;
        if !self.settings.algorithms.contains(&alg) {
            return Err(AuthError::Algorithm(alg));
        }
        let key = self.key_for(header.kid.as_deref(), alg).await?;
        let mut validation = Validation::new(alg);
        validation.leeway = LEEWAY_SECONDS;
        validation.set_audience(&[&self.settings.audience]);
        validation.set_issuer(&[&self.settings.issuer]);
        validation.set_required_spec_claims(&["exp", "sub", "aud", "iss"]);
        let data = jsonwebtoken::decode::<Claims>(token, &key, &validation)?;
        Ok(data.claims.sub)
    }

    /// The key for `kid`, refreshing the set once (if due) when it is not there.
    async fn key_for(&self, kid: Option<&str>, alg: Algorithm) -> Result<DecodingKey, AuthError> {
        if let Some(key) = self.find(kid, alg)? {
            return Ok(key);
        }
        self.refresh_if_due().await;
        self.find(kid, alg)?
            .ok_or_else(|| AuthError::UnknownKey(kid.map(str::to_owned)))
    }

    fn find(&self, kid: Option<&str>, alg: Algorithm) -> Result<Option<DecodingKey>, AuthError> {
        let set = match self.keys.read() {
            Ok(keys) => keys.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        pick(&set, kid, alg)
            .map(|jwk| DecodingKey::from_jwk(jwk).map_err(AuthError::from))
            .transpose()
    }

    async fn refresh_if_due(&self) {
        let mut refreshed = self.refreshed.lock().await;
        if !may_refresh(*refreshed, Instant::now(), MIN_REFRESH_INTERVAL) {
            return;
        }
        *refreshed = Some(Instant::now());
        match self.load().await {
            Ok(set) => {
                tracing::info!(keys = set.keys.len(), "identity provider keys refreshed");
                self.replace(set);
            }
            Err(err) => tracing::warn!(%err, "identity provider keys not refreshed"),
        }
    }

    fn replace(&self, set: JwkSet) {
        let set = Arc::new(set);
        match self.keys.write() {
            Ok(mut keys) => *keys = set,
            Err(poisoned) => *poisoned.into_inner() = set,
        }
    }

    async fn load(&self) -> Result<JwkSet, KeyError> {
        let text = match &self.settings.keys {
            KeySource::File(path) => {
                let bytes = tokio::fs::read(path).await;
                bytes.map_err(|err| KeyError::File(path.clone(), err))?
            }
            KeySource::Url(url) => fetch(&self.client, url).await?,
            KeySource::Discovery(issuer) => {
                let jwks_uri = discover_jwks_uri(&self.client, issuer).await?;
                fetch(&self.client, &jwks_uri).await?
            }
        };
        let source = format!("{:?}", self.settings.keys);
        serde_json::from_slice(&text).map_err(|err| KeyError::Parse(source, err))
    }
}

/// The `jwks_uri` of the OpenID provider at `issuer`.
pub async fn discover_jwks_uri(client: &reqwest::Client, issuer: &Url) -> Result<Url, KeyError> {
    #[derive(serde::Deserialize)]
    struct Discovery {
        jwks_uri: String,
    }
    let url = discovery_url(issuer);
    let body = fetch(client, &url).await?;
    let discovery: Discovery =
        serde_json::from_slice(&body).map_err(|err| KeyError::Parse(url.to_string(), err))?;
    Url::parse(&discovery.jwks_uri).map_err(|_| KeyError::BadUrl(discovery.jwks_uri))
}

/// `<issuer>/.well-known/openid-configuration` (OpenID Connect Discovery §4).
pub fn discovery_url(issuer: &Url) -> Url {
    let mut url = issuer.clone();
    let path = format!(
        "{}/.well-known/openid-configuration",
        issuer.path().trim_end_matches('/')
    );
    url.set_path(&path);
    url
}

/// The body at `url`, refused past [`MAX_BODY_BYTES`].
async fn fetch(client: &reqwest::Client, url: &Url) -> Result<Vec<u8>, KeyError> {
    let failed = |err| KeyError::Fetch(url.to_string(), err);
    let mut response = client
        .get(url.clone())
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(failed)?;
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(failed)? {
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(KeyError::TooLarge(url.to_string()));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
#[path = "jwks_tests.rs"]
mod tests;
