//! `viva blueprints check` and start-up: a bad blueprint is refused with its file, field and
//! position; the shipped ones pass.

use std::process::Command;

use crate::harness::viva_bin;

const BAD_SKILL: &str = r#"
skill_id: "BROKEN.SKILL"
generation:
  item_type: multiple_choice
  parameters: {a: {type: integer, min: 1, max: 9}}
  answer_formula: "a +* 2"
  answer_type: integer
  difficulty_levels: {easy: {constraints: []}, medium: {constraints: []}, hard: {constraints: ["b > 1"]}}
presentation: {stem_templates: ["{a}?"], option_count: 4}
"#;

fn check(dir: &std::path::Path) -> std::process::Output {
    Command::new(viva_bin())
        .args(["blueprints", "check"])
        .arg(dir)
        .output()
        .expect("run viva blueprints check")
}

#[test]
fn shipped_blueprints_pass_the_check() {
    let output = check(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/blueprints"
    )));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("26 skills and 3 assessments"), "{stdout}");
    assert!(
        stdout.contains("rubrics cover 292 of 292 oral-eligible private ASEL elements"),
        "every Private ASEL oral element has a rubric: {stdout}"
    );
    assert!(
        stdout.contains("rubrics cover 246 of 246 oral-eligible commercial ASEL elements"),
        "every Commercial ASEL oral element has a rubric: {stdout}"
    );
    let total = stdout
        .lines()
        .find(|line| line.starts_with("mutants: "))
        .unwrap_or_else(|| panic!("a mutant total: {stdout}"));
    assert!(total.contains("goal 98 %: met"), "{total}");
    assert!(
        stdout.contains("14 scenarios (86 questions) cover every oral Private area; 51 links"),
        "{stdout}"
    );
}

/// A scenario expecting a fact its element's rubric does not have, then a link from an
/// element to itself: each refused as `file:line:column: field: why`.
#[test]
fn a_bad_scenario_or_link_is_reported_with_file_field_and_line() {
    let dir = tempfile::tempdir().expect("blueprints dir");
    let shipped = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/blueprints"));
    for folder in ["acs", "rubrics"] {
        std::os::unix::fs::symlink(shipped.join(folder), dir.path().join(folder))
            .expect("link the shipped data");
    }
    std::fs::create_dir(dir.path().join("scenarios")).expect("scenarios dir");
    let night = std::fs::read_to_string(shipped.join("scenarios/night-passengers-lancaster.yaml"))
        .expect("a shipped scenario");
    let broken = night.replace("expects: [night-currency]", "expects: [night-curency]");
    std::fs::write(dir.path().join("scenarios/night.yaml"), broken).expect("write");
    let output = check(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("night.yaml:19:15: steps[0].expects[0]: ")
            && stderr.contains("\"night-curency\" is not a fact of PA.I.A.K1's rubric"),
        "{stderr}"
    );
    std::fs::write(dir.path().join("scenarios/night.yaml"), night).expect("write");
    std::fs::create_dir(dir.path().join("links")).expect("links dir");
    let self_link = "links:\n  - from: PA.I.A.K1\n    to: PA.I.A.K1\n    kind: requires\n";
    std::fs::write(dir.path().join("links/bad.yaml"), self_link).expect("write");
    let output = check(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("bad.yaml:3:9: links[0].to: ") && stderr.contains("linked to itself"),
        "{stderr}"
    );
}

/// A rubric whose slot names an undeclared domain member, and a domain whose two members
/// share a phrase: both refused with their file.
#[test]
fn a_slot_naming_an_unknown_domain_member_is_refused() {
    let dir = tempfile::tempdir().expect("blueprints dir");
    std::fs::create_dir_all(dir.path().join("rubrics/domains")).expect("domains dir");
    std::fs::write(
        dir.path().join("rubrics/domains/colours.yaml"),
        "domains:\n  - id: colour\n    members:\n      blue: [blue]\n      navy: [Blue]\n",
    )
    .expect("write domains");
    std::fs::write(
        dir.path().join("rubrics/PA.I.E.yaml"),
        "task: PA.I.E\nelements:\n  - element: PA.I.E.K2\n    facts:\n      - id: b\n        \
         claim: Class B is charted in solid magenta.\n        source: FAA-H-8083-25, chapter 15\n        \
         terms: [magenta]\n        slot: {subject: [class b], is: [colour.magenta]}\n    \
         satisfactory: [b]\n",
    )
    .expect("write rubric");
    let output = check(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("colours.yaml") && stderr.contains("says both"),
        "{stderr}"
    );
    assert!(
        stderr.contains("PA.I.E.yaml") && stderr.contains("has no member \"magenta\""),
        "{stderr}"
    );
}

/// A rubric citing a whole part of the regulations, and one for an element that is never
/// asked orally.
const BAD_RUBRICS: &str = "\
task: PA.I.A
elements:
  - element: PA.I.A.K1
    facts:
      - id: flight-review
        claim: A flight review every 24 calendar months.
        source: 14 CFR part 61
        terms: [flight review]
    satisfactory: [flight-review]
";

const STRAY_RUBRIC: &str = "\
task: PA.IV.A
elements:
  - element: PA.IV.A.S1
    facts:
      - id: a
        claim: A claim.
        source: 14 CFR 61.57(a)
        terms: [a]
    satisfactory: [a]
";

#[test]
fn a_bad_rubric_is_reported_with_file_field_and_line() {
    let dir = tempfile::tempdir().expect("blueprints dir");
    let acs = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/blueprints/acs"));
    std::os::unix::fs::symlink(acs, dir.path().join("acs")).expect("link the ACS data");
    std::fs::create_dir(dir.path().join("rubrics")).expect("rubrics dir");
    std::fs::write(dir.path().join("rubrics/PA.I.A.yaml"), BAD_RUBRICS).expect("write");
    let output = check(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("PA.I.A.yaml:7:17: elements[0].facts[0].source: ")
            && stderr.contains("not a precise citation"),
        "{stderr}"
    );
    std::fs::write(dir.path().join("rubrics/PA.I.A.yaml"), STRAY_RUBRIC).expect("write");
    let output = check(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("PA.IV.A.S1"), "{stderr}");
}

/// A misconception whose terms a true claim uses: a correct answer would be failed.
const SELF_CONTRADICTING_RUBRIC: &str = "\
task: PA.I.A
elements:
  - element: PA.I.A.K1
    facts:
      - id: currency
        claim: Three takeoffs and landings within the preceding 90 days.
        source: 14 CFR 61.57(a)
        terms: [three takeoffs and landings]
    satisfactory: [currency]
    misconceptions:
      - id: yearly
        claim: One landing a year keeps you current.
        terms: [takeoffs and landings]
        correction: Three within 90 days.
        source: 14 CFR 61.57(a)
";

#[test]
fn a_rubric_that_misjudges_its_own_claims_is_refused() {
    let dir = tempfile::tempdir().expect("blueprints dir");
    let acs = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/blueprints/acs"));
    std::os::unix::fs::symlink(acs, dir.path().join("acs")).expect("link the ACS data");
    std::fs::create_dir(dir.path().join("rubrics")).expect("rubrics dir");
    let file = dir.path().join("rubrics/PA.I.A.yaml");
    std::fs::write(&file, SELF_CONTRADICTING_RUBRIC).expect("write");
    let output = check(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("PA.I.A.K1: misconceptions[0] (yearly): the true claims hold it"),
        "{stderr}"
    );
    assert!(
        stderr.contains("misconceptions[0] (yearly): its own claim is not recognised"),
        "{stderr}"
    );
}

#[test]
fn a_bad_blueprint_is_reported_with_file_field_and_position() {
    let dir = tempfile::tempdir().expect("blueprints dir");
    let acs = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/blueprints/acs"));
    std::os::unix::fs::symlink(acs, dir.path().join("acs")).expect("link the ACS data");
    std::fs::create_dir(dir.path().join("skills")).expect("skills dir");
    std::fs::write(dir.path().join("skills/broken.yaml"), BAD_SKILL).expect("write");
    let output = check(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("broken.yaml:6:19: generation.answer_formula: ")
            && stderr.contains("(column 4 of the expression)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("broken.yaml:8:96: generation.difficulty_levels.hard.constraints[0]: ")
            && stderr.contains("`b`"),
        "{stderr}"
    );
    let serve = Command::new(viva_bin())
        .args(["serve", "--listen", "127.0.0.1:0", "--blueprints"])
        .arg(dir.path())
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .output()
        .expect("run viva serve");
    assert!(
        !serve.status.success(),
        "the server refuses to start on a bad blueprint"
    );
    assert!(String::from_utf8_lossy(&serve.stderr).contains("broken.yaml"));
}
