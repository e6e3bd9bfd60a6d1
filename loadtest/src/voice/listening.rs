//! The listening phase: spoken answers to generated items ([`items`]) said by two voices
//! ([`voices`]), decoded in process by each `--accuracy-models` model once per hint variant
//! ([`hinted`], hints from the server's `item_hint`), and taken the old way and the new
//! ([`verdict`]); then the accuracy corpus's free answers with no hint and with the exam's
//! ([`exam_hints`]). The figures are summed in [`listening_report`].

use std::sync::Arc;

use serde_json::{Value, json};
use viva_blueprint::rubric::RubricSet;

use super::BenchError;
use super::blueprints;
use super::corpus::Clip;
use super::exam_hints;
use super::hinted::{self, Heard, Job, Listening};
use super::items;
use super::listening_report::{self, ExamOutcome, Outcome};
use super::setup::Setup;
use super::voices;

/// Runs the phase; returns its JSON report.
pub async fn listening_phase(setup: &mut Setup) -> Result<Value, BenchError> {
    let listening = prepare(setup).await?;
    let wrong = listening.entries.iter().filter(|e| !e.right).count();
    setup.say(format!(
        "listening: {} spoken item answers ({wrong} wrong), voices {}, hints {}; {} decodes \
         per model",
        listening.entries.len(),
        names(listening.voices.iter().map(|v| v.name())),
        names(listening.variants.iter().map(|v| v.name())),
        listening.jobs.len() * listening.variants.len(),
    ));
    let as_said = listening_report::as_said(&listening.entries);
    setup.say(format!(
        "listening as said (no recogniser): plain {} · repair {}",
        as_said[0].line(),
        as_said[1].line()
    ));
    let rubrics = blueprints::load_rubrics(&setup.options.blueprints)?;
    let mut models = Vec::new();
    for model in setup.options.accuracy_models.clone() {
        let heard = decode(setup, &model, listening.jobs.clone()).await?;
        let outcome = Outcome::of(&listening, &heard);
        for line in outcome.lines(&model) {
            setup.say(line);
        }
        let exam = exam_run(setup, &model, &rubrics).await?;
        setup.say(exam.line(&model));
        let mut report = outcome.to_json(&model);
        report["exam_hints"] = exam.to_json(&setup.clips, &rubrics);
        models.push(report);
    }
    Ok(json!({
        "seed": setup.options.listening_seed,
        "voices": listening.voices.iter().map(|v| v.name()).collect::<Vec<_>>(),
        "hints": listening.variants.iter().map(|v| v.name()).collect::<Vec<_>>(),
        "cost_goal": listening_report::COST_GOAL,
        "items": listening_report::entries_json(&listening.entries),
        "as_said": {"plain": as_said[0].to_json(), "repair": as_said[1].to_json()},
        "models": models,
    }))
}

fn names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(",")
}

/// Builds the set and synthesises (or finds cached) each voice's clips, on a blocking thread.
async fn prepare(setup: &Setup) -> Result<Listening, BenchError> {
    let options = setup.options.clone();
    tokio::task::spawn_blocking(move || {
        let library = blueprints::load_skills(&options.blueprints)?;
        let entries = items::build(&library, options.listening_seed, options.listening_items)?;
        let variants = options.listening_hints.clone();
        let dir = options.corpus_dir.join("listening");
        let mut jobs = Vec::new();
        for &voice in &options.voices {
            for entry in &entries {
                let samples = voices::clip(&dir, voice, &entry.sentence)?;
                let hints = variants.iter().map(|v| v.hint(entry)).collect();
                jobs.push(Job {
                    samples: samples.into(),
                    hints,
                });
            }
        }
        Ok(Listening {
            entries,
            voices: options.voices.clone(),
            variants,
            jobs: Arc::new(jobs),
        })
    })
    .await
    .map_err(|err| BenchError::Corpus(format!("preparing the listening clips: {err}")))?
}

/// Runs [`hinted::run`] on a blocking thread.
async fn decode(setup: &Setup, model: &str, jobs: Arc<Vec<Job>>) -> Result<Vec<Heard>, BenchError> {
    let (path, workers) = (setup.options.model_path(model), setup.options.workers);
    tokio::task::spawn_blocking(move || hinted::run(&path, &jobs, workers))
        .await
        .map_err(|err| BenchError::Whisper(format!("decoding task: {err}")))?
}

/// The accuracy corpus decoded with no hint and with each answer's exam hint.
async fn exam_run(
    setup: &Setup,
    model: &str,
    rubrics: &RubricSet,
) -> Result<ExamOutcome, BenchError> {
    let jobs: Vec<Job> = setup
        .clips
        .iter()
        .map(|clip: &Clip| Job {
            samples: clip.samples.clone().into(),
            hints: vec![None, exam_hints::hint(rubrics, clip.index)],
        })
        .collect();
    let heard = decode(setup, model, Arc::new(jobs)).await?;
    Ok(ExamOutcome::of(&setup.clips, &heard))
}
