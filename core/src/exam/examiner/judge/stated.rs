//! The values an answer states, read once per answer: each number with the unit after it
//! (or a transponder code or a frequency), the stems after it (what a count counts), and the
//! values named in words (light signals, classes, "a year"); then, for one rubric, only the
//! values it can compare, found through indexes rather than a scan of every number, so a
//! long list of numbers costs each rubric nothing it does not use.

use std::collections::HashMap;

// Seeded per map: an answer cannot be written to collide (docs/decisions.md).
use foldhash::fast::RandomState;

use super::super::text::stem;
use super::quantity::{Measure, Value};
use super::reading::Reading;
use super::work::step;

/// A value an answer states, and the index of the content word where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Stated {
    /// The value.
    pub value: Value,
    /// Its content word's index in the reading.
    pub word: usize,
}

/// Where a stated value stands among all of them: its number's place in the answer, then
/// the unit, the counts in rubric order, a code, a frequency; named values last.
type Order = (usize, usize);

const SQUAWK_ORDER: usize = usize::MAX - 1;
const FREQUENCY_ORDER: usize = usize::MAX;

/// The values of an answer, read once and indexed.
#[derive(Debug, Clone, Default)]
pub struct AnswerValues {
    /// Each number with a content word: its value and word.
    numbers: Vec<(f64, usize)>,
    /// The numbers (indexes into `numbers`) by each stem among the three tokens after them.
    counted_by: HashMap<String, Vec<usize>, RandomState>,
    /// Values read whatever the rubric (units, codes, frequencies, named), by kind of measure
    /// (the index is [`kind`]).
    by_kind: [Vec<(Order, Stated)>; KINDS],
}

impl AnswerValues {
    /// Reads the values of `answer`.
    pub fn of(answer: &Reading) -> AnswerValues {
        let mut values = AnswerValues::default();
        for number in &answer.numbers {
            step(1);
            let Some(word) = word_at(answer, number.clause, number.token) else {
                continue;
            };
            let ordinal = values.numbers.len();
            values.numbers.push((number.value, word));
            let before = answer.tokens(number.clause, number.token.saturating_sub(3), number.token);
            let after = answer.tokens(number.clause, number.token + 1, number.token + 4);
            let stems = answer.stems_of(number.clause, number.token + 1, number.token + 4);
            for stem in stems {
                match values.counted_by.get_mut(stem) {
                    Some(numbers) if numbers.last() == Some(&ordinal) => {}
                    Some(numbers) => numbers.push(ordinal),
                    None => {
                        values.counted_by.insert(stem.clone(), vec![ordinal]);
                    }
                }
            }
            // "1 cumulative hour", "6 or more hours": up to two qualifiers before the unit.
            let unit = (stems.first())
                .and_then(|s| unit_of(s, stems.get(1)))
                .or_else(|| {
                    let qualifiers = (stems.iter().take(2))
                        .take_while(|s| is_unit_qualifier(s))
                        .count();
                    let first = stems.get(qualifiers).filter(|_| qualifiers > 0)?;
                    unit_of(first, stems.get(qualifiers + 1))
                });
            if let Some((measure, factor)) = unit {
                values.add((ordinal, 0), measure, number.value * factor, word);
            }
            if is_squawk(number.value, before, after) {
                values.add((ordinal, SQUAWK_ORDER), Measure::Squawk, number.value, word);
            }
            if (108.0..=137.0).contains(&number.value) && number.value.fract() != 0.0 {
                values.add(
                    (ordinal, FREQUENCY_ORDER),
                    Measure::Frequency,
                    number.value,
                    word,
                );
            }
        }
        let last = answer.numbers.len();
        for (index, named) in named_values(answer).into_iter().enumerate() {
            values.add(
                (last + index, 0),
                named.value.measure,
                named.value.amount,
                named.word,
            );
        }
        values
    }

    fn add(&mut self, order: Order, measure: Measure, amount: f64, word: usize) {
        let value = Value { measure, amount };
        let entry = (order, Stated { value, word });
        self.by_kind[usize::from(kind(&entry.1.value.measure))].push(entry);
    }

    /// The values stated of a measure comparable with one of `wanted` (every value when
    /// `wanted` is `None`), counts of what `counts` count among them, in the answer's order.
    pub fn stated(&self, counts: &[Vec<String>], wanted: Option<&[Measure]>) -> Vec<Stated> {
        let mut found: Vec<(Order, Stated)> = Vec::new();
        let mut kinds: Vec<u8> = match wanted {
            Some(wanted) => wanted.iter().map(kind).collect(),
            None => (0..KINDS as u8)
                .filter(|k| !self.by_kind[usize::from(*k)].is_empty())
                .collect(),
        };
        kinds.sort_unstable();
        kinds.dedup();
        for kind in kinds.into_iter().filter(|k| *k != COUNT) {
            let comparable = |s: &Stated| {
                wanted.is_none_or(|wanted| wanted.iter().any(|w| s.value.measure.comparable(w)))
            };
            let entries = &self.by_kind[usize::from(kind)];
            step(entries.len());
            found.extend(entries.iter().filter(|(_, s)| comparable(s)).cloned());
        }
        for (index, count) in counts.iter().enumerate() {
            found.extend(self.counts(index, count));
        }
        found.sort_by_key(|(order, _)| *order);
        found.into_iter().map(|(_, stated)| stated).collect()
    }

    /// The numbers followed (within three tokens) by a stem of what `count` counts.
    fn counts(&self, index: usize, count: &[String]) -> Vec<(Order, Stated)> {
        let mut numbers: Vec<usize> = count
            .iter()
            .filter_map(|stem| self.counted_by.get(stem))
            .flatten()
            .copied()
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        step(numbers.len());
        numbers
            .into_iter()
            .map(|ordinal| {
                let (amount, word) = self.numbers[ordinal];
                let measure = Measure::Count(count.to_vec());
                let value = Value { measure, amount };
                ((ordinal, 1 + index), Stated { value, word })
            })
            .collect()
    }

    /// Each number with a content word: its value and the word's index.
    pub fn numbers(&self) -> &[(f64, usize)] {
        &self.numbers
    }

    /// Whether the answer states any value of a measure comparable with `measure`.
    pub fn may_state(&self, measure: &Measure) -> bool {
        match measure {
            Measure::Count(stems) => stems.iter().any(|s| self.counted_by.contains_key(s)),
            _ => self.by_kind[usize::from(kind(measure))]
                .iter()
                .any(|(_, s)| s.value.measure.comparable(measure)),
        }
    }
}

const COUNT: u8 = 0;
/// How many kinds [`kind`] tells apart.
const KINDS: usize = 13;

/// Which bucket a measure's values go in: comparable measures share one.
fn kind(measure: &Measure) -> u8 {
    match measure {
        Measure::Count(_) => COUNT,
        Measure::Minutes => 1,
        Measure::Days => 2,
        Measure::Months => 3,
        Measure::Feet => 4,
        Measure::Miles(_) => 5,
        Measure::Knots => 6,
        Measure::Mph => 7,
        Measure::Percent => 8,
        Measure::Squawk => 9,
        Measure::Frequency => 10,
        Measure::Light(_) => 11,
        Measure::Class(_) => 12,
    }
}

/// Every value `answer` states, counts of what `counts` count among them, in order.
pub fn stated_values(answer: &Reading, counts: &[Vec<String>]) -> Vec<Stated> {
    AnswerValues::of(answer).stated(counts, None)
}

/// The first content word at or after `token` in `clause`: a binary search, since the words
/// stand in (clause, token) order (a scan here made reading a long answer quadratic).
fn word_at(answer: &Reading, clause: usize, token: usize) -> Option<usize> {
    let at = answer
        .words
        .partition_point(|w| (w.clause, w.token) < (clause, token));
    answer
        .words
        .get(at)
        .filter(|w| w.clause == clause)
        .map(|_| at)
}

/// Words that may stand between a number and its unit.
fn is_unit_qualifier(stem: &str) -> bool {
    matches!(stem, "or" | "more" | "less" | "fewer" | "so" | "plus")
        || [
            "cumul", "addit", "extra", "total", "consecut", "full", "continu",
        ]
        .iter()
        .any(|q| stem.starts_with(q))
}

/// The unit named by the stem after a number (and the one after that, for "nautical miles").
fn unit_of(first: &str, second: Option<&String>) -> Option<(Measure, f64)> {
    let unit = |measure, factor| Some((measure, factor));
    match first {
        "minut" | "min" | "mins" => unit(Measure::Minutes, 1.0),
        "hour" | "hr" | "hrs" => unit(Measure::Minutes, 60.0),
        "day" => unit(Measure::Days, 1.0),
        "week" => unit(Measure::Days, 7.0),
        "month" => unit(Measure::Months, 1.0),
        "calendar" if second.is_some_and(|s| s == "month") => unit(Measure::Months, 1.0),
        "year" => unit(Measure::Months, 12.0),
        "feet" | "foot" | "ft" | "agl" | "msl" => unit(Measure::Feet, 1.0),
        "nm" | "nautic" => unit(Measure::Miles(Some(true)), 1.0),
        "sm" | "statut" => unit(Measure::Miles(Some(false)), 1.0),
        "mile" | "mi" => unit(Measure::Miles(None), 1.0),
        "knot" | "kt" | "kts" | "kias" => unit(Measure::Knots, 1.0),
        "mph" => unit(Measure::Mph, 1.0),
        "percent" => unit(Measure::Percent, 1.0),
        "mhz" | "megahertz" => unit(Measure::Frequency, 1.0),
        _ => None,
    }
}

/// Four octal digits read as a transponder code: next to "squawk", "code" or "transponder",
/// or one of the special codes (1200, 7500, 7600, 7700) with no unit after it.
fn is_squawk(value: f64, before: &[String], after: &[String]) -> bool {
    let octal = value.fract() == 0.0
        && (1000.0..=7777.0).contains(&value)
        && format!("{}", value as i64)
            .bytes()
            .all(|b| (b'0'..=b'7').contains(&b));
    let cue = |w: &String| {
        matches!(
            w.as_str(),
            "squawk" | "squawking" | "code" | "codes" | "transponder" | "ident"
        )
    };
    let special = [1200.0, 7500.0, 7600.0, 7700.0].contains(&value)
        && after
            .first()
            .is_none_or(|w| unit_of(&stem(w), after.get(1)).is_none());
    octal && (before.iter().any(cue) || after.iter().take(3).any(cue) || special)
}

/// Values named in words: light signals, classes of airspace, and "a year", "per day".
fn named_values(answer: &Reading) -> Vec<Stated> {
    let mut found = Vec::new();
    for (clause, tokens) in answer.clauses.iter().enumerate() {
        for (index, token) in tokens.iter().enumerate() {
            let next = tokens.get(index + 1).map(String::as_str);
            let value = match (token.as_str(), next) {
                ("steady" | "flashing" | "blinking", Some(color @ ("green" | "red" | "white"))) => {
                    let kind = if token == "steady" {
                        "steady"
                    } else {
                        "flashing"
                    };
                    Some((Measure::Light(format!("{kind} {color}")), 1.0))
                }
                ("alternating", Some("red" | "green")) => {
                    Some((Measure::Light("alternating red and green".to_owned()), 1.0))
                }
                ("class", Some(letter)) => {
                    airspace_letter(letter).map(|class| (Measure::Class(class.to_owned()), 1.0))
                }
                ("a" | "an" | "per" | "each" | "every" | "one", Some(unit)) => {
                    unit_of(&stem(unit), None).filter(|(m, _)| is_time(m))
                }
                ("annual" | "annually" | "yearly", _) => Some((Measure::Months, 12.0)),
                _ => None,
            };
            if let (Some((measure, amount)), Some(word)) = (value, word_at(answer, clause, index)) {
                found.push(Stated {
                    value: Value { measure, amount },
                    word,
                });
            }
        }
    }
    found
}

fn is_time(measure: &Measure) -> bool {
    matches!(measure, Measure::Minutes | Measure::Days | Measure::Months)
}

fn airspace_letter(word: &str) -> Option<&'static str> {
    Some(match word {
        "a" | "alpha" => "a",
        "b" | "bravo" => "b",
        "c" | "charlie" => "c",
        "d" | "delta" => "d",
        "e" | "echo" => "e",
        "g" | "golf" => "g",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::quantity::count_stems;
    use super::*;

    fn stated(answer: &str, counts: &[&str]) -> Vec<Value> {
        let counts: Vec<Vec<String>> = counts.iter().map(|of| count_stems(of)).collect();
        stated_values(&Reading::of(answer), &counts)
            .into_iter()
            .map(|s| s.value)
            .collect()
    }

    fn value(measure: Measure, amount: f64) -> Value {
        Value { measure, amount }
    }

    #[test]
    fn units_are_read_after_numbers_and_converted() {
        assert_eq!(
            stated("every two years or 24 calendar months", &[]),
            vec![value(Measure::Months, 24.0), value(Measure::Months, 24.0)]
        );
        assert_eq!(
            stated("climb 1,000 feet AGL", &[]),
            vec![value(Measure::Feet, 1000.0)]
        );
        assert_eq!(
            stated("30 nautical miles", &[]),
            vec![value(Measure::Miles(Some(true)), 30.0)]
        );
        assert_eq!(
            stated("one and a half hours", &[]),
            vec![value(Measure::Minutes, 90.0)]
        );
    }

    #[test]
    fn counts_need_the_words_of_what_they_count() {
        let takeoffs = Measure::Count(count_stems("takeoffs and landings"));
        assert_eq!(
            stated("one landing a year", &["takeoffs and landings"]),
            vec![value(takeoffs, 1.0), value(Measure::Months, 12.0)]
        );
        assert!(stated("one hour of ground", &["takeoffs and landings"]).len() == 1);
    }

    #[test]
    fn codes_signals_and_classes_are_named_values() {
        assert_eq!(
            stated("squawk 7700", &[]),
            vec![value(Measure::Squawk, 7700.0)]
        );
        assert_eq!(stated("1200 feet", &[]), vec![value(Measure::Feet, 1200.0)]);
        assert_eq!(stated("121.5", &[]), vec![value(Measure::Frequency, 121.5)]);
        assert_eq!(
            stated("a flashing green light", &[]),
            vec![value(Measure::Light("flashing green".into()), 1.0)]
        );
        assert_eq!(
            stated("class bravo", &[]),
            vec![value(Measure::Class("b".into()), 1.0)]
        );
    }
}
