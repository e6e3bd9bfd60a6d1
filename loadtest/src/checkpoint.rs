//! The checkpoint workload. Every bench session starts from one template checkpoint — a real
//! one read from Redis, or [`synthetic`] — and each of its writes is what a running exam
//! stores when it asks a question: a higher version, a later `seq`, and one more transcript
//! turn, sent with `turns_from` at the last stored turn (so the store rewrites that turn and
//! appends the new one, as the server does).

use viva_core::checkpoint::SessionCheckpoint;
use viva_core::checkpoint::format::{CHECKPOINT_FORMAT, PhaseName, TurnCheckpoint};
use viva_redis_store::codec;

/// Applied event ids a synthetic checkpoint carries (the server keeps a bounded window).
pub const SYNTHETIC_EVENT_IDS: usize = 32;

/// A synthetic mid-exam checkpoint: no exam state, [`SYNTHETIC_EVENT_IDS`] UUID-sized
/// applied event ids, and `turns` answered turns.
pub fn synthetic(turns: usize) -> SessionCheckpoint {
    SessionCheckpoint {
        format: CHECKPOINT_FORMAT,
        session_id: "template".to_owned(),
        user_id: "template".to_owned(),
        version: 0,
        created_at_ms: 1_795_000_000_000,
        updated_at_ms: 1_795_000_000_000,
        paused_at_ms: None,
        thinking_pause_ms: None,
        seq: 3 * turns as u64,
        phase: PhaseName::AwaitingAnswer,
        resume_to: None,
        state: viva_core::checkpoint::ModeCheckpoint::OneQuestion(Default::default()),
        transcript: (0..turns).map(synthetic_turn).collect(),
        applied_event_ids: (0..SYNTHETIC_EVENT_IDS as u64).map(uuid_like).collect(),
    }
}

/// SplitMix64: a fixed, well-mixed sequence, so synthetic text and ids do not compress
/// better than real ones.
fn mix(n: u64) -> u64 {
    let mut z = n.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A 36-character id shaped like a random UUID.
fn uuid_like(n: u64) -> String {
    let (a, b) = (mix(2 * n), mix(2 * n + 1));
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    )
}

/// Exactly `len` bytes of words drawn from a small aviation vocabulary.
fn words(len: usize, seed: u64) -> String {
    const VOCABULARY: [&str; 16] = [
        "airspace",
        "weather",
        "the",
        "pilot",
        "must",
        "check",
        "fuel",
        "reserve",
        "class",
        "visibility",
        "clouds",
        "minimum",
        "altitude",
        "of",
        "and",
        "before",
    ];
    let mut text = String::with_capacity(len + 16);
    let mut i = seed;
    while text.len() < len {
        text.push_str(VOCABULARY[(mix(i) % 16) as usize]);
        text.push(' ');
        i += 1;
    }
    text.truncate(len);
    text
}

/// An answered turn: a 200-byte question, 150-byte answer and 100-byte feedback.
pub fn synthetic_turn(n: usize) -> TurnCheckpoint {
    let seed = 1000 * n as u64;
    TurnCheckpoint {
        question_id: uuid_like(1_000_000 + n as u64),
        element_code: format!("PA.I.A.K{}", n % 7 + 1),
        kind: "primary".to_owned(),
        question: words(200, seed),
        answer: Some(words(150, seed + 300)),
        score: Some("satisfactory".to_owned()),
        feedback: Some(words(100, seed + 600)),
        examiner: Vec::new(),
        sources: None,
        scenario: None,
    }
}

/// Turns to append in a run: the template's answered turns, or synthetic ones if it has none.
pub fn turn_pool(template: &SessionCheckpoint) -> Vec<TurnCheckpoint> {
    let answered: Vec<TurnCheckpoint> = template
        .transcript
        .iter()
        .filter(|turn| turn.answer.is_some())
        .cloned()
        .collect();
    match answered.is_empty() {
        true => (0..8).map(synthetic_turn).collect(),
        false => answered,
    }
}

/// The template as bench session `session_id` of `user_id`, before its first write.
pub fn for_session(
    template: &SessionCheckpoint,
    user_id: &str,
    session_id: &str,
) -> SessionCheckpoint {
    SessionCheckpoint {
        user_id: user_id.to_owned(),
        session_id: session_id.to_owned(),
        version: 0,
        ..template.clone()
    }
}

/// Makes `checkpoint` its next write, appending a turn from `pool`; returns `turns_from`.
pub fn advance(checkpoint: &mut SessionCheckpoint, pool: &[TurnCheckpoint]) -> usize {
    let stored = checkpoint.transcript.len();
    checkpoint.version += 1;
    checkpoint.seq += 3;
    checkpoint.updated_at_ms += 30_000;
    if let Some(turn) = pool.get(stored % pool.len().max(1)) {
        let mut turn = turn.clone();
        turn.question_id = format!("{}-{stored}", turn.question_id);
        checkpoint.transcript.push(turn);
    }
    stored.saturating_sub(1)
}

/// Bytes of a write's payload: the encoded head plus the turns from `turns_from` on.
pub fn write_bytes(checkpoint: &SessionCheckpoint, turns_from: usize) -> usize {
    let turns: usize = checkpoint.transcript[turns_from.min(checkpoint.transcript.len())..]
        .iter()
        .map(|turn| codec::encode_turn(turn).len())
        .sum();
    codec::encode_head(checkpoint).len() + turns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_rewrites_the_last_turn_and_appends_one() {
        let template = synthetic(5);
        let pool = turn_pool(&template);
        let mut checkpoint = for_session(&template, "u", "s");
        assert_eq!(advance(&mut checkpoint, &pool), 4);
        assert_eq!(checkpoint.version, 1);
        assert_eq!(checkpoint.transcript.len(), 6);
        assert_eq!(advance(&mut checkpoint, &pool), 5);
        assert_eq!(checkpoint.version, 2);
        let ids: std::collections::HashSet<_> = checkpoint
            .transcript
            .iter()
            .map(|t| &t.question_id)
            .collect();
        assert_eq!(ids.len(), 7);
    }

    #[test]
    fn synthetic_turns_have_the_intended_sizes() {
        let turn = synthetic_turn(3);
        assert_eq!(turn.question.len(), 200);
        assert_eq!(turn.answer.as_deref().map(str::len), Some(150));
        assert_eq!(turn.feedback.as_deref().map(str::len), Some(100));
        let checkpoint = synthetic(0);
        assert!(checkpoint.applied_event_ids.iter().all(|id| id.len() == 36));
        assert!(codec::encode_head(&checkpoint).len() > 32 * 36);
    }
}
