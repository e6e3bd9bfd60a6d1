//! The shipped rubrics, scenarios and links, read from the repository's `blueprints/` once,
//! in a library over the real ACS catalogs, for in-file tests.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use viva_blueprint::library::Source;
use viva_blueprint::rubric::RubricSet;
use viva_blueprint::scenario::{LinkSet, ScenarioSet};

use super::acs::AcsLibrary;
use super::queue::tests::{commercial_catalog, private_catalog};
use super::scenario_check::oral_element;

static LIBRARY: LazyLock<AcsLibrary> = LazyLock::new(load);

/// The real catalogs with the shipped rubrics, scenarios and links.
pub(crate) fn library() -> &'static AcsLibrary {
    &LIBRARY
}

fn load() -> AcsLibrary {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints");
    let rubrics = RubricSet::load(&sources(&root.join("rubrics"))).expect("the rubrics load");
    let bare = AcsLibrary::new(private_catalog(), commercial_catalog());
    let oral = |code: &str| oral_element(&bare, code);
    let scenarios = ScenarioSet::load(&sources(&root.join("scenarios")), &rubrics, &oral)
        .unwrap_or_else(|errors| panic!("the scenarios load: {errors:#?}"));
    let links = LinkSet::load(&sources(&root.join("links")), &oral)
        .unwrap_or_else(|errors| panic!("the links load: {errors:#?}"));
    bare.with_rubrics(rubrics)
        .with_scenarios(scenarios)
        .with_links(links)
}

fn sources(dir: &Path) -> Vec<Source> {
    let mut paths = Vec::new();
    collect(dir, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| Source {
            text: std::fs::read_to_string(&path).expect("a readable blueprint"),
            path: path.display().to_string(),
        })
        .collect()
}

fn collect(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "yaml") {
            found.push(path);
        }
    }
}
