//! `viva talk` (the `viva-talk` binary): answer an exam by voice. Captures the microphone (or streams WAV files), sends
//! 16 kHz PCM16 frames over `/v1/ws`, and prints (and speaks) what the examiner says.
//!
//! Layout:
//! - `args`: the flags, and the `session.start` or `session.resume` they ask for.
//! - `connect`: the server URL, credentials and a bounded handshake.
//! - `session`: the event loop: server events, audio, keyboard, when to stop.
//! - `display`: server events as text; the live partial-transcript line.
//! - `capture`: the microphone (cpal), with a callback that never blocks.
//! - `mic`: microphone chunks resampled and cut into frames.
//! - `script`: `--wav` answers, one turn per file, at real-time pace.
//! - `wav`: reading WAV files (hound) as 16 kHz mono.
//! - `resample`: windowed-sinc sample-rate conversion (pure).
//! - `pcm`: downmix, PCM16 and frames (pure).
//! - `speak`: reading questions aloud with espeak-ng.
//! - `keyboard`: typed lines: push-to-talk, text answers, commands.

mod args;
mod capture;
mod connect;
mod display;
mod keyboard;
mod mic;
mod pcm;
mod play;
mod resample;
mod script;
mod session;
mod speak;
mod wav;

use std::time::Duration;

use anyhow::Context;
use tokio::sync::mpsc;

pub use args::TalkArgs;

use capture::Capture;
use connect::Credentials;
use script::Answer;
use speak::Speaker;

/// Audio frames and notes queued from a source to the session.
const FEED_QUEUE: usize = 32;
/// Cues queued from the session to the WAV script.
const CUE_QUEUE: usize = 64;
/// How long background work may take to stop at exit.
const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(1);

/// Where the answers come from.
enum Source {
    Microphone(Capture),
    Answers(Vec<Answer>),
}

/// Answer an exam by voice from the microphone (or WAV files), hearing the questions.
/// (`viva talk ARGS` runs `viva-talk ARGS`.)
#[derive(Debug, clap::Parser)]
#[command(name = "viva talk", version)]
pub struct Cli {
    #[command(flatten)]
    args: TalkArgs,
}

/// The `viva-talk` binary: parses its flags, logs to stderr (`RUST_LOG`, default `warn`),
/// runs the session and exits 1 with the error and its causes if it fails.
pub fn main() -> std::process::ExitCode {
    let cli = <Cli as clap::Parser>::parse();
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    match run(cli.args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Runs `viva talk` to the end of the session; builds its own runtime.
pub fn run(args: TalkArgs) -> anyhow::Result<()> {
    if args.list_devices {
        capture::list_devices()?
            .iter()
            .for_each(|line| println!("{line}"));
        return Ok(());
    }
    let credentials = args.credentials()?;
    let source = open_source(&args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let outcome = runtime.block_on(talk(&args, &credentials, source));
    runtime.shutdown_timeout(SHUTDOWN_TIMEOUT);
    outcome
}

/// Opens the microphone, or reads every WAV file up front so a bad one fails at once.
fn open_source(args: &TalkArgs) -> anyhow::Result<Source> {
    if args.wav.is_empty() {
        let capture = capture::start(args.device.as_deref())?;
        let ending = if args.push_to_talk {
            "press Enter to end each answer"
        } else {
            "a pause ends each answer"
        };
        println!(
            "Listening on {} ({} Hz); {ending}.",
            capture.name, capture.rate
        );
        println!("{}", keyboard::HELP);
        return Ok(Source::Microphone(capture));
    }
    let answers = args
        .wav
        .iter()
        .map(|path| {
            let samples = wav::read_answer(path)?;
            let name = path.display().to_string();
            Ok(Answer { name, samples })
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(Source::Answers(answers))
}

async fn talk(args: &TalkArgs, credentials: &Credentials, source: Source) -> anyhow::Result<()> {
    let socket = connect::connect(&args.server, credentials).await?;
    // The server's voice replaces espeak-ng's; the microphone stays open over it, so the
    // candidate can speak over the examiner (use headphones: speakers would be heard back).
    let player = match args.server_voice {
        true => Some(play::Player::start()?),
        false => None,
    };
    let (speaker, note) = Speaker::new(!args.no_speak && player.is_none());
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let (feed_sender, feed) = mpsc::channel(FEED_QUEUE);
    let mut setup = session::Setup {
        opening: args.opening(),
        feed,
        cues: None,
        lines: None,
        speaker,
        player,
        push_to_talk: args.push_to_talk,
        mic_dropped: None,
    };
    let source_task = match source {
        Source::Microphone(capture) => {
            setup.mic_dropped = Some((capture.dropped.clone(), capture.rate));
            setup.lines = Some(keyboard::lines());
            tokio::spawn(mic::pump(capture, feed_sender))
        }
        Source::Answers(answers) => {
            let (cue_sender, cues) = mpsc::channel(CUE_QUEUE);
            setup.cues = Some(cue_sender);
            let speaking = setup.speaker.watch();
            let turn_end = turn_end(args);
            tokio::spawn(script::play(answers, cues, feed_sender, speaking, turn_end))
        }
    };
    let outcome = session::run(socket, setup).await;
    source_task.abort();
    outcome
}

fn turn_end(args: &TalkArgs) -> script::TurnEnd {
    if args.push_to_talk {
        return script::TurnEnd::Commit;
    }
    let pause = args
        .session
        .thinking_pause_ms
        .map(|ms| Duration::from_millis(u64::from(ms)));
    script::TurnEnd::ServerPause(pause)
}
