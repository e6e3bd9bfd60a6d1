//! Sample-rate conversion: a Blackman-windowed sinc low-pass evaluated at exact rational
//! positions (no drift), streaming chunk by chunk, linear phase and aligned (no delay). Pure.

/// Zero crossings of the sinc kept on each side of its centre.
const ZERO_CROSSINGS: usize = 24;
/// Kernel table entries per zero crossing; taps between entries are interpolated linearly.
const TABLE_STEPS: usize = 512;
/// The cut-off as a fraction of the lower Nyquist frequency (7.2 kHz for 16 kHz output).
const ROLLOFF: f64 = 0.9;

/// Converts a stream of mono samples from one rate to another.
///
/// Output sample `n` lies at input time `n · from / to`, so the output of a whole stream has
/// exactly `ceil(len · to / from)` samples and a tone keeps its frequency and phase.
pub struct Resampler {
    /// Output advances `down / up` input samples per sample (the reduced `from / to`).
    up: u64,
    down: u64,
    /// The windowed sinc, sampled from its centre outwards, gain included.
    table: Vec<f32>,
    /// Table entries per input sample of distance.
    steps_per_sample: f64,
    /// Taps on each side of an output's position, in input samples.
    half: usize,
    /// Input not yet consumed, preceded by `half` zeros at the start of the stream.
    history: Vec<f32>,
    /// Padded index of `history[0]`.
    base: u64,
    /// The next output's position in input samples: `whole + fraction / up`.
    whole: u64,
    fraction: u64,
    consumed: u64,
    emitted: u64,
}

impl Resampler {
    /// A converter from `from` Hz to `to` Hz; both must be non-zero.
    pub fn new(from: u32, to: u32) -> Resampler {
        let (from, to) = (u64::from(from.max(1)), u64::from(to.max(1)));
        let common = gcd(from, to);
        let cutoff = ROLLOFF * (to as f64 / from as f64).min(1.0);
        let half = (ZERO_CROSSINGS as f64 / cutoff).ceil() as usize;
        Resampler {
            up: to / common,
            down: from / common,
            table: kernel_table(cutoff),
            steps_per_sample: cutoff * TABLE_STEPS as f64,
            half,
            history: vec![0.0; half],
            base: 0,
            whole: 0,
            fraction: 0,
            consumed: 0,
            emitted: 0,
        }
    }

    fn is_identity(&self) -> bool {
        self.up == self.down
    }

    /// Feeds input and returns every output sample it completes.
    pub fn process(&mut self, input: &[f32]) -> Vec<f32> {
        if self.is_identity() {
            return input.to_vec();
        }
        self.consumed += input.len() as u64;
        self.history.extend_from_slice(input);
        self.drain_ready(u64::MAX)
    }

    /// Ends the stream: pads with silence and returns the outputs still owed.
    pub fn flush(&mut self) -> Vec<f32> {
        if self.is_identity() {
            return Vec::new();
        }
        let owed = (self.consumed * self.up).div_ceil(self.down) - self.emitted;
        self.history
            .resize(self.history.len() + 2 * self.half + 1, 0.0);
        self.drain_ready(owed)
    }

    /// Computes outputs while their taps are all in `history`, at most `limit` of them.
    fn drain_ready(&mut self, limit: u64) -> Vec<f32> {
        let mut output = Vec::new();
        let end = self.base + self.history.len() as u64;
        let span = 2 * self.half as u64;
        while (output.len() as u64) < limit && self.whole + span < end {
            output.push(self.output_at_position());
            self.advance();
        }
        self.emitted += output.len() as u64;
        self.forget_consumed();
        output
    }

    /// The output at `whole + fraction / up`, from the taps at padded `whole + 1 ..= whole + 2·half`.
    fn output_at_position(&self) -> f32 {
        let fraction = self.fraction as f64 / self.up as f64;
        let first = (self.whole + 1 - self.base) as usize;
        let taps = &self.history[first..first + 2 * self.half];
        let mut sum = 0.0f64;
        for (offset, &sample) in taps.iter().enumerate() {
            let distance = (self.half as f64 - 1.0 - offset as f64) + fraction;
            sum += f64::from(sample) * self.weight(distance);
        }
        sum as f32
    }

    fn weight(&self, distance: f64) -> f64 {
        let position = distance.abs() * self.steps_per_sample;
        let index = position as usize;
        match (self.table.get(index), self.table.get(index + 1)) {
            (Some(&near), Some(&far)) => {
                let blend = position - index as f64;
                f64::from(near) + (f64::from(far) - f64::from(near)) * blend
            }
            _ => 0.0,
        }
    }

    fn advance(&mut self) {
        self.whole += self.down / self.up;
        self.fraction += self.down % self.up;
        if self.fraction >= self.up {
            self.fraction -= self.up;
            self.whole += 1;
        }
    }

    /// Drops input no later output needs (the next one starts at padded `whole + 1`).
    fn forget_consumed(&mut self) {
        let keep_from = self.whole.min(self.base + self.history.len() as u64);
        if keep_from > self.base {
            self.history.drain(..(keep_from - self.base) as usize);
            self.base = keep_from;
        }
    }
}

/// `cutoff · sinc(cutoff · t) · blackman(t)` for `t` from 0 to the last zero crossing.
fn kernel_table(cutoff: f64) -> Vec<f32> {
    let length = ZERO_CROSSINGS * TABLE_STEPS;
    (0..=length)
        .map(|step| {
            let x = step as f64 / TABLE_STEPS as f64;
            let window = blackman(0.5 + 0.5 * step as f64 / length as f64);
            (cutoff * sinc(x) * window) as f32
        })
        .collect()
}

fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let angle = std::f64::consts::PI * x;
        angle.sin() / angle
    }
}

/// The Blackman window at `position` in 0..=1 (1 at the centre, 0.5).
fn blackman(position: f64) -> f64 {
    let angle = 2.0 * std::f64::consts::PI * position;
    0.42 - 0.5 * angle.cos() + 0.08 * (2.0 * angle).cos()
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Converts a whole clip from `from` Hz to `to` Hz.
    pub fn resample(input: &[f32], from: u32, to: u32) -> Vec<f32> {
        let mut resampler = Resampler::new(from, to);
        let mut output = resampler.process(input);
        output.extend(resampler.flush());
        output
    }

    fn tone(hz: f64, rate: u32, seconds: f64) -> Vec<f32> {
        let count = (f64::from(rate) * seconds) as usize;
        (0..count)
            .map(|n| (2.0 * std::f64::consts::PI * hz * n as f64 / f64::from(rate)).sin() as f32)
            .collect()
    }

    fn rms(samples: &[f32]) -> f64 {
        let energy: f64 = samples.iter().map(|&s| f64::from(s).powi(2)).sum();
        (energy / samples.len() as f64).sqrt()
    }

    /// The middle of the output (away from the edges) matches the same tone sampled at `to`.
    fn check_tone_kept(hz: f64, from: u32, to: u32) {
        let output = resample(&tone(hz, from, 1.0), from, to);
        assert_eq!(output.len(), to as usize, "{from} -> {to}");
        let ideal = tone(hz, to, 1.0);
        let middle = output.len() / 10..output.len() * 9 / 10;
        let worst = middle
            .map(|n| (output[n] - ideal[n]).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 0.01, "{hz} Hz {from} -> {to}: error {worst}");
    }

    #[test]
    fn a_tone_keeps_its_frequency_and_phase() {
        check_tone_kept(1000.0, 48_000, 16_000);
        check_tone_kept(1000.0, 44_100, 16_000);
        check_tone_kept(440.0, 22_050, 16_000);
        check_tone_kept(3000.0, 8_000, 16_000);
        check_tone_kept(1000.0, 16_000, 16_000);
    }

    #[test]
    fn output_length_follows_the_rate_ratio() {
        for (from, length, expected) in [
            (48_000, 4_800, 1_600),
            (48_000, 4_801, 1_601),
            (44_100, 44_100, 16_000),
            (44_100, 1_000, 363),
            (8_000, 100, 200),
            (96_000, 7, 2),
            (16_000, 123, 123),
        ] {
            let output = resample(&vec![0.25; length], from, 16_000);
            assert_eq!(output.len(), expected, "{length} samples at {from}");
        }
    }

    #[test]
    fn tones_above_the_new_nyquist_are_filtered_out() {
        for (hz, from) in [(10_000.0, 48_000), (9_000.0, 44_100), (15_000.0, 48_000)] {
            let output = resample(&tone(hz, from, 1.0), from, 16_000);
            let middle = &output[1_600..14_400];
            assert!(
                rms(middle) < 0.001,
                "{hz} Hz at {from}: rms {}",
                rms(middle)
            );
        }
    }

    #[test]
    fn streaming_in_uneven_chunks_equals_the_whole_clip() {
        let input = tone(1234.0, 44_100, 0.3);
        let whole = resample(&input, 44_100, 16_000);
        let mut resampler = Resampler::new(44_100, 16_000);
        let mut streamed = Vec::new();
        for chunk in input.chunks(317) {
            streamed.extend(resampler.process(chunk));
        }
        streamed.extend(resampler.flush());
        assert_eq!(streamed.len(), whole.len());
        let worst = streamed
            .iter()
            .zip(&whole)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-6, "streamed differs by {worst}");
    }

    #[test]
    fn a_constant_level_passes_with_unit_gain() {
        let output = resample(&vec![0.5; 48_000], 48_000, 16_000);
        for &sample in &output[1_000..15_000] {
            assert!((sample - 0.5).abs() < 1e-3, "{sample}");
        }
    }

    #[test]
    fn empty_input_gives_empty_output() {
        assert!(resample(&[], 48_000, 16_000).is_empty());
        assert!(Resampler::new(48_000, 16_000).flush().is_empty());
    }
}
