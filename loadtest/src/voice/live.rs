//! The phases at a microphone's pace, each on its own `viva serve`: end of speech → final
//! (push-to-talk, then the server's end of turn), and capacity (sessions at a speaking duty
//! cycle on one pinned core, stepped up until p95 passes `--capacity-stop-ms`).

use std::time::Duration;

use serde_json::{Value, json};

use super::BenchError;
use super::capacity::{self, Step};
use super::cpu::Snapshot;
use super::latency::{self, LatencyRun, TurnEnd};
use super::report::{Percentiles, minus, ms};
use super::server::Server;
use super::setup::{NO_PAUSE_MS, Setup, secs, tally_json};
use super::words::Tally;
use crate::stats::round3;

/// The latency phase: one server with `--workers` decoding threads, two sessions in turn.
pub async fn latency_phase(setup: &mut Setup) -> Result<Value, BenchError> {
    let count = setup.options.latency_clips.unwrap_or(setup.clips.len());
    let pause = Duration::from_millis(setup.options.vad_pause_ms);
    let server = Server::start(&setup.server_spec(setup.options.workers, None)).await?;
    let snapshot = Snapshot::take(Some(server.pid));
    let clips = setup.clips.clone();
    let ptt_spec = setup.session(Some(NO_PAUSE_MS));
    let sessions = (count, setup.options.latency_sessions);
    let ptt = latency::run_concurrently(
        &server.url,
        clips.clone(),
        sessions,
        TurnEnd::PushToTalk,
        ptt_spec,
    )
    .await;
    let vad_spec = setup.session(None);
    let vad_end = TurnEnd::Pause(pause);
    let vad = latency::run_concurrently(&server.url, clips, sessions, vad_end, vad_spec).await;
    let usage = snapshot.usage();
    let decodes = server.stop(setup.options.log_path("latency")).await?;
    let ptt_json = say_latency(setup, "push-to-talk", &ptt, None);
    let vad_json = say_latency(setup, "end of turn", &vad, Some(pause));
    setup.say(format!("  {}", decodes.line()));
    setup.say(format!("  {}", usage.line()));
    Ok(
        json!({"model": setup.options.server_model, "workers": setup.options.workers,
              "push_to_talk": ptt_json, "end_of_turn": vad_json,
              "server_decodes": decodes.to_json(), "server_cpu": usage.to_json()}),
    )
}

fn say_latency(setup: &mut Setup, label: &str, run: &LatencyRun, pause: Option<Duration>) -> Value {
    let latencies = run.latencies();
    let raw = Percentiles::of(&latencies);
    let mut tally = Tally::default();
    for sample in &run.samples {
        tally.add(setup.clips[sample.clip].text, &sample.text);
    }
    setup.say(format!(
        "latency {label:<13} end of speech → final {}; {} partials, {} failures, server word \
         accuracy {:.1}%",
        raw.line(),
        run.partials,
        run.failures.count,
        tally.accuracy() * 100.0
    ));
    let samples: Vec<Value> = run
        .samples
        .iter()
        .map(|s| json!({"clip": s.clip, "ms": ms(s.latency).round(), "heard": s.text}))
        .collect();
    let mut value = json!({"end_of_speech_to_final": raw.to_json(), "partials": run.partials,
                           "failures": run.failures.to_json(), "accuracy": tally_json(&tally),
                           "samples": samples});
    if let Some(pause) = pause {
        let net = Percentiles::of(&minus(&latencies, pause));
        setup.say(format!(
            "  minus the {} ms pause:           {}",
            ms(pause),
            net.line()
        ));
        value["pause_ms"] = json!(ms(pause));
        value["minus_pause"] = net.to_json();
    }
    value
}

/// The capacity phase: a fresh server pinned to one core for each step and partial share.
/// Steps go up until every share's p95 is above `--capacity-stop-ms`.
pub async fn capacity_phase(setup: &mut Setup) -> Result<Value, BenchError> {
    let workers = setup.options.capacity_workers.max(1);
    let placement = if workers == 1 {
        let pinned = pin_self(setup.options.client_core);
        format!(
            "server on core {} (--stt-workers 1), clients on core {} ({pinned})",
            setup.options.server_core, setup.options.client_core
        )
    } else {
        format!("server with --stt-workers {workers} and clients on every core, unpinned")
    };
    let shares = setup.options.partial_shares.clone();
    setup.say(format!(
        "capacity: {placement}; duty {:.0}%, {} s a step, partial shares {shares:?}",
        setup.options.duty * 100.0,
        setup.options.capacity_seconds
    ));
    let target = Duration::from_millis(setup.options.capacity_target_ms);
    let stop = Duration::from_millis(setup.options.capacity_stop_ms);
    let mut steps: Vec<Vec<Value>> = vec![Vec::new(); shares.len()];
    let mut p95s: Vec<Vec<(usize, Duration)>> = vec![Vec::new(); shares.len()];
    for sessions in capacity::steps(setup.options.capacity_max_sessions) {
        for (index, &share) in shares.iter().enumerate() {
            if p95s[index].last().is_some_and(|(_, p95)| *p95 > stop) {
                continue;
            }
            let (value, p95) = capacity_step(setup, sessions, share).await?;
            steps[index].push(value);
            p95s[index].push((sessions, p95));
        }
        if p95s
            .iter()
            .all(|p| p.last().is_some_and(|(_, p95)| *p95 > stop))
        {
            break;
        }
    }
    let mut by_share = Vec::new();
    for ((share, steps), p95s) in shares.iter().zip(steps).zip(p95s) {
        let largest = capacity::largest_within(&p95s, target);
        setup.say(format!(
            "  partial share {share}: largest session count with p95 ≤ {} ms: {}",
            target.as_millis(),
            largest.map_or("none".to_owned(), |n| n.to_string())
        ));
        by_share.push(json!({"partial_share": share, "steps": steps,
                             "largest_sessions_within_target": largest}));
    }
    Ok(
        json!({"model": setup.options.server_model, "duty": setup.options.duty,
              "step_seconds": setup.options.capacity_seconds, "placement": placement,
              "workers": workers,
              "target_p95_ms": target.as_millis() as u64, "by_partial_share": by_share}),
    )
}

async fn capacity_step(
    setup: &mut Setup,
    sessions: usize,
    share: f64,
) -> Result<(Value, Duration), BenchError> {
    let workers = setup.options.capacity_workers.max(1);
    let pin = (workers == 1).then_some(setup.options.server_core);
    let mut spec = setup.server_spec(workers, pin);
    spec.extra
        .extend(["--stt-partial-share".to_owned(), share.to_string()]);
    let server = Server::start(&spec).await?;
    let snapshot = Snapshot::take(Some(server.pid));
    let step = Step {
        sessions,
        duration: secs(setup.options.capacity_seconds),
        duty: setup.options.duty,
    };
    let session = setup.session(Some(NO_PAUSE_MS));
    let run = capacity::run(&server.url, setup.clips.clone(), step, session).await;
    let usage = snapshot.usage();
    let label = format!("capacity-{sessions}-share-{share}");
    let decodes = server.stop(setup.options.log_path(&label)).await?;
    let latency = Percentiles::of(&run.latencies);
    setup.say(format!(
        "  N={sessions:<3} share {share:<4} end of speech → final {}; {} partials, {} overruns, \
         {} failures; server {:.2} cores, other {:.2}",
        latency.line(),
        run.partials,
        run.overruns,
        run.failures.count,
        usage.server,
        usage.other
    ));
    setup.say(format!("        {}", decodes.line()));
    let value = json!({"sessions": sessions, "partial_share": share,
                       "end_of_speech_to_final": latency.to_json(),
                       "speech_seconds": round3(run.speech_seconds), "partials": run.partials,
                       "overruns": run.overruns, "failures": run.failures.to_json(),
                       "server_decodes": decodes.to_json(), "cpu": usage.to_json()});
    Ok((value, latency.p95))
}

/// Moves every thread of this process to `core` (`taskset -a -p -c`); says how it went.
fn pin_self(core: usize) -> String {
    let pid = std::process::id().to_string();
    let outcome = std::process::Command::new("taskset")
        .args(["-a", "-p", "-c", &core.to_string(), &pid])
        .output();
    match outcome {
        Ok(output) if output.status.success() => format!("pinned to core {core}"),
        Ok(output) => format!(
            "not pinned: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ),
        Err(err) => format!("not pinned: {err}"),
    }
}
