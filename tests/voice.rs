//! Spoken answers end to end: real speech (festival, and whisper.cpp's `jfk.wav` sample)
//! streamed over a real socket to a server decoding with the tiny.en model: at a live
//! microphone's pace, except the two whole sessions, streamed as recordings at 4x.

use serde_json::{Value, json};

use crate::harness::speech::{
    concat, model_file, read_wav, silence, stream, stream_sped_up, synthesize, voice_server,
    white_noise, words,
};
use crate::harness::{
    Auth, Client, TASK, count, field_str, field_u64, http_get, keyed_answer, next_event_id,
    result_path, start_exam, token,
};

/// Silence after an answer long enough for the default 3 s thinking pause to end the turn.
const END_OF_TURN_MS: usize = 3_600;

/// Reads events until `done` holds; transcripts and questions are kept, errors fail.
async fn events_until(client: &mut Client, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    client.collect_until(done).await
}

fn finals(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["type"] == "transcript.final")
        .map(|e| field_str(e, "text").to_owned())
        .collect()
}

fn has_next(events: &[Value]) -> bool {
    events
        .iter()
        .any(|e| e["type"] == "question" || e["type"] == "session.completed")
}

/// Speaks `text` then keeps silent until the turn ends; returns the events up to the next
/// question or the completion.
async fn speak_answer(client: &mut Client, text: &str) -> Vec<Value> {
    stream(
        client,
        &concat(&[synthesize(text), silence(END_OF_TURN_MS)]),
    )
    .await;
    events_until(client, has_next).await
}

/// Speaks whisper.cpp's JFK sample to a new exam on `server`; checks the one final is word
/// for word, with at least three partials on the way; returns the events.
async fn jfk_word_for_word(server: &crate::harness::Server, user: &str) -> Vec<Value> {
    let mut client = Client::connect(server, Auth::bearer(user)).await;
    start_exam(&mut client, "laptop").await;
    let speech = read_wav(&model_file("jfk.wav"));
    stream(&mut client, &concat(&[speech, silence(END_OF_TURN_MS)])).await;
    let events = events_until(&mut client, has_next).await;
    let expected = "And so my fellow Americans, ask not what your country can do for you, \
                    ask what you can do for your country.";
    assert_eq!(finals(&events).len(), 1, "{events:?}");
    assert_eq!(words(&finals(&events)[0]), words(expected), "{events:?}");
    let partials = count(&events, "transcript.partial");
    assert!(
        partials >= 3,
        "11 s of speech gave {partials} partials: {events:?}"
    );
    events
}

#[tokio::test]
async fn jfk_is_transcribed_word_for_word_with_partials_on_the_way() {
    let server = voice_server(&[]).await;
    let events = jfk_word_for_word(&server, "jfk").await;
    let final_at = events.iter().position(|e| e["type"] == "transcript.final");
    let assessed_at = events.iter().position(|e| e["type"] == "assessment");
    assert!(
        final_at < assessed_at,
        "final, then its assessment: {events:?}"
    );
}

/// The same recording decoded by Moonshine (`--stt-engine moonshine`), the engine whose cost
/// follows the answer's length: the same words, and partials on the way.
#[tokio::test]
async fn moonshine_transcribes_jfk_word_for_word_too() {
    let moonshine = crate::harness::speech::models_dir().join("moonshine-tiny-en");
    let moonshine = moonshine.display().to_string();
    let args = ["--stt-engine", "moonshine", "--moonshine-model", &moonshine];
    let server = voice_server(&args).await;
    jfk_word_for_word(&server, "jfk-moonshine").await;
}

/// The practice session's seed: the items (and so the spoken numbers) are the same every
/// run. Only learning mode honours a client seed; an evaluation draws its own.
/// tiny.en mishears some festival numbers beyond repair (seed 1: "eighteen" as "A-Gene");
/// docs/benchmarks.md measures accuracy over many.
fn math_seed() -> u64 {
    std::env::var("VIVA_TEST_MATH_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(2)
}

#[tokio::test]
async fn math_practice_answered_by_voice_scores_100_and_loses_nothing() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("ada")).await;
    let config = json!({"assessment_id": "MATH-FUNDAMENTALS-L1", "thinking_pause_ms": 1000,
                        "learning": true, "seed": math_seed()});
    let start = json!({"type": "session.start", "event_id": next_event_id("s"),
                       "device_id": "d", "mode": "assessment", "config": config});
    client.send_json(start).await;
    let started = events_until(&mut client, |e| count(e, "question") > 0).await;
    let session_id = field_str(&started[0], "session_id").to_owned();
    let mut heard = Vec::new();
    let mut completed = Value::Null;
    for number in 1..=20 {
        let (answer, _) = keyed_answer(&server, &session_id, number);
        let spoken = concat(&[
            synthesize(&format!("The answer is {answer}.")),
            silence(1_600),
        ]);
        // A recording streamed at 4x: the turns are timed by samples, so they are the same.
        stream_sped_up(&mut client, &spoken, 4).await;
        let events = events_until(&mut client, |e| {
            has_next(e) || count(e, "answer.unclear") > 0
        })
        .await;
        assert_eq!(
            count(&events, "answer.unclear"),
            0,
            "item {number} ({answer}): {events:?}"
        );
        assert_eq!(finals(&events).len(), 1, "item {number}: {events:?}");
        heard.push((answer, finals(&events)[0].clone()));
        completed = events.last().cloned().expect("an event");
        if number < 20 {
            assert_eq!(field_u64(&completed, "number"), number + 1, "{events:?}");
        }
    }
    let result = &completed["result"];
    assert_eq!(completed["type"], "session.completed", "{completed}");
    assert_eq!(result["items_attempted"], 20, "{result}");
    assert_eq!(result["items_correct"], 20, "heard {heard:?}\n{result}");
    assert_eq!(result["score_percent"].as_f64(), Some(100.0), "{result}");
    let response = http_get(&server, &result_path(&session_id), Some(&token("ada"))).await;
    let audit = response.json()["audit"].as_array().cloned().expect("audit");
    let on_record: Vec<&str> = audit.iter().map(|item| field_str(item, "answer")).collect();
    let keyed: Vec<&str> = heard.iter().map(|(key, _)| key.as_str()).collect();
    assert_eq!(
        on_record, keyed,
        "every spoken answer is on record, read as said"
    );
}

#[tokio::test]
async fn short_acs_exam_answered_by_voice_is_graded() {
    let server = voice_server(&[]).await;
    // Answers of a few sentences: transcribing one on a busy machine can take longer than
    // the harness's usual wait, so only a hang fails the test.
    let mut client = Client::connect(&server, Auth::bearer("amelia"))
        .await
        .waiting(std::time::Duration::from_secs(120));
    let config = json!({"rating": "private", "tasks": [TASK], "input": "voice",
                        "thinking_pause_ms": 1500});
    let start = json!({"type": "session.start", "event_id": next_event_id("s"),
                       "device_id": "d", "mode": "exam", "config": config});
    client.send_json(start).await;
    let started = events_until(&mut client, |e| count(e, "question") > 0).await;
    let mut question = started.last().cloned().expect("question");
    let mut scores = Vec::new();
    for _ in 0..20 {
        let code = field_str(&question, "element_code").to_owned();
        let text = crate::harness::short_answer(&question);
        // A recording streamed at 4x: the turns are timed by samples, so they are the same.
        let spoken = concat(&[synthesize(&text), silence(2_000)]);
        stream_sped_up(&mut client, &spoken, 4).await;
        let events = events_until(&mut client, has_next).await;
        assert_eq!(finals(&events).len(), 1, "{code}: {events:?}");
        let assessment = events
            .iter()
            .find(|e| e["type"] == "assessment")
            .unwrap_or_else(|| panic!("{code}: an assessment in {events:?}"));
        scores.push((
            code,
            finals(&events)[0].clone(),
            assessment["score"].clone(),
        ));
        let next = events.last().cloned().expect("an event");
        if next["type"] == "session.completed" {
            let result = &next["result"];
            assert_eq!(result["outcome"], "satisfactory", "{scores:#?}\n{result}");
            let unsatisfactory = scores.iter().filter(|s| s.2 == "unsatisfactory").count();
            assert_eq!(unsatisfactory, 0, "{scores:#?}");
            return;
        }
        question = next;
    }
    panic!("the exam did not complete in 20 answers: {scores:#?}");
}

#[tokio::test]
async fn a_thinking_pause_inside_an_answer_keeps_one_turn() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("thinker")).await;
    start_exam(&mut client, "laptop").await;
    let answer = concat(&[
        synthesize("Certification requirements and recent flight experience,"),
        silence(2_500),
        synthesize("and also recordkeeping."),
        silence(END_OF_TURN_MS),
    ]);
    stream(&mut client, &answer).await;
    let events = events_until(&mut client, has_next).await;
    let heard = finals(&events);
    assert_eq!(heard.len(), 1, "one turn: {events:?}");
    let heard = words(&heard[0]);
    assert!(
        heard.contains(&"certification".to_owned()) && heard.contains(&"also".to_owned()),
        "both halves in one answer: {heard:?}"
    );
    assert_eq!(count(&events, "assessment"), 1, "{events:?}");
}

#[tokio::test]
async fn silence_beyond_the_pause_separates_two_answers() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("brief")).await;
    start_exam(&mut client, "laptop").await;
    let first = concat(&[
        synthesize("Certification requirements."),
        silence(END_OF_TURN_MS),
    ]);
    stream(&mut client, &first).await;
    let events = events_until(&mut client, has_next).await;
    assert_eq!(finals(&events).len(), 1, "{events:?}");
    let events = speak_answer(&mut client, "Privileges and limitations.").await;
    assert_eq!(
        finals(&events).len(),
        1,
        "a second, separate turn: {events:?}"
    );
    assert_eq!(count(&events, "assessment"), 1, "{events:?}");
}

#[tokio::test]
async fn a_trailing_let_me_think_earns_a_longer_pause() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("ponder")).await;
    start_exam(&mut client, "laptop").await;
    let answer = concat(&[
        synthesize("Hmm, let me think."),
        silence(4_000),
        synthesize("Certification requirements and recordkeeping."),
        silence(5_600),
    ]);
    stream(&mut client, &answer).await;
    let events = events_until(&mut client, has_next).await;
    let heard = finals(&events);
    assert_eq!(
        heard.len(),
        1,
        "the filler did not end the turn: {events:?}"
    );
    assert!(
        words(&heard[0]).contains(&"certification".to_owned()),
        "{heard:?}"
    );
}

#[tokio::test]
async fn noise_and_silence_answer_nothing() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("static")).await;
    start_exam(&mut client, "laptop").await;
    let audio = concat(&[silence(2_000), white_noise(3_000, 7), silence(4_000)]);
    stream(&mut client, &audio).await;
    let commit = next_event_id("commit");
    client
        .send_json(json!({"type": "audio.commit", "event_id": commit}))
        .await;
    // The next event is the refusal: no transcript, assessment or question came before it.
    client.expect_error("no_speech", Some(&commit)).await;
    client.assert_alive().await;
}

#[tokio::test]
async fn audio_before_session_start_is_refused_and_harmless() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("early")).await;
    stream(&mut client, &synthesize("Hello.")[..1_600]).await;
    client.expect_error("no_active_session", None).await;
    let started = start_exam(&mut client, "laptop").await;
    assert_eq!(started.question["number"], 1);
}

#[tokio::test]
async fn odd_length_audio_is_invalid_audio_and_the_turn_goes_on() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("odd")).await;
    start_exam(&mut client, "laptop").await;
    client.send_binary(vec![0u8; 3_201]).await;
    client.expect_error("invalid_audio", None).await;
    let events = speak_answer(&mut client, "Certification requirements and recordkeeping.").await;
    assert_eq!(finals(&events).len(), 1, "{events:?}");
}

/// Tutoring by voice: a spoken message is mapped to its unit (here a blocked one, so the
/// prerequisite nudge comes back), and a spoken answer to a skill drill is read as the
/// item's kind and checked — or, if tiny.en mishears it beyond reading, asked again with
/// nothing graded.
#[tokio::test]
async fn a_tutor_hears_a_spoken_message_and_a_spoken_drill_answer() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("viv")).await;
    let (started, _) = crate::harness::start_tutor(&mut client, "ARITHMETIC").await;
    let session_id = field_str(&started, "session_id").to_owned();
    let said = "How do I add three digit numbers and carry into the hundreds?";
    stream(
        &mut client,
        &concat(&[synthesize(said), silence(END_OF_TURN_MS)]),
    )
    .await;
    let events = events_until(&mut client, |e| e.iter().any(|e| e["type"] == "tutor.turn")).await;
    let turn = events
        .iter()
        .find(|e| e["type"] == "tutor.turn")
        .expect("a turn");
    assert_eq!(finals(&events).len(), 1, "{events:?}");
    assert_eq!(
        turn["target_unit"],
        "add-3digit",
        "heard {:?}: {turn}",
        finals(&events)
    );
    assert_eq!(turn["action"], "prerequisite_nudge");
    let drill =
        crate::harness::tutor_send(&mut client, json!({"type": "tutor.request_drill"})).await;
    assert_eq!(drill["action"], "drill", "{drill}");
    let checkpoint = crate::harness::stored_checkpoint(&server, &session_id);
    let key = checkpoint["tutor"]["open"]["item"]["answer"]
        .as_str()
        .expect("key")
        .to_owned();
    stream(
        &mut client,
        &concat(&[synthesize(&key), silence(END_OF_TURN_MS)]),
    )
    .await;
    let events = events_until(&mut client, |e| {
        e.iter()
            .any(|e| e["type"] == "tutor.turn" || e["type"] == "answer.unclear")
    })
    .await;
    let heard = finals(&events);
    match events.iter().find(|e| e["type"] == "tutor.turn") {
        Some(result) => {
            assert_eq!(result["action"], "drill_result", "{result}");
            let card = &result["messages"][0]["card"];
            assert_eq!(
                card["correct"], true,
                "said {key:?}, heard {heard:?}: {result}"
            );
        }
        None => assert_eq!(count(&events, "answer.unclear"), 1, "{events:?}"),
    }
}
