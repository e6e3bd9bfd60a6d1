//! Import rules: a std-only scan of the workspace's sources into a file-level import graph,
//! for `testkit/tests/import_rules.rs` (docs/modules.md, "Import rules").
//!
//! - [`lex`]: Rust source to tokens, without comments; strings and numbers become literals.
//! - [`parse`]: one file's `mod` declarations and the paths it names (`use` leaves, paths in
//!   code), `#[cfg(test)]` items left out.
//! - [`tree`]: the workspace's crates and module trees; a path to the deepest module file.
//! - [`graph`]: cycles of files inside a crate, and of top-level modules.
//! - [`workspace`]: the crates of `[workspace] members`, and every import as an [`Edge`].
//! - [`rules`]: "files under X must not import anything under Y", and what breaks it.
//!
//! An edge goes from the file that names a path to the deepest module file the path walks
//! through (`crate::a::b::Thing` → `a/b.rs` or `a/b/mod.rs`); when the path's item is a
//! `pub use` there, the rules also see the file it re-exports. A `mod x;` is not an import.

mod graph;
mod lex;
mod parse;
mod rules;
mod tree;
mod workspace;

pub use graph::{Cycle, Link, ModuleCycle};
pub use rules::{Rule, Violation};
pub use tree::Crate;
pub use workspace::{Edge, FileId, Workspace};
