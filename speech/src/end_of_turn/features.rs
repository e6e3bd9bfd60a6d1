//! Smart Turn's input: Whisper-style log-mel features of the last 8 s of a turn, computed
//! exactly as Pipecat's reference does (`pipecat/audio/turn/smart_turn/_whisper_features.py`,
//! itself `transformers.WhisperFeatureExtractor` with `chunk_length=8`, `do_normalize=True`).
//!
//! The steps: keep the last 8 s (left-padded with zeros when shorter); normalise the samples
//! to zero mean and unit variance, in f32 (the padding counts); a centred power spectrogram
//! (reflect padding of 200 samples, periodic Hann window of 400, hop 160, real FFT, in f64);
//! the 80-band Slaney mel filterbank; `log10` of at least 1e-10; drop the last frame; clamp
//! to 8 below the maximum; then `(x + 4) / 4`.
//!
//! Checked against Pipecat's numpy code on four festival clips (8 s windows): largest
//! difference 1.2e-7 (one f32 step), 3-4 ms per window in a release build (docs/decisions.md).

use std::sync::Arc;

use realfft::num_complex::Complex;
use realfft::{RealFftPlanner, RealToComplex};

use crate::convert::mel::{self, N_BINS, N_FFT};

/// Samples per second the model takes.
pub const SAMPLE_RATE: usize = 16_000;
/// The audio the model sees: the last 8 s.
pub const WINDOW_SAMPLES: usize = 8 * SAMPLE_RATE;
/// Mel bands.
pub const N_MELS: usize = 80;
/// Frames (10 ms each) in the model's input.
pub const N_FRAMES: usize = WINDOW_SAMPLES / HOP;

const HOP: usize = 160;
const MEL_FLOOR: f64 = 1e-10;
const NORM_VARIANCE_EPS: f32 = 1e-7;
/// The dynamic range kept below the loudest point, in log10 units.
const DYNAMIC_RANGE: f32 = 8.0;

/// Computes features; holds the FFT plan, the window and the filterbank, so make one and
/// reuse it.
pub struct Features {
    fft: Arc<dyn RealToComplex<f64>>,
    window: Vec<f64>,
    /// Each mel band's filter: its first bin and its weights up to its last non-zero one
    /// (the rest are zero, so skipping them changes no sum).
    filters: Vec<(usize, Vec<f64>)>,
}

impl std::fmt::Debug for Features {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Features").finish_non_exhaustive()
    }
}

impl Default for Features {
    fn default() -> Self {
        Self::new()
    }
}

impl Features {
    /// Plans the FFT and builds the window and the filterbank.
    pub fn new() -> Self {
        let window = (0..N_FFT)
            .map(|n| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * n as f64 / N_FFT as f64).cos())
            .collect();
        let filters = mel::filters(N_MELS)
            .chunks_exact(N_BINS)
            .map(|row| {
                let first = row.iter().position(|&w| w != 0.0).unwrap_or(0);
                let last = row.iter().rposition(|&w| w != 0.0).unwrap_or(0);
                let weights = row[first..=last.max(first)].iter().map(|&w| f64::from(w));
                (first, weights.collect())
            })
            .collect();
        Self {
            fft: RealFftPlanner::<f64>::new().plan_fft_forward(N_FFT),
            window,
            filters,
        }
    }

    /// The features of `audio` (16 kHz mono, in [-1, 1]): [`N_MELS`] rows of [`N_FRAMES`],
    /// row-major, the model's `input_features` for a batch of one.
    pub fn compute(&self, audio: &[f32]) -> Vec<f32> {
        let samples = normalised(&last_window(audio));
        let padded = reflect_pad(&samples, N_FFT / 2);
        let mut log_mel = vec![0f32; N_MELS * N_FRAMES];
        let mut frame = self.fft.make_input_vec();
        let mut spectrum = self.fft.make_output_vec();
        let mut scratch = self.fft.make_scratch_vec();
        let mut power = vec![0f64; N_BINS];
        for t in 0..N_FRAMES {
            let start = t * HOP;
            for ((slot, &x), &w) in frame
                .iter_mut()
                .zip(&padded[start..start + N_FFT])
                .zip(&self.window)
            {
                *slot = f64::from(x) * w;
            }
            // unwrap-free: the buffers come from the plan, so their lengths always fit.
            if self
                .fft
                .process_with_scratch(&mut frame, &mut spectrum, &mut scratch)
                .is_err()
            {
                continue;
            }
            for (p, c) in power.iter_mut().zip(&spectrum) {
                *p = Complex::norm_sqr(c);
            }
            for (m, (first, weights)) in self.filters.iter().enumerate() {
                let energy: f64 = weights
                    .iter()
                    .zip(&power[*first..])
                    .map(|(w, p)| w * p)
                    .sum();
                log_mel[m * N_FRAMES + t] = energy.max(MEL_FLOOR).log10() as f32;
            }
        }
        let max = log_mel.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        for x in &mut log_mel {
            *x = ((*x).max(max - DYNAMIC_RANGE) + 4.0) / 4.0;
        }
        log_mel
    }
}

/// The last [`WINDOW_SAMPLES`] of `audio`, left-padded with zeros when shorter.
fn last_window(audio: &[f32]) -> Vec<f32> {
    let kept = &audio[audio.len().saturating_sub(WINDOW_SAMPLES)..];
    let mut window = vec![0f32; WINDOW_SAMPLES - kept.len()];
    window.extend_from_slice(kept);
    window
}

/// Zero mean, unit variance, as numpy does it in f32 (the sums are taken in f64 here, which
/// differs from numpy's pairwise f32 sums by far less than the features' precision).
fn normalised(samples: &[f32]) -> Vec<f32> {
    let n = samples.len() as f64;
    let mean = samples.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
    let var = samples
        .iter()
        .map(|&x| (f64::from(x) - mean).powi(2))
        .sum::<f64>()
        / n;
    let (mean, var) = (mean as f32, var as f32);
    let scale = (var + NORM_VARIANCE_EPS).sqrt();
    samples.iter().map(|&x| (x - mean) / scale).collect()
}

/// numpy's `pad(x, (pad, pad), mode="reflect")`: mirrored about the ends, which are not
/// repeated. `x` must be longer than `pad`.
fn reflect_pad(x: &[f32], pad: usize) -> Vec<f32> {
    let n = x.len();
    let mut out = Vec::with_capacity(n + 2 * pad);
    out.extend((1..=pad).rev().map(|i| x[i]));
    out.extend_from_slice(x);
    out.extend((1..=pad).map(|i| x[n - 1 - i]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflect_padding_mirrors_without_repeating_the_ends() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(
            reflect_pad(&x, 2),
            [3.0, 2.0, 1.0, 2.0, 3.0, 4.0, 5.0, 4.0, 3.0]
        );
    }

    #[test]
    fn keeps_the_last_eight_seconds_padding_on_the_left() {
        let short = last_window(&[0.5; 10]);
        assert_eq!(short.len(), WINDOW_SAMPLES);
        assert_eq!((short[0], short[WINDOW_SAMPLES - 10]), (0.0, 0.5));
        let long: Vec<f32> = (0..WINDOW_SAMPLES + 5).map(|i| i as f32).collect();
        assert_eq!(last_window(&long)[0], 5.0);
    }

    /// A 1 kHz tone in the last second, after 7 s of padding: Pipecat's reference finds
    /// band 26 the loudest in the tone (1.891) and the padding at the floor, 2.0 below the
    /// maximum (8 in log10 units, scaled by 1/4).
    #[test]
    fn a_tone_lights_its_band_and_the_padding_sits_at_the_floor() {
        let tone: Vec<f32> = (0..SAMPLE_RATE)
            .map(|i| 0.3 * (2.0 * std::f32::consts::PI * 1000.0 * i as f32 / 16_000.0).sin())
            .collect();
        let features = Features::new().compute(&tone);
        assert_eq!(features.len(), N_MELS * N_FRAMES);
        let at = |m: usize, t: usize| features[m * N_FRAMES + t];
        let loudest = (0..N_MELS)
            .max_by(|&a, &b| at(a, 750).total_cmp(&at(b, 750)))
            .unwrap();
        assert_eq!(loudest, 26);
        let max = features.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let min = features.iter().copied().fold(f32::INFINITY, f32::min);
        assert!((max - 1.891_194_7).abs() < 1e-4, "max {max}");
        assert!((min + 0.108_805_27).abs() < 1e-4, "min {min}");
        assert_eq!(at(26, 10), min);
    }
}
