//! `ExamSession`: the actor that owns one live exam. Handlers are thin: each feeds the
//! `ExamCore`, writes a checkpoint at every committed boundary, and only then sends what the
//! core queued (so every `ack` follows a durable write).

use std::sync::Arc;
use std::time::Duration;

use kameo::Actor;
use kameo::actor::{ActorRef, WeakActorRef};
use viva_protocol::result::Trigger;
use viva_protocol::server::{PauseReason, SessionStatus};
use viva_protocol::{ErrorCode, ServerMessage};

use super::core::{ExamCore, PendingWork};
use super::snapshot::checkpoint_of;
use crate::checkpoint::CheckpointStore;
use crate::clock::Clock;
use crate::exam::acs::AcsLibrary;
use crate::examiner::Examiner;
use crate::link::DeviceLink;
use crate::supervisor::{SessionFinished, UserSupervisor};

mod messages;

pub use messages::{
    AbandonCheck, Attach, Begin, Command, CommandOutcome, Detach, Inspect, SessionCommand,
    SessionView, Shutdown, Yield,
};

/// Shared services every session uses.
pub struct SessionDeps {
    /// Where checkpoints go.
    pub store: Arc<dyn CheckpointStore>,
    /// Phrases and assesses.
    pub examiner: Arc<dyn Examiner>,
    /// The ACS catalogs.
    pub library: Arc<AcsLibrary>,
    /// Wall-clock time.
    pub clock: Arc<dyn Clock>,
    /// How long a paused session lives before it is abandoned.
    pub abandon_after: Duration,
}

/// One live exam session.
pub struct ExamSession {
    core: ExamCore,
    deps: Arc<SessionDeps>,
    link: Option<DeviceLink>,
    supervisor: WeakActorRef<UserSupervisor>,
    pause_epoch: u64,
    /// The one pending abandonment timer; a new pause replaces it.
    abandon_timer: Option<tokio::task::JoinHandle<()>>,
    unsaved: bool,
}

impl Actor for ExamSession {
    type Args = Self;
    type Error = std::convert::Infallible;

    async fn on_start(state: Self, _: ActorRef<Self>) -> Result<Self, Self::Error> {
        Ok(state)
    }

    async fn on_stop(
        &mut self,
        _: WeakActorRef<Self>,
        _: kameo::error::ActorStopReason,
    ) -> Result<(), Self::Error> {
        if let Some(timer) = self.abandon_timer.take() {
            timer.abort();
        }
        Ok(())
    }
}

impl ExamSession {
    /// A session actor's state, before spawning.
    pub fn new(
        core: ExamCore,
        deps: Arc<SessionDeps>,
        supervisor: WeakActorRef<UserSupervisor>,
    ) -> ExamSession {
        ExamSession {
            core,
            deps,
            link: None,
            supervisor,
            pause_epoch: 0,
            abandon_timer: None,
            unsaved: false,
        }
    }

    fn now(&self) -> u64 {
        self.deps.clock.now_ms()
    }

    /// Writes the checkpoint, then sends the outbox. On failure the outbox is held (nothing
    /// un-durable is sent, acks included) until a later write succeeds and sends it in order,
    /// and the device is told `storage_unavailable`.
    async fn commit(&mut self) -> bool {
        let checkpoint = checkpoint_of(&self.core);
        match self.deps.store.save_session(&checkpoint).await {
            Ok(()) => {
                self.unsaved = false;
                self.flush();
                true
            }
            Err(err) => {
                tracing::error!(session = %self.core.session_id, %err, "checkpoint failed");
                self.unsaved = true;
                self.send_error(
                    ErrorCode::StorageUnavailable,
                    "the session could not be saved; resend the event",
                    None,
                );
                false
            }
        }
    }

    fn flush(&mut self) {
        let outbox = std::mem::take(&mut self.core.outbox);
        let Some(link) = &self.link else { return };
        for message in outbox {
            link.send(message);
        }
        if !link.is_closed() {
            let now = self.now();
            self.core.mark_delivered(now);
        }
    }

    fn send_error(&self, code: ErrorCode, message: &str, event_id: Option<String>) {
        if let Some(link) = &self.link {
            link.send(ServerMessage::error(code, message, event_id));
        }
    }

    /// Does the work the core asks for — assess, ask, grade — committing after each step.
    async fn drive(&mut self) {
        loop {
            let now = self.now();
            let stepped = match self.core.pending_work() {
                PendingWork::Nothing => return,
                PendingWork::Assess(request) => {
                    let verdict = self.deps.examiner.assess(&request).await;
                    self.core.store_assessment(verdict, now)
                }
                PendingWork::Ask(draft) => {
                    let text = self.deps.examiner.phrase(&draft.request).await;
                    self.core.commit_question(draft, text, now)
                }
                PendingWork::Finish => {
                    let catalog = self.deps.library.catalog(self.core.rating());
                    self.core.complete(Trigger::AllTasksCovered, catalog, now)
                }
            };
            if let Err(refusal) = stepped {
                tracing::error!(session = %self.core.session_id, ?refusal, "session step refused");
                return;
            }
            if !self.commit().await {
                return;
            }
            self.notify_if_finished();
        }
    }

    fn notify_if_finished(&self) {
        let status = self.core.status();
        if !matches!(status, SessionStatus::Completed | SessionStatus::Abandoned) {
            return;
        }
        let Some(supervisor) = self.supervisor.upgrade() else {
            return;
        };
        let finished = SessionFinished {
            session_id: self.core.session_id.clone(),
            status,
            scores: self.core.plan.scores.clone(),
        };
        // ignore: a stopped supervisor has no record left to update.
        let _ = supervisor.tell(finished).try_send();
    }

    fn start_abandon_timer(&mut self, actor_ref: ActorRef<Self>) {
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

    async fn pause_link(&mut self, reason: PauseReason, actor_ref: ActorRef<Self>) {
        let now = self.now();
        if self.core.phase.live().is_some() && self.core.pause(reason, now).is_ok() {
            self.commit().await;
            self.start_abandon_timer(actor_ref);
        }
        // The device loses the session even if the write failed: tell it now.
        self.flush();
    }
}
