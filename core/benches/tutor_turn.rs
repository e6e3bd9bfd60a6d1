//! A tutor turn, timed in process: the embedded brain's whole turn (retrieval over the
//! course's units, the policy, validation, the card), over the three shipped courses.
//!
//! First a fixed workload — per course, 2,000 rounds of a message, a drill request, a drill
//! answer and "continue" — reports p50/p99/max of each kind of input, beside the baseline
//! measured in the same run: the policy alone for the same snapshot (no retrieval, no card).
//! Then criterion times one message on the largest course.
//!
//! Run with `cargo bench -p viva-core --bench tutor_turn`.

use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;

use common::{blueprints, sources};
use criterion::Criterion;
use viva_blueprint::course::CourseSet;
use viva_blueprint::library::BlueprintLibrary;
use viva_blueprint::rubric::RubricSet;
use viva_core::exam::acs::{AcsCatalog, AcsLibrary, Rating};
use viva_core::modes::assessment::AnswerInput;
use viva_core::tutor::brain::{Tutor, TutorInput, TutorState, take_turn};
use viva_core::tutor::library::{TutorLibrary, TutorSettings};
use viva_core::tutor::policy::{TurnFacts, policy};
use viva_core::tutor::snapshot::StudentSnapshot;

const ROUNDS: usize = 2_000;
const NOW: u64 = 1_700_000_000_000;

/// Messages a student might send, in turn.
const MESSAGES: [&str; 4] = [
    "how do I work this out?",
    "I don't get the second step",
    "can you explain the rule again with an example",
    "what should I learn next",
];

struct World {
    tutor: TutorLibrary,
    skills: BlueprintLibrary,
    acs: AcsLibrary,
}

fn world() -> World {
    let root = blueprints();
    let skills = BlueprintLibrary::load(&sources(&root.join("skills")), &[]).expect("skills");
    let rubrics = RubricSet::load(&sources(&root.join("rubrics"))).expect("rubrics");
    let exists = |element: &str| rubrics.get(element).is_some();
    let courses =
        CourseSet::load(&sources(&root.join("courses")), &skills, &exists).expect("courses");
    let catalog = |rating: Rating, name: &str| {
        let dir = root.join("acs");
        let read = |file: String| std::fs::read_to_string(dir.join(file)).expect("ACS file");
        let elements = read(format!("acs-{name}-airplane.json"));
        let tasks = read(format!("acs-{name}-airplane-tasks.json"));
        AcsCatalog::from_json(rating, &elements, &tasks).expect("catalog")
    };
    let acs = AcsLibrary::new(
        catalog(Rating::Private, "private"),
        catalog(Rating::Commercial, "commercial"),
    )
    .with_rubrics(rubrics);
    World {
        tutor: TutorLibrary::new(courses, &acs, TutorSettings::default()),
        skills,
        acs,
    }
}

fn tutor<'a>(world: &'a World, course_id: &str) -> Tutor<'a> {
    let (course, index) = world.tutor.course(course_id).expect("a shipped course");
    Tutor {
        course,
        index,
        blueprints: &world.skills,
        acs: &world.acs,
        settings: world.tutor.settings,
        model: None,
        verdict: None,
    }
}

fn cold(tutor: Tutor<'_>) -> TutorState {
    let doc = &tutor.course.doc;
    let snapshot = StudentSnapshot::cold_start("bench", &doc.course_id, &doc.entry_unit);
    TutorState::new(snapshot, 7)
}

/// Times of each kind of input over the rounds, and of the bare policy.
#[derive(Default)]
struct Times {
    message: Vec<Duration>,
    drill: Vec<Duration>,
    check: Vec<Duration>,
    carry_on: Vec<Duration>,
    policy: Vec<Duration>,
}

fn timed(input: TutorInput, tutor: Tutor<'_>, state: &mut TutorState, into: &mut Vec<Duration>) {
    let began = Instant::now();
    let turn = take_turn(tutor, state, input, NOW);
    into.push(began.elapsed());
    black_box(turn.ok());
}

fn run_course(tutor: Tutor<'_>, times: &mut Times) {
    let mut state = cold(tutor);
    for round in 0..ROUNDS {
        let message = TutorInput::Message(MESSAGES[round % MESSAGES.len()].to_owned());
        timed(message, tutor, &mut state, &mut times.message);
        timed(
            TutorInput::RequestDrill(None),
            tutor,
            &mut state,
            &mut times.drill,
        );
        let answer = TutorInput::DrillCheck {
            drill_id: None,
            answer: AnswerInput::Text("12".to_owned()),
        };
        timed(answer, tutor, &mut state, &mut times.check);
        timed(
            TutorInput::DrillContinue,
            tutor,
            &mut state,
            &mut times.carry_on,
        );
        let began = Instant::now();
        let facts = TurnFacts {
            mapped: &[],
            exam_available: false,
        };
        black_box(policy(&state.snapshot, &tutor.course.graph, facts));
        times.policy.push(began.elapsed());
        if round % 50 == 49 {
            state = cold(tutor);
        }
    }
}

fn report(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<22} n={:<6} p50 {:>9.1?}  p99 {:>9.1?}  max {:>9.1?}",
        times.len(),
        at(0.5),
        at(0.99),
        times[times.len() - 1]
    );
}

fn workload(world: &World) {
    let mut all = Times::default();
    for course_id in world.tutor.course_ids() {
        let mut times = Times::default();
        run_course(tutor(world, &course_id), &mut times);
        let mut every: Vec<Duration> = Vec::new();
        for list in [&times.message, &times.drill, &times.check, &times.carry_on] {
            every.extend(list);
        }
        report(&format!("{course_id} (any input)"), every);
        all.message.extend(times.message);
        all.drill.extend(times.drill);
        all.check.extend(times.check);
        all.carry_on.extend(times.carry_on);
        all.policy.extend(times.policy);
    }
    report("message", all.message);
    report("drill request", all.drill);
    report("drill check", all.check);
    report("continue", all.carry_on);
    report("baseline: policy only", all.policy);
}

fn main() {
    let world = world();
    workload(&world);
    let mut criterion = Criterion::default().configure_from_args();
    let ppl = tutor(&world, "PPL-GROUND");
    criterion.bench_function("tutor turn: a message (PPL-GROUND)", |b| {
        let mut state = cold(ppl);
        b.iter(|| {
            let message = TutorInput::Message("how do I read a METAR for density altitude".into());
            black_box(take_turn(ppl, &mut state, message, NOW).ok())
        })
    });
    criterion.final_summary();
}
