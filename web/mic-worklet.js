// The microphone, on the audio thread: the first channel, resampled to 16 kHz through a
// windowed-sinc low-pass filter (resample.js: nothing above 8 kHz folds into speech), as
// PCM16 frames of 40 ms (640 samples) posted to the page with the frame's level (RMS, 0 to
// 1) for the meter. 40 ms rather than 20: half the messages, and a session's bounded mailbox
// (64 messages) then holds 2.5 s of speech while it is busy.
import { Resampler } from "./resample.js";

const RATE = 16000;
const FRAME = 640;

class MicFrames extends AudioWorkletProcessor {
  constructor() {
    super();
    this.resampler = new Resampler(sampleRate, RATE);
    this.frame = new Int16Array(FRAME);
    this.filled = 0;
    this.energy = 0;
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    for (const sample of this.resampler.push(channel)) this.push(sample);
    return true;
  }

  push(sample) {
    const clamped = Math.max(-1, Math.min(1, sample));
    this.frame[this.filled++] = clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff;
    this.energy += clamped * clamped;
    if (this.filled === FRAME) {
      const level = Math.sqrt(this.energy / FRAME);
      this.port.postMessage({ pcm: this.frame.buffer, level }, [this.frame.buffer]);
      this.frame = new Int16Array(FRAME);
      this.filled = 0;
      this.energy = 0;
    }
  }
}

registerProcessor("mic-frames", MicFrames);
