//! The `chaos` scenario's cluster: `viva serve --dev` nodes on loopback ports, sharing one
//! Redis. Part way through the run the first node is killed with SIGKILL — no shutdown, no
//! final checkpoint — and restarted on the same port a little later. Each node keeps its
//! data folder (signing secret, logs) in a temporary folder the cluster owns. Every node is
//! stopped when the cluster is dropped.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use super::options::ChaosOptions;
use super::timeline::Timeline;

/// How long a node may take to say it listens.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How many free ports a node's first start tries: a port found free may be taken by
/// another process before the node binds it.
const START_PORTS: usize = 3;

/// Why the cluster could not be run.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// A node did not start.
    #[error("node {node}: {reason}")]
    Start {
        /// The node.
        node: String,
        /// What went wrong.
        reason: String,
    },
    /// A node exited before it listened (its port taken meanwhile, or no blueprints folder
    /// where it runs: nodes inherit the load tester's working directory and environment).
    #[error(
        "node {node} exited before listening (--node-logs DIR keeps its log; run from the \
         repository root or set VIVA_BLUEPRINTS)"
    )]
    Exited {
        /// The node.
        node: String,
    },
    /// The chaos options were incomplete.
    #[error("{0}")]
    Options(String),
    /// The nodes' data folder could not be made.
    #[error("a data folder for the nodes: {0}")]
    DataDir(std::io::Error),
}

struct Node {
    name: String,
    port: u16,
    child: Option<Child>,
}

/// Running nodes.
pub struct Cluster {
    bin: PathBuf,
    redis_url: String,
    data: tempfile::TempDir,
    /// Where each node's standard error (its log) goes, if anywhere.
    logs: Option<PathBuf>,
    nodes: Vec<Node>,
}

impl Cluster {
    /// Starts `options.nodes` nodes on free loopback ports.
    pub async fn start(
        options: &ChaosOptions,
        timeline: &Timeline,
    ) -> Result<Cluster, ClusterError> {
        let missing = |what: &str| ClusterError::Options(format!("chaos needs {what}"));
        let bin = options
            .server_bin
            .clone()
            .ok_or_else(|| missing("--server-bin"))?;
        let redis_url = options
            .redis_url
            .clone()
            .ok_or_else(|| missing("--redis-url"))?;
        let mut cluster = Cluster {
            bin,
            redis_url,
            data: tempfile::tempdir().map_err(ClusterError::DataDir)?,
            logs: options.node_logs.clone(),
            nodes: Vec::with_capacity(options.nodes),
        };
        for index in 0..options.nodes {
            let name = format!("node-{index}");
            let (port, child) = cluster.spawn_on_a_free_port(&name).await?;
            timeline.watch(&name, child.id());
            cluster.nodes.push(Node {
                name,
                port,
                child: Some(child),
            });
        }
        Ok(cluster)
    }

    /// The nodes' WebSocket base URLs.
    pub fn urls(&self) -> Vec<String> {
        self.nodes
            .iter()
            .map(|node| format!("ws://127.0.0.1:{}", node.port))
            .collect()
    }

    /// Node `name` started on a free port; one that exits before listening (its port taken
    /// since it was found free) is started again on another, [`START_PORTS`] tries in all.
    async fn spawn_on_a_free_port(&self, name: &str) -> Result<(u16, Child), ClusterError> {
        let mut tries = 1;
        loop {
            let port = free_port().map_err(|err| ClusterError::Start {
                node: name.to_owned(),
                reason: format!("no free port: {err}"),
            })?;
            match self.spawn(name, name, port).await {
                Err(ClusterError::Exited { .. }) if tries < START_PORTS => tries += 1,
                started => return started.map(|child| (port, child)),
            }
        }
    }

    /// `viva serve --dev` named `name` on `port`, started once it says it listens. Its
    /// output is drained so it never blocks on a full pipe; its log goes to `{log}.log` in
    /// the logs folder, if there is one.
    async fn spawn(&self, name: &str, log: &str, port: u16) -> Result<Child, ClusterError> {
        let fail = |reason: String| ClusterError::Start {
            node: name.to_owned(),
            reason,
        };
        let stderr = match &self.logs {
            Some(folder) => std::fs::File::create(folder.join(format!("{log}.log")))
                .map(Stdio::from)
                .map_err(|err| fail(format!("its log file: {err}")))?,
            None => Stdio::null(),
        };
        let mut child = Command::new(&self.bin)
            .args(["serve", "--dev", "--listen", &format!("127.0.0.1:{port}")])
            .args(["--redis", &self.redis_url, "--node-id", name, "--data-dir"])
            .arg(self.data.path().join(name))
            .stdout(Stdio::piped())
            .stderr(stderr)
            .kill_on_drop(true)
            .spawn()
            .map_err(|err| fail(format!("{}: {err}", self.bin.display())))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| fail("no stdout".to_owned()))?;
        let mut lines = BufReader::new(stdout).lines();
        let listening = async {
            while let Ok(Some(line)) = lines.next_line().await {
                if line.contains("listening on") {
                    return true;
                }
            }
            false
        };
        match tokio::time::timeout(START_TIMEOUT, listening).await {
            Ok(true) => {}
            Ok(false) => {
                return Err(ClusterError::Exited {
                    node: name.to_owned(),
                });
            }
            Err(_) => return Err(fail(format!("not listening after {START_TIMEOUT:?}"))),
        }
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Ok(child)
    }

    /// Waits `after`, kills the first node with SIGKILL, waits `down`, and restarts it on
    /// its port; both are stamped on the timeline. Returns the cluster for stopping.
    pub async fn kill_and_restart(
        mut self,
        after: Duration,
        down: Duration,
        timeline: Arc<Timeline>,
    ) -> Cluster {
        tokio::time::sleep(after).await;
        let Some(node) = self.nodes.first_mut() else {
            return self;
        };
        kill(&mut node.child).await;
        timeline.watch(&node.name, None);
        timeline.event(format!("SIGKILL {}", node.name));
        let (name, port) = (node.name.clone(), node.port);
        tokio::time::sleep(down).await;
        match self.spawn(&name, &format!("{name}-restarted"), port).await {
            Ok(child) => {
                timeline.watch(&name, child.id());
                timeline.event(format!("restarted {name}"));
                if let Some(node) = self.nodes.first_mut() {
                    node.child = Some(child);
                }
            }
            Err(err) => timeline.event(format!("{name} did not restart: {err}")),
        }
        self
    }

    /// Stops every node (SIGKILL: the run is over, nothing is measured any more).
    pub async fn stop(mut self) {
        for node in &mut self.nodes {
            kill(&mut node.child).await;
        }
    }
}

/// SIGKILLs a running node and reaps it.
async fn kill(child: &mut Option<Child>) {
    if let Some(mut child) = child.take() {
        // ignore: a node that already died needs no kill; `wait` reaps it either way.
        let _ = child.start_kill();
        let _ = child.wait().await;
    }
}

/// A loopback port nothing listens on now.
fn free_port() -> std::io::Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}
