//! The workspace's crates and their module trees, read from `Cargo.toml` and `mod`
//! declarations, and a path's resolution to the deepest module file it names.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::Path;

use super::parse::{Parsed, parse};

/// One crate: a library (`src/lib.rs`) or a binary (`src/main.rs`, `src/bin/*.rs`).
#[derive(Debug)]
pub struct Crate {
    /// The package's name, with the binary's file name for a binary under `src/bin/`.
    pub name: String,
    /// How other crates name a library (`viva_core`); `None` for a binary.
    pub(crate) lib: Option<String>,
    /// Its source files, the root first, in the order their `mod`s were found.
    pub(crate) files: Vec<SourceFile>,
    /// Every module (inline ones too) to the file that holds it.
    modules: HashMap<Vec<String>, usize>,
}

/// One file of a crate's module tree.
#[derive(Debug)]
pub(crate) struct SourceFile {
    /// Relative to the workspace root, `/`-separated: `core/src/session/mod.rs`.
    pub path: String,
    /// Its module's path in the crate (`["session"]`); empty for the root.
    pub module: Vec<String>,
    pub parsed: Parsed,
}

/// A path made absolute: a crate and the segments from its root (the last ones may name an
/// item rather than a module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Absolute {
    pub krate: usize,
    pub segments: Vec<String>,
}

impl Crate {
    /// Reads the crate whose root file is `root` (relative to `workspace`), following its
    /// `mod` declarations (those under `#[cfg(test)]` left out).
    pub(crate) fn load(
        workspace: &Path,
        name: String,
        lib: Option<String>,
        root: &str,
    ) -> io::Result<Crate> {
        let mut krate = Crate {
            name,
            lib,
            files: Vec::new(),
            modules: HashMap::new(),
        };
        let mut pending = vec![(root.to_string(), Vec::new())];
        while let Some((path, module)) = pending.pop() {
            let parsed = parse(&fs::read_to_string(workspace.join(&path))?);
            let index = krate.files.len();
            krate.modules.insert(module.clone(), index);
            for scope in &parsed.inline_mods {
                krate
                    .modules
                    .insert([module.as_slice(), scope].concat(), index);
            }
            for decl in parsed.mods.iter().rev() {
                let dir = format!(
                    "{}{}",
                    children_dir(&path, module.is_empty()),
                    decl.scope
                        .iter()
                        .map(|s| format!("{s}/"))
                        .collect::<String>()
                );
                let candidates = match &decl.path_attr {
                    Some(attr) => vec![format!("{}{attr}", parent_dir(&path))],
                    None => vec![
                        format!("{dir}{}.rs", decl.name),
                        format!("{dir}{}/mod.rs", decl.name),
                    ],
                };
                if let Some(file) = candidates.into_iter().find(|c| workspace.join(c).is_file()) {
                    pending.push((
                        file,
                        [
                            module.as_slice(),
                            &decl.scope,
                            std::slice::from_ref(&decl.name),
                        ]
                        .concat(),
                    ));
                }
            }
            krate.files.push(SourceFile {
                path,
                module,
                parsed,
            });
        }
        Ok(krate)
    }

    /// The file of module `module`, if there is such a module.
    pub(crate) fn module_file(&self, module: &[String]) -> Option<usize> {
        self.modules.get(module).copied()
    }

    /// The deepest module that `segments` walks through from the root: its file, and how
    /// many segments named modules.
    pub(crate) fn deepest(&self, segments: &[String]) -> (usize, usize) {
        let mut depth = 0;
        while depth < segments.len() && self.modules.contains_key(&segments[..=depth]) {
            depth += 1;
        }
        // The root module (depth 0) is always there: the fallback is never taken.
        (self.module_file(&segments[..depth]).unwrap_or(0), depth)
    }
}

/// Where the files of `path`'s child modules live: beside a root, `mod.rs` or `lib.rs`;
/// under a directory of its own name for any other file (`a/b.rs` → `a/b/`).
fn children_dir(path: &str, is_root: bool) -> String {
    let parent = parent_dir(path);
    let stem = path
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .trim_end_matches(".rs");
    if is_root || stem == "mod" {
        parent
    } else {
        format!("{parent}{stem}/")
    }
}

/// The directory of `path`, with its trailing `/` (empty at the top).
fn parent_dir(path: &str) -> String {
    path.rfind('/')
        .map_or(String::new(), |slash| path[..=slash].to_string())
}

/// How the names a file imports read: a `use` alias to the absolute path it names, `None`
/// where it names something outside the workspace (`std::fmt`), and whether it is `pub use`.
pub(crate) type Aliases = HashMap<String, (Option<Absolute>, bool)>;

/// Resolves paths the way rustc does for the cases a source scan can see.
pub(crate) struct Resolver<'a> {
    pub crates: &'a [Crate],
    /// A library's path name (`viva_core`) to its crate.
    pub libs: HashMap<&'a str, usize>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(crates: &'a [Crate]) -> Resolver<'a> {
        let libs = crates
            .iter()
            .enumerate()
            .filter_map(|(k, c)| Some((c.lib.as_deref()?, k)))
            .collect();
        Resolver { crates, libs }
    }

    /// `segments`, written in module `here` of crate `krate` where `aliases` are in scope, as
    /// an absolute path; `None` for a path that leaves the workspace or names no module.
    pub(crate) fn absolute(
        &self,
        krate: usize,
        here: &[String],
        aliases: &Aliases,
        segments: &[String],
    ) -> Option<Absolute> {
        let (first, rest) = segments.split_first()?;
        let (krate, mut base, rest) = match first.as_str() {
            "crate" | "$crate" => (krate, Vec::new(), rest),
            "self" => (krate, here.to_vec(), rest),
            "super" => {
                let mut base = here.to_vec();
                let mut rest = segments;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                (krate, base, rest)
            }
            name => {
                if let Some((target, _)) = aliases.get(name) {
                    let target = target.as_ref()?;
                    return Some(Absolute {
                        krate: target.krate,
                        segments: [&target.segments[..], rest].concat(),
                    });
                }
                let child = [here, std::slice::from_ref(first)].concat();
                if self.crates[krate].module_file(&child).is_some() {
                    (krate, child, rest)
                } else {
                    (*self.libs.get(name)?, Vec::new(), rest)
                }
            }
        };
        base.extend(rest.iter().cloned());
        Some(Absolute {
            krate,
            segments: base,
        })
    }

    /// The alias table of file `file` of crate `krate`, in the order its `use`s appear.
    pub(crate) fn aliases(&self, krate: usize, file: usize) -> Aliases {
        let source = &self.crates[krate].files[file];
        let mut aliases = Aliases::new();
        for r in &source.parsed.refs {
            if let super::parse::RefKind::Use {
                alias: Some(alias),
                public,
            } = &r.kind
            {
                let here = [source.module.as_slice(), &r.scope].concat();
                let target = self.absolute(krate, &here, &aliases, &r.segments);
                aliases.insert(alias.clone(), (target, *public));
            }
        }
        aliases
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::imports::workspace::write_files;

    fn strings(path: &str) -> Vec<String> {
        path.split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// A workspace of two crates in a temporary directory: `app` with `a.rs`, `a/b.rs`,
    /// `c/mod.rs` and a test-only `t.rs`, and the library `dep` with `x.rs`.
    fn fixture() -> (tempfile::TempDir, Vec<Crate>) {
        let dir = write_files(&[
            (
                "app/src/lib.rs",
                "pub mod a;\nmod c;\nmod inline { pub fn f() {} }\n#[cfg(test)]\nmod t;",
            ),
            (
                "app/src/a.rs",
                "pub mod b;\nuse std::fmt;\nuse crate::c::{self as see, Thing};\npub use b::Item;",
            ),
            ("app/src/a/b.rs", "pub struct Item;"),
            ("app/src/c/mod.rs", "pub struct Thing;"),
            ("app/src/t.rs", ""),
            ("dep/src/lib.rs", "pub mod x;"),
            ("dep/src/x.rs", ""),
        ]);
        let app = Crate::load(
            dir.path(),
            "app".into(),
            Some("app".into()),
            "app/src/lib.rs",
        )
        .unwrap();
        let dep = Crate::load(
            dir.path(),
            "dep".into(),
            Some("dep".into()),
            "dep/src/lib.rs",
        )
        .unwrap();
        (dir, vec![app, dep])
    }

    #[test]
    fn module_trees_follow_declarations_but_not_test_only_ones() {
        let (_dir, crates) = fixture();
        let mut paths: Vec<&str> = crates[0].files.iter().map(|f| f.path.as_str()).collect();
        paths.sort();
        assert_eq!(
            paths,
            [
                "app/src/a.rs",
                "app/src/a/b.rs",
                "app/src/c/mod.rs",
                "app/src/lib.rs"
            ]
        );
        assert_eq!(
            crates[0].module_file(&strings("inline")),
            crates[0].module_file(&[])
        );
    }

    #[test]
    fn paths_resolve_to_the_deepest_module_file() {
        let (_dir, crates) = fixture();
        let resolver = Resolver::new(&crates);
        let a = crates[0]
            .files
            .iter()
            .position(|f| f.path == "app/src/a.rs")
            .unwrap();
        let aliases = resolver.aliases(0, a);
        // `here` is module `a`; each path resolved and walked to its deepest module file.
        let check = |path: &str, expected: Option<(usize, &str)>| {
            let resolved = resolver
                .absolute(0, &strings("a"), &aliases, &strings(path))
                .map(|abs| {
                    let (file, _) = crates[abs.krate].deepest(&abs.segments);
                    (abs.krate, crates[abs.krate].files[file].path.as_str())
                });
            assert_eq!(resolved, expected, "{path}");
        };
        check("crate::a::b::Item", Some((0, "app/src/a/b.rs")));
        check("self::b::Item", Some((0, "app/src/a/b.rs")));
        check("b::Item", Some((0, "app/src/a/b.rs")));
        check("super::c::Thing", Some((0, "app/src/c/mod.rs")));
        check("see::Thing", Some((0, "app/src/c/mod.rs")));
        check("Thing::new", Some((0, "app/src/c/mod.rs")));
        check("crate::inline::f", Some((0, "app/src/lib.rs")));
        check("dep::x::Y", Some((1, "dep/src/x.rs")));
        check("fmt::Display", None);
        check("std::fmt::Display", None);
        check("super::super::x", None);
        assert!(aliases["Item"].1, "`pub use` is public");
    }
}
