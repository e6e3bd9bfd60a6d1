//! Tree-walking interpreter with a step budget; values are borrowed from the environment and
//! from constants where possible instead of being cloned.

use std::borrow::Cow;

use super::arith;
use super::ast::{Expr, ExprKind, FStringPart};
use super::budget::{Budget, check_string_len};
use super::compare::{compare, subscript};
use super::env::Env;
use super::error::EvalError;
use super::format::{FormatSpec, format_value};
use super::functions;
use super::value::Value;
use super::whitelist::Builtin;

/// Evaluates syntax trees against one environment, sharing one step budget.
pub(crate) struct Evaluator<'a> {
    env: &'a Env,
    budget: Budget,
}

impl<'a> Evaluator<'a> {
    /// A fresh evaluator with a full [`Budget`].
    pub(crate) fn new(env: &'a Env) -> Self {
        Self {
            env,
            budget: Budget::new(),
        }
    }

    /// Evaluates `expr`; errors carry the position of the innermost failing node.
    /// Recursion depth is bounded by the tree height cap enforced at compile time.
    pub(crate) fn eval(&mut self, expr: &'a Expr) -> Result<Cow<'a, Value>, EvalError> {
        self.budget
            .charge(1)
            .map_err(|error| error.at(expr.position))?;
        self.eval_kind(expr)
            .map_err(|error| error.at(expr.position))
    }

    fn eval_kind(&mut self, expr: &'a Expr) -> Result<Cow<'a, Value>, EvalError> {
        let owned = |value: Value| Ok(Cow::Owned(value));
        match &expr.kind {
            ExprKind::Literal(value) => Ok(Cow::Borrowed(value)),
            ExprKind::Name(name) => self
                .env
                .get(name)
                .map(Cow::Borrowed)
                .ok_or_else(|| EvalError::new(format!("name '{name}' is not defined"))),
            ExprKind::List(items) => owned(self.eval_list(items)?),
            ExprKind::Unary(op, operand) => owned(arith::unary(*op, &*self.eval(operand)?)?),
            ExprKind::Not(operand) => owned(Value::Bool(!self.eval(operand)?.is_truthy())),
            ExprKind::Binary(op, left, right) => {
                let left = self.eval(left)?;
                let right = self.eval(right)?;
                owned(arith::binary(*op, &left, &right, &mut self.budget)?)
            }
            ExprKind::And(left, right) => self.eval_logical(left, right, false),
            ExprKind::Or(left, right) => self.eval_logical(left, right, true),
            ExprKind::Compare(first, links) => owned(Value::Bool(self.eval_compare(first, links)?)),
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => {
                let branch = if self.eval(condition)?.is_truthy() {
                    then
                } else {
                    otherwise
                };
                self.eval(branch)
            }
            ExprKind::Subscript(container, index) => self.eval_subscript(container, index),
            ExprKind::Call(builtin, args) => owned(self.eval_call(*builtin, args)?),
            ExprKind::FString(parts) => {
                let mut text = String::new();
                self.render_parts(parts, &mut text, true)?;
                owned(Value::Str(text))
            }
        }
    }

    /// `and` (`stop_when` false) / `or` (`stop_when` true): returns the deciding operand.
    fn eval_logical(
        &mut self,
        left: &'a Expr,
        right: &'a Expr,
        stop_when: bool,
    ) -> Result<Cow<'a, Value>, EvalError> {
        let left = self.eval(left)?;
        if left.is_truthy() == stop_when {
            Ok(left)
        } else {
            self.eval(right)
        }
    }

    fn eval_list(&mut self, items: &'a [Expr]) -> Result<Value, EvalError> {
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            let value = self.eval(item)?;
            self.budget.charge_value(&value)?;
            values.push(value.into_owned());
        }
        Ok(Value::List(values))
    }

    /// `a < b < c` evaluates `b` once and stops at the first false link.
    fn eval_compare(
        &mut self,
        first: &'a Expr,
        links: &'a [(super::ast::CompareOp, Expr)],
    ) -> Result<bool, EvalError> {
        let mut left = self.eval(first)?;
        for (op, operand) in links {
            let right = self.eval(operand)?;
            if !compare(*op, &left, &right, &mut self.budget)? {
                return Ok(false);
            }
            left = right;
        }
        Ok(true)
    }

    fn eval_subscript(
        &mut self,
        container: &'a Expr,
        index: &'a Expr,
    ) -> Result<Cow<'a, Value>, EvalError> {
        let container = self.eval(container)?;
        let index = self.eval(index)?;
        match container {
            Cow::Borrowed(container) => subscript(container, &index, &mut self.budget),
            Cow::Owned(container) => subscript(&container, &index, &mut self.budget)
                .map(|element| Cow::Owned(element.into_owned())),
        }
    }

    fn eval_call(&mut self, builtin: Builtin, args: &'a [Expr]) -> Result<Value, EvalError> {
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.eval(arg)?);
        }
        functions::call(builtin, &values, &mut self.budget)
    }

    /// Appends the rendered parts to `out`; with `capped`, the result must stay within
    /// [`super::limits::MAX_STRING_CHARS`] (f-strings), otherwise only each field is bounded (templates).
    pub(crate) fn render_parts(
        &mut self,
        parts: &'a [FStringPart],
        out: &mut String,
        capped: bool,
    ) -> Result<(), EvalError> {
        for part in parts {
            match part {
                FStringPart::Text(text) => {
                    self.budget.charge_chars(text.len())?;
                    out.push_str(text);
                }
                FStringPart::Field { expr, spec } => {
                    let value = self.eval(expr)?;
                    let text = self
                        .format_field(&value, spec)
                        .map_err(|error| error.at(expr.position))?;
                    out.push_str(&text);
                }
            }
            if capped && out.len() > super::limits::MAX_STRING_CHARS {
                check_string_len(out.chars().count())?;
            }
        }
        Ok(())
    }

    /// Formats one field: charged for the formatting before it is done, then for the text.
    fn format_field(&mut self, value: &Value, spec: &FormatSpec) -> Result<String, EvalError> {
        spec.charge(value, &mut self.budget)?;
        let text = format_value(value, spec)?;
        self.budget.charge_chars(text.len())?;
        check_string_len(text.chars().count())?;
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::parser::Parser;

    fn run(source: &str, env: &Env) -> Result<Value, EvalError> {
        let expr = Parser::parse_source(source, 0, 0)
            .map_err(|error| EvalError::new(error.to_string()))?;
        let mut evaluator = Evaluator::new(env);
        evaluator.eval(&expr).map(Cow::into_owned)
    }

    fn check(source: &str, expected: Result<&str, (&str, usize)>) {
        let mut env = Env::new();
        env.set(
            "xs",
            Value::List(vec![Value::Int(1), Value::Int(2), Value::Int(3)]),
        );
        env.set("s", Value::from("hello"));
        env.set("zero", Value::Int(0));
        match (run(source, &env), expected) {
            (Ok(value), Ok(expected)) => assert_eq!(value.to_repr_string(), expected, "{source}"),
            (Err(error), Err((fragment, position))) => {
                assert!(error.message.contains(fragment), "{source}: {error}");
                assert_eq!(error.position, Some(position), "{source}: {error}");
            }
            (actual, expected) => panic!("{source}: {actual:?} vs {expected:?}"),
        }
    }

    #[test]
    fn evaluation_borrows_and_short_circuits() {
        check("xs", Ok("[1, 2, 3]"));
        check("xs[-1]", Ok("3"));
        check("[xs[0], s[1]]", Ok("[1, 'e']"));
        check("zero and 1 / zero", Ok("0"));
        check("xs or 1 / zero", Ok("[1, 2, 3]"));
        check("1 if zero else 2", Ok("2"));
        check("1 < 2 < 1 / zero", Err(("division by zero", 10)));
        check("3 < 2 < 1 / zero", Ok("False"));
        check("f'{s!= \"x\"}'", Ok("'True'"));
    }

    #[test]
    fn errors_point_at_the_failing_node() {
        check("1 + missing", Err(("name 'missing' is not defined", 4)));
        check("xs[5]", Err(("list index out of range", 2)));
        check("2 * (3 // zero)", Err(("by zero", 7)));
        check("abs('x')", Err(("bad operand type", 0)));
        check("f'{xs:>5}'", Err(("list.__format__", 3)));
        check("s < 1", Err(("not supported", 2)));
    }

    fn check_all(cases: &[(&str, &str)]) {
        for (source, expected) in cases {
            check(source, Ok(expected));
        }
    }

    #[test]
    fn precedence_and_associativity() {
        check_all(&[
            ("1 + 2 * 3", "7"),
            ("(1 + 2) * 3", "9"),
            ("10 - 2 - 3", "5"),
            ("100 / 10 / 5", "2.0"),
            ("2 * 3 ** 2", "18"),
            ("2 ** 3 ** 2", "512"),
            ("-2 ** 2", "-4"),
            ("(-2) ** 2", "4"),
            ("2 ** -1", "0.5"),
            ("-3 * -3", "9"),
            ("+True", "1"),
            ("not 1 == 2", "True"),
            ("not 0 and 5", "5"),
            ("1 + 2 == 3 and 'ok' or 'ko'", "'ok'"),
            ("'yes' if 1 < 2 else 'no'", "'yes'"),
            ("1 if 0 else 2 if 0 else 3", "3"),
        ]);
    }

    #[test]
    fn python_arithmetic() {
        check_all(&[
            ("-7 // 2", "-4"),
            ("7 // -2", "-4"),
            ("-7 % 3", "2"),
            ("7 % -3", "-2"),
            ("-7.5 // 2", "-4.0"),
            ("7.5 % 2", "1.5"),
            ("7 / 2", "3.5"),
            ("6 / 3", "2.0"),
            ("1 / 3", "0.3333333333333333"),
            ("0.1 + 0.2", "0.30000000000000004"),
            ("True + True", "2"),
            ("True * 3", "3"),
            ("1.0 * 3", "3.0"),
            ("10 ** 18", "1000000000000000000"),
            ("4 ** 0.5", "2.0"),
            ("1e3 + .5", "1000.5"),
            ("2e-3", "0.002"),
            ("1e20", "1e+20"),
            ("'ab' * 3", "'ababab'"),
            ("[1, 2] + [3]", "[1, 2, 3]"),
            ("[0] * 3", "[0, 0, 0]"),
            ("'a' + 'b'", "'ab'"),
        ]);
    }

    #[test]
    fn comparisons_logic_and_membership() {
        check_all(&[
            ("1 < 2 < 3", "True"),
            ("1 < 3 < 2", "False"),
            ("3 > 2 == True", "False"),
            ("1 == 1.0", "True"),
            ("True == 1", "True"),
            ("'1' == 1", "False"),
            ("[1, 2] == [1.0, 2]", "True"),
            ("'abc' < 'abd'", "True"),
            ("[1, 2] < [1, 3]", "True"),
            ("0 or 'x'", "'x'"),
            ("'' or 0", "0"),
            ("1 and 'y'", "'y'"),
            ("[] and 1", "[]"),
            ("0 or [] or 'last'", "'last'"),
            ("2 in [1, 2, 3]", "True"),
            ("2.0 in xs", "True"),
            ("'ell' in s", "True"),
            ("4 not in [1, 2]", "True"),
            ("'z' not in 'abc'", "True"),
        ]);
    }

    #[test]
    fn builtins_and_subscripts() {
        check_all(&[
            ("round(2.5)", "2"),
            ("round(3.5)", "4"),
            ("round(-0.5)", "0"),
            ("round(2.675, 2)", "2.67"),
            ("round(1.005, 2)", "1.0"),
            ("round(7, 2)", "7"),
            ("int(-2.7)", "-2"),
            ("int('12')", "12"),
            ("float('2.5')", "2.5"),
            ("str(3.0)", "'3.0'"),
            ("str(1e20)", "'1e+20'"),
            ("str(True) + str(xs)", "'True[1, 2, 3]'"),
            ("len(xs) + len(s)", "8"),
            ("sum([1, 2, 3.5])", "6.5"),
            ("min(3, 1, 2)", "1"),
            ("max([4, 9, 2])", "9"),
            ("abs(-3)", "3"),
            ("sqrt(16)", "4.0"),
            ("floor(-2.5)", "-3"),
            ("ceil(2.1)", "3"),
            ("sin_deg(30) + cos_deg(60)", "1.0"),
            ("host_count(26)", "62"),
            ("'abc'[-1]", "'c'"),
            ("[1, [2, 3]][1][0]", "2"),
            ("xs[True]", "2"),
        ]);
    }

    #[test]
    fn fstrings() {
        check_all(&[
            ("f'{1 + 1}'", "'2'"),
            ("f'{3.14159:.2f}'", "'3.14'"),
            ("f'{1234567:,}'", "'1,234,567'"),
            ("f'{42:d}'", "'42'"),
            ("f'{0.5:.0%}'", "'50%'"),
            ("f'{{x}} {s}'", "'{x} hello'"),
            ("f'{7:>3}|{\"ab\":<4}|'", "'  7|ab  |'"),
            ("f\"{xs[0]}-{s[0]}\\n\"", "'1-h\\n'"),
            ("f'{2.5}' + f'{3.0}'", "'2.53.0'"),
            ("f''", "''"),
        ]);
    }

    #[test]
    fn arithmetic_errors_have_positions() {
        check("1 / 0", Err(("division by zero", 2)));
        check(
            "'a' + 1",
            Err(("unsupported operand type(s) for +: 'str' and 'int'", 4)),
        );
        check("[1][5]", Err(("list index out of range", 3)));
        check("2 ** 10 ** 10", Err(("integer overflow", 2)));
        check("'a' * 10 ** 9", Err(("string too long", 4)));
        check("9223372036854775807 + 1", Err(("integer overflow", 20)));
        check("int('x')", Err(("invalid literal for int()", 0)));
        check("1 < 'a'", Err(("'<' not supported", 2)));
        check("f'{s:d}'", Err(("Unknown format code 'd'", 3)));
        check(
            "f'{\"x\" * 4000}{\"y\" * 4000}'",
            Err(("string too long", 0)),
        );
    }
}
