//! Test-only access to the real ACS catalogs in `blueprints/acs/`, parsed once.

use std::sync::LazyLock;

use super::super::acs::{AcsCatalog, AcsElement, ElementType, Rating};

static PRIVATE: LazyLock<AcsCatalog> = LazyLock::new(|| {
    AcsCatalog::from_json(
        Rating::Private,
        include_str!("../../../../blueprints/acs/acs-private-airplane.json"),
        include_str!("../../../../blueprints/acs/acs-private-airplane-tasks.json"),
    )
    .expect("private ACS catalog parses")
});

static COMMERCIAL: LazyLock<AcsCatalog> = LazyLock::new(|| {
    AcsCatalog::from_json(
        Rating::Commercial,
        include_str!("../../../../blueprints/acs/acs-commercial-airplane.json"),
        include_str!("../../../../blueprints/acs/acs-commercial-airplane-tasks.json"),
    )
    .expect("commercial ACS catalog parses")
});

/// Both real catalogs.
pub fn catalogs() -> [&'static AcsCatalog; 2] {
    [&PRIVATE, &COMMERCIAL]
}

/// A private-pilot element by code.
pub fn private_element(code: &str) -> &'static AcsElement {
    PRIVATE
        .element(code)
        .unwrap_or_else(|| panic!("no element {code}"))
}

/// Every element an examiner may ask orally: knowledge or risk, not archived.
pub fn oral_elements(catalog: &AcsCatalog) -> impl Iterator<Item = &AcsElement> {
    catalog
        .elements()
        .iter()
        .filter(|element| element.element_type != ElementType::Skill && !element.archived)
}

static LIBRARY: LazyLock<std::sync::Arc<super::super::acs::AcsLibrary>> = LazyLock::new(|| {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints/rubrics");
    let mut paths = Vec::new();
    collect_yaml(&root, &mut paths);
    paths.sort();
    let sources: Vec<viva_blueprint::library::Source> = paths
        .into_iter()
        .map(|path| viva_blueprint::library::Source {
            text: std::fs::read_to_string(&path).expect("a rubric file reads"),
            path: path.display().to_string(),
        })
        .collect();
    let rubrics = viva_blueprint::rubric::RubricSet::load(&sources).expect("the rubrics load");
    std::sync::Arc::new(
        super::super::acs::AcsLibrary::new(PRIVATE.clone(), COMMERCIAL.clone())
            .with_rubrics(rubrics),
    )
});

/// Both real catalogs with the shipped rubrics (`blueprints/rubrics/`).
pub fn library() -> std::sync::Arc<super::super::acs::AcsLibrary> {
    LIBRARY.clone()
}

fn collect_yaml(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the rubrics folder lists") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            collect_yaml(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "yaml") {
            found.push(path);
        }
    }
}
