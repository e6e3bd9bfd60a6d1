//! Viva's shared test harnesses, a dev-dependency of every crate whose tests need them (no
//! `#[path]` includes): real services started on free loopback ports, never mocks of them.
//!
//! - [`redis`]: real `redis-server` child processes — one standalone server, or a 3-master
//!   cluster — each on a fresh temporary directory, stopped on drop.
//! - [`openai`]: a chat-completions endpoint on loopback that answers as a test scripts it
//!   (fails, hangs, garbage, a fixed reply, or a model that examines), recording requests.
//! - [`llama`]: a real `llama-server` with a small model, where `scripts/llm-setup` built it.
//! - [`acs`]: the repository's ACS catalogs.
//! - [`courses`]: the repository's tutoring data: skills, rubrics, courses.
//! - [`imports`]: the workspace's file-level import graph, its cycles and import rules, read
//!   from the sources alone (`tests/import_rules.rs`).
//!
//! A harness that cannot start what it needs panics with the reason: in a test, that is
//! the test's failure.
#![allow(clippy::unwrap_used)]

pub mod acs;
pub mod courses;
pub mod imports;
pub mod llama;
pub mod openai;
pub mod redis;
