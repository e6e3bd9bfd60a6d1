//! The microphone (cpal): any device, sample format, channel count and rate, delivered as mono
//! f32 chunks at the device's rate. The audio callback never blocks: it pushes into a bounded
//! channel and counts what it drops when the channel is full.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, Sample, SampleFormat, SizedSample};
use tokio::sync::mpsc;

use super::pcm::downmix;

/// Callback chunks held before the callback starts dropping (a few seconds at usual sizes).
const CHUNK_QUEUE: usize = 256;
/// How long opening the device may take.
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);
/// Said with every failure to find or open a device.
const HEADLESS_HINT: &str =
    "no usable microphone (to answer without one, use --wav FILE, one WAV file per answer)";

/// A running microphone. Dropping it stops the stream.
pub struct Capture {
    /// The device's sample rate.
    pub rate: u32,
    /// The device, for people.
    pub name: String,
    /// Mono samples at `rate`, in callback-sized chunks.
    pub chunks: mpsc::Receiver<Vec<f32>>,
    /// Samples the callback dropped because the queue was full.
    pub dropped: Arc<AtomicU64>,
    /// Closing it (by dropping) ends the thread that holds the stream.
    _stop: std::sync::mpsc::Sender<()>,
}

/// Where the callback puts audio.
struct ChunkSink {
    queue: mpsc::Sender<Vec<f32>>,
    dropped: Arc<AtomicU64>,
}

impl ChunkSink {
    fn push<T>(&self, interleaved: &[T], channels: usize)
    where
        T: SizedSample,
        f32: FromSample<T>,
    {
        let samples: Vec<f32> = interleaved.iter().map(|&s| f32::from_sample(s)).collect();
        let mono = downmix(&samples, channels);
        let count = mono.len() as u64;
        if let Err(mpsc::error::TrySendError::Full(_)) = self.queue.try_send(mono) {
            self.dropped.fetch_add(count, Ordering::Relaxed);
        }
    }
}

/// Opens `device` (a name or id; default: the host's default input) and starts capturing.
///
/// The stream lives on its own thread, since a cpal stream may not move between threads.
pub fn start(device: Option<&str>) -> anyhow::Result<Capture> {
    let (queue, chunks) = mpsc::channel(CHUNK_QUEUE);
    let dropped = Arc::new(AtomicU64::new(0));
    let sink = ChunkSink {
        queue,
        dropped: dropped.clone(),
    };
    let (ready_tx, ready) = std::sync::mpsc::sync_channel(1);
    let (stop, stop_rx) = std::sync::mpsc::channel::<()>();
    let device = device.map(str::to_owned);
    std::thread::Builder::new()
        .name("viva-talk-mic".into())
        .spawn(
            move || match open(device.as_deref(), sink).context(HEADLESS_HINT) {
                Ok((stream, rate, name)) => {
                    // ignore: the opener stopped waiting; the stream is dropped when we return.
                    let _ = ready_tx.send(Ok((rate, name)));
                    // Blocks until the Capture is dropped (its sender closes).
                    let _ = stop_rx.recv();
                    drop(stream);
                }
                Err(err) => {
                    // ignore: the opener stopped waiting.
                    let _ = ready_tx.send(Err(err));
                }
            },
        )
        .context("cannot start the microphone thread")?;
    let (rate, name) = ready
        .recv_timeout(OPEN_TIMEOUT)
        .map_err(|_| anyhow!("the microphone did not open within {OPEN_TIMEOUT:?}"))??;
    Ok(Capture {
        rate,
        name,
        chunks,
        dropped,
        _stop: stop,
    })
}

/// Finds, configures and starts the device: the stream, its rate and its name.
fn open(device: Option<&str>, sink: ChunkSink) -> anyhow::Result<(cpal::Stream, u32, String)> {
    let host = cpal::default_host();
    let device = find_device(&host, device)?;
    let name = describe(&device);
    let supported = device
        .default_input_config()
        .with_context(|| format!("{name} offers no input format"))?;
    let config = supported.config();
    let stream = build_stream(&device, &config, supported.sample_format(), sink)
        .with_context(|| format!("cannot open {name}"))?;
    stream
        .play()
        .with_context(|| format!("cannot start {name}"))?;
    Ok((stream, config.sample_rate, name))
}

fn describe(device: &cpal::Device) -> String {
    device
        .description()
        .map(|description| description.name().to_owned())
        .unwrap_or_else(|_| "the input device".to_owned())
}

fn device_id(device: &cpal::Device) -> String {
    device.id().map(|id| id.to_string()).unwrap_or_default()
}

fn find_device(host: &cpal::Host, wanted: Option<&str>) -> anyhow::Result<cpal::Device> {
    let Some(wanted) = wanted else {
        return host
            .default_input_device()
            .ok_or_else(|| anyhow!("there is no default sound input device"));
    };
    let mut devices: Vec<cpal::Device> = host
        .input_devices()
        .context("cannot list sound input devices")?
        .collect();
    let names: Vec<String> = devices.iter().map(describe).collect();
    let ids: Vec<String> = devices.iter().map(device_id).collect();
    match pick_device(&names, &ids, wanted) {
        Some(index) => Ok(devices.swap_remove(index)),
        None if names.is_empty() => bail!("there are no sound input devices"),
        None => bail!(
            "no single input device matches {wanted:?}; the inputs are: {}",
            names.join(", ")
        ),
    }
}

/// The device whose name or id (with or without its host prefix, such as `alsa:`) is
/// `wanted`, else the only one whose name or id contains it.
fn pick_device(names: &[String], ids: &[String], wanted: &str) -> Option<usize> {
    let is_exact = |(name, id): (&String, &String)| {
        let bare_id = id.split_once(':').map_or(id.as_str(), |(_, bare)| bare);
        name == wanted || id == wanted || bare_id == wanted
    };
    let exact = names.iter().zip(ids).position(is_exact);
    exact.or_else(|| {
        let wanted = wanted.to_lowercase();
        let contains = |(name, id): &(&String, &String)| {
            name.to_lowercase().contains(&wanted) || id.to_lowercase().contains(&wanted)
        };
        let mut matches = names
            .iter()
            .zip(ids)
            .enumerate()
            .filter(|(_, pair)| contains(pair));
        match (matches.next(), matches.next()) {
            (Some((index, _)), None) => Some(index),
            _ => None,
        }
    })
}

/// Lists the input devices, the default marked, for `--list-devices`.
pub fn list_devices() -> anyhow::Result<Vec<String>> {
    let host = cpal::default_host();
    let default = host.default_input_device().map(|device| describe(&device));
    let devices = host
        .input_devices()
        .context("cannot list sound input devices")?;
    Ok(devices
        .map(|device| {
            let name = describe(&device);
            let mark = if Some(&name) == default.as_ref() {
                " (default)"
            } else {
                ""
            };
            format!("{name}{mark}  [id {}]", device_id(&device))
        })
        .collect())
}

fn build_stream(
    device: &cpal::Device,
    config: &cpal::StreamConfig,
    format: SampleFormat,
    sink: ChunkSink,
) -> anyhow::Result<cpal::Stream> {
    match format {
        SampleFormat::I8 => stream_of::<i8>(device, config, sink),
        SampleFormat::I16 => stream_of::<i16>(device, config, sink),
        SampleFormat::I24 => stream_of::<cpal::I24>(device, config, sink),
        SampleFormat::I32 => stream_of::<i32>(device, config, sink),
        SampleFormat::I64 => stream_of::<i64>(device, config, sink),
        SampleFormat::U8 => stream_of::<u8>(device, config, sink),
        SampleFormat::U16 => stream_of::<u16>(device, config, sink),
        SampleFormat::U24 => stream_of::<cpal::U24>(device, config, sink),
        SampleFormat::U32 => stream_of::<u32>(device, config, sink),
        SampleFormat::U64 => stream_of::<u64>(device, config, sink),
        SampleFormat::F32 => stream_of::<f32>(device, config, sink),
        SampleFormat::F64 => stream_of::<f64>(device, config, sink),
        other => bail!("unsupported sample format {other}"),
    }
}

fn stream_of<T>(
    device: &cpal::Device,
    config: &cpal::StreamConfig,
    sink: ChunkSink,
) -> anyhow::Result<cpal::Stream>
where
    T: SizedSample,
    f32: FromSample<T>,
{
    let channels = usize::from(config.channels.max(1));
    let on_data = move |data: &[T], _: &cpal::InputCallbackInfo| sink.push(data, channels);
    let on_error = |err: cpal::StreamError| tracing::warn!(%err, "microphone stream error");
    Ok(device.build_input_stream(config, on_data, on_error, None)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sink(capacity: usize) -> (ChunkSink, mpsc::Receiver<Vec<f32>>) {
        let (queue, chunks) = mpsc::channel(capacity);
        let dropped = Arc::new(AtomicU64::new(0));
        (ChunkSink { queue, dropped }, chunks)
    }

    #[test]
    fn the_callback_downmixes_any_sample_format() {
        let (sink, mut chunks) = sink(4);
        sink.push(&[i16::MAX, 0, i16::MIN, 0], 2);
        sink.push(&[32768u16, 32768, 65535, 65535], 2);
        sink.push(&[0.5f32, -0.5, 0.25], 1);
        let first = chunks.try_recv().unwrap();
        assert_eq!(first.len(), 2);
        assert!(
            (first[0] - 0.5).abs() < 1e-3 && (first[1] + 0.5).abs() < 1e-3,
            "{first:?}"
        );
        let second = chunks.try_recv().unwrap();
        assert!(
            second[0].abs() < 1e-3 && (second[1] - 1.0).abs() < 1e-3,
            "{second:?}"
        );
        assert_eq!(chunks.try_recv().unwrap(), [0.5, -0.5, 0.25]);
    }

    #[test]
    fn a_full_queue_drops_and_counts_instead_of_blocking() {
        let (sink, mut chunks) = sink(1);
        sink.push(&[0i16; 100], 1);
        sink.push(&[0i16; 100], 1);
        sink.push(&[0i16; 50], 2);
        assert_eq!(sink.dropped.load(Ordering::Relaxed), 125);
        assert_eq!(chunks.try_recv().unwrap().len(), 100);
    }

    #[test]
    fn devices_are_picked_by_name_id_or_unique_part_of_a_name() {
        let names = [
            "USB Mic".to_owned(),
            "Built-in Audio".to_owned(),
            "USB Headset".to_owned(),
        ];
        let ids = [
            "alsa:hw1".to_owned(),
            "alsa:hw0".to_owned(),
            "alsa:hw2".to_owned(),
        ];
        let check =
            |wanted, expected| assert_eq!(pick_device(&names, &ids, wanted), expected, "{wanted}");
        check("USB Mic", Some(0));
        check("alsa:hw0", Some(1));
        check("hw2", Some(2));
        check("built-in", Some(1));
        check("headset", Some(2));
        check("USB", None);
        check("bluetooth", None);
    }
}
