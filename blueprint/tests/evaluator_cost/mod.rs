//! The expression sandbox's cost bound, measured against an environment holding the largest
//! values a blueprint can make: a million random programs each compile and run (to a value or
//! an error) in under 10 ms, and the costliest program found for each kind of work is stopped
//! by its budget within 10 ms of evaluation (in a release build; see `costliest`).
//!
//! Programs come from a seeded generator (SplitMix64, so a failure names a reproducible
//! program): operators, comparisons, calls of every whitelisted function, subscripts, lists,
//! f-strings and stem templates with format specs, and repetition by counts from 0 to
//! `i64::MAX`. A program over the limit is run again a few times at once, and again once
//! every shard has finished, and judged by its fastest run, so a busy machine does not fail
//! the test; a real hole is slower by orders of magnitude.
//!
//! - `random`: the million random programs.
//! - `costliest`: for each kind of work, the program that spends its budget on it fastest.

mod costliest;
mod random;

use std::hint::black_box;
use std::time::{Duration, Instant};

use viva_blueprint::expr::{Env, MAX_LIST_LEN, MAX_STRING_CHARS, Program, Template, Value};

/// The bound on one program's compilation and evaluation.
const LIMIT: Duration = Duration::from_millis(10);
/// Runs of a program found over the limit; the fastest one is judged.
const RETRIES: usize = 5;

/// Names every program can read: small values, and values at the size limits.
fn environment() -> Env {
    let ints = (0..MAX_LIST_LEN as i64).map(Value::Int).collect();
    let floats = (0..MAX_LIST_LEN).map(|i| Value::Float(1e300 / (i as f64 + 1.0)));
    let words = (0..MAX_LIST_LEN).map(|i| Value::from(format!("w{i}")));
    let row = Value::List((0..32).map(Value::Int).collect());
    let mut deep = Value::Int(0);
    for _ in 0..250 {
        deep = Value::List(vec![deep]);
    }
    let bindings = [
        ("n", Value::Int(12)),
        ("big", Value::Int(i64::MAX)),
        ("f", Value::Float(f64::MAX)),
        ("tiny", Value::Float(5e-324)),
        ("half", Value::Float(0.5)),
        ("s", Value::from("ab".repeat(MAX_STRING_CHARS / 2))),
        ("u", Value::from("é€".repeat(MAX_STRING_CHARS / 2))),
        ("e", Value::from("")),
        ("digits", Value::from("7".repeat(MAX_STRING_CHARS))),
        ("xs", Value::List(ints)),
        ("fs", Value::List(floats.collect())),
        ("fl", Value::List(vec![Value::Float(f64::MAX); 160])),
        ("ws", Value::List(words.collect())),
        ("grid", Value::List(vec![row; 32])),
        ("deep", deep.clone()),
        ("deeps", Value::List(vec![deep; 4])),
        ("empty", Value::List(Vec::new())),
        ("ip", Value::from("192.168.1.130")),
        ("cidr", Value::Int(26)),
    ];
    bindings.into_iter().collect()
}

const NAMES: &[&str] = &[
    "n", "big", "f", "tiny", "half", "s", "u", "e", "digits", "xs", "fs", "fl", "ws", "grid",
    "deep", "deeps", "empty", "ip", "cidr",
];
/// A random program: its source, and whether it is a stem template (else an expression).
struct Case {
    source: String,
    template: bool,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Rejected,
    Failed,
    Evaluated,
}

/// Compiles and runs `case` once; returns how it ended and how long it took.
fn run(case: &Case, env: &Env) -> (Outcome, Duration) {
    let start = Instant::now();
    let outcome = if case.template {
        match Template::compile(&case.source) {
            Ok(template) => ended(black_box(template.render(env)).is_ok()),
            Err(_) => Outcome::Rejected,
        }
    } else {
        match Program::compile(&case.source) {
            Ok(program) => ended(black_box(program.eval(env)).is_ok()),
            Err(_) => Outcome::Rejected,
        }
    };
    (outcome, start.elapsed())
}

fn ended(ok: bool) -> Outcome {
    if ok {
        Outcome::Evaluated
    } else {
        Outcome::Failed
    }
}
