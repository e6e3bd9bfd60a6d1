//! Tables of the spoken turns: each case is a script of events, and the actions each event
//! brings, one line per event. Frames are scored by loudness, so the listener is exact.
//! This file is the harness; `turns.rs` holds the cases of turns, commits and gaps, and
//! `speculation.rs` those of a pause's decode, whole answers and pool refusals, and
//! `judging.rs` those of the end-of-turn model and the speech events (shown only there).

use super::*;
use crate::voice::DecodeError;
use crate::voice::end_of_turn::EndOfTurn;
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
    /// The model's verdict on the pause judged `n`th (from 0); a complete turn ends after
    /// a 400 ms pause.
    Verdict(usize, EndOfTurn),
}

use DecodeKind::{Final as F, Partial as P, Speculative as S};
use Step::*;

struct Run {
    turns: SpokenTurns,
    now: u64,
    whole: Option<Duration>,
    submitted: Vec<Ticket>,
    judged: Vec<JudgeTicket>,
    /// Show the model's jobs and the speech events.
    speech_events: bool,
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
            judged: Vec::new(),
            speech_events: false,
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
            if let Action::Judge(judge) = action {
                self.judged.push(judge.ticket.clone());
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
            Verdict(n, verdict) => {
                let ticket = self.judged[*n].clone();
                let pause = Duration::from_millis(400);
                self.turns.judged(ticket, *verdict, Some(pause))
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

/// An action, short: `decode speculative t0 s1 1712ms`, `answer t0 "forty two" v1`; the
/// model's and the speech events only when `speech_events`.
fn show(action: &Action, speech_events: bool) -> Option<String> {
    let speech = match action {
        Action::Judge(Judge { ticket: t, audio }) => {
            assert_eq!(t.question_id.as_deref(), Q1);
            Some(format!(
                "judge t{} p{} {}ms",
                t.turn,
                t.pause,
                audio.len() / 16
            ))
        }
        Action::SpeechStarted { turn, question_id } => {
            assert_eq!(question_id.as_deref(), Q1);
            Some(format!("speech started t{turn}"))
        }
        Action::SpeechStopped {
            turn,
            wait_ms,
            end_of_turn,
            ..
        } => Some(format!(
            "speech stopped t{turn} {end_of_turn:?} wait {wait_ms}ms"
        )),
        Action::CountModelEndOfTurn => Some("count model end".into()),
        _ => None,
    };
    if let Some(line) = speech {
        return speech_events.then_some(line);
    }
    Some(match action {
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
        _ => unreachable!("shown above"),
    })
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
        Verdict(n, verdict) => format!("verdict {n} {verdict:?}"),
    }
}

/// Runs `script` and compares each event's actions with the lines of `expected`.
fn check(script: &[Step], expected: &str) {
    check_with(script, expected, false);
}

/// [`check`], showing the model's jobs and the speech events too.
fn check_judged(script: &[Step], expected: &str) {
    check_with(script, expected, true);
}

fn check_with(script: &[Step], expected: &str, speech_events: bool) {
    let mut run = Run::new();
    run.speech_events = speech_events;
    let mut lines = Vec::new();
    for step in script {
        let actions = run.step(step);
        let shown: Vec<String> = actions
            .iter()
            .filter_map(|a| show(a, speech_events))
            .collect();
        lines.push(format!("{}: {}", label(step), shown.join(", ")));
    }
    let expected: Vec<&str> = expected.trim().lines().map(str::trim).collect();
    let got: Vec<&str> = lines.iter().map(|line| line.trim()).collect();
    assert_eq!(got, expected, "\n{}", lines.join("\n"));
}

mod judging;
mod speculation;
mod turns;
