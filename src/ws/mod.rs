//! One WebSocket connection: decode each frame once, route it to the user's supervisor or
//! attached session, and write server events from a bounded queue, with a heartbeat.
//!
//! - this file: the connection and its read loop, which reads a frame only while the
//!   outbound queue has room for its replies (flow control);
//! - `writer`: the write loop, each write bounded by a timeout;
//! - `unread`: what the client has not read yet (pings that count bytes, pongs that confirm);
//! - `close`: close codes.

mod close;
mod unread;
mod writer;

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::StreamExt;
use kameo::actor::ActorRef;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use viva_actors::link::DeviceLink;
use viva_actors::session::{
    Audio, AudioControl, Command, CommandOutcome, LiveSession, SessionCommand,
};
use viva_actors::supervisor::{
    Attached, ConnectionClosed, HibernateSession, ResumeSession, StartSession, UserSupervisor,
    WakeSession,
};
use viva_core::base::AnswerInput;
use viva_protocol::client::{ClientEvent, SessionResume, SessionStart};
use viva_protocol::server::Ack;
use viva_protocol::{
    ErrorCode, MAX_AUDIO_FRAME_BYTES, ServerEvent, ServerMessage, decode_client_text,
};

use crate::app::App;

/// A client silent this long is disconnected.
pub const CLIENT_TIMEOUT: Duration = Duration::from_secs(45);
/// Hard WebSocket limits; larger frames close the connection (code 1009). Frames under these
/// but over the protocol's own limits get a `frame_too_large` error and the connection lives.
pub const HARD_FRAME_LIMIT: usize = 1024 * 1024;

const UNAVAILABLE: &str = "the session service is unavailable; retry";

/// The session this connection drives.
struct AttachedSession {
    session_id: String,
    /// Its actor; `None` while it hibernates (the next event wakes it).
    live: Option<ActorRef<LiveSession>>,
}

/// Per-connection state of the read loop.
struct Connection {
    app: Arc<App>,
    user_id: String,
    link: DeviceLink,
    attached: Option<AttachedSession>,
    /// When the client last sent an event for its session (pings do not count).
    last_event: Instant,
    /// Audio frames refused for want of a speech model (one error per 100 frames is sent).
    audio_refused: u64,
    /// What the client has not read yet.
    unread: Arc<unread::Unread>,
}

/// Runs one connection to its end.
pub async fn serve(socket: WebSocket, app: Arc<App>, user_id: String, connection_id: u64) {
    let close = app.shutdown.child_token();
    let (link, outbound) = DeviceLink::new(connection_id, String::new(), close.clone());
    let (sink, stream) = socket.split();
    let (farewell, farewell_rx) = oneshot::channel();
    let unread = Arc::new(unread::Unread::default());
    let writer = tokio::spawn(writer::write_loop(
        connection_id,
        sink,
        outbound,
        close.clone(),
        farewell_rx,
        (app.metrics.server.clone(), unread.clone()),
    ));
    let mut connection = Connection {
        app: app.clone(),
        user_id,
        link,
        attached: None,
        last_event: Instant::now(),
        audio_refused: 0,
        unread,
    };
    tracing::info!(connection = connection_id, user = %connection.user_id, "connected");
    if let Some(goodbye) = connection.read_loop(stream, &close).await {
        // ignore: a writer that already stopped has no one to say it to.
        let _ = farewell.send(goodbye);
    }
    close.cancel();
    // Asked, not told: a supervisor retiring meanwhile cannot drop it (a hibernated session
    // of this connection is paused like a live one). Boxed like a frame's handling.
    Box::pin(connection.ask_supervisor(|| ConnectionClosed { connection_id })).await;
    // ignore: the writer ends on its own once the token is cancelled.
    let _ = writer.await;
    tracing::info!(connection = connection_id, "disconnected");
}

impl Connection {
    /// Reads and handles frames until the connection ends; returns the close frame a read
    /// error calls for. A frame is read only while the outbound queue has room for its
    /// replies, so a client that sends faster than it reads is slowed, not dropped.
    async fn read_loop(
        &mut self,
        mut stream: futures_util::stream::SplitStream<WebSocket>,
        close: &CancellationToken,
    ) -> Option<CloseFrame> {
        let mut last_frame = Instant::now();
        loop {
            let link = &self.link;
            let next = async {
                link.room_for_replies().await;
                tokio::time::timeout_at(last_frame + CLIENT_TIMEOUT, stream.next()).await
            };
            let idle = self.hibernate_at();
            let frame = tokio::select! {
                frame = next => frame,
                _ = close.cancelled() => return None,
                _ = sleep_until(idle) => {
                    Box::pin(self.hibernate()).await;
                    continue;
                }
            };
            last_frame = Instant::now();
            match frame {
                Err(_) => {
                    tracing::info!(connection = self.link.connection_id, "client timed out");
                    return None;
                }
                Ok(Some(Err(err))) => {
                    tracing::info!(connection = self.link.connection_id, %err, "read failed");
                    return close::for_read_error(err);
                }
                Ok(None) | Ok(Some(Ok(Message::Close(_)))) => return None,
                // Boxed: the handling of a frame (actor asks and all) is allocated while it
                // runs, not kept in every idle connection's task.
                Ok(Some(Ok(Message::Text(text)))) => Box::pin(self.on_text(text.as_str())).await,
                Ok(Some(Ok(Message::Binary(audio)))) => Box::pin(self.on_audio(&audio)).await,
                Ok(Some(Ok(Message::Pong(payload)))) => self.unread.confirm(&payload),
                Ok(Some(Ok(Message::Ping(_)))) => {}
            }
        }
    }

    fn send(&self, event: ServerEvent) {
        self.link.send(ServerMessage::unsequenced(event));
    }

    fn send_error(&self, code: ErrorCode, message: impl Into<String>, event_id: Option<String>) {
        self.link
            .send(ServerMessage::error(code, message, event_id));
    }

    async fn on_audio(&mut self, bytes: &[u8]) {
        self.last_event = Instant::now();
        if bytes.len() > MAX_AUDIO_FRAME_BYTES {
            let message = format!(
                "audio frame of {} bytes exceeds {MAX_AUDIO_FRAME_BYTES}",
                bytes.len()
            );
            return self.send_error(ErrorCode::FrameTooLarge, message, None);
        }
        if self.attached.is_none() {
            return self.send_error(
                ErrorCode::NoActiveSession,
                "audio needs a session; start or resume one",
                None,
            );
        }
        if !self.app.voice() {
            self.audio_refused += 1;
            if self.audio_refused % 100 == 1 {
                let message = "this server runs text-only (no speech model); use answer.text";
                self.send_error(ErrorCode::VoiceUnavailable, message, None);
            }
            return;
        }
        if !bytes.len().is_multiple_of(2) {
            let message = "audio frames are PCM16 little-endian: an even number of bytes";
            return self.send_error(ErrorCode::InvalidAudio, message, None);
        }
        let samples = bytes
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        let audio = Audio {
            connection_id: self.link.connection_id,
            samples,
        };
        self.deliver_audio(audio, true).await;
    }

    /// Hands a frame to the session, waking it again once if the actor this connection knew
    /// has stopped since (hibernated); a full mailbox is the only `overloaded`.
    async fn deliver_audio(&mut self, audio: Audio, may_wake: bool) {
        let Some(session) = self.awake_session(None).await else {
            return;
        };
        match session.tell(audio).try_send() {
            Ok(()) => {}
            Err(kameo::error::SendError::ActorNotRunning(audio)) if may_wake => {
                if let Some(attached) = self.attached.as_mut() {
                    attached.live = None;
                }
                Box::pin(self.deliver_audio(audio, false)).await;
            }
            Err(err) => {
                if matches!(err, kameo::error::SendError::MailboxFull(_)) {
                    self.app.metrics.server.mailbox_full.inc();
                }
                let message = "the session is busy; audio is arriving faster than it is heard";
                self.send_error(ErrorCode::Overloaded, message, None);
            }
        }
    }

    async fn on_text(&mut self, text: &str) {
        let message = match decode_client_text(text) {
            Ok(message) => message,
            Err(err) => return self.send_error(err.code, err.message, err.event_id),
        };
        self.app
            .metrics
            .server
            .events_in
            .inc(message.event.type_name());
        let event_id = message.event_id;
        if self.unread.over_limit() {
            return self.refuse_unread(event_id);
        }
        if !matches!(message.event, ClientEvent::Ping) {
            self.last_event = Instant::now();
        }
        match message.event {
            ClientEvent::Ping => self.send(ServerEvent::Pong),
            ClientEvent::SessionStart(start) => self.start(start, event_id).await,
            ClientEvent::SessionResume(resume) => self.resume(resume, event_id).await,
            ClientEvent::SessionPause => self.command(SessionCommand::Pause, event_id).await,
            ClientEvent::SessionEnd => self.command(SessionCommand::End, event_id).await,
            ClientEvent::AnswerText(answer) => {
                self.answer(AnswerInput::Text(answer.text), event_id).await
            }
            ClientEvent::AnswerChoice(choice) => {
                self.answer(AnswerInput::Choice(choice.index), event_id)
                    .await
            }
            ClientEvent::AnswerSkip => self.answer(AnswerInput::Skip, event_id).await,
            ClientEvent::AudioCommit => self.audio_control(event_id, true).await,
            ClientEvent::AudioClear => self.audio_control(event_id, false).await,
            // An event of a mode's own (`tutor.*`): the session's mode reads it, or refuses
            // it with `wrong_mode`.
            event => self.command(SessionCommand::Event(event), event_id).await,
        }
    }

    /// A client that has not read what it was sent is refused more, and nothing is applied.
    fn refuse_unread(&self, event_id: Option<String>) {
        self.app.metrics.server.unread_refusals.inc();
        let message = format!(
            "{} KiB of events sent to you are unread; read them before sending more",
            self.unread.unread() / 1024
        );
        self.send_error(ErrorCode::RateLimited, message, event_id);
    }

    async fn audio_control(&mut self, event_id: Option<String>, commit: bool) {
        if self.attached.is_none() {
            return self.send_error(
                ErrorCode::NoActiveSession,
                "no session is attached to this connection",
                event_id,
            );
        }
        let Some(session) = self.awake_session(event_id.as_deref()).await else {
            return;
        };
        let control = AudioControl {
            connection_id: self.link.connection_id,
            event_id: event_id.clone(),
            commit,
        };
        if session.tell(control).await.is_err() {
            let message = "the session is no longer live here; resume it";
            self.send_error(ErrorCode::SessionPaused, message, event_id);
        }
    }

    async fn start(&mut self, start: SessionStart, event_id: Option<String>) {
        let link = self.link.with_device(start.device_id).speaking(start.speak);
        let config = start.config;
        let make = || StartSession {
            link: link.clone(),
            event_id: event_id.clone(),
            config: config.clone(),
        };
        let reply = self.ask_supervisor(make).await;
        self.take_reply(reply, event_id);
    }

    async fn resume(&mut self, resume: SessionResume, event_id: Option<String>) {
        let link = self
            .link
            .with_device(resume.device_id)
            .speaking(resume.speak);
        let session_id = resume.session_id;
        let asked = std::time::Instant::now();
        let reply = self
            .ask_supervisor(|| ResumeSession {
                link: link.clone(),
                event_id: event_id.clone(),
                session_id: session_id.clone(),
            })
            .await;
        if let Some(Attached::Session { .. }) = &reply {
            self.app
                .metrics
                .server
                .resume_seconds
                .observe(asked.elapsed());
        }
        self.take_reply(reply, event_id);
    }

    /// Asks the user's supervisor, once more with a fresh one if it had just stopped.
    async fn ask_supervisor<M, R>(&self, make: impl Fn() -> M) -> Option<R>
    where
        M: Send + 'static,
        R: kameo::Reply<Ok = R, Error = kameo::error::Infallible, Value = R> + Send + 'static,
        UserSupervisor: kameo::message::Message<M, Reply = R>,
    {
        for _ in 0..2 {
            let supervisor = self.app.directory.supervisor(&self.user_id);
            match supervisor.ask(make()).await {
                Ok(reply) => return Some(reply),
                Err(err) => tracing::warn!(user = %self.user_id, ?err, "supervisor unavailable"),
            }
        }
        None
    }

    /// When the attached session hibernates if the client sends it nothing more.
    fn hibernate_at(&self) -> Option<Instant> {
        let after = self.app.hibernate_after?;
        self.attached.as_ref()?.live.as_ref()?;
        Some(self.last_event + after)
    }

    /// The client has been idle: asks for its session to hibernate (it stays awake if
    /// something is under way; then the next try is a whole idle period later).
    async fn hibernate(&mut self) {
        self.last_event = Instant::now();
        let Some(session_id) = self.attached.as_ref().map(|a| a.session_id.clone()) else {
            return;
        };
        let connection_id = self.link.connection_id;
        let asked = self
            .ask_supervisor(|| HibernateSession {
                session_id: session_id.clone(),
                connection_id,
            })
            .await;
        if asked == Some(true)
            && let Some(attached) = &mut self.attached
        {
            attached.live = None;
            self.app.directory.retire_if_idle(&self.user_id).await;
        }
    }

    /// The attached session's actor, woken if it hibernates. `None` when there is none: the
    /// client has been told why (for `event_id`).
    async fn awake_session(&mut self, event_id: Option<&str>) -> Option<ActorRef<LiveSession>> {
        let attached = self.attached.as_ref()?;
        if let Some(live) = &attached.live {
            return Some(live.clone());
        }
        let session_id = attached.session_id.clone();
        let connection_id = self.link.connection_id;
        let reply = self
            .ask_supervisor(|| WakeSession {
                session_id: session_id.clone(),
                connection_id,
            })
            .await;
        let event_id = event_id.map(str::to_owned);
        match reply {
            Some(Attached::Session { session, .. }) => {
                self.attached.as_mut()?.live = Some(session.clone());
                Some(session)
            }
            Some(Attached::Refused(refusal)) => {
                // Storage was out: it still hibernates, and a retry may wake it.
                if refusal.code != ErrorCode::StorageUnavailable {
                    self.attached = None;
                }
                self.send_error(refusal.code, refusal.message, event_id);
                None
            }
            None => {
                self.send_error(ErrorCode::Internal, UNAVAILABLE, event_id);
                None
            }
        }
    }

    fn take_reply(&mut self, reply: Option<Attached>, event_id: Option<String>) {
        match reply {
            Some(Attached::Session {
                session_id,
                session,
            }) => {
                self.attached = Some(AttachedSession {
                    session_id,
                    live: Some(session),
                })
            }
            Some(Attached::Refused(refusal)) => {
                self.send_error(refusal.code, refusal.message, event_id)
            }
            None => self.send_error(ErrorCode::Internal, UNAVAILABLE, event_id),
        }
    }

    async fn answer(&mut self, input: AnswerInput, event_id: Option<String>) {
        self.command(SessionCommand::Answer(input), event_id).await;
    }

    async fn command(&mut self, command: SessionCommand, event_id: Option<String>) {
        if self.attached.is_none() {
            return self.send_error(
                ErrorCode::NoActiveSession,
                "no session is attached to this connection",
                event_id,
            );
        }
        let Some(session) = self.awake_session(event_id.as_deref()).await else {
            return;
        };
        let request = Command {
            connection_id: self.link.connection_id,
            event_id: event_id.clone(),
            command,
        };
        match session.ask(request).await {
            Ok(CommandOutcome::Applied) => {}
            Ok(CommandOutcome::Repeated) => {
                if let Some(event_id) = event_id {
                    self.send(ServerEvent::Ack(Ack { event_id }));
                }
            }
            Ok(CommandOutcome::Refused(refusal)) => {
                self.send_error(refusal.code, refusal.message, event_id)
            }
            Err(err) => {
                tracing::warn!(?err, "session unavailable");
                self.attached = None;
                self.send_error(
                    ErrorCode::SessionPaused,
                    "the session is no longer live here; resume it",
                    event_id,
                );
            }
        }
    }
}

/// Sleeps until `at`; forever when there is no such time.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
