//! The clips' audio: 16 kHz mono PCM16, read from WAV files.

use std::path::Path;

use super::BenchError;

/// Samples per second of every clip.
pub const RATE: usize = 16_000;

/// A 16 kHz mono PCM16 WAV file's samples.
pub fn read_wav(path: &Path) -> Result<Vec<i16>, BenchError> {
    let bad = |reason: String| BenchError::Corpus(format!("{}: {reason}", path.display()));
    let reader = hound::WavReader::open(path).map_err(|err| bad(err.to_string()))?;
    let spec = reader.spec();
    if spec.sample_rate as usize != RATE || spec.channels != 1 || spec.bits_per_sample != 16 {
        return Err(bad(format!("not 16 kHz mono PCM16: {spec:?}")));
    }
    reader
        .into_samples::<i16>()
        .collect::<Result<_, _>>()
        .map_err(|err| bad(err.to_string()))
}
