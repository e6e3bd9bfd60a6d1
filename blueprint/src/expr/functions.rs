//! Calling whitelisted functions, and the general-purpose ones (`abs`, `min`, `max`, `len`,
//! `sum`); the whitelist itself is in `whitelist`.

use std::borrow::Cow;

use super::arith::overflow;
use super::budget::Budget;
use super::compare::order;
use super::convert;
use super::error::EvalError;
use super::math;
use super::network;
use super::value::{Num, Value};
use super::whitelist::{Builtin, arg};

/// Calls `builtin` with already evaluated arguments (arity was checked at compile time).
pub(crate) fn call(
    builtin: Builtin,
    args: &[Cow<'_, Value>],
    budget: &mut Budget,
) -> Result<Value, EvalError> {
    let first = arg(args, 0)?;
    match builtin {
        Builtin::Abs => abs(first),
        Builtin::Min | Builtin::Max => extremum(builtin, args, budget),
        Builtin::Round => math::round(first, args.get(1).map(AsRef::as_ref), budget),
        Builtin::Int => convert::to_int(first, budget),
        Builtin::Float => convert::to_float(first, budget).map(Value::Float),
        Builtin::Str => convert::to_str(first, budget),
        Builtin::Len => len(first, budget),
        Builtin::Sum => sum(first, budget),
        Builtin::Sqrt | Builtin::Floor | Builtin::Ceil => math::unary_math(builtin, first),
        Builtin::SinDeg | Builtin::CosDeg | Builtin::TanDeg => math::trig(builtin, first),
        Builtin::AsinDeg | Builtin::AtanDeg => math::trig(builtin, first),
        _ => network::call(builtin, args, budget),
    }
}

fn abs(value: &Value) -> Result<Value, EvalError> {
    match value.as_number() {
        Some(Num::Int(int)) => int.checked_abs().map(Value::Int).ok_or_else(overflow),
        Some(Num::Float(float)) => Ok(Value::Float(float.abs())),
        None => Err(EvalError::new(format!(
            "bad operand type for abs(): '{}'",
            value.type_name()
        ))),
    }
}

/// `min`/`max` over the arguments, or over the items of a single list or string argument.
/// Charged per candidate, per comparison (deeply, see [`order`]) and for copying the result.
fn extremum(
    builtin: Builtin,
    args: &[Cow<'_, Value>],
    budget: &mut Budget,
) -> Result<Value, EvalError> {
    let candidates: Vec<&Value> = match args {
        [single] => match single.as_ref() {
            Value::List(items) => items.iter().collect(),
            Value::Str(text) => return extreme_char(builtin, text, budget),
            other => {
                let message = format!("'{}' object is not iterable", other.type_name());
                return Err(EvalError::new(message));
            }
        },
        many => many.iter().map(AsRef::as_ref).collect(),
    };
    budget.charge(candidates.len())?;
    let (symbol, wanted) = match builtin {
        Builtin::Min => ("<", std::cmp::Ordering::Less),
        _ => (">", std::cmp::Ordering::Greater),
    };
    let mut iter = candidates.into_iter();
    let mut best = iter.next().ok_or_else(|| empty_sequence(builtin))?;
    for candidate in iter {
        if order(symbol, candidate, best, budget)? == Some(wanted) {
            best = candidate;
        }
    }
    budget.charge_value(best)?;
    Ok(best.clone())
}

/// `min`/`max` of a string: its smallest or largest character (code point order, as Python).
fn extreme_char(builtin: Builtin, text: &str, budget: &mut Budget) -> Result<Value, EvalError> {
    budget.charge_chars(text.len())?;
    let extreme = match builtin {
        Builtin::Min => text.chars().min(),
        _ => text.chars().max(),
    };
    extreme
        .map(|ch| Value::Str(ch.to_string()))
        .ok_or_else(|| empty_sequence(builtin))
}

fn empty_sequence(builtin: Builtin) -> EvalError {
    EvalError::new(format!("{}() arg is an empty sequence", builtin.name()))
}

fn len(value: &Value, budget: &mut Budget) -> Result<Value, EvalError> {
    let count = match value {
        Value::Str(text) => {
            budget.charge_chars(text.len())?;
            text.chars().count()
        }
        Value::List(items) => items.len(),
        other => {
            let message = format!("object of type '{}' has no len()", other.type_name());
            return Err(EvalError::new(message));
        }
    };
    i64::try_from(count).map(Value::Int).map_err(|_| overflow())
}

/// Python `sum(list)`: exact integer sum, switching to compensated float summation (as
/// CPython 3.12+) at the first float.
fn sum(value: &Value, budget: &mut Budget) -> Result<Value, EvalError> {
    let Value::List(items) = value else {
        let message = format!("'{}' object is not iterable", value.type_name());
        return Err(EvalError::new(message));
    };
    budget.charge(items.len())?;
    let mut int_total: i64 = 0;
    let mut float_total: Option<(f64, f64)> = None;
    for item in items {
        match (float_total.as_mut(), item.as_number()) {
            (None, Some(Num::Int(int))) => {
                int_total = int_total.checked_add(int).ok_or_else(overflow)?
            }
            (None, Some(Num::Float(float))) => float_total = Some((int_total as f64 + float, 0.0)),
            (Some((total, _)), Some(Num::Int(int))) => *total += int as f64,
            (Some((total, compensation)), Some(Num::Float(float))) => {
                let next = *total + float;
                *compensation += if total.abs() >= float.abs() {
                    (*total - next) + float
                } else {
                    (float - next) + *total
                };
                *total = next;
            }
            (state, None) => {
                let running = if state.is_some() { "float" } else { "int" };
                let message = format!(
                    "unsupported operand type(s) for +: '{running}' and '{}'",
                    item.type_name()
                );
                return Err(EvalError::new(message));
            }
        }
    }
    Ok(match float_total {
        None => Value::Int(int_total),
        Some((total, compensation)) if compensation != 0.0 && compensation.is_finite() => {
            Value::Float(total + compensation)
        }
        Some((total, _)) => Value::Float(total),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::{Bool, Float, Int};

    fn text(value: &str) -> Value {
        Value::from(value)
    }

    fn list(items: Vec<Value>) -> Value {
        Value::List(items)
    }

    fn check(builtin: Builtin, args: Vec<Value>, expected: Result<Value, &str>) {
        let owned: Vec<Cow<'_, Value>> = args.into_iter().map(Cow::Owned).collect();
        match (call(builtin, &owned, &mut Budget::new()), expected) {
            (Ok(actual), Ok(expected)) => assert_eq!(actual, expected, "{builtin:?}"),
            (Err(error), Err(fragment)) => assert!(error.message.contains(fragment), "{error}"),
            (actual, expected) => panic!("{builtin:?}: {actual:?} vs {expected:?}"),
        }
    }

    #[test]
    fn general_functions() {
        check(Builtin::Abs, vec![Int(-3)], Ok(Int(3)));
        check(Builtin::Abs, vec![Float(-2.5)], Ok(Float(2.5)));
        check(Builtin::Abs, vec![Bool(true)], Ok(Int(1)));
        check(Builtin::Abs, vec![Int(i64::MIN)], Err("overflow"));
        check(
            Builtin::Abs,
            vec![text("x")],
            Err("bad operand type for abs(): 'str'"),
        );
        check(
            Builtin::Min,
            vec![Int(3), Float(1.5), Int(2)],
            Ok(Float(1.5)),
        );
        check(
            Builtin::Max,
            vec![list(vec![Int(3), Int(9), Int(2)])],
            Ok(Int(9)),
        );
        check(Builtin::Min, vec![Int(1), Float(1.0)], Ok(Int(1)));
        check(Builtin::Max, vec![text("bca")], Ok(text("c")));
        check(
            Builtin::Min,
            vec![list(vec![])],
            Err("min() arg is an empty sequence"),
        );
        check(
            Builtin::Max,
            vec![Int(1), text("a")],
            Err("'>' not supported"),
        );
        check(
            Builtin::Min,
            vec![Int(1)],
            Err("'int' object is not iterable"),
        );
        check(Builtin::Len, vec![text("héllo")], Ok(Int(5)));
        check(Builtin::Len, vec![list(vec![Int(1), Int(2)])], Ok(Int(2)));
        check(
            Builtin::Len,
            vec![Int(5)],
            Err("object of type 'int' has no len()"),
        );
        check(Builtin::Str, vec![Float(3.0)], Ok(text("3.0")));
        check(Builtin::Str, vec![list(vec![text("a")])], Ok(text("['a']")));
    }

    #[test]
    fn sums() {
        check(
            Builtin::Sum,
            vec![list(vec![Int(1), Int(2), Bool(true)])],
            Ok(Int(4)),
        );
        check(Builtin::Sum, vec![list(vec![])], Ok(Int(0)));
        check(
            Builtin::Sum,
            vec![list(vec![Float(0.1); 10])],
            Ok(Float(1.0)),
        );
        check(
            Builtin::Sum,
            vec![list(vec![Float(0.1), Float(0.2), Float(0.3)])],
            Ok(Float(0.6)),
        );
        check(
            Builtin::Sum,
            vec![list(vec![Int(1), Float(0.5), Int(2)])],
            Ok(Float(3.5)),
        );
        check(
            Builtin::Sum,
            vec![list(vec![Int(i64::MAX), Int(1)])],
            Err("overflow"),
        );
        check(
            Builtin::Sum,
            vec![list(vec![Int(1), text("a")])],
            Err("'int' and 'str'"),
        );
        check(Builtin::Sum, vec![Int(1)], Err("not iterable"));
    }
}
