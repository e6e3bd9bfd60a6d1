//! Typed values in an answer: numbers with their units (durations, heights, distances,
//! speeds, shares, counts of named things), transponder codes, frequencies, light signals
//! and classes of airspace, compared with a rubric fact's value in like units.

use viva_blueprint::rubric::FactValue;

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

/// The number a rubric value is written with, in its own unit (`None` for a code, a light
/// signal or a class).
pub fn written_amount(value: &FactValue) -> Option<f64> {
    match value {
        FactValue::Count { amount, .. }
        | FactValue::Duration { amount, .. }
        | FactValue::Distance { amount, .. }
        | FactValue::Speed { amount, .. }
        | FactValue::Percent { amount } => Some(*amount),
        FactValue::Altitude { feet, .. } => Some(*feet),
        FactValue::Frequency { mhz } => Some(*mhz),
        FactValue::Squawk { .. }
        | FactValue::LightSignal { .. }
        | FactValue::AirspaceClass { .. } => None,
    }
}

/// The stems naming what a count counts (`takeoffs and landings` -> `takeoff`, `land`).
pub(super) fn count_stems(of: &str) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn value(measure: Measure, amount: f64) -> Value {
        Value { measure, amount }
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
