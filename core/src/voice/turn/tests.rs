//! Tables of the spoken turns: each case is a script of events, and the actions each event
//! brings, one line per event. Frames are scored by loudness, so the listener is exact.

use super::*;
use crate::voice::DecodeError;
use crate::voice::listener::{FRAME, FrameScorer};

/// Loud frames are speech, quiet ones silence.
struct Loudness;

impl FrameScorer for Loudness {
    fn score(&mut self, frame: &[i16]) -> f32 {
        let loud = frame.iter().any(|s| s.unsigned_abs() > 500);
        if loud { 1.0 } else { 0.0 }
    }

    fn reset(&mut self) {}
}

/// One event of a script. Audio is for the open question `q1`, from connection 1.
enum Step {
    /// This long of speech arrives, in one message; time moves on by its length.
    Speak(u64),
    /// This long of silent audio arrives.
    Quiet(u64),
    /// Audio arrives while no question is open.
    Unasked(u64),
    /// No audio arrives for this long; the ticker ticks every [`TICK`].
    Gap(u64),
    /// `audio.commit` with this event id.
    Commit(&'static str),
    /// `audio.clear` with this event id.
    Clear(&'static str),
    /// Another device takes the session over.
    TakeOver,
    /// The decode last submitted of this kind replies.
    Reply(DecodeKind, Result<&'static str, DecodeError>),
    /// The first decode submitted of this kind replies.
    ReplyFirst(DecodeKind, &'static str),
    /// The pool refuses the decode last submitted of this kind.
    Refuse(DecodeKind),
    /// From now on, every pause's transcript reads as a whole answer (1.2 s pause).
    Whole,
}

use DecodeKind::{Final as F, Partial as P, Speculative as S};
use Step::*;

struct Run {
    turns: SpokenTurns,
    now: u64,
    whole: Option<Duration>,
    submitted: Vec<Ticket>,
}

const Q1: Option<&str> = Some("q1");

fn q1() -> Option<String> {
    Q1.map(str::to_owned)
}

impl Run {
    fn new() -> Run {
        Run {
            turns: SpokenTurns::new(Listener::with_scorer(Box::new(Loudness))),
            now: 1_000,
            whole: None,
            submitted: Vec::new(),
        }
    }

    fn audio(&mut self, samples: Vec<i16>, asked: bool) -> Vec<Action> {
        self.now += samples.len() as u64 / 16;
        self.turns.audio(Frames {
            connection_id: 1,
            samples,
            now_ms: self.now,
            thinking_pause: asked.then_some(Duration::from_secs(3)),
            question_id: q1(),
        })
    }

    fn ticket(&self, kind: DecodeKind, first: bool) -> Ticket {
        let mut of_kind = self.submitted.iter().filter(|t| t.kind == kind);
        let ticket = match first {
            true => of_kind.next(),
            false => of_kind.next_back(),
        };
        ticket.expect("a decode of that kind was submitted").clone()
    }

    fn reply(&mut self, ticket: Ticket, result: Result<&str, DecodeError>) -> Vec<Action> {
        let result = result.map(str::to_owned);
        let whole = self.whole;
        let reply = Decoded { ticket, result };
        self.turns.decoded(reply, q1(), |_| whole)
    }

    /// Runs one step, noting the decodes it submits.
    fn step(&mut self, step: &Step) -> Vec<Action> {
        let actions = self.actions(step);
        for action in &actions {
            if let Action::Decode(decode) = action {
                self.submitted.push(decode.ticket.clone());
            }
        }
        actions
    }

    fn actions(&mut self, step: &Step) -> Vec<Action> {
        match step {
            Speak(ms) => self.audio(speech(*ms), true),
            Quiet(ms) => self.audio(silence(*ms), true),
            Unasked(ms) => self.audio(speech(*ms), false),
            Gap(ms) => {
                let mut actions = Vec::new();
                for _ in 0..ms / TICK.as_millis() as u64 {
                    self.now += TICK.as_millis() as u64;
                    actions.extend(self.turns.tick(self.now, q1()));
                }
                actions
            }
            Commit(id) => self.turns.commit(1, Some((*id).to_owned()), q1()),
            Clear(id) => self.turns.clear(Some((*id).to_owned())),
            TakeOver => self.turns.take_over(),
            Reply(kind, result) => self.reply(self.ticket(*kind, false), result.clone()),
            ReplyFirst(kind, text) => self.reply(self.ticket(*kind, true), Ok(text)),
            Refuse(kind) => self.turns.refused(self.ticket(*kind, false), q1()),
            Whole => {
                self.whole = Some(Duration::from_millis(1200));
                Vec::new()
            }
        }
    }
}

/// Samples for `ms` of audio, in whole frames (so no frame mixes speech and silence).
fn samples(ms: u64) -> usize {
    (ms as usize * 16).div_ceil(FRAME) * FRAME
}

fn speech(ms: u64) -> Vec<i16> {
    (0..samples(ms))
        .map(|i| if i % 2 == 0 { 3000 } else { -3000 })
        .collect()
}

fn silence(ms: u64) -> Vec<i16> {
    vec![0; samples(ms)]
}

fn kind(kind: DecodeKind) -> &'static str {
    match kind {
        DecodeKind::Partial => "partial",
        DecodeKind::Speculative => "speculative",
        DecodeKind::Final => "final",
    }
}

fn event(event_id: &Option<String>) -> String {
    event_id
        .as_ref()
        .map(|id| format!(" {id}"))
        .unwrap_or_default()
}

/// An action, short: `decode speculative t0 s1 1712ms`, `answer t0 "forty two" v1`.
fn show(action: &Action) -> String {
    match action {
        Action::Decode(Decode { ticket: t, audio }) => {
            assert_eq!(t.question_id.as_deref(), Q1);
            let (k, ms, e) = (kind(t.kind), audio.len() / 16, event(&t.event_id));
            format!("decode {k} t{} s{} {ms}ms{e}", t.turn, t.speculation)
        }
        Action::AbortPartials => "abort partials".into(),
        Action::AbortSpeculation => "abort speculation".into(),
        Action::Partial { turn, text, .. } => format!("partial t{turn} {text:?}"),
        Action::Answer(last) => {
            assert_eq!(last.question_id.as_deref(), Q1);
            let e = event(&last.event_id);
            format!("answer t{} {:?}{e}", last.turn, last.text)
        }
        Action::Error { code, event_id, .. } => format!("error {code:?}{}", event(event_id)),
        Action::Ack(event_id) => format!("ack{}", event(event_id)),
        Action::StartTicker => "ticker on".into(),
        Action::StopTicker => "ticker off".into(),
        Action::CountWholeAnswerPause => "count whole answer".into(),
    }
}

fn label(step: &Step) -> String {
    match step {
        Speak(ms) => format!("speak {ms}"),
        Quiet(ms) => format!("quiet {ms}"),
        Unasked(ms) => format!("unasked {ms}"),
        Gap(ms) => format!("gap {ms}"),
        Commit(id) => format!("commit {id}"),
        Clear(id) => format!("clear {id}"),
        TakeOver => "take over".into(),
        Reply(k, Ok(text)) => format!("{} {text:?}", kind(*k)),
        Reply(k, Err(err)) => format!("{} {err}", kind(*k)),
        ReplyFirst(k, text) => format!("first {} {text:?}", kind(*k)),
        Refuse(k) => format!("refuse {}", kind(*k)),
        Whole => "whole".into(),
    }
}

/// Runs `script` and compares each event's actions with the lines of `expected`.
fn check(script: &[Step], expected: &str) {
    let mut run = Run::new();
    let mut lines = Vec::new();
    for step in script {
        let actions = run.step(step);
        let shown: Vec<String> = actions.iter().map(show).collect();
        lines.push(format!("{}: {}", label(step), shown.join(", ")));
    }
    let expected: Vec<&str> = expected.trim().lines().map(str::trim).collect();
    let got: Vec<&str> = lines.iter().map(|line| line.trim()).collect();
    assert_eq!(got, expected, "\n{}", lines.join("\n"));
}

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
