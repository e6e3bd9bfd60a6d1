//! PCM16 as the float samples both speech engines take, shared by whisper and Moonshine so
//! neither imports the other.

/// PCM16 as floats in [-1, 1): at most `max` samples, padded with silence to `min`.
pub fn padded_float(audio: &[i16], min: usize, max: usize) -> Vec<f32> {
    let mut samples: Vec<f32> = audio
        .iter()
        .take(max)
        .map(|&s| f32::from(s) / 32768.0)
        .collect();
    if samples.len() < min {
        samples.resize(min, 0.0);
    }
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_scaled_capped_and_padded() {
        assert_eq!(padded_float(&[i16::MIN, 0, 16384], 0, 10), [-1.0, 0.0, 0.5]);
        assert_eq!(padded_float(&[1, 2, 3, 4], 0, 2).len(), 2);
        assert_eq!(padded_float(&[i16::MAX], 4, 10)[1..], [0.0; 3]);
    }
}
