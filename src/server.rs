//! Start-up and shutdown: load the ACS data, wire the actors, serve until Ctrl-C or SIGTERM,
//! then pause and checkpoint every session before exiting.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::serve::ListenerExt;
use tokio::sync::mpsc;
use viva_actors::directory::Directory;
use viva_actors::new_sessions::{NewSessionGate, Source};
use viva_actors::session::SessionDeps;
use viva_actors::stall::StallRiding;
use viva_actors::supervisor::SupervisorDeps;
use viva_core::checkpoint::{CheckpointStore, LocalBus, NodeBus, Notice, SideStore, SwitchStore};
use viva_core::clock::SystemClock;
use viva_core::exam::acs::AcsLibrary;
use viva_core::examiner::EmbeddedExaminer;
use viva_core::services::ModeServices;
use viva_core::tutor::library::{TutorLibrary, TutorSettings};
use viva_core::voice::SpeechToText;
use viva_core::voice::end_of_turn::TurnJudge;
use viva_file_store::FileStore;
use viva_llm::metrics::LlmMetrics;
use viva_redis_store::{Connection, RedisBus, RedisStore};
use viva_speech::end_of_turn::SmartTurnJudge;
use viva_speech::metrics::SpeechMetrics;
use viva_speech::{Engine, PoolSettings, SpeechPool};

use crate::app::{self, App};
use crate::auth::Authenticator;
use crate::config::Settings;
use crate::connections::ConnectionLimits;
use crate::metrics::AllMetrics;
use crate::ready::Readiness;
use crate::routes;

/// How long shutdown waits for sessions to checkpoint.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// How often idle supervisors are retired.
const REAP_INTERVAL: Duration = Duration::from_secs(60);

/// The embedded examiner, or the model-backed one (which falls back to it) when an LLM is
/// configured; its templates are checked here, so a bad one stops the start.
fn examiner(
    settings: &Settings,
    library: &Arc<AcsLibrary>,
    metrics: &Arc<LlmMetrics>,
) -> anyhow::Result<Arc<dyn viva_core::examiner::Examiner>> {
    let prompts = viva_llm::prompts::Prompts::load(settings.prompts.as_deref())?;
    let Some(llm) = settings.llm.clone() else {
        tracing::info!("examiner: embedded (no LLM configured)");
        return Ok(Arc::new(EmbeddedExaminer::new(library.clone())));
    };
    tracing::info!(url = %llm.base_url, model = %llm.model, timeout = ?llm.timeout, "examiner: LLM, falling back to the embedded one");
    let provider = viva_llm::provider::Provider::new(llm);
    let examiner = viva_llm::examiner::LlmExaminer::new(provider, prompts, library.clone());
    Ok(Arc::new(examiner.with_metrics(metrics.clone())))
}

/// The model tutor when an LLM is configured (its failures fall back to the embedded
/// brain's turn); none without one.
fn tutor_model(
    settings: &Settings,
    metrics: &Arc<LlmMetrics>,
) -> anyhow::Result<Option<Arc<dyn viva_core::tutor::model::TutorModel>>> {
    let Some(llm) = settings.llm.clone() else {
        return Ok(None);
    };
    let prompts = viva_llm::prompts::Prompts::load(settings.prompts.as_deref())?;
    let provider = viva_llm::provider::Provider::new(llm);
    let tutor = viva_llm::tutor::LlmTutor::new(provider, prompts).with_metrics(metrics.clone());
    Ok(Some(Arc::new(tutor)))
}

/// Runs the server until a shutdown signal.
pub async fn run(settings: Settings) -> anyhow::Result<()> {
    let library = Arc::new(crate::blueprints::load_library(&settings.blueprints)?);
    let blueprints = Arc::new(crate::blueprints::load(&settings.blueprints)?);
    let tutor = Arc::new(load_tutor(&settings, &blueprints, &library)?);
    let storage = open_storage(&settings).await?;
    let boards = app::TutorBoards {
        library: tutor.clone(),
        sides: storage.sides.clone(),
    };
    let metrics = Arc::new(AllMetrics::default());
    let speech = start_speech(&settings, &metrics.speech)?;
    let judge = speech.as_ref().and_then(|_| start_judge(&settings));
    let features = viva_protocol::catalog::ServerFeatures {
        dev_mode: settings.dev_mode,
        voice: speech.is_some(),
        model: settings.llm.is_some(),
    };
    let catalog = crate::catalog::build(&library, &blueprints, &tutor, features);
    let catalog_json = serde_json::to_vec(&catalog).context("writing the catalogue")?;
    let acs = library.clone();
    let session = Arc::new(SessionDeps {
        store: storage.store,
        examiner: examiner(&settings, &library, &metrics.llm)?,
        modes: Arc::new(ModeServices {
            acs: library,
            blueprints,
            tutor,
            tutor_model: tutor_model(&settings, &metrics.llm)?,
            plan_defaults: settings.plan_defaults,
        }),
        clock: Arc::new(SystemClock),
        abandon_after: settings.abandon_after,
        node_id: settings.node_id.clone(),
        lease: settings.lease,
        speech: speech.clone(),
        judge,
        voice: crate::examiner_voice::start(&settings.tts),
        turns: settings.turns.clone(),
        metrics: metrics.sessions.clone(),
        sides: storage.sides,
        phrase_ahead: settings.phrase_ahead,
    });
    let probe_dir = settings.redis.is_none().then(|| settings.data_dir.clone());
    let ready = Readiness::new(
        storage.switch.clone(),
        settings.accept_new_sessions,
        probe_dir,
    );
    let new_sessions = NewSessionGate::new(storage.switch, settings.accept_new_sessions);
    log_new_sessions(&new_sessions).await;
    let deps = SupervisorDeps {
        session,
        limits: settings.limits,
        bus: storage.bus,
        new_sessions,
        hibernation: Default::default(),
    };
    let directory = Directory::new(Arc::new(deps));
    let auth = Authenticator::start(&settings.auth, settings.dev_mode).await?;
    let mut app = App::new(
        directory,
        (auth, ready),
        ConnectionLimits::new(settings.connections),
        speech,
        metrics,
        (boards, catalog_json.into()),
        acs,
    );
    app.hibernate_after = settings.hibernate_after;
    app.edge = settings.edge.clone();
    let app = Arc::new(app);
    let listener = tokio::net::TcpListener::bind(settings.listen)
        .await
        .with_context(|| format!("binding {}", settings.listen))?;
    let address = listener.local_addr()?;
    // Small event frames go out back to back (ack, assessment, question); without NODELAY,
    // Nagle's algorithm holds them for the peer's delayed ACK (measured: +42 ms per answer).
    let listener = listener.tap_io(|stream| {
        if let Err(err) = stream.set_nodelay(true) {
            tracing::warn!(%err, "cannot set TCP_NODELAY");
        }
    });
    warn_if_files_run_out(settings.connections.total);
    if settings.dev_mode {
        tracing::warn!(
            "DEVELOPMENT MODE: ?user=<id> is accepted WITHOUT a token; never expose this server"
        );
    }
    tracing::info!(%address, node = %settings.node_id, storage = storage.description, "viva serving");
    println!("viva listening on {address}");
    print_where_to_connect(address, settings.dev_mode, app.voice());
    let reaper = tokio::spawn(reap_idle_supervisors(app.clone()));
    let notices = storage
        .notices
        .map(|notices| tokio::spawn(deliver_notices(app.clone(), notices)));
    let shutdown = shutdown_sequence(app.clone());
    axum::serve(listener, routes::router(app.clone()))
        .with_graceful_shutdown(shutdown)
        .await?;
    reaper.abort();
    if let Some(notices) = notices {
        notices.abort();
    }
    tracing::info!("viva stopped");
    Ok(())
}

/// The speech pool when a model is configured; text-only (said loudly) when not.
fn start_speech(
    settings: &Settings,
    metrics: &Arc<SpeechMetrics>,
) -> anyhow::Result<Option<Arc<dyn SpeechToText>>> {
    let engine = match (&settings.moonshine, &settings.speech_model) {
        (Some(files), _) => Engine::Moonshine(files.clone()),
        (None, Some(model)) => Engine::Whisper(model.clone()),
        (None, None) => {
            tracing::warn!(
                "VOICE OFF: no speech model (set --whisper-model or VIVA_WHISPER_MODEL to a whisper.cpp \
             ggml model); audio frames get `voice_unavailable`"
            );
            return Ok(None);
        }
    };
    let pool_settings = PoolSettings {
        workers: settings.speech_workers,
        final_capacity: settings.speech_workers * 4,
        partial_share: settings.partial_share,
        lend_idle_cores: settings.lend_idle_cores,
    };
    let pool = SpeechPool::start(&engine, pool_settings, metrics.clone())
        .with_context(|| format!("loading the speech model ({engine:?})"))?;
    let (workers, partial_share) = (pool_settings.workers, pool_settings.partial_share);
    let lend_idle_cores = pool_settings.lend_idle_cores;
    let engine = engine.name();
    tracing::info!(engine, workers, partial_share, lend_idle_cores, "voice on");
    Ok(Some(Arc::new(pool)))
}

/// The end-of-turn model when one is configured and loads (ONNX Runtime from the same
/// folder); without it turns end after the thinking pause.
fn start_judge(settings: &Settings) -> Option<Arc<dyn TurnJudge>> {
    let Some(model) = &settings.turn_model else {
        tracing::info!("no end-of-turn model: turns end after the thinking pause");
        return None;
    };
    let folder = model.parent().unwrap_or(std::path::Path::new("."));
    let runtime = viva_speech::onnx::runtime_in(folder);
    match SmartTurnJudge::start(&runtime, model) {
        Ok(judge) => {
            tracing::info!(model = %model.display(), "end-of-turn model on");
            Some(Arc::new(judge))
        }
        Err(error) => {
            tracing::warn!(%error, "END-OF-TURN MODEL OFF: turns end after the thinking pause");
            None
        }
    }
}

/// Says at start-up whether this node takes new sessions, and why.
async fn log_new_sessions(gate: &NewSessionGate) {
    match gate.current().await {
        Ok(decision) if decision.accept => {
            tracing::info!(source = ?decision.source, "new sessions: accepted")
        }
        Ok(decision) => {
            let why = match decision.source {
                Source::Stored { .. } => "an operator stopped them (`viva exams allow-new`)",
                Source::Configured => "[server] accept_new_sessions = false",
            };
            tracing::warn!(source = ?decision.source, "NEW SESSIONS REFUSED: {why}");
        }
        Err(err) => tracing::warn!(%err, "the new-session switch could not be read"),
    }
}

/// The courses under `<blueprints>/courses/` with their content, indexed for the tutor.
fn load_tutor(
    settings: &Settings,
    skills: &viva_blueprint::library::BlueprintLibrary,
    acs: &AcsLibrary,
) -> anyhow::Result<TutorLibrary> {
    let exists = |element: &str| acs.rubric(element).is_some();
    let courses = crate::blueprints::load_courses(&settings.blueprints, skills, &exists)?;
    let tutor = TutorSettings {
        model: settings.llm.is_some(),
        ..settings.tutor
    };
    tracing::info!(
        courses = courses.len(),
        lockout_ms = tutor.lockout_ms,
        model = tutor.model,
        "tutor courses loaded"
    );
    Ok(TutorLibrary::new(courses, acs, tutor))
}

/// Where sessions are kept, and how nodes tell each other about takeovers.
struct Storage {
    store: Arc<dyn CheckpointStore>,
    /// Side records (students' snapshots), beside the sessions.
    sides: Arc<dyn SideStore>,
    /// The operator's new-session switch, beside the sessions.
    switch: Arc<dyn SwitchStore>,
    bus: Arc<dyn NodeBus>,
    /// Notices addressed to this node (Redis only).
    notices: Option<mpsc::Receiver<Notice>>,
    description: &'static str,
}

/// Redis when configured, else the embedded file store in the data directory.
async fn open_storage(settings: &Settings) -> anyhow::Result<Storage> {
    let Some(redis) = &settings.redis else {
        let store = FileStore::open(&settings.data_dir).context("opening the data directory")?;
        let store = Arc::new(store);
        return Ok(Storage {
            store: store.clone(),
            sides: store.clone(),
            switch: store,
            bus: Arc::new(LocalBus),
            notices: None,
            description: "file",
        });
    };
    let urls = redis.connection.urls.join(",");
    let conn = Connection::open(&redis.connection)
        .await
        .with_context(|| format!("connecting to Redis at {urls}"))?;
    let store = Arc::new(RedisStore::new(conn.clone(), redis.retention));
    Ok(Storage {
        store: Arc::new(StallRiding::new(store.clone())),
        sides: store.clone(),
        switch: store,
        bus: Arc::new(RedisBus::new(conn)),
        notices: Some(viva_redis_store::listen(
            redis.connection.clone(),
            settings.node_id.clone(),
        )),
        description: if redis.connection.cluster {
            "redis-cluster"
        } else {
            "redis"
        },
    })
}

/// Notices handled at once; the next waits for one of them to finish.
const NOTICES_AT_ONCE: usize = 64;

/// Hands each notice to its user's supervisor; a few at once, so one user's (which may wake
/// a hibernated session) does not hold up the rest.
async fn deliver_notices(app: Arc<App>, mut notices: mpsc::Receiver<Notice>) {
    let at_once = Arc::new(tokio::sync::Semaphore::new(NOTICES_AT_ONCE));
    while let Some(notice) = notices.recv().await {
        let Ok(permit) = at_once.clone().acquire_owned().await else {
            return;
        };
        let app = app.clone();
        tokio::spawn(async move {
            app.directory.deliver(notice).await;
            drop(permit);
        });
    }
}

/// Waits for a signal, then pauses and checkpoints every session before connections close.
async fn shutdown_sequence(app: Arc<App>) {
    wait_for_signal().await;
    app.ready.start_draining();
    tracing::info!("shutting down: pausing and saving sessions");
    app.directory.shutdown(SHUTDOWN_GRACE).await;
    app.shutdown.cancel();
}

async fn wait_for_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::error!(%err, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                tracing::error!(%err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

async fn reap_idle_supervisors(app: Arc<App>) {
    let mut interval = tokio::time::interval(REAP_INTERVAL);
    loop {
        interval.tick().await;
        let retired = app.directory.reap_idle().await;
        if retired > 0 {
            tracing::debug!(retired, "retired idle supervisors");
        }
    }
}

/// File descriptors a node needs besides its sockets: storage, logs, models, the listener.
const SPARE_FILES: u64 = 64;

/// Each connection is a file descriptor: warns when the process's open-file limit would
/// refuse connections before `max_connections` does.
fn warn_if_files_run_out(max_connections: usize) {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let Some(limit) = open_files_limit(&limits) else {
        return;
    };
    if limit < max_connections as u64 + SPARE_FILES {
        tracing::warn!(
            limit,
            max_connections,
            "the open-file limit is below max_connections: new connections fail at about \
             {} (raise `ulimit -n`, or lower max_connections)",
            limit.saturating_sub(SPARE_FILES)
        );
    }
}

/// The soft "Max open files" limit of a `/proc/PID/limits` file (none when unlimited).
fn open_files_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Tells a person at the terminal how to reach the server and what it takes.
fn print_where_to_connect(address: std::net::SocketAddr, dev_mode: bool, voice: bool) {
    let voice = if voice {
        "on (PCM16 audio frames, or answer.text)"
    } else {
        "off, text answers only (no speech model; `viva models install` makes one)"
    };
    println!("  open in a browser: http://{address}/");
    println!("  voice: {voice}");
    if dev_mode {
        println!("  connect: ws://{address}/v1/ws?user=<any name>  (development mode, no token)");
    } else {
        println!("  connect: ws://{address}/v1/ws with a token from `viva token --user <id>`");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_file_limit_is_read_from_proc() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max processes             unlimited            unlimited            processes \n\
                      Max open files            20000                20000                files     \n";
        assert_eq!(open_files_limit(limits), Some(20_000));
        let unlimited =
            "Max open files            unlimited            unlimited            files\n";
        assert_eq!(open_files_limit(unlimited), None);
        assert_eq!(open_files_limit(""), None);
    }
}
