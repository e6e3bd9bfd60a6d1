//! The listening phase's spoken item answers: about sixty generated multiple-choice items
//! (math, subnetting and aviation computations, plus decimal divisions made here, for no
//! skill keys a bare decimal), each answered aloud with an option's value in words or an
//! option letter, a third of them wrongly (a distractor's value, or another letter),
//! sometimes after a lead-in ("The network address is …"). Deterministic for a seed; the
//! order interleaves the sources, so the first dozen already cover every kind.

use viva_blueprint::generate::{Item, generate};
use viva_blueprint::library::BlueprintLibrary;
use viva_blueprint::rng::SeededRng;
use viva_blueprint::skill::Difficulty;

use super::BenchError;
use super::say;

/// How the candidate names the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The option's value in words ("sixty two point five").
    Value,
    /// The option's letter ("Option B").
    Letter,
}

impl Form {
    /// `value` or `letter`.
    pub fn name(self) -> &'static str {
        match self {
            Form::Value => "value",
            Form::Letter => "letter",
        }
    }
}

/// One spoken answer to one item.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Position in the set.
    pub index: usize,
    /// The item answered.
    pub item: Item,
    /// How the answer is named.
    pub form: Form,
    /// The option the candidate means.
    pub said_option: usize,
    /// What is said.
    pub sentence: String,
    /// Whether that option is the key.
    pub right: bool,
}

/// A source of items: a skill of the library, or the decimal divisions made here.
#[derive(Debug, Clone, Copy)]
struct Slot {
    skill: &'static str,
    count: usize,
    form: Form,
}

/// The skill id of the decimal items made here.
pub const DECIMAL_SKILL: &str = "LISTENING.DECIMAL";

const fn value(skill: &'static str, count: usize) -> Slot {
    Slot {
        skill,
        count,
        form: Form::Value,
    }
}

const fn letter(skill: &'static str, count: usize) -> Slot {
    Slot {
        skill,
        count,
        form: Form::Letter,
    }
}

/// 49 values and 12 letters: tens (add 2-digit, time-speed-distance), hundreds (add
/// 3-digit, subtraction), thousands and tens of thousands (× 10/100/1000, pressure and
/// density altitude, host counts), decimals, addresses and masks.
const PLAN: &[Slot] = &[
    value("MATH.ARITH.ADD.2DIGIT", 4),
    value("NET.SUBNET.NETWORK_ADDRESS", 5),
    letter("MATH.ARITH.MUL.BY10", 2),
    value(DECIMAL_SKILL, 6),
    value("MATH.ARITH.ADD.3DIGIT", 4),
    value("NET.SUBNET.CIDR_TO_MASK", 5),
    value("NET.SUBNET.HOST_COUNT", 4),
    value("AVN.PPL.ATMOS.PRESSURE_ALTITUDE", 3),
    letter("NET.SUBNET.NETWORK_ADDRESS", 2),
    value("MATH.ARITH.MUL.BY10", 4),
    value("NET.SUBNET.BROADCAST_ADDRESS", 4),
    value("AVN.PPL.ATMOS.DENSITY_ALTITUDE", 3),
    letter("MATH.ARITH.ADD.2DIGIT", 2),
    value("MATH.ARITH.MUL.2BY1", 3),
    letter("NET.SUBNET.CIDR_TO_MASK", 2),
    value("MATH.ARITH.SUB.BORROW", 2),
    letter("NET.SUBNET.HOST_COUNT", 2),
    value("AVN.PPL.NAV.TIME_SPEED_DISTANCE", 2),
    letter("AVN.PPL.ATMOS.DENSITY_ALTITUDE", 1),
    letter(DECIMAL_SKILL, 1),
];

/// Seeds tried per entry before its source counts as broken.
const TRIES: u64 = 16;

/// The set for `seed`: its first `count` entries (all when `None`).
pub fn build(
    library: &BlueprintLibrary,
    seed: u64,
    count: Option<usize>,
) -> Result<Vec<Entry>, BenchError> {
    let order = schedule(PLAN);
    let count = count.unwrap_or(order.len()).min(order.len());
    order
        .into_iter()
        .take(count)
        .enumerate()
        .map(|(index, (slot, round))| {
            let difficulty = Difficulty::ALL[(slot + round) % 3];
            let item = item_for(library, &PLAN[slot], difficulty, seed, index)?;
            Ok(entry(index, item, PLAN[slot].form, seed))
        })
        .collect()
}

/// `(slot, round)` pairs, round-robin over the slots.
fn schedule(plan: &[Slot]) -> Vec<(usize, usize)> {
    let rounds = plan.iter().map(|s| s.count).max().unwrap_or(0);
    (0..rounds)
        .flat_map(|round| {
            plan.iter()
                .enumerate()
                .filter(move |(_, s)| s.count > round)
                .map(move |(slot, _)| (slot, round))
        })
        .collect()
}

/// The item of entry `index`: the first seed whose item can be said in `slot`'s form.
fn item_for(
    library: &BlueprintLibrary,
    slot: &Slot,
    difficulty: Difficulty,
    seed: u64,
    index: usize,
) -> Result<Item, BenchError> {
    let broken = |why: String| BenchError::Corpus(format!("listening item {index}: {why}"));
    for attempt in 0..TRIES {
        let seed = entry_seed(seed, index).wrapping_add(attempt);
        let item = if slot.skill == DECIMAL_SKILL {
            decimal_item(seed)
        } else {
            let skill = library
                .skill(slot.skill)
                .ok_or_else(|| broken(format!("no skill {} in the blueprints", slot.skill)))?;
            match generate(skill, difficulty, seed, true) {
                Ok(item) => item,
                Err(_) => continue,
            }
        };
        let sayable = item.options.iter().all(|o| say::value(o, false).is_some());
        if slot.form == Form::Letter || sayable {
            return Ok(item);
        }
    }
    Err(broken(format!("{} gave no item to say", slot.skill)))
}

fn entry_seed(seed: u64, index: usize) -> u64 {
    seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Entry `index` for `item`: every third one wrong; every fourth with a lead-in; every
/// fifth number with a British "and".
fn entry(index: usize, item: Item, form: Form, seed: u64) -> Entry {
    let right = index % 3 != 2;
    let mut rng = SeededRng::new(entry_seed(seed, index).rotate_left(17));
    let said_option = said_option(item.answer_index, item.options.len(), right, &mut rng);
    let words = match form {
        Form::Value => say::value(&item.options[said_option], index % 5 == 3),
        Form::Letter => None,
    }
    .unwrap_or_else(|| say::option_letter(said_option));
    let lead_in = (index % 4 == 1).then(|| lead_in(&item.skill_id, form, index));
    Entry {
        index,
        sentence: sentence(lead_in, &words),
        item,
        form,
        said_option,
        right,
    }
}

/// The key, or another option drawn by `rng`.
fn said_option(answer: usize, options: usize, right: bool, rng: &mut SeededRng) -> usize {
    if right || options < 2 {
        return answer;
    }
    (answer + 1 + rng.next_index(options - 1)) % options
}

/// A lead-in that suits the item and form.
fn lead_in(skill: &str, form: Form, index: usize) -> &'static str {
    const GENERIC: [&str; 3] = ["I think it's", "The answer is", "My answer is"];
    match (skill, form) {
        ("NET.SUBNET.NETWORK_ADDRESS", Form::Value) => "The network address is",
        ("NET.SUBNET.BROADCAST_ADDRESS", Form::Value) => "The broadcast address is",
        ("NET.SUBNET.CIDR_TO_MASK", Form::Value) => "The subnet mask is",
        _ => GENERIC[index / 4 % GENERIC.len()],
    }
}

/// "Lead in words." with the first letter capitalised.
fn sentence(lead_in: Option<&str>, words: &str) -> String {
    let text = match lead_in {
        Some(lead_in) => format!("{lead_in} {words}"),
        None => words.to_owned(),
    };
    let mut chars = text.chars();
    let capitalised: String = chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    format!("{capitalised}.")
}

/// A division with a decimal quotient ("What is 125 ÷ 2?", 62.5; "What is 15 ÷ 4?", 3.75)
/// and three distractors: one more, one less (or two more), ten times.
pub fn decimal_item(seed: u64) -> Item {
    let mut rng = SeededRng::new(seed);
    let whole = 1 + rng.next_index(99) as u64;
    let fraction = [25, 50, 75][rng.next_index(3)];
    let hundredths = whole * 100 + fraction;
    let divisor = if fraction == 50 { 2 } else { 4 };
    let dividend = hundredths * divisor / 100;
    let below = if whole > 1 {
        hundredths - 100
    } else {
        hundredths + 200
    };
    let mut options: Vec<String> = [hundredths + 100, below, hundredths * 10]
        .into_iter()
        .map(hundredths_text)
        .collect();
    let answer = hundredths_text(hundredths);
    let answer_index = rng.next_index(4);
    options.insert(answer_index, answer.clone());
    Item {
        skill_id: DECIMAL_SKILL.to_owned(),
        difficulty: Difficulty::Medium,
        seed,
        parameters: vec![
            ("dividend".to_owned(), dividend.to_string()),
            ("divisor".to_owned(), divisor.to_string()),
        ],
        stem: format!("What is {dividend} ÷ {divisor}?"),
        option_mistakes: vec![None; options.len()],
        options,
        answer_index,
        answer,
        explanation: None,
    }
}

/// 6250 → "62.5", 375 → "3.75", 6200 → "62".
fn hundredths_text(hundredths: u64) -> String {
    let (whole, fraction) = (hundredths / 100, hundredths % 100);
    match fraction {
        0 => whole.to_string(),
        _ if fraction.is_multiple_of(10) => format!("{whole}.{}", fraction / 10),
        _ => format!("{whole}.{fraction:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::blueprints::{load_skills, repository_blueprints};
    use super::*;

    #[test]
    fn sentences_take_a_lead_in_and_a_capital() {
        assert_eq!(sentence(None, "option B"), "Option B.");
        assert_eq!(
            sentence(
                Some("The network address is"),
                "ten dot zero dot zero dot zero"
            ),
            "The network address is ten dot zero dot zero dot zero."
        );
    }

    #[test]
    fn the_schedule_interleaves_every_source() {
        let order = schedule(PLAN);
        assert_eq!(order.len(), PLAN.iter().map(|s| s.count).sum::<usize>());
        let first: Vec<usize> = order.iter().take(PLAN.len()).map(|(s, _)| *s).collect();
        assert_eq!(first, (0..PLAN.len()).collect::<Vec<_>>());
    }

    #[test]
    fn a_wrong_answer_is_never_the_key() {
        let mut rng = SeededRng::new(7);
        for answer in 0..4 {
            assert_eq!(said_option(answer, 4, true, &mut rng), answer);
            for _ in 0..20 {
                let said = said_option(answer, 4, false, &mut rng);
                assert!(said != answer && said < 4);
            }
        }
    }

    #[test]
    fn decimal_items_key_a_decimal_among_distinct_options() {
        for seed in 0..50 {
            let item = decimal_item(seed);
            assert_eq!(item.options[item.answer_index], item.answer);
            assert!(item.answer.contains('.'), "{}", item.answer);
            let mut options = item.options.clone();
            options.sort();
            options.dedup();
            assert_eq!(options.len(), 4, "{:?}", item.options);
        }
        assert_eq!(hundredths_text(6250), "62.5");
        assert_eq!(hundredths_text(375), "3.75");
        assert_eq!(hundredths_text(6200), "62");
    }

    #[test]
    fn the_set_covers_every_kind_with_a_third_wrong() {
        let library = load_skills(&repository_blueprints()).expect("skills");
        let set = build(&library, 1, None).expect("set");
        assert_eq!(set.len(), 61);
        assert_eq!(set.iter().filter(|e| !e.right).count(), 20);
        let said = |needle: &str| set.iter().any(|e| e.sentence.contains(needle));
        for needle in [
            " dot ",
            " point ",
            "Option ",
            " thousand",
            "The network address is",
        ] {
            assert!(said(needle), "no sentence with {needle:?}");
        }
        for entry in &set {
            let chosen = entry.said_option == entry.item.answer_index;
            assert_eq!(chosen, entry.right, "{entry:?}");
        }
        let again = build(&library, 1, Some(12)).expect("set");
        assert_eq!(again.len(), 12);
        assert_eq!(again[11].sentence, set[11].sentence);
    }
}
