//! Playing the examiner's own voice (`--server-voice`: the server's `examiner.voice.*`
//! audio) on the default output device with cpal, resampled to the device's rate. A
//! cancelled utterance (the candidate spoke over it) stops at once: the queue is emptied.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample};

use crate::resample::Resampler;

/// The most audio queued for the device, in seconds; beyond it new audio is dropped.
const MAX_QUEUED_SECONDS: usize = 120;
/// How long the output device may take to open.
const OPEN_TIMEOUT: Duration = Duration::from_secs(5);

/// Samples waiting for the device, at its rate, mono.
type Queue = Arc<Mutex<VecDeque<f32>>>;

/// The examiner's voice on the speakers.
pub struct Player {
    queue: Queue,
    rate: u32,
    resampler: Option<Resampler>,
    _stop: std::sync::mpsc::Sender<()>,
}

impl Player {
    /// Opens the default output device (its stream lives on its own thread).
    pub fn start() -> anyhow::Result<Player> {
        let queue: Queue = Arc::default();
        let (ready_tx, ready) = std::sync::mpsc::sync_channel(1);
        let (stop, stop_rx) = std::sync::mpsc::channel::<()>();
        let shared = queue.clone();
        std::thread::Builder::new()
            .name("viva-talk-speakers".into())
            .spawn(move || match open(shared) {
                Ok((stream, rate)) => {
                    // ignore: the opener stopped waiting; the stream is dropped when we return.
                    let _ = ready_tx.send(Ok(rate));
                    let _ = stop_rx.recv();
                    drop(stream);
                }
                Err(err) => {
                    // ignore: the opener stopped waiting.
                    let _ = ready_tx.send(Err(err));
                }
            })
            .context("cannot start the speaker thread")?;
        let rate = ready
            .recv_timeout(OPEN_TIMEOUT)
            .map_err(|_| anyhow!("the output device did not open within {OPEN_TIMEOUT:?}"))??;
        Ok(Player {
            queue,
            rate,
            resampler: None,
            _stop: stop,
        })
    }

    /// An utterance at `sample_rate` begins: whatever still plays is dropped.
    pub fn begin(&mut self, sample_rate: u32) {
        self.stop();
        self.resampler = Some(Resampler::new(sample_rate, self.rate));
    }

    /// Queues PCM16LE mono bytes of the current utterance.
    pub fn play(&mut self, pcm: &[u8]) {
        let Some(resampler) = &mut self.resampler else {
            return;
        };
        let samples: Vec<f32> = pcm
            .chunks_exact(2)
            .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0)
            .collect();
        let out = resampler.process(&samples);
        let cap = MAX_QUEUED_SECONDS * self.rate as usize;
        if let Ok(mut queue) = self.queue.lock() {
            let room = cap.saturating_sub(queue.len());
            queue.extend(out.into_iter().take(room));
        }
    }

    /// Stops playing now (a cancelled utterance).
    pub fn stop(&mut self) {
        self.resampler = None;
        if let Ok(mut queue) = self.queue.lock() {
            queue.clear();
        }
    }
}

fn open(queue: Queue) -> anyhow::Result<(cpal::Stream, u32)> {
    let host = cpal::default_host();
    let device = host
        .default_output_device()
        .ok_or_else(|| anyhow!("there is no default sound output device"))?;
    let supported = device
        .default_output_config()
        .context("the output device offers no format")?;
    let config = supported.config();
    let stream = match supported.sample_format() {
        SampleFormat::I16 => stream_of::<i16>(&device, &config, queue),
        SampleFormat::I32 => stream_of::<i32>(&device, &config, queue),
        SampleFormat::U16 => stream_of::<u16>(&device, &config, queue),
        SampleFormat::F32 => stream_of::<f32>(&device, &config, queue),
        SampleFormat::F64 => stream_of::<f64>(&device, &config, queue),
        other => bail!("unsupported output sample format {other}"),
    }?;
    stream.play().context("cannot start the output device")?;
    Ok((stream, config.sample_rate))
}

fn stream_of<T>(
    device: &cpal::Device,
    config: &cpal::StreamConfig,
    queue: Queue,
) -> anyhow::Result<cpal::Stream>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = usize::from(config.channels.max(1));
    let on_data = move |data: &mut [T], _: &cpal::OutputCallbackInfo| {
        let mut queue = queue.lock().ok();
        for frame in data.chunks_mut(channels) {
            let sample = queue.as_mut().and_then(|q| q.pop_front()).unwrap_or(0.0);
            frame.fill(T::from_sample(sample));
        }
    };
    let on_error = |err: cpal::StreamError| tracing::warn!(%err, "speaker stream error");
    Ok(device.build_output_stream(config, on_data, on_error, None)?)
}
