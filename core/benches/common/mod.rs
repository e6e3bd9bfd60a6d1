//! What the benches share: the repository's `blueprints/` and its YAML sources.

use std::path::{Path, PathBuf};

use viva_blueprint::library::Source;

/// The repository's `blueprints/`.
pub fn blueprints() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints")
}

/// Every YAML file under `dir`, sorted by path.
pub fn sources(dir: &Path) -> Vec<Source> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).into_iter().flatten().flatten();
        for path in entries.map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|ext| ext == "yaml") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|path| Source {
            text: std::fs::read_to_string(&path).unwrap_or_default(),
            path: path.display().to_string(),
        })
        .collect()
}
