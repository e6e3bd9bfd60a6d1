//! What a session keeps beside itself, done for any mode without knowing what it holds:
//! its side records (a student's snapshot of a course), written to the side store after
//! every commit that changed them (under this session's fence, so they outlive the
//! session) and claimed again when a device resumes the session; and its turn notes, traced
//! and counted once durable.

use viva_core::checkpoint::side::SIDE_FORMAT;
use viva_core::checkpoint::{StoreError, StoredSide};
use viva_core::session::lifecycle::Refusal;
use viva_protocol::ErrorCode;

use super::actor::LiveSession;

impl LiveSession {
    /// The turns committed since the last call: one trace line each, and the turn and
    /// fallback counts in `/metrics`. (The stored transcript holds the same entries.)
    pub(super) fn log_turn_notes(&mut self) {
        let notes = std::mem::take(&mut self.state.life_mut().turn_notes);
        let metrics = &self.deps.metrics.tutor;
        for note in notes {
            tracing::info!(
                action = %note.action,
                target = %note.target,
                said = %note.said,
                outcome = %note.outcome,
                fallback = note.fallback.as_deref().unwrap_or(""),
                "tutor turn"
            );
            metrics.turns.inc(&note.action);
            if let Some(reason) = &note.fallback {
                metrics.fallbacks.inc(reason);
            }
        }
    }

    /// Writes the side records this session changed since their last write. A failed write
    /// is retried after the next commit (the checkpoint holds the record meanwhile); a
    /// fenced one means another session claimed the record, and this one's changes wait for
    /// its next resume, which adopts the newer record.
    pub(super) async fn store_side_records(&mut self) {
        let now = self.now();
        let session_id = self.state.life().session_id.clone();
        for write in self.state.side_writes() {
            let record = StoredSide {
                format: SIDE_FORMAT,
                body: write.body,
                fence: write.fence,
                owner: session_id.clone(),
                updated_at_ms: now,
            };
            match self.deps.sides.save_side(&write.key, &record).await {
                Ok(()) => self.state.side_stored(&write.key, write.revision),
                Err(err @ StoreError::Fenced { .. }) => {
                    tracing::warn!(session = %session_id, kind = write.key.kind, %err, "side record not written: claimed by another session");
                }
                Err(err) => {
                    tracing::error!(session = %session_id, kind = write.key.kind, %err, "side record not written; retried at the next commit");
                }
            }
        }
    }

    /// Claims this session's side records before it resumes; the mode adopts a record
    /// another session wrote since this one last held it.
    pub(super) async fn reclaim_side_records(&mut self) -> Result<(), Refusal> {
        let now = self.now();
        let session_id = self.state.life().session_id.clone();
        for hold in self.state.side_holds() {
            let claim = self
                .deps
                .sides
                .claim_side(&hold.key, &hold.cold, &session_id, now)
                .await
                .map_err(|err| {
                    tracing::error!(session = %session_id, kind = hold.key.kind, %err, "side record not claimed");
                    Refusal::new(
                        ErrorCode::StorageUnavailable,
                        "the session could not be resumed; retry",
                    )
                })?;
            self.state.side_reclaimed(claim)?;
        }
        Ok(())
    }
}
