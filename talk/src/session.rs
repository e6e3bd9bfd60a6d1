//! One talk session over the WebSocket: the event loop that shows server events, forwards audio
//! from the microphone or the WAV script, reads the keyboard, and decides when to stop.
//!
//! Nothing in the loop waits on the network: a writer task owns the socket's sending half,
//! fed through a bounded queue, and audio that does not fit is dropped and counted.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::SplitStream;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use viva_protocol::client::AnswerText;
use viva_protocol::server::{ErrorEvent, PauseReason};
use viva_protocol::{ClientEvent, ClientMessage, ErrorCode, ServerEvent, ServerMessage};

use super::connect::{self, Socket};
use super::display::Printer;
use super::keyboard::{self, Action, TutorCommand};
use super::speak::{Speaker, spoken_question, spoken_turn};

/// Frames queued for the writer (about a second of audio, plus events).
const OUTBOUND_QUEUE: usize = 32;
/// Places in the writer's queue that audio leaves free for events.
const KEPT_FOR_EVENTS: usize = 8;
/// The session must start within this.
const START_TIMEOUT: Duration = Duration::from_secs(15);
/// A `ping` event this often keeps an idle connection open.
const KEEPALIVE: Duration = Duration::from_secs(15);
/// After the last WAV answer, events are still shown this long.
const LINGER: Duration = Duration::from_secs(2);
/// After a fatal error, events are still shown this long.
const GRACE: Duration = Duration::from_millis(1500);
/// How long closing the connection may take.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);
/// The `event_id` of the opening `session.start` or `session.resume`.
const START_ID: &str = "talk-start";

/// What an audio source hands the loop.
#[derive(Debug)]
pub enum Feed {
    /// One binary frame of 16 kHz mono PCM16.
    Audio(Vec<u8>),
    /// End the spoken turn (`audio.commit`).
    Commit,
    /// A line for the candidate.
    Note(String),
    /// Every answer was given.
    Finished,
    /// The source cannot go on.
    Failed(String),
}

/// What the session tells the script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// A question was asked.
    Question,
    /// The turn was transcribed (`transcript.final`).
    Heard,
    /// The answer was assessed.
    Assessed,
    /// An error, such as `no_speech`: the answer did not count.
    Refused(ErrorCode),
}

/// How the session ends.
#[derive(Debug)]
enum Ending {
    Done,
    Failed(String),
}

/// What the loop needs besides the socket.
pub struct Setup {
    /// `session.start` or `session.resume`.
    pub opening: ClientEvent,
    /// Audio frames and turn ends, from the microphone pump or the WAV script.
    pub feed: mpsc::Receiver<Feed>,
    /// Cues for the WAV script; none for the microphone.
    pub cues: Option<mpsc::Sender<Cue>>,
    /// Typed lines; none when the keyboard is not used.
    pub lines: Option<mpsc::Receiver<String>>,
    /// Reads questions aloud.
    pub speaker: Speaker,
    /// Plays the examiner's own voice from the server (`--server-voice`).
    pub player: Option<crate::play::Player>,
    /// Enter ends a turn.
    pub push_to_talk: bool,
    /// Samples the microphone dropped and its rate, for the closing note.
    pub mic_dropped: Option<(Arc<AtomicU64>, u32)>,
}

/// Runs the session until it completes, fails, or the answers are all given.
pub async fn run(socket: Socket, mut setup: Setup) -> anyhow::Result<()> {
    let (sink, stream) = socket.split();
    let (outbound, queue) = mpsc::channel(OUTBOUND_QUEUE);
    let writer = tokio::spawn(connect::write_loop(sink, queue));
    let mut talk = Talk {
        printer: Printer::stdout(),
        speaker: setup.speaker,
        player: setup.player,
        outbound,
        cues: setup.cues,
        push_to_talk: setup.push_to_talk,
        started: false,
        live: false,
        voice_refused: false,
        deadline: Some((Instant::now() + START_TIMEOUT, start_timeout())),
        ending: None,
        frames_dropped: 0,
        next_id: 0,
        tutor: TutorCards::default(),
    };
    talk.send_with_id(setup.opening, START_ID.to_owned());
    let ending = talk.event_loop(stream, &mut setup.feed, setup.lines).await;
    talk.closing_notes(setup.mic_dropped);
    drop(talk);
    // ignore: a writer that cannot finish in time is abandoned with the connection.
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, writer).await;
    match ending {
        Ending::Done => Ok(()),
        Ending::Failed(reason) => Err(anyhow::anyhow!(reason)),
    }
}

fn start_timeout() -> Ending {
    Ending::Failed(format!("no session started within {START_TIMEOUT:?}"))
}

/// The loop's state.
/// The tutor cards a typed command refers to.
#[derive(Debug, Default)]
struct TutorCards {
    /// The open exam question (for `/memo`).
    exam: Option<String>,
    /// The last card was an exam result (`/continue` is then `EXAM_CONTINUE`).
    after_exam: bool,
}

impl TutorCards {
    fn saw(&mut self, turn: &viva_protocol::tutor::TutorTurn) {
        use viva_protocol::tutor::Card;
        for card in turn.messages.iter().filter_map(|m| m.card.as_ref()) {
            self.after_exam = matches!(card, Card::ExamResult { .. });
            self.exam = match card {
                Card::Exam { question_id, .. } => Some(question_id.clone()),
                _ => None,
            };
        }
    }

    fn event(&self, command: TutorCommand) -> Option<ClientEvent> {
        use viva_protocol::tutor::{MemoViewed, RequestDrill};
        Some(match command {
            TutorCommand::Drill(unit_id) => {
                ClientEvent::TutorRequestDrill(RequestDrill { unit_id })
            }
            TutorCommand::Stuck => ClientEvent::TutorStuck,
            TutorCommand::Another => ClientEvent::TutorTryAnother,
            TutorCommand::Continue if self.after_exam => ClientEvent::TutorExamContinue,
            TutorCommand::Continue => ClientEvent::TutorDrillContinue,
            TutorCommand::Memo => ClientEvent::TutorMemoViewed(MemoViewed {
                question_id: self.exam.clone()?,
            }),
        })
    }
}

struct Talk {
    printer: Printer,
    speaker: Speaker,
    player: Option<crate::play::Player>,
    outbound: mpsc::Sender<Message>,
    cues: Option<mpsc::Sender<Cue>>,
    push_to_talk: bool,
    /// A session was started or resumed.
    started: bool,
    /// The session is attached here, so audio is wanted.
    live: bool,
    /// The server said it takes no spoken answers.
    voice_refused: bool,
    /// When the loop stops unless something stops it sooner, and how.
    deadline: Option<(Instant, Ending)>,
    /// Stop now.
    ending: Option<Ending>,
    frames_dropped: u64,
    next_id: u64,
    tutor: TutorCards,
}

impl Talk {
    async fn event_loop(
        &mut self,
        mut stream: SplitStream<Socket>,
        feed: &mut mpsc::Receiver<Feed>,
        mut lines: Option<mpsc::Receiver<String>>,
    ) -> Ending {
        let mut keepalive = tokio::time::interval_at(Instant::now() + KEEPALIVE, KEEPALIVE);
        loop {
            let deadline = self.deadline.as_ref().map(|(at, _)| *at);
            tokio::select! {
                frame = stream.next() => self.on_frame(frame),
                Some(item) = feed.recv() => self.on_feed(item),
                line = next_line(&mut lines), if lines.is_some() => match line {
                    Some(line) => self.on_action(keyboard::parse(&line, self.push_to_talk)),
                    None => lines = None,
                },
                _ = keepalive.tick() => self.send(ClientEvent::Ping),
                _ = sleep_until(deadline), if deadline.is_some() => {
                    self.ending = self.deadline.take().map(|(_, ending)| ending);
                }
            }
            if let Some(ending) = self.ending.take() {
                return ending;
            }
        }
    }

    fn on_frame(&mut self, frame: Option<Result<Message, WsError>>) {
        match frame {
            Some(Ok(Message::Text(text))) => match serde_json::from_str::<ServerMessage>(&text) {
                Ok(message) => self.on_event(message.event),
                Err(err) => self
                    .printer
                    .line(&format!("(unreadable server event: {err})")),
            },
            Some(Ok(Message::Binary(audio))) => {
                if let Some(player) = &mut self.player {
                    player.play(&audio);
                }
            }
            Some(Ok(Message::Close(_))) | None => {
                self.connection_ended("the server closed the connection")
            }
            Some(Err(err)) => self.connection_ended(&format!("the connection failed: {err}")),
            Some(Ok(_)) => {}
        }
    }

    /// The connection is gone: a pending ending (such as the linger after the last answer)
    /// happens now; otherwise the session failed.
    fn connection_ended(&mut self, reason: &str) {
        let pending = self.deadline.take().map(|(_, ending)| ending);
        self.ending = Some(match pending {
            Some(ending) if self.started => ending,
            _ => Ending::Failed(reason.to_owned()),
        });
    }

    fn on_event(&mut self, event: ServerEvent) {
        if !self.is_repeat(&event) {
            self.printer.event(&event);
        }
        match event {
            ServerEvent::SessionStarted(_) | ServerEvent::SessionResumed(_) => self.on_started(),
            ServerEvent::Question(question) => {
                self.speaker
                    .speak(spoken_question(&question.text, question.options.as_deref()));
                self.cue(Cue::Question);
            }
            ServerEvent::TranscriptFinal(_) => self.cue(Cue::Heard),
            ServerEvent::AnswerUnclear(unclear) => {
                // The item is still open: say what was heard and listen again.
                self.speaker.speak(unclear.message);
                self.cue(Cue::Refused(ErrorCode::AnswerUnclear));
            }
            ServerEvent::Assessment(_) => self.cue(Cue::Assessed),
            ServerEvent::TutorTurn(turn) => {
                self.tutor.saw(&turn);
                self.speaker.speak(spoken_turn(&turn));
                self.cue(Cue::Question);
            }
            ServerEvent::SessionCompleted(_) => self.ending = Some(Ending::Done),
            ServerEvent::SessionPaused(paused) => self.on_paused(paused.reason),
            ServerEvent::Error(error) => self.on_error(error),
            ServerEvent::VoiceStarted(started) => {
                if let Some(player) = &mut self.player {
                    player.begin(started.sample_rate);
                }
            }
            ServerEvent::VoiceEnded(ended) => {
                let cancelled = ended.status == viva_protocol::voice::VoiceEndStatus::Cancelled;
                if let Some(player) = self.player.as_mut().filter(|_| cancelled) {
                    player.stop();
                }
            }
            ServerEvent::QuestionDelta(_)
            | ServerEvent::AnswerAssessing(_)
            | ServerEvent::TutorDelta(_)
            | ServerEvent::TranscriptPartial(_)
            | ServerEvent::Ack(_)
            | ServerEvent::VoiceMark(_)
            | ServerEvent::SpeechStarted(_)
            | ServerEvent::SpeechStopped(_)
            | ServerEvent::Pong => {}
        }
    }

    /// A `voice_unavailable` after the first says nothing new.
    fn is_repeat(&self, event: &ServerEvent) -> bool {
        let voice_refusal =
            matches!(event, ServerEvent::Error(e) if e.code == ErrorCode::VoiceUnavailable);
        voice_refusal && self.voice_refused
    }

    fn on_started(&mut self) {
        if !self.started {
            self.started = true;
            self.deadline = None;
        }
        self.live = true;
    }

    fn on_paused(&mut self, reason: PauseReason) {
        self.live = false;
        self.ending = Some(match reason {
            PauseReason::User => Ending::Done,
            PauseReason::OtherDevice => {
                Ending::Failed("the session moved to another device".into())
            }
            PauseReason::ServerShutdown => Ending::Failed(
                "the server is shutting down; run again with --resume to continue".into(),
            ),
        });
    }

    fn on_error(&mut self, error: ErrorEvent) {
        let reason = format!("{} ({})", error.message, error.code.as_str());
        if error.event_id.as_deref() == Some(START_ID) {
            self.ending = Some(Ending::Failed(format!(
                "the session did not start: {reason}"
            )));
            return;
        }
        match error.code {
            ErrorCode::VoiceUnavailable => {
                // No more audio: it would only be refused again.
                self.voice_refused = true;
                self.fail_soon(format!("the server does not take spoken answers: {reason}"));
            }
            ErrorCode::SessionMoved | ErrorCode::ServerShuttingDown => {
                self.ending = Some(Ending::Failed(reason));
            }
            // The `answer.unclear` beside it says what was heard, and cues once.
            ErrorCode::AnswerUnclear => {}
            code => self.cue(Cue::Refused(code)),
        }
    }

    /// Stops after [`GRACE`], so the events already on their way are still shown.
    fn fail_soon(&mut self, reason: String) {
        let failing = matches!(self.deadline, Some((_, Ending::Failed(_))));
        if !failing {
            self.deadline = Some((Instant::now() + GRACE, Ending::Failed(reason)));
        }
    }

    fn on_feed(&mut self, item: Feed) {
        match item {
            Feed::Audio(frame) => self.send_audio(frame),
            Feed::Commit => self.send(ClientEvent::AudioCommit),
            Feed::Note(note) => self.printer.line(&note),
            Feed::Finished if self.deadline.is_none() => {
                self.deadline = Some((Instant::now() + LINGER, Ending::Done));
            }
            Feed::Finished => {}
            Feed::Failed(reason) => self.ending = Some(Ending::Failed(reason)),
        }
    }

    fn on_action(&mut self, action: Action) {
        match action {
            Action::Commit => self.send(ClientEvent::AudioCommit),
            Action::Clear => self.send(ClientEvent::AudioClear),
            Action::Answer(text) => self.send(ClientEvent::AnswerText(AnswerText { text })),
            Action::Skip => self.send(ClientEvent::AnswerSkip),
            Action::End => self.send(ClientEvent::SessionEnd),
            Action::Quit => {
                self.printer
                    .line("Left the session open; continue it with --resume.");
                self.ending = Some(Ending::Done);
            }
            Action::Tutor(command) => match self.tutor.event(command) {
                Some(event) => self.send(event),
                None => self.printer.line("No exam question is open."),
            },
            Action::Help => self.printer.line(keyboard::HELP),
            Action::Nothing => {}
        }
    }

    fn cue(&mut self, cue: Cue) {
        if let Some(cues) = &self.cues {
            // ignore: a script that stopped listening, or is far behind, misses nothing it needs.
            let _ = cues.try_send(cue);
        }
    }

    /// Sends a frame when the session wants audio and the speaker is quiet; drops it when the
    /// connection is behind (the writer's queue is nearly full).
    fn send_audio(&mut self, frame: Vec<u8>) {
        if !self.live || self.voice_refused || self.speaker.is_speaking() {
            return;
        }
        if self.outbound.capacity() <= KEPT_FOR_EVENTS {
            self.frames_dropped += 1;
            return;
        }
        if self.outbound.try_send(Message::binary(frame)).is_err() {
            self.writer_gone();
        }
    }

    fn send(&mut self, event: ClientEvent) {
        self.next_id += 1;
        let id = format!("talk-{}", self.next_id);
        self.send_with_id(event, id);
    }

    fn send_with_id(&mut self, event: ClientEvent, event_id: String) {
        let message = ClientMessage {
            event_id: Some(event_id),
            event,
        };
        let text = match serde_json::to_string(&message) {
            Ok(text) => text,
            Err(err) => return self.ending = Some(Ending::Failed(format!("cannot encode: {err}"))),
        };
        match self.outbound.try_send(Message::text(text)) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.ending = Some(Ending::Failed("the connection is not draining".into()))
            }
            Err(mpsc::error::TrySendError::Closed(_)) => self.writer_gone(),
        }
    }

    fn writer_gone(&mut self) {
        self.connection_ended("the connection was lost while sending");
    }

    fn closing_notes(&mut self, mic_dropped: Option<(Arc<AtomicU64>, u32)>) {
        let (count, rate) = mic_dropped.unwrap_or_default();
        let dropped = count.load(Ordering::Relaxed);
        if dropped > 0 {
            let seconds = dropped as f64 / f64::from(rate.max(1));
            eprintln!("note: {seconds:.1} s of microphone audio was dropped (arriving too fast)");
        }
        if self.frames_dropped > 0 {
            eprintln!(
                "note: {} audio frames were dropped (slow connection)",
                self.frames_dropped
            );
        }
    }
}

async fn next_line(lines: &mut Option<mpsc::Receiver<String>>) -> Option<String> {
    lines.as_mut()?.recv().await
}

async fn sleep_until(deadline: Option<Instant>) {
    if let Some(deadline) = deadline {
        tokio::time::sleep_until(deadline).await;
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
