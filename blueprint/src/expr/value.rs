//! Runtime values (`int`, `float`, `str`, `bool`, `list`) with Python truthiness, equality and `str()`.

use std::cmp::Ordering;
use std::fmt;

use super::limits::MAX_TREE_HEIGHT;
use super::numfmt::float_repr;

/// Nesting depth beyond which recursive value operations stop descending (display shows `[...]`).
pub(crate) const VALUE_NESTING_LIMIT: usize = 2 * MAX_TREE_HEIGHT;

/// A runtime value. There is no `None`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A 64-bit signed integer (Python `int`; overflow is an evaluation error).
    Int(i64),
    /// A double-precision float (Python `float`).
    Float(f64),
    /// A Unicode string (Python `str`).
    Str(String),
    /// A boolean; behaves as 0/1 in arithmetic and comparisons like Python's `bool`.
    Bool(bool),
    /// A list of values (Python `list`).
    List(Vec<Value>),
}

/// A numeric view of a value: `bool` and `int` are integers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    /// An integer (or a boolean as 0/1).
    Int(i64),
    /// A float.
    Float(f64),
}

impl Num {
    /// The number as a float (integers may round beyond 2**53).
    pub(crate) fn to_f64(self) -> f64 {
        match self {
            Num::Int(int) => int as f64,
            Num::Float(float) => float,
        }
    }
}

impl Value {
    /// The Python type name: `int`, `float`, `str`, `bool` or `list`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Bool(_) => "bool",
            Value::List(_) => "list",
        }
    }

    /// Python truthiness: `0`, `0.0`, `""`, `[]` and `False` are false, everything else is true.
    pub fn is_truthy(&self) -> bool {
        match self {
            Value::Int(int) => *int != 0,
            Value::Float(float) => *float != 0.0,
            Value::Str(text) => !text.is_empty(),
            Value::Bool(flag) => *flag,
            Value::List(items) => !items.is_empty(),
        }
    }

    /// The integer value of an `Int` or a `Bool` (as 0/1); `None` for other types.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(int) => Some(*int),
            Value::Bool(flag) => Some(i64::from(*flag)),
            _ => None,
        }
    }

    /// The numeric value of an `Int`, `Float` or `Bool` as a float; `None` otherwise.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().map(Num::to_f64)
    }

    /// The text of a `Str`; `None` otherwise.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(text) => Some(text),
            _ => None,
        }
    }

    /// The elements of a `List`; `None` otherwise.
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(items) => Some(items),
            _ => None,
        }
    }

    /// The flag of a `Bool`; `None` otherwise (use [`Value::is_truthy`] for truthiness).
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(flag) => Some(*flag),
            _ => None,
        }
    }

    /// The numeric view of a number or bool.
    pub(crate) fn as_number(&self) -> Option<Num> {
        match self {
            Value::Int(int) => Some(Num::Int(*int)),
            Value::Bool(flag) => Some(Num::Int(i64::from(*flag))),
            Value::Float(float) => Some(Num::Float(*float)),
            _ => None,
        }
    }

    /// Python `str(value)`: strings are shown bare, floats as Python `repr`, lists with `repr` items.
    pub fn to_display_string(&self) -> String {
        match self {
            Value::Str(text) => text.clone(),
            other => other.to_repr_string(),
        }
    }

    /// Python `repr(value)`: like [`Value::to_display_string`] but strings are quoted.
    pub fn to_repr_string(&self) -> String {
        let mut out = String::new();
        self.write_repr(&mut out, 0);
        out
    }

    fn write_repr(&self, out: &mut String, depth: usize) {
        match self {
            Value::Int(int) => out.push_str(&int.to_string()),
            Value::Float(float) => out.push_str(&float_repr(*float)),
            Value::Bool(true) => out.push_str("True"),
            Value::Bool(false) => out.push_str("False"),
            Value::Str(text) => write_str_repr(text, out),
            Value::List(_) if depth >= VALUE_NESTING_LIMIT => out.push_str("[...]"),
            Value::List(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    item.write_repr(out, depth + 1);
                }
                out.push(']');
            }
        }
    }
}

/// Exact ordering of two numbers (`None` when a NaN is involved), like Python's mixed comparisons.
pub(crate) fn compare_numbers(left: Num, right: Num) -> Option<Ordering> {
    match (left, right) {
        (Num::Int(l), Num::Int(r)) => Some(l.cmp(&r)),
        (Num::Float(l), Num::Float(r)) => l.partial_cmp(&r),
        (Num::Int(l), Num::Float(r)) => compare_int_float(l, r),
        (Num::Float(l), Num::Int(r)) => compare_int_float(r, l).map(Ordering::reverse),
    }
}

/// Compares an integer with a float exactly, without rounding the integer to a float.
fn compare_int_float(int: i64, float: f64) -> Option<Ordering> {
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    if float.is_nan() {
        return None;
    }
    if float >= TWO_POW_63 {
        return Some(Ordering::Less);
    }
    if float < -TWO_POW_63 {
        return Some(Ordering::Greater);
    }
    let whole = float.trunc();
    // `whole` is integral and within i64 range, so the conversion is exact.
    match int.cmp(&(whole as i64)) {
        Ordering::Equal => whole.partial_cmp(&float),
        unequal => Some(unequal),
    }
}

/// Appends Python's `repr` of a string: single quotes unless the text contains only `'` quotes.
fn write_str_repr(text: &str, out: &mut String) {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

impl fmt::Display for Value {
    /// Formats like Python `str()`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Str(text) => formatter.write_str(text),
            other => formatter.write_str(&other.to_repr_string()),
        }
    }
}

impl From<i64> for Value {
    fn from(int: i64) -> Self {
        Value::Int(int)
    }
}

impl From<f64> for Value {
    fn from(float: f64) -> Self {
        Value::Float(float)
    }
}

impl From<bool> for Value {
    fn from(flag: bool) -> Self {
        Value::Bool(flag)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::Str(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::Str(text)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Self {
        Value::List(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(value: Value, expected: &str) {
        assert_eq!(value.to_display_string(), expected, "{value:?}");
    }

    fn list(items: Vec<Value>) -> Value {
        Value::List(items)
    }

    #[test]
    fn display_matches_python_str() {
        check(Value::Int(-12), "-12");
        check(Value::Float(2.5), "2.5");
        check(Value::Float(3.0), "3.0");
        check(Value::Float(1e20), "1e+20");
        check(Value::Bool(true), "True");
        check(Value::Bool(false), "False");
        check(Value::from("it's"), "it's");
        check(list(vec![]), "[]");
        check(
            list(vec![Value::Int(1), Value::from("a"), Value::Float(0.5)]),
            "[1, 'a', 0.5]",
        );
        check(list(vec![Value::from("it's")]), "[\"it's\"]");
        check(list(vec![Value::from("a'\"\n\\")]), "['a\\'\"\\n\\\\']");
        check(list(vec![list(vec![Value::Bool(true)])]), "[[True]]");
    }

    #[test]
    fn deep_lists_display_without_overflow() {
        let mut value = Value::Int(0);
        for _ in 0..(VALUE_NESTING_LIMIT + 5) {
            value = list(vec![value]);
        }
        assert!(value.to_display_string().contains("[...]"));
        assert!(!value.py_eq(&value.clone()));
    }

    fn check_eq(left: Value, right: Value, expected: bool) {
        assert_eq!(left.py_eq(&right), expected, "{left:?} == {right:?}");
    }

    #[test]
    fn python_equality() {
        check_eq(Value::Int(1), Value::Float(1.0), true);
        check_eq(Value::Bool(true), Value::Int(1), true);
        check_eq(Value::Bool(false), Value::Float(0.0), true);
        check_eq(Value::Int(1), Value::from("1"), false);
        check_eq(Value::Float(f64::NAN), Value::Float(f64::NAN), false);
        check_eq(
            Value::Int(9_007_199_254_740_993),
            Value::Float(9_007_199_254_740_992.0),
            false,
        );
        check_eq(
            Value::Int(i64::MAX),
            Value::Float(9.223_372_036_854_776e18),
            false,
        );
        check_eq(
            list(vec![Value::Int(1)]),
            list(vec![Value::Float(1.0)]),
            true,
        );
        check_eq(list(vec![Value::Int(1)]), list(vec![]), false);
        check_eq(Value::from("a"), Value::from("a"), true);
    }

    #[test]
    fn truthiness_and_accessors() {
        let falsy = [
            Value::Int(0),
            Value::Float(0.0),
            Value::from(""),
            list(vec![]),
            Value::Bool(false),
        ];
        assert!(falsy.iter().all(|value| !value.is_truthy()));
        assert!(Value::Float(f64::NAN).is_truthy());
        assert!(list(vec![Value::Int(0)]).is_truthy());
        assert_eq!(Value::Bool(true).as_i64(), Some(1));
        assert_eq!(Value::Float(1.5).as_i64(), None);
        assert_eq!(Value::Int(3).as_f64(), Some(3.0));
        assert_eq!(Value::from("x").as_str(), Some("x"));
        assert_eq!(Value::Int(3).as_str(), None);
        assert_eq!(Value::Bool(true).as_bool(), Some(true));
        assert_eq!(list(vec![]).as_list().map(<[Value]>::len), Some(0));
        assert_eq!(Value::Float(1.0).type_name(), "float");
    }

    #[test]
    fn mixed_number_ordering() {
        let cases = [
            (Num::Int(1), Num::Float(1.5), Some(Ordering::Less)),
            (Num::Int(-1), Num::Float(-1.5), Some(Ordering::Greater)),
            (Num::Float(2.0), Num::Int(2), Some(Ordering::Equal)),
            (Num::Int(i64::MAX), Num::Float(1e19), Some(Ordering::Less)),
            (
                Num::Int(i64::MIN),
                Num::Float(-1e19),
                Some(Ordering::Greater),
            ),
            (Num::Int(0), Num::Float(f64::NAN), None),
            (Num::Int(5), Num::Float(f64::INFINITY), Some(Ordering::Less)),
        ];
        for (left, right, expected) in cases {
            assert_eq!(compare_numbers(left, right), expected, "{left:?} {right:?}");
        }
    }
}
