//! The examiner's voice heard back: a question synthesised by each engine, transcribed by
//! whisper tiny.en, must contain its key words (an ear's proxy for pronunciation). Needs the
//! models folder (`$VIVA_MODELS_DIR`, default `/var/tmp/viva-models`) with `ggml-tiny.en.bin`,
//! and for Piper `viva models install --model onnxruntime` and `--model piper-joe` there.

use std::path::PathBuf;
use std::sync::Arc;

use viva_core::voice::synth::SpeechSynth;
use viva_speech::model::Model;
use viva_speech::voice::festival::Festival;
use viva_speech::voice::piper::PiperVoice;

const QUESTION: &str = "What are the fuel requirements for a flight at night? Name the reserve.";
const KEY_WORDS: &[&str] = &["fuel", "requirements", "flight", "night", "reserve"];

fn models_dir() -> PathBuf {
    std::env::var_os("VIVA_MODELS_DIR")
        .map_or_else(|| PathBuf::from("/var/tmp/viva-models"), PathBuf::from)
}

/// Linear interpolation from `from` Hz to `to` Hz: enough for whisper's ear.
fn resample(samples: &[i16], from: u32, to: u32) -> Vec<i16> {
    let n = samples.len() as u64 * u64::from(to) / u64::from(from);
    (0..n)
        .map(|i| {
            let at = i as f64 * f64::from(from) / f64::from(to);
            let (j, frac) = (at as usize, at.fract());
            let a = f64::from(samples[j.min(samples.len() - 1)]);
            let b = f64::from(samples[(j + 1).min(samples.len() - 1)]);
            (a + (b - a) * frac) as i16
        })
        .collect()
}

/// The words whisper hears in what `engine` says for `text`, lower-cased.
fn heard(engine: &mut dyn SpeechSynth, text: &str) -> String {
    let mut audio = Vec::new();
    for range in viva_core::voice::synth::sentences(text) {
        audio.extend(engine.synthesize(&text[range]).expect("synthesised"));
    }
    let audio = resample(&audio, engine.sample_rate(), 16_000);
    let model =
        Model::load(&models_dir().join("ggml-tiny.en.bin")).expect("tiny.en in the models folder");
    let mut state = model.state().expect("whisper state");
    let abort = Arc::default();
    let text = viva_speech::stt::decode(&mut state, &audio, &abort).expect("decoded");
    text.to_lowercase()
}

/// Whisper must hear the key words, all but `may_miss` of them.
fn assert_heard(engine: &str, text: &str, may_miss: usize) {
    let missing: Vec<&&str> = KEY_WORDS.iter().filter(|w| !text.contains(**w)).collect();
    assert!(
        missing.len() <= may_miss,
        "{engine}: whisper heard {text:?}, missing {missing:?}"
    );
}

#[test]
fn piper_speaks_a_question_whisper_understands() {
    let dir = models_dir();
    viva_speech::onnx::init_runtime(&viva_speech::onnx::runtime_in(&dir))
        .expect("ONNX Runtime in the models folder (viva models install --model onnxruntime)");
    let mut voice =
        PiperVoice::load(&dir).expect("Piper joe in the models folder (--model piper-joe)");
    assert_eq!(voice.sample_rate(), 22_050);
    let text = heard(&mut voice, QUESTION);
    assert_heard("piper", &text, 0);
}

#[test]
fn festival_speaks_a_question_whisper_understands() {
    let mut festival = Festival::load().expect("festival with the slt HTS voice");
    let text = heard(&mut festival, QUESTION);
    // festival's "fuel" is heard as "few ill" (measured): one word may be missed.
    assert_heard("festival", &text, 1);
}
