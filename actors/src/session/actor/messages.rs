//! The messages an `ExamSession` handles; each handler is a few lines over `ExamCore`.

use kameo::actor::ActorRef;
use kameo::message::{Context, Message};
use viva_protocol::ErrorCode;
use viva_protocol::result::{ExamResult, Trigger};
use viva_protocol::server::{PauseReason, SessionStatus};

use super::ExamSession;
use crate::link::DeviceLink;
use crate::session::core::Refusal;

/// A new session's first step: announce it and ask the first question.
#[derive(Debug)]
pub struct Begin {
    /// The device that started it.
    pub link: DeviceLink,
    /// The `session.start` event id.
    pub event_id: Option<String>,
}

impl Message<Begin> for ExamSession {
    type Reply = ();

    async fn handle(&mut self, msg: Begin, _: &mut Context<Self, ()>) {
        self.link = Some(msg.link);
        self.core.announce_start();
        self.core.acknowledge(msg.event_id);
        if self.commit().await {
            self.drive().await;
        }
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

impl Message<Attach> for ExamSession {
    type Reply = Result<(), Refusal>;

    async fn handle(&mut self, msg: Attach, ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let old = self
            .link
            .take_if(|old| old.connection_id != msg.link.connection_id);
        if let Some(old) = old {
            self.link = Some(old);
            self.pause_link(PauseReason::OtherDevice, ctx.actor_ref().clone())
                .await;
        }
        self.link = Some(msg.link);
        let now = self.now();
        if let Err(refusal) = self.core.resume(now) {
            self.link = None;
            return Err(refusal);
        }
        self.core.acknowledge(msg.event_id);
        if self.commit().await {
            self.drive().await;
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

impl Message<Detach> for ExamSession {
    type Reply = ();

    async fn handle(&mut self, msg: Detach, ctx: &mut Context<Self, ()>) {
        if self
            .link
            .as_ref()
            .is_none_or(|link| link.connection_id != msg.connection_id)
        {
            return;
        }
        let reason = msg.reason.unwrap_or(PauseReason::User);
        self.pause_link(reason, ctx.actor_ref().clone()).await;
        self.link = None;
    }
}

/// Another session or device is taking the user's active exam: pause the device holding
/// this one (reason `other_device`, or `user` when the same connection starts a new exam).
#[derive(Debug)]
pub struct Yield {
    /// The connection taking over.
    pub taker_connection_id: u64,
    /// The taker resumes this very session; `Attach` does the pausing then.
    pub same_session: bool,
}

impl Message<Yield> for ExamSession {
    type Reply = ();

    async fn handle(&mut self, msg: Yield, ctx: &mut Context<Self, ()>) {
        let Some(link) = &self.link else { return };
        if msg.same_session {
            return;
        }
        let reason = if link.connection_id == msg.taker_connection_id {
            PauseReason::User
        } else {
            PauseReason::OtherDevice
        };
        self.pause_link(reason, ctx.actor_ref().clone()).await;
        self.link = None;
    }
}

/// What a client asks of its attached session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionCommand {
    /// `answer.text`.
    AnswerText(String),
    /// `answer.choice`.
    AnswerChoice(u32),
    /// `session.pause`.
    Pause,
    /// `session.end`.
    End,
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

impl Message<Command> for ExamSession {
    type Reply = CommandOutcome;

    async fn handle(
        &mut self,
        msg: Command,
        ctx: &mut Context<Self, CommandOutcome>,
    ) -> CommandOutcome {
        if self
            .link
            .as_ref()
            .is_none_or(|link| link.connection_id != msg.connection_id)
        {
            return CommandOutcome::Refused(Refusal::new(
                ErrorCode::SessionPaused,
                "this device no longer holds the session; resume it first",
            ));
        }
        if msg
            .event_id
            .as_deref()
            .is_some_and(|id| self.core.is_applied(id))
        {
            return self.repeated().await;
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

impl ExamSession {
    async fn repeated(&mut self) -> CommandOutcome {
        if self.unsaved {
            if !self.commit().await {
                let message = "the session could not be saved";
                return CommandOutcome::Refused(Refusal::new(
                    ErrorCode::StorageUnavailable,
                    message,
                ));
            }
            self.drive().await;
        }
        CommandOutcome::Repeated
    }

    async fn apply(
        &mut self,
        command: SessionCommand,
        event_id: Option<String>,
        me: ActorRef<Self>,
    ) -> Result<(), Refusal> {
        let now = self.now();
        match command {
            SessionCommand::AnswerText(text) => self.core.commit_answer(text, event_id, now)?,
            SessionCommand::AnswerChoice(_) => {
                self.core.require_live()?;
                return Err(Refusal::new(
                    ErrorCode::InvalidAnswer,
                    "exam questions have no options; answer with answer.text",
                ));
            }
            SessionCommand::Pause => {
                self.core.pause(PauseReason::User, now)?;
                self.core.acknowledge(event_id);
                self.start_abandon_timer(me);
            }
            SessionCommand::End => {
                self.core.require_live()?;
                let catalog = self.deps.library.catalog(self.core.rating());
                self.core.complete(Trigger::UserEnded, catalog, now)?;
                self.core.acknowledge(event_id);
            }
        }
        if self.commit().await {
            self.notify_if_finished();
            self.drive().await;
        }
        Ok(())
    }
}

/// Sent by the abandonment timer; acts only if the same pause is still on.
#[derive(Debug)]
pub struct AbandonCheck {
    pub(super) epoch: u64,
}

impl Message<AbandonCheck> for ExamSession {
    type Reply = ();

    async fn handle(&mut self, msg: AbandonCheck, _: &mut Context<Self, ()>) {
        if msg.epoch != self.pause_epoch {
            return;
        }
        let now = self.now();
        if self.core.abandon_if_stale(0, now) {
            tracing::info!(session = %self.core.session_id, "paused session abandoned");
            self.commit().await;
            self.notify_if_finished();
        }
    }
}

/// Pause for a server shutdown, write the checkpoint, and stop.
#[derive(Debug)]
pub struct Shutdown;

impl Message<Shutdown> for ExamSession {
    type Reply = ();

    async fn handle(&mut self, _: Shutdown, ctx: &mut Context<Self, ()>) {
        let now = self.now();
        if self.core.phase.live().is_some() {
            // ignore: a live phase always accepts Paused.
            let _ = self.core.pause(PauseReason::ServerShutdown, now);
        }
        self.commit().await;
        ctx.stop();
    }
}

/// What the supervisor and the HTTP API may read of a session.
#[derive(Debug, Clone, PartialEq, Eq, kameo::Reply)]
pub struct SessionView {
    /// Owner.
    pub user_id: String,
    /// Status.
    pub status: SessionStatus,
    /// Result, once completed.
    pub result: Option<ExamResult>,
    /// The attached connection.
    pub connection_id: Option<u64>,
}

/// Read the session's view.
#[derive(Debug)]
pub struct Inspect;

impl Message<Inspect> for ExamSession {
    type Reply = SessionView;

    async fn handle(&mut self, _: Inspect, _: &mut Context<Self, SessionView>) -> SessionView {
        SessionView {
            user_id: self.core.user_id.clone(),
            status: self.core.status(),
            result: self.core.result.clone(),
            connection_id: self.link.as_ref().map(|link| link.connection_id),
        }
    }
}
