//! The examiner's voice, measured: for each engine, the time from a question's text to its
//! first audio frame (the first sentence made, as `synth::speak` sends it), the real-time
//! factor (synthesis time over audio length) and the CPU a speaking session costs (this
//! process's and its children's CPU time over the audio's length: the share of one core
//! that keeps a session talking without pause).
//!
//!     cargo run --release -p viva-speech --example tts_bench -- /var/tmp/viva-models 3
//!
//! The folder holds Piper's voice and ONNX Runtime (`viva models install --model
//! onnxruntime`, `--model piper-joe`); festival needs no model. The number is rounds.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use viva_core::voice::synth::{SpeakJob, SpeechSynth, VoiceChunk, VoiceSink, speak};
use viva_speech::voice::festival::Festival;
use viva_speech::voice::piper::PiperVoice;

/// Exam questions as the embedded examiner asks them (one, two and three sentences).
const QUESTIONS: &[&str] = &[
    "What documents must you carry on board the aircraft?",
    "Explain the difference between a stall and a spin. What causes each?",
    "You plan a night flight in class G airspace. What are the visibility and cloud clearance requirements? And what fuel reserve must you carry?",
    "What is density altitude?",
    "Tell me about the privileges and limitations of a private pilot certificate.",
    "Which instruments use the pitot-static system? What happens if the pitot tube is blocked?",
];

/// When the first audio frame and the end came, measured from the job's start.
#[derive(Clone, Default)]
struct Clock(Arc<Mutex<(Option<Instant>, u64)>>);

impl VoiceSink for Clock {
    fn send(&mut self, chunk: VoiceChunk) -> bool {
        if let (VoiceChunk::Audio(bytes), Ok(mut seen)) = (chunk, self.0.lock()) {
            seen.0.get_or_insert_with(Instant::now);
            seen.1 += bytes.len() as u64 / 2;
        }
        true
    }
}

/// This process's and its waited-for children's CPU time (user + system), from /proc.
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After the name: state, ppid, …; utime, stime, cutime and cstime are fields 14 to 17
    // of the line, 11 to 14 here (counting the state as 0), in clock ticks of 10 ms.
    let ticks: u64 = fields
        .get(11..15)
        .map_or(0, |f| f.iter().filter_map(|t| t.parse::<u64>().ok()).sum());
    Duration::from_millis(ticks * 10)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or_default()
}

fn bench(name: &str, engine: &mut dyn SpeechSynth, rounds: usize) {
    let mut first = Vec::new();
    let (mut made, mut audio_s) = (Duration::ZERO, 0.0);
    let cpu_before = cpu();
    for _ in 0..rounds {
        for question in QUESTIONS {
            let clock = Clock::default();
            let job = SpeakJob {
                text: (*question).to_owned(),
                abort: Arc::default(),
                sink: Box::new(clock.clone()),
            };
            let start = Instant::now();
            let spoken = speak(engine, job);
            made += start.elapsed();
            let seen = clock.0.lock().map(|s| *s).unwrap_or_default();
            if let Some(at) = seen.0 {
                first.push(at - start);
            }
            audio_s += spoken.samples as f64 / f64::from(engine.sample_rate());
        }
    }
    let cpu_s = (cpu() - cpu_before).as_secs_f64();
    first.sort();
    println!(
        "{name:9} utterances {:3}  first frame p50 {:4} ms p95 {:4} ms  RTF {:.3}  CPU/audio {:.3} core  ({audio_s:.0} s of audio)",
        first.len(),
        percentile(&first, 0.5).as_millis(),
        percentile(&first, 0.95).as_millis(),
        made.as_secs_f64() / audio_s,
        cpu_s / audio_s,
    );
}

/// espeak-ng's share: one subprocess per sentence, as Piper runs it.
fn bench_espeak(rounds: usize) {
    let mut took = Vec::new();
    for _ in 0..rounds {
        for question in QUESTIONS {
            for range in viva_core::voice::synth::sentences(question) {
                let start = Instant::now();
                let ipa = viva_speech::voice::phonemes::phonemize("en-us", &question[range]);
                took.push(start.elapsed());
                assert!(
                    ipa.is_ok_and(|ipa| !ipa.is_empty()),
                    "espeak-ng gave no IPA"
                );
            }
        }
    }
    took.sort();
    println!(
        "espeak-ng sentences {:3}  p50 {:4} ms p95 {:4} ms (phonemes only, in Piper's first frame)",
        took.len(),
        percentile(&took, 0.5).as_millis(),
        percentile(&took, 0.95).as_millis(),
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "/var/tmp/viva-models".into()));
    let rounds = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    match PiperVoice::load(&dir) {
        Ok(mut piper) => {
            // One warm-up utterance: the first run of a session allocates.
            let _ = piper.synthesize("Ready.");
            bench("piper", &mut piper, rounds);
        }
        Err(err) => println!("piper     not measured: {err}"),
    }
    bench_espeak(rounds);
    match Festival::load() {
        Ok(mut festival) => bench("festival", &mut festival, rounds),
        Err(err) => println!("festival  not measured: {err}"),
    }
}
