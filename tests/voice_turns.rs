//! Voice turns a real client can rely on, over a real socket to a server decoding festival
//! speech with tiny.en: a turn ends when the client stops sending audio, transcripts name
//! their question and turn, a resent `audio.commit` is acknowledged like any resent event,
//! a spoken item answer says what it was understood as, and one that cannot be read is asked
//! again without recording anything; the client hears of speech starting and stopping (and
//! how long the server will wait) before the final.

use serde_json::{Value, json};

use crate::harness::speech::{concat, silence, stream, synthesize, voice_server};
use crate::harness::{
    Auth, Client, count, field_str, field_u64, find, keyed_answer, next_event_id, start_exam,
};

/// Transcribing on a busy machine can take a while: only a hang fails these tests.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(120);

fn has_next(events: &[Value]) -> bool {
    events
        .iter()
        .any(|e| e["type"] == "question" || e["type"] == "session.completed")
}

fn of_type<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == kind).collect()
}

#[tokio::test]
async fn a_client_that_stops_sending_audio_still_gets_its_final() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("quiet-client"))
        .await
        .waiting(PATIENCE);
    let started = start_exam(&mut client, "laptop").await;
    let question_id = field_str(&started.question, "question_id").to_owned();
    // Speech only, as a client that sends audio while someone speaks: no trailing silence,
    // no commit. The thinking pause runs on the server's clock.
    stream(
        &mut client,
        &synthesize("Certification requirements and recordkeeping."),
    )
    .await;
    let events = client.collect_until(has_next).await;
    let finals = of_type(&events, "transcript.final");
    assert_eq!(finals.len(), 1, "{events:?}");
    assert_eq!(
        field_str(finals[0], "question_id"),
        question_id,
        "{events:?}"
    );
    let turn = field_u64(finals[0], "turn");
    for partial in of_type(&events, "transcript.partial") {
        assert_eq!(
            field_u64(partial, "turn"),
            turn,
            "a partial of the same turn"
        );
        assert_eq!(field_str(partial, "question_id"), question_id);
        assert!(
            partial.get("seq").is_none(),
            "previews carry no seq: {partial}"
        );
    }
    let assessment = find(&events, "assessment");
    assert_eq!(field_str(assessment, "question_id"), question_id);
    assert!(
        field_str(assessment, "understood_as")
            .to_lowercase()
            .contains("certification"),
        "{assessment}"
    );
}

#[tokio::test]
async fn a_resent_commit_is_acknowledged_once_its_answer_is_applied() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("resender"))
        .await
        .waiting(PATIENCE);
    start_exam(&mut client, "laptop").await;
    stream(&mut client, &synthesize("Privileges and limitations.")).await;
    let commit = next_event_id("commit");
    let frame = json!({"type": "audio.commit", "event_id": commit});
    client.send_json(frame.clone()).await;
    // Resent at once, as after a reconnect, while its turn is being transcribed.
    client.send_json(frame.clone()).await;
    let events = client.collect_until(has_next).await;
    let acks: Vec<&Value> = of_type(&events, "ack");
    assert!(
        acks.iter().any(|a| field_str(a, "event_id") == commit),
        "{events:?}"
    );
    assert_eq!(count(&events, "error"), 0, "{events:?}");
    assert_eq!(count(&events, "assessment"), 1, "answered once: {events:?}");
    // Resent again after the answer: acknowledged again, nothing else happens.
    client.send_json(frame).await;
    let ack = client.expect("ack").await;
    assert_eq!(field_str(&ack, "event_id"), commit);
    client.assert_alive().await;
}

/// Starts a learning-mode arithmetic practice with a fixed seed; returns its session id.
async fn start_practice(client: &mut Client) -> String {
    start_practice_pausing(client, 1000).await
}

async fn start_practice_pausing(client: &mut Client, thinking_pause_ms: u32) -> String {
    let config = json!({"assessment_id": "MATH-FUNDAMENTALS-L1",
                        "thinking_pause_ms": thinking_pause_ms, "learning": true, "seed": 2});
    let start = json!({"type": "session.start", "event_id": next_event_id("s"),
                       "device_id": "d", "mode": "assessment", "config": config});
    client.send_json(start).await;
    let started = client.collect_until(|e| count(e, "question") > 0).await;
    field_str(&started[0], "session_id").to_owned()
}

#[tokio::test]
async fn a_spoken_item_answer_says_what_it_was_understood_as() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("understood"))
        .await
        .waiting(PATIENCE);
    let session_id = start_practice(&mut client).await;
    let (answer, _) = keyed_answer(&server, &session_id, 1);
    let spoken = concat(&[
        synthesize(&format!("I think it's {answer}.")),
        silence(1_600),
    ]);
    stream(&mut client, &spoken).await;
    let events = client.collect_until(has_next).await;
    let assessment = find(&events, "assessment");
    assert_eq!(field_str(assessment, "understood_as"), answer, "{events:?}");
    assert_eq!(field_str(assessment, "score"), "satisfactory", "{events:?}");
}

#[tokio::test]
async fn a_spoken_answer_that_is_no_answer_is_asked_again_and_records_nothing() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("unclear"))
        .await
        .waiting(PATIENCE);
    let session_id = start_practice(&mut client).await;
    let spoken = concat(&[synthesize("Certification requirements."), silence(1_600)]);
    stream(&mut client, &spoken).await;
    let events = client
        .collect_until(|e| count(e, "answer.unclear") > 0 || has_next(e))
        .await;
    let unclear = find(&events, "answer.unclear");
    assert_eq!(field_str(unclear, "question_id"), "i1", "{events:?}");
    assert_eq!(field_str(unclear, "reason"), "not_read", "{unclear}");
    assert!(!field_str(unclear, "message").is_empty());
    assert_eq!(
        count(&events, "assessment"),
        0,
        "nothing recorded: {events:?}"
    );
    // The item is still open: its answer, said now, is judged.
    let (answer, _) = keyed_answer(&server, &session_id, 1);
    let spoken = concat(&[synthesize(&format!("{answer}.")), silence(1_600)]);
    stream(&mut client, &spoken).await;
    let events = client.collect_until(has_next).await;
    let assessment = find(&events, "assessment");
    assert_eq!(field_str(assessment, "question_id"), "i1", "{events:?}");
    assert_eq!(field_str(assessment, "score"), "satisfactory", "{events:?}");
}

/// The pause that ends a turn is used: the turn is decoded while the candidate is silent,
/// and when the pause runs out with no new speech that decode is the final, so no final
/// decode runs after the turn ends (`/metrics` counts decodes by kind).
#[tokio::test]
async fn a_turn_ended_by_its_pause_was_decoded_during_the_pause() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("speculated"))
        .await
        .waiting(PATIENCE);
    let session_id = start_practice(&mut client).await;
    let (answer, _) = keyed_answer(&server, &session_id, 1);
    let spoken = concat(&[synthesize(&format!("{answer}.")), silence(1_600)]);
    stream(&mut client, &spoken).await;
    let events = client.collect_until(has_next).await;
    let assessment = find(&events, "assessment");
    assert_eq!(field_str(assessment, "score"), "satisfactory", "{events:?}");
    let metrics = crate::harness::http_get(&server, "/metrics", None)
        .await
        .body;
    let decoded = |kind: &str| -> u64 {
        let series = format!("viva_stt_decode_seconds_count{{kind=\"{kind}\"}}");
        crate::harness::metric(&metrics, &series) as u64
    };
    assert!(decoded("speculative") >= 1, "{metrics}");
    assert_eq!(decoded("final"), 0, "no decode after the turn ended");
}

async fn whole_answer_pauses(server: &crate::harness::Server) -> u64 {
    let metrics = crate::harness::http_get(server, "/metrics", None)
        .await
        .body;
    crate::harness::metric(&metrics, "viva_whole_answer_pauses_total") as u64
}

/// Adaptive end of turn: a pause after words that read as the item's kind may end the turn
/// long before the thinking pause; a pause after words that trail off never does.
#[tokio::test]
async fn only_a_pause_after_a_whole_answer_may_end_the_turn_early() {
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("adaptive"))
        .await
        .waiting(PATIENCE);
    let session_id = start_practice_pausing(&mut client, 4_000).await;
    let trailing = concat(&[synthesize("Let me see, I think it is"), silence(1_600)]);
    stream(&mut client, &trailing).await;
    let events = client
        .collect_until(|e| count(e, "transcript.final") > 0)
        .await;
    assert!(find(&events, "transcript.final")["text"].is_string());
    assert_eq!(
        whole_answer_pauses(&server).await,
        0,
        "words that trail off are no whole answer: {events:?}"
    );
    let (answer, _) = keyed_answer(&server, &session_id, 1);
    let whole = concat(&[synthesize(&format!("{answer}.")), silence(1_600)]);
    stream(&mut client, &whole).await;
    let events = client.collect_until(has_next).await;
    assert_eq!(
        field_str(find(&events, "assessment"), "understood_as"),
        answer,
        "{events:?}"
    );
    assert_eq!(whole_answer_pauses(&server).await, 1);
}

fn position(events: &[Value], kind: &str) -> usize {
    events
        .iter()
        .position(|e| e["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {events:?}"))
}

/// The speech events: `speech.started` when the candidate begins, then `speech.stopped`
/// once the end-of-turn model (installed beside the whisper model) has judged the pause,
/// all before the turn's `transcript.final`; a whole sentence sounds complete, but by
/// default the verdict ends nothing: the server waits the thinking pause.
#[tokio::test]
async fn a_spoken_answer_is_heard_starting_and_stopping_before_its_final() {
    crate::harness::speech::model_file("smart-turn-v3.2-cpu.onnx");
    let server = voice_server(&[]).await;
    let mut client = Client::connect(&server, Auth::bearer("speech-events"))
        .await
        .waiting(PATIENCE);
    let started = start_exam(&mut client, "laptop").await;
    let question_id = field_str(&started.question, "question_id").to_owned();
    let spoken = concat(&[
        synthesize("A flight review is required every twenty four calendar months."),
        silence(3_600),
    ]);
    stream(&mut client, &spoken).await;
    let events = client
        .collect_until(|e| count(e, "transcript.final") > 0)
        .await;
    let (began, stopped) = (
        position(&events, "speech.started"),
        position(&events, "speech.stopped"),
    );
    assert!(
        began < stopped && stopped < position(&events, "transcript.final"),
        "{events:?}"
    );
    let pause = &events[stopped];
    assert_eq!(field_str(pause, "question_id"), question_id);
    assert_eq!(field_str(pause, "end_of_turn"), "complete", "{pause}");
    assert_eq!(field_u64(pause, "wait_ms"), 3_000, "{pause}");
    assert!(pause.get("seq").is_none(), "cues carry no seq: {pause}");
    let turn = field_u64(&events[began], "turn");
    assert_eq!(field_u64(pause, "turn"), turn);
    assert_eq!(field_u64(find(&events, "transcript.final"), "turn"), turn);
}

/// Without the model the pause is still told, unjudged, with the thinking pause to wait.
#[tokio::test]
async fn without_the_model_a_pause_is_told_unjudged() {
    let server = voice_server(&["--turn-model", "off"]).await;
    let mut client = Client::connect(&server, Auth::bearer("speech-events-off"))
        .await
        .waiting(PATIENCE);
    start_exam(&mut client, "laptop").await;
    let spoken = concat(&[synthesize("Privileges and limitations."), silence(3_600)]);
    stream(&mut client, &spoken).await;
    let events = client
        .collect_until(|e| count(e, "transcript.final") > 0)
        .await;
    let pause = find(&events, "speech.stopped");
    assert_eq!(field_str(pause, "end_of_turn"), "unjudged", "{pause}");
    assert_eq!(field_u64(pause, "wait_ms"), 3_000, "{pause}");
}
