//! A small HTTP/1.1 GET over one TCP connection (`Connection: close`), enough to read a
//! session's result and the server's `/metrics` without pulling an HTTP client crate in.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest response read.
const MAX_RESPONSE: u64 = 16 * 1024 * 1024;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// The URL is not `ws://host:port…` or `http://host:port…`.
    #[error("not a plain ws:// or http:// URL: {0}")]
    Url(String),
    /// Connecting, writing or reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// No complete response in time.
    #[error("timed out")]
    Timeout,
    /// The response had no status line or header end.
    #[error("malformed response")]
    Malformed,
}

/// Status and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// HTTP status code.
    pub status: u16,
    /// The body as text (chunked bodies are not expected: the server sends lengths).
    pub body: String,
}

/// `host:port` of a `ws://` or `http://` base URL.
pub fn authority(base: &str) -> Result<&str, HttpError> {
    let rest = base
        .strip_prefix("ws://")
        .or_else(|| base.strip_prefix("http://"))
        .ok_or_else(|| HttpError::Url(base.to_owned()))?;
    Ok(rest.split('/').next().unwrap_or(rest))
}

/// `GET path` on the server of `base`.
pub async fn get(base: &str, path: &str) -> Result<Response, HttpError> {
    let host = authority(base)?;
    let exchange = async {
        let mut stream = TcpStream::connect(host).await?;
        let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await?;
        let mut raw = Vec::new();
        stream.take(MAX_RESPONSE).read_to_end(&mut raw).await?;
        Ok::<_, HttpError>(raw)
    };
    let raw = tokio::time::timeout(REQUEST_TIMEOUT, exchange)
        .await
        .map_err(|_| HttpError::Timeout)??;
    parse(&raw)
}

fn parse(raw: &[u8]) -> Result<Response, HttpError> {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").ok_or(HttpError::Malformed)?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or(HttpError::Malformed)?;
    Ok(Response {
        status,
        body: body.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authority_comes_from_ws_or_http_urls() {
        assert_eq!(
            authority("ws://127.0.0.1:8080").ok(),
            Some("127.0.0.1:8080")
        );
        assert_eq!(authority("http://[::1]:9/x").ok(), Some("[::1]:9"));
        assert!(authority("wss://example/").is_err());
    }

    #[test]
    fn responses_parse_status_and_body() {
        let raw = b"HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\n\r\n{}";
        let response = parse(raw).ok();
        assert_eq!(response.as_ref().map(|r| r.status), Some(404));
        assert_eq!(response.map(|r| r.body), Some("{}".to_owned()));
        assert!(parse(b"garbage").is_err());
    }
}
