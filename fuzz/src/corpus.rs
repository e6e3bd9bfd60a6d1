//! The repository's real inputs, read once: the ACS library with its rubrics, the examiner
//! benchmark's labelled answers, and the words a rubric listens for.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use viva_blueprint::answer_set::{LabelledAnswer, load_answers};
use viva_blueprint::library::Source;
use viva_blueprint::rubric::RubricSet;
use viva_core::exam::acs::{AcsCatalog, AcsLibrary, Rating};

/// A seed corpus could not be read.
#[derive(Debug, thiserror::Error)]
#[error("corpus: {0}")]
pub struct CorpusError(String);

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file under `dir` whose name ends with `ext`, sorted by path.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for path in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = path.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.to_string_lossy().ends_with(ext) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Every YAML file under `dir` as a blueprint source.
pub fn yaml_sources(dir: &Path) -> Vec<Source> {
    files(dir, ".yaml")
        .into_iter()
        .map(|path| Source {
            text: std::fs::read_to_string(&path).unwrap_or_default(),
            path: path.display().to_string(),
        })
        .collect()
}

fn read(path: &Path) -> Result<String, CorpusError> {
    std::fs::read_to_string(path).map_err(|e| CorpusError(format!("{}: {e}", path.display())))
}

/// The shipped rubrics.
pub fn rubrics() -> Result<RubricSet, CorpusError> {
    RubricSet::load(&yaml_sources(&repo().join("blueprints/rubrics")))
        .map_err(|errors| CorpusError(format!("rubrics: {errors:?}")))
}

/// The two airplane catalogs with the shipped rubrics, as the server loads them.
pub fn acs_library() -> Result<Arc<AcsLibrary>, CorpusError> {
    let dir = repo().join("blueprints/acs");
    let catalog = |rating, name: &str| -> Result<AcsCatalog, CorpusError> {
        let elements = read(&dir.join(format!("acs-{name}-airplane.json")))?;
        let tasks = read(&dir.join(format!("acs-{name}-airplane-tasks.json")))?;
        AcsCatalog::from_json(rating, &elements, &tasks).map_err(|e| CorpusError(e.to_string()))
    };
    let library = AcsLibrary::new(
        catalog(Rating::Private, "private")?,
        catalog(Rating::Commercial, "commercial")?,
    );
    Ok(Arc::new(library.with_rubrics(rubrics()?)))
}

/// The examiner benchmark's labelled answers.
pub fn bench_answers() -> Result<Vec<LabelledAnswer>, CorpusError> {
    load_answers(&yaml_sources(&repo().join("bench/examiner/answers")))
        .map_err(|errors| CorpusError(format!("answers: {errors:?}")))
}
