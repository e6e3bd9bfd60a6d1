//! The mel filterbank whisper.cpp reads from the model file, computed as
//! `librosa.filters.mel(sr=16000, n_fft=400, n_mels=N)` does (Slaney mel scale, Slaney area
//! normalisation), which is how OpenAI made whisper's `mel_filters.npz`.
//!
//! The arithmetic follows librosa step by step (f64 throughout, the weights rounded to f32
//! before the normalisation, as librosa's f32 array does), so the result is bit for bit the
//! table in `mel_filters.npz`.

/// Sample rate whisper works at.
pub const SAMPLE_RATE: f64 = 16_000.0;
/// FFT length whisper uses (25 ms windows).
pub const N_FFT: usize = 400;
/// Frequency bins of a real FFT of [`N_FFT`] points.
pub const N_BINS: usize = N_FFT / 2 + 1;

/// Hertz per mel below 1 kHz on the Slaney scale.
const F_SP: f64 = 200.0 / 3.0;
/// Where the Slaney scale turns logarithmic.
const MIN_LOG_HZ: f64 = 1000.0;
const MIN_LOG_MEL: f64 = MIN_LOG_HZ / F_SP;

fn log_step() -> f64 {
    6.4f64.ln() / 27.0
}

fn hz_to_mel(hz: f64) -> f64 {
    if hz >= MIN_LOG_HZ {
        MIN_LOG_MEL + (hz / MIN_LOG_HZ).ln() / log_step()
    } else {
        hz / F_SP
    }
}

fn mel_to_hz(mel: f64) -> f64 {
    if mel >= MIN_LOG_MEL {
        MIN_LOG_HZ * (log_step() * (mel - MIN_LOG_MEL)).exp()
    } else {
        F_SP * mel
    }
}

/// `numpy.linspace(start, stop, num)`: `i * step + start`, the last point exactly `stop`.
fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    let step = (stop - start) / (num - 1) as f64;
    let mut points: Vec<f64> = (0..num).map(|i| i as f64 * step + start).collect();
    if let Some(last) = points.last_mut() {
        *last = stop;
    }
    points
}

/// The `n_mels` × [`N_BINS`] filterbank, row-major (one row per mel band).
pub fn filters(n_mels: usize) -> Vec<f32> {
    let fft_freqs = linspace(0.0, SAMPLE_RATE / 2.0, N_BINS);
    let mels = linspace(hz_to_mel(0.0), hz_to_mel(SAMPLE_RATE / 2.0), n_mels + 2);
    let mel_f: Vec<f64> = mels.into_iter().map(mel_to_hz).collect();
    let mut weights = Vec::with_capacity(n_mels * N_BINS);
    for i in 0..n_mels {
        let (left, centre, right) = (mel_f[i], mel_f[i + 1], mel_f[i + 2]);
        let enorm = 2.0 / (right - left);
        for &f in &fft_freqs {
            let lower = -(left - f) / (centre - left);
            let upper = (right - f) / (right - centre);
            // numpy's maximum(0, -0.0) keeps the -0.0, and so does the table.
            let nearest = lower.min(upper);
            let weight = if nearest < 0.0 { 0.0 } else { nearest as f32 };
            weights.push((f64::from(weight) * enorm) as f32);
        }
    }
    weights
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries of whisper's `mel_filters.npz` (`mel_80`), as f32 bit patterns.
    const REFERENCE: &[(usize, usize, u32)] = &[
        (0, 0, 0x8000_0000),
        (0, 1, 0x3ccb_aca4),
        (1, 1, 0x3b02_7873),
        (1, 2, 0x3cbb_5d95),
        (40, 25, 0x0000_0000),
        (79, 196, 0x3aeb_476a),
    ];

    fn check(n_mels: usize, row: usize, col: usize, bits: u32) {
        let table = filters(n_mels);
        let got = table[row * N_BINS + col];
        assert_eq!(
            got.to_bits(),
            bits,
            "[{row}][{col}] = {got}, want {}",
            f32::from_bits(bits)
        );
    }

    #[test]
    fn matches_whisper_mel_filters_npz() {
        for &(row, col, bits) in REFERENCE {
            check(80, row, col, bits);
        }
    }

    #[test]
    fn has_librosa_shape_and_sum() {
        let table = filters(80);
        assert_eq!(table.len(), 80 * 201);
        assert!(table.iter().all(|w| *w >= 0.0));
        let sum: f64 = table.iter().map(|w| f64::from(*w)).sum();
        assert!((sum - 1.999_024_2).abs() < 1e-5, "sum {sum}");
        assert_eq!(filters(128).len(), 128 * 201);
    }

    #[test]
    fn slaney_scale_is_linear_then_logarithmic() {
        assert!((hz_to_mel(500.0) - 7.5).abs() < 1e-12);
        assert!((hz_to_mel(1000.0) - 15.0).abs() < 1e-12);
        assert!((mel_to_hz(hz_to_mel(6000.0)) - 6000.0).abs() < 1e-9);
        assert_eq!(linspace(0.0, 8000.0, 201)[200], 8000.0);
        assert_eq!(linspace(0.0, 8000.0, 201)[3], 120.0);
    }
}
