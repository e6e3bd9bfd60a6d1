//! `viva talk` flags, and the `session.start` or `session.resume` they ask for.

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use viva_protocol::ClientEvent;
use viva_protocol::client::{SessionResume, SessionStart};
use viva_protocol::config::{
    AircraftClass, AssessmentConfig, Difficulty, ExamConfig, ExamRating, InputMode, SessionConfig,
    StudyMode, THINKING_PAUSE_MS, TutorConfig,
};

use super::connect::Credentials;

/// Answer an exam by voice: the microphone (or WAV files) in, questions and feedback out.
#[derive(Debug, clap::Args)]
pub struct TalkArgs {
    /// The server's WebSocket URL (`/v1/ws` is added when it has no path).
    #[arg(long, env = "VIVA_SERVER", default_value = "ws://127.0.0.1:8080/v1/ws")]
    pub server: String,
    /// Your user id, sent as `?user=ID` to a server in development mode (ignored with a token).
    #[arg(long, env = "VIVA_USER")]
    pub user: Option<String>,
    /// A token from `viva token`, sent as `Authorization: Bearer`.
    #[arg(long, env = "VIVA_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// The microphone: an input device's name, id, or a unique part of its name (default: the
    /// system's default input). See --list-devices.
    #[arg(long, value_name = "NAME", conflicts_with = "wav")]
    pub device: Option<String>,
    /// List the sound input devices and exit.
    #[arg(long)]
    pub list_devices: bool,
    /// Answer from a WAV file instead of the microphone, streamed at real-time pace (any rate
    /// and channels). Repeat it for several answers, one file per question, in order.
    #[arg(long, value_name = "FILE")]
    pub wav: Vec<PathBuf>,
    /// Press Enter to end each answer (`audio.commit`); otherwise a pause ends it.
    #[arg(long)]
    pub push_to_talk: bool,
    /// Do not read the questions aloud (they are read with espeak-ng when it is installed).
    #[arg(long)]
    pub no_speak: bool,
    /// Hear the examiner's own voice from the server (`"speak": true`), played on the default
    /// output device, instead of espeak-ng; speaking over it stops it (use headphones).
    #[arg(long)]
    pub server_voice: bool,
    /// The `device_id` this client gives the server (keep it for --resume).
    #[arg(long, value_name = "ID", default_value = "viva-talk")]
    pub device_id: String,
    #[command(flatten)]
    pub session: SessionArgs,
}

/// Which session to start or resume.
#[derive(Debug, clap::Args)]
pub struct SessionArgs {
    /// Take a blueprint assessment, such as MATH-FUNDAMENTALS-L1, instead of an ACS exam.
    #[arg(long, value_name = "ID")]
    pub assessment: Option<String>,
    /// With --assessment: learning mode, with feedback after each item (default: evaluation).
    #[arg(long, requires = "assessment")]
    pub learning: bool,
    /// Be tutored on a course, such as ARITHMETIC, IPV4-SUBNETTING or PPL-GROUND.
    #[arg(long, value_name = "COURSE_ID", conflicts_with_all = ["assessment", "resume"])]
    pub course: Option<String>,
    /// Resume your latest session, or SESSION_ID, instead of starting one.
    #[arg(long, value_name = "SESSION_ID", conflicts_with = "assessment")]
    pub resume: Option<Option<String>>,
    /// Exam certificate: private or commercial.
    #[arg(long, default_value = "private", value_parser = wire::<ExamRating>)]
    pub rating: ExamRating,
    /// Exam order: linear, cross_acs or weak_areas.
    #[arg(long, default_value = "linear", value_parser = wire::<StudyMode>)]
    pub study_mode: StudyMode,
    /// Exam difficulty: easy, medium, hard or mixed.
    #[arg(long, default_value = "mixed", value_parser = wire::<Difficulty>)]
    pub difficulty: Difficulty,
    /// Aircraft class: ASEL, AMEL, ASES or AMES.
    #[arg(long, default_value = "ASEL", value_parser = wire::<AircraftClass>)]
    pub aircraft_class: AircraftClass,
    /// Keep only these areas of operation, such as I,III.
    #[arg(long = "area", value_name = "AREA", value_delimiter = ',')]
    pub areas: Vec<String>,
    /// Keep only these tasks, such as PA.I.A.
    #[arg(long = "task", value_name = "TASK", value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// Seed of the question order (and an assessment's generated values), for a
    /// reproducible session.
    #[arg(long)]
    pub seed: Option<u64>,
    /// How long you may pause to think before a pause ends your answer, in ms (500 to
    /// 30000; default: the server's setting).
    #[arg(long, value_name = "MS", value_parser = thinking_pause)]
    pub thinking_pause_ms: Option<u32>,
}

impl TalkArgs {
    /// The token if there is one, else the development-mode user.
    pub fn credentials(&self) -> anyhow::Result<Credentials> {
        match (&self.token, &self.user) {
            (Some(token), _) => Ok(Credentials::Token(token.clone())),
            (None, Some(user)) => Ok(Credentials::DevUser(user.clone())),
            (None, None) => anyhow::bail!(
                "give --token (or VIVA_TOKEN), or --user ID for a server in development mode"
            ),
        }
    }

    /// The event that opens the session.
    pub fn opening(&self) -> ClientEvent {
        self.session
            .opening(self.device_id.clone(), self.server_voice)
    }
}

impl SessionArgs {
    fn opening(&self, device_id: String, speak: bool) -> ClientEvent {
        if let Some(session_id) = &self.resume {
            let session_id = session_id.clone();
            return ClientEvent::SessionResume(SessionResume {
                device_id,
                session_id,
                speak,
            });
        }
        let config = match (&self.assessment, &self.course) {
            (Some(assessment_id), _) => SessionConfig::Assessment(AssessmentConfig {
                assessment_id: assessment_id.clone(),
                learning: self.learning,
                seed: self.seed,
                thinking_pause_ms: self.thinking_pause_ms,
            }),
            (None, Some(course_id)) => SessionConfig::Tutor(TutorConfig {
                course_id: course_id.clone(),
            }),
            (None, None) => SessionConfig::Exam(self.exam_config()),
        };
        ClientEvent::SessionStart(SessionStart {
            device_id,
            config,
            speak,
        })
    }

    fn exam_config(&self) -> ExamConfig {
        let filter = |items: &Vec<String>| (!items.is_empty()).then(|| items.clone());
        ExamConfig {
            rating: self.rating,
            study_mode: self.study_mode,
            difficulty: self.difficulty,
            aircraft_class: self.aircraft_class,
            areas: filter(&self.areas),
            tasks: filter(&self.tasks),
            input: InputMode::Voice,
            seed: self.seed,
            thinking_pause_ms: self.thinking_pause_ms,
            examiner_style: Default::default(),
            scenarios: false,
        }
    }
}

fn thinking_pause(text: &str) -> Result<u32, String> {
    let range = THINKING_PAUSE_MS;
    match text.parse::<u32>() {
        Ok(ms) if range.contains(&ms) => Ok(ms),
        _ => Err(format!(
            "a number of ms from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// Parses a flag value as the protocol spells it, through the wire type's own serde names.
fn wire<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(text.to_owned()))
        .map_err(|_| format!("{text:?} is not one of the values listed in --help"))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        talk: TalkArgs,
    }

    fn opening(flags: &[&str]) -> serde_json::Value {
        let cli =
            Cli::try_parse_from(std::iter::once("talk").chain(flags.iter().copied())).unwrap();
        serde_json::to_value(cli.talk.opening()).unwrap()
    }

    #[test]
    fn the_default_is_a_private_pilot_voice_exam() {
        let expected = serde_json::json!({"type": "session.start", "device_id": "viva-talk",
            "mode": "exam", "config": {"rating": "private", "study_mode": "linear",
            "difficulty": "mixed", "aircraft_class": "ASEL", "input": "voice"}});
        assert_eq!(opening(&[]), expected);
    }

    #[test]
    fn server_voice_asks_to_hear_the_examiner() {
        assert_eq!(opening(&["--server-voice"])["speak"], true);
        assert_eq!(opening(&["--server-voice", "--resume"])["speak"], true);
        assert_eq!(opening(&[]).get("speak"), None);
    }

    #[test]
    fn exam_flags_fill_the_config() {
        let json = opening(&[
            "--rating",
            "commercial",
            "--study-mode",
            "cross_acs",
            "--aircraft-class",
            "AMEL",
            "--area",
            "I,III",
            "--task",
            "PA.I.A",
            "--seed",
            "7",
            "--device-id",
            "lab",
            "--thinking-pause-ms",
            "4000",
        ]);
        assert_eq!(json["config"]["thinking_pause_ms"], 4000);
        assert_eq!(json["device_id"], "lab");
        assert_eq!(json["config"]["rating"], "commercial");
        assert_eq!(json["config"]["study_mode"], "cross_acs");
        assert_eq!(json["config"]["aircraft_class"], "AMEL");
        assert_eq!(json["config"]["areas"], serde_json::json!(["I", "III"]));
        assert_eq!(json["config"]["tasks"], serde_json::json!(["PA.I.A"]));
        assert_eq!(json["config"]["seed"], 7);
    }

    #[test]
    fn an_assessment_or_a_resume_replaces_the_exam() {
        let json = opening(&["--assessment", "MATH-FUNDAMENTALS-L1", "--learning"]);
        let expected = serde_json::json!({"type": "session.start", "device_id": "viva-talk",
            "mode": "assessment", "config": {"assessment_id": "MATH-FUNDAMENTALS-L1", "learning": true}});
        assert_eq!(json, expected);
        let latest = serde_json::json!({"type": "session.resume", "device_id": "viva-talk"});
        assert_eq!(opening(&["--resume"]), latest);
        assert_eq!(opening(&["--resume", "s9"])["session_id"], "s9");
        let paced = opening(&[
            "--assessment",
            "A",
            "--thinking-pause-ms",
            "2000",
            "--seed",
            "3",
        ]);
        assert_eq!(paced["config"]["thinking_pause_ms"], 2000);
        assert_eq!(paced["config"]["seed"], 3);
    }

    #[test]
    fn a_token_wins_over_a_dev_user() {
        let cli = Cli::try_parse_from(["talk", "--token", "t", "--user", "u"]).unwrap();
        assert_eq!(
            cli.talk.credentials().unwrap(),
            Credentials::Token("t".into())
        );
    }

    #[test]
    fn bad_or_conflicting_flags_are_refused() {
        for flags in [
            &["--rating", "airline"][..],
            &["--thinking-pause-ms", "100"],
            &["--learning"],
            &["--assessment", "X", "--resume"],
            &["--device", "usb", "--wav", "a.wav"],
        ] {
            let argv = std::iter::once("talk").chain(flags.iter().copied());
            assert!(Cli::try_parse_from(argv).is_err(), "{flags:?}");
        }
    }
}
