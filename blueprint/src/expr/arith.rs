//! Arithmetic with Python semantics: checked integers, floor division and modulo signs, `**`
//! rules, and bounded string/list concatenation and repetition.

use super::ast::{BinaryOp, UnaryOp};
use super::budget::{Budget, check_list_len, check_string_len, repeat_count};
use super::error::EvalError;
use super::value::{Num, Value};

/// The error for an integer result outside the 64-bit range.
pub(crate) fn overflow() -> EvalError {
    EvalError::new("integer overflow (result does not fit in 64 bits)")
}

/// Applies a binary arithmetic operator.
pub(crate) fn binary(
    op: BinaryOp,
    left: &Value,
    right: &Value,
    budget: &mut Budget,
) -> Result<Value, EvalError> {
    match (op, left, right) {
        (BinaryOp::Add, Value::Str(a), Value::Str(b)) => concat_strings(a, b, budget),
        (BinaryOp::Add, Value::List(a), Value::List(b)) => concat_lists(a, b, budget),
        (BinaryOp::Mul, _, _) => match repetition(left, right) {
            Some((Value::Str(text), count)) => repeat_string(text, count, budget),
            Some((Value::List(items), count)) => repeat_list(items, count, budget),
            _ => arithmetic(op, left, right),
        },
        _ => arithmetic(op, left, right),
    }
}

/// Recognises `sequence * int` and `int * sequence`.
fn repetition<'v>(left: &'v Value, right: &'v Value) -> Option<(&'v Value, i64)> {
    match (left, right) {
        (Value::Str(_) | Value::List(_), count) => count.as_i64().map(|count| (left, count)),
        (count, Value::Str(_) | Value::List(_)) => count.as_i64().map(|count| (right, count)),
        _ => None,
    }
}

/// `left + right` for strings: charged for both operands before they are counted or copied.
fn concat_strings(left: &str, right: &str, budget: &mut Budget) -> Result<Value, EvalError> {
    budget.charge_chars(left.len() + right.len())?;
    check_string_len(left.chars().count() + right.chars().count())?;
    Ok(Value::Str(format!("{left}{right}")))
}

/// `left + right` for lists: charged for copying every element of both.
fn concat_lists(left: &[Value], right: &[Value], budget: &mut Budget) -> Result<Value, EvalError> {
    check_list_len(left.len() + right.len())?;
    budget.charge(1)?;
    budget.charge_values(left)?;
    budget.charge_values(right)?;
    Ok(Value::List(left.iter().chain(right).cloned().collect()))
}

/// `text * count`: charged for scanning `text`, then its size is checked before anything is
/// built; an absurd count is refused even for `''`.
fn repeat_string(text: &str, count: i64, budget: &mut Budget) -> Result<Value, EvalError> {
    budget.charge_chars(text.len())?;
    check_string_len(text.chars().count().saturating_mul(times(count)))?;
    let count = repeat_count(count)?;
    budget.charge_chars(text.len().saturating_mul(count))?;
    Ok(Value::Str(text.repeat(count)))
}

/// `items * count`: the length is checked before anything is built, an absurd count is
/// refused even for `[]`, and every copy is charged before it is made.
fn repeat_list(items: &[Value], count: i64, budget: &mut Budget) -> Result<Value, EvalError> {
    check_list_len(items.len().saturating_mul(times(count)))?;
    let count = repeat_count(count)?;
    budget.charge(1)?;
    if items.is_empty() {
        return Ok(Value::List(Vec::new()));
    }
    let mut repeated = Vec::with_capacity(items.len() * count);
    for _ in 0..count {
        budget.charge_values(items)?;
        repeated.extend_from_slice(items);
    }
    Ok(Value::List(repeated))
}

/// A repetition count as a size factor: negative counts repeat zero times.
fn times(count: i64) -> usize {
    usize::try_from(count.max(0)).unwrap_or(usize::MAX)
}

fn type_error(op: BinaryOp, left: &Value, right: &Value) -> EvalError {
    EvalError::new(format!(
        "unsupported operand type(s) for {}: '{}' and '{}'",
        op.symbol(),
        left.type_name(),
        right.type_name()
    ))
}

fn arithmetic(op: BinaryOp, left: &Value, right: &Value) -> Result<Value, EvalError> {
    let (Some(a), Some(b)) = (left.as_number(), right.as_number()) else {
        return Err(type_error(op, left, right));
    };
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => int_arithmetic(op, x, y),
        _ => float_arithmetic(op, a.to_f64(), b.to_f64()).map(Value::Float),
    }
}

fn int_arithmetic(op: BinaryOp, x: i64, y: i64) -> Result<Value, EvalError> {
    let result = match op {
        BinaryOp::Add => x.checked_add(y),
        BinaryOp::Sub => x.checked_sub(y),
        BinaryOp::Mul => x.checked_mul(y),
        BinaryOp::Div if y == 0 => return Err(EvalError::new("division by zero")),
        // Exact for operands up to 2**53; beyond that the quotient may be off by one rounding.
        BinaryOp::Div => return Ok(Value::Float(x as f64 / y as f64)),
        BinaryOp::FloorDiv => return floor_div_int(x, y).map(Value::Int),
        BinaryOp::Mod => return mod_int(x, y).map(Value::Int),
        BinaryOp::Pow => return pow_int(x, y),
    };
    result.map(Value::Int).ok_or_else(overflow)
}

/// Python `x // y` for integers: the quotient rounded toward negative infinity.
fn floor_div_int(x: i64, y: i64) -> Result<i64, EvalError> {
    if y == 0 {
        return Err(EvalError::new("integer division or modulo by zero"));
    }
    let quotient = x.checked_div(y).ok_or_else(overflow)?;
    let remainder = x.checked_rem(y).unwrap_or(0);
    if remainder != 0 && ((remainder < 0) != (y < 0)) {
        Ok(quotient - 1)
    } else {
        Ok(quotient)
    }
}

/// Python `x % y` for integers: the result has the sign of the divisor.
fn mod_int(x: i64, y: i64) -> Result<i64, EvalError> {
    if y == 0 {
        return Err(EvalError::new("integer modulo by zero"));
    }
    let remainder = x.checked_rem(y).unwrap_or(0);
    if remainder != 0 && ((remainder < 0) != (y < 0)) {
        Ok(remainder + y)
    } else {
        Ok(remainder)
    }
}

/// Python `x ** y` for integers: an int for `y >= 0` (checked), a float for negative `y`.
fn pow_int(base: i64, exponent: i64) -> Result<Value, EvalError> {
    if exponent < 0 {
        return float_pow(base as f64, exponent as f64).map(Value::Float);
    }
    let result = match base {
        0 => i64::from(exponent == 0),
        1 => 1,
        -1 if exponent % 2 == 0 => 1,
        -1 => -1,
        _ => {
            let exponent = u32::try_from(exponent).map_err(|_| overflow())?;
            base.checked_pow(exponent).ok_or_else(overflow)?
        }
    };
    Ok(Value::Int(result))
}

fn float_arithmetic(op: BinaryOp, x: f64, y: f64) -> Result<f64, EvalError> {
    match op {
        BinaryOp::Add => Ok(x + y),
        BinaryOp::Sub => Ok(x - y),
        BinaryOp::Mul => Ok(x * y),
        BinaryOp::Div if y == 0.0 => Err(EvalError::new("float division by zero")),
        BinaryOp::Div => Ok(x / y),
        BinaryOp::FloorDiv if y == 0.0 => Err(EvalError::new("float floor division by zero")),
        BinaryOp::FloorDiv => Ok(float_divmod(x, y).0),
        BinaryOp::Mod if y == 0.0 => Err(EvalError::new("float modulo by zero")),
        BinaryOp::Mod => Ok(float_divmod(x, y).1),
        BinaryOp::Pow => float_pow(x, y),
    }
}

/// CPython's `float_divmod`: floor quotient and a remainder with the divisor's sign (`y != 0`).
fn float_divmod(x: f64, y: f64) -> (f64, f64) {
    let mut remainder = x % y;
    let mut quotient = (x - remainder) / y;
    if remainder != 0.0 {
        if (y < 0.0) != (remainder < 0.0) {
            remainder += y;
            quotient -= 1.0;
        }
    } else {
        remainder = 0.0_f64.copysign(y);
    }
    let floor_quotient = if quotient != 0.0 {
        let floored = quotient.floor();
        if quotient - floored > 0.5 {
            floored + 1.0
        } else {
            floored
        }
    } else {
        0.0_f64.copysign(x / y)
    };
    (floor_quotient, remainder)
}

/// Python float `**`: errors instead of complex results, division by zero or overflow.
pub(crate) fn float_pow(base: f64, exponent: f64) -> Result<f64, EvalError> {
    if exponent == 0.0 {
        return Ok(1.0);
    }
    if base == 0.0 && exponent < 0.0 {
        return Err(EvalError::new("0.0 cannot be raised to a negative power"));
    }
    if base < 0.0 && base.is_finite() && exponent.is_finite() && exponent.fract() != 0.0 {
        return Err(EvalError::new(
            "negative number cannot be raised to a fractional power",
        ));
    }
    let result = base.powf(exponent);
    if result.is_infinite() && base.is_finite() && exponent.is_finite() {
        return Err(EvalError::new("numerical result out of range"));
    }
    Ok(result)
}

/// Applies unary `-` or `+` (booleans become integers).
pub(crate) fn unary(op: UnaryOp, operand: &Value) -> Result<Value, EvalError> {
    match (op, operand.as_number()) {
        (UnaryOp::Neg, Some(Num::Int(int))) => {
            int.checked_neg().map(Value::Int).ok_or_else(overflow)
        }
        (UnaryOp::Neg, Some(Num::Float(float))) => Ok(Value::Float(-float)),
        (UnaryOp::Pos, Some(Num::Int(int))) => Ok(Value::Int(int)),
        (UnaryOp::Pos, Some(Num::Float(float))) => Ok(Value::Float(float)),
        (_, None) => Err(EvalError::new(format!(
            "bad operand type for unary {}: '{}'",
            if op == UnaryOp::Neg { "-" } else { "+" },
            operand.type_name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(op: BinaryOp, left: Value, right: Value) -> Result<Value, String> {
        binary(op, &left, &right, &mut Budget::new()).map_err(|error| error.message)
    }

    fn check(input: (BinaryOp, Value, Value), expected: Value) {
        let (op, left, right) = input;
        let description = format!("{left:?} {} {right:?}", op.symbol());
        assert_eq!(run(op, left, right), Ok(expected), "{description}");
    }

    fn check_error(input: (BinaryOp, Value, Value), fragment: &str) {
        let (op, left, right) = input;
        match run(op, left, right) {
            Ok(value) => panic!("expected error containing {fragment:?}, got {value:?}"),
            Err(message) => assert!(message.contains(fragment), "{message}"),
        }
    }

    use BinaryOp::{Add, Div, FloorDiv, Mod, Mul, Pow, Sub};
    use Value::{Bool, Float, Int};

    fn text(value: &str) -> Value {
        Value::from(value)
    }

    #[test]
    fn python_division_and_modulo() {
        check((FloorDiv, Int(-7), Int(2)), Int(-4));
        check((FloorDiv, Int(7), Int(-2)), Int(-4));
        check((FloorDiv, Int(7), Int(2)), Int(3));
        check((Mod, Int(-7), Int(3)), Int(2));
        check((Mod, Int(7), Int(-3)), Int(-2));
        check((Mod, Int(-7), Int(-3)), Int(-1));
        check((Mod, Int(i64::MIN), Int(-1)), Int(0));
        check((FloorDiv, Float(-7.0), Int(2)), Float(-4.0));
        check((Mod, Float(-7.5), Int(2)), Float(0.5));
        check((Mod, Float(7.5), Float(-2.0)), Float(-0.5));
        check((Mod, Float(-0.0), Float(3.0)), Float(0.0));
        check((Div, Int(7), Int(2)), Float(3.5));
        check((Div, Int(6), Int(3)), Float(2.0));
        check_error((Div, Int(1), Int(0)), "division by zero");
        check_error((FloorDiv, Int(1), Int(0)), "by zero");
        check_error((Mod, Int(1), Int(0)), "by zero");
        check_error((Mod, Float(1.0), Bool(false)), "by zero");
        check_error((FloorDiv, Int(i64::MIN), Int(-1)), "overflow");
    }

    #[test]
    fn powers() {
        check((Pow, Int(2), Int(10)), Int(1024));
        check((Pow, Int(2), Int(-1)), Float(0.5));
        check((Pow, Int(-1), Int(i64::MAX)), Int(-1));
        check((Pow, Int(0), Int(0)), Int(1));
        check((Pow, Int(4), Float(0.5)), Float(2.0));
        check((Pow, Float(-8.0), Int(2)), Float(64.0));
        check_error((Pow, Int(2), Int(10_000_000_000)), "overflow");
        check_error((Pow, Int(2), Int(63)), "overflow");
        check_error((Pow, Int(0), Int(-1)), "negative power");
        check_error((Pow, Float(-8.0), Float(0.5)), "fractional power");
        check_error((Pow, Float(10.0), Int(400)), "out of range");
    }

    #[test]
    fn checked_integers_and_mixed_types() {
        check((Add, Int(2), Float(0.5)), Float(2.5));
        check((Add, Bool(true), Bool(true)), Int(2));
        check((Sub, Int(5), Bool(true)), Int(4));
        check((Mul, Int(3), Float(1.5)), Float(4.5));
        check_error((Add, Int(i64::MAX), Int(1)), "overflow");
        check_error((Sub, Int(i64::MIN), Int(1)), "overflow");
        check_error((Mul, Int(i64::MAX), Int(2)), "overflow");
        check_error(
            (Add, Int(1), text("a")),
            "unsupported operand type(s) for +: 'int' and 'str'",
        );
        check_error((Sub, text("a"), text("b")), "for -: 'str' and 'str'");
    }

    #[test]
    fn sequences() {
        check((Add, text("ab"), text("cd")), text("abcd"));
        check((Mul, text("ab"), Int(3)), text("ababab"));
        check((Mul, Int(2), text("x")), text("xx"));
        check((Mul, text("x"), Int(-2)), text(""));
        check((Mul, text("x"), Bool(true)), text("x"));
        let list = Value::List(vec![Int(1), Int(2)]);
        check(
            (Add, list.clone(), Value::List(vec![Int(3)])),
            Value::List(vec![Int(1), Int(2), Int(3)]),
        );
        check(
            (Mul, list.clone(), Int(2)),
            Value::List(vec![Int(1), Int(2), Int(1), Int(2)]),
        );
        check((Mul, list.clone(), Int(0)), Value::List(vec![]));
        check_error((Mul, text("a"), Int(1_000_000_000)), "string too long");
        check_error((Mul, list.clone(), Int(1_000)), "list too long");
        check_error((Mul, text("a"), Float(2.0)), "unsupported operand");
        check_error((Add, list, text("a")), "unsupported operand");
    }

    #[test]
    fn repetition_is_charged() {
        let inner = Value::List(vec![Int(0); 1_000]);
        let outer = Value::List(vec![inner]);
        let outcome = binary(Mul, &outer, &Int(1_000), &mut Budget::new());
        assert!(outcome.is_err_and(|error| error.message.contains("budget")));
    }

    #[test]
    fn absurd_repetition_counts_are_refused() {
        let empty = Value::List(vec![]);
        check_error((Mul, empty.clone(), Int(i64::MAX)), "repetition count");
        check_error((Mul, Int(i64::MAX), empty.clone()), "repetition count");
        check_error((Mul, text(""), Int(i64::MAX)), "repetition count");
        check_error((Mul, empty.clone(), Int(5_000)), "repetition count");
        check((Mul, empty.clone(), Int(4_096)), empty.clone());
        check((Mul, text(""), Int(4_096)), text(""));
        check((Mul, empty.clone(), Int(i64::MIN)), empty);
    }

    #[test]
    fn unary_operators() {
        assert_eq!(unary(UnaryOp::Neg, &Int(5)), Ok(Int(-5)));
        assert_eq!(unary(UnaryOp::Neg, &Bool(true)), Ok(Int(-1)));
        assert_eq!(unary(UnaryOp::Pos, &Bool(true)), Ok(Int(1)));
        assert_eq!(unary(UnaryOp::Neg, &Float(0.5)), Ok(Float(-0.5)));
        assert!(unary(UnaryOp::Neg, &Int(i64::MIN)).is_err());
        assert!(unary(UnaryOp::Neg, &text("a")).is_err_and(|e| e.message.contains("unary -")));
    }
}
