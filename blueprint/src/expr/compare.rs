//! Comparisons, membership (`in`) and subscripts with Python semantics.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::ast::CompareOp;
use super::budget::{BYTES_PER_STEP, Budget};
use super::error::EvalError;
use super::value::{VALUE_NESTING_LIMIT, Value, compare_numbers};

/// Evaluates `left <op> right` for one link of a (possibly chained) comparison.
pub(crate) fn compare(
    op: CompareOp,
    left: &Value,
    right: &Value,
    budget: &mut Budget,
) -> Result<bool, EvalError> {
    let outcome = match op {
        CompareOp::Eq => equal(left, right, budget)?,
        CompareOp::NotEq => !equal(left, right, budget)?,
        CompareOp::In => contains(right, left, budget)?,
        CompareOp::NotIn => !contains(right, left, budget)?,
        CompareOp::Lt | CompareOp::Le | CompareOp::Gt | CompareOp::Ge => {
            let ordering = order(op.symbol(), left, right, budget)?;
            ordering.is_some_and(|ordering| match op {
                CompareOp::Lt => ordering.is_lt(),
                CompareOp::Le => ordering.is_le(),
                CompareOp::Gt => ordering.is_gt(),
                _ => ordering.is_ge(),
            })
        }
    };
    Ok(outcome)
}

impl Value {
    /// Python `==`: numbers compare by value across `int`/`float`/`bool` (`1 == 1.0 == True`),
    /// lists element-wise, and values of mismatched types are unequal.
    pub fn py_eq(&self, other: &Value) -> bool {
        // The unlimited budget never runs out, and equality has no other error.
        equal(self, other, &mut Budget::unlimited()).unwrap_or(false)
    }
}

/// Python `==`: numbers by value across `int`/`float`/`bool`, lists element-wise, other
/// mismatched types unequal. Charges one step per pair of values it looks at, at any depth,
/// and one per [`BYTES_PER_STEP`] bytes of equally long strings, each before looking.
pub(crate) fn equal(left: &Value, right: &Value, budget: &mut Budget) -> Result<bool, EvalError> {
    equal_at(left, right, budget, 0)
}

fn equal_at(
    left: &Value,
    right: &Value,
    budget: &mut Budget,
    depth: usize,
) -> Result<bool, EvalError> {
    budget.charge(1)?;
    match (left, right) {
        (Value::Str(a), Value::Str(b)) => {
            if a.len() == b.len() {
                budget.charge(a.len() / BYTES_PER_STEP)?;
            }
            Ok(a == b)
        }
        (Value::List(a), Value::List(b)) => {
            if depth >= VALUE_NESTING_LIMIT || a.len() != b.len() {
                return Ok(false);
            }
            for (x, y) in a.iter().zip(b) {
                if !equal_at(x, y, budget, depth + 1)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        _ => Ok(match (left.as_number(), right.as_number()) {
            (Some(l), Some(r)) => compare_numbers(l, r) == Some(Ordering::Equal),
            _ => false,
        }),
    }
}

/// Python ordering: numbers by value, strings and lists lexicographically (a list pair is
/// decided by its first unequal elements). `None` means unordered (a NaN is involved);
/// mismatched types are a `TypeError`-like error. Charged like [`equal`], in one pass.
pub(crate) fn order(
    symbol: &str,
    left: &Value,
    right: &Value,
    budget: &mut Budget,
) -> Result<Option<Ordering>, EvalError> {
    order_at(symbol, left, right, budget, 0)
}

fn order_at(
    symbol: &str,
    left: &Value,
    right: &Value,
    budget: &mut Budget,
    depth: usize,
) -> Result<Option<Ordering>, EvalError> {
    budget.charge(1)?;
    match (left, right) {
        (Value::Str(a), Value::Str(b)) => {
            budget.charge(a.len().min(b.len()) / BYTES_PER_STEP)?;
            Ok(Some(a.cmp(b)))
        }
        (Value::List(_), Value::List(_)) if depth >= VALUE_NESTING_LIMIT => {
            Err(EvalError::new("lists nested too deeply to compare"))
        }
        (Value::List(a), Value::List(b)) => {
            for (x, y) in a.iter().zip(b) {
                match order_at(symbol, x, y, budget, depth + 1)? {
                    Some(Ordering::Equal) => {}
                    decided => return Ok(decided),
                }
            }
            Ok(Some(a.len().cmp(&b.len())))
        }
        _ => match (left.as_number(), right.as_number()) {
            (Some(a), Some(b)) => Ok(compare_numbers(a, b)),
            _ => Err(EvalError::new(format!(
                "'{symbol}' not supported between instances of '{}' and '{}'",
                left.type_name(),
                right.type_name()
            ))),
        },
    }
}

/// Python `item in container`: list membership (by `==`, charged per element compared) or a
/// substring test (linear time, charged for both strings first).
fn contains(container: &Value, item: &Value, budget: &mut Budget) -> Result<bool, EvalError> {
    match (container, item) {
        (Value::List(items), _) => {
            budget.charge(1)?;
            for element in items {
                if equal(element, item, budget)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        (Value::Str(text), Value::Str(needle)) => {
            budget.charge_chars(text.len() + needle.len())?;
            Ok(text.contains(needle.as_str()))
        }
        (Value::Str(_), other) => Err(EvalError::new(format!(
            "'in <string>' requires string as left operand, not {}",
            other.type_name()
        ))),
        (other, _) => Err(EvalError::new(format!(
            "argument of type '{}' is not iterable",
            other.type_name()
        ))),
    }
}

/// Python `container[index]` for lists and strings, with negative indices counted from the
/// end. Indexing a string walks its characters from the nearer end, charged first.
pub(crate) fn subscript<'v>(
    container: &'v Value,
    index: &Value,
    budget: &mut Budget,
) -> Result<Cow<'v, Value>, EvalError> {
    match container {
        Value::List(items) => {
            let position = resolve_index(items.len(), index, "list")?;
            items
                .get(position)
                .map(Cow::Borrowed)
                .ok_or_else(|| EvalError::new("list index out of range"))
        }
        Value::Str(text) => {
            budget.charge_chars(text.len())?;
            let raw = integer_index(index, "string")?;
            let found = match u64::try_from(raw) {
                Ok(from_start) => nth(text.chars(), from_start),
                // -1 is the last character: 0 from the end.
                Err(_) => nth(text.chars().rev(), (raw + 1).unsigned_abs()),
            };
            found
                .map(|ch| Cow::Owned(Value::Str(ch.to_string())))
                .ok_or_else(|| EvalError::new("string index out of range"))
        }
        other => Err(EvalError::new(format!(
            "'{}' object is not subscriptable",
            other.type_name()
        ))),
    }
}

/// The `n`-th character of `chars`, if there are that many.
fn nth(mut chars: impl Iterator<Item = char>, n: u64) -> Option<char> {
    chars.nth(usize::try_from(n).ok()?)
}

fn integer_index(index: &Value, what: &str) -> Result<i64, EvalError> {
    index.as_i64().ok_or_else(|| {
        EvalError::new(format!(
            "{what} indices must be integers, not {}",
            index.type_name()
        ))
    })
}

fn resolve_index(len: usize, index: &Value, what: &str) -> Result<usize, EvalError> {
    let raw = integer_index(index, what)?;
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    let resolved = if raw < 0 { raw + len } else { raw };
    if !(0..len).contains(&resolved) {
        return Err(EvalError::new(format!("{what} index out of range")));
    }
    usize::try_from(resolved).map_err(|_| EvalError::new(format!("{what} index out of range")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use CompareOp::{Eq, Ge, Gt, In, Le, Lt, NotEq, NotIn};
    use Value::{Bool, Float, Int};

    fn text(value: &str) -> Value {
        Value::from(value)
    }

    fn list(items: Vec<Value>) -> Value {
        Value::List(items)
    }

    fn check(input: (Value, CompareOp, Value), expected: Result<bool, &str>) {
        let (left, op, right) = input;
        let actual = compare(op, &left, &right, &mut Budget::new());
        match (actual, expected) {
            (Ok(actual), Ok(expected)) => assert_eq!(actual, expected, "{left:?} {op:?} {right:?}"),
            (Err(error), Err(fragment)) => assert!(error.message.contains(fragment), "{error}"),
            (actual, expected) => panic!("{left:?} {op:?} {right:?}: {actual:?} vs {expected:?}"),
        }
    }

    #[test]
    fn comparisons() {
        check((Int(1), Lt, Float(1.5)), Ok(true));
        check((Int(2), Le, Int(2)), Ok(true));
        check((Float(2.5), Gt, Bool(true)), Ok(true));
        check((Int(1), Ge, Int(2)), Ok(false));
        check((Int(1), Eq, Float(1.0)), Ok(true));
        check((Int(1), NotEq, text("1")), Ok(true));
        check((Float(f64::NAN), Lt, Int(1)), Ok(false));
        check((Float(f64::NAN), Ge, Int(1)), Ok(false));
        check((text("apple"), Lt, text("banana")), Ok(true));
        check((text("Z"), Lt, text("a")), Ok(true));
        check(
            (list(vec![Int(1), Int(2)]), Lt, list(vec![Int(1), Int(3)])),
            Ok(true),
        );
        check(
            (list(vec![Int(1)]), Lt, list(vec![Int(1), Int(0)])),
            Ok(true),
        );
        check(
            (list(vec![Int(2)]), Gt, list(vec![Int(1), Int(9)])),
            Ok(true),
        );
        check(
            (Int(1), Lt, text("a")),
            Err("'<' not supported between instances of 'int' and 'str'"),
        );
        check(
            (list(vec![text("a")]), Lt, list(vec![Int(1)])),
            Err("not supported"),
        );
    }

    #[test]
    fn membership() {
        check((Int(2), In, list(vec![Int(1), Float(2.0)])), Ok(true));
        check((Int(5), NotIn, list(vec![Int(1)])), Ok(true));
        check((text("ell"), In, text("hello")), Ok(true));
        check((text(""), In, text("x")), Ok(true));
        check((text("z"), NotIn, text("hello")), Ok(true));
        check(
            (Int(1), In, text("1")),
            Err("requires string as left operand, not int"),
        );
        check(
            (Int(1), In, Int(1)),
            Err("argument of type 'int' is not iterable"),
        );
    }

    fn check_index(container: Value, index: Value, expected: Result<Value, &str>) {
        match (subscript(&container, &index, &mut Budget::new()), expected) {
            (Ok(actual), Ok(expected)) => assert_eq!(actual.into_owned(), expected),
            (Err(error), Err(fragment)) => assert!(error.message.contains(fragment), "{error}"),
            (actual, expected) => panic!("{container:?}[{index:?}]: {actual:?} vs {expected:?}"),
        }
    }

    #[test]
    fn subscripts() {
        let xs = list(vec![Int(10), Int(20), Int(30)]);
        check_index(xs.clone(), Int(0), Ok(Int(10)));
        check_index(xs.clone(), Int(-1), Ok(Int(30)));
        check_index(xs.clone(), Int(-3), Ok(Int(10)));
        check_index(xs.clone(), Bool(true), Ok(Int(20)));
        check_index(xs.clone(), Int(3), Err("list index out of range"));
        check_index(xs.clone(), Int(-4), Err("list index out of range"));
        check_index(xs.clone(), Int(i64::MIN), Err("list index out of range"));
        check_index(
            xs,
            Float(1.0),
            Err("list indices must be integers, not float"),
        );
        check_index(text("héllo"), Int(1), Ok(text("é")));
        check_index(text("abc"), Int(-1), Ok(text("c")));
        check_index(text(""), Int(0), Err("string index out of range"));
        check_index(text(""), Int(-1), Err("string index out of range"));
        check_index(text("héllo"), Int(-4), Ok(text("é")));
        check_index(text("abc"), Int(-3), Ok(text("a")));
        check_index(text("abc"), Int(-4), Err("string index out of range"));
        check_index(text("abc"), Int(i64::MIN), Err("string index out of range"));
        check_index(text("abc"), Int(i64::MAX), Err("string index out of range"));
        check_index(
            text("abc"),
            Float(0.0),
            Err("string indices must be integers"),
        );
        check_index(Int(5), Int(0), Err("'int' object is not subscriptable"));
    }
}
