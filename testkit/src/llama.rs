//! A real model on loopback: llama.cpp's `llama-server` with Qwen2.5-Coder-0.5B-Instruct,
//! both built or fetched by `scripts/llm-setup` into `$VIVA_LLM_DIR` (default
//! `/var/tmp/viva-llm`). Where they are missing, [`LlamaServer::start`] says so loudly and
//! gives `None`, except under CI (`CI=true`), where `.ci/run` must have set them up.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The model file `scripts/llm-setup` installs.
pub const MODEL: &str = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf";

/// A running `llama-server`, killed on drop.
pub struct LlamaServer {
    child: Child,
    /// Its loopback port.
    pub port: u16,
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        // ignore: the server may have exited already.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl LlamaServer {
    /// Starts the server on a free loopback port with `threads` threads and waits until the
    /// model is loaded; `None` (after saying why) where it is not installed.
    pub fn start(threads: u32) -> Option<LlamaServer> {
        let (server, model) = installed()?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(server)
            .arg("-m")
            .arg(model)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["-t", &threads.to_string(), "-c", "8192", "-np", "2"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start llama-server");
        let llama = LlamaServer { child, port };
        let deadline = Instant::now() + Duration::from_secs(120);
        while !healthy(port) {
            assert!(
                Instant::now() < deadline,
                "llama-server not healthy in 120 s"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
        Some(llama)
    }

    /// Its OpenAI-compatible API base.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

/// The server and model, or `None` (after saying why) where they are not installed.
fn installed() -> Option<(PathBuf, PathBuf)> {
    let dir = std::env::var_os("VIVA_LLM_DIR")
        .map_or_else(|| PathBuf::from("/var/tmp/viva-llm"), PathBuf::from);
    let (server, model) = (dir.join("bin/llama-server"), dir.join(MODEL));
    if server.is_file() && model.is_file() {
        return Some((server, model));
    }
    let message = format!(
        "SKIPPED: no llama-server or {MODEL} in {}: run scripts/llm-setup",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
    eprintln!("\n*** {message} ***\n");
    None
}

/// `GET /health` answers 200 once the model is loaded.
fn healthy(port: u16) -> bool {
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let mut response = String::new();
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_to_string(&mut response).is_ok()
        && response.starts_with("HTTP/1.1 200")
}
