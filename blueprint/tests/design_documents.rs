//! The design document's own blueprints load and work unchanged: its two skills (two-digit
//! addition; a subnet's network address, written with five-argument networking calls and
//! `network_with_error(address, 'increment_octet_3')`) and its assessment, read from
//! `$VIVA_SHARED_DIR/data/seed-blueprints/` (default `<workspace>/../shared`; `scripts/test`
//! finds it beside a clone's origin too), never copied into the repository.
//!
//! The assessment names twelve arithmetic skills; the document's addition skill stands in for
//! the shipped `MATH.ARITH.ADD.2DIGIT` and the other eleven are the shipped ones.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;
use std::path::PathBuf;

use viva_blueprint::expr::{Env, Value};
use viva_blueprint::generate::generate;
use viva_blueprint::library::{BlueprintLibrary, Source};
use viva_blueprint::plan::plan_items;
use viva_blueprint::scoring::ScoringMethod;
use viva_blueprint::skill::{Difficulty, Skill};

use crate::properties::sources;

/// Seeds generated per skill and difficulty.
const SEEDS: u64 = 500;

const ADDITION: &str = "skills/math/arithmetic/add_2digit.yaml";
const SUBNET: &str = "skills/networking/ip/subnet_network_address.yaml";
const ASSESSMENT: &str = "assessments/math-fundamentals-l1.yaml";

fn seed_dir() -> PathBuf {
    let shared = std::env::var_os("VIVA_SHARED_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
        PathBuf::from,
    );
    shared.join("data/seed-blueprints")
}

/// One seed document, byte for byte.
fn seed(relative: &str) -> Source {
    let path = seed_dir().join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the design document's blueprint {}: {e} (set VIVA_SHARED_DIR to the shared folder)",
            path.display()
        )
    });
    Source {
        path: path.display().to_string(),
        text,
    }
}

/// The shipped arithmetic skills but the one the document's addition skill replaces.
fn other_shipped_math_skills() -> Vec<Source> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../blueprints/skills/math");
    let all = sources(&dir);
    let others: Vec<Source> = all
        .into_iter()
        .filter(|source| !source.text.contains("skill_id: \"MATH.ARITH.ADD.2DIGIT\""))
        .collect();
    assert_eq!(others.len(), 11, "the other shipped arithmetic skills");
    others
}

fn seed_skills() -> BlueprintLibrary {
    BlueprintLibrary::load(&[seed(ADDITION), seed(SUBNET)], &[])
        .unwrap_or_else(|errors| panic!("the document's skills must load: {errors:#?}"))
}

fn with_assessment(assessment: Source) -> BlueprintLibrary {
    let mut skills = other_shipped_math_skills();
    skills.push(seed(ADDITION));
    BlueprintLibrary::load(&skills, &[assessment])
        .unwrap_or_else(|errors| panic!("the document's assessment must load: {errors:#?}"))
}

/// Generates `SEEDS` items per difficulty; returns each failure, and the distractors seen.
fn generate_many(skill: &Skill, answer: impl Fn(&BTreeMap<&str, &str>) -> String) -> Vec<String> {
    let mut failures = Vec::new();
    for difficulty in Difficulty::ALL {
        for seed in 0..SEEDS {
            match generate(skill, difficulty, seed, true) {
                Ok(item) => {
                    let shown: BTreeMap<&str, &str> = item
                        .parameters
                        .iter()
                        .map(|(name, value)| (name.as_str(), value.as_str()))
                        .collect();
                    let unique: std::collections::BTreeSet<&String> = item.options.iter().collect();
                    let expected = answer(&shown);
                    if item.answer != expected
                        || item.options.get(item.answer_index) != Some(&item.answer)
                        || unique.len() != skill.option_count
                    {
                        failures.push(format!(
                            "{difficulty:?} seed {seed}: {item:?}, expected {expected}"
                        ));
                    }
                }
                Err(error) => failures.push(format!("{difficulty:?} seed {seed}: {error}")),
            }
        }
    }
    failures
}

fn number(shown: &BTreeMap<&str, &str>, name: &str) -> u32 {
    shown
        .get(name)
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("{name} in {shown:?}"))
}

#[test]
fn the_documents_skills_load_and_generate_items() {
    let library = seed_skills();
    let addition = library.skill("MATH.ARITH.ADD.2DIGIT").expect("addition");
    let sum = |shown: &BTreeMap<&str, &str>| {
        (number(shown, "operand_1") + number(shown, "operand_2")).to_string()
    };
    let failures = generate_many(addition, sum);
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );

    let subnet = library.skill("NET.IP.SUBNET.NETWORK").expect("subnet");
    let network = |shown: &BTreeMap<&str, &str>| {
        let octets = ["ip_octet_1", "ip_octet_2", "ip_octet_3", "ip_octet_4"]
            .map(|o| number(shown, o) as u8);
        let mask = u32::MAX
            .checked_shl(32 - number(shown, "cidr"))
            .unwrap_or(0);
        Ipv4Addr::from(u32::from(Ipv4Addr::from(octets)) & mask).to_string()
    };
    let failures = generate_many(subnet, network);
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}

/// The item's shown values as typed values, with `answer`: what its formulas read.
fn env_of(item: &viva_blueprint::generate::Item) -> Env {
    let mut env: Env = item
        .parameters
        .iter()
        .map(|(name, text)| {
            let value = text
                .parse::<i64>()
                .map_or_else(|_| Value::from(text.as_str()), Value::Int);
            (name.as_str(), value)
        })
        .collect();
    env.set("answer", Value::from(item.answer.as_str()));
    env
}

#[test]
fn the_documents_networking_distractors_compute_what_they_model() {
    let library = seed_skills();
    let subnet = library.skill("NET.IP.SUBNET.NETWORK").expect("subnet");
    let formula = |kind: &str| {
        let strategy = subnet.strategies.iter().find(|s| s.kind == kind);
        strategy.map(|s| s.formula.clone()).expect(kind)
    };
    let (first_host, off_by_one) = (formula("first_host"), formula("off_by_one_octet"));
    let mut offered = 0;
    for difficulty in Difficulty::ALL {
        for seed in 0..SEEDS {
            let item = generate(subnet, difficulty, seed, false).expect("an item");
            let [a, b, c, d] = item.answer.parse::<Ipv4Addr>().expect("a quad").octets();
            let expected_off = Ipv4Addr::new(a, b, c.wrapping_add(1), d).to_string();
            let expected_first = Ipv4Addr::new(a, b, c, d.wrapping_add(1)).to_string();
            let env = env_of(&item);
            assert_eq!(
                off_by_one.eval(&env),
                Ok(Value::from(expected_off.as_str()))
            );
            assert_eq!(
                first_host.eval(&env),
                Ok(Value::from(expected_first.as_str()))
            );
            offered += usize::from(item.options.contains(&expected_off));
        }
    }
    assert!(
        offered > 0,
        "the off-by-one-octet distractor was never needed"
    );
}

#[test]
fn the_documents_assessment_loads_and_plans() {
    let library = with_assessment(seed(ASSESSMENT));
    let assessment = library
        .assessment("MATH-FUNDAMENTALS-L1")
        .expect("the assessment");
    assert_eq!(assessment.time_limit_minutes, Some(30.0));
    assert_eq!(assessment.scoring_method, ScoringMethod::PercentCorrect);
    for session_seed in 0..50 {
        let plan = plan_items(assessment, session_seed);
        assert_eq!(plan.len(), 20);
        for section in ["addition", "subtraction", "multiplication", "division"] {
            let items: Vec<_> = plan
                .iter()
                .filter(|item| item.section_id == section)
                .collect();
            let hard = items
                .iter()
                .filter(|item| item.difficulty == Difficulty::Hard)
                .count();
            assert_eq!(
                (items.len(), hard),
                (5, 1),
                "{section}, seed {session_seed}"
            );
        }
        for planned in &plan {
            let skill = library.skill(&planned.skill_id).expect("a planned skill");
            if let Err(error) = generate(skill, planned.difficulty, planned.seed, true) {
                panic!("session seed {session_seed}: {planned:?}: {error}");
            }
        }
    }
}

#[test]
fn the_documents_assessment_without_a_time_limit_is_untimed() {
    let mut untimed = seed(ASSESSMENT);
    untimed.text = untimed.text.replace("  time_limit_minutes: 30\n", "");
    assert!(!untimed.text.contains("time_limit_minutes"));
    let library = with_assessment(untimed);
    let assessment = library
        .assessment("MATH-FUNDAMENTALS-L1")
        .expect("the assessment");
    assert_eq!(assessment.time_limit_minutes, None);
    assert_eq!(plan_items(assessment, 1).len(), 20);
}
