//! The rules a rubric file meets. Each error names the file, the field path
//! (`elements[0].facts[2].source`), and the line and column of the node it names.

use std::collections::BTreeSet;

use super::model::{ElementRubric, Fact, FactValue, Misconception, Question, RubricDoc};
use crate::error::LoadError;
use crate::ids::is_kebab;
use crate::yaml::Errors;

/// The six ATC light gun signals.
pub const LIGHT_SIGNALS: [&str; 6] = [
    "steady green",
    "flashing green",
    "steady red",
    "flashing red",
    "flashing white",
    "alternating red and green",
];

/// Every error in one parsed rubric file.
pub fn check_doc(file: &str, text: &str, doc: &RubricDoc) -> Vec<LoadError> {
    let mut errors = Errors::new(file, text);
    if !is_code(&doc.task) {
        errors.at("task", format!("{:?} is not an ACS task code", doc.task));
    }
    let mut seen = BTreeSet::new();
    for (index, rubric) in doc.elements.iter().enumerate() {
        let field = format!("elements[{index}]");
        if !rubric.element.starts_with(&format!("{}.", doc.task)) || !is_code(&rubric.element) {
            let message = format!(
                "{:?} is not an element of task {}",
                rubric.element, doc.task
            );
            errors.at(&format!("{field}.element"), message);
        }
        if !seen.insert(rubric.element.as_str()) {
            let message = format!("{} has two rubrics", rubric.element);
            errors.at(&format!("{field}.element"), message);
        }
        check_element(&mut errors, &field, rubric);
    }
    errors.into_found()
}

fn check_element(errors: &mut Errors<'_>, field: &str, rubric: &ElementRubric) {
    if rubric.facts.is_empty() {
        errors.at(
            &format!("{field}.facts"),
            "an element needs at least one fact",
        );
    }
    let mut ids = BTreeSet::new();
    for (index, fact) in rubric.facts.iter().enumerate() {
        check_id(
            errors,
            &format!("{field}.facts[{index}]"),
            &fact.id,
            &mut ids,
        );
        check_fact(errors, &format!("{field}.facts[{index}]"), fact);
    }
    let facts: BTreeSet<&str> = rubric.facts.iter().map(|f| f.id.as_str()).collect();
    check_grading(errors, field, rubric, &facts);
    for (index, misconception) in rubric.misconceptions.iter().enumerate() {
        let at = format!("{field}.misconceptions[{index}]");
        check_id(errors, &at, &misconception.id, &mut ids);
        check_misconception(errors, &at, misconception, rubric);
    }
    for (index, question) in rubric.questions.iter().enumerate() {
        check_question(
            errors,
            &format!("{field}.questions[{index}]"),
            question,
            &facts,
        );
    }
}

fn check_question(
    errors: &mut Errors<'_>,
    field: &str,
    question: &Question,
    facts: &BTreeSet<&str>,
) {
    if !question.ask.trim_end().ends_with('?') {
        errors.at(&format!("{field}.ask"), "a question ends with \"?\"");
    }
    if question.facts.is_empty() {
        let message = "a question asks for at least one fact";
        errors.at(&format!("{field}.facts"), message);
    }
    check_known(errors, &format!("{field}.facts"), &question.facts, facts);
}

fn check_id<'a>(errors: &mut Errors<'_>, field: &str, id: &'a str, ids: &mut BTreeSet<&'a str>) {
    if !is_kebab(id) {
        errors.at(&format!("{field}.id"), format!("{id:?} is not kebab-case"));
    }
    if !ids.insert(id) {
        errors.at(
            &format!("{field}.id"),
            format!("{id:?} is used twice in this element"),
        );
    }
}

fn check_fact(errors: &mut Errors<'_>, field: &str, fact: &Fact) {
    check_text(errors, &format!("{field}.claim"), &fact.claim);
    check_terms(errors, &format!("{field}.terms"), &fact.terms);
    check_source(errors, &format!("{field}.source"), &fact.source);
    if let Some(value) = &fact.value {
        check_value(errors, &format!("{field}.value"), value);
    }
    if let Some(probe) = &fact.probe
        && (probe.trim().is_empty() || !probe.trim_end().ends_with('?'))
    {
        let message = "a probe is one question: not empty, ending with \"?\"";
        errors.at(&format!("{field}.probe"), message);
    }
}

fn check_grading(
    errors: &mut Errors<'_>,
    field: &str,
    rubric: &ElementRubric,
    facts: &BTreeSet<&str>,
) {
    if rubric.satisfactory.is_empty() {
        let message = "a satisfactory answer must state at least one fact";
        errors.at(&format!("{field}.satisfactory"), message);
    }
    check_known(
        errors,
        &format!("{field}.satisfactory"),
        &rubric.satisfactory,
        facts,
    );
    let Some(partial) = &rubric.partial else {
        return;
    };
    let of = partial.counted(&rubric.satisfactory);
    check_known(errors, &format!("{field}.partial.of"), &partial.of, facts);
    let ceiling = if partial.of.is_empty() {
        of.len().saturating_sub(1)
    } else {
        of.len()
    };
    if partial.at_least == 0 || partial.at_least > ceiling {
        let message = format!(
            "at_least must be 1 to {ceiling}: a partial answer states some, not all, of {of:?}"
        );
        errors.at(&format!("{field}.partial.at_least"), message);
    }
}

fn check_known(errors: &mut Errors<'_>, field: &str, ids: &[String], facts: &BTreeSet<&str>) {
    for (index, id) in ids.iter().enumerate() {
        if !facts.contains(id.as_str()) {
            let message = format!("{id:?} is not a fact of this element");
            errors.at(&format!("{field}[{index}]"), message);
        }
    }
}

fn check_misconception(
    errors: &mut Errors<'_>,
    field: &str,
    misconception: &Misconception,
    rubric: &ElementRubric,
) {
    check_text(errors, &format!("{field}.claim"), &misconception.claim);
    check_terms(errors, &format!("{field}.terms"), &misconception.terms);
    check_text(
        errors,
        &format!("{field}.correction"),
        &misconception.correction,
    );
    check_source(errors, &format!("{field}.source"), &misconception.source);
    if let Some(value) = &misconception.value {
        check_value(errors, &format!("{field}.value"), value);
    }
    let Some(target) = &misconception.contradicts else {
        return;
    };
    match rubric.facts.iter().find(|fact| &fact.id == target) {
        None => {
            let message = format!("{target:?} is not a fact of this element");
            errors.at(&format!("{field}.contradicts"), message);
        }
        Some(fact) if fact.value.is_some() && fact.value == misconception.value => {
            let message = format!("the false value equals fact {target:?}'s true one");
            errors.at(&format!("{field}.value"), message);
        }
        Some(_) => {}
    }
}

fn check_text(errors: &mut Errors<'_>, field: &str, text: &str) {
    if text.trim().is_empty() {
        errors.at(field, "must not be empty");
    }
}

fn check_terms(errors: &mut Errors<'_>, field: &str, terms: &[String]) {
    if terms.is_empty() || terms.iter().any(|term| term.trim().is_empty()) {
        errors.at(field, "list at least one phrase, none empty");
    }
    for pair in terms.windows(2) {
        if splits_a_number(&pair[0], &pair[1]) {
            let message = format!(
                "{:?} and {:?} look like one number split at its comma: quote the term \
                 (\"above 12,500 feet\")",
                pair[0], pair[1]
            );
            errors.at(field, message);
        }
    }
}

/// `[above 12,500 feet]` in a YAML flow list is two terms, `above 12` and `500 feet`: the
/// first ends in one to three digits (not a decimal's), the second starts with exactly three.
fn splits_a_number(first: &str, second: &str) -> bool {
    let first = first.trim_end();
    let trailing = first.len() - first.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let before_trailing = first[..first.len() - trailing].chars().last();
    let second = second.trim_start();
    let leading = second.len()
        - second
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    let after_leading = second[leading..].chars().next();
    (1..=3).contains(&trailing)
        && before_trailing != Some('.')
        && leading == 3
        && after_leading.is_none_or(|c| c != '.' && !c.is_ascii_digit())
}

fn check_source(errors: &mut Errors<'_>, field: &str, source: &str) {
    for citation in source.split(';').map(str::trim) {
        if !is_precise_citation(citation) {
            let message = format!(
                "{citation:?} is not a precise citation: name a section (14 CFR 61.57(a)), an \
                 AIM paragraph (AIM 4-2-4), a handbook chapter (FAA-H-8083-25, chapter 15), an \
                 advisory circular (AC 61-98) or the ACS (FAA-S-ACS-6C)"
            );
            errors.at(field, message);
        }
    }
}

/// A section of 14 or 49 CFR, an AIM paragraph, an FAA handbook chapter, an advisory
/// circular, or the ACS.
pub fn is_precise_citation(citation: &str) -> bool {
    if let Some(rest) = citation
        .strip_prefix("14 CFR ")
        .or_else(|| citation.strip_prefix("49 CFR "))
    {
        return starts_with_section(rest);
    }
    if let Some(rest) = citation.strip_prefix("AIM ") {
        return starts_with_numbers(rest, '-', 3);
    }
    if let Some(rest) = citation.strip_prefix("FAA-H-") {
        let (number, chapter) = rest.split_once(',').unwrap_or((rest, ""));
        let chapter = chapter.trim();
        return starts_with_numbers(number, '-', 2)
            && (chapter
                .strip_prefix("chapter ")
                .is_some_and(starts_with_digit)
                || chapter.strip_prefix("appendix ").is_some());
    }
    if let Some(rest) = citation.strip_prefix("AC ") {
        return starts_with_numbers(rest, '-', 2);
    }
    citation.starts_with("FAA-S-ACS-")
}

fn starts_with_digit(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit())
}

/// `61.57`, `91.155(c)`, `830.5`: a part, a dot and a section.
fn starts_with_section(text: &str) -> bool {
    let Some((part, section)) = text.split_once('.') else {
        return false;
    };
    !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) && starts_with_digit(section)
}

/// At least `count` runs of digits joined by `separator` (`4-2-4`, `8083-25`).
fn starts_with_numbers(text: &str, separator: char, count: usize) -> bool {
    let head = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .next()
        .unwrap_or("");
    let runs: Vec<&str> = head.split(separator).collect();
    runs.len() >= count
        && runs[..count]
            .iter()
            .all(|run| !run.is_empty() && starts_with_digit(run))
}

fn check_value(errors: &mut Errors<'_>, field: &str, value: &FactValue) {
    if let Some(problem) = value_problem(value) {
        errors.at(field, problem);
    }
}

/// What is wrong with a typed value, if anything.
fn value_problem(value: &FactValue) -> Option<String> {
    let one_of = |found: &str, allowed: &[&str]| {
        (!allowed.contains(&found)).then(|| format!("{found:?} is not one of {allowed:?}"))
    };
    let amount = |amount: f64| {
        (!amount.is_finite() || amount < 0.0).then(|| format!("{amount} is not a quantity"))
    };
    match value {
        FactValue::Count { amount: n, of } if of.trim().is_empty() => {
            amount(*n).or(Some("say what is counted in `of`".to_owned()))
        }
        FactValue::Count { amount: n, .. } | FactValue::Percent { amount: n } => amount(*n),
        FactValue::Duration { amount: n, unit } => amount(*n).or_else(|| {
            one_of(
                unit,
                &["minutes", "hours", "days", "calendar_months", "years"],
            )
        }),
        FactValue::Altitude { feet, reference } => {
            amount(*feet).or_else(|| one_of(reference, &["agl", "msl"]))
        }
        FactValue::Distance { amount: n, unit } => {
            amount(*n).or_else(|| one_of(unit, &["sm", "nm", "ft"]))
        }
        FactValue::Speed { amount: n, unit } => {
            amount(*n).or_else(|| one_of(unit, &["knots", "mph"]))
        }
        FactValue::Squawk { code } => (code.len() != 4
            || !code.bytes().all(|b| (b'0'..=b'7').contains(&b)))
        .then(|| format!("{code:?} is not four octal digits")),
        FactValue::Frequency { mhz } => amount(*mhz),
        FactValue::LightSignal { signal } => one_of(signal, &LIGHT_SIGNALS),
        FactValue::AirspaceClass { class } => one_of(class, &["A", "B", "C", "D", "E", "G"]),
    }
}

fn is_code(code: &str) -> bool {
    let parts: Vec<&str> = code.split('.').collect();
    parts.len() >= 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_split_at_its_comma_by_a_flow_list_is_caught() {
        assert!(splits_a_number("above 12", "500 feet"));
        assert!(!splits_a_number("above 12,500 feet", "Class A"));
        assert!(!splits_a_number("1200", "7700"));
        assert!(!splits_a_number("flight level 600", "IFR"));
        assert!(!splits_a_number("122.8", "122.7"));
        assert!(!splits_a_number("121.5", "121.5 MHz"));
        assert!(splits_a_number("18", "000 feet MSL"));
    }
    use crate::library::Source;
    use crate::rubric::RubricSet;

    const GOOD: &str = "\
task: PA.I.A
elements:
  - element: PA.I.A.K1
    facts:
      - id: passenger-currency
        claim: Three takeoffs and three landings within the preceding 90 days.
        source: 14 CFR 61.57(a)
        terms: [three takeoffs and landings]
        value: {kind: count, amount: 3, of: takeoffs and landings}
      - id: flight-review
        claim: A flight review every 24 calendar months.
        source: 14 CFR 61.56(c)
        terms: [flight review]
        value: {kind: duration, amount: 24, unit: calendar_months}
    satisfactory: [passenger-currency, flight-review]
    partial: {at_least: 1}
    misconceptions:
      - id: one-landing-a-year
        claim: One landing a year keeps you current.
        terms: [one landing]
        correction: Three takeoffs and three landings within 90 days.
        source: 14 CFR 61.57(a)
        contradicts: passenger-currency
        value: {kind: count, amount: 1, of: takeoffs and landings}
";

    /// The errors of `GOOD` with `from` replaced by `to`, as `file:line:column: field: message`.
    fn errors_with(from: &str, to: &str) -> Vec<String> {
        assert!(GOOD.contains(from), "{from:?} is not in the sample");
        let source = Source {
            path: "r.yaml".into(),
            text: GOOD.replacen(from, to, 1),
        };
        match RubricSet::load(&[source]) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.iter().map(|e| e.to_string()).collect(),
        }
    }

    fn check(from: &str, to: &str, expected: &str) {
        let errors = errors_with(from, to);
        assert!(
            errors.iter().any(|e| e.contains(expected)),
            "{from:?} → {to:?}: expected {expected:?} in {errors:#?}"
        );
    }

    /// Errors are placed by their field path, so a fact id repeated in a later element is
    /// placed there, not on the first line that reads the same.
    #[test]
    fn errors_in_a_later_element_are_placed_on_its_own_lines() {
        let second = GOOD
            .split_once("  - element: PA.I.A.K1\n")
            .map(|(_, rest)| format!("  - element: PA.I.A.K2\n{rest}"))
            .unwrap();
        let text = format!(
            "{GOOD}{}",
            second.replace("id: flight-review", "id: Flight_Review")
        );
        let source = Source {
            path: "r.yaml".into(),
            text,
        };
        let errors: Vec<String> = match RubricSet::load(&[source]) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.iter().map(|e| e.to_string()).collect(),
        };
        let expected = "r.yaml:32:13: elements[1].facts[1].id: \"Flight_Review\" is not kebab-case";
        assert!(errors.iter().any(|e| e.contains(expected)), "{errors:#?}");
    }

    #[test]
    fn a_good_rubric_loads() {
        assert_eq!(errors_with("task", "task"), Vec::<String>::new());
    }

    #[test]
    fn every_rule_names_file_field_and_line() {
        check(
            "element: PA.I.A.K1",
            "element: PA.I.B.K1",
            "r.yaml:3:14: elements[0].element: \"PA.I.B.K1\" is not an element of task PA.I.A",
        );
        check(
            "id: flight-review",
            "id: Flight_Review",
            "r.yaml:10:13: elements[0].facts[1].id: \"Flight_Review\" is not kebab-case",
        );
        check(
            "id: flight-review",
            "id: passenger-currency",
            "r.yaml:10:13: elements[0].facts[1].id: \"passenger-currency\" is used twice",
        );
        check(
            "source: 14 CFR 61.56(c)",
            "source: 14 CFR part 61",
            "r.yaml:12:17: elements[0].facts[1].source: \"14 CFR part 61\" is not a precise citation",
        );
        check(
            "terms: [flight review]",
            "terms: []",
            "r.yaml:13:16: elements[0].facts[1].terms: list at least one phrase",
        );
        check(
            "unit: calendar_months",
            "unit: fortnights",
            "\"fortnights\" is not one of",
        );
        check(
            "satisfactory: [passenger-currency, flight-review]",
            "satisfactory: [passenger-currency, medical]",
            "r.yaml:15:40: elements[0].satisfactory[1]: \"medical\" is not a fact of this element",
        );
        check(
            "partial: {at_least: 1}",
            "partial: {at_least: 2}",
            "at_least must be 1 to 1",
        );
        check(
            "contradicts: passenger-currency",
            "contradicts: nothing",
            "r.yaml:23:22: elements[0].misconceptions[0].contradicts: \"nothing\" is not a fact",
        );
        check("amount: 1, of", "amount: 3, of", "the false value equals");
        check(
            "    facts:",
            "    colour: red\n    facts:",
            "r.yaml:4:5: elements[0].colour: unknown field `colour`",
        );
        check(
            "terms: [flight review]",
            "terms: [flight review]\n        probe: Tell me about your checkride",
            "r.yaml:14:16: elements[0].facts[1].probe: a probe is one question",
        );
    }

    #[test]
    fn a_probe_that_is_one_question_loads() {
        let probe = "terms: [flight review]\n        probe: How long may you go between checks?";
        assert_eq!(
            errors_with("terms: [flight review]", probe),
            Vec::<String>::new()
        );
    }

    #[test]
    fn citations_must_be_precise() {
        for (citation, precise) in [
            ("14 CFR 61.57(a)", true),
            ("14 CFR 91.155", true),
            ("49 CFR 830.5", true),
            ("AIM 4-2-4", true),
            ("AIM 4-3-13(b)", true),
            ("FAA-H-8083-25, chapter 15", true),
            ("FAA-H-8083-25, appendix A", true),
            ("AC 61-98", true),
            ("FAA-S-ACS-6C", true),
            ("14 CFR part 61", false),
            ("AIM chapter 4", false),
            ("FAA-H-8083-25", false),
            ("the PHAK", false),
            ("", false),
        ] {
            assert_eq!(is_precise_citation(citation), precise, "{citation:?}");
        }
    }

    #[test]
    fn typed_values_are_checked() {
        let squawk = |code: &str| FactValue::Squawk { code: code.into() };
        assert_eq!(value_problem(&squawk("7700")), None);
        assert!(value_problem(&squawk("7800")).is_some());
        assert!(value_problem(&squawk("770")).is_some());
        let light = FactValue::LightSignal {
            signal: "steady green".into(),
        };
        assert_eq!(value_problem(&light), None);
        let light = FactValue::LightSignal {
            signal: "blinking blue".into(),
        };
        assert!(value_problem(&light).is_some());
        let class = FactValue::AirspaceClass { class: "F".into() };
        assert!(value_problem(&class).is_some(), "the US has no class F");
        let negative = FactValue::Percent { amount: -1.0 };
        assert!(value_problem(&negative).is_some());
    }
}
