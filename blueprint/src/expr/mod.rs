//! Safe, Python-flavoured expression language for blueprint formulas, constraints and stem templates.
//!
//! Expressions are compiled once into a small syntax tree ([`Program`]) and evaluated many times
//! against an [`Env`] of named [`Value`]s. The grammar is a strict subset of Python expressions:
//! literals, names, lists, arithmetic, comparisons (chained), `and`/`or`/`not`, conditional
//! expressions, subscripts, f-strings and calls to a fixed whitelist of functions. Attribute
//! access, imports, lambdas, comprehensions, assignments and keyword arguments do not exist in the
//! grammar, so there is nothing to sandbox at run time beyond the cost limits below.
//!
//! Differences from CPython (compared on about 40,000 random expressions):
//! - integers are 64-bit: overflow, including an over-long literal, is an error;
//! - `round(int, n)` returns an int (as Python does); `round(float, n)` is correctly rounded;
//! - `sum` uses compensated summation, as Python 3.12+ does;
//! - trigonometry (`sin_deg` and friends) is exact at special angles; `tan_deg(90)` is an error;
//! - not supported: `is`, `None`, `!r`/`!s` conversions and `{x=}` in f-strings, nested `{}` in
//!   format specs, raw, bytes and triple-quoted strings, implicit string concatenation, `%`
//!   formatting, hex/octal/binary literals, and names starting with `__`;
//! - networking functions are strict: dotted quads without leading zeros, integer prefixes;
//! - repeating a sequence more than [`MAX_REPEAT_COUNT`] times is an error, even `[] * n`
//!   and `'' * n` (Python returns the empty sequence).
//!
//! # Cost
//!
//! One evaluation (or one template rendering) has a budget of [`MAX_STEPS`] steps, and every
//! operation charges before it does its work an amount that grows with that work, so no
//! program within the budget can run long: the costliest programs found for each kind of work
//! run in a few milliseconds (`blueprint/tests/evaluator_cost/`). The charges:
//! - every syntax node visited: 1;
//! - copying a value (into a list display, a concatenation, a repetition, the result of
//!   `min`/`max`): 1 per scalar and per list, through nested lists, and 1 per 64 bytes of text;
//! - repeating a sequence: the copies it makes, each charged before it is made, and 1;
//! - comparing (`==`, `<`, `in`, `min`, `max`): 1 per pair of values looked at, at any depth,
//!   and 1 per 64 bytes of text compared; a list membership test charges each element;
//! - scanning text (`len`, indexing, substring tests, `int()`, `float()`, networking
//!   arguments, `min`/`max` of a string, concatenation): 1 per 64 bytes, and 1;
//! - `sum`: 1 per element;
//! - rendering text (`str()`, f-string and template fields): as copying, but 5 per float,
//!   then 1 per 64 bytes of the text produced and 1 per 64 characters of a field's width;
//! - exact float digits (a format spec's `f`, `e`, `g` or `%` presentation, `round(x, n)`):
//!   1 per 4 digits computed, and 1.
//!
//! Measuring a value's cost stops once it exceeds what is left of the budget, so measuring is
//! bounded too. Sizes are capped as well: [`MAX_STRING_CHARS`], [`MAX_LIST_LEN`] and
//! [`MAX_REPEAT_COUNT`]. Compilation is not budgeted; it is linear in the source, which is at
//! most [`MAX_SOURCE_CHARS`] per expression or placeholder.
//!
//! ```text
//! let program = Program::compile("operand_1 + operand_2")?;   // once, at load
//! let mut env = Env::new();
//! env.set("operand_1", Value::Int(12));
//! env.set("operand_2", Value::Int(30));
//! assert_eq!(program.eval(&env)?, Value::Int(42));              // many times
//!
//! let template = Template::compile("What is {operand_1} + {operand_2}?")?;
//! assert_eq!(template.render(&env)?, "What is 12 + 30?");
//! ```

mod arith;
mod ast;
mod budget;
mod compare;
mod convert;
mod env;
mod error;
mod eval;
mod format;
mod functions;
mod ipv4;
mod lexer;
mod limits;
mod math;
mod network;
mod network_error;
mod numfmt;
mod parser;
mod parser_atoms;
mod placeholder;
mod program;
mod template;
mod token;
mod value;
mod whitelist;

pub use env::Env;
pub use error::{CompileError, EvalError, ExprError};
pub use limits::{
    MAX_DEPTH, MAX_LIST_LEN, MAX_REPEAT_COUNT, MAX_SOURCE_CHARS, MAX_STEPS, MAX_STRING_CHARS,
    MAX_TREE_HEIGHT,
};
pub use program::Program;
pub use template::Template;
pub use value::Value;
