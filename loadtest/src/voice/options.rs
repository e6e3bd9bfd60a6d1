//! `viva-voice-bench`'s command line: which phases to run, and every count, duration and path
//! they use. Defaults make a run of several minutes; `--capacity-seconds 60` is the one
//! written down in docs/benchmarks.md.

use std::path::PathBuf;

use clap::Parser;
use viva_speech::Engine;
use viva_speech::moonshine::{MOONSHINE_DIR, MoonshineFiles};

use super::client::Mode;
use super::hinted::HintVariant;
use super::voices::Voice;

/// A part of the benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Phase {
    /// Word accuracy of each `--accuracy-models` model, decoding in process.
    Accuracy,
    /// Spoken answers to generated items, with each hint variant, taken the old way and with
    /// repairs; free answers with the exam hint.
    Listening,
    /// Clips per second: in process (before and after), then through a server.
    Throughput,
    /// End of speech → final at a microphone's pace: push-to-talk and end of turn.
    Latency,
    /// Sessions at a speaking duty cycle on one pinned core, stepped up.
    Capacity,
    /// Whole answers with a pause inside, through the listener and adaptive end of turn:
    /// premature cut-offs (in process).
    ThinkAloud,
    /// The aviation phrase set and the free answers: word error raw, normalised and after
    /// the aviation vocabulary's repairs, with and without the terms hint (in process).
    Aviation,
}

/// Command-line options.
#[derive(Debug, Clone, Parser)]
#[command(name = "viva-voice-bench", about = "Viva's speech-to-text benchmark")]
pub struct Options {
    /// The phases to run, in this order whatever the order given.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "accuracy,listening,throughput,latency,capacity"
    )]
    pub phases: Vec<Phase>,
    /// Folder with `ggml-<model>.bin`.
    #[arg(long, env = "VIVA_MODELS_DIR", default_value = "/var/tmp/viva-models")]
    pub models_dir: PathBuf,
    /// Folder where the synthesised answers are cached.
    #[arg(long, default_value = "/var/tmp/viva-voice-corpus")]
    pub corpus_dir: PathBuf,
    /// Use only the first N answers of the corpus.
    #[arg(long)]
    pub clips: Option<usize>,
    /// Models whose accuracy is measured.
    #[arg(long, value_delimiter = ',', default_value = "tiny.en,base")]
    pub accuracy_models: Vec<String>,
    /// The model of the throughput, latency and capacity phases.
    #[arg(long, default_value = "tiny.en")]
    pub server_model: String,
    /// Whisper states in process, and the server's `--stt-workers` (capacity uses 1).
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
    /// Concurrent clients of the server throughput phase (default: twice the workers).
    #[arg(long)]
    pub clients: Option<usize>,
    /// Passes over the corpus in each throughput run.
    #[arg(long, default_value_t = 2)]
    pub rounds: usize,
    /// Time limit of each throughput run, in seconds.
    #[arg(long, default_value_t = 300.0)]
    pub throughput_limit: f64,
    /// Clips said in each latency mode (default: the corpus once).
    #[arg(long)]
    pub latency_clips: Option<usize>,
    /// Sessions speaking at once in each latency mode, each saying `--latency-clips`.
    #[arg(long, default_value_t = 1)]
    pub latency_sessions: usize,
    /// Audio per frame at a microphone's pace, in ms (the web client sends 40).
    #[arg(long, default_value_t = 100)]
    pub frame_ms: u32,
    /// The server's default thinking pause, in ms, subtracted from the end-of-turn latency.
    #[arg(long, default_value_t = 3000)]
    pub vad_pause_ms: u64,
    /// Seconds each capacity step lasts.
    #[arg(long, default_value_t = 20.0)]
    pub capacity_seconds: f64,
    /// The most concurrent sessions a capacity step tries.
    #[arg(long, default_value_t = 8)]
    pub capacity_max_sessions: usize,
    /// Speech's share of each capacity session's wall time.
    #[arg(long, default_value_t = 0.3)]
    pub duty: f64,
    /// The capacity goal: p95 end of speech → final, in ms.
    #[arg(long, default_value_t = 1000)]
    pub capacity_target_ms: u64,
    /// Stop stepping once a step's p95 is above this, in ms.
    #[arg(long, default_value_t = 3000)]
    pub capacity_stop_ms: u64,
    /// The servers' `--stt-partial-share` values to compare in the capacity phase; each step
    /// runs once per value, interleaved, so every value sees the same machine. The first is
    /// the baseline of the ratios.
    #[arg(long, value_delimiter = ',', default_value = "1,0.25,0")]
    pub partial_shares: Vec<f64>,
    /// Decoding threads of the capacity servers. With 1 the server is pinned to
    /// `--server-core` and this process to `--client-core`; with more, nothing is pinned and
    /// the figure is sessions per server on the whole machine.
    #[arg(long, default_value_t = 1)]
    pub capacity_workers: usize,
    /// The core the capacity server is pinned to.
    #[arg(long, default_value_t = 0)]
    pub server_core: usize,
    /// The core this process moves to for the capacity phase.
    #[arg(long, default_value_t = 1)]
    pub client_core: usize,
    /// The sessions the clients start.
    #[arg(long, value_enum, default_value = "exam")]
    pub mode: Mode,
    /// An extra argument for every `viva serve` started (repeat for several), such as a
    /// switch the server may grow.
    #[arg(long = "server-arg", allow_hyphen_values = true)]
    pub server_args: Vec<String>,
    /// The `viva` binary (default: next to this one).
    #[arg(long)]
    pub viva: Option<PathBuf>,
    /// Keep each server's JSON log in this folder (`throughput.log`, `latency.log`,
    /// `capacity-N.log`).
    #[arg(long)]
    pub logs_dir: Option<PathBuf>,
    /// Also write the JSON report to this file.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// The blueprints folder (skills and rubrics) of the listening phase.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../blueprints"))]
    pub blueprints: PathBuf,
    /// Use only the first N spoken item answers of the listening phase (of about 60).
    #[arg(long)]
    pub listening_items: Option<usize>,
    /// The seed of the listening phase's items.
    #[arg(long, default_value_t = 1)]
    pub listening_seed: u64,
    /// The hint variants the listening phase decodes each clip with (`none` is the baseline
    /// of the decode-time ratios).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "none,letters,values,kind,all"
    )]
    pub listening_hints: Vec<HintVariant>,
    /// The voices that say the listening phase's answers.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "festival,espeak"
    )]
    pub voices: Vec<Voice>,
    /// Exam answers and item answers the think-aloud phase says (each whole, and with a
    /// pause inside at three points).
    #[arg(long, default_value_t = 24)]
    pub think_aloud_answers: usize,
    /// The end-of-turn model (ONNX Runtime beside it) the think-aloud phase also plays the
    /// answers with (default: `smart-turn-v3.2-cpu.onnx` in the models folder, if there).
    #[arg(long)]
    pub turn_model: Option<PathBuf>,
    /// The labelled exam answers (the examiner benchmark's set) the think-aloud phase takes
    /// its satisfactory answers from.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/examiner/answers"))]
    pub exam_answers: PathBuf,
    /// The aviation phase's phrase set.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/aviation/phrases.yaml"))]
    pub aviation_phrases: PathBuf,
    /// Score the transcripts of this earlier aviation report again (no decoding): for a
    /// changed vocabulary.
    #[arg(long)]
    pub aviation_transcripts: Option<PathBuf>,
}

impl Options {
    /// Whether `phase` was asked for.
    pub fn runs(&self, phase: Phase) -> bool {
        self.phases.contains(&phase)
    }

    /// The clients of the throughput phase.
    pub fn throughput_clients(&self) -> usize {
        self.clients.unwrap_or(self.workers * 2).max(1)
    }

    /// Where the server log of `label` is kept, if `--logs-dir` is set.
    pub fn log_path(&self, label: &str) -> Option<PathBuf> {
        let dir = self.logs_dir.as_ref()?;
        // ignore: a folder that cannot be made fails the write that follows, with its path.
        let _ = std::fs::create_dir_all(dir);
        Some(dir.join(format!("{label}.log")))
    }

    /// `--models-dir`/`ggml-<name>.bin`.
    pub fn model_path(&self, name: &str) -> PathBuf {
        self.models_dir.join(format!("ggml-{name}.bin"))
    }

    /// The end-of-turn model the think-aloud phase also plays answers with, when present.
    pub fn turn_model_path(&self) -> PathBuf {
        self.turn_model
            .clone()
            .unwrap_or_else(|| self.models_dir.join("smart-turn-v3.2-cpu.onnx"))
    }

    /// The engine a model name stands for: [`MOONSHINE`] is Moonshine's folder in the
    /// models folder (ONNX Runtime beside it), any other name a whisper `ggml-<name>.bin`.
    pub fn engine(&self, name: &str) -> Engine {
        match name {
            MOONSHINE => Engine::Moonshine(MoonshineFiles {
                dir: self.models_dir.join(MOONSHINE_DIR),
                runtime: viva_speech::onnx::runtime_in(&self.models_dir),
            }),
            whisper => Engine::Whisper(self.model_path(whisper)),
        }
    }

    /// The whisper model a server for `name` is given: its own, or tiny.en beside Moonshine
    /// (which then decodes the answers; see [`Options::server_engine_args`]).
    pub fn server_whisper_model(&self, name: &str) -> PathBuf {
        match name {
            MOONSHINE => self.model_path("tiny.en"),
            whisper => self.model_path(whisper),
        }
    }

    /// The `viva serve` arguments that make the model `name` decode answers, besides
    /// `--whisper-model`: `--stt-engine moonshine --moonshine-model DIR` for Moonshine.
    pub fn server_engine_args(&self, name: &str) -> Vec<String> {
        match self.engine(name) {
            Engine::Whisper(_) => Vec::new(),
            Engine::Moonshine(files) => vec![
                "--stt-engine".into(),
                "moonshine".into(),
                "--moonshine-model".into(),
                files.dir.display().to_string(),
            ],
        }
    }
}

/// The model name that picks Moonshine tiny-en in `--accuracy-models` and `--server-model`.
pub const MOONSHINE: &str = "moonshine-tiny-en";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_run_every_phase_with_two_workers() {
        let options = Options::parse_from(["viva-voice-bench"]);
        assert!(options.runs(Phase::Accuracy) && options.runs(Phase::Capacity));
        assert!(options.runs(Phase::Listening));
        assert_eq!(options.listening_hints.len(), 5);
        assert_eq!(options.voices, vec![Voice::Festival, Voice::Espeak]);
        assert!(options.blueprints.join("skills").is_dir());
        assert_eq!(options.throughput_clients(), 4);
        assert!(options.model_path("base").ends_with("ggml-base.bin"));
    }

    #[test]
    fn phases_and_models_are_comma_separated() {
        let options = Options::parse_from([
            "viva-voice-bench",
            "--phases",
            "latency,throughput",
            "--accuracy-models",
            "tiny.en",
            "--listening-hints",
            "none,all",
            "--voices",
            "espeak",
        ]);
        assert!(!options.runs(Phase::Accuracy));
        assert!(options.runs(Phase::Latency));
        assert_eq!(options.accuracy_models, vec!["tiny.en".to_owned()]);
        assert_eq!(
            options.listening_hints,
            vec![HintVariant::None, HintVariant::All]
        );
        assert_eq!(options.voices, vec![Voice::Espeak]);
    }
}
