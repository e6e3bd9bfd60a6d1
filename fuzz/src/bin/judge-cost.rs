//! The judge's cost per answer, in release: `count` generated answers (adversarial shapes,
//! rubric words, mutated labelled answers, up to the 16 KiB frame limit), each assessed as
//! the exam assesses it (its element's rubric, then mention credit against every other oral
//! element of a private exam), timed one by one; prints p50, p99 and max, overall and by
//! shape. Each answer is assessed `repeats` times (default 5) and its fastest time kept, so
//! that other work on a shared machine (which only ever adds time) counts as little as it can.
//!
//! `cargo run --release -p viva-fuzz --bin judge-cost -- [count] [seed] [repeats]`

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use viva_core::examiner::EmbeddedExaminer;
use viva_fuzz::answers::{AnswerWorld, Shape};
use viva_fuzz::draw::Draw;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().map_or(Ok(1000), |a| a.parse())?;
    let seed: u64 = args.next().map_or(Ok(33), |a| a.parse())?;
    let repeats: usize = args.next().map_or(Ok(5), |a| a.parse())?;
    let world = AnswerWorld::load()?;
    let examiner = EmbeddedExaminer::new(world.library.clone());
    // Prepare every rubric before timing (the library prepares each on first use).
    let warm = world.request(&mut Draw::new(seed, u64::MAX), "three landings".to_owned());
    examiner.assess_now(&warm);
    let mut all = Vec::new();
    let mut by_shape: BTreeMap<Shape, Vec<Duration>> = BTreeMap::new();
    let mut slowest = (Duration::ZERO, 0, Shape::Noise, 0);
    for index in 0..count {
        let mut draw = Draw::new(seed, index);
        let (shape, answer) = world.answer(&mut draw);
        let len = answer.len();
        let request = world.request(&mut draw, answer);
        let took = (0..repeats)
            .map(|_| {
                let began = Instant::now();
                std::hint::black_box(examiner.assess_now(std::hint::black_box(&request)));
                began.elapsed()
            })
            .min()
            .unwrap_or_default();
        all.push(took);
        by_shape.entry(shape).or_default().push(took);
        if took > slowest.0 {
            slowest = (took, index, shape, len);
        }
    }
    println!(
        "{count} answers (seed {seed}), {} pending elements each, fastest of {repeats}: {}",
        world.oral.len() - 1,
        summary(all)
    );
    for (shape, times) in by_shape {
        println!("  {shape:?}: {}", summary(times));
    }
    let (took, index, shape, len) = slowest;
    println!("slowest: input {index} ({shape:?}, {len} bytes) {took:.2?}");
    Ok(())
}

fn summary(mut times: Vec<Duration>) -> String {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    format!(
        "n {} p50 {:.2?} p99 {:.2?} max {:.2?}",
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    )
}
