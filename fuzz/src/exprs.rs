//! Programs for the expression language: every quoted formula and template of the shipped
//! skill blueprints, mutated character by character and token by token, spliced, and built
//! from the grammar's pieces; each is compiled, then evaluated (or rendered) against names
//! bound to random values. Compilation is linear and evaluation budgeted (`expr` module docs).

use std::sync::Arc;
use std::time::Duration;

use viva_blueprint::expr::{Env, Program, Template, Value};

use crate::corpus;
use crate::draw::Draw;
use crate::run::{Target, excerpt};

/// Pieces of the grammar a generated program is made of.
const PIECES: &[&str] = &[
    "1",
    "0",
    "-1",
    "2.5",
    "1e308",
    "9223372036854775807",
    "'ab'",
    "\"x\"",
    "f'{a:.2f}'",
    "f'{b!r}'",
    "[1, 2, 3]",
    "[]",
    "a",
    "b",
    "c",
    "s",
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "**",
    "==",
    "<",
    ">=",
    "!=",
    " and ",
    " or ",
    "not ",
    " if ",
    " else ",
    " in ",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "abs(",
    "min(",
    "max(",
    "round(",
    "int(",
    "float(",
    "str(",
    "len(",
    "sum(",
    "sqrt(",
    "floor(",
    "ceil(",
    "sin_deg(",
    "tan_deg(",
    "cidr_to_mask(",
    "network_address(",
    "host_count(",
    "'10.0.0.1'",
    "24",
    " * 1000000",
    "[0] * 100000",
    "'x' * 100000",
];

/// The expression language.
pub struct Exprs {
    seeds: Arc<Vec<String>>,
}

/// One generated program: its source, whether it is a template, and the names' values.
#[derive(Debug)]
pub struct ExprInput {
    source: String,
    template: bool,
    values: Vec<Value>,
}

impl Exprs {
    /// Seeds from the shipped skill blueprints (every double-quoted string in them).
    pub fn load() -> Exprs {
        let mut seeds = Vec::new();
        for path in corpus::files(&corpus::repo().join("blueprints/skills"), ".yaml") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            seeds.extend(text.split('"').skip(1).step_by(2).map(str::to_owned));
        }
        seeds.retain(|s| !s.is_empty());
        if seeds.is_empty() {
            seeds.push("a + b".to_owned());
        }
        Exprs {
            seeds: Arc::new(seeds),
        }
    }

    fn seed(&self, draw: &mut Draw) -> String {
        self.seeds[draw.below(self.seeds.len())].clone()
    }
}

impl Target for Exprs {
    type Input = ExprInput;

    fn name(&self) -> &'static str {
        "expression"
    }

    fn bound(&self) -> Duration {
        Duration::from_millis(50)
    }

    fn input(&self, draw: &mut Draw) -> ExprInput {
        let source = match draw.below(4) {
            0 => self.seed(draw),
            1 => built(draw),
            2 => {
                let seed = self.seed(draw);
                mutated(draw, seed)
            }
            _ => format!("{} {} {}", self.seed(draw), piece(draw), built(draw)),
        };
        let values = (0..4).map(|_| value(draw)).collect();
        ExprInput {
            template: draw.chance(1, 3),
            source,
            values,
        }
    }

    fn run(&self, input: &ExprInput) {
        let mut env = Env::new();
        for (name, value) in ["a", "b", "c", "s"].iter().zip(&input.values) {
            env.set(name, value.clone());
        }
        if input.template {
            if let Ok(template) = Template::compile(&input.source) {
                // ignore: an evaluation error is a result.
                let _ = std::hint::black_box(template.render(&env));
            }
        } else if let Ok(program) = Program::compile(&input.source) {
            for name in program.names() {
                if !env.contains(name) {
                    env.set(name, Value::Int(3));
                }
            }
            // ignore: an evaluation error is a result.
            let _ = std::hint::black_box(program.eval(&env));
        }
    }

    fn describe(&self, input: &ExprInput) -> String {
        excerpt(&input.source)
    }
}

impl ExprInput {
    /// Whether the input compiles, so that running it evaluates (or renders) something.
    pub fn compiles(&self) -> bool {
        if self.template {
            Template::compile(&self.source).is_ok()
        } else {
            Program::compile(&self.source).is_ok()
        }
    }
}

fn piece(draw: &mut Draw) -> &'static str {
    PIECES[draw.below(PIECES.len())]
}

fn built(draw: &mut Draw) -> String {
    (0..draw.between(1, 24)).map(|_| piece(draw)).collect()
}

fn mutated(draw: &mut Draw, source: String) -> String {
    let mut chars: Vec<char> = source.chars().collect();
    for _ in 0..draw.between(1, 6) {
        let at = draw.below(chars.len() + 1);
        match draw.below(3) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => chars.splice(at..at, piece(draw).chars()).for_each(drop),
            _ => chars.insert(
                at,
                ['(', ')', '{', '}', '\'', '*', '9', '[', ':'][draw.below(9)],
            ),
        }
    }
    chars.into_iter().collect()
}

fn value(draw: &mut Draw) -> Value {
    match draw.below(5) {
        0 => Value::Int(draw.bits() as i64 >> draw.below(64)),
        1 => Value::Float(f64::from_bits(draw.bits())),
        2 => Value::Str("z".repeat(draw.below(300))),
        3 => Value::Bool(draw.chance(1, 2)),
        _ => Value::List((0..draw.below(50)).map(|n| Value::Int(n as i64)).collect()),
    }
}
