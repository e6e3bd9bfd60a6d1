//! One WebSocket connection: decode each frame once, route it to the user's supervisor or
//! attached session, and write server events from a bounded queue, with a heartbeat.
//!
//! - this file: the connection and its read loop, which reads a frame only while the
//!   outbound queue has room for its replies (flow control);
//! - `writer`: the write loop, each write bounded by a timeout;
//! - `close`: close codes.

mod close;
mod writer;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::StreamExt;
use kameo::actor::ActorRef;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use viva_actors::link::DeviceLink;
use viva_actors::session::{
    Audio, AudioControl, Command, CommandOutcome, LiveSession, SessionCommand,
};
use viva_actors::supervisor::{Attached, ConnectionClosed, ResumeSession, StartSession};
use viva_core::session::assessment::AnswerInput;
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

/// The session this connection drives.
struct AttachedSession {
    session: ActorRef<LiveSession>,
}

/// Per-connection state of the read loop.
struct Connection {
    app: Arc<App>,
    user_id: String,
    link: DeviceLink,
    attached: Option<AttachedSession>,
    /// Audio frames refused for want of a speech model (one error per 100 frames is sent).
    audio_refused: u64,
}

/// Runs one connection to its end.
pub async fn serve(socket: WebSocket, app: Arc<App>, user_id: String, connection_id: u64) {
    let close = app.shutdown.child_token();
    let (link, outbound) = DeviceLink::new(connection_id, String::new(), close.clone());
    let (sink, stream) = socket.split();
    let (farewell, farewell_rx) = oneshot::channel();
    let writer = tokio::spawn(writer::write_loop(
        connection_id,
        sink,
        outbound,
        close.clone(),
        farewell_rx,
        app.metrics.server.clone(),
    ));
    let mut connection = Connection {
        app: app.clone(),
        user_id,
        link,
        attached: None,
        audio_refused: 0,
    };
    tracing::info!(connection = connection_id, user = %connection.user_id, "connected");
    if let Some(goodbye) = connection.read_loop(stream, &close).await {
        // ignore: a writer that already stopped has no one to say it to.
        let _ = farewell.send(goodbye);
    }
    close.cancel();
    let supervisor = app.directory.supervisor(&connection.user_id);
    // ignore: a stopped supervisor has no session holding this connection.
    let _ = supervisor.tell(ConnectionClosed { connection_id }).await;
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
        loop {
            let link = &self.link;
            let next = async {
                link.room_for_replies().await;
                tokio::time::timeout(CLIENT_TIMEOUT, stream.next()).await
            };
            let frame = tokio::select! {
                frame = next => frame,
                _ = close.cancelled() => return None,
            };
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
                Ok(Some(Ok(Message::Text(text)))) => self.on_text(text.as_str()).await,
                Ok(Some(Ok(Message::Binary(audio)))) => self.on_audio(&audio).await,
                Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => {}
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
        if bytes.len() > MAX_AUDIO_FRAME_BYTES {
            let message = format!(
                "audio frame of {} bytes exceeds {MAX_AUDIO_FRAME_BYTES}",
                bytes.len()
            );
            return self.send_error(ErrorCode::FrameTooLarge, message, None);
        }
        let Some(attached) = &self.attached else {
            return self.send_error(
                ErrorCode::NoActiveSession,
                "audio needs a session; start or resume one",
                None,
            );
        };
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
        if let Err(err) = attached.session.tell(audio).try_send() {
            if matches!(err, kameo::error::SendError::MailboxFull(_)) {
                self.app.metrics.server.mailbox_full.inc();
            }
            let message = "the session is busy; audio is arriving faster than it is heard";
            self.send_error(ErrorCode::Overloaded, message, None);
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
            tutor => match viva_core::tutor::wire::tutor_input(tutor) {
                Some(Ok(input)) => self.command(SessionCommand::Tutor(input), event_id).await,
                Some(Err(refusal)) => self.send_error(refusal.code, refusal.message, event_id),
                None => {}
            },
        }
    }

    async fn audio_control(&self, event_id: Option<String>, commit: bool) {
        let Some(attached) = &self.attached else {
            return self.send_error(
                ErrorCode::NoActiveSession,
                "no session is attached to this connection",
                event_id,
            );
        };
        let control = AudioControl {
            connection_id: self.link.connection_id,
            event_id: event_id.clone(),
            commit,
        };
        if attached.session.tell(control).await.is_err() {
            let message = "the session is no longer live here; resume it";
            self.send_error(ErrorCode::SessionPaused, message, event_id);
        }
    }

    async fn start(&mut self, start: SessionStart, event_id: Option<String>) {
        let link = self.link.with_device(start.device_id);
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
        let link = self.link.with_device(resume.device_id);
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
    async fn ask_supervisor<M>(&self, make: impl Fn() -> M) -> Option<Attached>
    where
        M: Send + 'static,
        viva_actors::supervisor::UserSupervisor: kameo::message::Message<M, Reply = Attached>,
    {
        for _ in 0..2 {
            let supervisor = self.app.directory.supervisor(&self.user_id);
            match supervisor.ask(make()).await {
                Ok(attached) => return Some(attached),
                Err(err) => tracing::warn!(user = %self.user_id, ?err, "supervisor unavailable"),
            }
        }
        None
    }

    fn take_reply(&mut self, reply: Option<Attached>, event_id: Option<String>) {
        match reply {
            Some(Attached::Session { session, .. }) => {
                self.attached = Some(AttachedSession { session })
            }
            Some(Attached::Refused(refusal)) => {
                self.send_error(refusal.code, refusal.message, event_id)
            }
            None => self.send_error(
                ErrorCode::Internal,
                "the session service is unavailable; retry",
                event_id,
            ),
        }
    }

    async fn answer(&mut self, input: AnswerInput, event_id: Option<String>) {
        self.command(SessionCommand::Answer(input), event_id).await;
    }

    async fn command(&mut self, command: SessionCommand, event_id: Option<String>) {
        let Some(attached) = &self.attached else {
            return self.send_error(
                ErrorCode::NoActiveSession,
                "no session is attached to this connection",
                event_id,
            );
        };
        let request = Command {
            connection_id: self.link.connection_id,
            event_id: event_id.clone(),
            command,
        };
        match attached.session.ask(request).await {
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
