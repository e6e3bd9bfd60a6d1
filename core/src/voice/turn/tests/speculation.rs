//! Cases of a pause's decode (speculation), whole answers and pool refusals.

use super::*;

#[test]
fn a_pause_decodes_the_turn_as_it_would_end() {
    check(
        &[Speak(1100), Reply(P, Ok("forty")), Quiet(300)],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
        "#,
    );
}

#[test]
fn a_pause_waits_for_the_partial_in_flight() {
    check(
        &[Speak(1100), Quiet(300), Quiet(100), Reply(P, Ok("forty"))],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            quiet 300:
            quiet 100:
            partial "forty": partial t0 "forty", decode speculative t0 s1 1304ms
        "#,
    );
}

#[test]
fn speech_after_the_pause_makes_its_decode_a_preview() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Speak(500),
            Reply(S, Ok("forty two")),
            Quiet(300),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            speak 500:
            speculative "forty two": partial t0 "forty two"
            quiet 300: decode partial t0 s1 2224ms
        "#,
    );
}

#[test]
fn a_turn_ending_with_the_decoded_audio_answers_at_once() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Reply(S, Ok("forty two")),
            Quiet(3000),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            speculative "forty two": partial t0 "forty two"
            quiet 3000: abort partials, ticker off, answer t0 "forty two"
        "#,
    );
}

#[test]
fn a_turn_ending_while_its_audio_is_decoded_awaits_that_decode() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Quiet(3000),
            Reply(S, Ok("forty two")),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            quiet 3000: abort partials, ticker off
            speculative "forty two": answer t0 "forty two"
        "#,
    );
}

#[test]
fn an_awaited_decode_that_failed_is_decoded_again() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Quiet(3000),
            Reply(S, Err(DecodeError::Aborted)),
            Reply(F, Ok("forty two")),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            quiet 3000: abort partials, ticker off
            speculative aborted: decode final t0 s1 1304ms
            final "forty two": answer t0 "forty two"
        "#,
    );
}

#[test]
fn a_failed_pause_decode_is_decoded_again_at_the_end() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Reply(S, Err(DecodeError::Aborted)),
            Quiet(3000),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            speculative aborted:
            quiet 3000: abort partials, ticker off, decode final t0 s1 1304ms
        "#,
    );
}

#[test]
fn a_commit_during_the_pause_awaits_its_decode() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Commit("v1"),
            Reply(S, Ok("forty two")),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            commit v1: abort partials, ticker off
            speculative "forty two": answer t0 "forty two" v1
        "#,
    );
}

#[test]
fn a_turn_ending_with_other_audio_drops_the_pause_decode() {
    // The gap's pause decoded the turn without the silence that arrives late and is kept.
    check(
        &[Speak(1100), Reply(P, Ok("forty")), Gap(500), Quiet(3000)],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            gap 500: decode speculative t0 s1 1104ms
            quiet 3000: abort speculation, abort partials, ticker off, decode final t0 s1 1304ms
        "#,
    );
}

#[test]
fn a_whole_answer_ends_the_turn_after_the_short_pause() {
    check(
        &[
            Whole,
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Reply(S, Ok("forty two")),
            Quiet(800),
            Quiet(200),
        ],
        r#"
            whole:
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            speculative "forty two": partial t0 "forty two", count whole answer
            quiet 800:
            quiet 200: abort partials, ticker off, answer t0 "forty two"
        "#,
    );
}

#[test]
fn a_whole_answer_found_late_ends_the_turn_at_once() {
    check(
        &[
            Whole,
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(1500),
            Reply(S, Ok("forty two")),
        ],
        r#"
            whole:
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 1500: decode speculative t0 s1 1304ms
            speculative "forty two": partial t0 "forty two", count whole answer, abort partials, ticker off, answer t0 "forty two"
        "#,
    );
}

#[test]
fn a_refused_partial_makes_room_for_the_pause_decode() {
    check(
        &[Speak(1100), Quiet(300), Refuse(P), Speak(1000)],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            quiet 300:
            refuse partial: decode speculative t0 s1 1304ms
            speak 1000:
        "#,
    );
}

#[test]
fn a_refused_pause_decode_is_tried_again_as_audio_arrives() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            Refuse(S),
            Quiet(100),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            refuse speculative:
            quiet 100: decode speculative t0 s2 1304ms
        "#,
    );
}

#[test]
fn a_refused_awaited_pause_decode_decodes_the_final() {
    check(
        &[Speak(1100), Reply(P, Ok("forty")), Quiet(3500), Refuse(S)],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 3500: decode speculative t0 s1 1304ms, abort partials, ticker off
            refuse speculative: decode final t0 s1 1304ms
        "#,
    );
}
