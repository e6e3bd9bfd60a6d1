//! Scenarios and links: how an examiner threads ACS elements together. A scenario is a flight
//! (route, airplane, passengers, time, weather, a NOTAM or an inoperative item) asked through
//! several elements, each question expecting named facts of the element's rubric. A link
//! says how two elements connect (one requires the other, one applies in the other's
//! situation, or they contrast). Data, loaded and checked here; the planner's use of them is
//! `viva_core::exam::scenarios`.
//!
//! - [`model`]: the YAML documents (`scenarios/*.yaml`, `links/*.yaml`).
//! - [`check`]: every rule a file meets, each error with file, field and line.

pub mod check;
pub mod model;

use std::collections::{BTreeMap, BTreeSet};

pub use check::ElementCheck;
pub use model::{Citation, Link, LinkDoc, LinkKind, ScenarioDoc, Setup, Step};

use crate::error::LoadError;
use crate::library::{Source, parse};
use crate::rubric::{Question, RubricSet};

/// A checked scenario and the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The scenario as written.
    pub doc: ScenarioDoc,
    /// Its file, for messages.
    pub file: String,
}

impl Scenario {
    /// The scenario's id.
    pub fn id(&self) -> &str {
        &self.doc.id
    }

    /// The step asking `element`, if the scenario asks it.
    pub fn step(&self, element: &str) -> Option<&Step> {
        self.doc.steps.iter().find(|step| step.element == element)
    }
}

/// Every scenario, by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScenarioSet {
    by_id: BTreeMap<String, Scenario>,
}

impl ScenarioSet {
    /// Loads and checks scenario files against the rubrics; `element_ok` says whether a code
    /// exists and is asked orally. Every error of every file is reported together.
    pub fn load(
        sources: &[Source],
        rubrics: &RubricSet,
        element_ok: ElementCheck<'_>,
    ) -> Result<ScenarioSet, Vec<LoadError>> {
        let mut set = ScenarioSet::default();
        let mut errors = Vec::new();
        for source in sources {
            let doc = match parse::<ScenarioDoc>(source) {
                Ok(doc) => doc,
                Err(found) => {
                    errors.extend(found);
                    continue;
                }
            };
            let found =
                check::check_scenario(&source.path, &source.text, &doc, rubrics, element_ok);
            if !found.is_empty() {
                errors.extend(found);
                continue;
            }
            if set.by_id.contains_key(&doc.id) {
                let message = format!("scenario {:?} is defined in another file too", doc.id);
                errors.push(LoadError::at(&source.path, "id", message));
                continue;
            }
            let scenario = Scenario {
                doc,
                file: source.path.clone(),
            };
            set.by_id.insert(scenario.doc.id.clone(), scenario);
        }
        if errors.is_empty() {
            return Ok(set);
        }
        crate::yaml::place_in(sources, &mut errors);
        Err(errors)
    }

    /// A scenario by id.
    pub fn get(&self, id: &str) -> Option<&Scenario> {
        self.by_id.get(id)
    }

    /// Every scenario, in id order.
    pub fn iter(&self) -> impl Iterator<Item = &Scenario> {
        self.by_id.values()
    }

    /// How many scenarios there are.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The scenario question on `element` that `asked` ends with (the words asked may open
    /// with the setup or a bridge), as a rubric question for the judge.
    pub fn asked_question(&self, element: &str, asked: &str) -> Option<Question> {
        let asked = asked.trim();
        self.iter()
            .filter_map(|scenario| scenario.step(element))
            .find(|step| asked.ends_with(step.ask.trim()))
            .map(Step::question)
    }
}

/// How a link stands between the element just asked and the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkBetween {
    /// The link's kind.
    pub kind: LinkKind,
    /// Whether the element just asked is the link's `from` (else its `to`).
    pub from_previous: bool,
}

/// Every link, indexed by both of its elements.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LinkSet {
    links: Vec<Link>,
    by_element: BTreeMap<String, Vec<usize>>,
}

impl LinkSet {
    /// Loads and checks link files; `element_ok` says whether a code exists and is asked
    /// orally. A pair of elements is linked once. Every error is reported together.
    pub fn load(
        sources: &[Source],
        element_ok: ElementCheck<'_>,
    ) -> Result<LinkSet, Vec<LoadError>> {
        let mut set = LinkSet::default();
        let mut errors = Vec::new();
        let mut seen = BTreeSet::new();
        for source in sources {
            match parse::<LinkDoc>(source) {
                Ok(doc) => {
                    errors.extend(check::check_links(
                        &source.path,
                        &source.text,
                        &doc,
                        element_ok,
                        &mut seen,
                    ));
                    doc.links.into_iter().for_each(|link| set.add(link));
                }
                Err(found) => errors.extend(found),
            }
        }
        if errors.is_empty() {
            return Ok(set);
        }
        crate::yaml::place_in(sources, &mut errors);
        Err(errors)
    }

    fn add(&mut self, link: Link) {
        let index = self.links.len();
        for code in [&link.from, &link.to] {
            self.by_element.entry(code.clone()).or_default().push(index);
        }
        self.links.push(link);
    }

    /// The link between the element just asked and the next, if there is one.
    pub fn between(&self, previous: &str, next: &str) -> Option<LinkBetween> {
        self.of(previous).find_map(|link| {
            let from_previous = link.from == previous && link.to == next;
            let to_previous = link.to == previous && link.from == next;
            (from_previous || to_previous).then_some(LinkBetween {
                kind: link.kind,
                from_previous,
            })
        })
    }

    /// Every link touching `element`.
    pub fn of(&self, element: &str) -> impl Iterator<Item = &Link> {
        let indexes = self.by_element.get(element).map_or(&[][..], Vec::as_slice);
        indexes.iter().map(|&index| &self.links[index])
    }

    /// Every link, in file order.
    pub fn iter(&self) -> impl Iterator<Item = &Link> {
        self.links.iter()
    }

    /// How many links there are.
    pub fn len(&self) -> usize {
        self.links.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.links.is_empty()
    }
}

#[cfg(test)]
mod tests;
