//! Study pointers for an ACS element: its task's references, with handbook titles spelled out.

use super::super::acs::{AcsElement, AcsTask};
use super::text::join_words;

/// Handbook and manual numbers, with their titles.
const REFERENCE_TITLES: &[(&str, &str)] = &[
    ("FAA-H-8083-1", "Aircraft Weight and Balance Handbook"),
    ("FAA-H-8083-2", "Risk Management Handbook"),
    ("FAA-H-8083-3", "Airplane Flying Handbook"),
    ("FAA-H-8083-15", "Instrument Flying Handbook"),
    ("FAA-H-8083-16", "Instrument Procedures Handbook"),
    (
        "FAA-H-8083-23",
        "Seaplane, Skiplane, and Float/Ski Equipped Helicopter Operations Handbook",
    ),
    (
        "FAA-H-8083-25",
        "Pilot's Handbook of Aeronautical Knowledge",
    ),
    ("FAA-H-8083-28", "Aviation Weather Handbook"),
    (
        "FAA-H-8083-30",
        "Aviation Maintenance Technician Handbook—General",
    ),
    ("AIM", "Aeronautical Information Manual"),
    (
        "POH/AFM",
        "Pilot's Operating Handbook / Airplane Flight Manual",
    ),
];
const CFR_PART_PREFIX: &str = "14 CFR part ";

/// A reference with its title where known: `FAA-H-8083-2 (Risk Management Handbook)`.
fn describe_reference(reference: &str) -> String {
    match REFERENCE_TITLES.iter().find(|(code, _)| *code == reference) {
        Some((_, title)) => format!("{reference} ({title})"),
        None => reference.to_owned(),
    }
}

/// References described, with consecutive `14 CFR part N` merged (`14 CFR parts 61 and 91`).
fn describe_references(references: &[String]) -> Vec<String> {
    let mut described = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for reference in references {
        if let Some(part) = reference.strip_prefix(CFR_PART_PREFIX) {
            parts.push(part.to_owned());
            continue;
        }
        described.extend(cfr_parts(&mut parts));
        described.push(describe_reference(reference));
    }
    described.extend(cfr_parts(&mut parts));
    described
}

/// Drains collected CFR part numbers into one reference, if any.
fn cfr_parts(parts: &mut Vec<String>) -> Option<String> {
    let merged = match parts.len() {
        0 => None,
        1 => Some(format!("{CFR_PART_PREFIX}{}", parts[0])),
        n => Some(format!("14 CFR parts {}", join_words(parts, n))),
    };
    parts.clear();
    merged
}

/// What to study for an element: its task's references (the element's own copy, else the
/// task's), or the ACS task itself where there are none. Never empty.
pub fn source_summary(element: &AcsElement, task: Option<&AcsTask>) -> String {
    let references = match (element.task_references.is_empty(), task) {
        (false, _) => element.task_references.as_slice(),
        (true, Some(task)) => task.references.as_slice(),
        (true, None) => &[],
    };
    if references.is_empty() {
        let title = task.map_or(element.task_title.as_str(), |t| t.task_title.as_str());
        return match title.trim() {
            "" => format!("Study: the ACS task {}.", element.task_code),
            title => format!("Study: the ACS task {} ({title}).", element.task_code),
        };
    }
    format!("Study: {}.", describe_references(references).join("; "))
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{catalogs, oral_elements, private_element};
    use super::*;

    fn check(references: &[&str], expected: &str) {
        let mut element = private_element("PA.I.A.K1").clone();
        element.task_references = references.iter().map(|r| r.to_string()).collect();
        assert_eq!(source_summary(&element, None), expected, "{references:?}");
    }

    #[test]
    fn references_are_described_and_cfr_parts_merged() {
        check(
            &["14 CFR part 61", "AC 68-1", "FAA-H-8083-25"],
            "Study: 14 CFR part 61; AC 68-1; FAA-H-8083-25 (Pilot's Handbook of Aeronautical Knowledge).",
        );
        check(
            &["14 CFR part 61", "14 CFR part 68", "14 CFR part 91", "AIM"],
            "Study: 14 CFR parts 61, 68 and 91; AIM (Aeronautical Information Manual).",
        );
        check(
            &[
                "FAA-H-8083-2",
                "14 CFR part 39",
                "14 CFR part 43",
                "Chart Supplements",
            ],
            "Study: FAA-H-8083-2 (Risk Management Handbook); 14 CFR parts 39 and 43; Chart Supplements.",
        );
        check(&["14 CFR 119.1(e)"], "Study: 14 CFR 119.1(e).");
        check(&[], "Study: the ACS task PA.I.A (Pilot Qualifications).");
    }

    #[test]
    fn task_references_are_the_fallback() {
        let catalog = catalogs()[0];
        let mut element = private_element("PA.I.B.K2").clone();
        element.task_references.clear();
        let summary = source_summary(&element, catalog.task("PA.I.B"));
        assert!(
            summary.starts_with("Study: 14 CFR parts 39, 43 and 91; "),
            "{summary}"
        );
        element.task_title.clear();
        assert_eq!(
            source_summary(&element, None),
            "Study: the ACS task PA.I.B."
        );
    }

    #[test]
    fn every_oral_element_of_both_ratings_has_a_summary() {
        for catalog in catalogs() {
            for element in oral_elements(catalog) {
                let summary = source_summary(element, catalog.task(&element.task_code));
                assert!(
                    summary.starts_with("Study: ") && summary.len() > 10,
                    "{}",
                    element.code
                );
                assert!(summary.ends_with('.'), "{}", element.code);
            }
        }
    }
}
