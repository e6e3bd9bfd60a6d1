//! Decode time of WAV clips on one whisper thread against several, in process: what a final
//! gains when it borrows an idle thread's core (`docs/benchmarks.md`, push-to-talk).
//!
//! ```sh
//! cargo run --release -p viva-speech --example decode_threads -- \
//!     /var/tmp/viva-models/ggml-tiny.en.bin 2 clip1.wav clip2.wav
//! ```
//! Clips are 16 kHz mono PCM16 WAV (`sox in.wav -r 16000 -c 1 -b 16 out.wav`). Each is
//! decoded 5 times per thread count; the median is printed.

use std::error::Error;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use viva_speech::stt::decode_on_threads;
use whisper_rs::{WhisperContext, WhisperContextParameters};

const ROUNDS: usize = 5;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [model, threads, clips @ ..] = args.as_slice() else {
        return Err("usage: decode_threads MODEL MAX_THREADS CLIP.wav...".into());
    };
    let max_threads: usize = threads.parse()?;
    let context = WhisperContext::new_with_params(model, WhisperContextParameters::default())?;
    let mut state = context.create_state()?;
    let abort = Arc::new(AtomicBool::new(false));
    for clip in clips {
        let audio = read_pcm16(clip)?;
        for threads in 1..=max_threads {
            let mut times = Vec::with_capacity(ROUNDS);
            for _ in 0..ROUNDS {
                let began = Instant::now();
                decode_on_threads(&mut state, &audio, threads, &abort)?;
                times.push(began.elapsed().as_millis());
            }
            times.sort_unstable();
            println!(
                "{clip}: {threads} thread(s), median {} ms of {times:?}",
                times[ROUNDS / 2]
            );
        }
    }
    Ok(())
}

/// The samples of a PCM16 WAV file's `data` chunk.
fn read_pcm16(path: &str) -> Result<Vec<i16>, Box<dyn Error>> {
    let bytes = std::fs::read(path)?;
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let size = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]);
        let body = at + 8;
        let end = (body + size as usize).min(bytes.len());
        if id == b"data" {
            let samples = bytes[body..end].chunks_exact(2);
            return Ok(samples.map(|b| i16::from_le_bytes([b[0], b[1]])).collect());
        }
        at = end + (size as usize & 1);
    }
    Err(format!("{path}: no data chunk").into())
}
