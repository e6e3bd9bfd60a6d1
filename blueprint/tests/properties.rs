//! Property tests over the shipped blueprints: for 2,000 seeds per skill and difficulty, every
//! item generates, is well formed (option count, unique options, the keyed answer among them,
//! a stem), is reproducible from its seed, satisfies its difficulty's constraints, and keys the
//! answer that an independent computation written here gives: plain integer arithmetic for math,
//! `std::net::Ipv4Addr` and `u32` masks for networking, and the formulas and rounding documented
//! in `blueprints/README.md`, in `f64`, for aviation. None of it reuses a YAML formula: answers are
//! computed from the values the learner is shown.
//!
//! Failures are collected rather than stopping at the first: each test reports, per skill,
//! difficulty and check, how many items failed and the first failing seed.

use std::collections::{BTreeMap, HashMap};
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use viva_blueprint::expr::{Env, Value};
use viva_blueprint::generate::{Item, generate};
use viva_blueprint::library::{BlueprintLibrary, Source};
use viva_blueprint::skill::{Difficulty, Skill};

/// Seeds checked per skill and difficulty.
const SEEDS: u64 = 2_000;
/// Every this many seeds, the item is generated a second time to check it is reproducible.
const DETERMINISM_STRIDE: u64 = 100;

const SHIPPED_ASSESSMENTS: [&str; 3] = [
    "MATH-FUNDAMENTALS-L1",
    "NETWORKING-BASICS-L1",
    "PPL-COMPUTATIONS-L1",
];

// ---------------------------------------------------------------------------------------------
// Loading

pub(crate) fn sources(dir: &Path) -> Vec<Source> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                found.push(Source {
                    path: path.display().to_string(),
                    text,
                });
            }
        }
    }
    found
}

fn library() -> &'static BlueprintLibrary {
    static LIBRARY: OnceLock<BlueprintLibrary> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../blueprints"));
        BlueprintLibrary::load(
            &sources(&root.join("skills")),
            &sources(&root.join("assessments")),
        )
        .unwrap_or_else(|errors| panic!("shipped blueprints must load: {errors:#?}"))
    })
}

fn skills_of(family: &str) -> Vec<&'static Skill> {
    let skills: Vec<&Skill> = library()
        .skills()
        .filter(|s| s.id.starts_with(family))
        .collect();
    assert!(!skills.is_empty(), "no shipped skill starts with {family}");
    skills
}

// ---------------------------------------------------------------------------------------------
// Failure collection

/// Failed checks by (skill, difficulty, check): how many items failed, and the first one.
#[derive(Default)]
struct Failures(BTreeMap<(String, &'static str, &'static str), (u64, String)>);

impl Failures {
    fn add(&mut self, skill: &Skill, difficulty: Difficulty, check: &'static str, detail: String) {
        let key = (skill.id.clone(), difficulty.as_str(), check);
        self.0.entry(key).or_insert((0, detail)).0 += 1;
    }

    fn assert_none(self, items: u64) {
        if self.0.is_empty() {
            println!("{items} items checked, all properties hold");
            return;
        }
        let mut report = format!("{items} items checked; failures:\n");
        for ((skill, difficulty, check), (count, first)) in &self.0 {
            report.push_str(&format!(
                "  {skill} {difficulty} [{check}]: {count} item(s); first: {first}\n"
            ));
        }
        panic!("{report}");
    }
}

// ---------------------------------------------------------------------------------------------
// The per-item properties

/// Checks every difficulty and seed of each skill of a family, then reports all failures.
fn check_family(family: &str) {
    let mut failures = Failures::default();
    let mut items = 0;
    for skill in skills_of(family) {
        items += check_skill(skill, &mut failures);
    }
    failures.assert_none(items);
}

fn check_skill(skill: &Skill, failures: &mut Failures) -> u64 {
    let mut items = 0;
    for difficulty in Difficulty::ALL {
        for seed in 0..SEEDS {
            items += 1;
            let item = match generate(skill, difficulty, seed, true) {
                Ok(item) => item,
                Err(err) => {
                    failures.add(
                        skill,
                        difficulty,
                        "generates",
                        format!("seed {seed}: {err}"),
                    );
                    continue;
                }
            };
            let checks = [
                ("well formed", well_formed(skill, &item)),
                ("reproducible", reproducible(skill, &item)),
                ("constraints hold", constraints_hold(skill, &item)),
                ("independent answer", answer_matches(&item)),
                ("shown values", shown_values_agree(&item)),
            ];
            for (check, result) in checks {
                if let Err(detail) = result {
                    failures.add(skill, difficulty, check, format!("seed {seed}: {detail}"));
                }
            }
        }
    }
    items
}

fn well_formed(skill: &Skill, item: &Item) -> Result<(), String> {
    let options = &item.options;
    let unique: std::collections::BTreeSet<&String> = options.iter().collect();
    if options.len() != skill.option_count {
        Err(format!(
            "{} options, not {}",
            options.len(),
            skill.option_count
        ))
    } else if unique.len() != options.len() {
        Err(format!("duplicate options {options:?}"))
    } else if options.get(item.answer_index) != Some(&item.answer) {
        Err(format!(
            "options[{}] is not the answer {:?}: {options:?}",
            item.answer_index, item.answer
        ))
    } else if item.stem.trim().is_empty() {
        Err("empty stem".to_owned())
    } else if item.skill_id != skill.id {
        Err(format!("skill id {}", item.skill_id))
    } else {
        Ok(())
    }
}

fn reproducible(skill: &Skill, item: &Item) -> Result<(), String> {
    if !item.seed.is_multiple_of(DETERMINISM_STRIDE) {
        return Ok(());
    }
    match generate(skill, item.difficulty, item.seed, true) {
        Ok(again) if again == *item => Ok(()),
        other => Err(format!("regenerated {other:?}, first {item:?}")),
    }
}

/// A shown value back as a [`Value`]: integer, float, bool or string. Lists (`str()` of a
/// list, e.g. a lookup table) are left out: no constraint of a shipped skill uses one, and an
/// evaluation error below would name it if one ever did.
fn parse_shown(text: &str) -> Option<Value> {
    if text.starts_with('[') {
        return None;
    }
    Some(match text {
        "True" => Value::Bool(true),
        "False" => Value::Bool(false),
        _ => match (text.parse::<i64>(), text.parse::<f64>()) {
            (Ok(int), _) => Value::Int(int),
            (_, Ok(float)) => Value::Float(float),
            _ => Value::Str(text.to_owned()),
        },
    })
}

/// Rebuilds the item's bindings from what it shows and evaluates its difficulty's constraints.
fn constraints_hold(skill: &Skill, item: &Item) -> Result<(), String> {
    let mut env = Env::new();
    let shown = item
        .parameters
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()));
    for (name, text) in shown.chain([("answer", item.answer.as_str())]) {
        if let Some(value) = parse_shown(text) {
            env.set(name, value);
        }
    }
    for program in &skill.constraints[item.difficulty as usize] {
        match program.eval(&env) {
            Ok(value) if value.is_truthy() => {}
            Ok(value) => return Err(format!("`{}` is {value:?}", program.source())),
            Err(err) => return Err(format!("`{}` failed: {err}", program.source())),
        }
    }
    Ok(())
}

fn params_of(item: &Item) -> HashMap<String, String> {
    item.parameters.iter().cloned().collect()
}

fn answer_matches(item: &Item) -> Result<(), String> {
    let params = params_of(item);
    match expected_answer(&item.skill_id, &params) {
        Some(expected) if expected == item.answer => Ok(()),
        Some(expected) => Err(format!(
            "keyed {:?}, expected {expected:?}; parameters {:?}",
            item.answer, item.parameters
        )),
        None => Err(format!("no independent answer for {:?}", item.parameters)),
    }
}

// ---------------------------------------------------------------------------------------------
// Independent answers

fn int(p: &HashMap<String, String>, name: &str) -> Option<i64> {
    p.get(name)?.parse().ok()
}

fn float(p: &HashMap<String, String>, name: &str) -> Option<f64> {
    p.get(name)?.parse().ok()
}

fn text<'a>(p: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    p.get(name).map(String::as_str)
}

/// The keyed answer of an item of `skill_id` with these shown parameters, computed without the
/// blueprint's formulas; `None` for a skill this file does not know (or a missing parameter).
fn expected_answer(skill_id: &str, p: &HashMap<String, String>) -> Option<String> {
    if skill_id.starts_with("MATH.") {
        math_answer(skill_id, p).map(|n| n.to_string())
    } else if skill_id.starts_with("NET.") {
        network_answer(skill_id, p)
    } else if skill_id.starts_with("AVN.") {
        aviation_answer(skill_id, p)
    } else {
        None
    }
}

fn math_answer(skill_id: &str, p: &HashMap<String, String>) -> Option<i64> {
    let (a, b) = match skill_id {
        "MATH.ARITH.ADD.1DIGIT" | "MATH.ARITH.ADD.2DIGIT" | "MATH.ARITH.ADD.3DIGIT" => {
            return Some(int(p, "operand_1")? + int(p, "operand_2")?);
        }
        "MATH.ARITH.SUB.1DIGIT" | "MATH.ARITH.SUB.2DIGIT" | "MATH.ARITH.SUB.BORROW" => {
            return Some(int(p, "minuend")? - int(p, "subtrahend")?);
        }
        "MATH.ARITH.MUL.SINGLE" => (int(p, "factor_1")?, int(p, "factor_2")?),
        "MATH.ARITH.MUL.BY10" => (int(p, "number")?, int(p, "factor")?),
        "MATH.ARITH.MUL.2BY1" => (int(p, "operand_1")?, int(p, "operand_2")?),
        "MATH.ARITH.DIV.SINGLE" | "MATH.ARITH.DIV.2BY1" | "MATH.ARITH.DIV.BY10" => {
            let (dividend, divisor) = (int(p, "dividend")?, int(p, "divisor")?);
            // An inexact division has no whole-number key: -1 never matches one.
            return Some(if dividend % divisor == 0 {
                dividend / divisor
            } else {
                -1
            });
        }
        _ => return None,
    };
    Some(a * b)
}

/// The netmask of a prefix length, as a `u32`.
fn mask(prefix: i64) -> Option<u32> {
    let host_bits = 32_u32.checked_sub(u32::try_from(prefix).ok()?)?;
    Some(u32::MAX.checked_shl(host_bits).unwrap_or(0))
}

fn network_answer(skill_id: &str, p: &HashMap<String, String>) -> Option<String> {
    let prefix = int(p, "prefix")?;
    let mask = mask(prefix)?;
    let ip = || {
        text(p, "ip_address")?
            .parse::<Ipv4Addr>()
            .ok()
            .map(u32::from)
    };
    Some(match skill_id {
        "NET.SUBNET.NETWORK_ADDRESS" => Ipv4Addr::from(ip()? & mask).to_string(),
        "NET.SUBNET.BROADCAST_ADDRESS" => Ipv4Addr::from(ip()? | !mask).to_string(),
        "NET.SUBNET.CIDR_TO_MASK" => Ipv4Addr::from(mask).to_string(),
        "NET.SUBNET.HOST_COUNT" => (i64::from(!mask) - 1).to_string(),
        _ => return None,
    })
}

/// Computed values the stem shows besides the answer, for the networking skills: the address
/// is the four octets, the dotted mask is the prefix's, and a shown network address is the
/// address masked.
fn shown_values_agree(item: &Item) -> Result<(), String> {
    let p = params_of(item);
    let octets: Option<Vec<u8>> = (1..=4)
        .map(|i| int(&p, &format!("octet_{i}")).and_then(|o| u8::try_from(o).ok()))
        .collect();
    let ip = text(&p, "ip_address").map(|s| s.parse::<Ipv4Addr>());
    if let (Some(octets), Some(ip)) = (&octets, &ip)
        && ip.as_ref().map(Ipv4Addr::octets).ok()
            != Some([octets[0], octets[1], octets[2], octets[3]])
    {
        return Err(format!("ip_address {ip:?} is not the octets {octets:?}"));
    }
    let Some(mask) = int(&p, "prefix").and_then(mask) else {
        return Ok(());
    };
    if let Some(shown) = text(&p, "subnet_mask")
        && shown != Ipv4Addr::from(mask).to_string()
    {
        return Err(format!(
            "subnet_mask {shown} for prefix {:?}",
            p.get("prefix")
        ));
    }
    if let (Some(shown), Some(Ok(ip))) = (text(&p, "network_address"), ip)
        && shown != Ipv4Addr::from(u32::from(ip) & mask).to_string()
    {
        return Err(format!(
            "network_address {shown} for {ip}/{:?}",
            p.get("prefix")
        ));
    }
    Ok(())
}

/// Nearest whole number (half away from zero; the blueprints never generate a tie).
fn nearest(value: f64) -> String {
    format!("{}", value.round() as i64)
}

fn aviation_answer(skill_id: &str, p: &HashMap<String, String>) -> Option<String> {
    Some(match skill_id {
        "AVN.PPL.WIND.CROSSWIND" => nearest(wind_speed_along(p, f64::sin)?),
        "AVN.PPL.WIND.HEADWIND" => nearest(wind_speed_along(p, f64::cos)?),
        "AVN.PPL.ATMOS.PRESSURE_ALTITUDE" => {
            let setting = float(p, "altimeter_setting")?;
            nearest(float(p, "field_elevation")? + (29.92 - setting) * 1000.0)
        }
        "AVN.PPL.ATMOS.DENSITY_ALTITUDE" => {
            let pressure_altitude = float(p, "pressure_altitude")?;
            let isa = 15.0 - 2.0 * pressure_altitude / 1000.0;
            let density_altitude = pressure_altitude + 120.0 * (float(p, "oat")? - isa);
            nearest((density_altitude / 100.0).round() * 100.0)
        }
        "AVN.PPL.NAV.TIME_SPEED_DISTANCE" => {
            let groundspeed = with_wind(p, "tas")?;
            nearest(float(p, "distance_nm")? / groundspeed * 60.0)
        }
        "AVN.PPL.NAV.FUEL_REQUIRED" => fuel_required(p)?,
        "AVN.PPL.WB.CG" => center_of_gravity(p)?,
        "AVN.PPL.MANEUVER.STANDARD_RATE_BANK" => nearest(float(p, "tas")? / 10.0 + 7.0),
        "AVN.PPL.REGS.VFR_MINIMUMS" => vfr_minimums(text(p, "situation")?)?.to_owned(),
        "AVN.PPL.NAV.MAGNETIC_HEADING" => magnetic_heading(p)?,
        _ => return None,
    })
}

/// Airspeed `base` corrected by the stated head- or tailwind component: the groundspeed.
fn with_wind(p: &HashMap<String, String>, base: &str) -> Option<f64> {
    let wind = float(p, "wind_component")?;
    match text(p, "wind_kind")? {
        "headwind" => Some(float(p, base)? - wind),
        "tailwind" => Some(float(p, base)? + wind),
        _ => None,
    }
}

/// Wind speed × `trig`(angle between the magnetic wind and the runway heading). The reported
/// direction is the one the stem shows; a METAR wind is true: magnetic = true − E / + W.
fn wind_speed_along(p: &HashMap<String, String>, trig: fn(f64) -> f64) -> Option<f64> {
    let runway_heading = int(p, "runway")? * 10;
    let reported: i64 = text(p, "wind_text")?.parse().ok()?;
    let correction = match (text(p, "source")?, text(p, "variation_dir")?) {
        ("tower", _) => 0,
        ("metar", "E") => -int(p, "variation")?,
        ("metar", "W") => int(p, "variation")?,
        _ => return None,
    };
    let gap = (reported + correction - runway_heading).rem_euclid(360);
    let angle = gap.min(360 - gap) as f64;
    Some(float(p, "wind_speed")? * trig(angle.to_radians()))
}

/// 14 CFR 91.151(a): burn × (time en route + 30 min by day / 45 min at night), gallons, rounded up.
fn fuel_required(p: &HashMap<String, String>) -> Option<String> {
    let reserve = match text(p, "period")? {
        "day" => 30.0,
        "night" => 45.0,
        _ => return None,
    };
    let gallons = float(p, "burn_gph")? * (float(p, "flight_minutes")? + reserve) / 60.0;
    // Burns are multiples of 0.5 gal/h and times whole minutes; the tolerance only keeps a
    // last-bit error above an exact whole number from rounding it up.
    Some(format!("{}", (gallons - 1e-9).ceil() as i64))
}

/// CG = Σ(weight × arm) / Σ weight, "NN.N in". Stations: empty, front seats (37 in), fuel at
/// 6 lb/gal (48 in); rear seats (73 in) from 4 stations; baggage (95 in) with 5.
fn center_of_gravity(p: &HashMap<String, String>) -> Option<String> {
    let stations = int(p, "stations")?;
    let mut loads = vec![
        (float(p, "empty_weight")?, float(p, "empty_arm")?),
        (float(p, "front_weight")?, 37.0),
        (float(p, "fuel_gal")? * 6.0, 48.0),
    ];
    if stations >= 4 {
        loads.push((float(p, "rear_weight")?, 73.0));
    }
    if stations >= 5 {
        loads.push((float(p, "baggage_weight")?, 95.0));
    }
    let weight: f64 = loads.iter().map(|(w, _)| w).sum();
    let moment: f64 = loads.iter().map(|(w, arm)| w * arm).sum();
    Some(format!("{:.1} in", moment / weight))
}

/// MH = TC + WCA (right +, left −) + variation (west +, east −), normalised to 1–360.
fn magnetic_heading(p: &HashMap<String, String>) -> Option<String> {
    let wca = match text(p, "wca_side")? {
        "right" => int(p, "wca")?,
        "left" => -int(p, "wca")?,
        _ => return None,
    };
    let variation = match text(p, "variation_dir")? {
        "W" => int(p, "variation")?,
        "E" => -int(p, "variation")?,
        _ => return None,
    };
    let heading = (int(p, "true_course")? + wca + variation).rem_euclid(360);
    Some(if heading == 0 { 360 } else { heading }.to_string())
}

/// The first number in `text` written just before `unit` (commas allowed), e.g. "4,500 ft MSL".
fn number_before(text: &str, unit: &str) -> Option<i64> {
    let end = text.find(unit)?;
    let digits: String = text[..end]
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().ok()
}

/// Where the airplane is, as far as 14 CFR 91.155(a) cares.
#[derive(Clone, Copy)]
enum Band {
    /// No altitude given (Class B, C, D).
    Unstated,
    /// 1,200 ft AGL or less.
    LowAgl,
    /// Above 1,200 ft AGL (Class G) or any height (Class E), below 10,000 ft MSL.
    Below10k,
    /// Above 1,200 ft AGL and at or above 10,000 ft MSL.
    AtOrAbove10k,
}

/// 14 CFR 91.155(a) for an airplane, from the situation the stem describes.
fn vfr_minimums(situation: &str) -> Option<&'static str> {
    const CLEAR_3: &str = "3 SM, clear of clouds";
    const STANDARD: &str = "3 SM, 500 ft below, 1,000 ft above, 2,000 ft horizontal";
    const HIGH: &str = "5 SM, 1,000 ft below, 1,000 ft above, 1 SM horizontal";
    const CLEAR_1: &str = "1 SM, clear of clouds";
    const G_DAY: &str = "1 SM, 500 ft below, 1,000 ft above, 2,000 ft horizontal";
    let class = situation.split("Class ").nth(1)?.chars().next()?;
    // "(below 10,000 ft MSL)" states the band; any other MSL altitude is the altitude itself.
    let msl = if situation.contains("below 10,000 ft MSL") {
        Some(9_999)
    } else {
        number_before(situation, " ft MSL")
    };
    let band = match (number_before(situation, " ft AGL"), msl) {
        (Some(agl), _) if agl <= 1_200 => Band::LowAgl,
        (_, Some(msl)) if msl >= 10_000 => Band::AtOrAbove10k,
        (_, Some(_)) => Band::Below10k,
        (_, None) => Band::Unstated,
    };
    let night = situation.contains("at night");
    Some(match (class, band, night) {
        ('B', Band::Unstated, _) => CLEAR_3,
        ('C' | 'D', Band::Unstated, _) => STANDARD,
        ('E', Band::Below10k, _) => STANDARD,
        ('E', Band::AtOrAbove10k, _) => HIGH,
        ('G', Band::LowAgl, false) => CLEAR_1,
        ('G', Band::LowAgl, true) => STANDARD,
        ('G', Band::Below10k, false) => G_DAY,
        ('G', Band::Below10k, true) => STANDARD,
        ('G', Band::AtOrAbove10k, _) => HIGH,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// Tests

#[test]
fn math_items_are_well_formed_constrained_and_keyed_correctly() {
    check_family("MATH.");
}

#[test]
fn networking_items_are_well_formed_constrained_and_keyed_correctly() {
    check_family("NET.");
}

#[test]
fn aviation_items_are_well_formed_constrained_and_keyed_correctly() {
    check_family("AVN.");
}

#[test]
fn every_shipped_skill_has_an_independent_answer() {
    let skills: Vec<&Skill> = library().skills().collect();
    assert_eq!(
        skills.len(),
        26,
        "shipped skills changed: add their answers here"
    );
    for skill in skills {
        let item = generate(skill, Difficulty::Easy, 1, true)
            .unwrap_or_else(|e| panic!("{}: {e}", skill.id));
        assert!(
            expected_answer(&skill.id, &params_of(&item)).is_some(),
            "{} has no independent answer in this file",
            skill.id
        );
    }
}

#[test]
fn shipped_assessments_load_and_reference_loaded_skills() {
    let library = library();
    for id in SHIPPED_ASSESSMENTS {
        assert!(library.assessment(id).is_some(), "{id} is not loaded");
    }
    for assessment in library.assessments() {
        for section in &assessment.sections {
            for (skill, _) in &section.skills {
                assert!(
                    library.skill(skill).is_some(),
                    "{}/{} names {skill}",
                    assessment.id,
                    section.id
                );
            }
        }
    }
}
