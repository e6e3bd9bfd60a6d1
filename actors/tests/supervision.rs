//! Actor tests: real supervisors and sessions over the in-memory store, with paused tokio time.
#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use viva_actors::directory::Directory;
use viva_actors::link::DeviceLink;
use viva_actors::metrics::SessionMetrics;
use viva_actors::new_sessions::NewSessionGate;
use viva_actors::session::{
    Command, CommandOutcome, Inspect, SessionCommand, SessionDeps, Transcribed,
};
use viva_actors::supervisor::{
    Attached, ConnectionClosed, HibernateSession, ResumeSession, Retire, SessionLimits,
    StartSession, SupervisorDeps, WakeSession,
};
use viva_blueprint::library::BlueprintLibrary;
use viva_core::base::AnswerInput;
use viva_core::checkpoint::{
    CheckpointStore, Claim, ClaimKind, LocalBus, MemoryStore, SessionCheckpoint, SessionKey,
    SessionWrite, StoreError, StoreFuture, SwitchRecord, SwitchStore, UserRecord,
};
use viva_core::clock::ManualClock;
use viva_core::exam::acs::AcsLibrary;
use viva_core::exam::plan::PlanDefaults;
use viva_core::examiner::{
    AssessRequest, EmbeddedExaminer, Examined, Examiner, ExaminerAssessment, ExaminerFuture,
    QuestionRequest, TextDeltas,
};
use viva_core::services::ModeServices;
use viva_core::session::phase::{LivePhase, Phase};
use viva_protocol::config::SessionConfig;
use viva_protocol::server::{PauseReason, SessionStatus};
use viva_protocol::{ErrorCode, ServerEvent, ServerMessage};

/// Any paused phase: `viva_sessions` counts them all as `paused`.
const PAUSED: Phase = Phase::Paused {
    resume_to: LivePhase::AwaitingAnswer,
};

const DAY: Duration = Duration::from_secs(24 * 3600);

fn library() -> Arc<AcsLibrary> {
    viva_testkit::acs::library()
}

struct World {
    directory: Directory,
    clock: Arc<ManualClock>,
    metrics: Arc<SessionMetrics>,
    /// Where the operator's new-session switch is kept.
    switch: Arc<MemoryStore>,
}

fn world(store: Arc<MemoryStore>) -> World {
    world_on(store, Arc::new(ManualClock::at(1_700_000_000_000)))
}

/// A fresh process over `store` (as after a restart), reading time from `clock`.
fn world_on(store: Arc<dyn CheckpointStore>, clock: Arc<ManualClock>) -> World {
    let examiner = Arc::new(EmbeddedExaminer::new(library()));
    world_with(store, clock, examiner)
}

fn world_with(
    store: Arc<dyn CheckpointStore>,
    clock: Arc<ManualClock>,
    examiner: Arc<dyn Examiner>,
) -> World {
    world_with_blueprints(store, clock, examiner, BlueprintLibrary::default())
}

fn world_with_blueprints(
    store: Arc<dyn CheckpointStore>,
    clock: Arc<ManualClock>,
    examiner: Arc<dyn Examiner>,
    blueprints: BlueprintLibrary,
) -> World {
    let library = library();
    let metrics = Arc::new(SessionMetrics::default());
    let session = Arc::new(SessionDeps {
        store,
        examiner,
        modes: Arc::new(ModeServices {
            acs: library,
            blueprints: Arc::new(blueprints),
            tutor: Arc::new(viva_core::tutor::library::TutorLibrary::default()),
            tutor_model: None,
            plan_defaults: PlanDefaults::default(),
        }),
        clock: clock.clone(),
        abandon_after: DAY,
        node_id: "node-test".into(),
        lease: std::time::Duration::from_secs(10),
        speech: None,
        judge: None,
        turns: viva_core::voice::TurnSettings::default(),
        metrics: metrics.clone(),
        sides: Arc::new(MemoryStore::new()),
        // These tests script every examiner call (a gated examiner counts them); phrasing
        // the next question ahead is tested through a server in tests/llm_examiner.rs.
        phrase_ahead: false,
        voice: None,
    });
    let switch = Arc::new(MemoryStore::new());
    let deps = SupervisorDeps {
        session,
        limits: SessionLimits::default(),
        bus: Arc::new(LocalBus),
        new_sessions: NewSessionGate::new(switch.clone(), true),
        hibernation: Default::default(),
    };
    World {
        directory: Directory::new(Arc::new(deps)),
        clock,
        metrics,
        switch,
    }
}

fn device(connection_id: u64) -> (DeviceLink, viva_actors::link::Outbound) {
    DeviceLink::new(
        connection_id,
        format!("device-{connection_id}"),
        CancellationToken::new(),
    )
}

fn exam_config() -> SessionConfig {
    let config = serde_json::json!({"rating": "private", "tasks": ["PA.I.A"]});
    SessionConfig::Exam(serde_json::from_value(config).unwrap())
}

async fn next_event(receiver: &mut viva_actors::link::Outbound) -> ServerEvent {
    tokio::time::timeout(Duration::from_secs(5), receiver.recv())
        .await
        .unwrap()
        .unwrap()
        .event
}

async fn until_question(
    receiver: &mut viva_actors::link::Outbound,
) -> viva_protocol::server::Question {
    loop {
        if let ServerEvent::Question(question) = next_event(receiver).await {
            return question;
        }
    }
}

async fn start(world: &World, user: &str, link: DeviceLink) -> Attached {
    let supervisor = world.directory.supervisor(user);
    supervisor
        .ask(StartSession {
            link,
            event_id: Some("start-1".into()),
            config: exam_config(),
        })
        .await
        .unwrap()
}

/// The device's connection drops: its session pauses with no one to tell.
/// Resumes `user`'s latest session on the device behind `link`.
async fn resume_latest(world: &World, user: &str, link: DeviceLink) -> Attached {
    let resume = ResumeSession {
        link,
        event_id: None,
        session_id: None,
    };
    world.directory.supervisor(user).ask(resume).await.unwrap()
}

async fn disconnect(world: &World, user: &str, connection_id: u64) {
    let supervisor = world.directory.supervisor(user);
    supervisor
        .tell(ConnectionClosed { connection_id })
        .await
        .unwrap();
}

#[tokio::test(start_paused = true)]
async fn paused_session_is_abandoned_after_the_timeout() {
    let world = world(Arc::new(MemoryStore::new()));
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    disconnect(&world, "alice", 1).await;
    tokio::time::sleep(DAY - Duration::from_secs(1)).await;
    assert_eq!(
        session.ask(Inspect).await.unwrap().status,
        SessionStatus::Paused
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        session.ask(Inspect).await.unwrap().status,
        SessionStatus::Abandoned
    );
    let (link, _events) = device(2);
    let resume = ResumeSession {
        link,
        event_id: None,
        session_id: None,
    };
    let reply = world
        .directory
        .supervisor("alice")
        .ask(resume)
        .await
        .unwrap();
    assert!(
        matches!(reply, Attached::Refused(_)),
        "an abandoned session is not resumed"
    );
}

#[tokio::test(start_paused = true)]
async fn a_resume_before_the_timeout_keeps_the_session() {
    let world = world(Arc::new(MemoryStore::new()));
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    let asked = until_question(&mut events).await;
    disconnect(&world, "alice", 1).await;
    tokio::time::sleep(DAY / 2).await;
    let (link, mut events) = device(2);
    let resume = ResumeSession {
        link,
        event_id: None,
        session_id: None,
    };
    assert!(matches!(
        world
            .directory
            .supervisor("alice")
            .ask(resume)
            .await
            .unwrap(),
        Attached::Session { .. }
    ));
    assert_eq!(
        until_question(&mut events).await,
        asked,
        "the same question is asked again"
    );
    tokio::time::sleep(DAY).await;
    assert_eq!(
        session.ask(Inspect).await.unwrap().status,
        SessionStatus::Active
    );
}

#[tokio::test(start_paused = true)]
async fn a_stopped_switch_refuses_new_starts_but_resumes_and_repeated_starts_go_on() {
    let world = world(Arc::new(MemoryStore::new()));
    let (link, mut events) = device(1);
    start(&world, "alice", link).await;
    let asked = until_question(&mut events).await;
    disconnect(&world, "alice", 1).await;
    let stopped = SwitchRecord::new(false, 1);
    world.switch.save_switch(Some(&stopped)).await.unwrap();
    let (link, _events) = device(2);
    let Attached::Refused(refusal) = start(&world, "bob", link).await else {
        panic!("a new start went through a stopped switch")
    };
    assert_eq!(refusal.code, ErrorCode::NewSessionsDisabled);
    let (link, mut events) = device(3);
    let repeated = start(&world, "alice", link).await;
    assert!(
        matches!(repeated, Attached::Session { .. }),
        "a repeated start of an existing session resumes it"
    );
    assert_eq!(until_question(&mut events).await, asked);
    disconnect(&world, "alice", 3).await;
    let (link, mut events) = device(4);
    let resume = ResumeSession {
        link,
        event_id: None,
        session_id: None,
    };
    let resumed = world.directory.supervisor("alice").ask(resume).await;
    assert!(matches!(resumed.unwrap(), Attached::Session { .. }));
    assert_eq!(until_question(&mut events).await, asked);
    world.switch.save_switch(None).await.unwrap();
    let (link, _events) = device(5);
    assert!(matches!(
        start(&world, "bob", link).await,
        Attached::Session { .. }
    ));
}

#[tokio::test(start_paused = true)]
async fn a_second_device_pauses_the_first() {
    let world = world(Arc::new(MemoryStore::new()));
    let (first, mut first_events) = device(1);
    start(&world, "alice", first).await;
    let asked = until_question(&mut first_events).await;
    let (second, mut second_events) = device(2);
    resume_latest(&world, "alice", second).await;
    let paused = loop {
        if let ServerEvent::SessionPaused(paused) = next_event(&mut first_events).await {
            break paused;
        }
    };
    assert_eq!(paused.reason, PauseReason::OtherDevice);
    assert_eq!(until_question(&mut second_events).await, asked);
}

#[tokio::test(start_paused = true)]
async fn a_restored_session_paused_too_long_is_abandoned() {
    let store = Arc::new(MemoryStore::new());
    let world = world(store.clone());
    let (link, mut events) = device(1);
    let Attached::Session { session_id, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    world
        .directory
        .supervisor("alice")
        .ask(Retire)
        .await
        .unwrap();
    world.clock.advance_ms(DAY.as_millis() as u64 + 1);
    let restarted = world_on(store, world.clock.clone());
    let (link, _events) = device(2);
    let resume = ResumeSession {
        link,
        event_id: None,
        session_id: Some(session_id),
    };
    let reply = restarted
        .directory
        .supervisor("alice")
        .ask(resume)
        .await
        .unwrap();
    let Attached::Refused(refusal) = reply else {
        panic!("resumed an abandoned session")
    };
    assert_eq!(refusal.code, ErrorCode::SessionAbandoned);
}

/// A store whose session writes fail while `failing` is set.
#[derive(Default)]
struct FlakyStore {
    inner: MemoryStore,
    failing: std::sync::atomic::AtomicBool,
}

impl CheckpointStore for FlakyStore {
    fn claim_session<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        kind: ClaimKind,
        lease_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>> {
        self.inner.claim_session(key, node, kind, lease_ms)
    }
    fn renew_lease<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        token: u64,
        lease_ms: u64,
    ) -> StoreFuture<'a, bool> {
        self.inner.renew_lease(key, node, token, lease_ms)
    }
    fn release_lease<'a>(&'a self, key: &'a SessionKey, token: u64) -> StoreFuture<'a, ()> {
        self.inner.release_lease(key, token)
    }
    fn save_session<'a>(
        &'a self,
        key: &'a SessionKey,
        write: SessionWrite<'a>,
    ) -> StoreFuture<'a, ()> {
        if self.failing.load(std::sync::atomic::Ordering::SeqCst) {
            return Box::pin(async { Err(StoreError::Unavailable("disk unplugged".into())) });
        }
        self.inner.save_session(key, write)
    }
    fn load_session<'a>(
        &'a self,
        key: &'a SessionKey,
    ) -> StoreFuture<'a, Option<SessionCheckpoint>> {
        self.inner.load_session(key)
    }
    fn save_user<'a>(&'a self, record: &'a UserRecord) -> StoreFuture<'a, ()> {
        self.inner.save_user(record)
    }
    fn load_user<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Option<UserRecord>> {
        self.inner.load_user(user_id)
    }
}

fn drain(receiver: &mut viva_actors::link::Outbound) -> Vec<ServerMessage> {
    std::iter::from_fn(|| receiver.try_recv().ok().map(|message| *message)).collect()
}

#[tokio::test(start_paused = true)]
async fn a_failed_checkpoint_holds_the_ack_until_a_resend_succeeds() {
    let store = Arc::new(FlakyStore::default());
    let world = world_on(store.clone(), Arc::new(ManualClock::at(1_700_000_000_000)));
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    let answer = || Command {
        connection_id: 1,
        event_id: Some("a1".into()),
        command: SessionCommand::Answer(AnswerInput::Text("I don't know.".into())),
    };
    store
        .failing
        .store(true, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        session.ask(answer()).await.unwrap(),
        CommandOutcome::Applied
    );
    let during = drain(&mut events);
    assert_eq!(during.len(), 1, "only the error: {during:?}");
    let ServerEvent::Error(error) = &during[0].event else {
        panic!("{during:?}")
    };
    assert_eq!(error.code, ErrorCode::StorageUnavailable);
    store
        .failing
        .store(false, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        session.ask(answer()).await.unwrap(),
        CommandOutcome::Repeated
    );
    let after: Vec<ServerEvent> = drain(&mut events).into_iter().map(|m| m.event).collect();
    assert!(
        matches!(&after[0], ServerEvent::Ack(ack) if ack.event_id == "a1"),
        "{after:?}"
    );
    let assessments = after
        .iter()
        .filter(|e| matches!(e, ServerEvent::Assessment(_)))
        .count();
    assert_eq!(assessments, 1, "{after:?}");
    assert!(
        matches!(after.last(), Some(ServerEvent::Question(q)) if q.number == 2),
        "{after:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_stall_shorter_than_the_wait_is_ridden_out_with_no_error() {
    let store = Arc::new(FlakyStore::default());
    let world = world_on(store.clone(), Arc::new(ManualClock::at(1_700_000_000_000)));
    let metrics = world.metrics.clone();
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    store
        .failing
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let recovering = store.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        recovering
            .failing
            .store(false, std::sync::atomic::Ordering::SeqCst);
    });
    let answer = Command {
        connection_id: 1,
        event_id: Some("a1".into()),
        command: SessionCommand::Answer(AnswerInput::Text("I don't know.".into())),
    };
    let waited = tokio::time::Instant::now();
    assert_eq!(session.ask(answer).await.unwrap(), CommandOutcome::Applied);
    assert!(
        waited.elapsed() >= std::time::Duration::from_secs(2),
        "it waited the stall out"
    );
    let after: Vec<ServerEvent> = drain(&mut events).into_iter().map(|m| m.event).collect();
    assert!(
        !after.iter().any(|e| matches!(e, ServerEvent::Error(_))),
        "{after:?}"
    );
    assert!(
        matches!(&after[0], ServerEvent::Ack(ack) if ack.event_id == "a1"),
        "{after:?}"
    );
    assert!(
        matches!(after.last(), Some(ServerEvent::Question(q)) if q.number == 2),
        "{after:?}"
    );
    assert!(
        metrics.checkpoint_stall_waits.get() >= 3,
        "it tried again while it waited"
    );
}

#[tokio::test(start_paused = true)]
async fn held_acks_are_sent_by_themselves_once_storage_recovers() {
    let store = Arc::new(FlakyStore::default());
    let world = world_on(store.clone(), Arc::new(ManualClock::at(1_700_000_000_000)));
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    let answer = |id: &str| Command {
        connection_id: 1,
        event_id: Some(id.into()),
        command: SessionCommand::Answer(AnswerInput::Text("I don't know.".into())),
    };
    store
        .failing
        .store(true, std::sync::atomic::Ordering::SeqCst);
    session.ask(answer("a1")).await.unwrap();
    let CommandOutcome::Refused(refusal) = session.ask(answer("a2")).await.unwrap() else {
        panic!("a second event was applied while the first is held")
    };
    assert_eq!(refusal.code, ErrorCode::StorageUnavailable);
    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    let during = drain(&mut events);
    assert!(
        during.iter().all(
            |m| matches!(&m.event, ServerEvent::Error(e) if e.code == ErrorCode::StorageUnavailable)
        ),
        "nothing but errors while storage is down: {during:?}"
    );
    assert!(
        matches!(&during[0].event, ServerEvent::Error(e) if e.event_id.as_deref() == Some("a1")),
        "the error names the held event: {during:?}"
    );
    store
        .failing
        .store(false, std::sync::atomic::Ordering::SeqCst);
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let after: Vec<ServerEvent> = drain(&mut events).into_iter().map(|m| m.event).collect();
    assert!(
        matches!(&after[0], ServerEvent::Ack(ack) if ack.event_id == "a1"),
        "{after:?}"
    );
    assert!(
        matches!(after.last(), Some(ServerEvent::Question(q)) if q.number == 2),
        "{after:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn metrics_count_sessions_by_phase_checkpoints_and_takeovers() {
    let world = world(Arc::new(MemoryStore::new()));
    let metrics = world.metrics.clone();
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    session.ask(Inspect).await.unwrap(); // the handler that asked has finished
    assert_eq!(metrics.sessions_in(Phase::AwaitingAnswer).get(), 1);
    let written = metrics.checkpoint_seconds.count();
    assert_eq!(written, 1, "the start and its first question are one write");
    // The same start (same event_id) from a second device takes the same session over.
    let (link, mut second) = device(2);
    start(&world, "alice", link).await;
    until_question(&mut second).await;
    session.ask(Inspect).await.unwrap();
    assert_eq!(metrics.takeovers.get(), 1, "the first device lost its exam");
    assert_eq!(metrics.sessions_in(Phase::AwaitingAnswer).get(), 1);
    assert_eq!(
        metrics.sessions_in(PAUSED).get(),
        0,
        "one session, driven by B"
    );
    disconnect(&world, "alice", 2).await;
    session.ask(Inspect).await.unwrap();
    assert_eq!(metrics.sessions_in(PAUSED).get(), 1);
    assert_eq!(metrics.sessions_in(Phase::AwaitingAnswer).get(), 0);
    assert!(metrics.checkpoint_seconds.count() > written);
    assert_eq!(metrics.checkpoint_failures.get(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_start_event_id_reused_after_its_session_finished_starts_a_new_session() {
    let world = world(Arc::new(MemoryStore::new()));
    let (link, mut events) = device(1);
    let Attached::Session {
        session,
        session_id: first,
    } = start(&world, "alice", link).await
    else {
        panic!("refused")
    };
    until_question(&mut events).await;
    let end = Command {
        connection_id: 1,
        event_id: Some("end".into()),
        command: SessionCommand::End,
    };
    assert_eq!(session.ask(end).await.unwrap(), CommandOutcome::Applied);
    // The same `start-1` again: the first session is completed, so this is a new exam.
    let (link, mut second) = device(2);
    let Attached::Session {
        session_id: next, ..
    } = start(&world, "alice", link).await
    else {
        panic!("refused")
    };
    assert_ne!(
        next, first,
        "a completed session is not resumed by its old start id"
    );
    until_question(&mut second).await;
    // While the new one is open, the same id still means it (a resent start).
    let (link, mut third) = device(3);
    let Attached::Session {
        session_id: again, ..
    } = start(&world, "alice", link).await
    else {
        panic!("refused")
    };
    assert_eq!(again, next);
    until_question(&mut third).await;
}

/// What a node leaves when it dies between noting a start in the user's record and storing
/// the session's first checkpoint: the record names the session, the store has none.
async fn record_a_start_that_died_before_its_checkpoint(store: &MemoryStore, session_id: &str) {
    let mut record = UserRecord::new("alice");
    record.hold(session_id, "node-dead");
    record
        .sessions
        .push(viva_core::checkpoint::format::SessionEntry {
            session_id: session_id.into(),
            status: SessionStatus::Active,
            evaluation: false,
            mode: Some(viva_protocol::Mode::Exam),
            title: None,
        });
    record
        .start_event_ids
        .push(("start-1".into(), session_id.into()));
    record.version = 1;
    store.save_user(&record).await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_start_resent_after_its_node_died_before_storing_it_starts_the_exam_once() {
    let store = Arc::new(MemoryStore::new());
    record_a_start_that_died_before_its_checkpoint(&store, "ghost").await;
    let world = world(store.clone());
    let (link, mut events) = device(1);
    let Attached::Session { session_id, .. } = start(&world, "alice", link).await else {
        panic!("the resent start was refused")
    };
    assert_eq!(
        session_id, "ghost",
        "the start's own session, not a second one"
    );
    assert!(matches!(
        next_event(&mut events).await,
        ServerEvent::SessionStarted(_)
    ));
    until_question(&mut events).await;
    let key = SessionKey::new("alice", "ghost");
    assert!(store.load_session(&key).await.unwrap().is_some());
    let record = store.load_user("alice").await.unwrap().unwrap();
    assert_eq!(record.sessions.len(), 1, "{:?}", record.sessions);
    assert_eq!(record.active_session.as_deref(), Some("ghost"));
    // Sent once more, the same start now resumes the stored session.
    let (link, mut again) = device(2);
    let Attached::Session { session_id, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    assert_eq!(session_id, "ghost");
    until_question(&mut again).await;
}

#[tokio::test(start_paused = true)]
async fn a_finished_session_stops_once_its_device_lets_go_and_its_result_stays_readable() {
    let world = world(Arc::new(MemoryStore::new()));
    let (link, mut events) = device(1);
    let Attached::Session {
        session,
        session_id,
    } = start(&world, "alice", link).await
    else {
        panic!("refused")
    };
    until_question(&mut events).await;
    let end = Command {
        connection_id: 1,
        event_id: Some("end".into()),
        command: SessionCommand::End,
    };
    assert_eq!(session.ask(end).await.unwrap(), CommandOutcome::Applied);
    assert_eq!(world.metrics.sessions_in(Phase::Completed).get(), 1);
    // The device (here, the test) still holds it: late messages still reach the session.
    assert!(session.is_alive());
    let weak = session.downgrade();
    drop(session);
    disconnect(&world, "alice", 1).await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    assert!(weak.upgrade().is_none(), "the finished session stopped");
    assert_eq!(world.metrics.sessions_in(Phase::Completed).get(), 0);
    let lookup = world
        .directory
        .supervisor("alice")
        .ask(viva_actors::supervisor::ReadResult { session_id })
        .await
        .unwrap();
    assert!(
        matches!(lookup, viva_actors::supervisor::ResultLookup::Completed(_)),
        "{lookup:?}"
    );
}

/// The embedded examiner's answers, each one only once the test lets it through, as a model
/// takes its time; it counts the calls.
struct GatedExaminer {
    inner: EmbeddedExaminer,
    gate: Arc<tokio::sync::Semaphore>,
    calls: std::sync::atomic::AtomicUsize,
}

/// A gated examiner with its gate closed.
fn gated_examiner() -> (Arc<tokio::sync::Semaphore>, Arc<GatedExaminer>) {
    let gate = Arc::new(tokio::sync::Semaphore::new(0));
    let examiner = Arc::new(GatedExaminer {
        inner: EmbeddedExaminer::new(library()),
        gate: gate.clone(),
        calls: Default::default(),
    });
    (gate, examiner)
}

impl GatedExaminer {
    async fn wait(&self) {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.gate.acquire().await.unwrap().forget();
    }

    fn calls(&self) -> usize {
        self.calls.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Examiner for GatedExaminer {
    fn phrase<'a>(
        &'a self,
        request: &'a QuestionRequest,
        _: TextDeltas<'a>,
    ) -> ExaminerFuture<'a, Examined<String>> {
        Box::pin(async move {
            self.wait().await;
            Examined::offline(self.inner.phrase_now(request))
        })
    }

    fn assess<'a>(
        &'a self,
        request: &'a AssessRequest,
    ) -> ExaminerFuture<'a, Examined<ExaminerAssessment>> {
        Box::pin(async move {
            self.wait().await;
            Examined::offline(self.inner.assess_now(request))
        })
    }

    fn is_slow(&self) -> bool {
        true
    }
}

async fn until_assessment(receiver: &mut viva_actors::link::Outbound) -> String {
    loop {
        if let ServerEvent::Assessment(assessment) = next_event(receiver).await {
            return assessment.question_id;
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_slow_examiner_keeps_no_takeover_or_pause_waiting() {
    let (gate, examiner) = gated_examiner();
    let clock = Arc::new(ManualClock::at(1_700_000_000_000));
    let world = world_with(Arc::new(MemoryStore::new()), clock, examiner.clone());
    let (first, mut first_events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", first).await else {
        panic!("refused")
    };
    gate.add_permits(1);
    assert_eq!(until_question(&mut first_events).await.number, 1);
    let answer = |connection_id: u64, id: &str| Command {
        connection_id,
        event_id: Some(id.into()),
        command: SessionCommand::Answer(AnswerInput::Text("I don't know.".into())),
    };
    let applied = session.ask(answer(1, "a1")).await.unwrap();
    assert_eq!(
        applied,
        CommandOutcome::Applied,
        "acked while the examiner works"
    );

    // A takeover while the examiner is still assessing is answered at once.
    let (second, mut second_events) = device(2);
    let resume = |link| ResumeSession {
        link,
        event_id: None,
        session_id: None,
    };
    let supervisor = world.directory.supervisor("alice");
    let resumed = tokio::time::timeout(Duration::from_millis(100), supervisor.ask(resume(second)));
    resumed.await.expect("not kept waiting").unwrap();
    let paused = loop {
        if let ServerEvent::SessionPaused(paused) = next_event(&mut first_events).await {
            break paused;
        }
    };
    assert_eq!(paused.reason, PauseReason::OtherDevice);
    // The verdict then goes to the device holding the session, and the exam goes on.
    gate.add_permits(2);
    assert_eq!(until_assessment(&mut second_events).await, "q1");
    assert_eq!(until_question(&mut second_events).await.number, 2);
    assert_eq!(examiner.calls(), 3);

    // A pause while the examiner works: its answer is dropped, and asked again on resume.
    session.ask(answer(2, "a2")).await.unwrap();
    let pause = Command {
        connection_id: 2,
        event_id: Some("p".into()),
        command: SessionCommand::Pause,
    };
    assert_eq!(session.ask(pause).await.unwrap(), CommandOutcome::Applied);
    gate.add_permits(1);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let while_paused = drain(&mut second_events);
    let assessed = |m: &ServerMessage| matches!(m.event, ServerEvent::Assessment(_));
    assert!(!while_paused.iter().any(assessed), "{while_paused:?}");
    assert_eq!(examiner.calls(), 4);
    let (third, mut third_events) = device(3);
    supervisor.ask(resume(third)).await.unwrap();
    gate.add_permits(2);
    assert_eq!(until_assessment(&mut third_events).await, "q2");
    assert_eq!(
        examiner.calls(),
        6,
        "the dropped assessment was asked again"
    );
}

fn spoken(connection_id: u64, event_id: &str) -> Transcribed {
    Transcribed::finished(connection_id, Some(event_id.into()), "I don't know.".into())
}

/// Whether `events` show the spoken answer `v1` taken: its ack, a transcript or a verdict.
fn answered(events: &[ServerEvent]) -> bool {
    events.iter().any(|e| match e {
        ServerEvent::Ack(ack) => ack.event_id == "v1",
        ServerEvent::Assessment(_) | ServerEvent::TranscriptFinal(_) => true,
        _ => false,
    })
}

#[tokio::test(start_paused = true)]
async fn a_spoken_answer_finished_after_a_takeover_is_not_applied() {
    let world = world(Arc::new(MemoryStore::new()));
    let (link, mut first) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    until_question(&mut first).await;
    let (link, mut second) = device(2);
    start(&world, "alice", link).await;
    let question = until_question(&mut second).await;
    // Device 1's last turn is transcribed only now, after device 2 took the exam.
    session.tell(spoken(1, "v1")).await.unwrap();
    session.ask(Inspect).await.unwrap();
    let to_first: Vec<ServerEvent> = drain(&mut first).into_iter().map(|m| m.event).collect();
    let to_second: Vec<ServerEvent> = drain(&mut second).into_iter().map(|m| m.event).collect();
    assert!(!answered(&to_first), "{to_first:?}");
    assert!(!answered(&to_second), "{to_second:?}");
    let typed = Command {
        connection_id: 2,
        event_id: Some("t1".into()),
        command: SessionCommand::Answer(AnswerInput::Text("I don't know.".into())),
    };
    assert_eq!(session.ask(typed).await.unwrap(), CommandOutcome::Applied);
    let next = until_question(&mut second).await;
    assert_eq!(
        next.number,
        question.number + 1,
        "the typed answer was the first"
    );
}

#[tokio::test(start_paused = true)]
async fn a_spoken_answer_while_a_checkpoint_is_unsaved_is_refused() {
    let store = Arc::new(FlakyStore::default());
    let world = world_on(store.clone(), Arc::new(ManualClock::at(1_700_000_000_000)));
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    let typed = || Command {
        connection_id: 1,
        event_id: Some("a1".into()),
        command: SessionCommand::Answer(AnswerInput::Text("I don't know.".into())),
    };
    store
        .failing
        .store(true, std::sync::atomic::Ordering::SeqCst);
    session.ask(typed()).await.unwrap();
    drain(&mut events);
    session.tell(spoken(1, "v2")).await.unwrap();
    session.ask(Inspect).await.unwrap();
    let during: Vec<ServerEvent> = drain(&mut events).into_iter().map(|m| m.event).collect();
    assert!(
        during.iter().any(|e| matches!(e, ServerEvent::Error(error)
            if error.code == ErrorCode::StorageUnavailable
                && error.event_id.as_deref() == Some("v2"))),
        "{during:?}"
    );
    store
        .failing
        .store(false, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        session.ask(typed()).await.unwrap(),
        CommandOutcome::Repeated
    );
    let after: Vec<ServerEvent> = drain(&mut events).into_iter().map(|m| m.event).collect();
    let assessments = after
        .iter()
        .filter(|e| matches!(e, ServerEvent::Assessment(_)))
        .count();
    assert_eq!(
        assessments, 1,
        "only the typed answer was applied: {after:?}"
    );
    assert!(
        matches!(after.last(), Some(ServerEvent::Question(q)) if q.number == 2),
        "{after:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Assessment time limits

const ADDITION: &str = r#"
skill_id: "T.ADD"
generation:
  item_type: multiple_choice
  parameters:
    a: {type: integer, min: 1, max: 50}
    b: {type: integer, min: 1, max: 50}
  answer_formula: "a + b"
  answer_type: integer
  difficulty_levels: {easy: {constraints: []}, medium: {constraints: []}, hard: {constraints: []}}
presentation:
  stem_templates: ["What is {a} + {b}?"]
  option_count: 4
  distractor_strategies: [{type: off_by_one, formula: "answer + 1"}]
"#;

/// An assessment of two addition items; `limit` is its `time_limit_minutes` line, if any.
fn addition_assessment(id: &str, limit: &str) -> String {
    format!(
        "assessment_id: {id}\nconfiguration: {{total_items: 2, passing_score_percent: 50{limit}}}\n\
         sections: [{{section_id: s, item_count: 2, skill_blueprints: [{{skill_id: T.ADD}}], \
         difficulty_distribution: {{easy: 2}}}}]\n\
         scoring: {{grade_bands: [{{label: A, min_percent: 0}}]}}\n"
    )
}

fn assessment_world() -> World {
    let source = |path: &str, text: String| viva_blueprint::library::Source {
        path: path.into(),
        text,
    };
    let blueprints = BlueprintLibrary::load(
        &[source("add.yaml", ADDITION.to_owned())],
        &[
            source(
                "timed.yaml",
                addition_assessment("TIMED", ", time_limit_minutes: 1"),
            ),
            source("untimed.yaml", addition_assessment("UNTIMED", "")),
        ],
    )
    .unwrap();
    let clock = Arc::new(ManualClock::at(1_700_000_000_000));
    let examiner = Arc::new(EmbeddedExaminer::new(library()));
    world_with_blueprints(Arc::new(MemoryStore::new()), clock, examiner, blueprints)
}

async fn start_assessment(world: &World, id: &str, link: DeviceLink) -> Attached {
    let config = serde_json::json!({"assessment_id": id, "seed": 3});
    world
        .directory
        .supervisor("alice")
        .ask(StartSession {
            link,
            event_id: Some("start-1".into()),
            config: SessionConfig::Assessment(serde_json::from_value(config).unwrap()),
        })
        .await
        .unwrap()
}

async fn until_started(
    receiver: &mut viva_actors::link::Outbound,
) -> viva_protocol::server::PlanSummary {
    loop {
        if let ServerEvent::SessionStarted(started) = next_event(receiver).await {
            return started.plan;
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_timed_assessment_completes_when_its_time_runs_out() {
    let world = assessment_world();
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start_assessment(&world, "TIMED", link).await else {
        panic!("refused")
    };
    assert_eq!(
        until_started(&mut events).await.time_limit_seconds,
        Some(60)
    );
    assert_eq!(
        until_question(&mut events).await.time_remaining_seconds,
        Some(60)
    );
    world.clock.advance_ms(61_000);
    tokio::time::sleep(Duration::from_secs(61)).await;
    assert_eq!(
        session.ask(Inspect).await.unwrap().status,
        SessionStatus::Completed
    );
}

#[tokio::test(start_paused = true)]
async fn an_untimed_assessment_has_no_time_limit() {
    let world = assessment_world();
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start_assessment(&world, "UNTIMED", link).await else {
        panic!("refused")
    };
    assert_eq!(until_started(&mut events).await.time_limit_seconds, None);
    assert_eq!(
        until_question(&mut events).await.time_remaining_seconds,
        None
    );
    world.clock.advance_ms(DAY.as_millis() as u64);
    tokio::time::sleep(DAY).await;
    assert_eq!(
        session.ask(Inspect).await.unwrap().status,
        SessionStatus::Active
    );
    let answer = Command {
        connection_id: 1,
        event_id: Some("answer-1".into()),
        command: SessionCommand::Answer(AnswerInput::Choice(0)),
    };
    let answered = session.ask(answer).await.unwrap();
    assert_eq!(answered, CommandOutcome::Applied);
    assert_eq!(
        until_question(&mut events).await.time_remaining_seconds,
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Admission: events that arrive late are refused (or dropped) exactly as a typed answer is

#[tokio::test(start_paused = true)]
async fn an_examiner_reply_during_a_storage_outage_is_dropped_and_asked_again() {
    let (gate, examiner) = gated_examiner();
    let store = Arc::new(FlakyStore::default());
    let clock = Arc::new(ManualClock::at(1_700_000_000_000));
    let world = world_with(store.clone(), clock, examiner.clone());
    let (first, mut first_events) = device(1);
    let Attached::Session { session, .. } = start(&world, "alice", first).await else {
        panic!("refused")
    };
    gate.add_permits(1);
    assert_eq!(until_question(&mut first_events).await.number, 1);
    let answer = Command {
        connection_id: 1,
        event_id: Some("a1".into()),
        command: SessionCommand::Answer(AnswerInput::Text("I don't know.".into())),
    };
    assert_eq!(session.ask(answer).await.unwrap(), CommandOutcome::Applied);
    assert_eq!(examiner.calls(), 2, "the assessment is under way");

    // Storage fails; a pause is held unsaved; then the examiner's verdict arrives.
    store
        .failing
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let pause = || Command {
        connection_id: 1,
        event_id: Some("p".into()),
        command: SessionCommand::Pause,
    };
    session.ask(pause()).await.unwrap();
    gate.add_permits(1);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let during = drain(&mut first_events);
    let assessed = |m: &ServerMessage| matches!(m.event, ServerEvent::Assessment(_));
    assert!(!during.iter().any(assessed), "verdict applied: {during:?}");
    let typed_refusal = session
        .ask(Command {
            connection_id: 1,
            event_id: Some("a2".into()),
            command: SessionCommand::Answer(AnswerInput::Text("Yes.".into())),
        })
        .await
        .unwrap();
    assert!(
        matches!(&typed_refusal, CommandOutcome::Refused(r) if r.code == ErrorCode::StorageUnavailable),
        "a typed answer is refused at the same moment: {typed_refusal:?}"
    );

    // Storage recovers: the held pause is stored, and on resume the dropped verdict is asked
    // for again.
    store
        .failing
        .store(false, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        session.ask(pause()).await.unwrap(),
        CommandOutcome::Repeated
    );
    let (second, mut second_events) = device(2);
    resume_latest(&world, "alice", second).await;
    gate.add_permits(2);
    assert_eq!(until_assessment(&mut second_events).await, "q1");
    assert!(examiner.calls() >= 3, "the dropped verdict was asked again");
}

#[tokio::test(start_paused = true)]
async fn a_spoken_answer_after_the_time_limit_is_refused_and_the_assessment_completes() {
    let world = assessment_world();
    let (link, mut events) = device(1);
    let Attached::Session { session, .. } = start_assessment(&world, "TIMED", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    // Only the session's clock moves: the spoken answer arrives before the time-limit timer.
    world.clock.advance_ms(61_000);
    let spoken = Transcribed::finished(1, Some("v1".into()), "forty two".into());
    session.tell(spoken).await.unwrap();
    assert_eq!(
        session.ask(Inspect).await.unwrap().status,
        SessionStatus::Completed
    );
    let after: Vec<ServerEvent> = drain(&mut events).into_iter().map(|m| m.event).collect();
    assert!(
        after.iter().any(|e| matches!(e, ServerEvent::Error(error)
            if error.code == ErrorCode::SessionCompleted
                && error.event_id.as_deref() == Some("v1"))),
        "{after:?}"
    );
    assert!(
        !after
            .iter()
            .any(|e| matches!(e, ServerEvent::Ack(ack) if ack.event_id == "v1")),
        "{after:?}"
    );
    assert!(
        after
            .iter()
            .any(|e| matches!(e, ServerEvent::SessionCompleted(_))),
        "{after:?}"
    );
}

async fn hibernate(world: &World, user: &str, session_id: &str, connection_id: u64) -> bool {
    let asked = HibernateSession {
        session_id: session_id.into(),
        connection_id,
    };
    world.directory.supervisor(user).ask(asked).await.unwrap()
}

async fn wake(world: &World, user: &str, session_id: &str, connection_id: u64) -> Attached {
    let asked = WakeSession {
        session_id: session_id.into(),
        connection_id,
    };
    world.directory.supervisor(user).ask(asked).await.unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_session_hibernates_only_while_nothing_is_under_way_and_wakes_where_it_stood() {
    let (gate, examiner) = gated_examiner();
    let clock = Arc::new(ManualClock::at(1_700_000_000_000));
    let world = world_with(Arc::new(MemoryStore::new()), clock, examiner.clone());
    let (link, mut events) = device(1);
    let Attached::Session {
        session,
        session_id,
    } = start(&world, "alice", link).await
    else {
        panic!("refused")
    };
    assert!(
        !hibernate(&world, "alice", &session_id, 1).await,
        "still phrasing"
    );
    gate.add_permits(1);
    assert_eq!(until_question(&mut events).await.number, 1);
    let answer = |id: &str| Command {
        connection_id: 1,
        event_id: Some(id.into()),
        command: SessionCommand::Answer(AnswerInput::Text("I don't know.".into())),
    };
    session.ask(answer("a1")).await.unwrap();
    assert!(
        !hibernate(&world, "alice", &session_id, 1).await,
        "still assessing"
    );
    gate.add_permits(2);
    assert_eq!(until_question(&mut events).await.number, 2);
    assert!(
        !hibernate(&world, "alice", &session_id, 2).await,
        "not that device's"
    );
    assert!(hibernate(&world, "alice", &session_id, 1).await);
    assert!(!session.is_alive() || session.ask(Inspect).await.is_err());
    assert_eq!(world.metrics.hibernations.get(), 1);

    let refused = wake(&world, "alice", &session_id, 2).await;
    assert!(matches!(refused, Attached::Refused(r) if r.code == ErrorCode::SessionPaused));
    let Attached::Session { session, .. } = wake(&world, "alice", &session_id, 1).await else {
        panic!("not woken")
    };
    assert!(
        drain(&mut events).is_empty(),
        "the device hears nothing of it"
    );
    assert_eq!(
        session.ask(answer("a2")).await.unwrap(),
        CommandOutcome::Applied
    );
    gate.add_permits(2);
    assert_eq!(until_assessment(&mut events).await, "q2");
    assert_eq!(until_question(&mut events).await.number, 3);
    assert_eq!(
        session.ask(answer("a1")).await.unwrap(),
        CommandOutcome::Repeated,
        "what it acknowledged before it slept it still knows"
    );
}

#[tokio::test(start_paused = true)]
async fn a_timed_assessment_stays_awake_for_its_time_limit() {
    let world = assessment_world();
    let (link, mut events) = device(1);
    let Attached::Session { session_id, .. } = start_assessment(&world, "TIMED", link).await else {
        panic!("refused")
    };
    until_question(&mut events).await;
    assert!(!hibernate(&world, "alice", &session_id, 1).await);
}
