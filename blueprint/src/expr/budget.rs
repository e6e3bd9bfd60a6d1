//! Step budget that bounds the cost of one evaluation.

use super::error::EvalError;
use super::value::{VALUE_NESTING_LIMIT, Value};
use super::{MAX_LIST_LEN, MAX_STEPS, MAX_STRING_CHARS};

/// Remaining evaluation steps; every charge beyond the budget is an error.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    remaining: usize,
}

impl Budget {
    /// A fresh budget of [`MAX_STEPS`] steps.
    pub(crate) fn new() -> Self {
        Self {
            remaining: MAX_STEPS,
        }
    }

    /// Consumes `steps`, failing once the budget is exhausted.
    pub(crate) fn charge(&mut self, steps: usize) -> Result<(), EvalError> {
        match self.remaining.checked_sub(steps) {
            Some(left) => {
                self.remaining = left;
                Ok(())
            }
            None => {
                self.remaining = 0;
                Err(EvalError::new(format!(
                    "evaluation step budget exhausted (limit {MAX_STEPS} steps)"
                )))
            }
        }
    }

    /// Charges for handling a string of `chars` characters (one step per 64 characters).
    pub(crate) fn charge_chars(&mut self, chars: usize) -> Result<(), EvalError> {
        self.charge(chars / 64 + 1)
    }
}

/// Steps charged for copying or scanning `value` once: one per scalar or list element,
/// one per 64 bytes of text, counted through nested lists.
pub(crate) fn value_cost(value: &Value) -> usize {
    value_cost_at(value, 0)
}

fn value_cost_at(value: &Value, depth: usize) -> usize {
    match value {
        Value::Str(text) => text.len() / 64 + 1,
        Value::List(items) if depth < VALUE_NESTING_LIMIT => items.iter().fold(1, |total, item| {
            total.saturating_add(value_cost_at(item, depth + 1))
        }),
        _ => 1,
    }
}

/// Steps charged for a shallow scan of `value` (comparison, membership): its length.
pub(crate) fn shallow_cost(value: &Value) -> usize {
    match value {
        Value::Str(text) => text.len() / 64 + 1,
        Value::List(items) => items.len() + 1,
        _ => 1,
    }
}

/// Fails when a produced string of `chars` characters exceeds [`MAX_STRING_CHARS`].
pub(crate) fn check_string_len(chars: usize) -> Result<(), EvalError> {
    if chars > MAX_STRING_CHARS {
        return Err(EvalError::new(format!(
            "string too long ({chars} characters, limit {MAX_STRING_CHARS})"
        )));
    }
    Ok(())
}

/// Fails when a produced list of `len` elements exceeds [`MAX_LIST_LEN`].
pub(crate) fn check_list_len(len: usize) -> Result<(), EvalError> {
    if len > MAX_LIST_LEN {
        return Err(EvalError::new(format!(
            "list too long ({len} elements, limit {MAX_LIST_LEN})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(charges: &[usize], expected_ok: bool) {
        let mut budget = Budget::new();
        let outcome = charges.iter().try_for_each(|steps| budget.charge(*steps));
        assert_eq!(outcome.is_ok(), expected_ok, "{charges:?}");
    }

    #[test]
    fn budget_is_enforced() {
        check(&[], true);
        check(&[1, 2, 3], true);
        check(&[MAX_STEPS], true);
        check(&[MAX_STEPS, 1], false);
        check(&[MAX_STEPS + 1], false);
        check(&[usize::MAX], false);
    }

    #[test]
    fn costs() {
        let text = Value::from("a".repeat(130));
        assert_eq!(value_cost(&text), 3);
        let nested = Value::List(vec![Value::Int(1), Value::List(vec![Value::Int(2), text])]);
        assert_eq!(value_cost(&nested), 1 + 1 + (1 + 1 + 3));
        assert_eq!(shallow_cost(&nested), 3);
        assert_eq!(shallow_cost(&Value::Float(1.0)), 1);
    }

    #[test]
    fn size_limits() {
        assert!(check_string_len(MAX_STRING_CHARS).is_ok());
        assert!(check_string_len(MAX_STRING_CHARS + 1).is_err());
        assert!(check_list_len(MAX_LIST_LEN).is_ok());
        assert!(check_list_len(MAX_LIST_LEN + 1).is_err());
    }
}
