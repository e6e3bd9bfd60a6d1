//! The model tutor's latency and fallback rate over a scripted tutoring session, against a
//! running OpenAI-compatible server (`scripts/bench-tutor` starts llama-server and runs
//! this).
//!
//! The script is TURNS student messages on the arithmetic course, in turn a question about
//! the focus unit, a confusion, a request for an example, and a question about another
//! unit; after every message the session moves on as a session would (the model's proposal,
//! where it held to the policy, else the brain's turn; every third turn a drill answered
//! right). Measured per message: the time to the first tutor word streamed (the first
//! `tutor.delta` a client would get), the model call's whole latency, and what came of it —
//! used, or the reason it fell back. The same-run baseline is a one-token completion of a short
//! prompt on the same server, sampled between turns; the report gives ratios to its median.
//!
//! Usage: `tutor_bench URL MODEL [TURNS] [TIMEOUT_SECS]`; prints one JSON report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)] // a bench tool

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::json;
use viva_core::examiner::no_deltas;
use viva_core::modes::assessment::AnswerInput;
use viva_core::tutor::brain::{OpenCard, Tutor, TutorInput, TutorState, model_request, take_turn};
use viva_core::tutor::drawn::DrillQuestion;
use viva_core::tutor::library::TutorSettings;
use viva_core::tutor::model::TutorModel;
use viva_core::tutor::snapshot::StudentSnapshot;
use viva_llm::prompts::Prompts;
use viva_llm::provider::Provider;
use viva_llm::tutor::LlmTutor;

const MESSAGES: [&str; 8] = [
    "how do I add 8 and 5 in my head?",
    "I don't get why we make ten first",
    "can you show me another example?",
    "what about taking away, like 13 minus 7?",
    "is 9 + 6 the same as 10 + 5?",
    "I keep getting these wrong, what am I missing",
    "what should I practise next",
    "how does multiplying by 10 work",
];

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn summary(mut values: Vec<f64>) -> serde_json::Value {
    if values.is_empty() {
        return json!(null);
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    json!({"n": values.len(), "p50": at(0.5), "p95": at(0.95), "max": at(1.0)})
}

async fn baseline_ms(provider: &Provider) -> f64 {
    let began = Instant::now();
    if let Err(err) = provider
        .complete("You answer with one word.", "Say yes.", None)
        .await
    {
        eprintln!("baseline call failed: {err}");
    }
    millis(began.elapsed())
}

/// Answers the open skill drill right, as the session would grade it.
fn answer_drill(tutor: Tutor<'_>, state: &mut TutorState, now: u64) {
    if take_turn(tutor, state, TutorInput::RequestDrill(None), now).is_err() {
        return;
    }
    if let Some(OpenCard::Drill {
        question: DrillQuestion::Skill(item),
        ..
    }) = &state.open
    {
        let answer = AnswerInput::Choice(item.answer_index as u32);
        let check = TutorInput::DrillCheck {
            drill_id: None,
            answer,
        };
        let _ = take_turn(tutor, state, check, now);
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args.get(1).expect("URL").clone();
    let model = args.get(2).expect("MODEL").clone();
    let turns: usize = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(50);
    let timeout = Duration::from_secs(args.get(4).and_then(|t| t.parse().ok()).unwrap_or(30));
    let courses = viva_testkit::courses::load(TutorSettings::default());
    let (course, _) = courses.tutor.course("ARITHMETIC").expect("the course");
    let grounding = courses
        .tutor
        .grounding("ARITHMETIC")
        .expect("its grounding");
    let llm = LlmTutor::new(
        common::provider(&url, &model, timeout, 256),
        Prompts::load(None).unwrap(),
    );
    let baseline = common::provider(&url, &model, timeout, 1);
    let snapshot = StudentSnapshot::cold_start("bench", "ARITHMETIC", &course.doc.entry_unit);
    let mut state = TutorState::new(snapshot, 7);
    let embedded = courses.embedded_tutor("ARITHMETIC").expect("the course");
    let now = 1_700_000_000_000;
    let (mut pings, mut latencies, mut outcomes) = (Vec::new(), Vec::new(), BTreeMap::new());
    let (mut first_words, mut per_turn) = (Vec::new(), Vec::new());
    let mut brain_refused = 0;
    for turn in 0..turns {
        pings.push(baseline_ms(&baseline).await);
        let message = MESSAGES[turn % MESSAGES.len()];
        let request = model_request(embedded, &state, grounding, message, now);
        let answer = llm.propose(&request, &no_deltas).await;
        if let Some(call) = &answer.call {
            latencies.push(call.latency_ms as f64);
            if let Some(first) = call.first_token_ms {
                first_words.push(first as f64);
            }
            let outcome = call
                .fallback_reason
                .clone()
                .unwrap_or_else(|| "used".to_owned());
            per_turn.push(json!({"message": message, "outcome": outcome,
                "first_word_ms": call.first_token_ms, "turn_ms": call.latency_ms,
                "prompt_tokens": call.prompt_tokens, "completion_tokens": call.completion_tokens}));
            *outcomes.entry(outcome).or_insert(0u32) += 1;
        }
        let tutor = Tutor {
            model: answer.value.as_ref().ok(),
            ..embedded
        };
        let done = take_turn(
            tutor,
            &mut state,
            TutorInput::Message(message.to_owned()),
            now,
        );
        if answer.value.is_ok() && done.as_ref().is_ok_and(|t| t.fallback.is_some()) {
            brain_refused += 1;
        }
        if turn % 3 == 2 {
            answer_drill(embedded, &mut state, now);
        }
    }
    let ping = summary(pings);
    let base = ping["p50"].as_f64().unwrap_or(1.0).max(1e-9);
    let latency = summary(latencies);
    let streamed = first_words.len();
    let first_word = summary(first_words);
    let used = outcomes.get("used").copied().unwrap_or(0);
    let report = json!({
        "model": model,
        "turns": turns,
        "baseline_one_token_ms": ping,
        "turn_ms": latency,
        "turn_p50_over_baseline": latency["p50"].as_f64().map(|v| (v / base * 10.0).round() / 10.0),
        "first_word_ms": first_word,
        "first_word_p50_over_baseline": first_word["p50"].as_f64().map(|v| (v / base * 10.0).round() / 10.0),
        "turns_streamed": streamed,
        "outcomes": outcomes,
        "used_rate": used as f64 / turns.max(1) as f64,
        "used_then_refused_by_the_brain": brain_refused,
        "per_turn": per_turn,
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
}
