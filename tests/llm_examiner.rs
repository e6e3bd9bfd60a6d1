//! The LLM examiner inside a real server, against a loopback endpoint:
//! - a model that does its job streams each question as `question.delta` pieces before the
//!   `question`, its fact checks are used (merged by code with the embedded findings, the
//!   score computed in code), and every call is in the turn log (the result's transcript)
//!   and in `/metrics`;
//! - an exam whose model only ever sends garbage, or never answers, runs exactly as it does
//!   with the embedded examiner (same questions, same scores, same feedback), and a hanging
//!   model costs each answer no more than its timeout.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, Server, answer, http_get, next_event_id, result_path, run_to_completion,
    satisfactory_for, start_exam, token,
};

use viva_testkit::openai::{Behaviour, endpoint};

/// What an exam said: each question's text, and each assessment's score and feedback.
async fn exam_transcript(server: &Server, user: &str) -> Vec<(String, String, String)> {
    let mut client = Client::connect(server, Auth::bearer(user)).await;
    let started = start_exam(&mut client, "d1").await;
    let run = run_to_completion(&mut client, started.question, satisfactory_for).await;
    let text = |v: &Value, key: &str| v[key].as_str().unwrap_or_default().to_owned();
    run.questions
        .iter()
        .zip(&run.assessments)
        .map(|(q, a)| (text(q, "text"), text(a, "score"), text(a, "feedback")))
        .collect()
}

async fn server_with_llm(base_url: &str, timeout: &str) -> Server {
    Server::start_with_llm(base_url, "test", timeout).await
}

#[tokio::test]
async fn a_model_sending_garbage_changes_nothing_the_candidate_sees() {
    let embedded = Server::start().await;
    let expected = exam_transcript(&embedded, "eve").await;
    let (url, hits) = endpoint(Behaviour::Garbage).await;
    let with_llm = server_with_llm(&url, "2s").await;
    let got = exam_transcript(&with_llm, "eve").await;
    assert_eq!(
        got, expected,
        "the fallback is the embedded examiner's exact result"
    );
    let asked = hits.count();
    assert!(
        asked >= 2 * expected.len(),
        "each question and answer went to the model once: {asked}"
    );
}

#[tokio::test]
async fn a_hanging_model_costs_each_step_its_timeout_and_no_more() {
    let (url, hits) = endpoint(Behaviour::Hangs).await;
    let server = server_with_llm(&url, "300ms").await;
    let began = Instant::now();
    let transcript = exam_transcript(&server, "hal").await;
    let calls = hits.count();
    assert!(!transcript.is_empty());
    // Every call waits out its 300 ms once, then falls back; nothing waits longer.
    let ceiling = Duration::from_millis(300) * calls as u32 + Duration::from_secs(10);
    assert!(
        began.elapsed() < ceiling,
        "{:?} for {calls} calls",
        began.elapsed()
    );
}

const GOOD_QUESTION: &str =
    "Let's turn to your documents. Which ones must you carry as pilot in command?";
const GOOD_VERDICT: &str = r#"{"score": "satisfactory", "feedback": "Clear and complete.",
    "mentioned_elements": [], "source_summary": "14 CFR 61.3", "follow_up": null}"#;

#[tokio::test]
async fn a_working_model_streams_its_questions_and_logs_every_call() {
    let behaviour = Behaviour::Examines {
        question: GOOD_QUESTION,
        verdict: GOOD_VERDICT,
        assess_delay: Duration::ZERO,
    };
    let (url, hits) = endpoint(behaviour).await;
    let server = server_with_llm(&url, "5s").await;
    let mut client = Client::connect(&server, Auth::bearer("una")).await;
    let started = start_exam(&mut client, "d1").await;
    assert_eq!(started.question["text"], GOOD_QUESTION);

    // A long answer: a short one that states nothing wrong would be drawn out with a
    // follow-up instead of scored at once (docs/rubrics.md, "Probes").
    let answered = answer(
        &mut client,
        "My pilot certificate, my medical and a photo ID, which I always carry with me in my \
         flight bag whenever I go flying anywhere at all.",
    )
    .await;
    // Rubric elements: the feedback and the sources are the judge's, from the facts.
    let sources = answered.assessment["source_summary"].as_str().unwrap_or("");
    assert!(
        sources.starts_with("Study: 14 CFR 61."),
        "{}",
        answered.assessment
    );
    let next = answered.question();
    assert_eq!(next["text"], GOOD_QUESTION);
    // The code judged that answer unsatisfactory, so a bonus question came instead of the
    // primary one phrased ahead: phrased now, it streams.
    assert_eq!(next["kind"], "bonus");
    let deltas: Vec<&Value> = answered
        .events
        .iter()
        .filter(|event| event["type"] == "question.delta")
        .collect();
    assert!(deltas.len() > 1, "{:?}", answered.events);
    let written: String = deltas
        .iter()
        .map(|d| d["text"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(written, GOOD_QUESTION);
    for delta in &deltas {
        assert_eq!(delta["question_id"], next["question_id"], "{delta}");
        assert!(delta.get("seq").is_none(), "a preview has no seq: {delta}");
    }
    let question_at = answered.events.iter().position(|e| e["type"] == "question");
    let last_delta_at = answered
        .events
        .iter()
        .rposition(|e| e["type"] == "question.delta");
    assert!(last_delta_at < question_at, "{:?}", answered.events);

    let run = run_to_completion(&mut client, next, satisfactory_for).await;
    assert!(
        run.assessments.iter().all(|a| a["score"] == "satisfactory"),
        "{:?}",
        run.assessments
    );
    let path = result_path(&started.session_id);
    let result = http_get(&server, &path, Some(&token("una"))).await.json();
    let transcript = result["transcript"].as_array().cloned().unwrap_or_default();
    assert!(!transcript.is_empty(), "{result}");
    for turn in &transcript {
        let calls: Vec<&str> = turn["examiner"]
            .as_array()
            .map(|calls| {
                calls
                    .iter()
                    .map(|c| c["call"].as_str().unwrap_or(""))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(calls, ["phrase", "assess"], "{turn}");
        for call in turn["examiner"].as_array().into_iter().flatten() {
            assert_eq!(call["outcome"], "used", "{call}");
            assert_eq!(call["model"], "test", "{call}");
            assert_eq!(
                call["prompt_hash"].as_str().map(str::len),
                Some(16),
                "{call}"
            );
            assert_eq!(call["prompt_tokens"], 12, "{call}");
        }
    }
    // Each question after the first was phrased while its answer was being given; the one
    // a bonus took the place of (the first answer was unsatisfactory) was phrased again.
    let metrics = http_get(&server, "/metrics", None).await.body;
    let (held, missed) = (
        speculations(&metrics, "held"),
        speculations(&metrics, "missed"),
    );
    assert!(held >= 1, "{metrics}");
    assert_eq!(held + missed, transcript.len() - 1, "{metrics}");
    assert_eq!(hits.count(), 2 * transcript.len() + missed);
    let used = |call: &str, count: usize| {
        format!("viva_llm_calls_total{{call=\"{call}\",outcome=\"used\"}} {count}\n")
    };
    assert!(
        metrics.contains(&used("phrase", transcript.len() + missed)),
        "{metrics}"
    );
    assert!(
        metrics.contains(&used("assess", transcript.len())),
        "{metrics}"
    );
    let phrasings = transcript.len() + missed;
    let first_tokens = format!("viva_llm_first_token_seconds_count {phrasings}\n");
    assert!(metrics.contains(&first_tokens), "{metrics}");
}

#[tokio::test]
async fn fallbacks_are_in_the_turn_log_and_metrics_with_their_reason() {
    let (url, _) = endpoint(Behaviour::Garbage).await;
    let server = server_with_llm(&url, "2s").await;
    let mut client = Client::connect(&server, Auth::bearer("fay")).await;
    let started = start_exam(&mut client, "d1").await;
    let answered = answer(&mut client, &satisfactory_for(&started.question)).await;
    let path = result_path(&started.session_id);
    // The result is the owner's once completed; the metrics show the fallbacks at once.
    let metrics = http_get(&server, "/metrics", None).await.body;
    // A phrasing, an assessment and the next phrasing at least; the next questions may
    // already be being phrased ahead, and fall back the same way.
    let endpoint = metric(&metrics, "viva_llm_fallbacks_total{reason=\"endpoint\"}");
    assert!(endpoint >= 3, "{metrics}");
    assert!(
        metrics.contains("viva_llm_calls_total{call=\"assess\",outcome=\"fallback\"} 1\n"),
        "{metrics}"
    );
    let used = metric(
        &metrics,
        "viva_llm_calls_total{call=\"phrase\",outcome=\"used\"}",
    );
    assert_eq!(used, 0, "{metrics}");
    let run = run_to_completion(&mut client, answered.question(), satisfactory_for).await;
    assert!(!run.assessments.is_empty());
    let result = http_get(&server, &path, Some(&token("fay"))).await.json();
    let first = &result["transcript"][0]["examiner"];
    assert_eq!(first[0]["outcome"], "fallback", "{result}");
    assert_eq!(first[0]["fallback_reason"], "endpoint", "{result}");
    assert_eq!(first[1]["call"], "assess", "{result}");
}

#[tokio::test]
async fn a_takeover_is_not_kept_waiting_behind_a_slow_model() {
    let behaviour = Behaviour::Examines {
        question: GOOD_QUESTION,
        verdict: GOOD_VERDICT,
        assess_delay: Duration::from_secs(3),
    };
    let (url, model) = endpoint(behaviour).await;
    let server = server_with_llm(&url, "8s").await;
    let mut first = Client::connect(&server, Auth::bearer("tao"))
        .await
        .named("first");
    start_exam(&mut first, "d1").await;
    let event_id = next_event_id("answer");
    let frame = json!({"type": "answer.text", "event_id": event_id, "text": "My certificate."});
    first.send_json(frame).await;
    let ack = first.expect("ack").await;
    assert_eq!(ack["event_id"], event_id.as_str());
    // The device is told the answer is being judged.
    let assessing = first.expect("answer.assessing").await;
    assert_eq!(assessing["question_id"], "q1", "{assessing}");

    // The model is still assessing that answer when another device takes the session.
    let mut second = Client::connect(&server, Auth::bearer("tao"))
        .await
        .named("second");
    let frame = json!({"type": "session.resume", "event_id": "r1", "device_id": "d2"});
    second.send_json(frame).await;
    let resumed = second.expect("session.resumed").await;
    assert_eq!(
        model.answered(),
        2,
        "the first question and the next, phrased ahead, but not the assessment: {resumed}"
    );
    let paused = first.expect("session.paused").await;
    assert_eq!(paused["reason"], "other_device");

    // The verdict, when it comes, goes to the device that holds the session now.
    let events = second
        .collect_until(|events| {
            events
                .iter()
                .any(|e| e["type"] == "question" && e["number"] == 2)
        })
        .await;
    let assessment = events.iter().position(|e| e["type"] == "assessment");
    let assessment = assessment.unwrap_or_else(|| panic!("no assessment: {events:?}"));
    // The device that took over is told the answer is being judged, before the verdict.
    let assessing = events.iter().position(|e| e["type"] == "answer.assessing");
    assert!(assessing.is_some_and(|at| at < assessment), "{events:?}");
    let assessment = &events[assessment];
    assert_eq!(assessment["question_id"], "q1");
    assert!(
        assessment["feedback"]
            .as_str()
            .is_some_and(|f| !f.is_empty()),
        "{assessment}"
    );
    // The takeover asked for nothing twice: one assessment, and each question phrased once
    // (ahead of time or when it came).
    let metrics = http_get(&server, "/metrics", None).await.body;
    assert!(
        metrics.contains("viva_llm_calls_total{call=\"assess\",outcome=\"used\"} 1\n"),
        "{metrics}"
    );
    let offered = speculations(&metrics, "held") + speculations(&metrics, "missed");
    assert_eq!(offered, 1, "question 2 was phrased ahead once: {metrics}");
}

/// `viva_question_speculations_total` for `outcome`.
fn speculations(metrics: &str, outcome: &str) -> usize {
    metric(
        metrics,
        &format!("viva_question_speculations_total{{outcome=\"{outcome}\"}}"),
    )
}

/// The value of the series `name` (with its labels), 0 when absent.
fn metric(metrics: &str, name: &str) -> usize {
    crate::harness::metric(metrics, name) as usize
}
