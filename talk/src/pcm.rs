//! The wire's audio format: 16 kHz mono PCM16 little-endian, cut into fixed frames; and the
//! downmix to mono that the microphone and WAV files share. Pure.

use std::time::Duration;

/// The rate the server hears at.
pub const SPEECH_RATE: u32 = 16_000;
/// Audio per binary frame.
pub const FRAME_DURATION: Duration = Duration::from_millis(40);
/// Samples per binary frame (40 ms at 16 kHz).
pub const FRAME_SAMPLES: usize = 640;

const _: () = assert!(FRAME_SAMPLES * 2 <= viva_protocol::MAX_AUDIO_FRAME_BYTES);
const _: () = assert!(FRAME_SAMPLES as u64 * 1000 == SPEECH_RATE as u64 * 40);

/// Averages interleaved frames of `channels` samples into one mono sample each.
pub fn downmix(interleaved: &[f32], channels: usize) -> Vec<f32> {
    if channels <= 1 {
        return interleaved.to_vec();
    }
    interleaved
        .chunks_exact(channels)
        .map(|frame| frame.iter().sum::<f32>() / channels as f32)
        .collect()
}

/// Converts samples in -1..=1 to PCM16, clipping what lies outside.
pub fn to_pcm16(samples: &[f32]) -> Vec<i16> {
    samples
        .iter()
        .map(|&sample| (sample * 32767.0).round().clamp(-32768.0, 32767.0) as i16)
        .collect()
}

/// Little-endian bytes of PCM16 samples: one binary frame.
pub fn frame_bytes(samples: &[i16]) -> Vec<u8> {
    samples
        .iter()
        .flat_map(|sample| sample.to_le_bytes())
        .collect()
}

/// One frame of silence.
pub fn silent_frame() -> Vec<u8> {
    vec![0; FRAME_SAMPLES * 2]
}

/// Cuts a stream of samples into whole frames of [`FRAME_SAMPLES`].
#[derive(Debug, Default)]
pub struct FrameChunker {
    pending: Vec<i16>,
}

impl FrameChunker {
    /// Adds samples and returns the frames they complete, as bytes.
    pub fn push(&mut self, samples: &[i16]) -> Vec<Vec<u8>> {
        self.pending.extend_from_slice(samples);
        let whole = self.pending.len() / FRAME_SAMPLES * FRAME_SAMPLES;
        let frames = self.pending[..whole]
            .chunks_exact(FRAME_SAMPLES)
            .map(frame_bytes)
            .collect();
        self.pending.drain(..whole);
        frames
    }
}

/// A whole clip as frames; the last one may be shorter.
pub fn frames_of(samples: &[i16]) -> Vec<Vec<u8>> {
    samples.chunks(FRAME_SAMPLES).map(frame_bytes).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_convert_to_pcm16_with_clipping() {
        let pcm = to_pcm16(&[0.0, 0.5, -0.5, 1.0, -1.0, 1.7, -3.0]);
        assert_eq!(pcm, [0, 16384, -16384, 32767, -32767, 32767, -32768]);
    }

    #[test]
    fn frames_are_little_endian() {
        assert_eq!(
            frame_bytes(&[1, -2, 0x1234]),
            [1, 0, 0xfe, 0xff, 0x34, 0x12]
        );
    }

    #[test]
    fn the_chunker_emits_whole_frames_and_keeps_the_rest() {
        let mut chunker = FrameChunker::default();
        assert!(chunker.push(&[7; 600]).is_empty());
        let frames = chunker.push(&[7; 700]);
        assert_eq!(frames.len(), 2);
        assert!(frames.iter().all(|frame| frame.len() == FRAME_SAMPLES * 2));
        assert_eq!(chunker.push(&[7; 619]).len(), 0);
        assert_eq!(chunker.push(&[7; 1]).len(), 1);
    }

    #[test]
    fn a_clip_is_cut_into_frames_with_a_short_last_one() {
        let frames = frames_of(&[1; FRAME_SAMPLES * 2 + 10]);
        let sizes: Vec<usize> = frames.iter().map(Vec::len).collect();
        assert_eq!(sizes, [FRAME_SAMPLES * 2, FRAME_SAMPLES * 2, 20]);
        assert!(frames_of(&[]).is_empty());
    }

    #[test]
    fn a_frame_is_forty_milliseconds_and_fits_the_protocol_limit() {
        assert_eq!(silent_frame().len(), FRAME_SAMPLES * 2);
        let seconds = FRAME_SAMPLES as f64 / f64::from(SPEECH_RATE);
        assert_eq!(Duration::from_secs_f64(seconds), FRAME_DURATION);
    }

    #[test]
    fn downmix_averages_each_frame() {
        assert_eq!(downmix(&[1.0, 0.0, 0.5, 0.5], 2), [0.5, 0.5]);
        assert_eq!(downmix(&[0.25, 0.5, 0.75], 3), [0.5]);
        assert_eq!(downmix(&[0.1, 0.2], 1), [0.1, 0.2]);
    }
}
