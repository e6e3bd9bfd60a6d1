//! Cases of turns, partials, commits, clears, takeovers, late replies and gaps.

use super::*;

#[test]
fn a_partial_is_due_after_a_second_of_speech_one_at_a_time() {
    check(
        &[
            Speak(1100),
            Speak(1000),
            Reply(P, Ok("the")),
            Speak(100),
            Speak(1000),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            speak 1000:
            partial "the": partial t0 "the"
            speak 100:
            speak 1000: decode partial t0 s0 3232ms
        "#,
    );
}

#[test]
fn a_commit_with_no_speech_is_refused() {
    check(
        &[Commit("v1"), Speak(100), Commit("v2")],
        r#"
            commit v1: error NoSpeech v1
            speak 100: ticker on
            commit v2: error NoSpeech v2
        "#,
    );
}

#[test]
fn a_commit_resent_while_decoded_waits_for_the_same_answer() {
    check(
        &[
            Speak(1100),
            Commit("v1"),
            Commit("v1"),
            Reply(F, Ok("forty two")),
            Commit("v1"),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            commit v1: abort partials, ticker off, decode final t0 s0 1104ms v1
            commit v1:
            final "forty two": answer t0 "forty two" v1
            commit v1: error NoSpeech v1
        "#,
    );
}

#[test]
fn a_final_with_no_words_answers_only_a_commit() {
    check(
        &[
            Speak(500),
            Commit("v1"),
            Reply(F, Ok("[BLANK_AUDIO]")),
            Speak(500),
            Quiet(3300),
            Reply(S, Ok("(silence)")),
        ],
        r#"
            speak 500: ticker on
            commit v1: abort partials, ticker off, decode final t0 s0 512ms v1
            final "[BLANK_AUDIO]": error NoSpeech v1
            speak 500: ticker on
            quiet 3300: decode speculative t1 s1 712ms, abort partials, ticker off
            speculative "(silence)":
        "#,
    );
}

#[test]
fn a_failed_final_asks_again_and_an_aborted_one_says_nothing() {
    check(
        &[
            Speak(500),
            Commit("v1"),
            Reply(F, Err(DecodeError::Failed("oom".into()))),
            Speak(500),
            Commit("v2"),
            Reply(F, Err(DecodeError::Aborted)),
        ],
        r#"
            speak 500: ticker on
            commit v1: abort partials, ticker off, decode final t0 s0 512ms v1
            final speech decoding failed: oom: error Internal v1
            speak 500: ticker on
            commit v2: abort partials, ticker off, decode final t1 s0 512ms v2
            final aborted:
        "#,
    );
}

#[test]
fn clear_forgets_the_turn_and_its_late_partial() {
    check(
        &[
            Speak(1100),
            Clear("c1"),
            Reply(P, Ok("forty")),
            Commit("v1"),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            clear c1: abort partials, ack c1
            partial "forty":
            commit v1: error NoSpeech v1
        "#,
    );
}

#[test]
fn a_takeover_drops_the_turn_and_its_pause_decode() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Quiet(300),
            TakeOver,
            Reply(S, Ok("forty two")),
            Commit("v1"),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            quiet 300: decode speculative t0 s1 1304ms
            take over: abort speculation, abort partials, ticker off
            speculative "forty two":
            commit v1: error NoSpeech v1
        "#,
    );
}

#[test]
fn a_late_reply_of_an_earlier_turn_is_ignored() {
    check(
        &[
            Speak(1100),
            Commit("v1"),
            Speak(1100),
            ReplyFirst(P, "forty"),
            Reply(F, Ok("forty two")),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            commit v1: abort partials, ticker off, decode final t0 s0 1104ms v1
            speak 1100: decode partial t1 s0 1104ms, ticker on
            first partial "forty":
            final "forty two": answer t0 "forty two" v1
        "#,
    );
}

#[test]
fn a_gap_in_the_audio_ends_the_turn() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Gap(250),
            Gap(250),
            Gap(3000),
            Gap(250),
            Reply(S, Ok("forty two")),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            gap 250:
            gap 250: decode speculative t0 s1 1104ms
            gap 3000: abort partials, ticker off
            gap 250:
            speculative "forty two": answer t0 "forty two"
        "#,
    );
}

#[test]
fn audio_arriving_after_a_gap_is_not_counted_twice() {
    check(
        &[
            Speak(1100),
            Reply(P, Ok("forty")),
            Gap(2000),
            Quiet(2000),
            Quiet(1000),
            Quiet(100),
        ],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            partial "forty": partial t0 "forty"
            gap 2000: decode speculative t0 s1 1104ms
            quiet 2000:
            quiet 1000: abort partials, ticker off
            quiet 100:
        "#,
    );
}

#[test]
fn a_refused_final_is_overloaded_and_its_commit_forgotten() {
    check(
        &[Speak(1100), Commit("v1"), Refuse(F), Commit("v1")],
        r#"
            speak 1100: decode partial t0 s0 1104ms, ticker on
            commit v1: abort partials, ticker off, decode final t0 s0 1104ms v1
            refuse final: error Overloaded v1
            commit v1: error NoSpeech v1
        "#,
    );
}

#[test]
fn audio_with_no_open_question_is_not_heard() {
    check(
        &[Speak(500), Unasked(100), Commit("v1")],
        r#"
            speak 500: ticker on
            unasked 100:
            commit v1: error NoSpeech v1
        "#,
    );
}

#[test]
fn quiet_once_nothing_spoken_is_under_way() {
    let mut run = Run::new();
    assert!(run.turns.is_quiet());
    run.step(&Speak(1100));
    assert!(!run.turns.is_quiet(), "a turn is open");
    run.step(&Commit("v1"));
    assert!(!run.turns.is_quiet(), "the commit's turn is decoded");
    let ticket = run.ticket(F, false);
    run.reply(ticket, Ok("forty two"));
    assert!(run.turns.is_quiet());
    run.turns.offer_confirming(Confirmable {
        question_id: "q1".into(),
        understood_as: "42".into(),
    });
    assert!(!run.turns.is_quiet(), "a reading waits for a yes");
    run.step(&TakeOver);
    assert!(run.turns.is_quiet(), "a takeover forgets the reading");
    assert_eq!(run.turns.take_confirming(), None);
}
