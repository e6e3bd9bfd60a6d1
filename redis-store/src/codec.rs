//! The compact encoding: one format byte, then MessagePack with field names (so optional
//! fields can be added later, as in the JSON file format). A checkpoint is split into its
//! head (everything but the transcript, rewritten at each boundary) and its turns (one list
//! item each, appended).
//!
//! Heads are LZ4-compressed (format byte 2): they repeat ACS element codes hundreds of times
//! (the planner queue and per-element coverage), and compression takes a full Private exam's
//! head at question 75 from 12.7 KB to a few KB for microseconds of CPU. Turns and head edits
//! are compressed only when that makes them smaller (a short turn is stored plain).

use serde::Serialize;
use serde::de::DeserializeOwned;
use viva_core::checkpoint::delta;
use viva_core::checkpoint::format::TurnCheckpoint;
use viva_core::checkpoint::{SessionCheckpoint, UserRecord};

/// The first byte of a plain record: MessagePack follows.
pub const FORMAT_BYTE: u8 = 1;
/// The first byte of a compressed record: the MessagePack's length (u32, little-endian),
/// then its LZ4 block.
pub const COMPRESSED_FORMAT_BYTE: u8 = 2;
/// Records shorter than this are never compressed (LZ4 saves nothing on them).
const SMALLEST_COMPRESSED: usize = 128;
/// The largest decompressed record accepted (a guard against a corrupt length).
pub const MAX_DECOMPRESSED: usize = 4 << 20;

/// Why bytes could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// Empty, or a format byte this build does not know.
    #[error("unknown format byte {0:?}")]
    Format(Option<u8>),
    /// The MessagePack body does not fit the type.
    #[error("bad body: {0}")]
    Body(#[from] rmp_serde::decode::Error),
    /// The compressed body is truncated, too large or not LZ4.
    #[error("bad compressed body: {0}")]
    Compressed(String),
    /// A logged head edit does not apply to the head.
    #[error("{0}")]
    Edit(delta::DeltaError),
    /// The edited head is not a checkpoint.
    #[error("edited head: {0}")]
    Edited(String),
    /// Redis's reply was not a stored session.
    #[error("{0}")]
    Reply(String),
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    let mut bytes = vec![FORMAT_BYTE];
    // ignore: encoding plain serde structs into a Vec cannot fail (no maps with non-string
    // keys, no IO).
    let _ = rmp_serde::encode::write_named(&mut bytes, value);
    bytes
}

fn encode_compressed<T: Serialize>(value: &T) -> Vec<u8> {
    compress(&encode(value))
}

/// A plain record compressed.
fn compress(plain: &[u8]) -> Vec<u8> {
    let body = &plain[1..];
    let mut bytes = vec![COMPRESSED_FORMAT_BYTE];
    bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&lz4_flex::block::compress(body));
    bytes
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    match bytes.split_first() {
        Some((&FORMAT_BYTE, body)) => Ok(rmp_serde::from_slice(body)?),
        Some((&COMPRESSED_FORMAT_BYTE, body)) => Ok(rmp_serde::from_slice(&decompress(body)?)?),
        other => Err(DecodeError::Format(other.map(|(first, _)| *first))),
    }
}

fn decompress(body: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let bad = |why: String| DecodeError::Compressed(why);
    let (length, block) = body
        .split_first_chunk::<4>()
        .ok_or_else(|| bad("no length".to_owned()))?;
    let length = u32::from_le_bytes(*length) as usize;
    if length > MAX_DECOMPRESSED {
        return Err(bad(format!("declared length {length} is too large")));
    }
    lz4_flex::block::decompress(block, length).map_err(|err| bad(err.to_string()))
}

/// The head of a checkpoint: everything but the transcript.
pub fn encode_head(checkpoint: &SessionCheckpoint) -> Vec<u8> {
    let head = checkpoint.head();
    encode_compressed(&head)
}

/// One transcript turn.
pub fn encode_turn(turn: &TurnCheckpoint) -> Vec<u8> {
    encode_smaller(turn)
}

/// `value` compressed when that makes it smaller, plain otherwise.
fn encode_smaller<T: Serialize>(value: &T) -> Vec<u8> {
    let plain = encode(value);
    if plain.len() < SMALLEST_COMPRESSED {
        return plain;
    }
    let compressed = compress(&plain);
    match compressed.len() < plain.len() {
        true => compressed,
        false => plain,
    }
}

/// Head edits ([`viva_core::checkpoint::delta`]), as one log item.
pub fn encode_edits(edits: &serde_json::Value) -> Vec<u8> {
    encode_smaller(edits)
}

/// The head as stored: the whole head with its logged edits applied.
fn decode_head(head: &[u8], edits: &[Vec<u8>]) -> Result<SessionCheckpoint, DecodeError> {
    if edits.is_empty() {
        return decode(head);
    }
    let mut tree: serde_json::Value = decode(head)?;
    for item in edits {
        let edit: serde_json::Value = decode(item)?;
        delta::apply(&mut tree, &edit).map_err(DecodeError::Edit)?;
    }
    serde_json::from_value(tree).map_err(|err| DecodeError::Edited(err.to_string()))
}

/// A checkpoint from its head, the head's logged edits and its turns.
pub fn decode_checkpoint(
    head: &[u8],
    edits: &[Vec<u8>],
    turns: &[Vec<u8>],
) -> Result<SessionCheckpoint, DecodeError> {
    let mut checkpoint = decode_head(head, edits)?;
    checkpoint.transcript = turns
        .iter()
        .map(|turn| decode(turn))
        .collect::<Result<_, _>>()?;
    Ok(checkpoint)
}

/// A user record, compressed when that makes it smaller (a review history of a few hundred
/// elements repeats its codes and field names).
pub fn encode_user(record: &UserRecord) -> Vec<u8> {
    encode_smaller(record)
}

/// A side record as stored.
pub fn encode_side(stored: &viva_core::checkpoint::StoredSide) -> Vec<u8> {
    encode_compressed(stored)
}

/// A side record as stored.
pub fn decode_side(bytes: &[u8]) -> Result<viva_core::checkpoint::StoredSide, DecodeError> {
    decode(bytes)
}

/// A user record.
pub fn decode_user(bytes: &[u8]) -> Result<UserRecord, DecodeError> {
    decode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_format_bytes_are_refused() {
        assert!(matches!(decode_user(&[]), Err(DecodeError::Format(None))));
        assert!(matches!(
            decode_user(&[9, 1]),
            Err(DecodeError::Format(Some(9)))
        ));
        assert!(matches!(
            decode_user(&[FORMAT_BYTE, 0xc1]),
            Err(DecodeError::Body(_))
        ));
    }

    #[test]
    fn compressed_records_round_trip_and_refuse_bad_lengths() {
        let mut record = UserRecord::new("u");
        for n in 0..300 {
            let code = format!("PA.I.{}.K{}", n % 26, n % 7);
            record.element_scores.insert(code, "satisfactory".into());
        }
        let compressed = encode_compressed(&record);
        assert!(
            compressed.len() * 3 < encode(&record).len(),
            "codes compress well"
        );
        assert_eq!(decode::<UserRecord>(&compressed).unwrap(), record);
        let mut huge = vec![COMPRESSED_FORMAT_BYTE];
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            decode::<UserRecord>(&huge),
            Err(DecodeError::Compressed(_))
        ));
        let truncated = &compressed[..compressed.len() - 3];
        assert!(decode::<UserRecord>(truncated).is_err());
    }

    use viva_core::checkpoint::format::AssessmentCheckpoint;

    /// The assessment part of a checkpoint as written before untimed assessments existed.
    #[derive(serde::Serialize)]
    struct OldAssessment {
        assessment_id: &'static str,
        learning: bool,
        seed: u64,
        deadline_ms: u64,
        current: Option<usize>,
        pending: Option<()>,
        items: Vec<()>,
        result: Option<()>,
    }

    #[test]
    fn assessment_deadlines_written_before_untimed_assessments_still_read() {
        let old = OldAssessment {
            assessment_id: "A",
            learning: false,
            seed: 9,
            deadline_ms: 1_700_000_060_000,
            current: None,
            pending: None,
            items: Vec::new(),
            result: None,
        };
        let read: AssessmentCheckpoint = decode(&encode(&old)).unwrap();
        assert_eq!(read.deadline_ms, Some(1_700_000_060_000));
        let untimed = AssessmentCheckpoint {
            deadline_ms: None,
            ..read
        };
        let again: AssessmentCheckpoint = decode(&encode(&untimed)).unwrap();
        assert_eq!(again, untimed);
    }

    #[test]
    fn turns_and_edits_are_compressed_only_when_that_is_smaller() {
        let mut turn = TurnCheckpoint {
            question_id: "q1".into(),
            element_code: "PA.I.A.K1".into(),
            kind: "primary".into(),
            question: "Which documents must be on board?".into(),
            answer: None,
            score: None,
            feedback: None,
            examiner: Vec::new(),
            sources: None,
            scenario: None,
        };
        assert_eq!(encode_turn(&turn)[0], FORMAT_BYTE, "short: plain");
        turn.feedback = Some("the airworthiness certificate, the registration; ".repeat(8));
        let stored = encode_turn(&turn);
        assert_eq!(stored[0], COMPRESSED_FORMAT_BYTE, "repetitive: compressed");
        assert!(stored.len() < encode(&turn).len());
        assert_eq!(decode::<TurnCheckpoint>(&stored).unwrap(), turn);
    }

    #[test]
    fn user_records_round_trip() {
        let mut record = UserRecord::new("u");
        record.version = 3;
        record.active_session = Some("s".into());
        assert_eq!(decode_user(&encode_user(&record)).unwrap(), record);
    }

    #[test]
    fn a_user_record_with_its_review_history_is_stored_compressed() {
        use viva_core::review::{ElementOutcome, Recall, merge_outcomes};
        let mut record = UserRecord::new("u");
        let outcomes: Vec<ElementOutcome> = (0..292u64)
            .map(|n| ElementOutcome {
                element: format!(
                    "PA.{}.{}.K{}",
                    ["I", "II", "III"][n as usize % 3],
                    n % 26,
                    n
                ),
                recall: Recall::Satisfactory,
                at_ms: 1_765_000_000_000 + n * 1000,
            })
            .collect();
        merge_outcomes(&mut record.element_history, &outcomes);
        let stored = encode_user(&record);
        assert_eq!(stored[0], COMPRESSED_FORMAT_BYTE);
        assert!(
            stored.len() * 2 < encode(&record).len(),
            "{} bytes",
            stored.len()
        );
        assert_eq!(decode_user(&stored).unwrap(), record);
        let plain_before = encode(&UserRecord::new("u"));
        assert_eq!(decode_user(&plain_before).unwrap(), UserRecord::new("u"));
    }
}

#[cfg(test)]
mod typed_names {
    use super::*;
    use viva_core::checkpoint::format::{Mode, PhaseName};

    /// Phase and mode are enums in the code and names on disk: the same MessagePack bytes
    /// as the strings checkpoints held before they were typed, in both directions.
    #[test]
    fn phase_and_mode_are_stored_as_the_strings_they_were() {
        let cases = [
            (
                encode(&PhaseName::AwaitingAnswer),
                encode(&"awaiting_answer"),
            ),
            (encode(&PhaseName::QuestionAsked), encode(&"question_asked")),
            (encode(&Mode::Assessment), encode(&"assessment")),
        ];
        for (typed, plain) in cases {
            assert_eq!(typed, plain);
        }
        assert_eq!(
            decode::<PhaseName>(&encode(&"paused")).unwrap(),
            PhaseName::Paused
        );
        assert_eq!(decode::<Mode>(&encode(&"exam")).unwrap(), Mode::Exam);
        assert!(decode::<PhaseName>(&encode(&"thinking")).is_err());
    }
}
