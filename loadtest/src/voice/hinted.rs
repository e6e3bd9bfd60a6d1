//! Decoding with hints, in process: one model, one whisper state per thread, each clip
//! decoded once per hint variant with the server's own functions (`prompt_tokens`, then
//! `decode_with_prompt`; no hint is an empty prompt, the plain decode). A thread decodes all
//! variants of a clip back to back, starting at a different variant for each clip, so every
//! variant sees the same machine and its decode times compare fairly. Also what the
//! listening phase decodes: the hint variants ([`HintVariant`]) and the jobs ([`Listening`]).

use std::ffi::c_int;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use viva_blueprint::normalize::AnswerKind;
use viva_core::voice::hint::{HintParts, item_hint};
use viva_speech::model::{Model, WhisperState};
use viva_speech::stt::decode_with_prompt;

use super::BenchError;
use super::items::Entry;
use super::voices::Voice;

/// Which parts of the server's item hint whisper is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HintVariant {
    /// No hint: the plain decode, the baseline of the cost ratios.
    None,
    /// "Option A, option B, …" only.
    Letters,
    /// The options' values only.
    Values,
    /// The kind's worked example only ("said with dots, like 192.168.10.0").
    Kind,
    /// All three: what the server gives.
    All,
}

impl HintVariant {
    /// The name on the command line and in the report.
    pub fn name(self) -> &'static str {
        match self {
            HintVariant::None => "none",
            HintVariant::Letters => "letters",
            HintVariant::Values => "values",
            HintVariant::Kind => "kind",
            HintVariant::All => "all",
        }
    }

    /// The parts of `item_hint` it asks for.
    pub fn parts(self) -> HintParts {
        let only = |letters, values, kind| HintParts {
            option_letters: letters,
            option_values: values,
            kind_words: kind,
        };
        match self {
            HintVariant::None => HintParts::NONE,
            HintVariant::Letters => only(true, false, false),
            HintVariant::Values => only(false, true, false),
            HintVariant::Kind => only(false, false, true),
            HintVariant::All => HintParts::ALL,
        }
    }

    /// The hint for `entry`'s item.
    pub fn hint(self, entry: &Entry) -> Option<String> {
        let kind = AnswerKind::of_key(&entry.item.answer);
        item_hint(&entry.item.options, kind, self.parts())
    }
}

/// What the phase decodes: the spoken answers, and one job per voice and answer.
#[derive(Debug, Clone)]
pub struct Listening {
    /// The spoken answers.
    pub entries: Vec<Entry>,
    /// The voices, in job order.
    pub voices: Vec<Voice>,
    /// The hint variants, in each job's order.
    pub variants: Vec<HintVariant>,
    /// Voice by voice, entry by entry.
    pub jobs: Arc<Vec<Job>>,
}

impl Listening {
    /// The voice and entry of job `job`.
    pub fn locate(&self, job: usize) -> (Voice, &Entry) {
        let count = self.entries.len().max(1);
        (self.voices[job / count], &self.entries[job % count])
    }
}

/// One clip and the hint of each variant (`None`: no hint).
#[derive(Debug, Clone)]
pub struct Job {
    /// 16 kHz mono PCM16.
    pub samples: Arc<[i16]>,
    /// One per variant, in the variants' order.
    pub hints: Vec<Option<String>>,
}

/// One decode.
#[derive(Debug, Clone)]
pub struct Heard {
    /// The job's position.
    pub job: usize,
    /// The variant's position.
    pub variant: usize,
    /// Wall time of the decode (the prompt was tokenised before).
    pub took: Duration,
    /// The transcript, or why there was none.
    pub text: Result<String, String>,
}

/// Decodes every variant of every job on `workers` threads; the result is ordered by job,
/// then variant. Each thread first decodes one clip without a hint, untimed (a warm-up).
pub fn run(model: &Path, jobs: &[Job], workers: usize) -> Result<Vec<Heard>, BenchError> {
    let model = Model::load(model)?;
    let prompts = tokenise(&model, jobs);
    let states = model.states(workers)?;
    let next = AtomicUsize::new(0);
    let (jobs, prompts, next) = (jobs, &prompts, &next);
    let mut heard: Vec<Heard> = std::thread::scope(|scope| {
        let threads: Vec<_> = states
            .into_iter()
            .enumerate()
            .map(|(index, state)| scope.spawn(move || work(index, state, jobs, prompts, next)))
            .collect();
        threads.into_iter().map(|t| t.join()).collect::<Vec<_>>()
    })
    .into_iter()
    .collect::<Result<Vec<_>, _>>()
    .map_err(|_| BenchError::Whisper("a decoding thread panicked".to_owned()))?
    .into_iter()
    .flatten()
    .collect();
    heard.sort_by_key(|h| (h.job, h.variant));
    Ok(heard)
}

/// Every hint's prompt tokens, by job and variant.
fn tokenise(model: &Model, jobs: &[Job]) -> Vec<Vec<Vec<c_int>>> {
    jobs.iter()
        .map(|job| {
            job.hints
                .iter()
                .map(|hint| {
                    hint.as_deref()
                        .map_or_else(Vec::new, |hint| model.prompt_tokens(hint))
                })
                .collect()
        })
        .collect()
}

/// One thread: a warm-up, then jobs until none are left.
fn work(
    index: usize,
    mut state: WhisperState,
    jobs: &[Job],
    prompts: &[Vec<Vec<c_int>>],
    next: &AtomicUsize,
) -> Vec<Heard> {
    let abort = Arc::new(AtomicBool::new(false));
    if let Some(job) = jobs.get(index % jobs.len().max(1)) {
        // ignore: the warm-up is not measured.
        let _ = decode_with_prompt(&mut state, &job.samples, &[], &abort);
    }
    let mut heard = Vec::new();
    loop {
        let at = next.fetch_add(1, Ordering::Relaxed);
        let (Some(job), Some(prompts)) = (jobs.get(at), prompts.get(at)) else {
            break;
        };
        for variant in rotation(at, prompts.len()) {
            let begun = Instant::now();
            let text = decode_with_prompt(&mut state, &job.samples, &prompts[variant], &abort);
            heard.push(Heard {
                job: at,
                variant,
                took: begun.elapsed(),
                text: text.map_err(|err| err.to_string()),
            });
        }
    }
    heard
}

/// The variants of job `at` in the order decoded: all of them, starting at `at % count`.
fn rotation(at: usize, count: usize) -> impl Iterator<Item = usize> {
    (0..count).map(move |k| (at + k) % count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_job_starts_at_another_variant() {
        assert_eq!(rotation(0, 3).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(rotation(4, 3).collect::<Vec<_>>(), vec![1, 2, 0]);
        assert_eq!(rotation(2, 0).count(), 0);
    }
}
