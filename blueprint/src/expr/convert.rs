//! Conversions `int()`, `float()` and `str()` with Python's parsing rules and error messages.

use super::arith::overflow;
use super::budget::{Budget, check_string_len};
use super::error::EvalError;
use super::math;
use super::value::Value;

/// Python `int(x)`: truncates floats toward zero and parses decimal strings (charged first).
pub(crate) fn to_int(value: &Value, budget: &mut Budget) -> Result<Value, EvalError> {
    match value {
        Value::Int(_) | Value::Bool(_) => Ok(Value::Int(value.as_i64().unwrap_or(0))),
        Value::Float(float) => math::float_to_int(*float).map(Value::Int),
        Value::Str(text) => {
            budget.charge_chars(text.len())?;
            parse_int(text).map(Value::Int)
        }
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

/// Python `float(x)`: numbers convert, strings parse (including `inf` and `nan`; charged first).
pub(crate) fn to_float(value: &Value, budget: &mut Budget) -> Result<f64, EvalError> {
    match value {
        Value::Str(text) => {
            budget.charge_chars(text.len())?;
            parse_float(text)
        }
        Value::List(_) => Err(EvalError::new(
            "float() argument must be a string or a real number, not 'list'",
        )),
        number => Ok(number.as_f64().unwrap_or(0.0)),
    }
}

/// Python's float syntax: Rust's, which takes `inf`, `infinity` and `nan` in any case too, with
/// underscores between digits (removed before parsing, more leniently than Python).
fn parse_float(text: &str) -> Result<f64, EvalError> {
    let trimmed = text.trim();
    let parsed = match trimmed.parse::<f64>() {
        Ok(float) => Some(float),
        Err(_)
            if trimmed.contains('_')
                && trimmed
                    .bytes()
                    .all(|byte| byte.is_ascii_digit() || b"+-.eE_".contains(&byte)) =>
        {
            trimmed.replace('_', "").parse::<f64>().ok()
        }
        Err(_) => None,
    };
    parsed.ok_or_else(|| {
        let shown = Value::from(text).to_repr_string();
        EvalError::new(format!("could not convert string to float: {shown}"))
    })
}

/// Python `str(x)`, bounded by the string size limit; charged for rendering every element
/// before it is rendered, then for the text.
pub(crate) fn to_str(value: &Value, budget: &mut Budget) -> Result<Value, EvalError> {
    budget.charge_render(value)?;
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
        to_float(&value, &mut Budget::new()).map(Value::Float)
    }

    fn int(value: &Value) -> Result<Value, EvalError> {
        to_int(value, &mut Budget::new())
    }

    #[test]
    fn integers() {
        check(int(&Float(-2.9)), Ok(Int(-2)));
        check(int(&Float(2.9)), Ok(Int(2)));
        check(int(&Bool(true)), Ok(Int(1)));
        check(int(&text(" -42 ")), Ok(Int(-42)));
        check(int(&text("+7")), Ok(Int(7)));
        check(int(&text("1_000")), Ok(Int(1000)));
        check(
            int(&text("4.5")),
            Err("invalid literal for int() with base 10: '4.5'"),
        );
        check(int(&text("")), Err("invalid literal"));
        check(int(&text("1__0")), Err("invalid literal"));
        check(int(&text("_1")), Err("invalid literal"));
        check(int(&text("99999999999999999999")), Err("overflow"));
        check(int(&Float(f64::NAN)), Err("NaN"));
        check(int(&Float(f64::INFINITY)), Err("infinity"));
        check(int(&Float(1e19)), Err("overflow"));
        check(int(&Value::List(vec![])), Err("not 'list'"));
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
        assert!(to_float(&text("nan"), &mut Budget::new()).is_ok_and(f64::is_nan));
        check(
            float(text("abc")),
            Err("could not convert string to float: 'abc'"),
        );
        check(float(text("")), Err("could not convert"));
        check(float(text(" INF ")), Ok(Float(f64::INFINITY)));
        check(float(text("1_000.5")), Ok(Float(1000.5)));
        check(float(text("+-1")), Err("could not convert"));
        check(float(text("1.5x")), Err("could not convert"));
        assert!(to_float(&text("-NaN"), &mut Budget::new()).is_ok_and(f64::is_nan));
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
