//! The repository's ACS catalogs, compiled into the test binary.

use std::sync::Arc;

use viva_core::exam::acs::{AcsCatalog, AcsLibrary, Rating};

/// The repository's ACS catalogs (Private and Commercial Airplane).
pub fn library() -> Arc<AcsLibrary> {
    let load = |rating: Rating, elements: &str, tasks: &str| {
        AcsCatalog::from_json(rating, elements, tasks).unwrap()
    };
    Arc::new(AcsLibrary::new(
        load(
            Rating::Private,
            include_str!("../../blueprints/acs/acs-private-airplane.json"),
            include_str!("../../blueprints/acs/acs-private-airplane-tasks.json"),
        ),
        load(
            Rating::Commercial,
            include_str!("../../blueprints/acs/acs-commercial-airplane.json"),
            include_str!("../../blueprints/acs/acs-commercial-airplane-tasks.json"),
        ),
    ))
}
