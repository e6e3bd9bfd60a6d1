//! An element's key terms, and how many of them an answer contains.

use std::collections::HashSet;

use super::super::acs::{AcsElement, SubElement};
use super::text::{KeyTerm, terms_with_words};

/// The text the ACS uses for a withdrawn element or sub-element.
const ARCHIVED_TEXT: &str = "[Archived]";

/// Sub-elements still in force (the ACS keeps withdrawn ones as `[Archived]`).
pub fn live_sub_elements(element: &AcsElement) -> impl Iterator<Item = &SubElement> {
    element
        .sub_elements
        .iter()
        .filter(|sub| sub.text.trim() != ARCHIVED_TEXT)
}

/// The key terms of an element: content terms of its text and live sub-elements (not the
/// task title), deduplicated in first-seen order. A term after a dropped duplicate is not
/// joined to the term before it.
pub fn key_terms(element: &AcsElement) -> Vec<KeyTerm> {
    let mut seen = HashSet::new();
    let mut terms = Vec::new();
    let mut dropped_previous = false;
    let texts = std::iter::once(element.text.as_str())
        .chain(live_sub_elements(element).map(|sub| sub.text.as_str()));
    for mut term in texts.flat_map(terms_with_words) {
        if !seen.insert(term.canonical.clone()) {
            dropped_previous = true;
            continue;
        }
        if std::mem::take(&mut dropped_previous) {
            term.joined_by = None;
        }
        terms.push(term);
    }
    terms
}

/// Which key terms an answer contains: counts, and readable phrases where adjacent key
/// terms with the same status are joined back together (`recent flight experience`).
pub(super) struct Coverage {
    /// How many key terms were heard.
    pub(super) heard: usize,
    /// How many key terms there are.
    pub(super) total: usize,
    /// Readable phrases heard.
    pub(super) covered: Vec<String>,
    /// Readable phrases not heard.
    pub(super) missing: Vec<String>,
}

impl Coverage {
    pub(super) fn of(terms: &[KeyTerm], answer_terms: &HashSet<String>) -> Coverage {
        let mut coverage = Coverage {
            heard: 0,
            total: terms.len(),
            covered: Vec::new(),
            missing: Vec::new(),
        };
        let mut previous_heard = None;
        for term in terms {
            let heard = answer_terms.contains(&term.canonical);
            coverage.heard += usize::from(heard);
            let phrases = if heard {
                &mut coverage.covered
            } else {
                &mut coverage.missing
            };
            match (&term.joined_by, phrases.last_mut()) {
                (Some(joiner), Some(last)) if previous_heard == Some(heard) => {
                    last.push_str(joiner);
                    last.push_str(&term.word);
                }
                _ => phrases.push(term.word.clone()),
            }
            previous_heard = Some(heard);
        }
        coverage
    }

    /// Share heard; `0` for an element without key terms.
    pub(super) fn fraction(&self) -> f32 {
        if self.total == 0 {
            return 0.0;
        }
        self.heard as f32 / self.total as f32
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::private_element;
    use super::*;

    fn words_of(element: &AcsElement) -> Vec<String> {
        key_terms(element)
            .into_iter()
            .map(|term| term.word)
            .collect()
    }

    fn heard(words: &[&str]) -> HashSet<String> {
        words.iter().map(|word| word.to_string()).collect()
    }

    #[test]
    fn key_terms_cover_live_sub_elements_not_the_task_title() {
        let k1 = private_element("PA.I.A.K1");
        let expected = [
            "certification",
            "requirements",
            "recent",
            "flight",
            "experience",
            "recordkeeping",
        ];
        assert_eq!(words_of(k1), expected);
        let k3 = words_of(private_element("PA.I.B.K3"));
        assert!(k3.contains(&"minimum equipment list".to_owned()), "{k3:?}");
        let archived = words_of(private_element("PA.IX.C.K1"));
        assert!(
            !archived.iter().any(|word| word.contains("rchived")),
            "{archived:?}"
        );
    }

    #[test]
    fn a_dropped_duplicate_breaks_the_phrase() {
        let mut element = private_element("PA.I.A.K1").clone();
        element.text = "Alpha, bravo.".to_owned();
        let text = "Alpha golf.".to_owned();
        element.sub_elements = vec![SubElement {
            code: "PA.I.A.K1a".to_owned(),
            text,
        }];
        assert_eq!(words_of(&element), ["alpha", "bravo", "golf"]);
        assert_eq!(key_terms(&element)[2].joined_by, None);
    }

    #[test]
    fn coverage_joins_adjacent_terms_of_the_same_status() {
        let terms = key_terms(private_element("PA.I.A.K1"));
        let check = |answer: &[&str], covered: &[&str], missing: &[&str]| {
            let coverage = Coverage::of(&terms, &heard(answer));
            assert_eq!(coverage.covered, covered, "covered, hearing {answer:?}");
            assert_eq!(coverage.missing, missing, "missing, hearing {answer:?}");
        };
        check(
            &["recent", "experi"],
            &["recent", "experience"],
            &["certification requirements", "flight", "recordkeeping"],
        );
        check(
            &["certif", "requir", "recordkeep"],
            &["certification requirements", "recordkeeping"],
            &["recent flight experience"],
        );
        check(
            &[],
            &[],
            &[
                "certification requirements",
                "recent flight experience",
                "recordkeeping",
            ],
        );
    }

    #[test]
    fn fraction_is_heard_over_total() {
        let terms = key_terms(private_element("PA.I.A.K1"));
        assert_eq!(
            Coverage::of(&terms, &heard(&["recent", "flight", "experi"])).fraction(),
            0.5
        );
        assert_eq!(Coverage::of(&[], &heard(&["recent"])).fraction(), 0.0);
    }
}
