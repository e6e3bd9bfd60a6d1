//! Cases of the end-of-turn model's verdicts and the speech events.

use super::*;
use EndOfTurn::{Complete, Incomplete, Unjudged};

#[test]
fn a_complete_pause_ends_the_turn_after_the_short_pause() {
    check_judged(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Verdict(0, Complete),
            Reply(S, Ok("forty two")),
            Quiet(100),
        ],
        r#"
            speak 1100: speech started t0, decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: judge t0 p1 1304ms, decode speculative t0 s1 1304ms
            verdict 0 Complete: speech stopped t0 Complete wait 400ms, count model end
            speculative "forty two": partial t0 "forty two"
            quiet 100: abort partials, ticker off, answer t0 "forty two"
        "#,
    );
}

#[test]
fn an_incomplete_or_unjudged_pause_waits_out_the_thinking_pause() {
    for verdict in [Incomplete, Unjudged] {
        check_judged(
            &[
                Speak(1100),
                Reply(P, Ok("forty")),
                Quiet(300),
                Verdict(0, verdict),
                Reply(S, Ok("forty two")),
                Quiet(1000),
                Quiet(2000),
            ],
            &format!(
                r#"
                speak 1100: speech started t0, decode partial t0 s0 1104ms, ticker on
                partial "forty": partial t0 "forty"
                quiet 300: judge t0 p1 1304ms, decode speculative t0 s1 1304ms
                verdict 0 {verdict:?}: speech stopped t0 {verdict:?} wait 3000ms
                speculative "forty two": partial t0 "forty two"
                quiet 1000:
                quiet 2000: abort partials, ticker off, answer t0 "forty two"
                "#
            ),
        );
    }
}

#[test]
fn a_verdict_after_speech_resumed_is_stale() {
    check_judged(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Speak(500),
            Verdict(0, Complete),
            Quiet(300),
            Verdict(1, Incomplete),
        ],
        r#"
            speak 1100: speech started t0, decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: judge t0 p1 1304ms, decode speculative t0 s1 1304ms
            speak 500: speech started t0
            verdict 0 Complete:
            quiet 300: judge t0 p2 2120ms
            verdict 1 Incomplete: speech stopped t0 Incomplete wait 3000ms
        "#,
    );
}

#[test]
fn a_verdict_after_its_turn_ended_is_stale() {
    check_judged(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Commit("c1"),
            Verdict(0, Complete),
        ],
        r#"
            speak 1100: speech started t0, decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: judge t0 p1 1304ms, decode speculative t0 s1 1304ms
            commit c1: abort partials, ticker off
            verdict 0 Complete:
        "#,
    );
}

#[test]
fn a_complete_verdict_after_the_short_pause_ends_the_turn_at_once() {
    check_judged(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Reply(S, Ok("forty two")),
            Quiet(200),
            Verdict(0, Complete),
        ],
        r#"
            speak 1100: speech started t0, decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: judge t0 p1 1304ms, decode speculative t0 s1 1304ms
            speculative "forty two": partial t0 "forty two"
            quiet 200:
            verdict 0 Complete: speech stopped t0 Complete wait 400ms, count model end, abort partials, ticker off, answer t0 "forty two"
        "#,
    );
}
