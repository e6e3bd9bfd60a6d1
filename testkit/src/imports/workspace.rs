//! The workspace read whole: its crates from `Cargo.toml`, and every import among their
//! files resolved into an [`Edge`].

use std::fs;
use std::io;
use std::path::Path;

use super::parse::RefKind;
use super::tree::{Absolute, Aliases, Crate, Resolver};

/// How many `pub use`s an item's path is followed through before the scan gives up.
const MAX_REEXPORTS: usize = 8;

/// One file of one crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId {
    /// The crate's index in [`Workspace::crates`].
    pub krate: usize,
    /// The file's index in that crate.
    pub file: usize,
}

/// One path a file names that resolves into the workspace.
#[derive(Debug, Clone)]
pub struct Edge {
    /// The file that names the path.
    pub from: FileId,
    /// The line the path (its last segment, in a `use` tree) is on.
    pub line: usize,
    /// The path as written: `super::value::Value`.
    pub path: String,
    /// The deepest module file it walks through, then each file a `pub use` of its item
    /// leads to.
    pub targets: Vec<FileId>,
}

impl Edge {
    /// The deepest module file the path walks through.
    pub fn to(&self) -> FileId {
        self.targets[0]
    }
}

/// Every crate of a workspace and every import among their files.
#[derive(Debug)]
pub struct Workspace {
    /// Libraries and binaries of every member, in the order of `[workspace] members`.
    pub crates: Vec<Crate>,
    /// Every path that resolves to a file other than the one naming it.
    pub edges: Vec<Edge>,
    /// `.rs` files under a member's `src/` that no crate compiles outside tests.
    pub unreached: Vec<String>,
}

impl Workspace {
    /// Reads the workspace whose `Cargo.toml` is in `root`.
    pub fn load(root: &Path) -> io::Result<Workspace> {
        let manifest = fs::read_to_string(root.join("Cargo.toml"))?;
        let mut crates = Vec::new();
        for member in workspace_members(&manifest) {
            let dir = if member == "." {
                String::new()
            } else {
                format!("{member}/")
            };
            let package = package_name(&fs::read_to_string(root.join(&dir).join("Cargo.toml"))?)
                .ok_or_else(|| io::Error::other(format!("{dir}Cargo.toml: no [package] name")))?;
            for (name, lib, file) in crate_roots(root, &dir, &package)? {
                crates.push(Crate::load(root, name, lib, &file)?);
            }
        }
        let edges = resolve_edges(&crates);
        let mut unreached = Vec::new();
        for member in workspace_members(&manifest) {
            let dir = if member == "." {
                String::new()
            } else {
                format!("{member}/")
            };
            for file in rust_files(root, &format!("{dir}src"))? {
                if !crates
                    .iter()
                    .any(|c| c.files.iter().any(|f| f.path == file))
                {
                    unreached.push(file);
                }
            }
        }
        unreached.sort();
        Ok(Workspace {
            crates,
            edges,
            unreached,
        })
    }

    /// The path of a file, relative to the workspace root.
    pub fn path(&self, id: FileId) -> &str {
        &self.crates[id.krate].files[id.file].path
    }

    /// Every file of every crate, once each (a file two crates compile is listed twice).
    pub fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        self.crates
            .iter()
            .enumerate()
            .flat_map(|(krate, c)| (0..c.files.len()).map(move |file| FileId { krate, file }))
    }
}

/// Resolves the paths every file names into edges.
fn resolve_edges(crates: &[Crate]) -> Vec<Edge> {
    let resolver = Resolver::new(crates);
    let aliases: Vec<Vec<Aliases>> = crates
        .iter()
        .enumerate()
        .map(|(krate, c)| {
            (0..c.files.len())
                .map(|file| resolver.aliases(krate, file))
                .collect()
        })
        .collect();
    let mut edges = Vec::new();
    for (krate, c) in crates.iter().enumerate() {
        for (file, source) in c.files.iter().enumerate() {
            let from = FileId { krate, file };
            for r in &source.parsed.refs {
                // A path in code through a `use` alias adds nothing: the `use` is the import.
                let through_alias = aliases[krate][file].contains_key(&r.segments[0]);
                if r.kind == RefKind::Code && through_alias {
                    continue;
                }
                let here = [source.module.as_slice(), &r.scope].concat();
                let Some(absolute) =
                    resolver.absolute(krate, &here, &aliases[krate][file], &r.segments)
                else {
                    continue;
                };
                let targets = follow(crates, &aliases, absolute, matches!(r.kind, RefKind::Glob));
                if targets.iter().any(|&t| t != from) {
                    edges.push(Edge {
                        from,
                        line: r.line,
                        path: r.segments.join("::"),
                        targets,
                    });
                }
            }
        }
    }
    edges
}

/// The deepest module file `absolute` walks through, then, while the item after it is a
/// `pub use` there, the file that leads to.
fn follow(
    crates: &[Crate],
    aliases: &[Vec<Aliases>],
    mut absolute: Absolute,
    glob: bool,
) -> Vec<FileId> {
    let mut targets = Vec::new();
    loop {
        let (file, depth) = crates[absolute.krate].deepest(&absolute.segments);
        targets.push(FileId {
            krate: absolute.krate,
            file,
        });
        let item = absolute.segments.get(depth).filter(|_| !glob);
        let next = item.and_then(|item| match aliases[absolute.krate][file].get(item) {
            Some((Some(target), true)) => Some(target),
            _ => None,
        });
        match next {
            Some(target) if targets.len() <= MAX_REEXPORTS => {
                let rest = &absolute.segments[depth + 1..];
                absolute = Absolute {
                    krate: target.krate,
                    segments: [&target.segments[..], rest].concat(),
                };
            }
            _ => return targets,
        }
    }
}

/// The crates of the package in `dir`: its library, its main binary, its `src/bin/` binaries.
fn crate_roots(
    root: &Path,
    dir: &str,
    package: &str,
) -> io::Result<Vec<(String, Option<String>, String)>> {
    let mut roots = Vec::new();
    let lib = format!("{dir}src/lib.rs");
    if root.join(&lib).is_file() {
        roots.push((package.to_string(), Some(package.replace('-', "_")), lib));
    }
    let main = format!("{dir}src/main.rs");
    if root.join(&main).is_file() {
        roots.push((package.to_string(), None, main));
    }
    let bin_dir = root.join(format!("{dir}src/bin"));
    if bin_dir.is_dir() {
        let mut bins = Vec::new();
        for entry in fs::read_dir(&bin_dir)? {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".rs") {
                bins.push((stem.to_string(), None, format!("{dir}src/bin/{name}")));
            } else if bin_dir.join(&name).join("main.rs").is_file() {
                bins.push((name.clone(), None, format!("{dir}src/bin/{name}/main.rs")));
            }
        }
        bins.sort();
        roots.extend(bins);
    }
    Ok(roots)
}

/// Every `.rs` file under `dir` (relative to `root`), as relative paths.
fn rust_files(root: &Path, dir: &str) -> io::Result<Vec<String>> {
    let mut files = Vec::new();
    if !root.join(dir).is_dir() {
        return Ok(files);
    }
    for entry in fs::read_dir(root.join(dir))? {
        let entry = entry?;
        let path = format!("{dir}/{}", entry.file_name().to_string_lossy());
        if entry.file_type()?.is_dir() {
            files.extend(rust_files(root, &path)?);
        } else if path.ends_with(".rs") {
            files.push(path);
        }
    }
    Ok(files)
}

/// The quoted strings of `members = [ … ]` in the `[workspace]` table.
fn workspace_members(manifest: &str) -> Vec<String> {
    let Some(table) = table(manifest, "workspace") else {
        return Vec::new();
    };
    let Some(start) = table.find("members") else {
        return Vec::new();
    };
    let list = &table[start..];
    let list = &list[list.find('[').map_or(list.len(), |k| k + 1)..];
    let list = &list[..list.find(']').unwrap_or(list.len())];
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The `name = "…"` of the `[package]` table.
fn package_name(manifest: &str) -> Option<String> {
    table(manifest, "package")?.lines().find_map(|line| {
        let value = line
            .trim()
            .strip_prefix("name")?
            .trim_start()
            .strip_prefix('=')?;
        Some(value.trim().trim_matches('"').to_string())
    })
}

/// The text of table `[name]`, up to the next table header.
fn table(manifest: &str, name: &str) -> Option<String> {
    let header = format!("[{name}]");
    let mut lines = manifest.lines().skip_while(|l| l.trim() != header);
    lines.next()?;
    Some(
        lines
            .take_while(|l| !l.trim_start().starts_with('['))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// A temporary directory holding `files` (`(path, text)`), for this scan's tests.
#[cfg(test)]
pub(super) fn write_files(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "[workspace]\nmembers = [\".\",\n  \"core\", \"redis-store\"]\nresolver = \"2\"\n\n\
                            [package]\nname = \"viva\"\nversion = \"1\"\n[dependencies]\nname = \"no\"\n";

    #[test]
    fn manifests_are_read() {
        assert_eq!(workspace_members(MANIFEST), [".", "core", "redis-store"]);
        assert_eq!(package_name(MANIFEST).as_deref(), Some("viva"));
        assert_eq!(package_name("[workspace]\nmembers = []"), None);
    }

    /// A two-crate workspace: `app` imports `dep` through a re-export, and names its own
    /// modules several ways; `dep` re-exports `inner::Thing` at its root.
    #[test]
    fn edges_name_line_path_and_the_files_reexports_lead_to() {
        let dir = write_files(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"app\", \"dep\"]\n"),
            ("app/Cargo.toml", "[package]\nname = \"my-app\"\n"),
            (
                "app/src/main.rs",
                "mod a;\nuse dep::Thing;\nfn main() { a::run(); }\n",
            ),
            (
                "app/src/a.rs",
                "// crate::nothing\npub fn run() {\n    let _ = \"crate::no\";\n    crate::main();\n}\n",
            ),
            ("app/src/orphan.rs", ""),
            ("dep/Cargo.toml", "[package]\nname = \"dep\"\n"),
            ("dep/src/lib.rs", "mod inner;\npub use inner::Thing;\n"),
            (
                "dep/src/inner.rs",
                "pub struct Thing;\n#[cfg(test)]\nmod tests { use crate::Thing; }\n",
            ),
        ]);
        let ws = Workspace::load(dir.path()).unwrap();
        let written: Vec<String> = ws
            .edges
            .iter()
            .map(|e| {
                let targets: Vec<&str> = e.targets.iter().map(|&t| ws.path(t)).collect();
                format!(
                    "{}:{} {} -> {}",
                    ws.path(e.from),
                    e.line,
                    e.path,
                    targets.join(" -> ")
                )
            })
            .collect();
        assert_eq!(
            written,
            [
                "app/src/main.rs:2 dep::Thing -> dep/src/lib.rs -> dep/src/inner.rs",
                "app/src/main.rs:3 a::run -> app/src/a.rs",
                "app/src/a.rs:4 crate::main -> app/src/main.rs",
                "dep/src/lib.rs:2 inner::Thing -> dep/src/inner.rs",
            ]
        );
        assert_eq!(ws.unreached, ["app/src/orphan.rs"]);
        assert_eq!(ws.crates[0].name, "my-app");
    }
}
