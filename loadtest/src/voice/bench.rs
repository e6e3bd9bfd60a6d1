//! The run: load the corpus, then each phase asked for, in a fixed order (accuracy,
//! listening, throughput, latency, think-aloud, capacity — capacity last, for it moves this
//! process to one core).
//! Each phase adds a JSON object to the report and lines to the human summary, which are
//! printed as they come and again at the end.

use crate::stats::round3;
use std::time::Duration;

use serde_json::{Value, json};
use viva_core::voice::listener::spoken_text;

use super::BenchError;
use super::corpus::Clip;
use super::cpu::{self, Snapshot};
use super::listening;
use super::live;
use super::options::{Options, Phase};
use super::raw::{self, RawRun};
use super::report::{Percentiles, ms, ratio};
use super::server::Server;
use super::setup::{NO_PAUSE_MS, Setup, secs, tally_json};
use super::throughput::{self, ThroughputRun};
use super::words::{edit_distance, normalise};

/// The server/raw throughput goal.
const THROUGHPUT_GOAL: f64 = 0.9;

/// Runs the phases asked for; returns the JSON report and the summary lines.
pub async fn run(options: Options) -> Result<(Value, Vec<String>), BenchError> {
    let mut setup = Setup::new(options)?;
    let mut report = json!({
        "machine": {"cores": cores(), "load_average_start": cpu::load_average()},
        "corpus": corpus_json(&setup.clips),
        "release_build": !cfg!(debug_assertions),
    });
    describe(&mut setup);
    if setup.options.runs(Phase::Accuracy) {
        report["accuracy"] = accuracy(&mut setup).await?;
    }
    if setup.options.runs(Phase::Listening) {
        report["listening"] = listening::listening_phase(&mut setup).await?;
    }
    if setup.options.runs(Phase::Aviation) {
        report["aviation"] = super::aviation::aviation_phase(&mut setup).await?;
    }
    if setup.options.runs(Phase::Throughput) {
        report["throughput"] = throughput_phase(&mut setup).await?;
    }
    if setup.options.runs(Phase::Latency) {
        report["latency"] = live::latency_phase(&mut setup).await?;
    }
    if setup.options.runs(Phase::ThinkAloud) {
        report["think_aloud"] = super::think_aloud::think_aloud_phase(&mut setup).await?;
    }
    if setup.options.runs(Phase::Capacity) {
        report["capacity"] = live::capacity_phase(&mut setup).await?;
    }
    report["machine"]["load_average_end"] = json!(cpu::load_average());
    Ok((report, setup.summary))
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn describe(setup: &mut Setup) {
    let seconds: Vec<f64> = setup.clips.iter().map(Clip::seconds).collect();
    let total: f64 = seconds.iter().sum();
    let (min, max) = seconds
        .iter()
        .fold((f64::MAX, 0.0_f64), |(lo, hi), s| (lo.min(*s), hi.max(*s)));
    setup.say(format!(
        "corpus: {} clips, {total:.1} s of speech ({min:.2}–{max:.2} s each); {} cores, \
         load average {}; {} build",
        seconds.len(),
        cores(),
        cpu::load_average(),
        if cfg!(debug_assertions) {
            "DEBUG"
        } else {
            "release"
        }
    ));
}

fn corpus_json(clips: &[Clip]) -> Value {
    let items: Vec<Value> = clips
        .iter()
        .map(|c| json!({"clip": c.index, "seconds": round3(c.seconds()), "text": c.text}))
        .collect();
    json!({"clips": clips.len(), "audio_seconds": round3(clips.iter().map(Clip::seconds).sum()),
           "items": items})
}

/// Runs [`raw::run`] on a blocking thread.
async fn raw_run(setup: &Setup, model: &str, total: usize) -> Result<RawRun, BenchError> {
    let (engine, clips) = (setup.options.engine(model), setup.clips.clone());
    let (workers, limit) = (setup.options.workers, secs(setup.options.throughput_limit));
    tokio::task::spawn_blocking(move || raw::run(&engine, &clips, workers, total, limit))
        .await
        .map_err(|err| BenchError::Whisper(format!("decoding task: {err}")))?
}

async fn accuracy(setup: &mut Setup) -> Result<Value, BenchError> {
    let mut models = Vec::new();
    for model in setup.options.accuracy_models.clone() {
        let run = raw_run(setup, &model, setup.clips.len()).await?;
        let (decoded, answered) = run.tally(&setup.clips);
        setup.say(format!(
            "accuracy {model:<8} word accuracy {:.1}% as decoded, {:.1}% as answered (WER {:.1}%, \
             {} errors in {} words, {}/{} clips exact); in process {:.2} clips/s, decode {}",
            decoded.accuracy() * 100.0,
            answered.accuracy() * 100.0,
            answered.wer() * 100.0,
            answered.errors,
            answered.words,
            answered.exact,
            answered.clips,
            run.clips_per_second(),
            Percentiles::of(&decode_times(&run)).line()
        ));
        models.push(json!({
            "model": model, "accuracy_as_decoded": tally_json(&decoded),
            "accuracy_as_answered": tally_json(&answered), "raw": raw_json(&run),
            "misheard": misheard(&setup.clips, &run), "slow": slow(&run),
        }));
    }
    Ok(json!({ "models": models }))
}

fn decode_times(run: &RawRun) -> Vec<Duration> {
    run.decoded.iter().map(|d| d.took).collect()
}

fn raw_json(run: &RawRun) -> Value {
    json!({"workers": run.workers, "clips": run.decoded.len(), "failures": run.failures(),
           "wall_s": round3(run.wall.as_secs_f64()), "clips_per_s": round3(run.clips_per_second()),
           "audio_s_per_s": round3(run.audio_per_second()),
           "decode": Percentiles::of(&decode_times(run)).to_json()})
}

/// Each clip whose answer (the server's reading of the first transcript) differs from its
/// text, with the word errors.
fn misheard(clips: &[Clip], run: &RawRun) -> Vec<Value> {
    clips
        .iter()
        .filter_map(|clip| {
            let decoded = run.first(clip.index)?;
            let heard = decoded
                .text
                .clone()
                .unwrap_or_else(|err| format!("<{err}>"));
            let answered = spoken_text(&heard).unwrap_or_default();
            let errors = edit_distance(&normalise(clip.text), &normalise(&answered));
            let misheard = json!({"clip": clip.index, "said": clip.text, "heard": heard,
                                  "answered": answered, "errors": errors});
            (errors > 0).then_some(misheard)
        })
        .collect()
}

/// Decodes that took over half as long again as the median, with what whisper wrote (a
/// looping decode runs on to the token cap).
fn slow(run: &RawRun) -> Vec<Value> {
    let median = Percentiles::of(&decode_times(run)).p50;
    run.decoded
        .iter()
        .filter(|d| d.took > median.mul_f64(1.5))
        .map(|d| json!({"clip": d.clip, "ms": ms(d.took).round(), "heard": d.text.clone().unwrap_or_default()}))
        .collect()
}

async fn throughput_phase(setup: &mut Setup) -> Result<Value, BenchError> {
    let model = setup.options.server_model.clone();
    let total = setup.clips.len() * setup.options.rounds.max(1);
    let before = raw_run(setup, &model, total).await?;
    let (server_run, decodes, usage) = server_throughput(setup, total).await?;
    let after = raw_run(setup, &model, total).await?;
    let raw_rate = (before.clips_per_second() + after.clips_per_second()) / 2.0;
    let ratio = ratio(server_run.clips_per_second(), raw_rate);
    say_throughput(setup, &before, &after, &server_run, ratio);
    setup.say(format!("  {}", decodes.line()));
    setup.say(format!("  {}", usage.line()));
    Ok(json!({
        "model": model, "workers": setup.options.workers, "clips_per_run": total,
        "raw_before": raw_json(&before), "raw_after": raw_json(&after),
        "server": throughput_json(&server_run), "server_decodes": decodes.to_json(),
        "server_cpu": usage.to_json(),
        "ratio_server_to_raw": ratio.map(round3), "goal": THROUGHPUT_GOAL,
    }))
}

async fn server_throughput(
    setup: &Setup,
    total: usize,
) -> Result<(ThroughputRun, super::decode_log::DecodeLog, cpu::Usage), BenchError> {
    let server = Server::start(&setup.server_spec(setup.options.workers, None)).await?;
    let snapshot = Snapshot::take(Some(server.pid));
    let run = throughput::run(
        &server.url,
        setup.clips.clone(),
        setup.options.throughput_clients(),
        total,
        secs(setup.options.throughput_limit),
        setup.session(Some(NO_PAUSE_MS)),
    )
    .await;
    let usage = snapshot.usage();
    let decodes = server.stop(setup.options.log_path("throughput")).await?;
    Ok((run, decodes, usage))
}

fn say_throughput(
    setup: &mut Setup,
    before: &RawRun,
    after: &RawRun,
    server: &ThroughputRun,
    ratio: Option<f64>,
) {
    let workers = setup.options.workers;
    setup.say(format!(
        "throughput {} W={workers}: raw {:.2} → {:.2} clips/s ({:.1} → {:.1} audio s/s); \
         server C={} {:.2} clips/s ({:.1} audio s/s), {} finals, {} partials, {} failures",
        before.model,
        before.clips_per_second(),
        after.clips_per_second(),
        before.audio_per_second(),
        after.audio_per_second(),
        server.clients,
        server.clips_per_second(),
        server.audio_per_second(),
        server.finals.len(),
        server.partials,
        server.failures.count,
    ));
    let verdict = match ratio {
        Some(r) if r >= THROUGHPUT_GOAL => "goal met",
        Some(_) => "GOAL MISSED",
        None => "no baseline",
    };
    setup.say(format!(
        "  server / raw (mean of before and after) = {} (goal ≥ {THROUGHPUT_GOAL}: {verdict}); \
         commit → final {}",
        ratio.map_or("n/a".to_owned(), |r| format!("{r:.2}")),
        Percentiles::of(&server.finals.iter().map(|f| f.1).collect::<Vec<_>>()).line()
    ));
}

fn throughput_json(run: &ThroughputRun) -> Value {
    let finals: Vec<Duration> = run.finals.iter().map(|f| f.1).collect();
    json!({"clients": run.clients, "clips": run.finals.len(),
           "wall_s": round3(run.wall.as_secs_f64()), "clips_per_s": round3(run.clips_per_second()),
           "audio_s_per_s": round3(run.audio_per_second()), "partials": run.partials,
           "commit_to_final": Percentiles::of(&finals).to_json(),
           "failures": run.failures.to_json()})
}
