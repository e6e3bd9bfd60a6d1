// The microphone, on the audio thread: the first channel, averaged down to 16 kHz (a box
// filter over each output sample's span of input, which keeps speech and drops most of
// what would alias), as PCM16 frames of 40 ms (640 samples) posted to the page with the
// frame's level (RMS, 0 to 1) for the meter. 40 ms rather than 20: half the messages, and
// a session's bounded mailbox (64 messages) then holds 2.5 s of speech while it is busy.
const RATE = 16000;
const FRAME = 640;

class MicFrames extends AudioWorkletProcessor {
  constructor() {
    super();
    this.step = sampleRate / RATE;
    this.span = 0;
    this.sum = 0;
    this.count = 0;
    this.frame = new Int16Array(FRAME);
    this.filled = 0;
    this.energy = 0;
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    for (let i = 0; i < channel.length; i++) {
      this.sum += channel[i];
      this.count += 1;
      this.span += 1;
      if (this.span >= this.step) {
        this.span -= this.step;
        this.push(this.sum / this.count);
        this.sum = 0;
        this.count = 0;
      }
    }
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
