//! What every phase of the run needs ([`Setup`]: the command line, the corpus, the `viva`
//! binary, the summary so far), and the small conversions the phases share.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::stats::round3;

use super::BenchError;
use super::client::SessionSpec;
use super::corpus::{self, Clip};
use super::options::Options;
use super::server::ServerSpec;
use super::wav::RATE;
use super::words::Tally;

/// The pause asked for where only `audio.commit` may end a turn (the protocol's maximum).
pub(super) const NO_PAUSE_MS: u32 = 30_000;
/// What every phase needs, and the summary so far.
pub struct Setup {
    /// The command line.
    pub options: Options,
    /// The corpus.
    pub clips: Arc<Vec<Clip>>,
    /// The `viva` binary.
    pub viva: PathBuf,
    /// The summary lines so far.
    pub summary: Vec<String>,
}

impl Setup {
    /// Resolves the binary and loads (or synthesises) the corpus.
    pub fn new(options: Options) -> Result<Setup, BenchError> {
        let viva = match &options.viva {
            Some(path) => path.clone(),
            None => std::env::current_exe()
                .map_err(BenchError::io("finding this binary"))?
                .with_file_name("viva"),
        };
        let clips = corpus::load(&options.corpus_dir, options.clips)?;
        if clips.is_empty() {
            return Err(BenchError::Corpus("no clips".to_owned()));
        }
        Ok(Setup {
            options,
            clips: Arc::new(clips),
            viva,
            summary: Vec::new(),
        })
    }

    /// Prints a summary line and keeps it for the recap.
    pub(super) fn say(&mut self, line: impl Into<String>) {
        let line = line.into();
        println!("{line}");
        self.summary.push(line);
    }

    pub(super) fn server_spec(&self, workers: usize, pin_core: Option<usize>) -> ServerSpec {
        ServerSpec {
            viva: self.viva.clone(),
            model: self
                .options
                .server_whisper_model(&self.options.server_model),
            workers,
            pin_core,
            extra: [
                self.options.server_engine_args(&self.options.server_model),
                self.options.server_args.clone(),
            ]
            .concat(),
        }
    }

    pub(super) fn session(&self, thinking_pause_ms: Option<u32>) -> SessionSpec {
        SessionSpec {
            mode: self.options.mode,
            thinking_pause_ms,
            live_frame: (self.options.frame_ms as usize * RATE / 1000).max(1),
        }
    }
}

pub(super) fn secs(seconds: f64) -> Duration {
    Duration::from_secs_f64(seconds.max(0.0))
}

pub(super) fn tally_json(tally: &Tally) -> Value {
    json!({"word_accuracy": round3(tally.accuracy()), "wer": round3(tally.wer()),
           "errors": tally.errors, "words": tally.words, "exact_clips": tally.exact,
           "clips": tally.clips})
}
