//! Viva's fuzz harness on stable Rust: seeded, reproducible generators that build inputs for
//! a target from its structure and from mutations of real seed inputs, and a runner that
//! feeds a target millions of them, catching panics and keeping the slowest input.
//!
//! - `draw`: the seeded choices every generator makes (SplitMix64, from `viva-blueprint`).
//! - `corpus`: the repository's real inputs: the ACS library, rubrics, labelled answers.
//! - `answers`: adversarial and random exam answers for the examiner's judge.

pub mod answers;
pub mod corpus;
pub mod draw;
