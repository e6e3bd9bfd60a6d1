//! How the rubrics cover an ACS catalog: which oral-eligible elements have one, which are
//! still missing, and which rubrics name an element the catalog does not ask orally.

use viva_blueprint::rubric::RubricSet;

use super::acs::AcsCatalog;
use super::queue::{is_oral_eligible, oral_elements};

/// The rubrics of one catalog and aircraft class, against its oral-eligible elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// Oral-eligible elements of the class.
    pub oral: usize,
    /// Those with a rubric.
    pub covered: usize,
    /// Those without one, in document order.
    pub missing: Vec<String>,
    /// Rubrics of this catalog's prefix naming no element, or one not asked orally.
    pub stray: Vec<String>,
}

/// The coverage of `catalog` (for `aircraft_class`) by `rubrics`; rubrics whose codes start
/// with `prefix` (`PA`) belong to it.
pub fn coverage(
    catalog: &AcsCatalog,
    aircraft_class: &str,
    prefix: &str,
    rubrics: &RubricSet,
) -> Coverage {
    let oral = oral_elements(catalog, aircraft_class);
    let missing: Vec<String> = oral
        .iter()
        .filter(|element| rubrics.get(&element.code).is_none())
        .map(|element| element.code.clone())
        .collect();
    let stray = rubrics
        .iter()
        .map(|rubric| rubric.element.as_str())
        .filter(|code| code.split('.').next() == Some(prefix))
        .filter(|code| {
            catalog
                .element(code)
                .is_none_or(|element| !is_oral_eligible(element, catalog.rating()))
        })
        .map(str::to_owned)
        .collect();
    Coverage {
        oral: oral.len(),
        covered: oral.len() - missing.len(),
        missing,
        stray,
    }
}

#[cfg(test)]
mod tests {
    use viva_blueprint::library::Source;

    use super::*;
    use crate::exam::acs::Rating;

    fn private() -> AcsCatalog {
        AcsCatalog::from_json(
            Rating::Private,
            include_str!("../../../blueprints/acs/acs-private-airplane.json"),
            include_str!("../../../blueprints/acs/acs-private-airplane-tasks.json"),
        )
        .expect("the private catalog")
    }

    fn rubric(element: &str) -> String {
        format!(
            "  - element: {element}\n    facts:\n      - id: a\n        claim: A claim.\n        \
             source: 14 CFR 61.57(a)\n        terms: [a]\n    satisfactory: [a]\n"
        )
    }

    fn rubrics(task: &str, elements: &[&str]) -> RubricSet {
        let body: String = elements.iter().map(|e| rubric(e)).collect();
        let source = Source {
            path: "r.yaml".into(),
            text: format!("task: {task}\nelements:\n{body}"),
        };
        RubricSet::load(&[source]).expect("valid rubrics")
    }

    #[test]
    fn covered_missing_and_stray_elements_are_told_apart() {
        let catalog = private();
        // PA.IV.A is a flight skill (never oral); PA.I.A.K9 does not exist.
        let set = rubrics("PA.I.A", &["PA.I.A.K1", "PA.I.A.K2", "PA.I.A.K9"]);
        let found = coverage(&catalog, "ASEL", "PA", &set);
        assert_eq!(found.oral, 292);
        assert_eq!(found.covered, 2);
        assert_eq!(found.missing.len(), 290);
        assert!(!found.missing.contains(&"PA.I.A.K1".to_owned()));
        assert_eq!(found.stray, vec!["PA.I.A.K9".to_owned()]);
        let flight_skill = rubrics("PA.IV.A", &["PA.IV.A.K1"]);
        let found = coverage(&catalog, "ASEL", "PA", &flight_skill);
        assert_eq!(found.stray, vec!["PA.IV.A.K1".to_owned()]);
        let commercial = rubrics("CA.I.A", &["CA.I.A.K1"]);
        assert!(
            coverage(&catalog, "ASEL", "PA", &commercial)
                .stray
                .is_empty()
        );
    }
}
