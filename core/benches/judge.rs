//! The embedded examiner's judgement, timed: every labelled answer of the examiner
//! benchmark (`bench/examiner/answers/`) judged against its element's rubric (reading the
//! answer, judging it, writing the feedback), with p50/p99 over every answer and pass, and
//! the same figures for the key-term assessor it replaced, measured in the same run, as the
//! baseline. Then criterion times one short, one long and one non-answer.
//!
//! Run with `cargo bench -p viva-actors --bench judge`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::Criterion;
use viva_blueprint::answer_set::{LabelledAnswer, load_answers};
use viva_blueprint::library::Source;
use viva_blueprint::rubric::RubricSet;
use viva_core::exam::acs::{AcsCatalog, Rating};
use viva_core::exam::examiner::assess_answer;
use viva_core::exam::examiner::judge::{PreparedRubric, ReadAnswer, feedback, judge_read};

const PASSES: usize = 20;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn yaml_sources(dir: &Path) -> Vec<Source> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| Source {
            text: std::fs::read_to_string(&path).unwrap_or_default(),
            path: path.display().to_string(),
        })
        .collect()
}

fn catalog() -> AcsCatalog {
    AcsCatalog::from_json(
        Rating::Private,
        include_str!("../../blueprints/acs/acs-private-airplane.json"),
        include_str!("../../blueprints/acs/acs-private-airplane-tasks.json"),
    )
    .expect("the private catalog")
}

fn percentiles(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

fn time_each(
    answers: &[LabelledAnswer],
    mut judge_one: impl FnMut(&LabelledAnswer),
) -> Vec<Duration> {
    let mut times = Vec::with_capacity(answers.len() * PASSES);
    for _ in 0..PASSES {
        for answer in answers {
            let began = Instant::now();
            judge_one(answer);
            times.push(began.elapsed());
        }
    }
    times
}

fn main() {
    let rubric_dir = repo().join("blueprints/rubrics");
    let mut sources = yaml_sources(&rubric_dir.join("private"));
    sources.extend(yaml_sources(&rubric_dir.join("domains")));
    let rubrics = RubricSet::load(&sources).expect("the shipped rubrics");
    let answers = load_answers(&yaml_sources(&repo().join("bench/examiner/answers")))
        .expect("the labelled answers");
    let catalog = catalog();
    let prepared: std::collections::HashMap<String, PreparedRubric> = rubrics
        .iter()
        .map(|r| (r.element.clone(), PreparedRubric::new(r.clone())))
        .collect();
    let rubric_times = time_each(&answers, |answer| {
        let rubric = &prepared[&answer.element];
        let read = ReadAnswer::of(black_box(&answer.answer));
        let verdict = judge_read(rubric, &read, None);
        black_box(feedback(&rubric.rubric, &verdict, None));
    });
    let key_term_times = time_each(&answers, |answer| {
        let element = catalog.element(&answer.element).expect("an ACS element");
        black_box(assess_answer(element, black_box(&answer.answer), &[]));
    });
    let (rubric_p50, rubric_p99) = percentiles(rubric_times);
    let (base_p50, base_p99) = percentiles(key_term_times);
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!(
        "{} answers x {PASSES} passes: rubric judge p50 {rubric_p50:?} p99 {rubric_p99:?}; \
         key-term assessor (baseline) p50 {base_p50:?} p99 {base_p99:?}; ratio p50 {:.2} p99 {:.2}",
        answers.len(),
        ratio(rubric_p50, base_p50),
        ratio(rubric_p99, base_p99),
    );

    let mut criterion = Criterion::default().configure_from_args();
    let k1 = &prepared["PA.I.A.K1"];
    let short = "Three takeoffs and three landings in the last ninety days.";
    let long = answers
        .iter()
        .max_by_key(|a| a.answer.len())
        .map(|a| (a.element.clone(), a.answer.clone()))
        .expect("an answer");
    criterion.bench_function("judge/short answer", |b| {
        b.iter(|| judge_read(k1, &ReadAnswer::of(black_box(short)), None))
    });
    criterion.bench_function("judge/longest bench answer", |b| {
        b.iter(|| {
            judge_read(
                &prepared[&long.0],
                &ReadAnswer::of(black_box(&long.1)),
                None,
            )
        })
    });
    criterion.bench_function("judge/non-answer", |b| {
        b.iter(|| judge_read(k1, &ReadAnswer::of(black_box("I don't know.")), None))
    });
    criterion.bench_function("judge/prepare a rubric", |b| {
        b.iter(|| PreparedRubric::new(black_box(k1.rubric.clone())))
    });
    criterion.final_summary();
}
