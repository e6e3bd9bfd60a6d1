//! Item generation and blueprint loading benchmarks.
//!
//! Run with `cargo bench -p viva-blueprint --bench generation`. Before criterion's own
//! groups, it prints p50/p99 of single-item generation per blueprint family, each also as a
//! ratio to the same figures for a minimal one-parameter blueprint measured in the same run.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::Criterion;
use viva_blueprint::generate::generate;
use viva_blueprint::library::{BlueprintLibrary, Source};
use viva_blueprint::skill::{Difficulty, Skill};

const SAMPLES: u64 = 20_000;

const MINIMAL: &str = r#"
skill_id: "BASELINE"
generation:
  item_type: multiple_choice
  parameters: {a: {type: integer, min: 1, max: 9}}
  answer_formula: "a"
  answer_type: integer
  difficulty_levels: {easy: {constraints: []}, medium: {constraints: []}, hard: {constraints: []}}
presentation: {stem_templates: ["{a}?"], option_count: 4}
"#;

fn sources(dir: &Path) -> Vec<Source> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                found.push(Source {
                    path: path.display().to_string(),
                    text,
                });
            }
        }
    }
    found
}

fn repo_blueprints() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints")
}

fn load_all() -> BlueprintLibrary {
    let root = repo_blueprints();
    BlueprintLibrary::load(
        &sources(&root.join("skills")),
        &sources(&root.join("assessments")),
    )
    .unwrap_or_else(|errors| panic!("shipped blueprints must load: {errors:?}"))
}

fn family(skill: &Skill) -> &str {
    skill.id.split('.').next().unwrap_or("?")
}

/// p50 and p99 of generating one item, over every skill of a family and every difficulty.
fn percentiles(skills: &[&Skill]) -> (Duration, Duration) {
    let mut times = Vec::with_capacity(SAMPLES as usize);
    for seed in 0..SAMPLES {
        let skill = skills[(seed as usize) % skills.len()];
        let difficulty = Difficulty::ALL[(seed as usize / skills.len()) % 3];
        let started = Instant::now();
        let item = generate(skill, difficulty, seed, true);
        times.push(started.elapsed());
        black_box(item).ok();
    }
    times.sort();
    (times[times.len() / 2], times[times.len() * 99 / 100])
}

fn percentile_report(library: &BlueprintLibrary, baseline: &BlueprintLibrary) {
    let base_skills: Vec<&Skill> = baseline.skills().collect();
    let (base50, base99) = percentiles(&base_skills);
    println!("baseline (1-parameter blueprint): p50 {base50:?}  p99 {base99:?}");
    let mut families: Vec<&str> = library.skills().map(family).collect();
    families.dedup();
    for name in families {
        let skills: Vec<&Skill> = library.skills().filter(|s| family(s) == name).collect();
        let (p50, p99) = percentiles(&skills);
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-12);
        println!(
            "{name:<6} ({} skills): p50 {p50:?} ({:.1}x)  p99 {p99:?} ({:.1}x)",
            skills.len(),
            ratio(p50, base50),
            ratio(p99, base99)
        );
    }
}

fn main() {
    let library = load_all();
    let baseline = BlueprintLibrary::load(
        &[Source {
            path: "baseline".into(),
            text: MINIMAL.into(),
        }],
        &[],
    )
    .unwrap_or_else(|errors| panic!("{errors:?}"));
    percentile_report(&library, &baseline);
    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group("generate");
    for skill in library.skills().chain(baseline.skills()) {
        let mut seed = 0u64;
        group.bench_function(&skill.id, |b| {
            b.iter(|| {
                seed += 1;
                generate(skill, Difficulty::ALL[(seed % 3) as usize], seed, true)
            })
        });
    }
    group.finish();
    criterion.bench_function("load all blueprints", |b| b.iter(load_all));
    criterion.final_summary();
}
