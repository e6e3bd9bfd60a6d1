//! The aviation phase (issue 37): the aviation phrase set (`bench/aviation/phrases.yaml`)
//! said by each voice, and the accuracy corpus's free answers, decoded in process by each
//! `--accuracy-models` model with no hint and with the terms hint (the element's rubric
//! terms, as `exam_hint` writes them), and scored three ways: raw (the transcript as
//! written, lower-cased and without punctuation), normalised (the answer the server takes,
//! numbers brought to digits) and repaired (that answer after the aviation vocabulary's
//! repairs, `viva_core::voice::vocabulary`'s `repair`). The held-out phrases are summed
//! apart from the rest.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use viva_blueprint::rubric::RubricSet;
use viva_blueprint::vocabulary::{Phrase, PhraseSet, Vocabulary, repair};
use viva_core::voice::hint::exam_hint;
use viva_core::voice::listener::spoken_text;

use super::BenchError;
use super::blueprints;
use super::exam_hints;
use super::hinted::{self, Heard, Job};
use super::setup::Setup;
use super::voices::{self, Voice};
use super::words::{Tally, raw_words};

/// The hint variants, in each job's order.
const VARIANTS: [&str; 2] = ["none", "terms"];

/// What one clip is: a phrase of the set (said by a voice) or a free answer.
#[derive(Debug, Clone)]
struct Said {
    /// `festival`, `espeak`, or `free` for the accuracy corpus (festival).
    set: &'static str,
    reference: String,
    element: String,
    holdout: bool,
}

/// The three tallies of one cell.
#[derive(Debug, Clone, Copy, Default)]
struct Scores {
    raw: Tally,
    normalised: Tally,
    repaired: Tally,
}

impl Scores {
    fn add(&mut self, reference: &str, heard: &str, terms: &[String], vocabulary: &Vocabulary) {
        let answer = spoken_text(heard).unwrap_or_default();
        let repaired = repair(&answer, vocabulary, terms);
        self.raw.add_words(&raw_words(reference), &raw_words(heard));
        self.normalised.add(reference, &answer);
        self.repaired.add(reference, &repaired);
    }

    fn line(&self) -> String {
        format!(
            "raw {:.1} % · normalised {:.1} % · repaired {:.1} % ({} words)",
            100.0 * self.raw.wer(),
            100.0 * self.normalised.wer(),
            100.0 * self.repaired.wer(),
            self.raw.words
        )
    }

    fn to_json(self) -> Value {
        let tally = |t: Tally| json!({"words": t.words, "errors": t.errors, "wer": t.wer()});
        json!({
            "raw": tally(self.raw),
            "normalised": tally(self.normalised),
            "repaired": tally(self.repaired),
        })
    }
}

/// Runs the phase; returns its JSON report.
pub async fn aviation_phase(setup: &mut Setup) -> Result<Value, BenchError> {
    let text = std::fs::read_to_string(&setup.options.aviation_phrases).map_err(BenchError::io(
        format!("reading {}", setup.options.aviation_phrases.display()),
    ))?;
    let set = PhraseSet::from_yaml(&text).map_err(|err| BenchError::Corpus(err.to_string()))?;
    let vocabulary = Vocabulary::aviation()
        .ok_or_else(|| BenchError::Corpus("the aviation vocabulary does not parse".into()))?;
    let rubrics = blueprints::load_rubrics(&setup.options.blueprints)?;
    let (said, jobs) = prepare(setup, &set.phrases, &rubrics).await?;
    setup.say(format!(
        "aviation: {} phrases ({} held out), voices {}, and {} free answers; hints none,terms",
        set.phrases.len(),
        set.phrases.iter().filter(|p| p.holdout).count(),
        names(&setup.options.voices),
        setup.clips.len(),
    ));
    let mut models = Vec::new();
    for model in setup.options.accuracy_models.clone() {
        let heard = match &setup.options.aviation_transcripts {
            Some(path) => saved(path, &model, said.len())?,
            None => decode(setup, &model, jobs.clone()).await?,
        };
        let report = score(setup, &model, &said, &heard, &rubrics, vocabulary);
        models.push(report);
    }
    Ok(json!({"phrases": set.phrases.len(), "models": models}))
}

fn names(voices: &[Voice]) -> String {
    voices
        .iter()
        .map(|v| v.name())
        .collect::<Vec<_>>()
        .join(",")
}

/// The clips: each phrase said by each voice, then the free answers; each with both hints.
async fn prepare(
    setup: &Setup,
    phrases: &[Phrase],
    rubrics: &RubricSet,
) -> Result<(Vec<Said>, Arc<Vec<Job>>), BenchError> {
    let mut said = Vec::new();
    let mut jobs = Vec::new();
    let dir = setup.options.corpus_dir.join("aviation");
    for &voice in &setup.options.voices {
        for phrase in phrases {
            let samples = {
                let (dir, text) = (dir.clone(), phrase.say.clone());
                tokio::task::spawn_blocking(move || voices::clip(&dir, voice, &text))
                    .await
                    .map_err(|err| BenchError::Corpus(format!("synthesising: {err}")))??
            };
            let hint = exam_hint("", rubrics.get(&phrase.element));
            jobs.push(Job {
                samples: samples.into(),
                hints: vec![None, hint],
            });
            said.push(Said {
                set: voice.name(),
                reference: phrase.reference.clone(),
                element: phrase.element.clone(),
                holdout: phrase.holdout,
            });
        }
    }
    for clip in setup.clips.iter() {
        let Some((element, _)) = exam_hints::question(clip.index) else {
            continue;
        };
        jobs.push(Job {
            samples: clip.samples.clone().into(),
            hints: vec![None, exam_hints::hint(rubrics, clip.index)],
        });
        said.push(Said {
            set: "free",
            reference: clip.text.to_owned(),
            element: element.to_owned(),
            holdout: false,
        });
    }
    Ok((said, Arc::new(jobs)))
}

/// Runs [`hinted::run`] on a blocking thread.
async fn decode(setup: &Setup, model: &str, jobs: Arc<Vec<Job>>) -> Result<Vec<Heard>, BenchError> {
    let (path, workers) = (setup.options.model_path(model), setup.options.workers);
    tokio::task::spawn_blocking(move || hinted::run(&path, &jobs, workers))
        .await
        .map_err(|err| BenchError::Whisper(format!("decoding task: {err}")))?
}

/// The transcripts of `model` in an earlier report of this phase (same phrase set, voices and
/// corpus), to score them again after the vocabulary changed: no decode, so no decode times.
fn saved(path: &std::path::Path, model: &str, clips: usize) -> Result<Vec<Heard>, BenchError> {
    let text = std::fs::read_to_string(path)
        .map_err(BenchError::io(format!("reading {}", path.display())))?;
    let report: Value =
        serde_json::from_str(&text).map_err(|err| BenchError::Corpus(err.to_string()))?;
    let models = report["aviation"]["models"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let Some(found) = models.iter().find(|m| m["model"] == model) else {
        return Err(BenchError::Corpus(format!(
            "no transcripts of {model} in {}",
            path.display()
        )));
    };
    let transcripts = found["transcripts"].as_array().cloned().unwrap_or_default();
    if transcripts.len() != clips * VARIANTS.len() {
        return Err(BenchError::Corpus(
            "the saved transcripts are of another set".into(),
        ));
    }
    Ok(transcripts
        .iter()
        .enumerate()
        .map(|(at, t)| Heard {
            job: at / VARIANTS.len(),
            variant: VARIANTS.iter().position(|v| t["hint"] == *v).unwrap_or(0),
            took: Duration::ZERO,
            text: Ok(t["heard"].as_str().unwrap_or_default().to_owned()),
        })
        .collect())
}

/// The rubric terms of `element`.
fn terms_of(rubrics: &RubricSet, element: &str) -> Vec<String> {
    rubrics
        .get(element)
        .map(|r| {
            r.facts
                .iter()
                .flat_map(|f| f.terms.iter().cloned())
                .collect()
        })
        .unwrap_or_default()
}

/// Sums each (set, split, hint) cell, says the lines, and returns the model's report.
fn score(
    setup: &mut Setup,
    model: &str,
    said: &[Said],
    heard: &[Heard],
    rubrics: &RubricSet,
    vocabulary: &Vocabulary,
) -> Value {
    let sets = ["festival", "espeak", "free"];
    let splits = ["tuned", "held-out"];
    let mut cells = vec![[[Scores::default(); 2]; 2]; sets.len()];
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut transcripts = Vec::new();
    for h in heard {
        let Some(clip) = said.get(h.job) else {
            continue;
        };
        let Some(set_at) = sets.iter().position(|s| *s == clip.set) else {
            continue;
        };
        let text = h.text.as_deref().unwrap_or_default();
        let terms = terms_of(rubrics, &clip.element);
        let variant = h.variant.min(1);
        cells[set_at][usize::from(clip.holdout)][variant].add(
            &clip.reference,
            text,
            &terms,
            vocabulary,
        );
        times[variant].push(h.took);
        transcripts.push(json!({
            "set": clip.set, "holdout": clip.holdout, "hint": VARIANTS[variant],
            "reference": clip.reference, "heard": text,
            "repaired": repair(&spoken_text(text).unwrap_or_default(), vocabulary, &terms),
        }));
    }
    let mut report = Vec::new();
    for (s, set) in sets.iter().enumerate() {
        for (split_at, split) in splits.iter().enumerate() {
            for (v, variant) in VARIANTS.iter().enumerate() {
                let cell = cells[s][split_at][v];
                if cell.raw.clips == 0 {
                    continue;
                }
                setup.say(format!(
                    "aviation {model} {set} {split} hint {variant}: {}",
                    cell.line()
                ));
                let mut entry = cell.to_json();
                entry["set"] = json!(set);
                entry["split"] = json!(split);
                entry["hint"] = json!(variant);
                report.push(entry);
            }
        }
    }
    let p50 = |t: &mut Vec<Duration>| {
        t.sort();
        t.get(t.len() / 2).copied().unwrap_or_default()
    };
    let (none, terms) = (p50(&mut times[0]), p50(&mut times[1]));
    let ratio = terms.as_secs_f64() / none.as_secs_f64().max(f64::EPSILON);
    setup.say(format!(
        "aviation {model} decode p50: no hint {} ms, terms hint {} ms (×{ratio:.2})",
        none.as_millis(),
        terms.as_millis()
    ));
    json!({
        "model": model,
        "cells": report,
        "decode_p50_ms": {"none": none.as_millis() as u64, "terms": terms.as_millis() as u64},
        "terms_cost_ratio": ratio,
        "transcripts": transcripts,
    })
}
