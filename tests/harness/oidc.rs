//! A real OpenID provider on loopback: panva's `oidc-provider` (OpenID Certified) under node,
//! from `tests/oidc/` (installed by `scripts/oidc-setup`); and the authorization code flow
//! with PKCE (S256) driven over HTTP, as a browser would, to get a real `id_token`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Stdio;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use super::{Options, Server, TIMEOUT};

/// The web client's `client_id` at the provider.
pub const CLIENT_ID: &str = "viva-web";
/// Another application registered at the provider: its tokens are for another audience.
pub const OTHER_CLIENT: &str = "other-app";

/// The provider process; killed when dropped.
pub struct OidcProvider {
    _child: Child,
    /// Its issuer URL, `http://127.0.0.1:PORT`.
    pub issuer: String,
}

/// Where `scripts/oidc-setup` installed oidc-provider (`$VIVA_OIDC_DIR`, else
/// `/var/tmp/viva-oidc`).
pub fn modules_dir() -> PathBuf {
    std::env::var_os("VIVA_OIDC_DIR")
        .map_or_else(|| PathBuf::from("/var/tmp/viva-oidc"), PathBuf::from)
}

/// A port free now on loopback (the provider's issuer must be known before it starts, so
/// that viva's config can name it).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("local addr").port()
}

/// `[auth]` naming the provider at `issuer` for the web client.
fn auth_config(issuer: &str) -> String {
    format!("[auth]\noidc_issuer = \"{issuer}\"\noidc_client_id = \"{CLIENT_ID}\"\n")
}

/// A viva server naming a provider on a port chosen now, and that provider, started after
/// it with the server's page (`http://ADDR/`) as the redirect URI. The folder holds the
/// server's config: keep it while the server runs.
pub async fn server_and_provider() -> (Server, OidcProvider, String, tempfile::TempDir) {
    let port = free_port();
    let issuer = format!("http://127.0.0.1:{port}");
    let dir = tempfile::tempdir().expect("config dir");
    let config = dir.path().join("viva.toml");
    std::fs::write(&config, auth_config(&issuer)).expect("write config");
    let server = Server::start_with_options(Options {
        args: vec!["--config".into(), config.display().to_string()],
        ..Default::default()
    })
    .await;
    let redirect_uri = format!("http://{}/", server.addr());
    let provider = OidcProvider::start(port, &redirect_uri).await;
    assert_eq!(provider.issuer, issuer);
    (server, provider, redirect_uri, dir)
}

impl OidcProvider {
    /// Starts the provider on `port`, with `redirect_uri` registered for both clients; waits
    /// until it serves.
    pub async fn start(port: u16, redirect_uri: &str) -> OidcProvider {
        let modules = modules_dir();
        assert!(
            modules.join("node_modules/oidc-provider").is_dir(),
            "oidc-provider is not installed in {}: run scripts/oidc-setup",
            modules.display()
        );
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oidc/server.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .args([&port.to_string(), redirect_uri, CLIENT_ID])
            .env("VIVA_OIDC_DIR", &modules)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("run node (scripts/setup --test installs it)");
        let stdout = child.stdout.take().expect("provider stdout");
        let mut lines = BufReader::new(stdout).lines();
        let ready = async {
            while let Some(line) = lines.next_line().await.expect("read provider stdout") {
                if let Some(issuer) = line.strip_prefix("oidc-provider listening on ") {
                    return issuer.to_owned();
                }
            }
            panic!("the OpenID provider exited before serving");
        };
        let issuer = tokio::time::timeout(TIMEOUT, ready)
            .await
            .expect("the OpenID provider did not start in time");
        // Keep reading: the provider logs to stdout, and a closed pipe would stop it (EPIPE).
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        OidcProvider {
            _child: child,
            issuer,
        }
    }

    /// An `id_token` for `user` and `client_id`: authorization request with PKCE, the dev
    /// login form posted, the code exchanged at the token endpoint.
    pub async fn id_token(&self, client_id: &str, redirect_uri: &str, user: &str) -> String {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("http client");
        let mut cookies = Cookies::default();
        let verifier = URL_SAFE_NO_PAD.encode(random_bytes());
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        let state = URL_SAFE_NO_PAD.encode(random_bytes());
        let authorize = reqwest::Url::parse_with_params(
            &format!("{}/auth", self.issuer),
            [
                ("client_id", client_id),
                ("response_type", "code"),
                ("redirect_uri", redirect_uri),
                ("scope", "openid profile"),
                ("state", &state),
                ("nonce", "nonce-1"),
                ("code_challenge", &challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .expect("authorization URL");
        let interaction = cookies.follow(http.get(authorize)).await;
        let login = format!("{}{interaction}", self.issuer);
        let form = [("prompt", "login"), ("login", user), ("password", "any")];
        let resume = cookies.follow(post_form(&http, &login, &form)).await;
        let back = cookies.follow(http.get(resume)).await;
        let back = reqwest::Url::parse(&back).expect("redirect back to the client");
        let param = |name: &str| {
            back.query_pairs()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
                .unwrap_or_else(|| panic!("no {name} in {back}"))
        };
        assert_eq!(param("state"), state, "state comes back unchanged");
        let exchange = [
            ("grant_type", "authorization_code"),
            ("code", &param("code")),
            ("redirect_uri", redirect_uri),
            ("client_id", client_id),
            ("code_verifier", &verifier),
        ];
        let token_endpoint = format!("{}/token", self.issuer);
        let response = post_form(&http, &token_endpoint, &exchange)
            .send()
            .await
            .expect("token request");
        let body = response.bytes().await.expect("token response");
        let tokens: serde_json::Value = serde_json::from_slice(&body).expect("token JSON");
        tokens["id_token"]
            .as_str()
            .unwrap_or_else(|| panic!("no id_token: {tokens}"))
            .to_owned()
    }
}

/// A `POST` of `application/x-www-form-urlencoded` fields.
fn post_form(
    http: &reqwest::Client,
    url: &str,
    fields: &[(&str, &str)],
) -> reqwest::RequestBuilder {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .finish();
    http.post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
}

fn random_bytes() -> [u8; 32] {
    let mut bytes = [0; 32];
    getrandom::fill(&mut bytes).expect("randomness");
    bytes
}

/// The provider's cookies, kept across its redirects.
#[derive(Default)]
struct Cookies(BTreeMap<String, String>);

impl Cookies {
    /// Sends `request` with the cookies, keeps those set, and returns the redirect's
    /// `Location`.
    async fn follow(&mut self, request: reqwest::RequestBuilder) -> String {
        let header: Vec<String> = self.0.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let response = request
            .header("cookie", header.join("; "))
            .send()
            .await
            .expect("request to the provider");
        for set in response.headers().get_all("set-cookie") {
            let set = set.to_str().unwrap_or_default();
            let pair = set.split(';').next().unwrap_or_default();
            if let Some((name, value)) = pair.split_once('=') {
                self.0.insert(name.to_owned(), value.to_owned());
            }
        }
        let status = response.status();
        let location = response.headers().get("location").cloned();
        match location {
            Some(location) if status.is_redirection() => {
                location.to_str().expect("location").to_owned()
            }
            _ => panic!(
                "expected a redirect, got {status}: {:?}",
                response.text().await
            ),
        }
    }
}
