//! The HTTP edge's own checks, before any route: a browser's `Origin` must be this server's
//! own or a configured one, in development mode the `Host` must be a loopback name (against
//! DNS rebinding). The middleware that applies them, and marks every response
//! `X-Content-Type-Options: nosniff`, is `routes::guard`.

use std::net::IpAddr;

use axum::extract::Request;
use axum::http::header;
use viva_protocol::excerpt::excerpt;

/// An origin as a browser writes it (`https://exams.example:8443`): lower case, the
/// scheme's default port left out, so equal origins compare equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: Scheme,
    authority: Authority,
}

/// The schemes a page may be served over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scheme {
    Http,
    Https,
}

impl Scheme {
    fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

/// A host and, when written, a port: a `Host` header or an origin's authority.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Authority {
    /// Lower case; an IPv6 address keeps its brackets.
    host: String,
    port: Option<u16>,
}

impl Authority {
    /// `host`, `host:port`, `[v6]` or `[v6]:port`; nothing else (no user, path or query).
    fn parse(text: &str) -> Option<Authority> {
        let (host, port) = match text.strip_prefix('[') {
            Some(rest) => {
                let (address, after) = rest.split_once(']')?;
                address.parse::<std::net::Ipv6Addr>().ok()?;
                (&text[..address.len() + 2], after.strip_prefix(':'))
            }
            None => match text.rsplit_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (text, None),
            },
        };
        let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_');
        let bracketed = host.starts_with('[');
        if host.is_empty() || !(bracketed || host.chars().all(name_char)) {
            return None;
        }
        let port = match port {
            Some(port) => Some(port.parse::<u16>().ok()?),
            None => None,
        };
        Some(Authority {
            host: host.to_ascii_lowercase(),
            port,
        })
    }

    /// `localhost` or a loopback address, whatever the port: names no DNS answer can move.
    fn is_loopback(&self) -> bool {
        let address = self.host.trim_start_matches('[').trim_end_matches(']');
        self.host == "localhost" || address.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }

    /// The port, left out when it is `scheme`'s default.
    fn without_default_port(mut self, scheme: Scheme) -> Authority {
        self.port = self.port.filter(|port| *port != scheme.default_port());
        self
    }
}

impl Origin {
    /// `http://host[:port]` or `https://host[:port]`; `None` for anything else (`null`, a
    /// path, another scheme).
    pub fn parse(text: &str) -> Option<Origin> {
        let (scheme, authority) = text.split_once("://")?;
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "http" => Scheme::Http,
            "https" => Scheme::Https,
            _ => return None,
        };
        let authority = Authority::parse(authority)?.without_default_port(scheme);
        Some(Origin { scheme, authority })
    }

    /// Whether a page of this origin is served by the request's own `Host`: the same host
    /// and port (a `Host` without a port means the scheme's default).
    fn serves(&self, host: &Authority) -> bool {
        self.authority == host.clone().without_default_port(self.scheme)
    }
}

/// Why the edge refused a request (HTTP 403).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// An `Origin` that is neither the server's own nor configured.
    Origin,
    /// In development mode, a `Host` that is not a loopback name.
    Host,
}

impl Refusal {
    /// Every refusal's label in `viva_http_refused_total`.
    pub const REASONS: &'static [&'static str] = &["origin", "host"];

    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Origin => "origin",
            Refusal::Host => "host",
        }
    }
}

/// Which requests the edge lets through.
#[derive(Debug, Clone, Default)]
pub struct EdgePolicy {
    /// Origins allowed besides the server's own.
    pub allowed_origins: Vec<Origin>,
    /// Development mode: only a loopback `Host`.
    pub loopback_host_only: bool,
}

impl EdgePolicy {
    /// Checks a request's `Host` and `Origin` headers. No `Origin` (a client that is not a
    /// browser page) passes; a `Host` that is missing or unreadable is no loopback name.
    pub fn check(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), Refusal> {
        let host = host.and_then(Authority::parse);
        if self.loopback_host_only && !host.as_ref().is_some_and(Authority::is_loopback) {
            return Err(Refusal::Host);
        }
        let Some(origin) = origin else {
            return Ok(());
        };
        let origin = Origin::parse(origin).ok_or(Refusal::Origin)?;
        let own = host.is_some_and(|host| origin.serves(&host));
        if own || self.allowed_origins.contains(&origin) {
            Ok(())
        } else {
            Err(Refusal::Origin)
        }
    }
}

/// The policy's verdict on a request's headers (HTTP/2 carries the host in the URI).
pub fn verdict(policy: &EdgePolicy, request: &Request) -> Result<(), Refusal> {
    let headers = request.headers();
    let host = match headers.get(header::HOST) {
        Some(value) => value.to_str().ok(),
        None => request
            .uri()
            .authority()
            .map(|authority| authority.as_str()),
    };
    // An `Origin` that is not text is present all the same, and refused.
    let origin = headers
        .get(header::ORIGIN)
        .map(|value| value.to_str().unwrap_or(""));
    policy.check(host, origin).inspect_err(|refusal| {
        let (host, origin) = (host.map(excerpt), origin.map(excerpt));
        tracing::info!(?host, ?origin, ?refusal, "request refused at the edge");
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(policy: &EdgePolicy, host: Option<&str>, origin: Option<&str>, expected: &str) {
        let outcome = match policy.check(host, origin) {
            Ok(()) => "ok",
            Err(Refusal::Origin) => "origin",
            Err(Refusal::Host) => "host",
        };
        assert_eq!(outcome, expected, "host {host:?}, origin {origin:?}");
    }

    #[test]
    fn an_origin_must_be_the_servers_own_or_listed() {
        let listed = Origin::parse("https://exams.example").unwrap();
        let policy = EdgePolicy {
            allowed_origins: vec![listed],
            loopback_host_only: false,
        };
        let host = Some("viva.example:8080");
        check(&policy, host, None, "ok");
        check(&policy, host, Some("http://viva.example:8080"), "ok");
        check(&policy, host, Some("https://VIVA.example:8080"), "ok");
        check(&policy, host, Some("http://evil.example"), "origin");
        check(&policy, host, Some("http://viva.example:8081"), "origin");
        check(&policy, host, Some("http://viva.example"), "origin");
        check(&policy, host, Some("null"), "origin");
        check(&policy, host, Some(""), "origin");
        check(&policy, host, Some("file://viva.example:8080"), "origin");
        check(&policy, host, Some("https://exams.example"), "ok");
        check(&policy, host, Some("https://exams.example:443"), "ok");
        check(&policy, host, Some("http://exams.example"), "origin");
        check(&policy, None, Some("http://viva.example:8080"), "origin");
        check(&policy, Some("bad host"), Some("http://bad host"), "origin");
    }

    #[test]
    fn a_host_without_a_port_is_the_origins_default_port() {
        let policy = EdgePolicy::default();
        check(
            &policy,
            Some("viva.example"),
            Some("https://viva.example"),
            "ok",
        );
        check(
            &policy,
            Some("viva.example"),
            Some("http://viva.example"),
            "ok",
        );
        check(
            &policy,
            Some("viva.example:443"),
            Some("https://viva.example"),
            "ok",
        );
        check(
            &policy,
            Some("viva.example:443"),
            Some("http://viva.example"),
            "origin",
        );
        check(
            &policy,
            Some("viva.example"),
            Some("http://viva.example:81"),
            "origin",
        );
        check(&policy, Some("[::1]:8080"), Some("http://[::1]:8080"), "ok");
    }

    #[test]
    fn development_mode_takes_only_a_loopback_host() {
        let policy = EdgePolicy {
            allowed_origins: Vec::new(),
            loopback_host_only: true,
        };
        for host in [
            "127.0.0.1:8080",
            "127.0.0.2",
            "localhost:3000",
            "LOCALHOST",
            "[::1]:80",
        ] {
            check(&policy, Some(host), None, "ok");
        }
        for host in [
            "evil.example:8080",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "[::2]:80",
            "0.0.0.0:8080",
            "",
        ] {
            check(&policy, Some(host), None, "host");
        }
        check(&policy, None, None, "host");
        let rebound = Some("http://evil.example:8080");
        check(&policy, Some("evil.example:8080"), rebound, "host");
        check(&policy, Some("127.0.0.1:8080"), rebound, "origin");
        check(
            &policy,
            Some("127.0.0.1:8080"),
            Some("http://127.0.0.1:8080"),
            "ok",
        );
    }

    #[test]
    fn origins_parse_to_scheme_host_and_port_only() {
        let parse = |text: &str| Origin::parse(text).map(|o| (o.authority.host, o.authority.port));
        assert_eq!(
            parse("http://a.example:80"),
            Some(("a.example".into(), None))
        );
        assert_eq!(
            parse("HTTPS://A.example:8443"),
            Some(("a.example".into(), Some(8443)))
        );
        assert_eq!(
            parse("http://[::1]:8080"),
            Some(("[::1]".into(), Some(8080)))
        );
        for bad in [
            "a.example",
            "http://",
            "http://a.example/",
            "http://a.example/path",
            "http://user@a.example",
            "http://a.example:port",
            "http://a.example:99999",
            "http://[nonsense]:80",
            "ws://a.example",
        ] {
            assert_eq!(Origin::parse(bad), None, "{bad}");
        }
    }
}
