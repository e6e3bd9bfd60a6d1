//! `[auth]` in the config file, validated into [`AuthSettings`]: the HS256 secret, and an
//! identity provider either as a key set (`jwks`, `issuer`, `audience`, `algorithms`) or as
//! an OpenID provider the web client signs in with (`oidc_issuer`, `oidc_client_id`).

use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{Context, bail};
use jsonwebtoken::Algorithm;
use reqwest::Url;
use serde::{Deserialize, Serialize};

use super::jwks::{IssuerSettings, KeySource};

/// The algorithms taken from an identity provider unless `algorithms` says otherwise.
pub const DEFAULT_ALGORITHMS: [Algorithm; 2] = [Algorithm::RS256, Algorithm::ES256];
/// The scopes the web client asks an OpenID provider for.
pub const SIGN_IN_SCOPES: &str = "openid profile";

/// `[auth]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthSection {
    /// The HS256 secret (else `VIVA_AUTH_SECRET`, else a generated one).
    pub secret: Option<String>,
    /// A JWK Set: a file path or an `https://` URL.
    pub jwks: Option<String>,
    /// The `iss` of the key set's tokens (required with `jwks`).
    pub issuer: Option<String>,
    /// The `aud` of the key set's tokens (required with `jwks`).
    pub audience: Option<String>,
    /// The algorithms taken, such as `["RS256", "ES256"]` (the default).
    pub algorithms: Option<Vec<String>>,
    /// An OpenID provider the web client signs in with; its keys come from its discovery
    /// document.
    pub oidc_issuer: Option<String>,
    /// The web client's `client_id` at that provider: the tokens' audience.
    pub oidc_client_id: Option<String>,
}

/// What the web client needs to sign in with an OpenID provider (`GET /v1/auth/config`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignIn {
    /// The provider's issuer URL.
    pub issuer: String,
    /// The web client's `client_id`.
    pub client_id: String,
    /// The scopes to ask for.
    pub scopes: String,
}

/// `[auth]`, validated.
#[derive(Debug, Clone)]
pub struct AuthSettings {
    /// The HS256 secret.
    pub secret: Vec<u8>,
    /// The identity provider whose tokens are taken, if any.
    pub issuer: Option<IssuerSettings>,
    /// The OpenID provider the web client signs in with, if any.
    pub sign_in: Option<SignIn>,
}

impl AuthSection {
    /// Validates the section; `secret` is the resolved HS256 secret.
    pub fn settings(&self, secret: Vec<u8>) -> anyhow::Result<AuthSettings> {
        let algorithms = algorithms(self.algorithms.as_deref())?;
        let (issuer, sign_in) = match (&self.jwks, &self.oidc_issuer) {
            (Some(_), Some(_)) => bail!("[auth] takes jwks or oidc_issuer, not both"),
            (Some(jwks), None) => (Some(self.key_set(jwks, algorithms)?), None),
            (None, Some(oidc)) => {
                let (issuer, sign_in) = self.openid(oidc, algorithms)?;
                (Some(issuer), Some(sign_in))
            }
            (None, None) => {
                if self.issuer.is_some() || self.audience.is_some() {
                    bail!("[auth] issuer and audience need jwks");
                }
                (None, None)
            }
        };
        Ok(AuthSettings {
            secret,
            issuer,
            sign_in,
        })
    }

    fn key_set(&self, jwks: &str, algorithms: Vec<Algorithm>) -> anyhow::Result<IssuerSettings> {
        let required = |value: &Option<String>, key: &str| {
            value
                .clone()
                .filter(|v| !v.is_empty())
                .with_context(|| format!("[auth] jwks needs {key}"))
        };
        let keys = if jwks.starts_with("https://") || jwks.starts_with("http://") {
            KeySource::Url(fetchable_url(jwks, "jwks")?)
        } else {
            KeySource::File(PathBuf::from(jwks))
        };
        Ok(IssuerSettings {
            keys,
            issuer: required(&self.issuer, "issuer")?,
            audience: required(&self.audience, "audience")?,
            algorithms,
        })
    }

    fn openid(
        &self,
        oidc: &str,
        algorithms: Vec<Algorithm>,
    ) -> anyhow::Result<(IssuerSettings, SignIn)> {
        let client_id = self
            .oidc_client_id
            .clone()
            .filter(|id| !id.is_empty())
            .context("[auth] oidc_issuer needs oidc_client_id")?;
        if self.issuer.is_some() || self.audience.is_some() {
            bail!("[auth] oidc_issuer sets the issuer and audience itself; remove them");
        }
        let url = fetchable_url(oidc, "oidc_issuer")?;
        let issuer = IssuerSettings {
            keys: KeySource::Discovery(url),
            issuer: oidc.to_owned(),
            audience: client_id.clone(),
            algorithms,
        };
        let sign_in = SignIn {
            issuer: oidc.to_owned(),
            client_id,
            scopes: SIGN_IN_SCOPES.to_owned(),
        };
        Ok((issuer, sign_in))
    }
}

/// The algorithms named, default [`DEFAULT_ALGORITHMS`]; never an HS* one (those are the
/// shared secret's, and a provider's public key must never be taken as an HMAC secret).
fn algorithms(names: Option<&[String]>) -> anyhow::Result<Vec<Algorithm>> {
    let Some(names) = names else {
        return Ok(DEFAULT_ALGORITHMS.to_vec());
    };
    if names.is_empty() {
        bail!("[auth] algorithms is empty");
    }
    names
        .iter()
        .map(|name| match Algorithm::from_str(name) {
            Ok(Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512) | Err(_) => bail!(
                "[auth] algorithms: {name:?} is not taken (RS256, RS384, RS512, PS256, PS384, \
                 PS512, ES256 or ES384)"
            ),
            Ok(Algorithm::EdDSA) => bail!("[auth] algorithms: EdDSA is not supported"),
            Ok(alg) => Ok(alg),
        })
        .collect()
}

/// A URL keys may be fetched from: `https`, or `http` to a loopback host only.
fn fetchable_url(text: &str, key: &str) -> anyhow::Result<Url> {
    let url = Url::parse(text).with_context(|| format!("[auth] {key} = {text:?}"))?;
    let host = url.host_str().unwrap_or_default();
    let ip = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host == "localhost"
        || ip
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    match url.scheme() {
        "https" => Ok(url),
        "http" if loopback => Ok(url),
        _ => bail!("[auth] {key} = {text:?} must be https (http only to a loopback host)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(toml_text: &str) -> AuthSection {
        toml::from_str(toml_text).unwrap()
    }

    #[test]
    fn sections_are_validated() {
        let check = |text: &str, expected: Result<Option<&str>, &str>| {
            let result = section(text).settings(vec![7; 32]);
            match (result, expected) {
                (Ok(settings), Ok(audience)) => assert_eq!(
                    settings.issuer.map(|i| i.audience),
                    audience.map(str::to_owned),
                    "{text}"
                ),
                (Err(err), Err(part)) => assert!(err.to_string().contains(part), "{text}: {err}"),
                (result, _) => panic!("{text}: {:?}", result.map(|s| s.issuer)),
            }
        };
        check("", Ok(None));
        check(
            "jwks = \"keys.json\"\nissuer = \"i\"\naudience = \"a\"",
            Ok(Some("a")),
        );
        check("jwks = \"keys.json\"\nissuer = \"i\"", Err("audience"));
        check("jwks = \"keys.json\"\naudience = \"a\"", Err("issuer"));
        check(
            "jwks = \"http://idp.example/k\"\nissuer = \"i\"\naudience = \"a\"",
            Err("https"),
        );
        check(
            "jwks = \"http://127.0.0.1:9/k\"\nissuer = \"i\"\naudience = \"a\"",
            Ok(Some("a")),
        );
        check("issuer = \"i\"", Err("need jwks"));
        check(
            "oidc_issuer = \"https://idp.example\"\noidc_client_id = \"viva\"",
            Ok(Some("viva")),
        );
        check(
            "oidc_issuer = \"https://idp.example\"",
            Err("oidc_client_id"),
        );
        check(
            "jwks = \"k\"\noidc_issuer = \"https://idp.example\"\noidc_client_id = \"v\"",
            Err("not both"),
        );
        check(
            "jwks = \"k\"\nissuer = \"i\"\naudience = \"a\"\nalgorithms = [\"HS256\"]",
            Err("not taken"),
        );
    }

    #[test]
    fn algorithms_default_to_rs256_and_es256() {
        assert_eq!(algorithms(None).unwrap(), DEFAULT_ALGORITHMS);
        let named = ["ES384".to_owned(), "PS256".to_owned()];
        assert_eq!(
            algorithms(Some(&named)).unwrap(),
            [Algorithm::ES384, Algorithm::PS256]
        );
        assert!(algorithms(Some(&[])).is_err());
    }
}
