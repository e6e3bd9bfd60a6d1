//! Headless answers (`--wav`): for each file in turn, wait for a question, stream the file at
//! real-time pace, then silence until the server's end-of-turn detection ends the turn (or
//! `audio.commit`), and wait for the assessment. Every wait is bounded.

use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use viva_protocol::ErrorCode;

use super::pcm::{FRAME_DURATION, SPEECH_RATE, frames_of, silent_frame};
use super::session::{Cue, Feed};

/// Silence streamed before each answer.
const LEAD_IN: Duration = Duration::from_millis(320);
/// With push-to-talk, silence streamed after an answer before `audio.commit`.
const PUSH_TO_TALK_TAIL: Duration = Duration::from_millis(480);
/// The server's thinking pause when the session does not set one.
const SERVER_THINKING_PAUSE: Duration = Duration::from_secs(3);
/// What the server adds to the pause after a filler word ("um"), plus a margin.
const PAUSE_ALLOWANCE: Duration = Duration::from_secs(3);
/// The longest wait for a question.
const QUESTION_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest wait for the assessment of an answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(90);
/// The longest wait for the question to be read aloud.
const SPEAKING_TIMEOUT: Duration = Duration::from_secs(90);

/// How the script ends each answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnEnd {
    /// Push-to-talk: a moment of silence, then `audio.commit`.
    Commit,
    /// Silence long enough for the server's end-of-turn detection, which waits this thinking
    /// pause (`audio.commit` follows if it has not ended the turn by then).
    ServerPause(Option<Duration>),
}

impl TurnEnd {
    /// The silence streamed before `audio.commit`.
    fn silence(self) -> Duration {
        match self {
            TurnEnd::Commit => PUSH_TO_TALK_TAIL,
            TurnEnd::ServerPause(pause) => pause.unwrap_or(SERVER_THINKING_PAUSE) + PAUSE_ALLOWANCE,
        }
    }
}

/// One answer: a file's name and its 16 kHz mono samples.
pub struct Answer {
    /// The file, for people.
    pub name: String,
    /// Its audio.
    pub samples: Vec<i16>,
}

/// Plays the answers in order, then says `Finished` (or `Failed`).
pub async fn play(
    answers: Vec<Answer>,
    cues: mpsc::Receiver<Cue>,
    feed: mpsc::Sender<Feed>,
    speaking: watch::Receiver<bool>,
    turn_end: TurnEnd,
) {
    let mut player = Player {
        cues,
        feed: feed.clone(),
        speaking,
        turn_end,
        question_open: false,
        pace: tokio::time::interval(FRAME_DURATION),
    };
    let total = answers.len();
    for (index, answer) in answers.iter().enumerate() {
        if let Err(reason) = player.answer(answer, index + 1, total).await {
            // ignore: the session has already ended.
            let _ = feed.send(Feed::Failed(reason)).await;
            return;
        }
    }
    // ignore: the session has already ended.
    let _ = feed.send(Feed::Finished).await;
}

struct Player {
    cues: mpsc::Receiver<Cue>,
    feed: mpsc::Sender<Feed>,
    speaking: watch::Receiver<bool>,
    turn_end: TurnEnd,
    /// A question is waiting for an answer.
    question_open: bool,
    /// Ticks once per frame while an answer streams.
    pace: tokio::time::Interval,
}

/// The session is gone; nothing more to do.
const GONE: &str = "the session ended";

impl Player {
    async fn answer(&mut self, answer: &Answer, number: usize, total: usize) -> Result<(), String> {
        if !self.question_open {
            self.wait_for_question().await?;
        }
        self.wait_until_quiet().await;
        self.pace = tokio::time::interval(FRAME_DURATION);
        let seconds = answer.samples.len() as f64 / f64::from(SPEECH_RATE);
        self.note(format!(
            "[answer {number}/{total}: {} ({seconds:.1} s)]",
            answer.name
        ))
        .await?;
        self.stream_silence(LEAD_IN).await?;
        for frame in frames_of(&answer.samples) {
            self.stream(frame).await?;
        }
        let outcome = self.end_turn().await?;
        self.question_open = match outcome {
            Some(cue) => self.settle(cue, &answer.name).await?,
            None => self.await_assessment(&answer.name).await?,
        };
        Ok(())
    }

    async fn wait_for_question(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + QUESTION_TIMEOUT;
        loop {
            match tokio::time::timeout_at(deadline, self.cues.recv()).await {
                Ok(Some(Cue::Question)) => return Ok(()),
                Ok(Some(_)) => {}
                Ok(None) => return Err(GONE.into()),
                Err(_) => return Err(format!("no question came within {QUESTION_TIMEOUT:?}")),
            }
        }
    }

    async fn wait_until_quiet(&mut self) {
        // ignore: a speaker that is stuck or gone is not worth failing the answer for.
        let _ = tokio::time::timeout(SPEAKING_TIMEOUT, self.speaking.wait_for(|s| !s)).await;
    }

    /// Silence until the server ends the turn; `audio.commit` if it has not. The cue that
    /// ended it, if one did.
    async fn end_turn(&mut self) -> Result<Option<Cue>, String> {
        let deadline = Instant::now() + self.turn_end.silence();
        while Instant::now() < deadline {
            tokio::select! {
                Some(cue) = self.cues.recv() => return Ok(Some(cue)),
                _ = self.pace.tick() => self.send(Feed::Audio(silent_frame())).await?,
            }
        }
        self.send(Feed::Commit).await?;
        Ok(None)
    }

    /// Whether the question is still open after `cue`, waiting on for the assessment if the
    /// turn was only heard so far.
    async fn settle(&mut self, cue: Cue, name: &str) -> Result<bool, String> {
        match cue {
            Cue::Heard => self.await_assessment(name).await,
            other => Ok(still_open_after(other)),
        }
    }

    async fn await_assessment(&mut self, name: &str) -> Result<bool, String> {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            match tokio::time::timeout_at(deadline, self.cues.recv()).await {
                Ok(Some(Cue::Heard)) => {}
                Ok(Some(cue)) => return Ok(still_open_after(cue)),
                Ok(None) => return Err(GONE.into()),
                Err(_) => {
                    let note = format!("[no assessment of {name} within {ANSWER_TIMEOUT:?}]");
                    self.note(note).await?;
                    return Ok(true);
                }
            }
        }
    }

    async fn stream_silence(&mut self, length: Duration) -> Result<(), String> {
        let frames = length.as_millis() / FRAME_DURATION.as_millis();
        for _ in 0..frames {
            self.stream(silent_frame()).await?;
        }
        Ok(())
    }

    /// Sends one frame at real-time pace, one frame duration after the previous one.
    async fn stream(&mut self, frame: Vec<u8>) -> Result<(), String> {
        self.pace.tick().await;
        self.send(Feed::Audio(frame)).await
    }

    async fn note(&mut self, note: String) -> Result<(), String> {
        self.send(Feed::Note(note)).await
    }

    async fn send(&mut self, item: Feed) -> Result<(), String> {
        self.feed.send(item).await.map_err(|_| GONE.to_owned())
    }
}

/// After an assessment the question is answered; after a new question or a refusal (such as
/// `no_speech`), one is open.
fn still_open_after(cue: Cue) -> bool {
    match cue {
        Cue::Assessed => false,
        Cue::Refused(ErrorCode::NoOpenQuestion) => false,
        Cue::Question | Cue::Heard | Cue::Refused(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_silence_after_an_answer_outlasts_the_thinking_pause() {
        assert_eq!(TurnEnd::Commit.silence(), PUSH_TO_TALK_TAIL);
        assert_eq!(TurnEnd::ServerPause(None).silence(), Duration::from_secs(6));
        let paced = TurnEnd::ServerPause(Some(Duration::from_millis(1500)));
        assert_eq!(paced.silence(), Duration::from_millis(4500));
    }

    #[test]
    fn only_an_assessment_closes_the_question() {
        assert!(!still_open_after(Cue::Assessed));
        assert!(still_open_after(Cue::Question));
        assert!(still_open_after(Cue::Refused(ErrorCode::NoSpeech)));
        assert!(!still_open_after(Cue::Refused(ErrorCode::NoOpenQuestion)));
    }
}
