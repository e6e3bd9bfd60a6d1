// Resampling for the microphone (the worklet's own code, importable by a page too, where the
// browser tests measure it): a windowed-sinc low-pass filter (Kaiser window, 60 dB stop
// band) evaluated at each output sample's position in the input, so any input rate comes
// out at the output rate without folding what lies above the new Nyquist into speech. For
// 48 kHz to 16 kHz: flat to 7 kHz, down 6 dB at 7.5 kHz, and at least 60 dB down from 8 kHz.

/** Table steps per input sample: the kernel between steps is interpolated linearly. */
const STEPS = 256;
/** Stop-band attenuation the filter is designed for, in dB. */
const ATTENUATION = 60;

/** The modified Bessel function of order 0 (the Kaiser window's), by its power series. */
function besselI0(x) {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 64 && term > 1e-12 * sum; k += 1) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

/** The low-pass kernel's right half, sampled STEPS times per input sample, and its half
 * length in input samples. Cut-off at 15/32 of the lower rate, transition band 1/16 of it. */
export function lowPassKernel(inRate, outRate) {
  const low = Math.min(inRate, outRate);
  const cutoff = (0.46875 * low) / inRate; // cycles per input sample
  const width = low / 16 / inRate;
  const half = Math.ceil((ATTENUATION - 8) / (2.285 * 2 * Math.PI * width) / 2) + 1;
  const beta = 0.1102 * (ATTENUATION - 8.7);
  const table = new Float32Array(half * STEPS + 1);
  for (let i = 0; i < table.length; i += 1) {
    const u = i / STEPS;
    const x = 2 * cutoff * u;
    const sinc = u === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    const window = besselI0(beta * Math.sqrt(Math.max(0, 1 - (u / half) ** 2))) / besselI0(beta);
    table[i] = 2 * cutoff * sinc * window;
  }
  // Unity gain at 0 Hz where the output falls on input samples (any whole-number ratio).
  let dc = table[0];
  for (let k = 1; k <= half; k += 1) dc += 2 * table[k * STEPS];
  for (let i = 0; i < table.length; i += 1) table[i] /= dc;
  return { table, half };
}

/** A streaming resampler: `push` takes input blocks of any length and returns the output
 * samples they complete. Latency: the kernel's half length (under 2 ms at 48 kHz). */
export class Resampler {
  constructor(inRate, outRate) {
    this.step = inRate / outRate;
    this.same = inRate === outRate;
    const { table, half } = lowPassKernel(inRate, outRate);
    this.table = table;
    this.half = half;
    this.pending = new Float32Array(half); // history, starting as silence
    this.time = half; // the next output's position in `pending`
  }

  /** The kernel at `u` input samples from its centre. */
  at(u) {
    const x = Math.abs(u) * STEPS;
    const i = Math.floor(x);
    if (i >= this.table.length - 1) return i === this.table.length - 1 ? this.table[i] : 0;
    return this.table[i] + (x - i) * (this.table[i + 1] - this.table[i]);
  }

  push(input) {
    if (this.same) return Float32Array.from(input);
    const buffer = new Float32Array(this.pending.length + input.length);
    buffer.set(this.pending);
    buffer.set(input, this.pending.length);
    const out = [];
    while (this.time + this.half < buffer.length) {
      const t = this.time;
      let sum = 0;
      for (let k = Math.ceil(t - this.half), last = Math.floor(t + this.half); k <= last; k += 1) {
        sum += buffer[k] * this.at(t - k);
      }
      out.push(sum);
      this.time += this.step;
    }
    const drop = Math.max(0, Math.floor(this.time - this.half));
    this.pending = buffer.slice(drop);
    this.time -= drop;
    return Float32Array.from(out);
  }
}
