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
                found.push(format!(
                    "{previous} → {next}: the bridge states a fact of {next}"
                ));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::test_scenarios::library;

    #[test]
    fn the_shipped_scenarios_cover_every_oral_private_area() {
        let library = library();
        assert!(
            library.scenarios().len() >= 12,
            "{}",
            library.scenarios().len()
        );
        assert_eq!(
            uncovered_areas(library, Rating::Private),
            Vec::<String>::new()
        );
        let commercial = uncovered_areas(library, Rating::Commercial);
        assert!(!commercial.is_empty(), "the scenarios are Private ones");
    }

    #[test]
    fn no_shipped_scenario_question_gives_away_a_fact_it_expects() {
        assert_eq!(giveaways(library()), Vec::<String>::new());
    }

    #[test]
    fn every_shipped_link_bridges_both_ways_without_stating_a_fact() {
        assert!(library().links().len() >= 40);
        assert_eq!(silent_links(library()), Vec::<String>::new());
    }

    #[test]
    fn a_question_that_states_its_fact_is_a_giveaway() {
        let library = library();
        let stated = stated_facts(
            library,
            "PA.I.A.K1",
            "You need three takeoffs and three landings in the last 90 days, right?",
        );
        assert!(
            stated.contains(&"passenger-currency".to_owned()),
            "{stated:?}"
        );
        assert!(
            stated.contains(&"passenger-currency-window".to_owned()),
            "{stated:?}"
        );
        let asked = "What recent experience do you need to take friends along?";
        assert!(stated_facts(library, "PA.I.A.K1", asked).is_empty());
    }

    #[test]
    fn elements_must_exist_and_be_asked_orally() {
        let library = library();
        let check = |code: &str| oral_element(library, code).map_err(|why| why.contains(code));
        assert_eq!(check("PA.I.A.K1"), Ok(()));
        assert_eq!(check("PA.IV.A.K1"), Err(true), "a flight skill area");
        assert_eq!(check("PA.I.A.K99"), Err(true), "no such element");
        assert_eq!(check("CA.I.A.K1"), Ok(()));
    }
}
