//! How well a model maps a student's message to a course unit, against the labelled query
//! set of the retrieval benchmark (`bench/tutor/queries.yaml`), beside retrieval (BM25) and
//! the merge the policy reads (`scope::merge_mapping`: the model settles only what retrieval
//! leaves open). Each query is one tutor turn of a cold-start student on its course, as a
//! session would send it; the model's `mapped_units` are read from its validated reply (a
//! reply that broke a rule maps nothing, as in a session). A mapping counts when its top
//! unit is confident (at the policy's target confidence), as the policy reads it: right,
//! wrong, or (for an off-course message) mapped at all.
//!
//! Usage: `tutor_mapping URL MODEL [TIMEOUT_SECS]` against a running OpenAI-compatible
//! server (`scripts/bench-tutor-mapping` starts llama-server); prints one JSON report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)] // a bench tool

mod common;

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;
use viva_blueprint::library::{Source, parse};
use viva_core::examiner::no_deltas;
use viva_core::tutor::brain::{TutorState, model_request};
use viva_core::tutor::library::TutorSettings;
use viva_core::tutor::model::TutorModel;
use viva_core::tutor::policy::TARGET_CONFIDENCE;
use viva_core::tutor::scope::{Mapped, merge_mapping};
use viva_core::tutor::snapshot::StudentSnapshot;
use viva_llm::prompts::Prompts;
use viva_llm::tutor::LlmTutor;

#[derive(Deserialize)]
struct QueryFile {
    queries: Vec<Query>,
}

#[derive(Deserialize)]
struct Query {
    course_id: String,
    text: String,
    unit: Option<String>,
}

/// Right top units and confident mappings of off-course messages, for one mapper.
#[derive(Default)]
struct Score {
    right: usize,
    wrong: usize,
    off_mapped: usize,
}

impl Score {
    fn add(&mut self, mapped: &[Mapped], label: Option<&str>) {
        let top = mapped
            .iter()
            .max_by(|a, b| a.confidence.total_cmp(&b.confidence))
            .filter(|m| m.confidence >= TARGET_CONFIDENCE);
        match label {
            Some(unit) => {
                self.right += usize::from(top.is_some_and(|m| m.unit == unit));
                self.wrong += usize::from(top.is_some_and(|m| m.unit != unit));
            }
            None => self.off_mapped += usize::from(top.is_some()),
        }
    }

    fn report(&self, on_course: usize, off_course: usize) -> serde_json::Value {
        json!({
            "right_at_1": self.right,
            "wrong_at_1": self.wrong,
            "recall_at_1": (1000.0 * self.right as f64 / on_course.max(1) as f64).round() / 10.0,
            "off_course_mapped": format!("{}/{}", self.off_mapped, off_course),
        })
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args.get(1).expect("URL").clone();
    let model = args.get(2).expect("MODEL").clone();
    let timeout = Duration::from_secs(args.get(3).and_then(|t| t.parse().ok()).unwrap_or(30));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/tutor/queries.yaml");
    let source = Source {
        text: std::fs::read_to_string(&path).expect("bench/tutor/queries.yaml"),
        path: path.display().to_string(),
    };
    let queries: QueryFile = parse(&source).expect("the query set parses");
    let courses = viva_testkit::courses::load(TutorSettings::default());
    let llm = LlmTutor::new(
        common::provider(&url, &model, timeout, 256),
        Prompts::load(None).unwrap(),
    );
    let (mut retrieval, mut by_model, mut merged) =
        (Score::default(), Score::default(), Score::default());
    let (mut on_course, mut off_course, mut replies) = (0, 0, 0);
    let now = 1_700_000_000_000;
    for query in &queries.queries {
        let tutor = courses.embedded_tutor(&query.course_id).expect("course");
        let (course, index) = (tutor.course, tutor.index);
        let grounding = courses
            .tutor
            .grounding(&query.course_id)
            .expect("grounding");
        let snapshot =
            StudentSnapshot::cold_start("bench", &query.course_id, &course.doc.entry_unit);
        let state = TutorState::new(snapshot, 7);
        let request = model_request(tutor, &state, grounding, &query.text, now);
        let answer = llm.propose(&request, &no_deltas).await;
        let model_mapped = answer.value.map(|p| p.mapped).unwrap_or_default();
        replies += usize::from(!model_mapped.is_empty());
        let retrieved = index.map(&query.text, &course.doc.entry_unit);
        let label = query.unit.as_deref();
        retrieval.add(&retrieved, label);
        by_model.add(&model_mapped, label);
        merged.add(
            &merge_mapping(&retrieved, &model_mapped, TARGET_CONFIDENCE),
            label,
        );
        if label.is_some() {
            on_course += 1;
        } else {
            off_course += 1;
        }
    }
    let report = json!({
        "model": model,
        "queries": on_course + off_course,
        "replies_with_a_mapping": replies,
        "retrieval_confident": retrieval.report(on_course, off_course),
        "model_confident": by_model.report(on_course, off_course),
        "merged_confident": merged.report(on_course, off_course),
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
}
