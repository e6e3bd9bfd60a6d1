//! The examiner's voice: `VoicePool`, a bounded queue of utterances spoken by a few threads,
//! each owning one engine (Piper, else festival), implementing the session's
//! `ExaminerVoice` port. A full queue refuses at once, so a session never waits on it.
//!
//! - [`piper`]: Piper VITS over ONNX Runtime.
//! - [`phonemes`]: espeak-ng IPA to Piper's phoneme ids.
//! - [`festival`]: festival's `text2wave`, the fallback.

pub mod festival;
pub mod phonemes;
pub mod piper;

use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

use viva_core::voice::synth::{ExaminerVoice, SpeakJob, SpeakRefused, SpeechSynth, speak};

use festival::Festival;
use piper::PiperVoice;

/// Utterances waiting for a thread, per thread: beyond it `speak` refuses (the text still
/// goes out, unspoken).
pub const QUEUE_PER_THREAD: usize = 16;

/// A few synthesis threads behind one bounded queue.
#[derive(Debug, Clone)]
pub struct VoicePool {
    jobs: SyncSender<SpeakJob>,
    engine: &'static str,
    sample_rate: u32,
}

impl VoicePool {
    /// Starts one thread per engine (all of one kind); `None` when `engines` is empty.
    pub fn start(engines: Vec<Box<dyn SpeechSynth>>) -> Option<VoicePool> {
        let first = engines.first()?;
        let (engine, sample_rate) = (first.name(), first.sample_rate());
        let (jobs, queue) = sync_channel(QUEUE_PER_THREAD * engines.len());
        let queue = Arc::new(Mutex::new(queue));
        for (index, engine) in engines.into_iter().enumerate() {
            let queue = queue.clone();
            let spawned = thread::Builder::new()
                .name(format!("voice-{index}"))
                .spawn(move || work(engine, &queue));
            if let Err(err) = spawned {
                tracing::error!(%err, "cannot start a voice thread");
            }
        }
        Some(VoicePool {
            jobs,
            engine,
            sample_rate,
        })
    }

    /// The rate of its audio, in Hz.
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }
}

impl ExaminerVoice for VoicePool {
    fn engine(&self) -> &'static str {
        self.engine
    }

    fn speak(&self, job: SpeakJob) -> Result<(), SpeakRefused> {
        match self.jobs.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(SpeakRefused),
        }
    }
}

/// One thread: speaks utterances until the pool is dropped.
fn work(mut engine: Box<dyn SpeechSynth>, queue: &Mutex<Receiver<SpeakJob>>) {
    loop {
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        let spoken = speak(engine.as_mut(), job);
        tracing::debug!(?spoken, engine = engine.name(), "utterance spoken");
    }
}

/// `threads` engines: Piper from `piper_dir` when given and it loads (the ONNX Runtime
/// library loaded first), else festival when it speaks; empty when neither does.
pub fn load_engines(piper_dir: Option<&Path>, threads: usize) -> Vec<Box<dyn SpeechSynth>> {
    let threads = threads.max(1);
    if let Some(dir) = piper_dir {
        let voices: Result<Vec<PiperVoice>, _> =
            (0..threads).map(|_| PiperVoice::load(dir)).collect();
        match voices {
            Ok(voices) => {
                return voices
                    .into_iter()
                    .map(|v| Box::new(v) as Box<dyn SpeechSynth>)
                    .collect();
            }
            Err(err) => tracing::warn!(%err, "Piper voice not loaded; trying festival"),
        }
    }
    match Festival::load() {
        Ok(festival) => (0..threads)
            .map(|_| Box::new(festival.clone()) as Box<dyn SpeechSynth>)
            .collect(),
        Err(err) => {
            tracing::warn!(%err, "festival does not speak; the examiner stays silent");
            Vec::new()
        }
    }
}
