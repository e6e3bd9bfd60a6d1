//! A tiny HTTP/1.1 GET client over a plain TCP stream (`Connection: close`).

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::TIMEOUT;
use super::server::Server;

/// Status and body of one HTTP response.
#[derive(Debug)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body (de-chunked), as text.
    pub body: String,
    /// Every header, names in lower case, in order.
    pub headers: Vec<(String, String)>,
}

impl HttpResponse {
    /// The body parsed as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|err| panic!("body is not JSON ({err}): {:?}", self.body))
    }

    /// The first header named `name` (lower case), if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        let found = self.headers.iter().find(|(seen, _)| seen == name);
        found.map(|(_, value)| value.as_str())
    }
}

/// `/v1/sessions/{id}/result`.
pub fn result_path(session_id: &str) -> String {
    format!("/v1/sessions/{session_id}/result")
}

/// `GET path`, with `Authorization: Bearer TOKEN` when a token is given.
pub async fn http_get(server: &Server, path: &str, bearer: Option<&str>) -> HttpResponse {
    let authorization = bearer.map(|token| format!("Bearer {token}"));
    let headers: Vec<(&str, &str)> = authorization
        .iter()
        .map(|value| ("Authorization", value.as_str()))
        .collect();
    http_get_with(server, path, &headers).await
}

/// `GET path` with these headers; `Host` is the server's address unless one is given.
pub async fn http_get_with(server: &Server, path: &str, headers: &[(&str, &str)]) -> HttpResponse {
    let addr = server.addr();
    let mut request = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        request.push_str(&format!("Host: {addr}\r\n"));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await.expect("connect for HTTP");
        stream
            .write_all(request.as_bytes())
            .await
            .expect("send HTTP request");
        let mut raw = Vec::new();
        stream
            .read_to_end(&mut raw)
            .await
            .expect("read HTTP response");
        raw
    };
    let raw = tokio::time::timeout(TIMEOUT, exchange)
        .await
        .unwrap_or_else(|_| panic!("GET {path}: no response within {TIMEOUT:?}"));
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> HttpResponse {
    let end = raw
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of headers in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]);
    let body = &raw[end + 4..];
    let mut lines = head.lines();
    let status_line = lines.next().expect("a status line");
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let mut response = HttpResponse {
        status,
        content_type: None,
        body: String::new(),
        headers,
    };
    let chunked = response
        .header("transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    response.content_type = response.header("content-type").map(str::to_owned);
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_vec()
    };
    response.body = String::from_utf8(body).expect("a UTF-8 body");
    response
}

fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = rest
            .windows(2)
            .position(|window| window == b"\r\n")
            .expect("a chunk size line");
        let size_line = String::from_utf8_lossy(&rest[..line_end]);
        let size_hex = size_line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_hex, 16).expect("a hex chunk size");
        if size == 0 {
            return body;
        }
        let chunk = &rest[line_end + 2..];
        body.extend_from_slice(&chunk[..size]);
        rest = chunk[size..]
            .strip_prefix(b"\r\n")
            .expect("CRLF after a chunk");
    }
}

/// The value of the series named exactly `series` (name and labels) in `/metrics` text, or 0
/// when absent.
pub fn metric(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |number| {
            number
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{series}: {number}"))
        })
}
