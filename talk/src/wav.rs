//! Reading a WAV answer (`--wav`): any rate, channel count and sample format, converted to
//! 16 kHz mono PCM16 by the same resampler as the microphone.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, bail};

use super::pcm::{SPEECH_RATE, downmix, to_pcm16};
use super::resample::Resampler;

/// Longest answer file read, in seconds (the server ends a turn at 60 s anyway).
pub const MAX_WAV_SECONDS: u32 = 300;
/// Frames read and converted at a time.
const READ_CHUNK_FRAMES: usize = 4096;

/// Reads `path` as 16 kHz mono PCM16.
pub fn read_answer(path: &Path) -> anyhow::Result<Vec<i16>> {
    let reader =
        hound::WavReader::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    speech_samples(reader).with_context(|| format!("cannot use {}", path.display()))
}

/// Converts a whole WAV stream to 16 kHz mono PCM16.
pub fn speech_samples<R: Read + 'static>(reader: hound::WavReader<R>) -> anyhow::Result<Vec<i16>> {
    let spec = reader.spec();
    check_spec(spec, reader.duration())?;
    let channels = usize::from(spec.channels);
    let mut resampler = Resampler::new(spec.sample_rate, SPEECH_RATE);
    let mut output = Vec::new();
    let mut interleaved = Vec::with_capacity(READ_CHUNK_FRAMES * channels);
    for sample in normalised_samples(reader) {
        interleaved.push(sample?);
        if interleaved.len() == READ_CHUNK_FRAMES * channels {
            output.extend(to_pcm16(
                &resampler.process(&downmix(&interleaved, channels)),
            ));
            interleaved.clear();
        }
    }
    let mut tail = resampler.process(&downmix(&interleaved, channels));
    tail.extend(resampler.flush());
    output.extend(to_pcm16(&tail));
    Ok(output)
}

fn check_spec(spec: hound::WavSpec, frames: u32) -> anyhow::Result<()> {
    if spec.channels == 0 || spec.sample_rate == 0 {
        bail!("the WAV header has no channels or no sample rate");
    }
    let seconds = frames / spec.sample_rate;
    if seconds > MAX_WAV_SECONDS {
        bail!("{seconds} s of audio; an answer may last at most {MAX_WAV_SECONDS} s");
    }
    Ok(())
}

/// Every sample as f32 in -1..=1, whatever the file's format.
fn normalised_samples<R: Read + 'static>(
    reader: hound::WavReader<R>,
) -> Box<dyn Iterator<Item = anyhow::Result<f32>>> {
    let spec = reader.spec();
    match spec.sample_format {
        hound::SampleFormat::Float => Box::new(
            reader
                .into_samples::<f32>()
                .map(|sample| sample.context("bad float sample")),
        ),
        hound::SampleFormat::Int => {
            let scale = 2f32.powi(i32::from(spec.bits_per_sample.clamp(1, 32)) - 1);
            Box::new(
                reader
                    .into_samples::<i32>()
                    .map(move |sample| Ok(sample.context("bad integer sample")? as f32 / scale)),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn wav_bytes(
        spec: hound::WavSpec,
        write: impl FnOnce(&mut hound::WavWriter<&mut Cursor<Vec<u8>>>),
    ) -> Vec<u8> {
        let mut cursor = Cursor::new(Vec::new());
        let mut writer = hound::WavWriter::new(&mut cursor, spec).unwrap();
        write(&mut writer);
        writer.finalize().unwrap();
        cursor.into_inner()
    }

    fn spec(channels: u16, rate: u32, bits: u16, format: hound::SampleFormat) -> hound::WavSpec {
        hound::WavSpec {
            channels,
            sample_rate: rate,
            bits_per_sample: bits,
            sample_format: format,
        }
    }

    fn decode(bytes: Vec<u8>) -> Vec<i16> {
        speech_samples(hound::WavReader::new(Cursor::new(bytes)).unwrap()).unwrap()
    }

    #[test]
    fn a_stereo_48k_int16_file_becomes_16k_mono() {
        let bytes = wav_bytes(spec(2, 48_000, 16, hound::SampleFormat::Int), |writer| {
            for _ in 0..48_000 {
                writer.write_sample(8000i16).unwrap();
                writer.write_sample(-4000i16).unwrap();
            }
        });
        let samples = decode(bytes);
        assert_eq!(samples.len(), 16_000);
        assert!(
            samples[1_000..15_000]
                .iter()
                .all(|&s| (s - 2000).abs() <= 2),
            "{:?}",
            &samples[1_000..1_010]
        );
    }

    #[test]
    fn a_mono_16k_float_file_passes_unchanged() {
        let bytes = wav_bytes(spec(1, 16_000, 32, hound::SampleFormat::Float), |writer| {
            for n in 0..1_000 {
                writer
                    .write_sample(if n % 2 == 0 { 0.5f32 } else { -0.25 })
                    .unwrap();
            }
        });
        let samples = decode(bytes);
        assert_eq!(samples.len(), 1_000);
        assert_eq!(&samples[..2], &[16384, -8192]);
    }

    #[test]
    fn a_44k_24_bit_file_is_scaled_and_resampled() {
        let bytes = wav_bytes(spec(1, 44_100, 24, hound::SampleFormat::Int), |writer| {
            for _ in 0..44_100 {
                writer.write_sample(1 << 22).unwrap();
            }
        });
        let samples = decode(bytes);
        assert_eq!(samples.len(), 16_000);
        assert!((samples[8_000] - 16384).abs() <= 16, "{}", samples[8_000]);
    }

    #[test]
    fn an_8_bit_file_is_centred() {
        let bytes = wav_bytes(spec(1, 16_000, 8, hound::SampleFormat::Int), |writer| {
            for _ in 0..100 {
                writer.write_sample(0i8).unwrap();
            }
        });
        assert!(decode(bytes).iter().all(|&s| s == 0));
    }

    #[test]
    fn an_overlong_file_is_refused() {
        let long = spec(1, 1_000, 8, hound::SampleFormat::Int);
        let bytes = wav_bytes(long, |writer| {
            for _ in 0..(MAX_WAV_SECONDS + 1) * 1_000 {
                writer.write_sample(0i8).unwrap();
            }
        });
        let reader = hound::WavReader::new(Cursor::new(bytes)).unwrap();
        assert!(speech_samples(reader).is_err());
    }

    #[test]
    fn a_missing_file_names_its_path() {
        let err = read_answer(Path::new("/nonexistent/answer.wav")).unwrap_err();
        assert!(format!("{err:#}").contains("/nonexistent/answer.wav"));
    }
}
