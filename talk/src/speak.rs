//! Speaking the examiner's questions with `espeak-ng`, in a child process that never blocks the
//! event loop. While it speaks (and a moment after), the microphone is muted so the question is
//! not heard back as the answer.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The speech program looked up on `PATH`.
const PROGRAM: &str = "espeak-ng";
/// A question read aloud longer than this is cut short.
const SPEAK_LIMIT: Duration = Duration::from_secs(60);
/// Silence kept after speaking, for the sound still in the speakers.
const SPEAK_TAIL: Duration = Duration::from_millis(300);

/// Reads questions aloud, one at a time: a new one cuts the previous one short.
pub struct Speaker {
    program: Option<PathBuf>,
    speaking: watch::Sender<bool>,
    current: Option<JoinHandle<()>>,
}

impl Speaker {
    /// A speaker using `espeak-ng` from `PATH`, or a silent one (`enabled` false, or not found).
    /// The note says why it is silent, when the user asked for speech.
    pub fn new(enabled: bool) -> (Speaker, Option<String>) {
        let program = enabled.then(|| find_on_path(PROGRAM)).flatten();
        let note = (enabled && program.is_none())
            .then(|| format!("note: {PROGRAM} is not on PATH; questions are printed, not spoken"));
        let speaker = Speaker {
            program,
            speaking: watch::channel(false).0,
            current: None,
        };
        (speaker, note)
    }

    /// True while a question is being read aloud (and just after).
    pub fn is_speaking(&self) -> bool {
        *self.speaking.borrow()
    }

    /// Follows [`Speaker::is_speaking`].
    pub fn watch(&self) -> watch::Receiver<bool> {
        self.speaking.subscribe()
    }

    /// Starts reading `text` aloud, cutting short whatever was being read.
    pub fn speak(&mut self, text: String) {
        let Some(program) = self.program.clone() else {
            return;
        };
        if let Some(previous) = self.current.take() {
            previous.abort();
        }
        self.speaking.send_replace(true);
        let speaking = self.speaking.clone();
        self.current = Some(tokio::spawn(async move {
            if let Err(err) = say(&program, &text).await {
                tracing::debug!(%err, "{PROGRAM} failed");
            }
            tokio::time::sleep(SPEAK_TAIL).await;
            speaking.send_replace(false);
        }));
    }
}

impl Drop for Speaker {
    fn drop(&mut self) {
        if let Some(current) = self.current.take() {
            current.abort();
        }
    }
}

/// Runs the program with `text` on its standard input; killed if cut short or too slow.
async fn say(program: &Path, text: &str) -> std::io::Result<()> {
    let mut child = tokio::process::Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(text.as_bytes()).await?;
    }
    match tokio::time::timeout(SPEAK_LIMIT, child.wait()).await {
        Ok(status) => status.map(drop),
        Err(_) => child.kill().await,
    }
}

/// The first executable file called `name` in the directories of `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The question as read aloud: its text, then its options.
pub fn spoken_question(text: &str, options: Option<&[String]>) -> String {
    let mut spoken = text.to_owned();
    for (index, option) in options.unwrap_or_default().iter().enumerate() {
        spoken.push_str(&format!(" Option {}: {option}.", index + 1));
    }
    spoken
}

/// A tutor turn as read aloud: each message, and a card's question with its options.
pub fn spoken_turn(turn: &viva_protocol::tutor::TutorTurn) -> String {
    use viva_protocol::tutor::Card;
    let mut spoken = Vec::new();
    for message in &turn.messages {
        spoken.push(message.text.clone());
        match &message.card {
            Some(Card::Drill {
                prompt, options, ..
            }) => {
                spoken.push(spoken_question(prompt, Some(options)));
            }
            Some(Card::Exam { stem, options, .. }) => {
                spoken.push(spoken_question(stem, Some(options)));
            }
            Some(Card::ConceptCard { key_ideas, .. }) => spoken.extend(key_ideas.iter().cloned()),
            _ => {}
        }
    }
    spoken.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disabled_speaker_is_silent_without_a_note() {
        let (speaker, note) = Speaker::new(false);
        assert!(speaker.program.is_none());
        assert!(note.is_none());
        assert!(!speaker.is_speaking());
    }

    #[test]
    fn programs_are_found_on_path() {
        assert!(find_on_path("sh").is_some());
        assert!(find_on_path("surely-no-such-program-here").is_none());
    }

    #[tokio::test]
    async fn speaking_mutes_until_the_program_ends() {
        let mut speaker = Speaker {
            program: find_on_path("true"),
            speaking: watch::channel(false).0,
            current: None,
        };
        let mut speaking = speaker.watch();
        speaker.speak("Hello.".into());
        assert!(speaker.is_speaking());
        let finished =
            tokio::time::timeout(Duration::from_secs(5), speaking.wait_for(|s| !s)).await;
        assert!(finished.is_ok(), "still speaking");
    }

    #[test]
    fn questions_are_read_with_their_options() {
        assert_eq!(spoken_question("Why?", None), "Why?");
        let options = ["42".to_owned(), "52".to_owned()];
        assert_eq!(
            spoken_question("What is 12 + 30?", Some(&options)),
            "What is 12 + 30? Option 1: 42. Option 2: 52."
        );
    }
}
