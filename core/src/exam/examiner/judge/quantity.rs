//! Typed values in an answer: numbers with their units (durations, heights, distances,
//! speeds, shares, counts of named things), transponder codes, frequencies, light signals
//! and classes of airspace, compared with a rubric fact's value in like units.

use viva_blueprint::rubric::FactValue;

use super::super::text::stem;
use super::reading::Reading;

/// What a value measures, in the unit it is compared in.
#[derive(Debug, Clone, PartialEq)]
pub enum Measure {
    /// A count of things named by these stems (`takeoff`, `land`).
    Count(Vec<String>),
    /// Minutes (hours are 60).
    Minutes,
    /// Days (weeks are 7).
    Days,
    /// Months (years are 12).
    Months,
    /// Feet, of height or distance.
    Feet,
    /// Miles: `Some(true)` nautical, `Some(false)` statute, `None` unsaid.
    Miles(Option<bool>),
    /// Knots.
    Knots,
    /// Miles per hour.
    Mph,
    /// Percent.
    Percent,
    /// A transponder code.
    Squawk,
    /// Megahertz.
    Frequency,
    /// A light-gun signal, by name (`steady green`).
    Light(String),
    /// A class of airspace (`b`).
    Class(String),
}

impl Measure {
    /// Whether values of the two measures can be compared.
    pub fn comparable(&self, other: &Measure) -> bool {
        match (self, other) {
            (Measure::Count(a), Measure::Count(b)) => a.iter().any(|s| b.contains(s)),
            (Measure::Miles(a), Measure::Miles(b)) => a.is_none() || b.is_none() || a == b,
            (Measure::Light(_), Measure::Light(_)) | (Measure::Class(_), Measure::Class(_)) => true,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

/// A value: what it measures and how much.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// What it measures.
    pub measure: Measure,
    /// How much (1 for a light signal or a class).
    pub amount: f64,
}

impl Value {
    /// Whether the two values are the same quantity and amount.
    pub fn same_as(&self, other: &Value) -> bool {
        if !self.measure.comparable(&other.measure) {
            return false;
        }
        match (&self.measure, &other.measure) {
            (Measure::Light(a), Measure::Light(b)) | (Measure::Class(a), Measure::Class(b)) => {
                a == b
            }
            _ => (self.amount - other.amount).abs() <= 1e-6 * self.amount.abs().max(1.0),
        }
    }
}

/// A value an answer states, and the index of the content word where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Stated {
    /// The value.
    pub value: Value,
    /// Its content word's index in the reading.
    pub word: usize,
}

/// A rubric value in comparable units; `None` for a kind with nothing to compare.
pub fn value_of(fact: &FactValue) -> Option<Value> {
    let value = |measure, amount| Some(Value { measure, amount });
    match fact {
        FactValue::Count { amount, of } => value(Measure::Count(count_stems(of)), *amount),
        FactValue::Duration { amount, unit } => {
            let (measure, factor) = duration_unit(unit)?;
            value(measure, amount * factor)
        }
        FactValue::Altitude { feet, .. } => value(Measure::Feet, *feet),
        FactValue::Distance { amount, unit } => match unit.as_str() {
            "ft" => value(Measure::Feet, *amount),
            "nm" => value(Measure::Miles(Some(true)), *amount),
            _ => value(Measure::Miles(Some(false)), *amount),
        },
        FactValue::Speed { amount, unit } if unit == "mph" => value(Measure::Mph, *amount),
        FactValue::Speed { amount, .. } => value(Measure::Knots, *amount),
        FactValue::Percent { amount } => value(Measure::Percent, *amount),
        FactValue::Squawk { code } => value(Measure::Squawk, code.parse().ok()?),
        FactValue::Frequency { mhz } => value(Measure::Frequency, *mhz),
        FactValue::LightSignal { signal } => value(Measure::Light(signal.to_lowercase()), 1.0),
        FactValue::AirspaceClass { class } => value(Measure::Class(class.to_lowercase()), 1.0),
    }
}

/// The stems naming what a count counts (`takeoffs and landings` -> `takeoff`, `land`).
fn count_stems(of: &str) -> Vec<String> {
    Reading::of(of).words.into_iter().map(|w| w.stem).collect()
}

fn duration_unit(unit: &str) -> Option<(Measure, f64)> {
    Some(match unit {
        "minutes" => (Measure::Minutes, 1.0),
        "hours" => (Measure::Minutes, 60.0),
        "days" => (Measure::Days, 1.0),
        "calendar_months" => (Measure::Months, 1.0),
        "years" => (Measure::Months, 12.0),
        _ => return None,
    })
}

/// The values of the measures in `wanted` that `answer` states.
pub fn stated_values(answer: &Reading, counts: &[Vec<String>]) -> Vec<Stated> {
    let mut found = Vec::new();
    for number in &answer.numbers {
        let before = answer.tokens(number.clause, number.token.saturating_sub(3), number.token);
        let after = answer.tokens(number.clause, number.token + 1, number.token + 4);
        let Some(word) = word_at(answer, number.clause, number.token) else {
            continue;
        };
        for measure in measures_of(number.value, before, after, counts) {
            let (measure, factor) = measure;
            let value = Value {
                measure,
                amount: number.value * factor,
            };
            found.push(Stated { value, word });
        }
    }
    found.extend(named_values(answer));
    found
}

fn word_at(answer: &Reading, clause: usize, token: usize) -> Option<usize> {
    answer
        .words
        .iter()
        .position(|w| w.clause == clause && w.token >= token)
}

/// The measures a number can be read as, from the words around it.
fn measures_of(
    value: f64,
    before: &[String],
    after: &[String],
    counts: &[Vec<String>],
) -> Vec<(Measure, f64)> {
    let stems: Vec<String> = after.iter().map(|w| stem(w)).collect();
    let mut found = Vec::new();
    if let Some(unit) = stems.first().and_then(|s| unit_of(s, stems.get(1))) {
        found.push(unit);
    }
    for count in counts {
        if stems.iter().any(|s| count.contains(s)) {
            found.push((Measure::Count(count.clone()), 1.0));
        }
    }
    if is_squawk(value, before, after) {
        found.push((Measure::Squawk, 1.0));
    }
    if (108.0..=137.0).contains(&value) && value.fract() != 0.0 {
        found.push((Measure::Frequency, 1.0));
    }
    found
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
    let code = format!("{}", value as i64);
    let octal = value.fract() == 0.0
        && (1000.0..=7777.0).contains(&value)
        && code.bytes().all(|b| (b'0'..=b'7').contains(&b));
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

    #[test]
    fn like_values_compare_across_units() {
        let years = value_of(&FactValue::Duration {
            amount: 2.0,
            unit: "years".into(),
        });
        assert_eq!(years, Some(value(Measure::Months, 24.0)));
        let miles = value(Measure::Miles(None), 30.0);
        assert!(miles.same_as(&value(Measure::Miles(Some(true)), 30.0)));
        assert!(!value(Measure::Knots, 200.0).same_as(&value(Measure::Knots, 250.0)));
    }
}
