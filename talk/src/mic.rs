//! The live microphone feed: device-rate chunks resampled to 16 kHz, cut into frames and
//! handed to the session.

use std::sync::atomic::Ordering;

use tokio::sync::mpsc;

use super::capture::Capture;
use super::pcm::{FrameChunker, SPEECH_RATE, to_pcm16};
use super::resample::Resampler;
use super::session::Feed;

/// Feeds the microphone to the session until the session ends.
pub async fn pump(mut capture: Capture, feed: mpsc::Sender<Feed>) {
    // What was dropped while connecting does not count: the session was not listening yet.
    capture.dropped.store(0, Ordering::Relaxed);
    let mut resampler = Resampler::new(capture.rate, SPEECH_RATE);
    let mut chunker = FrameChunker::default();
    while let Some(chunk) = capture.chunks.recv().await {
        let samples = to_pcm16(&resampler.process(&chunk));
        for frame in chunker.push(&samples) {
            if feed.send(Feed::Audio(frame)).await.is_err() {
                return;
            }
        }
    }
    // ignore: the session has already ended.
    let _ = feed
        .send(Feed::Failed("the microphone stopped".into()))
        .await;
}
