//! The blueprint files the listening phase reads, the way the server reads them: every YAML
//! under `<dir>/skills/` and `<dir>/rubrics/`, handed to the pure loaders
//! (`BlueprintLibrary::load`, `RubricSet::load`), all errors reported together.

use std::path::{Path, PathBuf};

use viva_blueprint::error::LoadError;
use viva_blueprint::library::{BlueprintLibrary, Source};
use viva_blueprint::rubric::RubricSet;

use super::BenchError;

/// The skills under `<dir>/skills/` (assessments are not needed to generate items).
pub fn load_skills(dir: &Path) -> Result<BlueprintLibrary, BenchError> {
    let skills = read_sources(&dir.join("skills"))?;
    BlueprintLibrary::load(&skills, &[]).map_err(|errors| load_errors("skill", &errors))
}

/// The rubrics under `<dir>/rubrics/`.
pub fn load_rubrics(dir: &Path) -> Result<RubricSet, BenchError> {
    let sources = read_sources(&dir.join("rubrics"))?;
    RubricSet::load(&sources).map_err(|errors| load_errors("rubric", &errors))
}

/// Every load error of `what`, as one corpus error.
pub fn load_errors(what: &str, errors: &[LoadError]) -> BenchError {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    BenchError::Corpus(format!(
        "{} {what} error(s):\n  {}",
        errors.len(),
        lines.join("\n  ")
    ))
}

/// Every YAML file under `dir`, in path order.
pub fn read_sources(dir: &Path) -> Result<Vec<Source>, BenchError> {
    let mut paths = Vec::new();
    collect_yaml(dir, &mut paths)?;
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .map_err(BenchError::io(format!("reading {}", path.display())))?;
            Ok(Source {
                path: path.display().to_string(),
                text,
            })
        })
        .collect()
}

fn collect_yaml(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), BenchError> {
    let listing = std::fs::read_dir(dir).map_err(BenchError::io(format!(
        "listing {} (see --blueprints)",
        dir.display()
    )))?;
    for entry in listing {
        let path = entry
            .map_err(BenchError::io(format!("listing {}", dir.display())))?
            .path();
        if path.is_dir() {
            collect_yaml(&path, found)?;
        } else if path
            .extension()
            .is_some_and(|ext| ext == "yaml" || ext == "yml")
        {
            found.push(path);
        }
    }
    Ok(())
}

/// The repository's `blueprints/` folder, for tests.
#[cfg(test)]
pub(super) fn repository_blueprints() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_skills_and_rubrics_load() {
        let dir = repository_blueprints();
        let skills = load_skills(&dir).expect("skills load");
        assert!(skills.skill("NET.SUBNET.NETWORK_ADDRESS").is_some());
        let rubrics = load_rubrics(&dir).expect("rubrics load");
        assert!(rubrics.get("PA.I.B.K1").is_some());
        assert!(load_skills(Path::new("/nonexistent")).is_err());
    }
}
