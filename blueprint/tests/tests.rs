//! The blueprint engine's integration tests: one binary, one module per behaviour.
//!
//! - `properties`: every shipped skill generates well-formed, correctly keyed items.
//! - `evaluator_cost`: no expression program runs longer than its step budget allows.

mod evaluator_cost;
mod properties;
