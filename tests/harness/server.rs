//! The viva server as a child process: start, graceful stop, SIGKILL and restart on one data dir.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader, Lines};
use tokio::process::{Child, ChildStdout, Command};

use super::TIMEOUT;
use super::token::SECRET;

const BLUEPRINTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/blueprints");
const READY_PREFIX: &str = "viva listening on ";
const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// The `viva` binary under test: cargo's own path when these tests are built by the `viva`
/// package, else `$VIVA_BIN`.
pub fn viva_bin() -> PathBuf {
    match option_env!("CARGO_BIN_EXE_viva") {
        Some(path) => PathBuf::from(path),
        None => std::env::var_os("VIVA_BIN")
            .map(PathBuf::from)
            .expect("set VIVA_BIN to the viva binary (CARGO_BIN_EXE_viva is not set here)"),
    }
}

/// A running `viva serve`; killed on drop.
pub struct Server {
    child: Child,
    addr: SocketAddr,
    data_dir: PathBuf,
    owned_dir: Option<TempDir>,
    dev: bool,
    options: Options,
}

/// What a test may change about how the server starts.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A blueprints folder other than the repo's.
    pub blueprints: Option<PathBuf>,
    /// Extra command-line arguments, such as `--config FILE`.
    pub args: Vec<String>,
    /// The address to listen on instead of a free port (kept across restarts: a browser
    /// page reconnects to the address it came from).
    pub listen: Option<String>,
    /// `--dev`: a user name signs in.
    pub dev: bool,
    /// An unpacked release folder: its own `viva` runs there as the working directory, with
    /// no `--blueprints` and no `CARGO*` or `VIVA_*` variable, as an operator would run it.
    pub release: Option<PathBuf>,
}

impl Server {
    /// Starts a server on a fresh temporary data dir that lives as long as this server.
    pub async fn start() -> Server {
        Self::start_owned(false).await
    }

    /// Like [`Server::start`], with `--dev`.
    pub async fn start_dev() -> Server {
        Self::start_owned(true).await
    }

    /// Starts a server on `data_dir`, which the caller keeps alive (for restarts).
    pub async fn start_with_dir(data_dir: &Path) -> Server {
        Self::spawn(data_dir, false, Options::default()).await
    }

    /// Starts a server on a fresh data dir with these options.
    pub async fn start_with_options(options: Options) -> Server {
        let dir = tempfile::tempdir().expect("create a data dir");
        let mut server = Self::spawn(dir.path(), false, options).await;
        server.owned_dir = Some(dir);
        server
    }

    /// Starts a server whose examiner is the model at `url` (an `[llm]` section in a config
    /// file), each call bounded by `timeout` (such as `"8s"`).
    pub async fn start_with_llm(url: &str, model: &str, timeout: &str) -> Server {
        let dir = tempfile::tempdir().expect("config dir");
        let config = dir.path().join("viva.toml");
        let text =
            format!("[llm]\nurl = \"{url}\"\nmodel = \"{model}\"\ntimeout = \"{timeout}\"\n");
        std::fs::write(&config, text).expect("write config");
        // The config is read at start; the folder may go afterwards.
        Self::start_with_options(Options {
            blueprints: None,
            args: vec!["--config".into(), config.display().to_string()],
            ..Default::default()
        })
        .await
    }

    /// Starts an unpacked release's own `viva serve --dev` in its folder, as an operator
    /// would (see [`Options::release`]), keeping its data in `data_dir`.
    pub async fn start_release(release: &Path, data_dir: &Path) -> Server {
        let options = Options {
            release: Some(release.to_owned()),
            dev: true,
            ..Default::default()
        };
        Self::spawn(data_dir, true, options).await
    }

    /// The server's data directory (checkpoints live under `sessions/`).
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    async fn start_owned(dev: bool) -> Server {
        let dir = tempfile::tempdir().expect("create a data dir");
        let mut server = Self::spawn(dir.path(), dev, Options::default()).await;
        server.owned_dir = Some(dir);
        server
    }

    async fn spawn(data_dir: &Path, dev: bool, options: Options) -> Server {
        let dev = dev || options.dev;
        let mut command = command(data_dir, dev, &options);
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command
            .spawn()
            .unwrap_or_else(|err| panic!("spawn {:?}: {err}", command.as_std().get_program()));
        let pid = child.id().expect("a running child has a pid");
        let stderr = child.stderr.take().expect("piped stderr");
        tokio::spawn(forward(BufReader::new(stderr).lines(), pid, "stderr"));
        let stdout = child.stdout.take().expect("piped stdout");
        let addr = wait_until_listening(BufReader::new(stdout).lines(), pid).await;
        let data_dir = data_dir.to_owned();
        Server {
            child,
            addr,
            data_dir,
            owned_dir: None,
            dev,
            options,
        }
    }

    /// Starts a node sharing Redis at `urls` (a cluster when `cluster`), named `node_id`,
    /// with `extra` arguments (such as `--lease 1s`).
    pub async fn node(urls: &[String], cluster: bool, node_id: &str, extra: &[&str]) -> Server {
        let mut args = vec![
            "--redis".to_owned(),
            urls.join(","),
            "--node-id".to_owned(),
            node_id.to_owned(),
        ];
        if cluster {
            args.push("--redis-cluster".to_owned());
        }
        args.extend(extra.iter().map(|arg| (*arg).to_owned()));
        Self::start_with_options(Options {
            blueprints: None,
            args,
            ..Default::default()
        })
        .await
    }

    /// Sends a signal (`STOP`, `CONT`, `TERM`...) to the server process.
    pub fn signal(&self, name: &str) {
        let pid = self.child.id().expect("signal to a server that was reaped");
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -{name} {pid} failed: {status}");
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `ws://ADDR/v1/ws`.
    pub fn ws_url(&self) -> String {
        format!("ws://{}/v1/ws", self.addr)
    }

    /// SIGKILL, then reap the process.
    pub async fn kill(&mut self) {
        self.child.start_kill().expect("send SIGKILL to viva");
        self.wait_exit().await;
    }

    /// SIGTERM, then wait up to [`TIMEOUT`] for the process to exit.
    pub async fn stop(&mut self) -> ExitStatus {
        let pid = self
            .child
            .id()
            .expect("stop of a server that was already reaped");
        let status = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("run kill -TERM");
        assert!(status.success(), "kill -TERM {pid} failed: {status}");
        self.wait_exit().await
    }

    async fn wait_exit(&mut self) -> ExitStatus {
        tokio::time::timeout(TIMEOUT, self.child.wait())
            .await
            .unwrap_or_else(|_| panic!("viva did not exit within {TIMEOUT:?}"))
            .expect("wait for viva")
    }

    /// Starts a new server on this one's data dir; this one must have exited (kill or stop).
    pub async fn restart(mut self) -> Server {
        let exited = self.child.try_wait().expect("poll viva");
        assert!(
            exited.is_some(),
            "restart of a server that is still running"
        );
        let mut next = Self::spawn(&self.data_dir, self.dev, self.options.clone()).await;
        next.owned_dir = self.owned_dir.take();
        next
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Already exited is fine: this only makes sure no server outlives its test.
        let _ = self.child.start_kill();
    }
}

/// `viva serve` on `data_dir`: the binary under test with the repo's blueprints, or a
/// release's own binary in its folder with nothing of the build's environment.
fn command(data_dir: &Path, dev: bool, options: &Options) -> Command {
    let listen = options.listen.as_deref().unwrap_or("127.0.0.1:0");
    let mut command = match &options.release {
        Some(release) => release_command(release),
        None => {
            let mut command = Command::new(viva_bin());
            command.arg("serve");
            let blueprints = options.blueprints.clone();
            let blueprints = blueprints.unwrap_or_else(|| PathBuf::from(BLUEPRINTS));
            command.arg("--blueprints").arg(blueprints);
            command.env("VIVA_AUTH_SECRET", SECRET);
            command
        }
    };
    command
        .args(["--listen", listen, "--data-dir"])
        .arg(data_dir)
        .args(&options.args);
    if dev {
        command.arg("--dev");
    }
    command.env(
        "RUST_LOG",
        std::env::var("VIVA_TEST_LOG").unwrap_or_else(|_| "info".to_owned()),
    );
    command
}

/// `RELEASE/viva serve` run in `RELEASE`, without any `CARGO*` or `VIVA_*` variable.
fn release_command(release: &Path) -> Command {
    let mut command = Command::new(release.join("viva"));
    command.arg("serve").current_dir(release);
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        if text.starts_with("CARGO") || text.starts_with("VIVA_") {
            command.env_remove(&name);
        }
    }
    command
}

/// Reads stdout until the ready line, then keeps draining it in the background.
async fn wait_until_listening(mut lines: Lines<BufReader<ChildStdout>>, pid: u32) -> SocketAddr {
    let wait = async {
        while let Some(line) = lines.next_line().await.expect("read viva stdout") {
            if let Some(addr) = line.strip_prefix(READY_PREFIX) {
                return addr
                    .trim()
                    .parse::<SocketAddr>()
                    .unwrap_or_else(|err| panic!("bad ready line {line:?}: {err}"));
            }
            eprintln!("[viva {pid} stdout] {line}");
        }
        panic!("viva {pid} closed stdout before printing {READY_PREFIX:?}ADDR (see its stderr)");
    };
    let addr = tokio::time::timeout(READY_TIMEOUT, wait)
        .await
        .unwrap_or_else(|_| panic!("viva {pid} not listening within {READY_TIMEOUT:?}"));
    assert!(
        addr.ip().is_loopback(),
        "viva {pid} listens on {addr}, not loopback"
    );
    tokio::spawn(forward(lines, pid, "stdout"));
    addr
}

/// Copies a child pipe to the test's stderr (shown by libtest when the test fails).
async fn forward<R: AsyncRead + Unpin>(
    mut lines: Lines<BufReader<R>>,
    pid: u32,
    pipe: &'static str,
) {
    while let Ok(Some(line)) = lines.next_line().await {
        eprintln!("[viva {pid} {pipe}] {line}");
    }
}

/// Runs `viva ARGS` to its end with `VIVA_AUTH_SECRET` set to `secret`; panics if it is
/// still running after [`TIMEOUT`].
pub async fn run_viva(args: &[&str], secret: &str) -> std::process::Output {
    let output = Command::new(viva_bin())
        .args(args)
        .env("VIVA_AUTH_SECRET", secret)
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    tokio::time::timeout(TIMEOUT, output)
        .await
        .unwrap_or_else(|_| panic!("viva {args:?} still running after {TIMEOUT:?}"))
        .unwrap_or_else(|err| panic!("run viva {args:?}: {err}"))
}
