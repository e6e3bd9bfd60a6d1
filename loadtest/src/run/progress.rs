//! The progress line: every few seconds of a run (`--progress`, default 5 s when stderr is a
//! terminal), one line on stderr with the time elapsed, sessions live, answers per second
//! over the last interval, the p99 answer latency so far and the errors so far.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::timeline::{Timeline, Totals};

/// The interval when stderr is a terminal and `--progress` is not given.
pub const DEFAULT_EVERY: Duration = Duration::from_secs(5);
/// The shortest interval accepted.
pub const MIN_EVERY: Duration = Duration::from_millis(100);

/// `--progress`: an interval, or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressFlag {
    /// No progress line.
    Off,
    /// A line this often.
    Every(Duration),
}

/// Parses `--progress`: `off`, or a duration of at least [`MIN_EVERY`] such as `5s`.
pub fn parse_flag(text: &str) -> Result<ProgressFlag, String> {
    if text == "off" {
        return Ok(ProgressFlag::Off);
    }
    let every = humantime::parse_duration(text).map_err(|err| format!("{text:?}: {err}"))?;
    if every < MIN_EVERY {
        return Err(format!("at least {MIN_EVERY:?}, or off"));
    }
    Ok(ProgressFlag::Every(every))
}

/// How often to print: as `--progress` says; without it, [`DEFAULT_EVERY`] on a terminal,
/// never on a pipe or file.
pub fn interval(flag: Option<ProgressFlag>, stderr_is_terminal: bool) -> Option<Duration> {
    match flag {
        Some(ProgressFlag::Off) => None,
        Some(ProgressFlag::Every(every)) => Some(every),
        None => stderr_is_terminal.then_some(DEFAULT_EVERY),
    }
}

/// One progress line, from the totals now and at the previous line.
pub fn line(now: &Totals, before: &Totals) -> String {
    let interval = now.elapsed.saturating_sub(before.elapsed).as_secs_f64();
    let answers = now.answers.saturating_sub(before.answers) as f64;
    let rate = if interval > 0.0 {
        answers / interval
    } else {
        0.0
    };
    format!(
        "[{:>5}s] {} sessions live, {rate:.1} answers/s, p99 {} ms so far, {} errors",
        now.elapsed.as_secs(),
        now.live,
        now.p99.as_millis(),
        now.errors
    )
}

/// Prints a line on stderr every `every` until `stop` is cancelled.
pub async fn report(timeline: Arc<Timeline>, every: Duration, stop: CancellationToken) {
    let mut before = Totals::default();
    let mut ticks = tokio::time::interval(every);
    ticks.tick().await;
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = stop.cancelled() => return,
        }
        let now = timeline.totals();
        eprintln!("{}", line(&now, &before));
        before = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn totals(elapsed_s: u64, live: i64, answers: u64, p99_ms: u64, errors: u64) -> Totals {
        Totals {
            elapsed: Duration::from_secs(elapsed_s),
            live,
            answers,
            p99: Duration::from_millis(p99_ms),
            errors,
        }
    }

    #[test]
    fn a_line_shows_the_rate_over_the_last_interval_and_the_run_so_far() {
        let check = |now: Totals, before: Totals, expected: &str| {
            assert_eq!(line(&now, &before), expected, "{now:?} after {before:?}");
        };
        check(
            totals(5, 40, 100, 123, 0),
            Totals::default(),
            "[    5s] 40 sessions live, 20.0 answers/s, p99 123 ms so far, 0 errors",
        );
        check(
            totals(10, 38, 175, 140, 2),
            totals(5, 40, 100, 123, 0),
            "[   10s] 38 sessions live, 15.0 answers/s, p99 140 ms so far, 2 errors",
        );
        check(
            totals(10, 0, 175, 0, 0),
            totals(10, 0, 175, 0, 0),
            "[   10s] 0 sessions live, 0.0 answers/s, p99 0 ms so far, 0 errors",
        );
    }

    #[test]
    fn the_flag_or_the_terminal_decides_how_often() {
        let check = |flag: &str, terminal: bool, expected: Option<u64>| {
            let flag = (!flag.is_empty()).then(|| parse_flag(flag).unwrap());
            let expected = expected.map(Duration::from_millis);
            assert_eq!(interval(flag, terminal), expected, "{flag:?} {terminal}");
        };
        check("", true, Some(5_000));
        check("", false, None);
        check("2s", false, Some(2_000));
        check("500ms", true, Some(500));
        check("off", true, None);
        assert!(parse_flag("10ms").is_err());
        assert!(parse_flag("soon").is_err());
    }
}
