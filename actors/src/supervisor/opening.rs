//! Opening a new session: what it is (`modes::label`), the rules that span the user's
//! sessions, the side records it names, claimed, and the mode's first state
//! (`modes::open`). The supervisor never learns which mode it opened.

use viva_protocol::ErrorCode;
use viva_protocol::config::SessionConfig;

use super::actor::UserSupervisor;
use super::record::open_marks;
use crate::stall::ride_out;
use viva_core::checkpoint::{SideClaim, SideHold};
use viva_core::modes::{self, Opening};
use viva_core::session::lifecycle::Refusal;
use viva_core::session::rules::{SessionLabel, refuse_beside};
use viva_core::session::state::SessionState;

impl UserSupervisor {
    /// What a session started with `config` is, for its user's list and the rules that span
    /// sessions.
    pub(super) fn label(&self, config: &SessionConfig) -> SessionLabel {
        modes::label(config, self.deps.session.modes.context())
    }

    /// The state of a new session of the configured mode, once the rules that span the
    /// user's sessions allow it and the side records it names are claimed.
    pub(super) async fn new_state(
        &self,
        config: SessionConfig,
        label: &SessionLabel,
        session_id: String,
    ) -> Result<SessionState, Refusal> {
        refuse_beside(label.marks, open_marks(&self.record))?;
        let now_ms = self.deps.session.clock.now_ms();
        let ctx = self.deps.session.modes.context();
        let holds = modes::side_holds(&config, &self.user_id, ctx);
        let claims = self.claim_side_records(holds, &session_id, now_ms).await?;
        let opening = Opening {
            session_id,
            user_id: self.user_id.clone(),
            now_ms,
            seed: server_seed(),
            history: self.record.element_scores.clone(),
            element_history: self.record.element_history.clone(),
            claims,
        };
        modes::open(config, opening, ctx)
    }

    /// Claims each side record a new session names (a claim repeated in a stall only takes
    /// a newer fence).
    async fn claim_side_records(
        &self,
        holds: Vec<SideHold>,
        session_id: &str,
        now_ms: u64,
    ) -> Result<Vec<SideClaim>, Refusal> {
        let sides = &self.deps.session.sides;
        let mut claims = Vec::with_capacity(holds.len());
        for hold in holds {
            let claiming = || sides.claim_side(&hold.key, &hold.cold, session_id, now_ms);
            let claim = ride_out(claiming).await.map_err(|err| {
                tracing::error!(user = %self.user_id, kind = hold.key.kind, %err, "side record not claimed");
                Refusal::new(
                    ErrorCode::StorageUnavailable,
                    "the session could not be started; retry",
                )
            })?;
            claims.push(claim);
        }
        Ok(claims)
    }
}

/// A fresh seed from the operating system's CSPRNG (uuid v4 draws from `getrandom`): nobody
/// outside the server can know or choose it.
fn server_seed() -> u64 {
    uuid::Uuid::new_v4().as_u64_pair().0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_seeds_differ_between_sessions() {
        assert_ne!(server_seed(), server_seed());
    }
}
