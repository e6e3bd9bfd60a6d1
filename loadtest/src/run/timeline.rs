//! The run over time: every `sample_every`, one sample of answers acked and their latency
//! (p50, p99 of that window), exams open, and each server process's RSS and CPU, read from
//! `/proc`. Users report into a [`Timeline`] shared by the whole run (two short locks per
//! answer); a sampler task closes a window at each tick, and the run's totals so far feed
//! the progress line. Chaos events (a node killed or restarted) are stamped on the same
//! clock, so the charts can mark them.

use crate::stats::round3;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use serde::Serialize;

use super::recorder::{histogram, micros_of};
use crate::voice::cpu::parse_process;

/// `/proc` CPU ticks per second (`USER_HZ`, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;
/// The most samples kept (a day at one a second); later ones are dropped.
const MAX_SAMPLES: usize = 86_400;
/// The most events kept.
const MAX_EVENTS: usize = 1_000;

/// A server process the sampler reads, by name (a node id, or its pid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watched {
    /// How charts name it.
    pub name: String,
    /// Its process, while it runs.
    pub pid: Option<u32>,
}

/// One server process at one sample.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProcessSample {
    /// Its name.
    pub name: String,
    /// Resident memory, MiB (absent while it is down).
    pub rss_mib: Option<f64>,
    /// Cores used since the previous sample.
    pub cpu_cores: Option<f64>,
}

/// One window of the run.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Sample {
    /// Seconds from the start of the run to the end of the window.
    pub t_s: f64,
    /// Answers acked in the window, per second.
    pub answers_per_s: f64,
    /// Median answer → next question in the window, ms (0 when none).
    pub p50_ms: f64,
    /// 99th percentile in the window, ms.
    pub p99_ms: f64,
    /// Exams open at the end of the window.
    pub open_exams: i64,
    /// Errors in the window.
    pub errors: u64,
    /// The load tester's own CPU, cores.
    pub loadtest_cpu_cores: f64,
    /// Every watched server.
    pub servers: Vec<ProcessSample>,
}

/// The run so far, as the timeline counts it (the progress line's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    /// Since the run started.
    pub elapsed: Duration,
    /// Sessions (exams) open now.
    pub live: i64,
    /// Answers acked so far.
    pub answers: u64,
    /// 99th percentile of answer → next question so far.
    pub p99: Duration,
    /// Errors so far.
    pub errors: u64,
}

/// Something that happened to the cluster.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Event {
    /// Seconds from the start of the run.
    pub t_s: f64,
    /// What happened.
    pub what: String,
}

struct Window {
    latencies: Option<Histogram<u64>>,
    errors: u64,
}

/// The whole run so far (the progress line's).
struct SoFar {
    latencies: Option<Histogram<u64>>,
    answers: u64,
    errors: u64,
}

/// The run's shared timeline.
pub struct Timeline {
    started: Instant,
    window: Mutex<Window>,
    so_far: Mutex<SoFar>,
    open_exams: AtomicI64,
    samples: Mutex<Vec<Sample>>,
    events: Mutex<Vec<Event>>,
    watched: Mutex<Vec<Watched>>,
}

impl Timeline {
    /// An empty timeline starting now, watching `watched`.
    pub fn new(watched: Vec<Watched>) -> Timeline {
        Timeline {
            started: Instant::now(),
            window: Mutex::new(Window {
                latencies: histogram(),
                errors: 0,
            }),
            so_far: Mutex::new(SoFar {
                latencies: histogram(),
                answers: 0,
                errors: 0,
            }),
            open_exams: AtomicI64::new(0),
            samples: Mutex::new(Vec::new()),
            events: Mutex::new(Vec::new()),
            watched: Mutex::new(watched),
        }
    }

    /// Seconds since the run started.
    pub fn now_s(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// An answer was acked and its next question came after `took`.
    pub fn answered(&self, took: Duration) {
        if let Ok(mut window) = self.window.lock()
            && let Some(latencies) = window.latencies.as_mut()
        {
            latencies.saturating_record(u64::from(micros_of(took)));
        }
        if let Ok(mut so_far) = self.so_far.lock() {
            so_far.answers += 1;
            if let Some(latencies) = so_far.latencies.as_mut() {
                latencies.saturating_record(u64::from(micros_of(took)));
            }
        }
    }

    /// An error was counted.
    pub fn errored(&self) {
        if let Ok(mut window) = self.window.lock() {
            window.errors += 1;
        }
        if let Ok(mut so_far) = self.so_far.lock() {
            so_far.errors += 1;
        }
    }

    /// The run so far: sessions live, answers, p99 latency and errors.
    pub fn totals(&self) -> Totals {
        let mut totals = Totals {
            elapsed: self.started.elapsed(),
            live: self.open_exams.load(Ordering::Relaxed),
            ..Totals::default()
        };
        if let Ok(so_far) = self.so_far.lock() {
            totals.answers = so_far.answers;
            totals.errors = so_far.errors;
            let p99 = so_far.latencies.as_ref().filter(|h| !h.is_empty());
            let p99 = p99.map_or(0, |h| h.value_at_quantile(0.99));
            totals.p99 = Duration::from_micros(p99);
        }
        totals
    }

    /// An exam opened (+1) or closed (-1).
    pub fn exams_open(&self, change: i64) {
        self.open_exams.fetch_add(change, Ordering::Relaxed);
    }

    /// Stamps a cluster event.
    pub fn event(&self, what: impl Into<String>) {
        let event = Event {
            t_s: round3(self.now_s()),
            what: what.into(),
        };
        push_bounded(&self.events, event, MAX_EVENTS);
    }

    /// A watched process changed (restarted with a new pid, or went down).
    pub fn watch(&self, name: &str, pid: Option<u32>) {
        if let Ok(mut watched) = self.watched.lock() {
            match watched.iter_mut().find(|w| w.name == name) {
                Some(entry) => entry.pid = pid,
                None => watched.push(Watched {
                    name: name.to_owned(),
                    pid,
                }),
            }
        }
    }

    /// Every sample so far.
    pub fn samples(&self) -> Vec<Sample> {
        self.samples.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Every event so far.
    pub fn events(&self) -> Vec<Event> {
        self.events.lock().map(|e| e.clone()).unwrap_or_default()
    }

    fn watched(&self) -> Vec<Watched> {
        self.watched.lock().map(|w| w.clone()).unwrap_or_default()
    }

    fn take_window(&self) -> Window {
        let fresh = Window {
            latencies: histogram(),
            errors: 0,
        };
        match self.window.lock() {
            Ok(mut window) => std::mem::replace(&mut *window, fresh),
            Err(_) => fresh,
        }
    }

    /// Samples every `every` until `stop` is cancelled, then takes a last sample.
    pub async fn sample(&self, every: Duration, stop: tokio_util::sync::CancellationToken) {
        let mut cpu = CpuReader::default();
        cpu.read(&self.watched());
        let mut last = Instant::now();
        let mut ticks = tokio::time::interval(every);
        ticks.tick().await;
        loop {
            let stopping = tokio::select! {
                _ = ticks.tick() => false,
                () = stop.cancelled() => true,
            };
            let elapsed = last.elapsed().as_secs_f64().max(1e-3);
            last = Instant::now();
            let sample = self.close_window(elapsed, &mut cpu);
            push_bounded(&self.samples, sample, MAX_SAMPLES);
            if stopping {
                return;
            }
        }
    }

    fn close_window(&self, elapsed: f64, cpu: &mut CpuReader) -> Sample {
        let window = self.take_window();
        let latencies = window.latencies.as_ref().filter(|h| !h.is_empty());
        let quantile =
            |q: f64| latencies.map_or(0.0, |h| round3(h.value_at_quantile(q) as f64 / 1000.0));
        let answered = latencies.map_or(0, Histogram::len);
        let watched = self.watched();
        let (loadtest_cpu_cores, cores) = cpu.read(&watched);
        let servers = watched
            .iter()
            .zip(cores)
            .map(|(process, cores)| ProcessSample {
                name: process.name.clone(),
                rss_mib: process.pid.and_then(rss_mib),
                cpu_cores: cores.map(|ticks| round3(ticks / TICKS_PER_SECOND / elapsed)),
            })
            .collect();
        Sample {
            t_s: round3(self.now_s()),
            answers_per_s: round3(answered as f64 / elapsed),
            p50_ms: quantile(0.5),
            p99_ms: quantile(0.99),
            open_exams: self.open_exams.load(Ordering::Relaxed),
            errors: window.errors,
            loadtest_cpu_cores: round3(loadtest_cpu_cores / TICKS_PER_SECOND / elapsed),
            servers,
        }
    }
}

/// Every watched server's name, in the order the samples first show it.
pub fn server_names(samples: &[Sample]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for process in samples.iter().flat_map(|sample| &sample.servers) {
        if !names.contains(&process.name) {
            names.push(process.name.clone());
        }
    }
    names
}

/// Pushes onto a bounded, shared list; a full list keeps its earliest entries.
fn push_bounded<T>(list: &Mutex<Vec<T>>, item: T, cap: usize) {
    if let Ok(mut list) = list.lock()
        && list.len() < cap
    {
        list.push(item);
    }
}

/// CPU ticks per process at the previous read, to turn totals into use per window.
#[derive(Default)]
struct CpuReader {
    own: Option<u64>,
    servers: Vec<(Option<u32>, Option<u64>)>,
}

impl CpuReader {
    /// The ticks this process and each watched one used since the last read (a process
    /// seen for the first time, or down, has none).
    fn read(&mut self, watched: &[Watched]) -> (f64, Vec<Option<f64>>) {
        let own = process_ticks("self");
        let own_delta = delta(self.own, own).unwrap_or(0.0);
        self.own = own;
        let mut deltas = Vec::with_capacity(watched.len());
        let mut now = Vec::with_capacity(watched.len());
        for (index, process) in watched.iter().enumerate() {
            let ticks = process.pid.and_then(|pid| process_ticks(&pid.to_string()));
            let before = self
                .servers
                .get(index)
                .filter(|(pid, _)| *pid == process.pid)
                .and_then(|(_, ticks)| *ticks);
            deltas.push(delta(before, ticks));
            now.push((process.pid, ticks));
        }
        self.servers = now;
        (own_delta, deltas)
    }
}

fn delta(before: Option<u64>, now: Option<u64>) -> Option<f64> {
    Some(now?.saturating_sub(before?) as f64)
}

fn process_ticks(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_process(&stat)
}

fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_rss_kib(&status).map(|kib| round3(kib as f64 / 1024.0))
}

/// `VmRSS` of a `/proc/PID/status`, in KiB.
pub fn parse_rss_kib(status: &str) -> Option<u64> {
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rss_is_read_from_the_status_file() {
        let status = "Name:\tviva\nVmPeak:\t  9000 kB\nVmRSS:\t  123456 kB\nThreads:\t4\n";
        assert_eq!(parse_rss_kib(status), Some(123_456));
        assert_eq!(parse_rss_kib("Name:\tkthread\n"), None);
    }

    #[test]
    fn a_window_holds_its_answers_and_errors_and_then_starts_afresh() {
        let timeline = Timeline::new(vec![Watched {
            name: "me".into(),
            pid: Some(std::process::id()),
        }]);
        for millis in 1..=100 {
            timeline.answered(Duration::from_millis(millis));
        }
        timeline.errored();
        timeline.exams_open(3);
        timeline.exams_open(-1);
        let mut cpu = CpuReader::default();
        let sample = timeline.close_window(2.0, &mut cpu);
        assert_eq!(sample.answers_per_s, 50.0);
        assert!((sample.p50_ms - 50.0).abs() < 0.1, "{sample:?}");
        assert!((sample.p99_ms - 99.0).abs() < 0.1, "{sample:?}");
        assert_eq!((sample.open_exams, sample.errors), (2, 1));
        let me = &sample.servers[0];
        assert!(me.rss_mib.is_some_and(|mib| mib > 0.0), "{me:?}");
        assert_eq!(me.cpu_cores, None, "no earlier reading to compare with");
        let next = timeline.close_window(1.0, &mut cpu);
        assert_eq!((next.answers_per_s, next.errors), (0.0, 0));
        assert!(next.servers[0].cpu_cores.is_some());
        let totals = timeline.totals();
        assert_eq!((totals.live, totals.answers, totals.errors), (2, 100, 1));
        let p99 = totals.p99.as_millis();
        assert!((98..=100).contains(&p99), "the run so far: {totals:?}");
    }

    #[test]
    fn a_restarted_process_is_read_afresh_and_a_down_one_reads_nothing() {
        let timeline = Timeline::new(Vec::new());
        timeline.watch("node-0", Some(std::process::id()));
        timeline.event("killed node-0");
        timeline.watch("node-0", None);
        let sample = timeline.close_window(1.0, &mut CpuReader::default());
        assert_eq!(sample.servers[0].rss_mib, None);
        assert_eq!(timeline.events()[0].what, "killed node-0");
    }
}
