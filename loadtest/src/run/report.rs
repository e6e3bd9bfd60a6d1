//! The run's report: JSON with the options, throughput, percentiles per step, errors by code
//! and the audit, a few lines for the terminal, and the thresholds that make the exit status.

use crate::stats::round3;
use serde_json::{Value, json};

use super::RunResult;
use super::options::Options;
use super::recorder::Step;

/// The JSON report.
pub fn to_json(options: &Options, result: &RunResult) -> Value {
    let seconds = result.wall.as_secs_f64().max(1e-9);
    let mut report = result.recorder.to_json();
    report["scenario"] = json!(format!("{:?}", options.scenario));
    report["options"] = json!({"urls": options.urls, "sessions": options.sessions,
        "ramp_up_s": options.ramp_up.as_secs_f64(), "duration_s": options.duration.as_secs_f64(),
        "think_time_ms": options.think_time.as_millis() as u64,
        "skip_ramp_up": options.skip_ramp_up, "every": options.every,
        "task": options.task, "assessment": options.assessment, "seed": options.seed,
        "target_rate": options.target_rate, "server_pids": options.server_pids,
        "sample_every_ms": options.sample_every.as_millis() as u64});
    report["throughput"] = json!({"wall_s": round3(seconds), "answers": result.answers,
        "exams": result.exams, "answers_per_s": round3(result.answers as f64 / seconds),
        "measured_answers_per_s": round3(measured_rate(options, result))});
    report["audit"] = json!({"acked": result.audit.acked, "lost": result.audit.lost,
        "duplicated": result.audit.duplicated, "examples": result.audit.examples});
    report["ratios_to_baseline_ping"] = ratios(result);
    report["failovers"] = json!(result.failovers);
    report["events"] = json!(result.events);
    report["timeline"] = json!(result.samples);
    report["resources"] = resources(result);
    report["failed_users"] = json!(result.failed_users);
    report["failures"] = json!(result.failures);
    report["violations"] = json!(violations(options, result));
    report
}

/// p50 and p99 of answer → next question (and of the first streamed word of it, failover
/// resumes and spoken finals, when measured) over the same quantile of the baseline ping.
fn ratios(result: &RunResult) -> Value {
    let recorder = &result.recorder;
    let mut ratios = serde_json::Map::new();
    let measured = [
        Step::AnswerToFirstWord,
        Step::AssessmentToPrimary,
        Step::AnswerToNext,
        Step::Failover,
        Step::SpeechToFinal,
    ];
    for step in measured {
        if recorder.count(step) == 0 || recorder.count(Step::Ping) == 0 {
            continue;
        }
        let over = |q: f64| {
            round3(recorder.quantile_ms(step, q) / recorder.quantile_ms(Step::Ping, q).max(1e-3))
        };
        ratios.insert(
            step.name().to_owned(),
            json!({"p50": over(0.5), "p99": over(0.99)}),
        );
    }
    Value::Object(ratios)
}

/// Answers timed per second of the measured window (after the ramp-up with
/// `--skip-ramp-up`, else the whole run).
fn measured_rate(options: &Options, result: &RunResult) -> f64 {
    let timed = result.recorder.count(Step::AnswerToNext) as f64;
    let window = if options.skip_ramp_up {
        options.duration
    } else {
        result.wall
    };
    timed / window.as_secs_f64().max(1e-9)
}

/// Peak and last RSS and mean CPU of each watched server, and of the load tester.
fn resources(result: &RunResult) -> Value {
    let mut servers: Vec<Value> = Vec::new();
    for name in super::timeline::server_names(&result.samples) {
        let of_it = || {
            result
                .samples
                .iter()
                .filter_map(|s| s.servers.iter().find(|p| p.name == name))
        };
        let rss: Vec<f64> = of_it().filter_map(|p| p.rss_mib).collect();
        let cpu: Vec<f64> = of_it().filter_map(|p| p.cpu_cores).collect();
        servers.push(
            json!({"name": name, "peak_rss_mib": rss.iter().copied().fold(0.0, f64::max),
            "last_rss_mib": rss.last(), "mean_cpu_cores": round3(mean(&cpu)),
            "peak_cpu_cores": cpu.iter().copied().fold(0.0, f64::max)}),
        );
    }
    let own: Vec<f64> = result
        .samples
        .iter()
        .map(|s| s.loadtest_cpu_cores)
        .collect();
    json!({"servers": servers, "loadtest_mean_cpu_cores": round3(mean(&own))})
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// What the terminal shows.
pub fn lines(result: &RunResult) -> Vec<String> {
    let seconds = result.wall.as_secs_f64().max(1e-9);
    let mut lines = vec![format!(
        "{} answers in {} exams over {:.1} s: {:.1} answers/s",
        result.answers,
        result.exams,
        seconds,
        result.answers as f64 / seconds
    )];
    lines.extend(result.recorder.lines());
    let errors: Vec<String> = result
        .recorder
        .errors()
        .iter()
        .map(|(code, count)| format!("{code} {count}"))
        .collect();
    lines.push(format!(
        "errors: {}",
        if errors.is_empty() {
            "none".to_owned()
        } else {
            errors.join(", ")
        }
    ));
    lines.push(format!(
        "audit: {} acked answers checked, lost {}, duplicated {}",
        result.audit.acked, result.audit.lost, result.audit.duplicated
    ));
    if result.failovers > 0 || !result.events.is_empty() {
        lines.push(format!(
            "sessions resumed on another node: {}",
            result.failovers
        ));
    }
    for event in &result.events {
        lines.push(format!("at {:.1} s: {}", event.t_s, event.what));
    }
    lines
}

/// Every threshold the run broke; the run fails when there is any. Losing or duplicating
/// an acked answer always fails.
pub fn violations(options: &Options, result: &RunResult) -> Vec<String> {
    let mut broken = Vec::new();
    if !result.audit.is_clean() {
        broken.push(format!(
            "lost {} and duplicated {} acked answers (both must be 0)",
            result.audit.lost, result.audit.duplicated
        ));
    }
    let errors: u64 = result.recorder.errors().values().sum();
    if errors > options.max_errors {
        broken.push(format!("{errors} errors (at most {})", options.max_errors));
    }
    let p99 = result.recorder.quantile_ms(Step::AnswerToNext, 0.99);
    if let Some(limit) = options.max_p99_ms.filter(|limit| p99 > *limit) {
        broken.push(format!(
            "p99 answer → next question {p99:.2} ms (at most {limit} ms)"
        ));
    }
    if result.answers == 0 {
        broken.push("no answer was acked".to_owned());
    }
    broken
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use clap::Parser;

    use super::*;
    use crate::run::options::Flags;

    fn options(args: &[&str]) -> Options {
        let mut all = vec!["viva-loadtest"];
        all.extend_from_slice(args);
        Options::resolve(Flags::parse_from(all)).unwrap()
    }

    fn result(answers: u64, answer_ms: u64) -> RunResult {
        let mut result = RunResult {
            answers,
            wall: Duration::from_secs(2),
            ..RunResult::default()
        };
        for _ in 0..answers {
            result
                .recorder
                .record(Step::AnswerToNext, Duration::from_millis(answer_ms));
        }
        result
    }

    #[test]
    fn a_clean_fast_run_breaks_nothing() {
        let options = options(&["--max-p99-ms", "25"]);
        assert!(violations(&options, &result(100, 3)).is_empty());
        let report = to_json(&options, &result(100, 3));
        assert_eq!(report["throughput"]["answers_per_s"], 50.0);
        assert_eq!(report["audit"]["lost"], 0);
    }

    #[test]
    fn slow_lossy_or_erroring_runs_break_thresholds() {
        let options = options(&["--max-p99-ms", "25"]);
        assert_eq!(violations(&options, &result(100, 40)).len(), 1, "slow");
        let mut lossy = result(10, 1);
        lossy.audit.lost = 1;
        assert_eq!(violations(&options, &lossy).len(), 1, "lost");
        let mut erroring = result(10, 1);
        erroring.recorder.error("internal");
        assert_eq!(violations(&options, &erroring).len(), 1, "errors");
        assert_eq!(
            violations(&options, &result(0, 1)).len(),
            1,
            "nothing acked"
        );
    }
}
