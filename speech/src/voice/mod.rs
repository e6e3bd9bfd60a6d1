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

use viva_core::voice::synth::{
    ExaminerVoice, SpeakJob, SpeakRefused, SpeechSynth, VoiceChunk, speak,
};

use festival::Festival;
use piper::PiperVoice;

/// Utterances waiting for a thread, per thread: beyond it `speak` refuses (the text still
/// goes out, unspoken).
pub const QUEUE_PER_THREAD: usize = 16;

/// Makes one thread's engine, on that thread: `None` when no engine speaks.
pub type MakeEngine = Arc<dyn Fn() -> Option<Box<dyn SpeechSynth>> + Send + Sync>;

/// A few synthesis threads behind one bounded queue.
#[derive(Debug, Clone)]
pub struct VoicePool {
    jobs: SyncSender<SpeakJob>,
}

impl VoicePool {
    /// Starts `threads` threads; each makes its engine with `make` when its first utterance
    /// comes, so a server no device asks to speak never loads a voice, and start-up never
    /// waits for one. A thread with no engine ends each utterance at once (cancelled): the
    /// text has gone out anyway.
    pub fn start(make: MakeEngine, threads: usize) -> VoicePool {
        let threads = threads.max(1);
        let (jobs, queue) = sync_channel(QUEUE_PER_THREAD * threads);
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..threads {
            let (queue, make) = (queue.clone(), make.clone());
            let spawned = thread::Builder::new()
                .name(format!("voice-{index}"))
                .spawn(move || work(&*make, &queue));
            if let Err(err) = spawned {
                tracing::error!(%err, "cannot start a voice thread");
            }
        }
        VoicePool { jobs }
    }
}

impl ExaminerVoice for VoicePool {
    fn speak(&self, job: SpeakJob) -> Result<(), SpeakRefused> {
        match self.jobs.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(SpeakRefused),
        }
    }
}

/// One thread: speaks utterances until the pool is dropped.
fn work(
    make: &(dyn Fn() -> Option<Box<dyn SpeechSynth>> + Send + Sync),
    queue: &Mutex<Receiver<SpeakJob>>,
) {
    let mut loaded: Option<Option<Box<dyn SpeechSynth>>> = None;
    loop {
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok(mut job) = job else { return };
        let Some(engine) = loaded.get_or_insert_with(make).as_mut() else {
            job.sink.send(VoiceChunk::Ended { completed: false });
            continue;
        };
        let spoken = speak(engine.as_mut(), job);
        tracing::debug!(?spoken, engine = engine.name(), "utterance spoken");
    }
}

/// One engine: Piper from `piper_dir` when given and it loads (with the ONNX Runtime library
/// in the same folder), else festival when it speaks; `None` when neither does.
pub fn load_engine(piper_dir: Option<&Path>) -> Option<Box<dyn SpeechSynth>> {
    if let Some(dir) = piper_dir {
        match PiperVoice::load(dir) {
            Ok(voice) => return Some(Box::new(voice)),
            Err(err) => tracing::warn!(%err, "Piper voice not loaded; trying festival"),
        }
    }
    match Festival::load() {
        Ok(festival) => Some(Box::new(festival)),
        Err(err) => {
            tracing::warn!(%err, "festival does not speak");
            None
        }
    }
}
