//! Categorical domains: declared once under `rubrics/domains/`, checked, and handed to each
//! fact slot that names them, so a rubric carries every phrase its checks need.

use std::collections::BTreeMap;

use super::model::{Domain, DomainDoc, ElementRubric, Slot};
use crate::error::LoadError;
use crate::ids::is_kebab;

/// Whether a rubric source is a domain file: it lies under a `domains` folder.
pub fn is_domain_file(path: &str) -> bool {
    path.split(['/', '\\'])
        .rev()
        .skip(1)
        .any(|part| part == "domains")
}

/// Every domain, by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Domains {
    by_id: BTreeMap<String, Domain>,
}

impl Domains {
    /// Adds a file's domains; a domain declared twice, an id that is not kebab-case, an
    /// empty member or a phrase two members share is an error.
    pub fn add(&mut self, file: &str, doc: DomainDoc) -> Vec<LoadError> {
        let mut errors = Vec::new();
        for (index, domain) in doc.domains.into_iter().enumerate() {
            let field = format!("domains[{index}]");
            errors.extend(domain_problems(&domain).map(|m| LoadError::at(file, &field, m)));
            if self.by_id.contains_key(&domain.id) {
                let message = format!("domain {} is declared twice", domain.id);
                errors.push(LoadError::at(file, format!("{field}.id"), message));
                continue;
            }
            self.by_id.insert(domain.id.clone(), domain);
        }
        errors
    }

    /// The domain `id`.
    pub fn get(&self, id: &str) -> Option<&Domain> {
        self.by_id.get(id)
    }

    /// Every domain, in id order.
    pub fn iter(&self) -> impl Iterator<Item = &Domain> {
        self.by_id.values()
    }

    /// Checks `rubric`'s slots against the domains and hands each slot the domains it
    /// names; `file` and `field` (the rubric's path, `elements[2]`) place the errors.
    pub fn resolve(&self, file: &str, field: &str, rubric: &mut ElementRubric) -> Vec<LoadError> {
        let mut errors = Vec::new();
        for (index, fact) in rubric.facts.iter_mut().enumerate() {
            let Some(slot) = fact.slot.as_mut() else {
                continue;
            };
            let field = format!("{field}.facts[{index}].slot");
            for problem in self.slot_problems(slot) {
                errors.push(LoadError::at(file, &field, problem));
            }
            slot.domains = self.named_by(slot);
        }
        errors
    }

    fn slot_problems(&self, slot: &Slot) -> Vec<String> {
        let mut problems = Vec::new();
        if slot.subject.iter().all(|s| s.trim().is_empty()) {
            problems.push("a slot needs a subject".to_owned());
        }
        if slot.modality.is_some() && slot.attribute.is_empty() {
            problems.push("a modality needs an attribute".to_owned());
        }
        if slot.tolerance.is_some_and(|t| !t.is_finite() || t < 0.0) {
            problems.push("a tolerance is a quantity, zero or more".to_owned());
        }
        for pair in slot.is.iter().chain(&slot.when) {
            if let Some(problem) = self.pair_problem(pair) {
                problems.push(problem);
            }
        }
        problems
    }

    fn pair_problem(&self, pair: &str) -> Option<String> {
        let Some((domain, member)) = pair.split_once('.') else {
            return Some(format!("{pair:?} is not domain.member"));
        };
        match self.by_id.get(domain) {
            None => Some(format!("no domain {domain:?} is declared")),
            Some(found) if !found.members.contains_key(member) => {
                Some(format!("domain {domain} has no member {member:?}"))
            }
            Some(_) => None,
        }
    }

    fn named_by(&self, slot: &Slot) -> Vec<Domain> {
        let mut ids: Vec<&str> = slot
            .values()
            .chain(slot.conditions())
            .map(|(d, _)| d)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids.iter()
            .filter_map(|id| self.by_id.get(*id))
            .cloned()
            .collect()
    }
}

fn domain_problems(domain: &Domain) -> impl Iterator<Item = String> + '_ {
    let mut problems = Vec::new();
    if !is_kebab(&domain.id) {
        problems.push(format!("domain id {:?} is not kebab-case", domain.id));
    }
    if domain.members.len() < 2 {
        problems.push(format!("domain {} needs two members or more", domain.id));
    }
    let mut owner: BTreeMap<String, &str> = BTreeMap::new();
    for (member, phrases) in &domain.members {
        if !is_kebab(member) {
            problems.push(format!("member {member:?} is not kebab-case"));
        }
        if phrases.iter().all(|p| p.trim().is_empty()) {
            problems.push(format!("member {member} needs a phrase"));
        }
        for phrase in phrases {
            let key = phrase.trim().to_lowercase();
            if let Some(other) = owner.insert(key, member) {
                problems.push(format!("{phrase:?} says both {other} and {member}"));
            }
        }
    }
    problems.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> DomainDoc {
        crate::yaml::parse_str("domains.yaml", text).expect("a domain document")
    }

    const TIME: &str = "domains:\n  - id: time-of-day\n    members:\n      day: [day, daytime]\n      night: [night, at night]\n";

    #[test]
    fn domain_files_are_told_by_their_folder() {
        assert!(is_domain_file("blueprints/rubrics/domains/chart.yaml"));
        assert!(!is_domain_file("blueprints/rubrics/private/PA.I.A.yaml"));
        assert!(!is_domain_file("domains.yaml"));
    }

    #[test]
    fn a_domain_declared_twice_or_a_shared_phrase_is_refused() {
        let mut domains = Domains::default();
        assert!(domains.add("a.yaml", doc(TIME)).is_empty());
        let again = domains.add("b.yaml", doc(TIME));
        assert!(again[0].message.contains("declared twice"), "{again:?}");
        let shared =
            "domains:\n  - id: trend\n    members:\n      up: [more]\n      down: [More]\n";
        let errors = Domains::default().add("c.yaml", doc(shared));
        assert!(errors[0].message.contains("says both"), "{errors:?}");
    }
}
