//! Short clips decoded the server's way (`viva_speech::stt::decode`: encoder window scaled to
//! the clip, a token cap, one thread) and with the full 30 s window, no token cap and two
//! threads: how issue 37 found where festival's "Option A." became `Option "A"`.
//!
//! ```sh
//! cargo run -p viva-speech --example short_answer -- \
//!     /var/tmp/viva-models/ggml-tiny.en.bin clip1.wav clip2.wav
//! ```
//! Clips are 16 kHz mono PCM16 WAV (`sox in.wav -r 16000 -c 1 -b 16 out.wav`).
use std::error::Error;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use viva_speech::stt::{audio_ctx_for, decode, token_cap_for};
use whisper_rs::{FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [model, clips @ ..] = args.as_slice() else {
        return Err("usage: short_answer MODEL CLIP.wav...".into());
    };
    let context = WhisperContext::new_with_params(model, WhisperContextParameters::default())?;
    let mut state = context.create_state()?;
    let abort = Arc::new(AtomicBool::new(false));
    for clip in clips {
        let audio = read_pcm16(clip)?;
        let server = decode(&mut state, &audio, &abort)?;
        let mut floats: Vec<f32> = audio.iter().map(|s| f32::from(*s) / 32768.0).collect();
        // Padded as the server pads a short clip (1.1 s).
        if floats.len() < 17_600 {
            floats.resize(17_600, 0.0);
        }
        let mut line = format!("{clip}\n  server: {server:?}");
        // Each setting of the server's decode changed alone: window, token cap, threads.
        let ctx = i32::try_from(audio_ctx_for(audio.len()))?;
        let cap = i32::try_from(token_cap_for(audio.len()))?;
        for (name, ctx, cap, threads) in [
            ("full window", 1500, cap, 1),
            ("no token cap", ctx, 0, 1),
            ("two threads", ctx, cap, 2),
            ("all three", 1500, 0, 2),
        ] {
            let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
            params.set_n_threads(threads);
            params.set_language(Some("en"));
            params.set_no_context(true);
            params.set_no_timestamps(true);
            params.set_suppress_blank(true);
            params.set_print_progress(false);
            params.set_print_realtime(false);
            params.set_audio_ctx(ctx);
            params.set_max_tokens(cap);
            state.full(params, &floats)?;
            let mut text = String::new();
            for segment in state.as_iter() {
                text.push_str(&segment.to_str_lossy()?);
            }
            line.push_str(&format!("\n  {name}: {:?}", text.trim()));
        }
        println!("{line}");
    }
    Ok(())
}

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
    Err("no data chunk".into())
}
