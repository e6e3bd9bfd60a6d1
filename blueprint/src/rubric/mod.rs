//! Rubrics: what an examiner knows about each ACS element — key facts with their sources and
//! typed values, what a satisfactory or partial answer states, and the misconceptions
//! candidates hold with their corrections. Data, loaded and checked here; judging answers
//! against them is the assessor's.
//!
//! - [`model`]: the YAML documents (one file per ACS task).
//! - [`check`]: every rule a rubric file must meet, each error with file, field and line.

pub mod check;
pub mod domains;
pub mod model;

use std::collections::BTreeMap;

pub use domains::Domains;
pub use model::{
    Domain, DomainDoc, ElementRubric, Fact, FactValue, Misconception, Modality, Partial, Question,
    RubricDoc, Slot,
};

use crate::error::LoadError;
use crate::library::{Source, parse};

/// Every rubric, by element code.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RubricSet {
    by_element: BTreeMap<String, ElementRubric>,
    domains: Domains,
}

impl RubricSet {
    /// Loads and checks rubric files and the domain files among them (under a `domains`
    /// folder); every error of every file is reported together.
    pub fn load(sources: &[Source]) -> Result<RubricSet, Vec<LoadError>> {
        let mut set = RubricSet::default();
        let mut errors = Vec::new();
        let (domain_files, rubric_files): (Vec<&Source>, Vec<&Source>) = sources
            .iter()
            .partition(|source| domains::is_domain_file(&source.path));
        for source in domain_files {
            match parse::<DomainDoc>(source) {
                Ok(doc) => errors.extend(set.domains.add(&source.path, doc)),
                Err(found) => errors.extend(found),
            }
        }
        for source in rubric_files {
            let mut doc = match parse::<RubricDoc>(source) {
                Ok(doc) => doc,
                Err(found) => {
                    errors.extend(found);
                    continue;
                }
            };
            errors.extend(check::check_doc(&source.path, &source.text, &doc));
            for (index, rubric) in doc.elements.iter_mut().enumerate() {
                let field = format!("elements[{index}]");
                errors.extend(set.domains.resolve(&source.path, &field, rubric));
            }
            for (index, rubric) in doc.elements.into_iter().enumerate() {
                if set.by_element.contains_key(&rubric.element) {
                    let field = format!("elements[{index}].element");
                    let message = format!("{} has a rubric in another file too", rubric.element);
                    errors.push(LoadError::at(&source.path, field, message));
                    continue;
                }
                set.by_element.insert(rubric.element.clone(), rubric);
            }
        }
        if errors.is_empty() {
            return Ok(set);
        }
        crate::yaml::place_in(sources, &mut errors);
        Err(errors)
    }

    /// The rubric of `element`, if it has one.
    pub fn get(&self, element: &str) -> Option<&ElementRubric> {
        self.by_element.get(element)
    }

    /// Every rubric, in element-code order.
    pub fn iter(&self) -> impl Iterator<Item = &ElementRubric> {
        self.by_element.values()
    }

    /// How many elements have a rubric.
    pub fn len(&self) -> usize {
        self.by_element.len()
    }

    /// The categorical domains the rubrics share.
    pub fn domains(&self) -> &Domains {
        &self.domains
    }

    /// Whether no element has a rubric.
    pub fn is_empty(&self) -> bool {
        self.by_element.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_in_two_files_is_refused() {
        let text = "task: PA.I.A\nelements:\n  - element: PA.I.A.K1\n    facts:\n      - id: a\n        claim: A true claim.\n        source: 14 CFR 61.57(a)\n        terms: [a]\n    satisfactory: [a]\n";
        let source = |path: &str| Source {
            path: path.into(),
            text: text.into(),
        };
        let errors = RubricSet::load(&[source("one.yaml"), source("two.yaml")]).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].file, "two.yaml");
        assert!(errors[0].message.contains("another file"), "{errors:?}");
    }
}
