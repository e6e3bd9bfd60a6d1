//! The planner's cost per question, with and without scenarios, in the same run: the
//! decision an exam makes before each question (`ExamCore::pending_work`: the queue's next
//! element and, with scenarios on, the scenario rule), timed before every question of whole
//! full-scope Private exams whose answers are all satisfactory, p50/p99 over every question;
//! then criterion times one decision at the start of an exam. Issue 36 bounds the cost with
//! scenarios at 2× the cost without.
//!
//! Run with `cargo bench -p viva-core --bench planner`.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{blueprints, sources};
use criterion::Criterion;
use viva_blueprint::rubric::RubricSet;
use viva_blueprint::scenario::{LinkSet, ScenarioSet};
use viva_core::exam::acs::{AcsCatalog, AcsLibrary, Rating};
use viva_core::exam::plan::PlanDefaults;
use viva_core::exam::scenario_check::oral_element;
use viva_core::exam::types::Score;
use viva_core::examiner::{Examined, ExaminerAssessment};
use viva_core::modes::exam::transitions::NewExam;
use viva_core::modes::exam::{ExamCore, PendingWork};
use viva_core::session::lifecycle::Lifecycle;

const NOW: u64 = 1_700_000_000_000;
const SEEDS: u64 = 20;

fn catalog(rating: Rating, name: &str) -> AcsCatalog {
    let dir = blueprints().join("acs");
    let read = |file: String| std::fs::read_to_string(dir.join(file)).unwrap_or_default();
    let elements = read(format!("acs-{name}-airplane.json"));
    let tasks = read(format!("acs-{name}-airplane-tasks.json"));
    AcsCatalog::from_json(rating, &elements, &tasks).expect("the shipped catalog")
}

fn library() -> AcsLibrary {
    let root = blueprints();
    let rubrics = RubricSet::load(&sources(&root.join("rubrics"))).expect("the rubrics");
    let bare = AcsLibrary::new(
        catalog(Rating::Private, "private"),
        catalog(Rating::Commercial, "commercial"),
    );
    let oral = |code: &str| oral_element(&bare, code);
    let scenarios = ScenarioSet::load(&sources(&root.join("scenarios")), &rubrics, &oral)
        .expect("the scenarios");
    let links = LinkSet::load(&sources(&root.join("links")), &oral).expect("the links");
    bare.with_rubrics(rubrics)
        .with_scenarios(scenarios)
        .with_links(links)
}

fn exam(library: &AcsLibrary, study_mode: &str, scenarios: bool, seed: u64) -> ExamCore {
    let config = serde_json::json!({
        "rating": "private", "study_mode": study_mode, "seed": seed, "scenarios": scenarios
    });
    let review = viva_core::review::ReviewBook::new();
    let new = NewExam {
        config: serde_json::from_value(config).expect("a valid config"),
        default_seed: seed,
        defaults: PlanDefaults::default(),
        review: &review,
        now_ms: 0,
    };
    ExamCore::create(new, library).expect("a full-scope exam")
}

fn satisfactory() -> Examined<ExaminerAssessment> {
    Examined::offline(ExaminerAssessment {
        score: Score::Satisfactory,
        feedback: "Good.".into(),
        missing_terms: Vec::new(),
        mentioned_elements: Vec::new(),
        source_summary: String::new(),
        draw_out: false,
        interim: viva_core::examiner::Interim {
            feedback: String::new(),
            source_summary: String::new(),
        },
    })
}

/// Runs a whole exam, timing each decision before a question; returns the times and how
/// many questions came from scenarios.
fn run_exam(library: &AcsLibrary, mut core: ExamCore, times: &mut Vec<Duration>) -> usize {
    let mut life = Lifecycle::new("bench".into(), "bench".into(), NOW);
    let mut from_scenarios = 0;
    loop {
        let began = Instant::now();
        let work = black_box(core.pending_work(&life));
        times.push(began.elapsed());
        let asked = match work {
            PendingWork::Ask(draft) => {
                let words = Examined::offline("Question?".to_owned());
                core.commit_question(&mut life, draft, words, NOW)
            }
            PendingWork::AskScenario(draft) => {
                from_scenarios += 1;
                core.ask_scenario(&mut life, draft, library, NOW)
            }
            _ => break,
        };
        asked.expect("the question is asked");
        life.mark_delivered(NOW);
        core.commit_answer(&mut life, "An answer.".into(), None, NOW)
            .expect("the answer is taken");
        core.store_assessment(&mut life, satisfactory(), NOW)
            .expect("the verdict is stored");
    }
    from_scenarios
}

fn report(name: &str, mut times: Vec<Duration>) -> Duration {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<34} n={:<6} p50 {:>9.1?}  p99 {:>9.1?}",
        times.len(),
        at(0.5),
        at(0.99)
    );
    at(0.5)
}

fn workload(library: &AcsLibrary) {
    for study_mode in ["linear", "cross_acs", "weak_areas"] {
        let mut medians = Vec::new();
        for scenarios in [false, true] {
            let mut times = Vec::new();
            let mut from_scenarios = 0;
            for seed in 0..SEEDS {
                let core = exam(library, study_mode, scenarios, seed);
                from_scenarios += run_exam(library, core, &mut times);
            }
            let name = format!("{study_mode}, scenarios {scenarios}");
            medians.push(report(&name, times));
            if scenarios {
                println!("{:<34} {from_scenarios} questions from scenarios", "");
            }
        }
        let ratio = medians[1].as_secs_f64() / medians[0].as_secs_f64().max(1e-12);
        println!("{study_mode}: p50 with scenarios / without = {ratio:.2}");
    }
}

fn main() {
    let library = library();
    workload(&library);
    let mut criterion = Criterion::default().configure_from_args();
    let life = Lifecycle::new("bench".into(), "bench".into(), NOW);
    for scenarios in [false, true] {
        let core = exam(&library, "cross_acs", scenarios, 7);
        let name = format!("next question, full scope, scenarios {scenarios}");
        criterion.bench_function(&name, |b| b.iter(|| black_box(core.pending_work(&life))));
    }
    criterion.final_summary();
}
