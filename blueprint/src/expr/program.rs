//! Compiled expressions ([`Program`]), run against an [`Env`].

use std::borrow::Cow;

use super::ast::{Expr, Names};
use super::env::Env;
use super::error::{CompileError, EvalError};
use super::eval::Evaluator;
use super::parser::Parser;
use super::value::Value;

/// A compiled expression: parse once, evaluate many times.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    source: String,
    root: Expr,
    names: Vec<String>,
}

impl Program {
    /// Compiles `source`; syntax errors, unsupported Python constructs, calls outside the
    /// whitelist, wrong argument counts and exceeded size/depth limits are reported here.
    pub fn compile(source: &str) -> Result<Program, CompileError> {
        let root = Parser::parse_source(source, 0, 0)?;
        let mut names = Names::default();
        root.collect_names(&mut names);
        Ok(Program {
            source: source.to_owned(),
            root,
            names: names.into_vec(),
        })
    }

    /// The free variable names the expression reads, deduplicated, in first-seen order.
    pub fn names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }

    /// The source text this program was compiled from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Evaluates the expression against `env` within the step and size limits.
    pub fn eval(&self, env: &Env) -> Result<Value, EvalError> {
        Evaluator::new(env).eval(&self.root).map(Cow::into_owned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_names(source: &str, expected: &[&str]) {
        match Program::compile(source) {
            Ok(program) => assert_eq!(program.names(), expected, "{source}"),
            Err(error) => panic!("{source}: {error}"),
        }
    }

    #[test]
    fn free_names_in_first_seen_order() {
        check_names("operand_1 + operand_2", &["operand_1", "operand_2"]);
        check_names("b + a * b - abs(c)", &["b", "a", "c"]);
        check_names("x if cond else y", &["x", "cond", "y"]);
        check_names("f'{first} {second:>3} {first}'", &["first", "second"]);
        check_names(
            "answer in other_distractors",
            &["answer", "other_distractors"],
        );
        check_names("1 + 2", &[]);
        check_names("[a, [b, a]][0]", &["a", "b"]);
    }

    #[test]
    fn compile_once_evaluate_many_times() -> Result<(), String> {
        let program = Program::compile("operand_1 + operand_2").map_err(|e| e.to_string())?;
        assert_eq!(program.source(), "operand_1 + operand_2");
        let mut env = Env::new();
        for (a, b) in [(1, 2), (12, 30), (-5, 5)] {
            env.set("operand_1", Value::Int(a));
            env.set("operand_2", Value::Int(b));
            assert_eq!(program.eval(&env), Ok(Value::Int(a + b)));
        }
        env.remove("operand_2");
        let error = program
            .eval(&env)
            .err()
            .map(|error| (error.message, error.position));
        assert_eq!(
            error,
            Some(("name 'operand_2' is not defined".to_owned(), Some(12)))
        );
        Ok(())
    }

    fn check_compile_error(source: &str, position: usize, fragment: &str) {
        match Program::compile(source) {
            Ok(program) => panic!("{source}: expected a compile error, got {program:?}"),
            Err(error) => {
                assert!(error.message.contains(fragment), "{source}: {error}");
                assert_eq!(error.position, position, "{source}: {error}");
            }
        }
    }

    #[test]
    fn unsafe_input_is_rejected_at_compile_time() {
        use crate::expr::{MAX_DEPTH, MAX_SOURCE_CHARS};
        check_compile_error("__import__('os')", 0, "names starting with '__'");
        check_compile_error("a.b", 1, "attribute access");
        check_compile_error("''.join(xs)", 2, "attribute access");
        check_compile_error("open('x')", 0, "function 'open' is not allowed");
        check_compile_error("eval('1')", 0, "function 'eval' is not allowed");
        check_compile_error("[x for x in y]", 3, "comprehensions");
        check_compile_error("lambda: 1", 0, "lambda");
        check_compile_error("{1: 2}", 0, "dict and set literals");
        check_compile_error("{1, 2}", 0, "dict and set literals");
        check_compile_error("x := 1", 2, "assignment expressions");
        check_compile_error("x = 1", 2, "'='");
        check_compile_error("abs(x=1)", 5, "keyword arguments");
        check_compile_error("f(*xs)", 0, "function 'f' is not allowed");
        check_compile_error("max(*xs)", 4, "unpacking");
        check_compile_error("x; y", 1, "unexpected character ';'");
        let parens = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        check_compile_error(&parens, MAX_DEPTH, "nested too deeply");
        let huge = "1 + ".repeat(2_500);
        check_compile_error(&huge, MAX_SOURCE_CHARS, "expression too long");
    }

    fn eval_error(source: &str) -> Result<String, String> {
        let program = Program::compile(source).map_err(|error| error.to_string())?;
        match program.eval(&Env::new()) {
            Ok(value) => Err(format!("{source}: expected an error, got {value:?}")),
            Err(error) => Ok(error.message),
        }
    }

    fn check_eval_error(source: &str, fragment: &str) {
        match eval_error(source) {
            Ok(message) => assert!(message.contains(fragment), "{source}: {message}"),
            Err(problem) => panic!("{problem}"),
        }
    }

    #[test]
    fn costly_input_fails_cleanly_at_run_time() {
        check_eval_error("'a' * 10**9", "string too long");
        check_eval_error("[0] * 10**9", "list too long");
        check_eval_error("2 ** 10**10", "integer overflow");
        check_eval_error("2.0 ** 10**10", "out of range");
        check_eval_error("[[0] * 1000] * 1000", "budget");
        let chain = ["len([0] * 1000)"; 12].join(" + ");
        check_eval_error(&chain, "budget");
        let sums = ["sum([1] * 1000) + sum([2] * 1000)"; 4].join(" + ");
        check_eval_error(&sums, "budget");
        let growing = "'x' * 4000 + 'y' * 100";
        check_eval_error(growing, "string too long");
        let template_budget = ["{len([0] * 1000)}"; 12].concat();
        let outcome = crate::expr::Template::compile(&template_budget)
            .map_err(|error| error.to_string())
            .and_then(|template| template.render(&Env::new()).map_err(|error| error.message));
        assert!(outcome.is_err_and(|message| message.contains("budget")));
    }

    /// Values as large as a blueprint can make, for the charging tests.
    fn large_values() -> Env {
        let nested = Value::List(vec![Value::Int(0); 1_000]);
        [
            ("f", Value::Float(f64::MAX)),
            ("u", Value::from("é".repeat(2_000))),
            ("d", Value::List(vec![nested])),
            (
                "g",
                Value::List(vec![Value::List(vec![Value::Int(1); 30]); 30]),
            ),
        ]
        .into_iter()
        .collect()
    }

    /// Runs `source` (a template when `template`) against [`large_values`].
    fn outcome(source: &str, template: bool) -> Result<String, String> {
        let env = large_values();
        if template {
            let compiled = crate::expr::Template::compile(source).map_err(|e| e.to_string())?;
            compiled.render(&env).map_err(|error| error.message)
        } else {
            let compiled = Program::compile(source).map_err(|e| e.to_string())?;
            let value = compiled.eval(&env).map_err(|error| error.message)?;
            Ok(value.to_repr_string())
        }
    }

    fn check_charged(source: &str, template: bool) {
        let result = outcome(source, template);
        assert!(
            result
                .as_ref()
                .is_err_and(|message| message.contains("budget")),
            "{source}: {result:?}"
        );
    }

    #[test]
    fn every_costly_operation_is_charged_for_its_work() {
        let list = |item: &str, times: usize| format!("[{}]", vec![item; times].join(", "));
        check_eval_error("[] * 9223372036854775807", "repetition count");
        check_eval_error("9223372036854775807 * ''", "repetition count");
        check_charged(&list("d == d", 12), false);
        check_charged(&list("d < d", 12), false);
        check_charged(&list("g <= g", 12), false);
        check_charged(&list("d[0] in d", 12), false);
        check_charged(&list("max(d, d)", 12), false);
        check_charged(&list("round(f, 2)", 150), false);
        check_charged(&list("u[-1]", 250), false);
        check_charged(&list("min(u)", 250), false);
        check_charged(&"{f:.0f}".repeat(150), true);
        check_charged(&"{f:.300e}".repeat(150), true);
        check_charged(&"{str(g)}".repeat(12), true);
        check_charged(&"{1:4000}".repeat(200), true);
        let small = outcome(
            "[u[1], min(u), round(f, 2) == f, d == d, f'{f:.0f}'[0]]",
            false,
        );
        assert_eq!(small.as_deref(), Ok("['é', 'é', True, True, '1']"));
    }

    #[test]
    fn programs_are_shareable_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Program>();
        assert_send_sync::<Env>();
        assert_send_sync::<crate::expr::Template>();
    }
}
