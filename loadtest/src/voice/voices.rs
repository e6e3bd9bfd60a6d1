//! The synthetic speakers: festival's `cmu_us_slt_arctic_hts` voice and espeak-ng's
//! American English, each resampled by sox to 16 kHz mono PCM16. Clips are cached as WAV
//! files named after their voice and text, so a changed sentence is synthesised afresh.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::BenchError;
use super::wav::read_wav;

/// A text-to-speech voice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Voice {
    /// festival, `cmu_us_slt_arctic_hts` (the accuracy corpus's voice).
    Festival,
    /// espeak-ng, `en-us`: robotic, a harder test.
    Espeak,
}

impl Voice {
    /// `festival` or `espeak`.
    pub fn name(self) -> &'static str {
        match self {
            Voice::Festival => "festival",
            Voice::Espeak => "espeak",
        }
    }
}

/// FNV-1a (64 bits) of `text`: cache file names follow the text.
pub fn text_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `VOICE-HASH.wav`.
pub fn cache_name(voice: Voice, text: &str) -> String {
    format!("{}-{:016x}.wav", voice.name(), text_hash(text))
}

/// `text` said by `voice`, synthesised into `dir` unless cached there.
pub fn clip(dir: &Path, voice: Voice, text: &str) -> Result<Vec<i16>, BenchError> {
    std::fs::create_dir_all(dir).map_err(BenchError::io(format!("creating {}", dir.display())))?;
    let path = dir.join(cache_name(voice, text));
    if !path.is_file() {
        synthesise(voice, text, &path)?;
    }
    read_wav(&path)
}

/// `voice` says `text` into a temporary file; sox resamples it to `out`.
pub fn synthesise(voice: Voice, text: &str, out: &Path) -> Result<(), BenchError> {
    let dir = out
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let scratch = tempfile::tempdir_in(&dir).map_err(BenchError::io("a scratch folder"))?;
    let (script, raw) = (
        scratch.path().join("text.txt"),
        scratch.path().join("raw.wav"),
    );
    std::fs::write(&script, text).map_err(BenchError::io("writing the text"))?;
    let (speaker, what) = speaker(voice, &script, &raw);
    run(speaker, what)?;
    let partial = scratch.path().join("out.wav");
    let mut sox = Command::new("sox");
    sox.arg(&raw)
        .args(["-r", "16000", "-c", "1", "-b", "16"])
        .arg(&partial);
    run(sox, "sox (apt-get install sox)")?;
    std::fs::rename(&partial, out).map_err(BenchError::io(format!("writing {}", out.display())))
}

/// The command that says the text in `script` into `raw`, and what it is.
fn speaker(voice: Voice, script: &Path, raw: &Path) -> (Command, &'static str) {
    match voice {
        Voice::Festival => {
            let mut festival = Command::new("text2wave");
            festival
                .args(["-eval", "(voice_cmu_us_slt_arctic_hts)", "-o"])
                .arg(raw)
                .arg(script);
            (
                festival,
                "text2wave (apt-get install festival festvox-us-slt-hts)",
            )
        }
        Voice::Espeak => {
            let mut espeak = Command::new("espeak-ng");
            espeak
                .args(["-v", "en-us", "-w"])
                .arg(raw)
                .arg("-f")
                .arg(script);
            (espeak, "espeak-ng (apt-get install espeak-ng)")
        }
    }
}

fn run(mut command: Command, what: &str) -> Result<(), BenchError> {
    let output = command
        .output()
        .map_err(BenchError::io(format!("running {what}")))?;
    if output.status.success() {
        return Ok(());
    }
    Err(BenchError::Corpus(format!(
        "{what} failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr).trim()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_names_follow_the_voice_and_the_text() {
        let name = cache_name(Voice::Espeak, "Option B.");
        assert!(
            name.starts_with("espeak-") && name.ends_with(".wav"),
            "{name}"
        );
        assert_eq!(name, cache_name(Voice::Espeak, "Option B."));
        assert_ne!(name, cache_name(Voice::Festival, "Option B."));
        assert_ne!(name, cache_name(Voice::Espeak, "Option C."));
    }
}
