//! The session's timers: abandonment after a long pause, and an assessment's time limit.
//! Each is one task at most; a newer one replaces the older.

use kameo::actor::ActorRef;

use super::{AbandonCheck, LiveSession, TimeLimitCheck};

impl LiveSession {
    pub(super) fn start_abandon_timer(&mut self, actor_ref: ActorRef<Self>) {
        self.pause_epoch += 1;
        let epoch = self.pause_epoch;
        let after = self.deps.abandon_after;
        let weak = actor_ref.downgrade();
        if let Some(previous) = self.abandon_timer.take() {
            previous.abort();
        }
        self.abandon_timer = Some(tokio::spawn(async move {
            tokio::time::sleep(after).await;
            if let Some(session) = weak.upgrade() {
                // ignore: the session stopped meanwhile; restore abandons it lazily.
                let _ = session.tell(AbandonCheck { epoch }).await;
            }
        }));
    }

    /// Arms the time-limit timer of an assessment, once.
    pub(super) fn arm_deadline(&mut self, actor_ref: ActorRef<Self>) {
        let Some(deadline_ms) = self.state.deadline_ms() else {
            return;
        };
        if self.deadline_timer.is_some() {
            return;
        }
        let wait = std::time::Duration::from_millis(deadline_ms.saturating_sub(self.now()));
        let weak = actor_ref.downgrade();
        self.deadline_timer = Some(tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            if let Some(session) = weak.upgrade() {
                // ignore: a stopped session is expired lazily when next touched.
                let _ = session.tell(TimeLimitCheck).await;
            }
        }));
    }
}
