//! Client frames for the protocol decoder (`decode_client_text`): valid frames of every
//! event type, frames built from the protocol's field names with values of any JSON type,
//! and character-level mutations and splices of both, up to a little past the frame limit.

use std::time::Duration;

use viva_protocol::{MAX_TEXT_FRAME_BYTES, decode_client_text};

use crate::draw::Draw;
use crate::run::{Target, excerpt};

/// One of each client event, as clients send them.
const SEEDS: &[&str] = &[
    r#"{"type":"session.start","event_id":"s1","device_id":"laptop","mode":"exam","config":{"rating":"private","study_mode":"cross_acs","difficulty":"mixed","aircraft_class":"ASEL","areas":["I","III"],"tasks":["PA.I.A"],"input":"text","thinking_pause_ms":4000}}"#,
    r#"{"type":"session.start","device_id":"d","mode":"assessment","config":{"assessment_id":"MATH-FUNDAMENTALS-L1","learning":true,"seed":7}}"#,
    r#"{"type":"session.start","device_id":"d","mode":"tutor","config":{"course_id":"ARITHMETIC"}}"#,
    r#"{"type":"session.resume","event_id":"r","device_id":"d","session_id":"10f728c4-ae1a-4054-a46c-a549d8e92ce7"}"#,
    r#"{"type":"session.pause","event_id":"p"}"#,
    r#"{"type":"session.end"}"#,
    r#"{"type":"answer.text","event_id":"a1","text":"three takeoffs and landings in 90 days"}"#,
    r#"{"type":"answer.choice","index":2}"#,
    r#"{"type":"answer.skip"}"#,
    r#"{"type":"audio.commit","event_id":"c"}"#,
    r#"{"type":"audio.clear"}"#,
    r#"{"type":"ping"}"#,
    r#"{"type":"tutor.message","text":"how do I find the network address?"}"#,
    r#"{"type":"tutor.request_drill","unit_id":"add-1digit"}"#,
    r#"{"type":"tutor.drill_check","drill_id":"d1","index":0}"#,
    r#"{"type":"tutor.drill_check","drill_id":"d1","text":"12"}"#,
    r#"{"type":"tutor.stuck"}"#,
    r#"{"type":"tutor.try_another"}"#,
    r#"{"type":"tutor.drill_continue"}"#,
    r#"{"type":"tutor.exam_submit","question_id":"q","index":1}"#,
    r#"{"type":"tutor.memo_viewed","question_id":"q"}"#,
    r#"{"type":"tutor.exam_continue"}"#,
];

/// Field names and event types a generated object draws from.
const NAMES: &[&str] = &[
    "type",
    "event_id",
    "device_id",
    "mode",
    "config",
    "session_id",
    "text",
    "index",
    "rating",
    "study_mode",
    "tasks",
    "areas",
    "input",
    "course_id",
    "assessment_id",
    "learning",
    "seed",
    "unit_id",
    "drill_id",
    "question_id",
    "thinking_pause_ms",
    "difficulty",
    "aircraft_class",
    "session.start",
    "answer.text",
    "answer.choice",
    "tutor.drill_check",
    "exam",
    "tutor",
    "",
];

/// The protocol decoder.
pub struct Frames;

impl Target for Frames {
    type Input = String;

    fn name(&self) -> &'static str {
        "protocol"
    }

    fn bound(&self) -> Duration {
        Duration::from_millis(5)
    }

    fn input(&self, draw: &mut Draw) -> String {
        let frame = match draw.below(4) {
            0 => seed(draw).to_owned(),
            1 => value(draw, 0),
            2 => {
                let seed = seed(draw).to_owned();
                mutate(draw, seed)
            }
            _ => {
                let built = value(draw, 0);
                mutate(draw, built)
            }
        };
        if draw.chance(1, 50) {
            return pad(draw, frame);
        }
        frame
    }

    fn run(&self, input: &String) {
        // ignore: a refusal is a result; only a panic or the time is looked at.
        let _ = std::hint::black_box(decode_client_text(input));
    }

    fn describe(&self, input: &String) -> String {
        excerpt(input)
    }
}

fn seed(draw: &mut Draw) -> &'static str {
    SEEDS[draw.below(SEEDS.len())]
}

/// Any JSON value, objects favouring the protocol's names; bounded in depth.
fn value(draw: &mut Draw, depth: usize) -> String {
    let kind = if depth > 4 {
        draw.below(5)
    } else {
        draw.below(7)
    };
    match kind {
        0 => "null".to_owned(),
        1 => ["true", "false"][draw.below(2)].to_owned(),
        2 => number(draw),
        3 | 4 => format!("{:?}", word(draw)),
        5 => {
            let items: Vec<String> = (0..draw.below(5)).map(|_| value(draw, depth + 1)).collect();
            format!("[{}]", items.join(","))
        }
        _ => {
            let fields: Vec<String> = (0..draw.below(6))
                .map(|_| format!("{:?}:{}", word(draw), value(draw, depth + 1)))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
    }
}

fn word(draw: &mut Draw) -> String {
    match draw.below(4) {
        0 => "x".repeat(draw.between(0, 200)),
        1 => char::from_u32(draw.between(0, 0x10FFFF) as u32)
            .unwrap_or('\u{FFFD}')
            .to_string(),
        _ => NAMES[draw.below(NAMES.len())].to_owned(),
    }
}

fn number(draw: &mut Draw) -> String {
    match draw.below(5) {
        0 => (draw.bits() as i64).to_string(),
        1 => draw.below(10).to_string(),
        2 => format!("{}e{}", draw.below(100), draw.between(0, 400)),
        3 => "-0.0000000001".to_owned(),
        _ => "1".repeat(draw.between(1, 400)),
    }
}

/// Character-level edits: delete, insert, repeat a piece, or splice another seed in.
fn mutate(draw: &mut Draw, text: String) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..draw.between(1, 8) {
        let at = draw.below(chars.len() + 1);
        match draw.below(5) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => chars.insert(
                at,
                ['{', '}', '"', '\\', ':', ',', '[', ']', '0', 'é'][draw.below(10)],
            ),
            2 => {
                let end = (at + draw.between(1, 16)).min(chars.len());
                let piece: Vec<char> = chars[at.min(end)..end].to_vec();
                for _ in 0..draw.between(1, 64) {
                    chars.splice(at..at, piece.iter().copied());
                }
            }
            3 => {
                let other: Vec<char> = seed(draw).chars().collect();
                let from = draw.below(other.len());
                chars.splice(at..at, other[from..].iter().copied());
            }
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

/// A string field stretched to around the frame limit.
fn pad(draw: &mut Draw, frame: String) -> String {
    let target = MAX_TEXT_FRAME_BYTES - 64 + draw.below(128);
    let fill = "y".repeat(target.saturating_sub(frame.len() + 16));
    format!("{{\"type\":\"answer.text\",\"text\":\"{fill}\",\"x\":{frame}}}")
}
