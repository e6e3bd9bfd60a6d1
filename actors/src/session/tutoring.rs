//! The student snapshot beside a tutoring session: written to the snapshot store after every
//! commit that changed it (under this session's fence, so it outlives the session), and
//! claimed again when a device resumes the session, adopting a newer snapshot that another
//! session of the same course wrote meanwhile.

use viva_core::checkpoint::StoreError;
use viva_core::checkpoint::tutor_format::{SNAPSHOT_FORMAT, StoredSnapshot};
use viva_core::session::lifecycle::Refusal;
use viva_core::modes::tutor::snapshot::{restore_snapshot, snapshot_record};
use viva_protocol::ErrorCode;

use super::LiveSession;
use viva_core::modes::tutor::FALLBACK_PREFIX;

impl LiveSession {
    /// The turn log (PV-AI-024) of the turns committed since the last call: one trace line
    /// each, and the turn and fallback counts in `/metrics`. (The stored transcript holds the
    /// same entries.)
    pub(super) fn log_tutor_turns(&mut self) {
        let Some(tutor) = self.state.mode_state().tutor() else {
            return;
        };
        let metrics = &self.deps.metrics.tutor;
        for (index, turn) in tutor
            .transcript
            .iter()
            .enumerate()
            .skip(self.tutor_turns_logged)
        {
            let fallback = turn
                .feedback
                .as_deref()
                .and_then(|f| f.strip_prefix(FALLBACK_PREFIX));
            tracing::info!(
                turn = index + 1,
                action = %turn.kind,
                target = %turn.element_code,
                said = turn.answer.as_deref().unwrap_or(""),
                outcome = turn.score.as_deref().unwrap_or(""),
                fallback = fallback.unwrap_or(""),
                "tutor turn"
            );
            metrics.turns.inc(&turn.kind);
            if let Some(reason) = fallback {
                metrics.fallbacks.inc(reason);
            }
        }
        self.tutor_turns_logged = tutor.transcript.len();
    }

    /// Writes the snapshot if this session changed it since its last write. A failed write
    /// is retried after the next commit (the checkpoint holds the snapshot meanwhile); a
    /// fenced one means another session of the course claimed it, and this one's changes
    /// wait for its next resume, which adopts the newer snapshot.
    pub(super) async fn store_snapshot(&mut self) {
        let now = self.now();
        let session_id = self.state.life().session_id.clone();
        let Some(tutor) = self.state.mode_state().tutor() else {
            return;
        };
        if !tutor.snapshot_unstored() {
            return;
        }
        let revision = tutor.revision;
        let record = StoredSnapshot {
            format: SNAPSHOT_FORMAT,
            snapshot: snapshot_record(&tutor.state.snapshot),
            fence: tutor.fence,
            owner: session_id.clone(),
            updated_at_ms: now,
        };
        match self.deps.snapshots.save_snapshot(&record).await {
            Ok(()) => {
                if let Some(tutor) = self.state.parts_mut().1.tutor_mut() {
                    tutor.stored_revision = revision;
                }
            }
            Err(err @ StoreError::Fenced { .. }) => {
                tracing::warn!(session = %session_id, %err, "snapshot not written: claimed by another session");
            }
            Err(err) => {
                tracing::error!(session = %session_id, %err, "snapshot not written; retried at the next commit");
            }
        }
    }

    /// Claims the snapshot for this session before it resumes; adopts the stored one when
    /// another session wrote it since this one last held it.
    pub(super) async fn reclaim_snapshot(&mut self) -> Result<(), Refusal> {
        let now = self.now();
        let session_id = self.state.life().session_id.clone();
        let Some(tutor) = self.state.mode_state().tutor() else {
            return Ok(());
        };
        let cold = snapshot_record(&tutor.state.snapshot);
        let claim = self
            .deps
            .snapshots
            .claim_snapshot(&cold, &session_id, now)
            .await
            .map_err(|err| {
                tracing::error!(session = %session_id, %err, "snapshot not claimed");
                Refusal::new(
                    ErrorCode::StorageUnavailable,
                    "the session could not be resumed; retry",
                )
            })?;
        let adopt = claim.previous_owner.as_deref() != Some(session_id.as_str());
        let stored = if adopt {
            Some(restore_snapshot(&claim.stored.snapshot).map_err(|reason| {
                tracing::error!(session = %session_id, %reason, "stored snapshot unreadable");
                Refusal::new(ErrorCode::Internal, "the stored progress could not be read")
            })?)
        } else {
            None
        };
        if let Some(tutor) = self.state.parts_mut().1.tutor_mut() {
            tutor.fence = claim.fence;
            if let Some(snapshot) = stored {
                tutor.state.snapshot = snapshot;
                tutor.revision += 1;
                tutor.stored_revision = tutor.revision;
            }
        }
        Ok(())
    }
}
