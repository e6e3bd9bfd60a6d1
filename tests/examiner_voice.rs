//! The examiner's voice end to end, against a real `viva serve` with festival's voice (and
//! Piper's where installed): a `"speak": true` session hears its first question as binary
//! audio frames with alignment marks, whisper hears the question's words in that audio, a
//! session that did not ask hears nothing, and a candidate speaking over the question
//! (festival speech) cancels it.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::harness::speech::{
    concat, model_file, silence, stream, synthesize, voice_server, words,
};
use crate::harness::{Auth, Client, Frame, count, field_str, field_u64, find, next_event_id};

/// One utterance as a client hears it, and the events around it.
struct Heard {
    started: Value,
    marks: Vec<Value>,
    audio: Vec<i16>,
    ended: Value,
    events: Vec<Value>,
}

async fn start_speaking(client: &mut Client) {
    let frame = json!({"type": "session.start", "event_id": next_event_id("start"),
        "device_id": "speaker", "mode": "exam", "speak": true,
        "config": {"rating": "private", "study_mode": "linear", "tasks": [crate::harness::TASK]}});
    client.send_json(frame).await;
}

/// Reads frames until the first utterance ends; `on_audio` sees each audio frame's count.
async fn hear(client: &mut Client) -> Heard {
    let (mut started, mut marks, mut audio, mut events) =
        (None, Vec::new(), Vec::new(), Vec::new());
    loop {
        match client.next_frame().await {
            Frame::Audio(bytes) => {
                assert!(started.is_some(), "audio before examiner.voice.started");
                assert!(
                    bytes.len() <= 64 * 1024 && bytes.len().is_multiple_of(2),
                    "{}",
                    bytes.len()
                );
                audio.extend(
                    bytes
                        .chunks_exact(2)
                        .map(|b| i16::from_le_bytes([b[0], b[1]])),
                );
            }
            Frame::Event(event) => match event["type"].as_str() {
                Some("examiner.voice.started") => started = Some(event),
                Some("examiner.voice.mark") => marks.push(event),
                Some("examiner.voice.ended") => {
                    let started = started.expect("an end after its start");
                    let (ended, events) = (event, events);
                    return Heard {
                        started,
                        marks,
                        audio,
                        ended,
                        events,
                    };
                }
                Some("error") => panic!("unexpected {event}"),
                _ => events.push(event),
            },
        }
    }
}

/// What whisper tiny.en hears in `audio` at `rate` Hz.
fn transcribe(audio: &[i16], rate: u32) -> String {
    let n = audio.len() as u64 * 16_000 / u64::from(rate);
    let resampled: Vec<i16> = (0..n)
        .map(|i| {
            let at = i as f64 * f64::from(rate) / 16_000.0;
            let (j, frac) = (at as usize, at.fract());
            let a = f64::from(audio[j.min(audio.len() - 1)]);
            let b = f64::from(audio[(j + 1).min(audio.len() - 1)]);
            (a + (b - a) * frac) as i16
        })
        .collect();
    let model = viva_speech::model::Model::load(&model_file("ggml-tiny.en.bin")).expect("tiny.en");
    let mut state = model.state().expect("whisper state");
    viva_speech::stt::decode(&mut state, &resampled, &Arc::default()).expect("decoded")
}

/// The share of the question's words of four letters or more that whisper heard.
fn share_heard(question: &str, heard: &str) -> f64 {
    let heard = words(heard);
    let asked: Vec<String> = words(question)
        .into_iter()
        .filter(|w| w.len() >= 4)
        .collect();
    let found = asked.iter().filter(|w| heard.contains(w)).count();
    found as f64 / asked.len().max(1) as f64
}

async fn first_question_is_heard(engine: &str) {
    let server = voice_server(&["--tts", engine]).await;
    let mut client = Client::connect(&server, Auth::bearer("listener")).await;
    start_speaking(&mut client).await;
    let heard = hear(&mut client).await;
    let question = find(&heard.events, "question");
    let text = field_str(question, "text");
    assert_eq!(
        heard.started["question_id"], question["question_id"],
        "{}",
        heard.started
    );
    assert_eq!(heard.started["text"], text);
    assert_eq!(heard.started["format"], "pcm16");
    assert_eq!(heard.started["engine"], engine);
    assert_eq!(heard.ended["status"], "completed", "{}", heard.ended);
    let rate = field_u64(&heard.started, "sample_rate") as u32;
    // The marks cover the text in order, and the last ends where the audio does.
    assert!(!heard.marks.is_empty());
    assert_eq!(field_u64(&heard.marks[0], "text_start"), 0);
    let last = heard.marks.last().expect("a mark");
    assert_eq!(field_u64(last, "text_end") as usize, text.len(), "{last}");
    let audio_ms = heard.audio.len() as u64 * 1000 / u64::from(rate);
    assert_eq!(field_u64(last, "audio_end_ms"), audio_ms, "{last}");
    let said = transcribe(&heard.audio, rate);
    let share = share_heard(text, &said);
    assert!(
        share >= 0.6,
        "{engine} said {text:?}; whisper heard {said:?} ({share:.2})"
    );
}

#[tokio::test]
async fn a_speaking_session_hears_its_first_question_in_festivals_voice() {
    first_question_is_heard("festival").await;
}

#[tokio::test]
async fn a_speaking_session_hears_its_first_question_in_pipers_voice() {
    first_question_is_heard("piper").await;
}

#[tokio::test]
async fn a_session_that_did_not_ask_hears_no_voice() {
    let server = voice_server(&["--tts", "festival"]).await;
    let mut client = Client::connect(&server, Auth::bearer("reader")).await;
    crate::harness::start_exam(&mut client, "laptop").await;
    client.send_json(json!({"type": "ping"})).await;
    let events = client.collect_until(|e| count(e, "pong") > 0).await;
    assert!(
        events
            .iter()
            .all(|e| !field_str(e, "type").starts_with("examiner.voice")),
        "{events:?}"
    );
}

#[tokio::test]
async fn the_candidate_speaking_over_the_question_cancels_it() {
    let server = voice_server(&["--tts", "festival"]).await;
    let mut client = Client::connect(&server, Auth::bearer("interrupter")).await;
    start_speaking(&mut client).await;
    loop {
        if let Frame::Audio(_) = client.next_frame().await {
            break;
        }
    }
    // The question plays for seconds; the candidate starts answering at once.
    let answer = synthesize("A private pilot needs a current medical certificate.");
    stream(&mut client, &concat(&[answer, silence(500)])).await;
    let ended = loop {
        if let Frame::Event(event) = client.next_frame().await
            && event["type"] == "examiner.voice.ended"
        {
            break event;
        }
    };
    assert_eq!(ended["status"], "cancelled", "{ended}");
}
