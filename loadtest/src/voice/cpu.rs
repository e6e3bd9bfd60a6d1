//! How busy the machine was during a phase, from `/proc`: all cores, this process (the bench
//! and its clients), the server, and everything else — other people's builds and tests —
//! in cores (1.0 = one core fully busy on average).

use std::time::Instant;

use serde_json::{Value, json};

/// Clock ticks per second of `/proc` CPU times (`USER_HZ`, 100 on Linux).
const TICKS: f64 = 100.0;

/// CPU counters at one moment.
#[derive(Debug, Clone, Copy)]
pub struct Snapshot {
    at: Instant,
    machine: Option<MachineTicks>,
    bench: Option<u64>,
    server: Option<u64>,
    server_pid: Option<u32>,
}

/// The machine's busy and total ticks, over all cores, and its core count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MachineTicks {
    /// Ticks spent busy.
    pub busy: u64,
    /// Ticks in all.
    pub total: u64,
    /// Cores.
    pub cores: usize,
}

/// CPU use between two snapshots.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Usage {
    /// Seconds between the snapshots.
    pub seconds: f64,
    /// Cores the whole machine kept busy.
    pub machine: f64,
    /// Cores the bench process used.
    pub bench: f64,
    /// Cores the server used.
    pub server: f64,
    /// Cores used by anything else.
    pub other: f64,
    /// Cores of the machine.
    pub cores: usize,
}

impl Snapshot {
    /// Reads the counters now; `server_pid` is the server's process, if one runs.
    pub fn take(server_pid: Option<u32>) -> Snapshot {
        let read = |path: String| std::fs::read_to_string(path).ok();
        Snapshot {
            at: Instant::now(),
            machine: read("/proc/stat".into()).and_then(|s| parse_machine(&s)),
            bench: read("/proc/self/stat".into()).and_then(|s| parse_process(&s)),
            server: server_pid
                .and_then(|pid| read(format!("/proc/{pid}/stat")))
                .and_then(|s| parse_process(&s)),
            server_pid,
        }
    }

    /// Use from this snapshot to now.
    pub fn usage(&self) -> Usage {
        self.until(&Snapshot::take(self.server_pid))
    }

    /// Use from this snapshot to `later`.
    pub fn until(&self, later: &Snapshot) -> Usage {
        let seconds = later
            .at
            .duration_since(self.at)
            .as_secs_f64()
            .max(f64::EPSILON);
        let cores_of = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => b.saturating_sub(a) as f64 / TICKS / seconds,
            _ => 0.0,
        };
        let (machine, cores) = match (self.machine, later.machine) {
            (Some(a), Some(b)) => {
                let total = b.total.saturating_sub(a.total).max(1) as f64;
                (
                    b.busy.saturating_sub(a.busy) as f64 / total * b.cores as f64,
                    b.cores,
                )
            }
            _ => (0.0, 0),
        };
        let bench = cores_of(self.bench, later.bench);
        let server = cores_of(self.server, later.server);
        Usage {
            seconds,
            machine,
            bench,
            server,
            other: (machine - bench - server).max(0.0),
            cores,
        }
    }
}

impl Usage {
    /// As JSON.
    pub fn to_json(&self) -> Value {
        let round = |x: f64| (x * 100.0).round() / 100.0;
        json!({
            "seconds": round(self.seconds), "machine_cores_busy": round(self.machine),
            "bench_cores": round(self.bench), "server_cores": round(self.server),
            "other_cores": round(self.other), "cores": self.cores,
        })
    }

    /// One line for the summary.
    pub fn line(&self) -> String {
        format!(
            "cpu over {:.0} s: machine {:.2} of {} cores busy (bench {:.2}, server {:.2}, other {:.2})",
            self.seconds, self.machine, self.cores, self.bench, self.server, self.other
        )
    }
}

/// The aggregate `cpu` line of `/proc/stat`, and the count of `cpuN` lines.
pub fn parse_machine(stat: &str) -> Option<MachineTicks> {
    let line = stat.lines().find(|line| line.starts_with("cpu "))?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    // user nice system idle iowait irq softirq steal (guest time is inside user).
    let field = |i: usize| ticks.get(i).copied().unwrap_or_default();
    let idle = field(3) + field(4);
    let busy = field(0) + field(1) + field(2) + field(5) + field(6) + field(7);
    let cores = stat
        .lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count();
    Some(MachineTicks {
        busy,
        total: busy + idle,
        cores,
    })
}

/// User plus system ticks of a process, from its `/proc/PID/stat` (all its threads).
pub fn parse_process(stat: &str) -> Option<u64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are 11 and 12 after the name.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// The load averages, as `/proc/loadavg` gives them.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_ticks_count_busy_and_idle() {
        let stat = "cpu  100 5 50 800 20 3 2 1 0 0\ncpu0 50 2 25 400 10 1 1 0 0 0\n\
                    cpu1 50 3 25 400 10 2 1 1 0 0\nintr 1 2 3\n";
        let ticks = parse_machine(stat).expect("a cpu line");
        assert_eq!(ticks.busy, 161);
        assert_eq!(ticks.total, 981);
        assert_eq!(ticks.cores, 2);
    }

    #[test]
    fn process_ticks_are_found_after_the_name() {
        let stat = "4242 (viva (serve) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 75 0 0 20 0";
        assert_eq!(parse_process(stat), Some(325));
        assert_eq!(parse_process("garbage"), None);
    }
}
