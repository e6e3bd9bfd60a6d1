//! The blueprint engine's integration tests: one binary, one module per behaviour.
//!
//! - `properties`: every shipped skill generates well-formed, correctly keyed items.
//! - `design_documents`: the design document's own blueprints load and work unchanged.
//! - `evaluator_cost`: no expression program runs longer than its step budget allows.
//! - `rubrics`: the shipped rubrics load and pass every check.

mod design_documents;
mod evaluator_cost;
mod properties;
mod rubrics;
