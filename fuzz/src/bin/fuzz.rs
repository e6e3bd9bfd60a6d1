//! `fuzz`: runs one target (`protocol`, `expression` or `judge`) on `inputs` seeded inputs,
//! panics caught, and prints what it found; exits 1 on any panic or input over the bound.
//!
//! `cargo run --release -p viva-fuzz --bin fuzz -- TARGET [INPUTS] [SEED]`; with `@N` for
//! INPUTS, runs input N a thousand times and prints its fastest and slowest time.

use viva_fuzz::exprs::Exprs;
use viva_fuzz::frames::Frames;
use viva_fuzz::judge::Judge;
use viva_fuzz::run::{Report, replay, run};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let target = args.next().unwrap_or_else(|| "protocol".to_owned());
    let inputs = args.next().unwrap_or_else(|| "10000000".to_owned());
    let seed: u64 = args.next().map_or(Ok(1), |a| a.parse())?;
    if let Some(index) = inputs.strip_prefix('@') {
        let index: u64 = index.parse()?;
        let (fastest, slowest) = match target.as_str() {
            "protocol" => replay(&Frames, seed, index, 1_000),
            "expression" => replay(&Exprs::load(), seed, index, 1_000),
            _ => replay(&Judge::load()?, seed, index, 20),
        };
        println!("{target} input {index} (seed {seed}): fastest {fastest:?}, slowest {slowest:?}");
        return Ok(());
    }
    let inputs: u64 = inputs.parse()?;
    let report: Report = match target.as_str() {
        "protocol" => run(&Frames, seed, inputs),
        "expression" => run(&Exprs::load(), seed, inputs),
        "judge" => run(&Judge::load()?, seed, inputs),
        other => return Err(format!("no target {other:?}: protocol, expression, judge").into()),
    };
    println!("{report} (seed {seed})");
    if !report.panics.is_empty() {
        println!("panicking inputs (first 20): {:?}", report.panics);
    }
    if !report.clean() {
        std::process::exit(1);
    }
    Ok(())
}
