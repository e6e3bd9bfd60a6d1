//! Session checkpoints on disk, stored as Redis stores them: a head rewritten at each write
//! (`<id>.json`: everything but the transcript, and how much of the turn log is its own)
//! and the turn log appended (`<id>.turns`: one JSON line per turn written, `{"i":n,"turn":…}`;
//! a turn written again, its answer then its assessment, is a later line with the same `i`).
//! A write's cost so does not grow with the session's length.
//!
//! Crash safety: the turns are appended and fsynced first, then the head is replaced
//! atomically. A head names the byte length of the turn log it covers; anything after that
//! (a write torn by a crash, or turns whose head never landed) is ignored on reading and cut
//! off at the next write. Heads written before the turn log was kept apart hold the whole
//! transcript and are read as they are.

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use viva_core::checkpoint::StoreError;
use viva_core::checkpoint::format::{SessionCheckpoint, TurnCheckpoint};

use crate::files::{unavailable, write_atomically};

/// How much of the turn log a head covers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnLog {
    /// Turns in the transcript.
    pub count: usize,
    /// Bytes of the turn log file that hold them.
    pub bytes: u64,
}

/// A head as stored: the checkpoint without its transcript, and its turn log's extent
/// (absent in heads that hold the transcript themselves).
#[derive(Debug, Serialize, Deserialize)]
struct StoredHead {
    #[serde(flatten)]
    checkpoint: SessionCheckpoint,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn_log: Option<TurnLog>,
}

/// Only the turn log's extent of a head (the rest is skipped).
#[derive(Debug, Deserialize)]
struct HeadExtent {
    #[serde(default)]
    turn_log: Option<TurnLog>,
}

#[derive(Debug, Deserialize)]
struct TurnLine {
    i: usize,
    turn: TurnCheckpoint,
}

#[derive(Debug, Serialize)]
struct TurnLineRef<'a> {
    i: usize,
    turn: &'a TurnCheckpoint,
}

/// The turn log beside the head at `head`.
pub fn turns_path(head: &Path) -> PathBuf {
    head.with_extension("turns")
}

/// A write ready for the disk: the head, and the turn-log lines to append.
#[derive(Debug)]
pub struct Encoded {
    head: SessionCheckpoint,
    count: usize,
    lines: Vec<u8>,
}

/// Encodes `checkpoint`'s head and its turns from `from` on, one line each.
pub fn encode(checkpoint: &SessionCheckpoint, from: usize) -> Result<Encoded, StoreError> {
    let mut lines = Vec::new();
    for (i, turn) in checkpoint.transcript.iter().enumerate().skip(from) {
        let line = TurnLineRef { i, turn };
        serde_json::to_writer(&mut lines, &line).map_err(|err| encoding(&err))?;
        lines.push(b'\n');
    }
    Ok(Encoded {
        head: checkpoint.head(),
        count: checkpoint.transcript.len(),
        lines,
    })
}

/// Appends `encoded`'s turns after the first `valid` bytes of the turn log (cutting anything
/// after them), fsyncs, then replaces the head.
pub fn store(head: &Path, valid: u64, encoded: Encoded) -> Result<(), StoreError> {
    let bytes = append_lines(&turns_path(head), valid, &encoded.lines)?;
    let record = StoredHead {
        checkpoint: encoded.head,
        turn_log: Some(TurnLog {
            count: encoded.count,
            bytes,
        }),
    };
    let json = serde_json::to_vec(&record).map_err(|err| encoding(&err))?;
    write_atomically(head, &json)
}

/// [`encode`] and [`store`] in one, from `turns_from` (or from the first turn the stored
/// head does not cover).
#[cfg(test)]
fn write_session(
    head: &Path,
    checkpoint: &SessionCheckpoint,
    turns_from: usize,
) -> Result<(), StoreError> {
    let stored = stored_extent(head)?;
    let encoded = encode(checkpoint, turns_from.min(stored.count))?;
    store(head, stored.bytes, encoded)
}

/// Reads a checkpoint with its transcript; `None` when there is no head.
pub fn read_session(head: &Path) -> Result<Option<SessionCheckpoint>, StoreError> {
    let Some(bytes) = read_if_there(head)? else {
        return Ok(None);
    };
    let stored: StoredHead = serde_json::from_slice(&bytes).map_err(|err| corrupt(head, &err))?;
    let mut checkpoint = stored.checkpoint;
    if let Some(log) = stored.turn_log {
        checkpoint.transcript = read_turns(&turns_path(head), log)?;
    }
    Ok(Some(checkpoint))
}

/// The extent of the stored head's turn log: nothing for a missing head or one that holds
/// its transcript itself (its turns are then all written anew).
pub fn stored_extent(head: &Path) -> Result<TurnLog, StoreError> {
    let Some(bytes) = read_if_there(head)? else {
        return Ok(TurnLog::default());
    };
    let extent: HeadExtent = serde_json::from_slice(&bytes).map_err(|err| corrupt(head, &err))?;
    Ok(extent.turn_log.unwrap_or_default())
}

/// Cuts the log at `valid` bytes, appends `lines` and fsyncs; returns the new length.
fn append_lines(path: &Path, valid: u64, lines: &[u8]) -> Result<u64, StoreError> {
    let io = |err| unavailable(path, err);
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    file.set_len(valid).map_err(io)?;
    file.seek(SeekFrom::Start(valid)).map_err(io)?;
    file.write_all(lines).map_err(io)?;
    file.sync_data().map_err(io)?;
    Ok(valid + lines.len() as u64)
}

/// The transcript in the first `log.bytes` of the turn log: each turn's latest line.
fn read_turns(path: &Path, log: TurnLog) -> Result<Vec<TurnCheckpoint>, StoreError> {
    let file = File::open(path).map_err(|err| unavailable(path, err))?;
    let mut turns: Vec<Option<TurnCheckpoint>> = vec![None; log.count];
    for line in BufReader::new(file.take(log.bytes)).lines() {
        let line = line.map_err(|err| unavailable(path, err))?;
        let read: TurnLine = serde_json::from_str(&line).map_err(|err| corrupt(path, &err))?;
        if let Some(slot) = turns.get_mut(read.i) {
            *slot = Some(read.turn);
        }
    }
    turns
        .into_iter()
        .enumerate()
        .map(|(i, turn)| {
            turn.ok_or_else(|| StoreError::Corrupt {
                key: path.display().to_string(),
                reason: format!("turn {i} of {} is missing", log.count),
            })
        })
        .collect()
}

fn read_if_there(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(unavailable(path, err)),
    }
}

fn encoding(err: &serde_json::Error) -> StoreError {
    StoreError::Unavailable(format!("a checkpoint did not encode: {err}"))
}

fn corrupt(path: &Path, err: &serde_json::Error) -> StoreError {
    StoreError::Corrupt {
        key: path.display().to_string(),
        reason: err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use viva_core::checkpoint::format::{CHECKPOINT_FORMAT, PhaseName};

    fn checkpoint(turns: usize, answer: &str) -> SessionCheckpoint {
        SessionCheckpoint {
            format: CHECKPOINT_FORMAT,
            session_id: "s1".into(),
            user_id: "ann".into(),
            version: turns as u64,
            created_at_ms: 1,
            updated_at_ms: 2,
            paused_at_ms: None,
            thinking_pause_ms: None,
            seq: 3,
            phase: PhaseName::AwaitingAnswer,
            resume_to: None,
            state: viva_core::checkpoint::ModeCheckpoint::OneQuestion(Default::default()),
            transcript: (0..turns).map(|n| turn(n, answer)).collect(),
            applied_event_ids: vec!["e1".into()],
        }
    }

    fn turn(n: usize, answer: &str) -> TurnCheckpoint {
        TurnCheckpoint {
            question_id: format!("t{}", n + 1),
            element_code: "add-1digit".into(),
            kind: "drill".into(),
            question: "What is 4 + 3?".into(),
            answer: Some(answer.to_owned()),
            score: None,
            feedback: None,
            examiner: Vec::new(),
            sources: None,
            scenario: None,
        }
    }

    /// Writes turn by turn, as a session does: each write from the last stored turn.
    fn write_turn_by_turn(head: &Path, turns: usize, answer: &str) -> Vec<u64> {
        let mut head_sizes = Vec::new();
        for n in 1..=turns {
            write_session(head, &checkpoint(n, answer), n.saturating_sub(2)).unwrap();
            head_sizes.push(fs::metadata(head).unwrap().len());
        }
        head_sizes
    }

    #[test]
    fn a_long_session_rewrites_only_its_head_and_appends_its_turns() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("s1.json");
        let answer = "x".repeat(15_000);
        let head_sizes = write_turn_by_turn(&head, 300, &answer);
        let (early, late) = (head_sizes[9], head_sizes[299]);
        assert!(
            late <= early + 16,
            "the head does not grow: {early} then {late}"
        );
        let log = fs::metadata(turns_path(&head)).unwrap().len();
        assert!(
            log < 2 * 300 * 15_400,
            "each write appends a turn or two: {log}"
        );
        assert_eq!(read_session(&head).unwrap(), Some(checkpoint(300, &answer)));
    }

    #[test]
    fn a_turn_written_again_reads_as_its_latest_line() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("s1.json");
        write_session(&head, &checkpoint(2, "first"), 0).unwrap();
        let mut assessed = checkpoint(2, "first");
        assessed.transcript[1].score = Some("satisfactory".into());
        write_session(&head, &assessed, 1).unwrap();
        assert_eq!(read_session(&head).unwrap(), Some(assessed));
    }

    #[test]
    fn turns_past_the_head_a_crash_left_are_ignored_then_cut() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("s1.json");
        write_session(&head, &checkpoint(2, "a"), 0).unwrap();
        let stored = fs::read(&head).unwrap();
        // A write whose turns landed but whose head did not, then a torn line.
        write_session(&head, &checkpoint(3, "b"), 1).unwrap();
        fs::write(&head, &stored).unwrap();
        let mut log = OpenOptions::new()
            .append(true)
            .open(turns_path(&head))
            .unwrap();
        log.write_all(b"{\"i\":9,\"tu").unwrap();
        assert_eq!(read_session(&head).unwrap(), Some(checkpoint(2, "a")));
        write_session(&head, &checkpoint(3, "c"), 1).unwrap();
        let mut expected = checkpoint(3, "c");
        expected.transcript[0] = turn(0, "a");
        assert_eq!(read_session(&head).unwrap(), Some(expected));
    }

    #[test]
    fn a_head_holding_its_transcript_is_read_and_rewritten_whole() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("s1.json");
        let legacy = checkpoint(2, "old");
        fs::write(&head, serde_json::to_vec(&legacy).unwrap()).unwrap();
        assert_eq!(read_session(&head).unwrap(), Some(legacy));
        write_session(&head, &checkpoint(3, "old"), 1).unwrap();
        assert_eq!(read_session(&head).unwrap(), Some(checkpoint(3, "old")));
    }

    #[test]
    fn a_log_missing_a_turn_its_head_counts_is_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("s1.json");
        write_session(&head, &checkpoint(2, "a"), 0).unwrap();
        fs::write(turns_path(&head), b"").unwrap();
        assert!(matches!(
            read_session(&head),
            Err(StoreError::Corrupt { .. })
        ));
    }
}
