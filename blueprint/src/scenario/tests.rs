//! Table tests of the scenario and link rules: each broken file is refused with its line,
//! column, field and reason.

use super::*;

const RUBRICS: &str = "task: PA.I.A
elements:
  - element: PA.I.A.K1
    facts:
      - id: currency
        claim: Three takeoffs and landings.
        source: 14 CFR 61.57(a)
        terms: [three takeoffs and landings]
    satisfactory: [currency]
  - element: PA.I.A.K2
    facts:
      - id: privileges
        claim: No compensation.
        source: 14 CFR 61.113(a)
        terms: [compensation]
    satisfactory: [privileges]
  - element: PA.I.A.K3
    facts:
      - id: medical
        claim: A third-class medical.
        source: 14 CFR 61.23(a)
        terms: [third class]
    satisfactory: [medical]
";

const SCENARIO: &str = "id: sunday-trip
title: A Sunday trip
setup:
  route: You plan a flight from Frederick to Hagerstown.
  aircraft: You rent a Cessna 172.
  passengers: Two friends come along.
  time_of_day: You leave at noon.
  weather: Clear skies.
  notam: A NOTAM closes runway 5-23 at Hagerstown.
cites:
  - says: A closed runway may not be used.
    source: AIM 5-1-3
steps:
  - element: PA.I.A.K1
    ask: What must you have done to take your friends along?
    expects: [currency]
  - element: PA.I.A.K2
    ask: Can your friends pay for the whole rental?
    expects: [privileges]
  - element: PA.I.A.K3
    ask: What medical certificate do you need?
    expects: [medical]
";

fn source(path: &str, text: &str) -> Source {
    Source {
        path: path.into(),
        text: text.into(),
    }
}

fn rubrics() -> RubricSet {
    RubricSet::load(&[source("r.yaml", RUBRICS)]).expect("the test rubrics load")
}

fn oral(code: &str) -> Result<(), String> {
    match code.starts_with("PA.I.") {
        true => Ok(()),
        false => Err(format!("{code} is not asked orally")),
    }
}

/// Loads `text` as one scenario file and returns its errors as `file:line:column: field: message`.
fn scenario_errors(text: &str) -> Vec<String> {
    match ScenarioSet::load(&[source("s.yaml", text)], &rubrics(), &oral) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_valid_scenario_loads_and_finds_its_questions() {
    let set = ScenarioSet::load(&[source("s.yaml", SCENARIO)], &rubrics(), &oral).unwrap();
    let scenario = set.get("sunday-trip").unwrap();
    assert_eq!(scenario.doc.steps.len(), 3);
    assert!(scenario.doc.setup.spoken().starts_with("You plan a flight"));
    let asked = format!(
        "{} Can your friends pay for the whole rental?",
        scenario.doc.setup.spoken()
    );
    let question = set.asked_question("PA.I.A.K2", &asked).unwrap();
    assert_eq!(question.facts, ["privileges"]);
    assert_eq!(
        set.asked_question("PA.I.A.K1", &asked),
        None,
        "another step's words"
    );
}

#[test]
fn broken_scenarios_are_refused_with_field_line_and_reason() {
    let cases: [(&str, &str, &str, &str); 9] = [
        (
            "id: sunday-trip",
            "id: Sunday Trip",
            "s.yaml:1:5: id: ",
            "kebab-case",
        ),
        (
            "    expects: [privileges]",
            "    expects: [privilege]",
            "s.yaml:19:15: steps[1].expects[0]: ",
            "\"privilege\" is not a fact of PA.I.A.K2's rubric",
        ),
        (
            "  - element: PA.I.A.K3",
            "  - element: PA.IV.A.K3",
            "s.yaml:20:14: steps[2].element: ",
            "PA.IV.A.K3 is not asked orally",
        ),
        (
            "  - element: PA.I.A.K3",
            "  - element: PA.I.A.K4",
            "s.yaml:20:14: steps[2].element: ",
            "PA.I.A.K4 has no rubric",
        ),
        (
            "  - element: PA.I.A.K3",
            "  - element: PA.I.A.K1",
            "s.yaml:20:14: steps[2].element: ",
            "asked twice",
        ),
        (
            "the whole rental?",
            "the whole rental.",
            "s.yaml:18:10: steps[1].ask: ",
            "ends with \"?\"",
        ),
        (
            "  notam: A NOTAM closes runway 5-23 at Hagerstown.\n",
            "",
            "s.yaml:4:3: setup: ",
            "a NOTAM or an inoperative item",
        ),
        (
            "    source: AIM 5-1-3",
            "    source: the AIM",
            "s.yaml:12:13: cites[0].source: ",
            "not a precise citation",
        ),
        (
            "    expects: [medical]\n",
            "    expects: []\n",
            "s.yaml:22:14: steps[2].expects: ",
            "at least one fact",
        ),
    ];
    for (from, to, place, reason) in cases {
        assert!(SCENARIO.contains(from), "{from}");
        let errors = scenario_errors(&SCENARIO.replacen(from, to, 1));
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with(place) && e.contains(reason)),
            "{to:?}: expected {place} … {reason}, got {errors:?}"
        );
    }
}

#[test]
fn a_scenario_too_short_or_defined_twice_is_refused() {
    let short = SCENARIO.split("  - element: PA.I.A.K2").next().unwrap();
    let errors = scenario_errors(short);
    assert!(
        errors.iter().any(|e| e.contains("3 to 8 steps, not 1")),
        "{errors:?}"
    );
    let twice = ScenarioSet::load(
        &[source("a.yaml", SCENARIO), source("b.yaml", SCENARIO)],
        &rubrics(),
        &oral,
    )
    .unwrap_err();
    assert_eq!(twice.len(), 1, "{twice:?}");
    assert!(
        twice[0].to_string().starts_with("b.yaml:1:5: id: "),
        "{twice:?}"
    );
}

const LINKS: &str = "links:
  - from: PA.I.A.K2
    to: PA.I.A.K1
    kind: requires
  - from: PA.I.A.K3
    to: PA.I.A.K1
    kind: contrasts_with
";

fn link_errors(text: &str) -> Vec<String> {
    match LinkSet::load(&[source("l.yaml", text)], &oral) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn links_are_found_from_either_end() {
    let set = LinkSet::load(&[source("l.yaml", LINKS)], &oral).unwrap();
    let check = |previous: &str, next: &str, expected: Option<(LinkKind, bool)>| {
        let found = set
            .between(previous, next)
            .map(|l| (l.kind, l.from_previous));
        assert_eq!(found, expected, "{previous} → {next}");
    };
    check("PA.I.A.K2", "PA.I.A.K1", Some((LinkKind::Requires, true)));
    check("PA.I.A.K1", "PA.I.A.K2", Some((LinkKind::Requires, false)));
    check(
        "PA.I.A.K1",
        "PA.I.A.K3",
        Some((LinkKind::ContrastsWith, false)),
    );
    check("PA.I.A.K2", "PA.I.A.K3", None);
    assert_eq!(set.of("PA.I.A.K1").count(), 2);
}

#[test]
fn broken_links_are_refused_with_field_line_and_reason() {
    let cases = [
        (
            "to: PA.I.A.K1\n    kind: requires",
            "to: PA.IV.A.K1\n    kind: requires",
            "l.yaml:3:9: links[0].to: ",
            "not asked orally",
        ),
        (
            "to: PA.I.A.K1\n    kind: requires",
            "to: PA.I.A.K2\n    kind: requires",
            "l.yaml:3:9: links[0].to: ",
            "linked to itself",
        ),
        (
            "from: PA.I.A.K3",
            "from: PA.I.A.K2",
            "l.yaml:5:5: links[1]: ",
            "linked twice",
        ),
        (
            "kind: contrasts_with",
            "kind: opposes",
            "l.yaml:7:11: links[1].kind: ",
            "unknown variant",
        ),
    ];
    for (from, to, place, reason) in cases {
        let errors = link_errors(&LINKS.replacen(from, to, 1));
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with(place) && e.contains(reason)),
            "{to:?}: expected {place} … {reason}, got {errors:?}"
        );
    }
}
