//! What `viva blueprints check` asks of the scenarios and links beyond their files' own
//! rules: every element exists and is asked orally, every oral area of the Private ACS has a
//! scenario, no scenario question (with the setup read before it) states a fact it expects,
//! and every link's bridge can be said.

use std::collections::BTreeSet;

use super::acs::{AcsLibrary, Rating};
use super::bridges::{lead_in, stated_facts};
use super::queue::{is_oral_eligible, oral_elements};

/// `Ok` when `code` is an element of one of the library's catalogs that is asked orally,
/// else why not: the check the blueprint loaders take for scenario steps and links.
pub fn oral_element(library: &AcsLibrary, code: &str) -> Result<(), String> {
    let rating = library
        .rating_of(code)
        .ok_or_else(|| format!("{code} is not an element of the ACS"))?;
    let catalog = library.catalog(rating);
    match catalog.element(code) {
        Some(element) if is_oral_eligible(element, rating) => Ok(()),
        _ => Err(format!("{code} is not asked orally")),
    }
}

/// The oral areas of `rating`'s ASEL elements that no scenario step asks, in order.
pub fn uncovered_areas(library: &AcsLibrary, rating: Rating) -> Vec<String> {
    let catalog = library.catalog(rating);
    let asked: BTreeSet<&str> = library
        .scenarios()
        .iter()
        .flat_map(|scenario| &scenario.doc.steps)
        .filter_map(|step| catalog.element(&step.element))
        .map(|element| element.area.as_str())
        .collect();
    let mut missing: Vec<String> = Vec::new();
    for element in oral_elements(catalog, "ASEL") {
        let area = element.area.as_str();
        if !asked.contains(area) && !missing.iter().any(|m| m == area) {
            missing.push(area.to_owned());
        }
    }
    missing
}

/// Each scenario question that gives away a fact it expects, heard after the setup: one
/// line per question, naming the file, the step and the facts.
pub fn giveaways(library: &AcsLibrary) -> Vec<String> {
    let mut found = Vec::new();
    for scenario in library.scenarios().iter() {
        let setup = scenario.doc.setup.spoken();
        for (index, step) in scenario.doc.steps.iter().enumerate() {
            let heard = format!("{setup} {}", step.ask);
            let stated: Vec<String> = stated_facts(library, &step.element, &heard)
                .into_iter()
                .filter(|id| step.expects.contains(id))
                .collect();
            if !stated.is_empty() {
                found.push(format!(
                    "{}: steps[{index}] ({}): the setup and question state {}",
                    scenario.file,
                    step.element,
                    stated.join(", ")
                ));
            }
        }
    }
    found
}

/// Each link whose bridge (either way) would state a fact of the element it leads to, and
/// so would never be said.
pub fn silent_links(library: &AcsLibrary) -> Vec<String> {
    let mut found = Vec::new();
    for link in library.links().iter() {
        let Some(rating) = library.rating_of(&link.from) else {
            continue;
        };
        for (previous, next) in [(&link.from, &link.to), (&link.to, &link.from)] {
            if lead_in(library, rating, previous, next).is_none() {
                found.push(format!("{previous} → {next}: the bridge states a fact of {next}"));
            }
        }
    }
    found
}
