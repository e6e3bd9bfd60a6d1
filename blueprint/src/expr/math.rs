//! Numeric functions: `round` (half to even), `floor`, `ceil`, `sqrt` and degree-based trigonometry.

use super::arith::overflow;
use super::budget::Budget;
use super::error::EvalError;
use super::numfmt::integer_digits;
use super::value::{Num, Value};
use super::whitelist::Builtin;

fn domain_error() -> EvalError {
    EvalError::new("math domain error")
}

fn real_number(value: &Value) -> Result<Num, EvalError> {
    value
        .as_number()
        .ok_or_else(|| EvalError::new(format!("must be real number, not {}", value.type_name())))
}

/// Converts an integral-valued float to `i64` like Python `int()` (which truncates).
pub(crate) fn float_to_int(float: f64) -> Result<i64, EvalError> {
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    if float.is_nan() {
        return Err(EvalError::new("cannot convert float NaN to integer"));
    }
    if float.is_infinite() {
        return Err(EvalError::new("cannot convert float infinity to integer"));
    }
    let whole = float.trunc();
    if !(-TWO_POW_63..TWO_POW_63).contains(&whole) {
        return Err(overflow());
    }
    Ok(whole as i64)
}

/// Python `round(x)` (an int, ties to even) and `round(x, n)`; rounding a float to `n >= 0`
/// places writes its exact decimal digits, charged first.
pub(crate) fn round(
    value: &Value,
    digits: Option<&Value>,
    budget: &mut Budget,
) -> Result<Value, EvalError> {
    let number = value.as_number().ok_or_else(|| {
        EvalError::new(format!(
            "type {} doesn't define __round__ method",
            value.type_name()
        ))
    })?;
    let Some(digits) = digits else {
        return match number {
            Num::Int(int) => Ok(Value::Int(int)),
            Num::Float(float) => float_to_int(float.round_ties_even()).map(Value::Int),
        };
    };
    let digits = digits.as_i64().ok_or_else(|| {
        EvalError::new(format!(
            "'{}' object cannot be interpreted as an integer",
            digits.type_name()
        ))
    })?;
    match number {
        Num::Int(int) if digits >= 0 => Ok(Value::Int(int)),
        Num::Int(int) => round_int_to_tens(int, digits.unsigned_abs()).map(Value::Int),
        Num::Float(float) => {
            if let Ok(places) = usize::try_from(digits) {
                budget.charge_digits(integer_digits(float.abs()) + places.min(ROUND_MAX_PLACES))?;
            }
            Ok(Value::Float(round_float(float, digits)))
        }
    }
}

/// Beyond this many decimal places `round` returns a float unchanged (no float has more).
const ROUND_MAX_PLACES: usize = 323;

/// Rounds `int` to a multiple of `10**power`, ties to even.
fn round_int_to_tens(int: i64, power: u64) -> Result<i64, EvalError> {
    let Some(unit) = u32::try_from(power)
        .ok()
        .and_then(|power| 10_i128.checked_pow(power))
    else {
        return Ok(0);
    };
    let rounded = round_magnitude(i128::from(int).abs(), 0.0, unit);
    let signed = if int < 0 { -rounded } else { rounded };
    i64::try_from(signed).map_err(|_| overflow())
}

/// Rounds `integer + fraction` (both non-negative, `fraction < 1`) to a multiple of `unit`
/// (a power of ten of at least 10), ties to even.
fn round_magnitude(integer: i128, fraction: f64, unit: i128) -> i128 {
    let quotient = integer / unit;
    let remainder = integer % unit;
    let half = unit / 2;
    let round_up = remainder > half || (remainder == half && (fraction > 0.0 || quotient % 2 == 1));
    (quotient + i128::from(round_up)) * unit
}

/// Python `round(float, n)`: correctly rounded to `n` decimal places (ties to even on the exact
/// binary value, so `round(2.675, 2) == 2.67`).
fn round_float(float: f64, digits: i64) -> f64 {
    if !float.is_finite() || digits > ROUND_MAX_PLACES as i64 {
        return float;
    }
    if digits >= 0 {
        let text = format!("{float:.prec$}", prec = digits.unsigned_abs() as usize);
        return text.parse().unwrap_or(float);
    }
    let power = digits.unsigned_abs();
    let magnitude = float.abs();
    let rounded = match u32::try_from(power)
        .ok()
        .and_then(|power| 10_i128.checked_pow(power))
    {
        None => 0.0,
        Some(unit) if magnitude < 1e30 => {
            let whole = magnitude.trunc();
            round_magnitude(whole as i128, magnitude - whole, unit) as f64
        }
        Some(_) => {
            // Beyond 1e30 only an approximate scaling is used (documented deviation).
            let scale = 10_f64.powi(i32::try_from(power).unwrap_or(i32::MAX));
            (magnitude / scale).round_ties_even() * scale
        }
    };
    rounded.copysign(float)
}

/// `sqrt`, `floor` and `ceil`.
pub(crate) fn unary_math(builtin: Builtin, value: &Value) -> Result<Value, EvalError> {
    let number = real_number(value)?;
    match (builtin, number) {
        (Builtin::Floor | Builtin::Ceil, Num::Int(int)) => Ok(Value::Int(int)),
        (Builtin::Floor, Num::Float(float)) => float_to_int(float.floor()).map(Value::Int),
        (Builtin::Ceil, Num::Float(float)) => float_to_int(float.ceil()).map(Value::Int),
        _ => {
            let float = number.to_f64();
            if float < 0.0 {
                return Err(domain_error());
            }
            Ok(Value::Float(float.sqrt()))
        }
    }
}

const SIN_EXACT: [(f64, f64); 8] = [
    (0.0, 0.0),
    (30.0, 0.5),
    (90.0, 1.0),
    (150.0, 0.5),
    (180.0, 0.0),
    (210.0, -0.5),
    (270.0, -1.0),
    (330.0, -0.5),
];
const COS_EXACT: [(f64, f64); 8] = [
    (0.0, 1.0),
    (60.0, 0.5),
    (90.0, 0.0),
    (120.0, -0.5),
    (180.0, -1.0),
    (240.0, -0.5),
    (270.0, 0.0),
    (300.0, 0.5),
];
const TAN_EXACT: [(f64, f64); 3] = [(0.0, 0.0), (45.0, 1.0), (135.0, -1.0)];
const ASIN_EXACT: [(f64, f64); 5] = [
    (0.0, 0.0),
    (0.5, 30.0),
    (-0.5, -30.0),
    (1.0, 90.0),
    (-1.0, -90.0),
];
const ATAN_EXACT: [(f64, f64); 3] = [(0.0, 0.0), (1.0, 45.0), (-1.0, -45.0)];

fn exact(table: &[(f64, f64)], key: f64) -> Option<f64> {
    table
        .iter()
        .find(|(input, _)| *input == key)
        .map(|(_, output)| *output)
}

/// Degree-based trigonometry. Angles that are multiples of 30° or 45° with rational results
/// give exact values (`sin_deg(30) == 0.5`, `tan_deg(45) == 1.0`); `tan_deg(90)` is an error.
pub(crate) fn trig(builtin: Builtin, value: &Value) -> Result<Value, EvalError> {
    let x = real_number(value)?.to_f64();
    let result = match builtin {
        Builtin::SinDeg | Builtin::CosDeg | Builtin::TanDeg if !x.is_finite() => {
            return Err(domain_error());
        }
        Builtin::SinDeg => {
            let angle = x.rem_euclid(360.0);
            exact(&SIN_EXACT, angle).unwrap_or_else(|| angle.to_radians().sin())
        }
        Builtin::CosDeg => {
            let angle = x.rem_euclid(360.0);
            exact(&COS_EXACT, angle).unwrap_or_else(|| angle.to_radians().cos())
        }
        Builtin::TanDeg => {
            let angle = x.rem_euclid(180.0);
            if angle == 90.0 {
                return Err(domain_error());
            }
            exact(&TAN_EXACT, angle).unwrap_or_else(|| angle.to_radians().tan())
        }
        Builtin::AsinDeg if !(-1.0..=1.0).contains(&x) => return Err(domain_error()),
        Builtin::AsinDeg => exact(&ASIN_EXACT, x).unwrap_or_else(|| x.asin().to_degrees()),
        _ => exact(&ATAN_EXACT, x).unwrap_or_else(|| x.atan().to_degrees()),
    };
    Ok(Value::Float(result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::{Bool, Float, Int};

    fn check(actual: Result<Value, EvalError>, expected: Result<Value, &str>) {
        match (actual, expected) {
            (Ok(actual), Ok(expected)) => assert_eq!(actual, expected),
            (Err(error), Err(fragment)) => assert!(error.message.contains(fragment), "{error}"),
            (actual, expected) => panic!("{actual:?} vs {expected:?}"),
        }
    }

    fn round_to(value: Value, digits: i64) -> Result<Value, EvalError> {
        round(&value, Some(&Int(digits)), &mut Budget::new())
    }

    fn round_int(value: &Value) -> Result<Value, EvalError> {
        round(value, None, &mut Budget::new())
    }

    #[test]
    fn round_half_even() {
        check(round_int(&Float(2.5)), Ok(Int(2)));
        check(round_int(&Float(3.5)), Ok(Int(4)));
        check(round_int(&Float(-2.5)), Ok(Int(-2)));
        check(round_int(&Float(0.5)), Ok(Int(0)));
        check(round_int(&Float(2.6)), Ok(Int(3)));
        check(round_int(&Int(7)), Ok(Int(7)));
        check(round_int(&Bool(true)), Ok(Int(1)));
        check(round_int(&Float(f64::INFINITY)), Err("infinity"));
        check(round_int(&Value::from("1")), Err("__round__"));
        check(round_to(Float(2.675), 2), Ok(Float(2.67)));
        check(round_to(Float(0.125), 2), Ok(Float(0.12)));
        check(round_to(Float(0.375), 2), Ok(Float(0.38)));
        check(round_to(Float(1.23456), 3), Ok(Float(1.235)));
        check(round_to(Float(-1.5), 0), Ok(Float(-2.0)));
        check(round_to(Float(1234.5), -2), Ok(Float(1200.0)));
        check(round_to(Float(1250.0), -2), Ok(Float(1200.0)));
        check(round_to(Float(1350.0), -2), Ok(Float(1400.0)));
        check(round_to(Float(1250.5), -2), Ok(Float(1300.0)));
        check(round_to(Float(-1250.0), -2), Ok(Float(-1200.0)));
        check(round_to(Float(5.0), -400), Ok(Float(0.0)));
        check(round_to(Float(1.5), 400), Ok(Float(1.5)));
        check(round_to(Int(5), 2), Ok(Int(5)));
        check(round_to(Int(25), -1), Ok(Int(20)));
        check(round_to(Int(35), -1), Ok(Int(40)));
        check(round_to(Int(-1234), -2), Ok(Int(-1200)));
        check(
            round_to(Int(i64::MAX), -18),
            Ok(Int(9_000_000_000_000_000_000)),
        );
        check(round_to(Int(i64::MAX), -19), Err("overflow"));
        check(round_to(Int(i64::MAX), -40), Ok(Int(0)));
        check(
            round(&Float(1.5), Some(&Float(1.0)), &mut Budget::new()),
            Err("cannot be interpreted as an integer"),
        );
    }

    #[test]
    fn floor_ceil_sqrt() {
        check(unary_math(Builtin::Floor, &Float(-2.5)), Ok(Int(-3)));
        check(unary_math(Builtin::Ceil, &Float(-2.5)), Ok(Int(-2)));
        check(unary_math(Builtin::Ceil, &Float(2.1)), Ok(Int(3)));
        check(unary_math(Builtin::Floor, &Int(4)), Ok(Int(4)));
        check(unary_math(Builtin::Floor, &Float(f64::NAN)), Err("NaN"));
        check(unary_math(Builtin::Sqrt, &Int(16)), Ok(Float(4.0)));
        check(unary_math(Builtin::Sqrt, &Float(2.25)), Ok(Float(1.5)));
        check(
            unary_math(Builtin::Sqrt, &Int(-1)),
            Err("math domain error"),
        );
        check(
            unary_math(Builtin::Sqrt, &Value::from("4")),
            Err("must be real number, not str"),
        );
    }

    #[test]
    fn trigonometry_in_degrees() {
        check(trig(Builtin::SinDeg, &Int(30)), Ok(Float(0.5)));
        check(trig(Builtin::SinDeg, &Int(-90)), Ok(Float(-1.0)));
        check(trig(Builtin::SinDeg, &Int(390)), Ok(Float(0.5)));
        check(trig(Builtin::SinDeg, &Int(180)), Ok(Float(0.0)));
        check(trig(Builtin::CosDeg, &Int(60)), Ok(Float(0.5)));
        check(trig(Builtin::CosDeg, &Int(90)), Ok(Float(0.0)));
        check(trig(Builtin::CosDeg, &Int(0)), Ok(Float(1.0)));
        check(trig(Builtin::TanDeg, &Int(45)), Ok(Float(1.0)));
        check(trig(Builtin::TanDeg, &Int(-45)), Ok(Float(-1.0)));
        check(trig(Builtin::TanDeg, &Int(90)), Err("math domain error"));
        check(trig(Builtin::TanDeg, &Int(270)), Err("math domain error"));
        check(trig(Builtin::AsinDeg, &Float(0.5)), Ok(Float(30.0)));
        check(trig(Builtin::AsinDeg, &Int(2)), Err("math domain error"));
        check(trig(Builtin::AtanDeg, &Int(1)), Ok(Float(45.0)));
        check(
            trig(Builtin::SinDeg, &Float(f64::INFINITY)),
            Err("math domain error"),
        );
        check(
            trig(Builtin::SinDeg, &Value::from("30")),
            Err("must be real number"),
        );
        let sin_45 = trig(Builtin::SinDeg, &Int(45))
            .ok()
            .and_then(|value| value.as_f64());
        assert!(
            sin_45.is_some_and(|value| (value - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-15)
        );
        let asin_half_root = trig(Builtin::AsinDeg, &Float(0.75_f64.sqrt()))
            .ok()
            .and_then(|v| v.as_f64());
        assert!(asin_half_root.is_some_and(|value| (value - 60.0).abs() < 1e-12));
    }
}
