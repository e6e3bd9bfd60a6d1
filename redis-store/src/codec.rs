//! The compact encoding: one format byte, then MessagePack with field names (so optional
//! fields can be added later, as in the JSON file format). A checkpoint is split into its
//! head (everything but the transcript, rewritten at each boundary) and its turns (one list
//! item each, appended).

use serde::Serialize;
use serde::de::DeserializeOwned;
use viva_actors::checkpoint::format::TurnCheckpoint;
use viva_actors::checkpoint::{SessionCheckpoint, UserRecord};

/// The first byte of every encoded record.
pub const FORMAT_BYTE: u8 = 1;

/// Why bytes could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// Empty, or a format byte this build does not know.
    #[error("unknown format byte {0:?}")]
    Format(Option<u8>),
    /// The MessagePack body does not fit the type.
    #[error("bad body: {0}")]
    Body(#[from] rmp_serde::decode::Error),
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    let mut bytes = vec![FORMAT_BYTE];
    // ignore: encoding plain serde structs into a Vec cannot fail (no maps with non-string
    // keys, no IO).
    let _ = rmp_serde::encode::write_named(&mut bytes, value);
    bytes
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    match bytes.split_first() {
        Some((&FORMAT_BYTE, body)) => Ok(rmp_serde::from_slice(body)?),
        other => Err(DecodeError::Format(other.map(|(first, _)| *first))),
    }
}

/// The head of a checkpoint: everything but the transcript.
pub fn encode_head(checkpoint: &SessionCheckpoint) -> Vec<u8> {
    let head = SessionCheckpoint {
        transcript: Vec::new(),
        ..checkpoint.clone()
    };
    encode(&head)
}

/// One transcript turn.
pub fn encode_turn(turn: &TurnCheckpoint) -> Vec<u8> {
    encode(turn)
}

/// A checkpoint from its head and turns.
pub fn decode_checkpoint(head: &[u8], turns: &[Vec<u8>]) -> Result<SessionCheckpoint, DecodeError> {
    let mut checkpoint: SessionCheckpoint = decode(head)?;
    checkpoint.transcript = turns
        .iter()
        .map(|turn| decode(turn))
        .collect::<Result<_, _>>()?;
    Ok(checkpoint)
}

/// A user record.
pub fn encode_user(record: &UserRecord) -> Vec<u8> {
    encode(record)
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
    fn user_records_round_trip() {
        let mut record = UserRecord::new("u");
        record.version = 3;
        record.active_session = Some("s".into());
        assert_eq!(decode_user(&encode_user(&record)).unwrap(), record);
    }
}
