//! The session's timers: abandonment after a long pause, and an assessment's time limit.
//! Each is one `Timer` at most; a newer one replaces (and so cancels) the older.

use kameo::actor::ActorRef;

use super::actor::LiveSession;
use super::messages::{AbandonCheck, TimeLimitCheck};
use crate::timer::tell_after;

impl LiveSession {
    pub(super) fn start_abandon_timer(&mut self, actor_ref: ActorRef<Self>) {
        self.pause_epoch += 1;
        let check = AbandonCheck {
            epoch: self.pause_epoch,
        };
        // A pause under way since before this actor (a woken session's) has less left.
        let paused_for = self
            .state
            .life()
            .paused_at_ms
            .map_or(0, |since| self.now().saturating_sub(since));
        let wait = self
            .deps
            .abandon_after
            .saturating_sub(std::time::Duration::from_millis(paused_for));
        self.abandon_timer = Some(tell_after(actor_ref.downgrade(), wait, check));
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
        let timer = tell_after(actor_ref.downgrade(), wait, TimeLimitCheck);
        self.deadline_timer = Some(timer);
    }
}
