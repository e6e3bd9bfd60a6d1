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
