//! Step budget that bounds the cost of one evaluation.
//!
//! Every operation charges before it works, an amount that grows with the work it is about to
//! do; the unit costs are listed in the module docs of [`super`]. Measuring a value (how many
//! steps copying it costs) stops as soon as the measure exceeds what is left, so even the
//! measuring is bounded by the budget.

use super::error::EvalError;
use super::limits::{MAX_LIST_LEN, MAX_REPEAT_COUNT, MAX_STEPS, MAX_STRING_CHARS};
use super::value::{VALUE_NESTING_LIMIT, Value};

/// Bytes of text handled per step (copied, scanned, compared or parsed).
pub(crate) const BYTES_PER_STEP: usize = 64;

/// Decimal digits of a float produced per step (exact float formatting is the costliest work
/// per character: about 50 ns a digit for the largest magnitudes).
pub(crate) const DIGITS_PER_STEP: usize = 4;

/// Steps for rendering one float as its shortest repr (up to 17 digits, [`DIGITS_PER_STEP`]
/// a step, plus one): float text is the costliest scalar to render.
pub(crate) const FLOAT_RENDER_STEPS: usize = 17 / DIGITS_PER_STEP + 1;

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

    /// A budget that never runs out, for comparisons made outside an evaluation.
    pub(crate) fn unlimited() -> Self {
        Self {
            remaining: usize::MAX,
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

    /// Charges for handling `bytes` bytes of text: one step per [`BYTES_PER_STEP`], plus one.
    pub(crate) fn charge_chars(&mut self, bytes: usize) -> Result<(), EvalError> {
        self.charge(bytes / BYTES_PER_STEP + 1)
    }

    /// Charges for producing `digits` digits of a float: one step per [`DIGITS_PER_STEP`], plus one.
    pub(crate) fn charge_digits(&mut self, digits: usize) -> Result<(), EvalError> {
        self.charge(digits / DIGITS_PER_STEP + 1)
    }

    /// Charges for copying or scanning `value` once (see [`Budget::charge_values`]).
    pub(crate) fn charge_value(&mut self, value: &Value) -> Result<(), EvalError> {
        let cost = cost_within(value, 0, self.remaining, 1);
        self.charge(cost)
    }

    /// Charges for copying or scanning `values` once: one step per scalar or list, one per
    /// [`BYTES_PER_STEP`] bytes of text, through nested lists.
    pub(crate) fn charge_values(&mut self, values: &[Value]) -> Result<(), EvalError> {
        let cost = cost_of_items(values, 0, self.remaining, 1);
        self.charge(cost)
    }

    /// Charges for rendering `value` as text (`str()`, f-string and template fields): as for
    /// copying it, but [`FLOAT_RENDER_STEPS`] per float.
    pub(crate) fn charge_render(&mut self, value: &Value) -> Result<(), EvalError> {
        let cost = cost_within(value, 0, self.remaining, FLOAT_RENDER_STEPS);
        self.charge(cost)
    }
}

/// The cost of `value` with floats at `float_cost`, measured only until it exceeds `cap`
/// (then some number above `cap`).
fn cost_within(value: &Value, depth: usize, cap: usize, float_cost: usize) -> usize {
    match value {
        Value::Str(text) => text.len() / BYTES_PER_STEP + 1,
        Value::List(items) if depth < VALUE_NESTING_LIMIT => {
            let cap = cap.saturating_sub(1);
            cost_of_items(items, depth + 1, cap, float_cost).saturating_add(1)
        }
        Value::Float(_) => float_cost,
        _ => 1,
    }
}

/// The summed cost of `items`, measured only until it exceeds `cap`.
fn cost_of_items(items: &[Value], depth: usize, cap: usize, float_cost: usize) -> usize {
    let mut total: usize = 0;
    for item in items {
        if total > cap {
            break;
        }
        total = total.saturating_add(cost_within(item, depth, cap - total, float_cost));
    }
    total
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

/// The count of a repetition `sequence * count`: negative counts repeat zero times, and counts
/// above [`MAX_REPEAT_COUNT`] are refused even for an empty sequence.
pub(crate) fn repeat_count(count: i64) -> Result<usize, EvalError> {
    if count <= 0 {
        return Ok(0);
    }
    match usize::try_from(count) {
        Ok(count) if count <= MAX_REPEAT_COUNT => Ok(count),
        _ => Err(EvalError::new(format!(
            "repetition count {count} is too large (limit {MAX_REPEAT_COUNT})"
        ))),
    }
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
        assert!(Budget::unlimited().charge(usize::MAX / 2).is_ok());
    }

    fn steps_of(charge: impl FnOnce(&mut Budget) -> Result<(), EvalError>) -> usize {
        let mut budget = Budget::new();
        match charge(&mut budget) {
            Ok(()) => MAX_STEPS - budget.remaining,
            Err(_) => usize::MAX,
        }
    }

    #[test]
    fn costs() {
        let text = Value::from("a".repeat(130));
        assert_eq!(steps_of(|b| b.charge_value(&text)), 3);
        let nested = Value::List(vec![Value::Int(1), Value::List(vec![Value::Int(2), text])]);
        assert_eq!(steps_of(|b| b.charge_value(&nested)), 1 + 1 + (1 + 1 + 3));
        assert_eq!(steps_of(|b| b.charge_values(&[])), 0);
        assert_eq!(steps_of(|b| b.charge_value(&Value::Float(1.0))), 1);
        let floats = Value::List(vec![Value::Float(0.1); 10]);
        assert_eq!(steps_of(|b| b.charge_render(&floats)), 1 + 10 * 5);
        assert_eq!(steps_of(|b| b.charge_render(&nested)), 7);
        assert_eq!(steps_of(|b| b.charge_chars(128)), 3);
        assert_eq!(steps_of(|b| b.charge_digits(309)), 78);
    }

    #[test]
    fn measuring_stops_once_over_the_budget() {
        let big = Value::List(vec![Value::List(vec![Value::Int(0); 1_000]); 1_000]);
        let measured = cost_within(&big, 0, 50, 1);
        assert!((51..=1_100).contains(&measured), "{measured}");
        assert_eq!(steps_of(|b| b.charge_value(&big)), usize::MAX);
    }

    #[test]
    fn size_and_count_limits() {
        assert!(check_string_len(MAX_STRING_CHARS).is_ok());
        assert!(check_string_len(MAX_STRING_CHARS + 1).is_err());
        assert!(check_list_len(MAX_LIST_LEN).is_ok());
        assert!(check_list_len(MAX_LIST_LEN + 1).is_err());
        assert_eq!(repeat_count(-5), Ok(0));
        assert_eq!(repeat_count(MAX_REPEAT_COUNT as i64), Ok(MAX_REPEAT_COUNT));
        let refused = repeat_count(i64::MAX).map_err(|error| error.message);
        assert_eq!(
            refused,
            Err("repetition count 9223372036854775807 is too large (limit 4096)".to_owned())
        );
    }
}
