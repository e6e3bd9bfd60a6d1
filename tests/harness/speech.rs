//! Real speech for voice tests: festival's `cmu_us_slt_arctic_hts` voice says the text, sox
//! resamples it to 16 kHz mono PCM16, and frames go to the server at real-time pace. The
//! whisper model and `jfk.wav` come from the models folder that `scripts/test` fills
//! (`$VIVA_MODELS_DIR`, default `/var/tmp/viva-models`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::client::Client;
use super::server::{Options, Server};

/// Samples per second of the wire format.
pub const RATE: usize = 16_000;
/// Audio per binary frame: 100 ms, as a microphone client sends it.
const FRAME_MS: usize = 100;

/// The folder holding `ggml-tiny.en.bin` and `jfk.wav`.
pub fn models_dir() -> PathBuf {
    std::env::var_os("VIVA_MODELS_DIR")
        .map_or_else(|| PathBuf::from("/var/tmp/viva-models"), PathBuf::from)
}

/// A file from the models folder; panics with the command that provides it.
pub fn model_file(name: &str) -> PathBuf {
    let path = models_dir().join(name);
    assert!(
        path.is_file(),
        "{} is missing: run scripts/test (it installs the speech model and samples), or \
         `viva models install --dir {}`",
        path.display(),
        models_dir().display()
    );
    path
}

/// A server with the tiny.en model, on a fresh data dir, with `extra` arguments.
pub async fn voice_server(extra: &[&str]) -> Server {
    let model = model_file("ggml-tiny.en.bin");
    let mut args = vec!["--whisper-model".to_owned(), model.display().to_string()];
    args.extend(extra.iter().map(|arg| arg.to_string()));
    Server::start_with_options(Options {
        blueprints: None,
        args,
        ..Default::default()
    })
    .await
}

/// `text` spoken by festival, as 16 kHz mono samples.
pub fn synthesize(text: &str) -> Vec<i16> {
    let dir = tempfile::tempdir().expect("speech dir");
    let raw = dir.path().join("raw.wav");
    let mut festival = Command::new("text2wave")
        .args(["-eval", "(voice_cmu_us_slt_arctic_hts)", "-o"])
        .arg(&raw)
        .stdin(Stdio::piped())
        .spawn()
        .expect("run festival's text2wave (apt-get install festival festvox-us-slt-hts)");
    {
        use std::io::Write;
        let mut stdin = festival.stdin.take().expect("piped stdin");
        stdin.write_all(text.as_bytes()).expect("write text");
    }
    assert!(
        festival.wait().expect("text2wave").success(),
        "text2wave failed"
    );
    read_wav(&raw)
}

/// Any WAV file, converted by sox to 16 kHz mono PCM16 samples.
pub fn read_wav(path: &Path) -> Vec<i16> {
    let output = Command::new("sox")
        .arg(path)
        .args([
            "-t", "raw", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed", "-L", "-",
        ])
        .output()
        .expect("run sox (apt-get install sox)");
    assert!(output.status.success(), "sox: {output:?}");
    output
        .stdout
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
        .collect()
}

/// `ms` of digital silence.
pub fn silence(ms: usize) -> Vec<i16> {
    vec![0; ms * RATE / 1000]
}

/// `ms` of white noise at about a quarter of full scale (deterministic).
pub fn white_noise(ms: usize, seed: u64) -> Vec<i16> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..ms * RATE / 1000)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 48) as i16) / 4
        })
        .collect()
}

/// Parts joined end to end.
pub fn concat(parts: &[Vec<i16>]) -> Vec<i16> {
    parts.concat()
}

/// Sends `samples` as 100 ms binary frames, one every 100 ms: a live microphone's pace.
pub async fn stream(client: &mut Client, samples: &[i16]) {
    stream_sped_up(client, samples, 1).await;
}

/// Sends `samples` as 100 ms frames `speedup` times faster than a microphone would, as a
/// client streaming a recording does. The server times turns by the samples it hears, so
/// the turns are the same as at a live pace; tests of pacing itself stream at 1×.
pub async fn stream_sped_up(client: &mut Client, samples: &[i16], speedup: u32) {
    let period = Duration::from_millis(FRAME_MS as u64) / speedup.max(1);
    let mut pace = tokio::time::interval(period);
    for frame in samples.chunks(FRAME_MS * RATE / 1000) {
        pace.tick().await;
        let bytes: Vec<u8> = frame.iter().flat_map(|s| s.to_le_bytes()).collect();
        client.send_binary(bytes).await;
    }
}

/// Lower-case words without punctuation, for comparing transcripts.
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|word| {
            word.chars()
                .filter(|c| c.is_alphanumeric() || *c == '\'')
                .collect::<String>()
                .to_lowercase()
        })
        .filter(|word| !word.is_empty())
        .collect()
}
