//! A `viva serve --dev` child on loopback port 0 with a whisper model, optionally pinned to a
//! core with `taskset`, its data and logs in a temporary folder. It is ready once it prints
//! `viva listening on ADDR`; it logs JSON at `viva_speech=debug`, one line per decode, which
//! [`super::decode_log`] sums up when it stops.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

use super::BenchError;
use super::decode_log::DecodeLog;

/// How long a server may take to load its model and listen.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How often its stdout is read for the listening line.
const POLL: Duration = Duration::from_millis(50);
/// The log filter: every decode, with its kind, length, time and queue depth.
const LOG_FILTER: &str = "info,viva_speech=debug";

/// How to start a server.
#[derive(Debug, Clone)]
pub struct ServerSpec {
    /// The `viva` binary.
    pub viva: PathBuf,
    /// The whisper model.
    pub model: PathBuf,
    /// `--stt-workers`.
    pub workers: usize,
    /// `taskset -c CORE`, when set.
    pub pin_core: Option<usize>,
    /// More arguments for `viva serve`.
    pub extra: Vec<String>,
}

/// A running server; killed when dropped.
#[derive(Debug)]
pub struct Server {
    child: Child,
    /// `ws://ADDR`.
    pub url: String,
    /// Its process id.
    pub pid: u32,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Server {
    /// Starts a server and waits until it listens.
    pub async fn start(spec: &ServerSpec) -> Result<Server, BenchError> {
        let dir = tempfile::tempdir().map_err(BenchError::io("a server data folder"))?;
        let (out, log) = (dir.path().join("stdout"), dir.path().join("stderr"));
        let child = command(spec, dir.path(), &out, &log)?
            .spawn()
            .map_err(BenchError::io(format!("starting {}", spec.viva.display())))?;
        let pid = child.id().unwrap_or_default();
        let address = wait_listening(&out, &log).await?;
        Ok(Server {
            child,
            url: format!("ws://{address}"),
            pid,
            log,
            _dir: dir,
        })
    }

    /// Kills the server and sums up its decode log, copied to `keep` if given.
    pub async fn stop(mut self, keep: Option<PathBuf>) -> Result<DecodeLog, BenchError> {
        // ignore: it may have exited already; the wait below reaps it either way.
        let _ = self.child.start_kill();
        // ignore: its exit status says nothing once killed.
        let _ = self.child.wait().await;
        let text = std::fs::read_to_string(&self.log)
            .map_err(BenchError::io(format!("reading {}", self.log.display())))?;
        if let Some(keep) = keep {
            std::fs::write(&keep, &text)
                .map_err(BenchError::io(format!("writing {}", keep.display())))?;
        }
        Ok(DecodeLog::parse(&text))
    }
}

fn command(spec: &ServerSpec, dir: &Path, out: &Path, log: &Path) -> Result<Command, BenchError> {
    let file = |path: &Path| {
        std::fs::File::create(path).map_err(BenchError::io(format!("creating {}", path.display())))
    };
    let mut command = match spec.pin_core {
        Some(core) => {
            let mut taskset = Command::new("taskset");
            taskset.args(["-c", &core.to_string()]).arg(&spec.viva);
            taskset
        }
        None => Command::new(&spec.viva),
    };
    command
        .args(["serve", "--dev", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir.join("data"))
        .arg("--whisper-model")
        .arg(&spec.model)
        .args(["--stt-workers", &spec.workers.to_string()])
        .args(&spec.extra)
        .env("RUST_LOG", LOG_FILTER)
        .env("VIVA_LOG_FORMAT", "json")
        .stdin(Stdio::null())
        .stdout(file(out)?)
        .stderr(file(log)?)
        .kill_on_drop(true);
    Ok(command)
}

/// The address from `viva listening on ADDR` in `out`, polled until [`START_TIMEOUT`].
async fn wait_listening(out: &Path, log: &Path) -> Result<String, BenchError> {
    let deadline = Instant::now() + START_TIMEOUT;
    while Instant::now() < deadline {
        let text = std::fs::read_to_string(out).unwrap_or_default();
        if let Some(address) = listening_address(&text) {
            return Ok(address.to_owned());
        }
        tokio::time::sleep(POLL).await;
    }
    let errors = std::fs::read_to_string(log).unwrap_or_default();
    let tail: Vec<&str> = errors.lines().rev().take(5).collect();
    Err(BenchError::Server(format!(
        "not listening after {START_TIMEOUT:?}; last log lines: {tail:?}"
    )))
}

/// The address a server's stdout announces.
fn listening_address(stdout: &str) -> Option<&str> {
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("viva listening on "))
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listening_line_gives_the_address() {
        assert_eq!(
            listening_address("hello\nviva listening on 127.0.0.1:4242\n"),
            Some("127.0.0.1:4242")
        );
        assert_eq!(listening_address("viva listen"), None);
    }
}
