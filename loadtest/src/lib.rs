//! Shared pieces of Viva's load tester and benchmarks.
//!
//! - [`aof`]: a watch on Redis's AOF rewrites, to tell the samples taken during one apart.
//! - [`ws`]: a development-mode WebSocket client (connect, send, wait for an event type).
//! - [`stats`]: latency samples, percentiles and the report lines with ratios to a baseline.
//! - [`pace`]: an open-loop driver that issues operations on a fixed schedule.
//! - [`checkpoint`]: the checkpoint workload — a template and the next write of a session.
//! - [`voice`]: the voice benchmark — spoken answers, accuracy, throughput, latency, capacity.
//! - [`run`]: the load tester's engine — scenarios, hdrhistogram recorder, audit, report.
//!
//! The binaries are `viva-loadtest` (simulated candidates: text exams, takeovers,
//! reconnects; percentiles, audit, thresholds), `viva-exam-bench` (whole exams one wave at a
//! time against a ping baseline), `viva-checkpoint-bench` (checkpoint writes to Redis against
//! a plain `SET` baseline), `viva-failover-bench` (resume on another node after a `kill -9`,
//! against a connect-and-ping baseline) and `viva-voice-bench` (speech to text in process and
//! through `viva serve`: accuracy, throughput against the in-process baseline, end-of-speech
//! latency, and sessions per core).
#![warn(missing_docs)]

pub mod aof;
pub mod checkpoint;
pub mod pace;
pub mod run;
pub mod stats;
pub mod voice;
pub mod ws;
