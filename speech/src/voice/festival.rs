//! The fallback voice: festival's `text2wave` (a subprocess per sentence, the HTS voice
//! `cmu_us_slt_arctic_hts` when installed), for machines without Piper's model or ONNX
//! Runtime. Its WAV comes on stdout, so the header's sizes are unset and are not trusted.

use std::process::Command;

use viva_core::voice::synth::{SpeechSynth, SynthError};

use super::phonemes::{MAX_SENTENCE_BYTES, clip, stdout_of};

/// The program festival makes WAV files with.
pub const TEXT2WAVE: &str = "text2wave";
/// The voice asked for: festival's best English voice in Debian (`festvox-us-slt-hts`).
pub const VOICE: &str = "(voice_cmu_us_slt_arctic_hts)";
/// The rate asked of text2wave, Piper's, so clients see one rate whichever engine speaks.
pub const SAMPLE_RATE: u32 = 22_050;

/// festival, run once per sentence.
#[derive(Debug, Clone)]
pub struct Festival {
    rate: u32,
}

impl Festival {
    /// festival, if `text2wave` runs and speaks with [`VOICE`]: checked by speaking one word.
    pub fn load() -> Result<Festival, SynthError> {
        let mut festival = Festival { rate: SAMPLE_RATE };
        let probe = festival.synthesize("Ready.")?;
        match probe.is_empty() {
            true => Err(SynthError::Failed(format!("{TEXT2WAVE} made no audio"))),
            false => Ok(festival),
        }
    }
}

impl SpeechSynth for Festival {
    fn name(&self) -> &'static str {
        "festival"
    }

    fn sample_rate(&self) -> u32 {
        self.rate
    }

    fn synthesize(&mut self, sentence: &str) -> Result<Vec<i16>, SynthError> {
        let failed = |e: String| SynthError::Failed(format!("{TEXT2WAVE}: {e}"));
        let mut text2wave = Command::new(TEXT2WAVE);
        text2wave.args(["-eval", VOICE, "-F", &self.rate.to_string()]);
        let wav = stdout_of(text2wave, clip(sentence, MAX_SENTENCE_BYTES)).map_err(failed)?;
        let (rate, samples) = parse_wav(&wav).map_err(|e| failed(e.into()))?;
        if rate != self.rate {
            return Err(failed(format!("made {rate} Hz, not {}", self.rate)));
        }
        Ok(samples)
    }
}

/// The rate and samples of a PCM16 mono WAV; a `data` chunk whose size is unset (0, or past
/// the end, as a piped WAV has) runs to the end of the bytes.
pub fn parse_wav(bytes: &[u8]) -> Result<(u32, Vec<i16>), &'static str> {
    if bytes.len() < 12 || &bytes[..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err("not a WAV file");
    }
    let mut at = 12;
    let mut format: Option<(u16, u16, u32, u16)> = None;
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let size = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]);
        let body = at + 8;
        if id == b"fmt " {
            let f = bytes.get(body..body + 16).ok_or("short fmt chunk")?;
            let u16_at = |i: usize| u16::from_le_bytes([f[i], f[i + 1]]);
            let rate = u32::from_le_bytes([f[4], f[5], f[6], f[7]]);
            format = Some((u16_at(0), u16_at(2), rate, u16_at(14)));
        } else if id == b"data" {
            let Some((1, 1, rate, 16)) = format else {
                return Err("not PCM16 mono");
            };
            let end = match size as usize {
                0 => bytes.len(),
                n => (body + n).min(bytes.len()),
            };
            let samples = bytes[body..end]
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect();
            return Ok((rate, samples));
        }
        at = body + size as usize + (size as usize & 1);
    }
    Err("no data chunk")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(rate: u32, data_size: u32, samples: &[i16]) -> Vec<u8> {
        let mut out = b"RIFF\0\0\0\0WAVEfmt ".to_vec();
        out.extend(16u32.to_le_bytes());
        out.extend([1, 0, 1, 0]);
        out.extend(rate.to_le_bytes());
        out.extend((rate * 2).to_le_bytes());
        out.extend([2, 0, 16, 0]);
        out.extend(b"data");
        out.extend(data_size.to_le_bytes());
        out.extend(samples.iter().flat_map(|s| s.to_le_bytes()));
        out
    }

    #[test]
    fn reads_piped_and_sized_wavs() {
        assert_eq!(
            parse_wav(&wav(22_050, 0, &[1, -2, 3])),
            Ok((22_050, vec![1, -2, 3]))
        );
        assert_eq!(
            parse_wav(&wav(16_000, 4, &[1, -2, 3])),
            Ok((16_000, vec![1, -2]))
        );
        assert_eq!(parse_wav(b"RIFF"), Err("not a WAV file"));
    }

    #[test]
    fn festival_speaks_a_sentence() {
        let mut festival = Festival::load().expect("festival with the slt HTS voice is installed");
        let audio = festival.synthesize("What is a stall?").expect("spoken");
        // At least half a second of sound, some of it loud.
        assert!(
            audio.len() > SAMPLE_RATE as usize / 2,
            "{} samples",
            audio.len()
        );
        assert!(audio.iter().any(|s| s.unsigned_abs() > 1000));
    }
}
