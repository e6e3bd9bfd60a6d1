//! The keyboard while talking: Enter ends a push-to-talk turn, a typed line is a text answer,
//! and a few slash commands. Lines are read on a plain thread (a blocking read must not hold up
//! the runtime's shutdown) and handed over through a bounded channel.

use std::io::BufRead;

use tokio::sync::mpsc;

/// Lines typed ahead of the session before the reader waits.
const LINE_QUEUE: usize = 16;

/// Shown once when the microphone starts.
pub const HELP: &str = "Type an answer and press Enter to send it as text; \
                        /skip, /end (grade now), /quit (leave it resumable), /help. \
                        Tutoring: /drill [unit], /stuck, /another, /continue, /memo.";

/// What a typed line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// End the spoken turn now (`audio.commit`).
    Commit,
    /// Discard the spoken turn (`audio.clear`).
    Clear,
    /// A typed answer (`answer.text`).
    Answer(String),
    /// Skip the item (`answer.skip`).
    Skip,
    /// End and grade the session (`session.end`).
    End,
    /// Leave; the session stays resumable.
    Quit,
    /// A tutor's card event.
    Tutor(TutorCommand),
    /// Show the commands.
    Help,
    /// Nothing to do.
    Nothing,
}

/// The tutor's card buttons, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TutorCommand {
    /// `/drill [unit]`: `REQUEST_DRILL`.
    Drill(Option<String>),
    /// `/stuck`: "I'm stuck".
    Stuck,
    /// `/another`: "Try another".
    Another,
    /// `/continue`: `DRILL_CONTINUE` or `EXAM_CONTINUE`.
    Continue,
    /// `/memo`: open the open exam question's memo (it locks the question).
    Memo,
}

/// Reads one typed line.
pub fn parse(line: &str, push_to_talk: bool) -> Action {
    match line.trim() {
        "" if push_to_talk => Action::Commit,
        "" => Action::Nothing,
        "/clear" => Action::Clear,
        "/skip" => Action::Skip,
        "/end" => Action::End,
        "/quit" | "/exit" => Action::Quit,
        "/stuck" => Action::Tutor(TutorCommand::Stuck),
        "/another" => Action::Tutor(TutorCommand::Another),
        "/continue" => Action::Tutor(TutorCommand::Continue),
        "/memo" => Action::Tutor(TutorCommand::Memo),
        "/drill" => Action::Tutor(TutorCommand::Drill(None)),
        command if command.starts_with("/drill ") => {
            let unit = command["/drill ".len()..].trim().to_owned();
            Action::Tutor(TutorCommand::Drill(Some(unit)))
        }
        command if command.starts_with('/') => Action::Help,
        text => Action::Answer(text.to_owned()),
    }
}

/// Starts reading stdin lines on a thread; the channel closes at end of input.
pub fn lines() -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel(LINE_QUEUE);
    let spawned = std::thread::Builder::new()
        .name("viva-talk-keys".into())
        .spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { return };
                if sender.blocking_send(line).is_err() {
                    return;
                }
            }
        });
    if let Err(err) = spawned {
        tracing::warn!(%err, "cannot read the keyboard");
    }
    receiver
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_actions() {
        let check = |line, push_to_talk, expected| {
            assert_eq!(parse(line, push_to_talk), expected, "{line:?}");
        };
        check("", true, Action::Commit);
        check("  ", false, Action::Nothing);
        check("ninety days", false, Action::Answer("ninety days".into()));
        check(" 42 \n", true, Action::Answer("42".into()));
        check("/skip", false, Action::Skip);
        check("/stuck", false, Action::Tutor(TutorCommand::Stuck));
        check("/drill", false, Action::Tutor(TutorCommand::Drill(None)));
        check(
            "/drill add-2digit",
            false,
            Action::Tutor(TutorCommand::Drill(Some("add-2digit".into()))),
        );
        check("/continue", true, Action::Tutor(TutorCommand::Continue));
        check("/end", true, Action::End);
        check("/quit", false, Action::Quit);
        check("/clear", true, Action::Clear);
        check("/what", false, Action::Help);
    }
}
