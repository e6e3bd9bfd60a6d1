//! Server configuration: parsed once from flags, environment and an optional TOML file, then
//! validated into one `Settings` struct passed down.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use serde::Deserialize;
use viva_actors::supervisor::SessionLimits;
use viva_core::exam::plan::PlanDefaults;
use viva_core::tutor::library::TutorSettings;
use viva_core::voice::TurnSettings;
use viva_redis_store::{RedisConfig, Retention};

use crate::connections::Caps;
use crate::edge::{EdgePolicy, Origin};

/// The data directory when neither a flag nor the config file names one.
pub const DEFAULT_DATA_DIR: &str = "viva-data";

/// Where sessions are kept when not in the data directory.
#[derive(Debug, Clone, clap::Args)]
pub struct RedisArgs {
    /// Keep sessions in Redis (`redis://host:port/`; several, comma-separated, for cluster
    /// seeds) instead of the data directory. Needed to run several nodes.
    #[arg(long, env = "VIVA_REDIS_URL", value_delimiter = ',')]
    pub redis: Vec<String>,
    /// The `--redis` URLs are seeds of a Redis Cluster.
    #[arg(long, env = "VIVA_REDIS_CLUSTER")]
    pub redis_cluster: bool,
}

/// The optional TOML config file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// `[server]`.
    #[serde(default)]
    pub server: ServerSection,
    /// `[auth]`.
    #[serde(default)]
    pub auth: AuthSection,
    /// `[exam]`: plan sizing.
    #[serde(default)]
    pub exam: ExamSection,
    /// `[session]`.
    #[serde(default)]
    pub session: SessionSection,
    /// `[limits]`: per-user session limits.
    #[serde(default)]
    pub limits: LimitsSection,
    /// `[redis]`: shared storage for several nodes.
    #[serde(default)]
    pub redis: RedisSection,
    /// `[voice]`: speech to text and turn-taking.
    #[serde(default)]
    pub voice: VoiceSection,
    /// `[llm]`: the examiner's model, if any.
    #[serde(default)]
    pub llm: crate::llm_config::LlmSection,
    /// `[tutor]`.
    #[serde(default)]
    pub tutor: TutorSection,
}

/// `[tutor]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TutorSection {
    /// How long a wrong exam answer or a viewed memo locks the question, e.g. `"24h"`.
    pub lockout: Option<String>,
}

/// `[voice]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoiceSection {
    /// A whisper.cpp ggml model file.
    pub model: Option<PathBuf>,
    /// The speech-to-text engine, `"whisper"` (the default) or `"moonshine"`.
    pub engine: Option<SttEngine>,
    /// The Moonshine model folder, when `engine = "moonshine"`.
    pub moonshine_model: Option<PathBuf>,
    /// Decoding threads (default: the cores).
    pub workers: Option<usize>,
    /// The share of decoding time live partial transcripts may take, 0 to 1 (default 0.25;
    /// 0 turns them off).
    pub partial_share: Option<f64>,
    /// Whether a finished answer decoded while other decoding threads are idle borrows
    /// their cores (default true; false when the cores are shared with other work).
    pub lend_idle_cores: Option<bool>,
    /// How long a candidate may pause to think, such as `"3s"`.
    pub thinking_pause: Option<String>,
    /// Per question kind (`primary`, `follow_up`, `bonus`, `item`), such as
    /// `{ follow_up = "4s" }`.
    #[serde(default)]
    pub thinking_pause_by_kind: std::collections::BTreeMap<String, String>,
    /// The pause that ends a turn whose words read as a whole answer to an item, such as
    /// `"1.2s"` (the default), or `"off"` to always wait for the thinking pause.
    pub complete_answer_pause: Option<String>,
    /// The same for exam questions (default `"off"`).
    pub complete_exam_answer_pause: Option<String>,
    /// The pause that ends a turn the end-of-turn model finds complete, such as `"400ms"`,
    /// or `"off"` (the default: the verdict is only told to the client).
    pub end_of_turn_pause: Option<String>,
}

/// Which speech-to-text engine decodes spoken answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SttEngine {
    /// whisper.cpp (whisper-rs) with a ggml model.
    #[default]
    Whisper,
    /// Moonshine tiny-en through ONNX Runtime.
    Moonshine,
}

/// `[redis]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedisSection {
    /// Server URL, or cluster seed URLs.
    #[serde(default)]
    pub urls: Vec<String>,
    /// The URLs are cluster seeds.
    #[serde(default)]
    pub cluster: bool,
    /// How long a node's lease on a session lasts after its last write, such as `"24h"`.
    pub lease: Option<String>,
    /// How long open (active or paused) sessions are kept after their last write.
    pub keep_open: Option<String>,
    /// How long completed sessions (with results) are kept.
    pub keep_completed: Option<String>,
    /// How long abandoned sessions are kept.
    pub keep_abandoned: Option<String>,
}

/// Redis storage, when configured.
#[derive(Debug, Clone)]
pub struct RedisSettings {
    /// Where and how to connect.
    pub connection: RedisConfig,
    /// Key TTLs by session status.
    pub retention: Retention,
}

/// A fresh node id: `node-` and 12 random hex digits.
pub fn random_node_id() -> String {
    let id = uuid::Uuid::new_v4().simple().to_string();
    format!("node-{}", &id[..12])
}

fn parse_duration(
    section: &str,
    key: &str,
    text: Option<&str>,
) -> anyhow::Result<Option<Duration>> {
    text.map(|text| {
        humantime::parse_duration(text).with_context(|| format!("[{section}] {key} = {text:?}"))
    })
    .transpose()
}

/// A `[voice]` pause that may be `"off"`: `None` when not set, `Some(None)` when off.
fn optional_duration(
    section: &str,
    key: &str,
    text: &Option<String>,
) -> anyhow::Result<Option<Option<Duration>>> {
    match text.as_deref() {
        None => Ok(None),
        Some("off") => Ok(Some(None)),
        Some(text) => Ok(parse_duration(section, key, Some(text))?.map(Some)),
    }
}

/// `[limits]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSection {
    /// Sessions a user may start per minute.
    pub starts_per_minute: Option<u32>,
    /// Sessions a user may have open at once.
    pub open_sessions: Option<u32>,
}

/// `[server]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSection {
    pub listen: Option<SocketAddr>,
    pub data_dir: Option<PathBuf>,
    pub blueprints: Option<PathBuf>,
    /// Open WebSocket connections in all (default 10,000).
    pub max_connections: Option<usize>,
    /// Whether new sessions may start while no operator switch is stored (default true).
    pub accept_new_sessions: Option<bool>,
    /// Open WebSocket connections per user (default 16).
    pub max_connections_per_user: Option<usize>,
    /// Origins whose pages may use this server besides its own, such as
    /// `["https://exams.example"]`.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
}

/// `[auth]`: the secret and the identity provider (`crate::auth::settings`).
pub use crate::auth::settings::AuthSection;

/// `[exam]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExamSection {
    pub full: Option<u32>,
    pub min: Option<u32>,
    pub max: Option<u32>,
    pub bonus_max: Option<u32>,
    pub follow_up_max_per_element: Option<u32>,
}

/// How long a node's lease on a session lasts after its last write, claim or hibernation.
/// It only tells other nodes where to send a notice, and a node that stops drops its leases,
/// so it may be long: as long as a paused session is kept.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(24 * 3600);

/// A session whose device sent nothing for this long hibernates: its actor stops, and the
/// next event wakes it from its checkpoint.
pub const DEFAULT_HIBERNATE_AFTER: Duration = Duration::from_secs(60);

/// `[session]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionSection {
    /// For example `"24h"`.
    pub abandon_after: Option<String>,
    /// How long a device may send nothing before its session hibernates, such as `"60s"`,
    /// or `"off"`.
    pub hibernate_after: Option<String>,
}

impl FileConfig {
    /// Reads and parses the file, or the empty config when there is none.
    pub fn load(path: Option<&Path>) -> anyhow::Result<FileConfig> {
        let Some(path) = path else {
            return Ok(FileConfig::default());
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading config {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("parsing config {}", path.display()))
    }

    /// Plan sizing with the file's overrides.
    pub fn plan_defaults(&self) -> anyhow::Result<PlanDefaults> {
        let d = PlanDefaults::default();
        let e = &self.exam;
        let plan = PlanDefaults {
            full: e.full.unwrap_or(d.full),
            min: e.min.unwrap_or(d.min),
            max: e.max.unwrap_or(d.max),
            bonus_max: e.bonus_max.unwrap_or(d.bonus_max),
            follow_up_max_per_element: e
                .follow_up_max_per_element
                .unwrap_or(d.follow_up_max_per_element),
        };
        if plan.min > plan.max || plan.full == 0 {
            bail!("[exam] needs 0 < full and min <= max, got {plan:?}");
        }
        Ok(plan)
    }

    /// Per-user session limits with the file's overrides.
    pub fn limits(&self) -> SessionLimits {
        let d = SessionLimits::default();
        SessionLimits {
            starts_per_minute: self.limits.starts_per_minute.unwrap_or(d.starts_per_minute),
            open_sessions: self.limits.open_sessions.unwrap_or(d.open_sessions),
        }
    }

    /// Connection caps: each flag, else the file, else the default; each at least 1.
    pub fn connection_caps(
        &self,
        total: Option<usize>,
        per_user: Option<usize>,
    ) -> anyhow::Result<Caps> {
        let d = Caps::default();
        let server = &self.server;
        let caps = Caps {
            total: total.or(server.max_connections).unwrap_or(d.total),
            per_user: per_user
                .or(server.max_connections_per_user)
                .unwrap_or(d.per_user),
        };
        if caps.total == 0 || caps.per_user == 0 {
            bail!("max_connections and max_connections_per_user must be at least 1, got {caps:?}");
        }
        Ok(caps)
    }

    /// The session lease: the flag, else the file, else [`DEFAULT_LEASE`].
    pub fn lease(&self, flag: Option<Duration>) -> anyhow::Result<Duration> {
        let from_file = parse_duration("redis", "lease", self.redis.lease.as_deref())?;
        let lease = flag.or(from_file).unwrap_or(DEFAULT_LEASE);
        if lease < Duration::from_millis(300) {
            bail!("the session lease must be at least 300ms, got {lease:?}");
        }
        Ok(lease)
    }

    /// Redis storage from the flags (which win) or the file; `None` for the embedded store.
    pub fn redis(&self, urls: Vec<String>, cluster: bool) -> anyhow::Result<Option<RedisSettings>> {
        let section = &self.redis;
        let urls = if urls.is_empty() {
            section.urls.clone()
        } else {
            urls
        };
        if urls.is_empty() {
            return Ok(None);
        }
        let mut connection = RedisConfig::standalone(&urls[0]);
        connection.urls = urls;
        connection.cluster = cluster || section.cluster;
        let d = Retention::default();
        let keep = |key: &str, text: &Option<String>, default: Duration| {
            parse_duration("redis", key, text.as_deref()).map(|d| d.unwrap_or(default))
        };
        let retention = Retention {
            open: keep("keep_open", &section.keep_open, d.open)?,
            completed: keep("keep_completed", &section.keep_completed, d.completed)?,
            abandoned: keep("keep_abandoned", &section.keep_abandoned, d.abandoned)?,
        };
        Ok(Some(RedisSettings {
            connection,
            retention,
        }))
    }

    /// Turn-taking settings from `[voice]`.
    pub fn turns(&self) -> anyhow::Result<TurnSettings> {
        let mut turns = TurnSettings::default();
        let voice = &self.voice;
        if let Some(pause) =
            parse_duration("voice", "thinking_pause", voice.thinking_pause.as_deref())?
        {
            turns.thinking_pause = pause;
        }
        for (kind, text) in &voice.thinking_pause_by_kind {
            let key = format!("thinking_pause_by_kind.{kind}");
            if let Some(pause) = parse_duration("voice", &key, Some(text))? {
                turns.thinking_pause_by_kind.insert(kind.clone(), pause);
            }
        }
        if let Some(pause) = optional_duration(
            "voice",
            "complete_answer_pause",
            &voice.complete_answer_pause,
        )? {
            turns.complete_answer_pause = pause;
        }
        let exam = &voice.complete_exam_answer_pause;
        if let Some(pause) = optional_duration("voice", "complete_exam_answer_pause", exam)? {
            turns.complete_exam_answer_pause = pause;
        }
        let model = &voice.end_of_turn_pause;
        if let Some(pause) = optional_duration("voice", "end_of_turn_pause", model)? {
            turns.end_of_turn_pause = pause;
        }
        Ok(turns)
    }

    /// The share of decoding time for partials: the flag, else `[voice]`, else the default;
    /// refused outside 0 to 1.
    pub fn partial_share(&self, flag: Option<f64>) -> anyhow::Result<f64> {
        let share = flag
            .or(self.voice.partial_share)
            .unwrap_or(viva_speech::budget::DEFAULT_PARTIAL_SHARE);
        if !(0.0..=1.0).contains(&share) {
            anyhow::bail!("the partial transcript share must be between 0 and 1, not {share}");
        }
        Ok(share)
    }

    /// Tutor settings: the lockout from `[tutor] lockout` (default 24 h, at least 1 s); the
    /// policy debug view in development mode only.
    pub fn tutor(&self, dev_mode: bool) -> anyhow::Result<TutorSettings> {
        let lockout = match &self.tutor.lockout {
            Some(text) => humantime::parse_duration(text)
                .with_context(|| format!("[tutor] lockout = {text:?}"))?,
            None => Duration::from_millis(viva_core::tutor::exams::LOCKOUT_MS),
        };
        if lockout < Duration::from_secs(1) {
            bail!("[tutor] lockout must be at least 1s");
        }
        Ok(TutorSettings {
            lockout_ms: lockout.as_millis() as u64,
            debug_view: dev_mode,
            // Set where the model is known (the server's start-up).
            model: false,
        })
    }

    /// How long a device may be idle before its session hibernates: the flag, else the
    /// file, else [`DEFAULT_HIBERNATE_AFTER`]; `None` (`"off"`) never.
    pub fn hibernate_after(&self, flag: Option<String>) -> anyhow::Result<Option<Duration>> {
        let text = flag.or_else(|| self.session.hibernate_after.clone());
        let after = optional_duration("session", "hibernate_after", &text)?;
        Ok(after.unwrap_or(Some(DEFAULT_HIBERNATE_AFTER)))
    }

    /// The edge's policy: the flag's origins, else the file's, each `scheme://host[:port]`;
    /// development mode takes only a loopback `Host`.
    pub fn edge_policy(&self, flag: Vec<String>, dev_mode: bool) -> anyhow::Result<EdgePolicy> {
        let texts = if flag.is_empty() {
            &self.server.allowed_origins
        } else {
            &flag
        };
        let allowed_origins = texts
            .iter()
            .map(|text| {
                Origin::parse(text.trim()).with_context(|| {
                    format!(
                        "allowed origin {text:?}: an origin is http:// or https://, a host and \
                         an optional port, nothing after (no path, not even a final /)"
                    )
                })
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(EdgePolicy {
            allowed_origins,
            loopback_host_only: dev_mode,
        })
    }

    /// How long a paused session lives.
    pub fn abandon_after(&self) -> anyhow::Result<Duration> {
        match &self.session.abandon_after {
            Some(text) => humantime::parse_duration(text)
                .with_context(|| format!("[session] abandon_after = {text:?}")),
            None => Ok(Duration::from_secs(24 * 3600)),
        }
    }
}

/// Everything `serve` needs, validated.
#[derive(Debug, Clone)]
pub struct Settings {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    pub blueprints: PathBuf,
    pub dev_mode: bool,
    /// Which `Origin` and `Host` headers the edge lets through.
    pub edge: EdgePolicy,
    /// The HS256 secret and the identity provider, if any.
    pub auth: crate::auth::settings::AuthSettings,
    pub plan_defaults: PlanDefaults,
    pub abandon_after: Duration,
    /// How long a device may be idle before its session hibernates; `None`: never.
    pub hibernate_after: Option<Duration>,
    /// Open connections, in all and per user.
    pub connections: Caps,
    pub limits: SessionLimits,
    /// This node's id: lease owner and notice address.
    pub node_id: String,
    /// How long a node's lease on a session lasts after its last write.
    pub lease: Duration,
    /// Redis storage; `None` for the embedded file store.
    pub redis: Option<RedisSettings>,
    /// Whether new sessions may start while no operator switch is stored.
    pub accept_new_sessions: bool,
    /// The whisper ggml model; `None` runs text-only.
    pub speech_model: Option<PathBuf>,
    /// The end-of-turn model (ONNX Runtime beside it); `None`: turns end after the pause.
    pub turn_model: Option<PathBuf>,
    /// The examiner's voice.
    pub tts: crate::examiner_voice::TtsSettings,
    /// Moonshine's files when it is the engine: it then decodes instead of whisper.
    pub moonshine: Option<viva_speech::moonshine::MoonshineFiles>,
    /// Decoding threads.
    pub speech_workers: usize,
    /// The share of decoding time partial transcripts may take.
    pub partial_share: f64,
    /// Whether finals borrow idle decoding threads' cores.
    pub lend_idle_cores: bool,
    /// Turn-taking for spoken answers.
    pub turns: TurnSettings,
    /// The examiner's model; `None` runs the embedded examiner.
    pub llm: Option<viva_llm::provider::LlmSettings>,
    /// A folder of prompt templates replacing the built-in ones.
    pub prompts: Option<PathBuf>,
    /// Whether a model examiner phrases the likely next question ahead (`[llm] phrase_ahead`).
    pub phrase_ahead: bool,
    /// Lockout and the policy debug view.
    pub tutor: TutorSettings,
}

/// Refuses development mode unless the server listens on loopback only.
pub fn check_dev_mode(dev_mode: bool, listen: SocketAddr) -> anyhow::Result<()> {
    if dev_mode && !listen.ip().is_loopback() {
        bail!(
            "--dev accepts unauthenticated users and is allowed only on a loopback address, not {listen}"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tutor_lockout_from_the_file_and_debug_view_in_dev_mode_only() {
        let none = FileConfig::default();
        let settings = none.tutor(false).unwrap();
        assert_eq!(settings.lockout_ms, 24 * 3_600_000);
        assert!(!settings.debug_view);
        assert!(none.tutor(true).unwrap().debug_view);
        let file: FileConfig = toml::from_str("[tutor]\nlockout = \"2s\"").unwrap();
        assert_eq!(file.tutor(false).unwrap().lockout_ms, 2_000);
        let short: FileConfig = toml::from_str("[tutor]\nlockout = \"10ms\"").unwrap();
        assert!(short.tutor(false).is_err());
    }

    #[test]
    fn whole_answer_pauses_default_to_items_only_and_may_be_turned_off_or_on() {
        let turns = FileConfig::default().turns().unwrap();
        assert_eq!(
            turns.complete_answer_pause,
            Some(Duration::from_millis(1200))
        );
        assert_eq!(turns.complete_exam_answer_pause, None);
        let text = "[voice]\ncomplete_answer_pause = \"off\"\ncomplete_exam_answer_pause = \"2s\"";
        let file: FileConfig = toml::from_str(text).unwrap();
        let turns = file.turns().unwrap();
        assert_eq!(turns.complete_answer_pause, None);
        assert_eq!(
            turns.complete_exam_answer_pause,
            Some(Duration::from_secs(2))
        );
        let bad: FileConfig = toml::from_str("[voice]\ncomplete_answer_pause = \"soon\"").unwrap();
        assert!(bad.turns().is_err());
    }

    #[test]
    fn dev_mode_only_on_loopback() {
        let check = |addr: &str, ok: bool| {
            assert_eq!(
                check_dev_mode(true, addr.parse().unwrap()).is_ok(),
                ok,
                "{addr}"
            )
        };
        check("127.0.0.1:8080", true);
        check("[::1]:8080", true);
        check("0.0.0.0:8080", false);
        check("192.0.2.1:8080", false);
        assert!(check_dev_mode(false, "0.0.0.0:1".parse().unwrap()).is_ok());
    }

    #[test]
    fn exam_overrides_and_validation() {
        let config: FileConfig =
            toml::from_str("[exam]\nfull = 30\nbonus_max = 0\n[session]\nabandon_after = \"2h\"")
                .unwrap();
        let plan = config.plan_defaults().unwrap();
        assert_eq!((plan.full, plan.min, plan.bonus_max), (30, 5, 0));
        assert_eq!(config.abandon_after().unwrap(), Duration::from_secs(7200));
        let after = |text: &str| {
            let file: FileConfig =
                toml::from_str(&format!("[session]\nhibernate_after = {text:?}"))?;
            file.hibernate_after(None)
        };
        assert_eq!(after("5s").unwrap(), Some(Duration::from_secs(5)));
        assert_eq!(after("off").unwrap(), None);
        assert!(after("soon").is_err());
        let none = FileConfig::default();
        assert_eq!(
            none.hibernate_after(None).unwrap(),
            Some(DEFAULT_HIBERNATE_AFTER)
        );
        assert_eq!(none.hibernate_after(Some("off".into())).unwrap(), None);
        let bad: FileConfig = toml::from_str("[exam]\nmin = 10\nmax = 5").unwrap();
        assert!(bad.plan_defaults().is_err());
        assert!(
            toml::from_str::<FileConfig>("[exam]\nfool = 1").is_err(),
            "unknown keys are refused"
        );
    }

    #[test]
    fn allowed_origins_from_flag_or_file_and_checked() {
        let file: FileConfig =
            toml::from_str("[server]\nallowed_origins = [\"https://exams.example\"]").unwrap();
        let policy = file.edge_policy(Vec::new(), true).unwrap();
        assert!(policy.loopback_host_only);
        assert_eq!(
            policy.allowed_origins,
            [Origin::parse("https://exams.example:443").unwrap()]
        );
        let flag = vec!["http://127.0.0.1:3000".to_owned()];
        let policy = file.edge_policy(flag, false).unwrap();
        assert!(!policy.loopback_host_only);
        assert_eq!(
            policy.allowed_origins,
            [Origin::parse("http://127.0.0.1:3000").unwrap()],
            "the flag wins"
        );
        for bad in ["exams.example", "https://exams.example/", "*"] {
            let err = file.edge_policy(vec![bad.to_owned()], false).unwrap_err();
            assert!(format!("{err:#}").contains("no path"), "{bad}: {err:#}");
        }
    }

    #[test]
    fn connection_caps_from_flags_file_or_defaults() {
        let none = FileConfig::default();
        let caps = none.connection_caps(None, None).unwrap();
        assert_eq!((caps.total, caps.per_user), (10_000, 16));
        let file: FileConfig =
            toml::from_str("[server]\nmax_connections = 50\nmax_connections_per_user = 4").unwrap();
        let caps = file.connection_caps(None, None).unwrap();
        assert_eq!((caps.total, caps.per_user), (50, 4));
        let caps = file.connection_caps(Some(60), Some(2)).unwrap();
        assert_eq!((caps.total, caps.per_user), (60, 2), "flags win");
        assert!(file.connection_caps(None, Some(0)).is_err());
        assert!(file.connection_caps(Some(0), None).is_err());
    }

    #[test]
    fn redis_settings_from_flags_or_file() {
        let none = FileConfig::default();
        assert!(none.redis(Vec::new(), false).unwrap().is_none());
        assert_eq!(none.lease(None).unwrap(), DEFAULT_LEASE);
        assert!(none.lease(Some(Duration::from_millis(10))).is_err());
        let file: FileConfig = toml::from_str(
            "[redis]\nurls = [\"redis://a/\", \"redis://b/\"]\ncluster = true\nlease = \"4s\"\nkeep_completed = \"90days\"",
        )
        .unwrap();
        let redis = file.redis(Vec::new(), false).unwrap().unwrap();
        assert!(redis.connection.cluster);
        assert_eq!(redis.connection.urls.len(), 2);
        assert_eq!(redis.retention.completed, Duration::from_secs(90 * 86400));
        assert_eq!(file.lease(None).unwrap(), Duration::from_secs(4));
        let flag = file
            .redis(vec!["redis://c/".into()], false)
            .unwrap()
            .unwrap();
        assert_eq!(flag.connection.urls, ["redis://c/"]);
        let bad: FileConfig =
            toml::from_str("[redis]\nurls = [\"redis://a/\"]\nkeep_open = \"soon\"").unwrap();
        assert!(bad.redis(Vec::new(), false).is_err());
    }

    #[test]
    fn partial_share_from_flag_file_or_default_within_bounds() {
        let none = FileConfig::default();
        assert_eq!(none.partial_share(None).unwrap(), 0.25);
        let file: FileConfig = toml::from_str(
            "[voice]
partial_share = 0.5",
        )
        .unwrap();
        assert_eq!(file.partial_share(None).unwrap(), 0.5);
        assert_eq!(file.partial_share(Some(0.0)).unwrap(), 0.0);
        for bad in [-0.1, 1.5, f64::NAN] {
            assert!(file.partial_share(Some(bad)).is_err(), "{bad}");
        }
    }
}
