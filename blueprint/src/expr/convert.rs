//! Conversions `int()`, `float()` and `str()` with Python's parsing rules and error messages.

use super::arith::overflow;
use super::budget::{Budget, check_string_len};
use super::error::EvalError;
use super::math;
use super::value::Value;

/// Python `int(x)`: truncates floats toward zero and parses decimal strings.
pub(crate) fn to_int(value: &Value) -> Result<Value, EvalError> {
    match value {
        Value::Int(_) | Value::Bool(_) => Ok(Value::Int(value.as_i64().unwrap_or(0))),
        Value::Float(float) => math::float_to_int(*float).map(Value::Int),
        Value::Str(text) => parse_int(text).map(Value::Int),
        Value::List(_) => Err(EvalError::new(
            "int() argument must be a string or a number, not 'list'",
        )),
    }
}

fn parse_int(text: &str) -> Result<i64, EvalError> {
    let invalid = || {
        let shown = Value::from(text).to_repr_string();
        EvalError::new(format!("invalid literal for int() with base 10: {shown}"))
    };
    let trimmed = text.trim();
    let digits = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    let well_formed = !digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_');
    if !well_formed {
        return Err(invalid());
    }
    trimmed
        .replace('_', "")
        .parse::<i64>()
        .map_err(|_| overflow())
}

/// Python `float(x)`: numbers convert, strings parse (including `inf` and `nan`).
pub(crate) fn to_float(value: &Value) -> Result<f64, EvalError> {
    match value {
        Value::Str(text) => parse_float(text),
        Value::List(_) => Err(EvalError::new(
            "float() argument must be a string or a real number, not 'list'",
        )),
        number => Ok(number.as_f64().unwrap_or(0.0)),
    }
}

fn parse_float(text: &str) -> Result<f64, EvalError> {
    let trimmed = text.trim();
    let lowered = trimmed.to_ascii_lowercase();
    let unsigned = lowered.strip_prefix(['+', '-']).unwrap_or(&lowered);
    let negative = lowered.starts_with('-');
    let special = match unsigned {
        "inf" | "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    };
    if let Some(special) = special {
        return Ok(if negative { -special } else { special });
    }
    let allowed = |c: char| c.is_ascii_digit() || "+-.eE_".contains(c);
    let parsed = if trimmed.chars().all(allowed) {
        trimmed.replace('_', "").parse::<f64>().ok()
    } else {
        None
    };
    parsed.ok_or_else(|| {
        let shown = Value::from(text).to_repr_string();
        EvalError::new(format!("could not convert string to float: {shown}"))
    })
}

/// Python `str(x)`, bounded by the string size limit.
pub(crate) fn to_str(value: &Value, budget: &mut Budget) -> Result<Value, EvalError> {
    let text = value.to_display_string();
    let chars = text.chars().count();
    budget.charge_chars(chars)?;
    check_string_len(chars)?;
    Ok(Value::Str(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::{Bool, Float, Int};

    fn text(value: &str) -> Value {
        Value::from(value)
    }

    fn check(actual: Result<Value, EvalError>, expected: Result<Value, &str>) {
        match (actual, expected) {
            (Ok(actual), Ok(expected)) => assert_eq!(actual, expected),
            (Err(error), Err(fragment)) => assert!(error.message.contains(fragment), "{error}"),
            (actual, expected) => panic!("{actual:?} vs {expected:?}"),
        }
    }

    fn float(value: Value) -> Result<Value, EvalError> {
        to_float(&value).map(Value::Float)
    }

    #[test]
    fn integers() {
        check(to_int(&Float(-2.9)), Ok(Int(-2)));
        check(to_int(&Float(2.9)), Ok(Int(2)));
        check(to_int(&Bool(true)), Ok(Int(1)));
        check(to_int(&text(" -42 ")), Ok(Int(-42)));
        check(to_int(&text("+7")), Ok(Int(7)));
        check(to_int(&text("1_000")), Ok(Int(1000)));
        check(
            to_int(&text("4.5")),
            Err("invalid literal for int() with base 10: '4.5'"),
        );
        check(to_int(&text("")), Err("invalid literal"));
        check(to_int(&text("1__0")), Err("invalid literal"));
        check(to_int(&text("_1")), Err("invalid literal"));
        check(to_int(&text("99999999999999999999")), Err("overflow"));
        check(to_int(&Float(f64::NAN)), Err("NaN"));
        check(to_int(&Float(f64::INFINITY)), Err("infinity"));
        check(to_int(&Float(1e19)), Err("overflow"));
        check(to_int(&Value::List(vec![])), Err("not 'list'"));
    }

    #[test]
    fn floats() {
        check(float(Int(3)), Ok(Float(3.0)));
        check(float(Bool(true)), Ok(Float(1.0)));
        check(float(text(" 2.5 ")), Ok(Float(2.5)));
        check(float(text("1e3")), Ok(Float(1000.0)));
        check(float(text(".5")), Ok(Float(0.5)));
        check(float(text("-inf")), Ok(Float(f64::NEG_INFINITY)));
        check(float(text("Infinity")), Ok(Float(f64::INFINITY)));
        assert!(to_float(&text("nan")).is_ok_and(f64::is_nan));
        check(
            float(text("abc")),
            Err("could not convert string to float: 'abc'"),
        );
        check(float(text("")), Err("could not convert"));
        check(float(Value::List(vec![])), Err("not 'list'"));
    }

    #[test]
    fn strings() {
        let mut budget = Budget::new();
        check(to_str(&Float(3.0), &mut budget), Ok(text("3.0")));
        check(
            to_str(&Value::List(vec![text("a")]), &mut budget),
            Ok(text("['a']")),
        );
        check(to_str(&Bool(false), &mut budget), Ok(text("False")));
        let long = Value::List(vec![Value::Int(1_000_000); 1_000]);
        check(to_str(&long, &mut budget), Err("string too long"));
    }
}
