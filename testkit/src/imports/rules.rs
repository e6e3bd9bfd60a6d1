//! Import rules: "files under X must not import anything under Y", with paths relative to
//! the workspace root, and the imports that break one.

use std::fmt;

use super::workspace::Workspace;

/// Files whose path starts with `from` must not import a file whose path starts with one of
/// `forbid` (directly, or through a `pub use` of the item they name).
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// A short name, for the pending list and the messages.
    pub name: &'static str,
    /// The importing files' path prefix: `actors/` or `core/src/session/`.
    pub from: &'static str,
    /// The imported files' path prefixes: `core/src/tutor/`, or one file.
    pub forbid: &'static [&'static str],
    /// Why, in one line.
    pub why: &'static str,
}

/// One import that breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The importing file.
    pub file: String,
    /// The line of the import.
    pub line: usize,
    /// The path as written.
    pub path: String,
    /// The forbidden file it leads to.
    pub target: String,
}

impl Workspace {
    /// The imports that break `rule`, in file and line order; one per import even when a
    /// file is compiled by two crates.
    pub fn violations(&self, rule: &Rule) -> Vec<Violation> {
        let mut found: Vec<Violation> = self
            .edges
            .iter()
            .filter(|edge| self.path(edge.from).starts_with(rule.from))
            .filter_map(|edge| {
                let target = edge
                    .targets
                    .iter()
                    .map(|&t| self.path(t))
                    .find(|t| rule.forbids(t))?;
                Some(Violation {
                    file: self.path(edge.from).to_string(),
                    line: edge.line,
                    path: edge.path.clone(),
                    target: target.to_string(),
                })
            })
            .collect();
        found.sort_by(|a, b| (&a.file, a.line, &a.path).cmp(&(&b.file, b.line, &b.path)));
        found.dedup();
        found
    }

    /// How many files the rule's `from` prefix covers (none means the rule is stale).
    pub fn files_under(&self, prefix: &str) -> usize {
        self.files()
            .filter(|&id| self.path(id).starts_with(prefix))
            .count()
    }
}

impl Rule {
    fn forbids(&self, path: &str) -> bool {
        self.forbid.iter().any(|prefix| path.starts_with(prefix))
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: imports `{}` ({})",
            self.file, self.line, self.path, self.target
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::imports::workspace::write_files;

    #[test]
    fn violations_name_file_line_path_and_target() {
        let dir = write_files(&[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"core\", \"actors\"]\n",
            ),
            ("core/Cargo.toml", "[package]\nname = \"my-core\"\n"),
            (
                "core/src/lib.rs",
                "pub mod tutor;\npub mod session;\npub use tutor::Brain;\n",
            ),
            ("core/src/tutor/mod.rs", "pub struct Brain;\n"),
            (
                "core/src/session/mod.rs",
                "use crate::tutor;\n#[cfg(test)]\nmod tests { use crate::tutor::Brain; }\n",
            ),
            ("actors/Cargo.toml", "[package]\nname = \"actors\"\n"),
            (
                "actors/src/lib.rs",
                "use my_core::session;\nfn f() -> my_core::Brain {\n    todo!()\n}\n",
            ),
        ]);
        let ws = Workspace::load(dir.path()).unwrap();
        let check = |from, forbid, expected: &[&str]| {
            let rule = Rule {
                name: "test",
                from,
                forbid,
                why: "",
            };
            let found: Vec<String> = ws.violations(&rule).iter().map(|v| v.to_string()).collect();
            assert_eq!(found, expected, "{from} must not import {forbid:?}");
        };
        check(
            "actors/",
            &["core/src/tutor/"],
            &["actors/src/lib.rs:2: imports `my_core::Brain` (core/src/tutor/mod.rs)"],
        );
        check(
            "core/src/session/",
            &["core/src/tutor/"],
            &["core/src/session/mod.rs:1: imports `crate::tutor` (core/src/tutor/mod.rs)"],
        );
        check("core/src/tutor/", &["core/src/session/"], &[]);
        assert_eq!(ws.files_under("core/src/"), 3);
        assert_eq!(ws.files_under("nowhere/"), 0);
    }
}
