//! The messages a `LiveSession` handles; each handler is a few lines over `SessionState`.

use kameo::actor::ActorRef;
use kameo::message::{Context, Message};
use viva_protocol::result::SessionResult;
use viva_protocol::server::{PauseReason, SessionStatus};

use super::actor::{LiveSession, moved};
use super::admission::Admitted;
use crate::link::DeviceLink;
use viva_core::base::{AnswerInput, ModeInput};
use viva_core::session::lifecycle::Refusal;
use viva_core::session::rules::SessionMarks;
use viva_protocol::ClientEvent;

/// A new session's first step: announce it and ask the first question.
#[derive(Debug)]
pub struct Begin {
    /// The device that started it.
    pub link: DeviceLink,
    /// The `session.start` event id.
    pub event_id: Option<String>,
}

impl Message<Begin> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Begin, ctx: &mut Context<Self, ()>) {
        self.link = Some(msg.link);
        self.state.announce_start(Self::context(&self.deps));
        self.state.life_mut().acknowledge(msg.event_id);
        self.arm_deadline(ctx.actor_ref().clone());
        self.drive_from(true).await;
    }
}

/// Attach a device: the device holding the session (if another) is paused, then the session
/// resumes where it stands on the new one.
#[derive(Debug)]
pub struct Attach {
    /// The device taking the session.
    pub link: DeviceLink,
    /// The `session.resume` (or repeated `session.start`) event id.
    pub event_id: Option<String>,
}

impl Message<Attach> for LiveSession {
    type Reply = Result<(), Refusal>;

    async fn handle(&mut self, msg: Attach, ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        if self.durability.is_evicted() {
            return Err(moved());
        }
        let old = self
            .link
            .take_if(|old| old.connection_id != msg.link.connection_id);
        if let Some(old) = old {
            self.link = Some(old);
            self.pause_link(PauseReason::OtherDevice, ctx.actor_ref().clone())
                .await;
            self.forget_turn(ctx.actor_ref()).await;
        }
        self.link = Some(msg.link);
        if let Err(refusal) = self.reclaim_side_records().await {
            self.link = None;
            return Err(refusal);
        }
        let now = self.now();
        if let Err(refusal) = self.state.resume(Self::context(&self.deps), now) {
            self.link = None;
            return Err(refusal);
        }
        self.state.life_mut().acknowledge(msg.event_id);
        self.arm_deadline(ctx.actor_ref().clone());
        if self.commit().await && !self.expire_if_due().await {
            self.announce_assessing_to_new_device();
            self.drive().await;
        }
        if self.durability.is_evicted() {
            return Err(moved());
        }
        Ok(())
    }
}

/// Detach a device; with a reason, it is told `session.paused`.
#[derive(Debug)]
pub struct Detach {
    /// The connection letting go.
    pub connection_id: u64,
    /// Why; `None` when the connection is already gone.
    pub reason: Option<PauseReason>,
}

impl Message<Detach> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Detach, ctx: &mut Context<Self, ()>) {
        if !self.is_attached(msg.connection_id) {
            return;
        }
        let reason = msg.reason.unwrap_or(PauseReason::User);
        self.pause_link(reason, ctx.actor_ref().clone()).await;
        self.link = None;
    }
}

/// Another session or device is taking the user's active session: pause the device holding
/// this one (reason `other_device`, or `user` when the same connection starts a new one).
#[derive(Debug)]
pub struct Yield {
    /// The connection taking over, when it is on this node.
    pub taker_connection_id: Option<u64>,
    /// The taker resumes this very session; `Attach` does the pausing then.
    pub same_session: bool,
}

impl Message<Yield> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Yield, ctx: &mut Context<Self, ()>) {
        let Some(link) = &self.link else { return };
        if msg.same_session {
            return;
        }
        let same_connection = msg.taker_connection_id == Some(link.connection_id);
        let reason = if same_connection {
            PauseReason::User
        } else {
            PauseReason::OtherDevice
        };
        self.pause_link(reason, ctx.actor_ref().clone()).await;
        self.link = None;
    }
}

/// What a client asks of its attached session.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionCommand {
    /// `answer.text`, `answer.choice` or `answer.skip`.
    Answer(AnswerInput),
    /// `session.pause`.
    Pause,
    /// `session.end`.
    End,
    /// An event of the mode's own (`tutor.*`), as the client sent it.
    Event(ClientEvent),
}

/// A client command from one connection.
#[derive(Debug)]
pub struct Command {
    /// The sending connection.
    pub connection_id: u64,
    /// Its `event_id`.
    pub event_id: Option<String>,
    /// The command.
    pub command: SessionCommand,
}

/// How a command went; the connection turns refusals and repeats into frames.
#[derive(Debug, Clone, PartialEq, Eq, kameo::Reply)]
pub enum CommandOutcome {
    /// Applied; the session sent its events and `ack`.
    Applied,
    /// The `event_id` was applied before; the connection acks again.
    Repeated,
    /// Refused; nothing changed.
    Refused(Refusal),
}

impl Message<Command> for LiveSession {
    type Reply = CommandOutcome;

    async fn handle(
        &mut self,
        msg: Command,
        ctx: &mut Context<Self, CommandOutcome>,
    ) -> CommandOutcome {
        match self
            .admit_client(msg.connection_id, msg.event_id.as_deref())
            .await
        {
            Admitted::Apply => {}
            Admitted::Repeated => return CommandOutcome::Repeated,
            Admitted::Refused(refusal) => return CommandOutcome::Refused(refusal),
        }
        match self
            .apply(msg.command, msg.event_id, ctx.actor_ref().clone())
            .await
        {
            Ok(()) => CommandOutcome::Applied,
            Err(refusal) => CommandOutcome::Refused(refusal),
        }
    }
}

impl LiveSession {
    pub(super) async fn apply(
        &mut self,
        command: SessionCommand,
        event_id: Option<String>,
        me: ActorRef<Self>,
    ) -> Result<(), Refusal> {
        let now = self.now();
        let ctx = Self::context(&self.deps);
        match command {
            SessionCommand::Answer(input) => self.state.commit_answer(input, event_id, ctx, now)?,
            SessionCommand::Pause => {
                self.state.life_mut().pause(PauseReason::User, now)?;
                self.state.life_mut().acknowledge(event_id);
                self.start_abandon_timer(me);
            }
            SessionCommand::End => {
                self.state.end(ctx, now)?;
                self.state.life_mut().acknowledge(event_id);
            }
            SessionCommand::Event(event) => {
                self.state
                    .take_input(ModeInput::Event(event), event_id, ctx, now)?;
            }
        }
        // Committed with the work it leads to (an in-process examiner's assessment and
        // next question): one write.
        self.drive_from(true).await;
        Ok(())
    }
}

/// Sent by the abandonment timer; acts only if the same pause is still on.
#[derive(Debug)]
pub struct AbandonCheck {
    pub(super) epoch: u64,
}

impl Message<AbandonCheck> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: AbandonCheck, _: &mut Context<Self, ()>) {
        if msg.epoch != self.pause_epoch {
            return;
        }
        let now = self.now();
        if self.state.life_mut().abandon_if_stale(0, now) {
            tracing::info!(session = %self.state.life().session_id, "paused session abandoned");
            self.commit().await;
            self.notify_if_finished();
        }
    }
}

/// Sent by the time-limit timer of an assessment.
#[derive(Debug)]
pub struct TimeLimitCheck;

impl Message<TimeLimitCheck> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, _: TimeLimitCheck, _: &mut Context<Self, ()>) {
        self.deadline_timer = None;
        self.expire_if_due().await;
    }
}

/// Pause for a server shutdown, write the checkpoint, and stop.
#[derive(Debug)]
pub struct Shutdown;

impl Message<Shutdown> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, _: Shutdown, ctx: &mut Context<Self, ()>) {
        let now = self.now();
        if self.state.life().phase.live().is_some() {
            // ignore: a live phase always accepts Paused.
            let _ = self
                .state
                .life_mut()
                .pause(PauseReason::ServerShutdown, now);
        }
        if self.commit().await {
            let store = &self.deps.store;
            if let Err(err) = store.release_lease(&self.claim.key, self.claim.token).await {
                tracing::warn!(session = %self.claim.key.session_id, %err, "lease not released");
            }
        }
        ctx.stop();
    }
}

/// What the supervisor and the HTTP API may read of a session.
#[derive(Debug, Clone, PartialEq, kameo::Reply)]
pub struct SessionView {
    /// Owner.
    pub user_id: String,
    /// Its mode.
    pub mode: viva_protocol::Mode,
    /// What it is, for the rules that span a user's sessions.
    pub marks: SessionMarks,
    /// Status.
    pub status: SessionStatus,
    /// Result with its audit trail, once completed.
    pub result: Option<SessionResult>,
    /// The attached connection.
    pub connection_id: Option<u64>,
}

/// Read the session's view.
#[derive(Debug)]
pub struct Inspect;

impl Message<Inspect> for LiveSession {
    type Reply = SessionView;

    async fn handle(&mut self, _: Inspect, _: &mut Context<Self, SessionView>) -> SessionView {
        SessionView {
            user_id: self.state.life().user_id.clone(),
            mode: self.state.mode(),
            marks: self.state.mode_state().marks(),
            status: self.state.life().status(),
            result: self.state.result_with_audit(),
            connection_id: self.link.as_ref().map(|link| link.connection_id),
        }
    }
}
