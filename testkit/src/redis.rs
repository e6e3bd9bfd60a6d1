//! Real redis-server child processes for tests: one standalone server, or a 3-master cluster.

use std::fs::File;
use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// How long a spawned server may take to answer PING.
const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a server may take to exit after SIGTERM before it gets SIGKILL.
const STOP_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a new cluster may take until every node serves all slots.
const CLUSTER_TIMEOUT: Duration = Duration::from_secs(20);
/// Pause between polls of a process or of `redis-cli`.
const POLL: Duration = Duration::from_millis(50);
/// Fresh ports tried when a new server's port was taken before it could bind.
const START_ATTEMPTS: usize = 5;
/// Ports drawn when looking for one whose cluster bus port is free too.
const PORT_ATTEMPTS: usize = 200;
/// A cluster node's bus listens on its port plus this.
const BUS_OFFSET: u16 = 10_000;
/// Cluster node ports stay below this so that the bus port fits in a `u16`.
const MAX_CLUSTER_PORT: u16 = u16::MAX - BUS_OFFSET;
/// Lines of `redis.log` quoted when a server fails to start.
const LOG_TAIL_LINES: usize = 30;
/// Arguments every server gets, after its port, dir and logfile.
#[rustfmt::skip]
const SERVER_ARGS: [&str; 12] = [
    "--bind", "127.0.0.1",
    "--appendonly", "yes",
    "--appendfsync", "always",
    "--save", "",
    "--protected-mode", "no",
    "--daemonize", "no",
];
/// Arguments that make a server a cluster node.
#[rustfmt::skip]
const CLUSTER_NODE_ARGS: [&str; 6] = [
    "--cluster-enabled", "yes",
    "--cluster-config-file", "nodes.conf",
    "--cluster-node-timeout", "2000",
];
/// Number of hash slots a healthy cluster has assigned.
const CLUSTER_SLOTS: &str = "16384";
/// Masters in a [`RedisCluster`].
const CLUSTER_SIZE: usize = 3;
/// What to do when redis is missing.
const INSTALL_HINT: &str = "install the Debian package `redis-server` (apt-get install redis-server), \
     or point VIVA_REDIS_SERVER / VIVA_REDIS_CLI at the binaries";

/// One redis-server child process on a free loopback port, in its own temp dir.
///
/// Durable by default: AOF on with `appendfsync always`, so [`RedisServer::restart`] finds every
/// acknowledged write. Killed on drop.
pub struct RedisServer {
    child: Option<Child>,
    port: u16,
    extra: Vec<String>,
    dir: TempDir,
}

impl RedisServer {
    /// Starts a standalone server and waits (up to 10 s) until `redis-cli -p PORT ping` answers
    /// PONG.
    pub fn start() -> RedisServer {
        Self::start_with(&[])
    }

    /// Starts a server with `extra` arguments after the defaults, such as the cluster options
    /// `--cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000`.
    ///
    /// With `--cluster-enabled yes` the port is chosen so that the bus port (port + 10000) is
    /// free too.
    pub fn start_with(extra: &[&str]) -> RedisServer {
        let cluster = extra.windows(2).any(|w| w == ["--cluster-enabled", "yes"]);
        let dir = tempfile::Builder::new()
            .prefix("viva-redis-")
            .tempdir()
            .expect("create a temp dir for redis-server");
        let mut server = RedisServer {
            child: None,
            port: 0,
            extra: extra.iter().map(ToString::to_string).collect(),
            dir,
        };
        let mut attempt = 1;
        loop {
            server.port = free_port(cluster);
            let log_start = server.log_len();
            match server.spawn_and_wait() {
                Ok(()) => return server,
                Err(_) if attempt < START_ATTEMPTS && server.port_was_taken(log_start) => {
                    attempt += 1;
                }
                Err(why) => server.fail(&why),
            }
        }
    }

    /// The server's TCP port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `redis://127.0.0.1:PORT/`
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Stops the process (SIGTERM via `kill`, wait up to 5 s, then SIGKILL) and reaps it; the
    /// port and dir are kept. Does nothing if it is already stopped.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let status = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run kill -TERM");
        assert!(
            status.success(),
            "kill -TERM {} failed: {status}",
            child.id()
        );
        let deadline = Instant::now() + STOP_TIMEOUT;
        while Instant::now() < deadline {
            if child.try_wait().expect("poll redis-server").is_some() {
                return;
            }
            sleep(POLL);
        }
        child.kill().expect("SIGKILL redis-server");
        child.wait().expect("reap redis-server");
    }

    /// Starts it again on the same port and dir (data survives through the AOF, a cluster
    /// node's identity through `nodes.conf`) and waits for PONG. Stops it first if it runs.
    pub fn restart(&mut self) {
        self.stop();
        if let Err(why) = self.spawn_and_wait() {
            self.fail(&why);
        }
    }

    /// Runs `redis-cli -p PORT <args>` and returns its trimmed stdout; panics with stderr when
    /// redis-cli fails (it cannot connect, say).
    ///
    /// An error reply is not a failure to redis-cli: it comes back as text, such as `ERR ...`.
    pub fn cli(&self, args: &[&str]) -> String {
        self.try_cli(args)
            .unwrap_or_else(|err| panic!("redis-cli -p {} {}: {err}", self.port, args.join(" ")))
    }

    /// Like [`RedisServer::cli`], but a failure (such as a stopped server) is an `Err` with
    /// redis-cli's exit status and stderr.
    pub fn try_cli(&self, args: &[&str]) -> Result<String, String> {
        let output = run_cli(self.port, args);
        let stdout = String::from_utf8_lossy(&output.stdout).trim().to_string();
        if output.status.success() {
            return Ok(stdout);
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(format!("{}: {} {stdout}", output.status, stderr.trim()))
    }

    /// The server's log, `redis.log` in its dir.
    fn log_path(&self) -> PathBuf {
        self.dir.path().join("redis.log")
    }

    /// Spawns redis-server on `self.port` and waits for it to answer PING.
    fn spawn_and_wait(&mut self) -> Result<(), String> {
        let log = File::options()
            .create(true)
            .append(true)
            .open(self.log_path())
            .expect("open redis.log");
        let log_for_stderr = log.try_clone().expect("clone the redis.log handle");
        let port = self.port.to_string();
        let dir = self.dir.path().to_str().expect("temp dir path is UTF-8");
        let logfile = self.log_path();
        let logfile = logfile.to_str().expect("log path is UTF-8");
        let child = Command::new(server_bin())
            .args(["--port", &port, "--dir", dir, "--logfile", logfile])
            .args(SERVER_ARGS)
            .args(&self.extra)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_for_stderr)
            .spawn();
        self.child = Some(child.unwrap_or_else(|err| spawn_failed(&server_bin(), &err)));
        self.wait_ready()
    }

    /// Polls PING until PONG, the child's exit, or [`START_TIMEOUT`].
    fn wait_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let child = self.child.as_mut().expect("wait_ready on a spawned server");
            if let Some(status) = child.try_wait().expect("poll redis-server") {
                self.child = None;
                return Err(format!("redis-server exited early ({status})"));
            }
            // Also ask for the pid, so that another process on a reused port cannot pass.
            if self.try_cli(&["ping"]).is_ok_and(|reply| reply == "PONG") && self.pid_matches() {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(format!("no PONG within {START_TIMEOUT:?}"));
            }
            sleep(POLL);
        }
    }

    /// Whether the server answering on `self.port` is our child.
    fn pid_matches(&self) -> bool {
        let Some(child) = &self.child else {
            return false;
        };
        let pid = format!("process_id:{}", child.id());
        self.try_cli(&["info", "server"])
            .is_ok_and(|info| info.lines().any(|line| line.trim() == pid))
    }

    /// Bytes in `redis.log` so far (0 before the first start).
    fn log_len(&self) -> u64 {
        std::fs::metadata(self.log_path()).map_or(0, |meta| meta.len())
    }

    /// Whether the log written since `log_start` says the port (or bus port) was in use.
    fn port_was_taken(&self, log_start: u64) -> bool {
        let log = std::fs::read(self.log_path()).unwrap_or_default();
        let start = usize::try_from(log_start).map_or(log.len(), |at| at.min(log.len()));
        String::from_utf8_lossy(&log[start..]).contains("Address already in use")
    }

    /// SIGKILLs and reaps the child, if any.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            // ignore: it may have exited already; this only keeps it from outliving the test.
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Kills what is left of the child and panics with `why` and the tail of `redis.log`.
    fn fail(&mut self, why: &str) -> ! {
        self.kill();
        let log = std::fs::read_to_string(self.log_path()).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        let tail = lines[lines.len().saturating_sub(LOG_TAIL_LINES)..].join("\n");
        panic!(
            "redis-server on port {} did not start: {why}\n--- {} (tail) ---\n{tail}",
            self.port,
            self.log_path().display()
        );
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A 3-master Redis Cluster on loopback (no replicas). Every node is killed on drop.
pub struct RedisCluster {
    nodes: Vec<RedisServer>,
}

impl RedisCluster {
    /// Starts 3 cluster-enabled servers, joins them with `redis-cli --cluster create`, then waits
    /// (up to 20 s) until every node reports `cluster_state:ok` with all 16384 slots assigned
    /// and all 3 nodes known.
    pub fn start() -> RedisCluster {
        let nodes: Vec<RedisServer> = (0..CLUSTER_SIZE)
            .map(|_| RedisServer::start_with(&CLUSTER_NODE_ARGS))
            .collect();
        let addrs: Vec<String> = nodes
            .iter()
            .map(|node| format!("127.0.0.1:{}", node.port()))
            .collect();
        let mut args = vec!["--cluster", "create"];
        args.extend(addrs.iter().map(String::as_str));
        args.extend(["--cluster-replicas", "0", "--cluster-yes"]);
        let output = run_cli_args(&args);
        assert!(
            output.status.success(),
            "redis-cli {} failed ({}):\n{}\n{}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        let cluster = RedisCluster { nodes };
        cluster.wait_healthy();
        cluster
    }

    /// The seed URLs, one per node: `redis://127.0.0.1:PORT/`.
    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(RedisServer::url).collect()
    }

    /// The nodes, in the order their ports were passed to `--cluster create`.
    pub fn nodes(&self) -> &[RedisServer] {
        &self.nodes
    }

    /// Polls `cluster info` on every node until all are healthy, or panics after
    /// [`CLUSTER_TIMEOUT`] with the last answers.
    fn wait_healthy(&self) {
        let deadline = Instant::now() + CLUSTER_TIMEOUT;
        loop {
            let infos: Vec<String> = self
                .nodes
                .iter()
                .map(|node| node.try_cli(&["cluster", "info"]).unwrap_or_else(|err| err))
                .collect();
            if infos.iter().all(|info| cluster_is_healthy(info)) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "cluster not healthy within {CLUSTER_TIMEOUT:?}; cluster info per node:\n{}",
                infos.join("\n---\n")
            );
            sleep(POLL);
        }
    }
}

/// Whether one node's `cluster info` shows a cluster of [`CLUSTER_SIZE`] serving every slot.
fn cluster_is_healthy(info: &str) -> bool {
    let field = |name: &str| {
        info.lines()
            .find_map(|line| line.trim().strip_prefix(name)?.strip_prefix(':'))
            .map(str::trim)
    };
    field("cluster_state") == Some("ok")
        && field("cluster_slots_assigned") == Some(CLUSTER_SLOTS)
        && field("cluster_known_nodes") == Some(CLUSTER_SIZE.to_string().as_str())
}

/// The redis-server binary: `$VIVA_REDIS_SERVER`, else `redis-server` on the PATH.
fn server_bin() -> String {
    std::env::var("VIVA_REDIS_SERVER").unwrap_or_else(|_| "redis-server".to_string())
}

/// The redis-cli binary: `$VIVA_REDIS_CLI`, else `redis-cli` on the PATH.
fn cli_bin() -> String {
    std::env::var("VIVA_REDIS_CLI").unwrap_or_else(|_| "redis-cli".to_string())
}

/// Runs `redis-cli -p PORT <args>` to completion.
fn run_cli(port: u16, args: &[&str]) -> Output {
    let port = port.to_string();
    let mut all = vec!["-p", &port];
    all.extend_from_slice(args);
    run_cli_args(&all)
}

/// Runs `redis-cli <args>` to completion, with no stdin.
fn run_cli_args(args: &[&str]) -> Output {
    Command::new(cli_bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|err| spawn_failed(&cli_bin(), &err))
}

/// Panics for a binary that could not be spawned, with the install hint when it is missing.
fn spawn_failed(bin: &str, err: &std::io::Error) -> ! {
    assert!(
        err.kind() != ErrorKind::NotFound,
        "{bin} not found: {INSTALL_HINT}"
    );
    panic!("spawn {bin}: {err}");
}

/// A loopback port that is free now; with `cluster`, one whose bus port (port + 10000) is free
/// too.
fn free_port(cluster: bool) -> u16 {
    for _ in 0..PORT_ATTEMPTS {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free loopback port");
        let port = listener
            .local_addr()
            .expect("local addr of a bound port")
            .port();
        if !cluster {
            return port;
        }
        if port < MAX_CLUSTER_PORT && TcpListener::bind(("127.0.0.1", port + BUS_OFFSET)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port with a free bus port after {PORT_ATTEMPTS} tries");
}
