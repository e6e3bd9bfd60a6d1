//! `RedisStore` against a real redis-server: claims, fencing, versions, the active-session
//! check, transcript turns, user-record compare-and-set and node notices.

use std::time::Duration;

use viva_core::checkpoint::SideKey;
use viva_core::checkpoint::format::{CHECKPOINT_FORMAT, PhaseName, TurnCheckpoint};
use viva_core::checkpoint::{
    CheckpointStore, ClaimKind, HeadChain, HeadUpdate, NodeBus, Notice, SessionCheckpoint,
    SessionKey, SessionWrite, StoreError, UserRecord,
};
use viva_redis_store::{Connection, RedisBus, RedisConfig, RedisStore, Retention};
use viva_testkit::redis::RedisServer;

const LEASE_MS: u64 = 10_000;

async fn store(redis: &RedisServer) -> RedisStore {
    let conn = Connection::open(&RedisConfig::standalone(&redis.url()))
        .await
        .expect("connect");
    RedisStore::new(conn, Retention::default())
}

fn turn(n: usize, answer: Option<&str>) -> TurnCheckpoint {
    TurnCheckpoint {
        question_id: format!("q{n}"),
        element_code: "PA.I.A.K1".into(),
        kind: "primary".into(),
        question: format!("question {n}"),
        answer: answer.map(str::to_owned),
        score: None,
        feedback: None,
        examiner: Vec::new(),
        sources: None,
        scenario: None,
    }
}

fn checkpoint(key: &SessionKey, version: u64, turns: Vec<TurnCheckpoint>) -> SessionCheckpoint {
    SessionCheckpoint {
        format: CHECKPOINT_FORMAT,
        session_id: key.session_id.clone(),
        user_id: key.user_id.clone(),
        version,
        created_at_ms: 1,
        updated_at_ms: 2,
        paused_at_ms: None,
        thinking_pause_ms: None,
        seq: version,
        phase: PhaseName::Paused,
        resume_to: Some(PhaseName::AwaitingAnswer),
        state: viva_core::checkpoint::ModeCheckpoint::OneQuestion(Default::default()),
        transcript: turns,
        applied_event_ids: vec!["e1".into()],
    }
}

fn write<'a>(checkpoint: &'a SessionCheckpoint, token: u64, turns_from: usize) -> SessionWrite<'a> {
    SessionWrite {
        checkpoint,
        token,
        turns_from,
        live: false,
        lease: None,
        head: &HeadUpdate::Whole,
    }
}

async fn make_active(store: &RedisStore, user: &str, session: &str) {
    let mut record = UserRecord::new(user);
    record.version = 1;
    record.active_session = Some(session.to_owned());
    store.save_user(&record).await.expect("save user");
}

#[tokio::test]
async fn a_newer_claim_fences_the_older_owner_and_returns_every_acked_write() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let key = SessionKey::new("ann", "s1");
    let first = store
        .claim_session(&key, "one", ClaimKind::Create, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((first.token, first.previous_owner.clone()), (1, None));
    let v1 = checkpoint(&key, 1, vec![turn(1, Some("yes"))]);
    store
        .save_session(&key, write(&v1, first.token, 0))
        .await
        .unwrap();
    let second = store
        .claim_session(&key, "two", ClaimKind::Adopt, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(second.token, 2);
    assert_eq!(
        second.previous_owner.as_deref(),
        Some("one"),
        "the live lease is reported"
    );
    assert_eq!(second.checkpoint.as_ref(), Some(&v1));
    let stale = checkpoint(&key, 2, vec![turn(1, Some("overwritten"))]);
    let refused = store
        .save_session(&key, write(&stale, first.token, 0))
        .await;
    assert!(
        matches!(refused, Err(StoreError::Fenced { token: 1, .. })),
        "{refused:?}"
    );
    assert!(
        !store
            .renew_lease(&key, "one", first.token, LEASE_MS)
            .await
            .unwrap()
    );
    assert!(
        store
            .renew_lease(&key, "two", second.token, LEASE_MS)
            .await
            .unwrap()
    );
    assert_eq!(store.load_session(&key).await.unwrap().as_ref(), Some(&v1));
}

#[tokio::test]
async fn a_write_extends_its_nodes_lease_so_a_later_claim_knows_whom_to_tell() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let key = SessionKey::new("ann", "s1");
    let short = 200;
    let first = store
        .claim_session(&key, "one", ClaimKind::Create, short)
        .await
        .unwrap()
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(2 * short)).await;
    let v1 = checkpoint(&key, 1, vec![turn(1, Some("yes"))]);
    let lease = viva_core::checkpoint::Lease {
        node: "one",
        ms: LEASE_MS,
    };
    let extending = SessionWrite {
        lease: Some(lease),
        head: &HeadUpdate::Whole,
        ..write(&v1, first.token, 0)
    };
    store.save_session(&key, extending).await.unwrap();
    let second = store
        .claim_session(&key, "two", ClaimKind::Adopt, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        second.previous_owner.as_deref(),
        Some("one"),
        "the claim's lease had run out; the write renewed it"
    );
}

#[tokio::test]
async fn claims_must_fit_whether_the_session_exists() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let key = SessionKey::new("ann", "s1");
    assert!(
        store
            .claim_session(&key, "n", ClaimKind::Adopt, LEASE_MS)
            .await
            .unwrap()
            .is_none()
    );
    let claim = store
        .claim_session(&key, "n", ClaimKind::Create, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    let v1 = checkpoint(&key, 1, Vec::new());
    store
        .save_session(&key, write(&v1, claim.token, 0))
        .await
        .unwrap();
    assert!(
        store
            .claim_session(&key, "n", ClaimKind::Create, LEASE_MS)
            .await
            .unwrap()
            .is_none()
    );
    let other_user = SessionKey::new("bob", "s1");
    assert!(
        store.load_session(&other_user).await.unwrap().is_none(),
        "keys include the owner"
    );
}

#[tokio::test]
async fn an_older_version_is_refused_even_from_the_owner() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let key = SessionKey::new("ann", "s1");
    let claim = store
        .claim_session(&key, "n", ClaimKind::Create, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    let v2 = checkpoint(&key, 2, Vec::new());
    store
        .save_session(&key, write(&v2, claim.token, 0))
        .await
        .unwrap();
    let v1 = checkpoint(&key, 1, Vec::new());
    assert!(
        store
            .save_session(&key, write(&v1, claim.token, 0))
            .await
            .is_err()
    );
    assert_eq!(
        store.load_session(&key).await.unwrap().map(|c| c.version),
        Some(2)
    );
}

#[tokio::test]
async fn a_live_checkpoint_needs_the_session_to_be_the_users_active_one() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let key = SessionKey::new("ann", "s1");
    let claim = store
        .claim_session(&key, "n", ClaimKind::Create, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    let live = checkpoint(&key, 1, Vec::new());
    let attempt = SessionWrite {
        live: true,
        lease: None,
        head: &HeadUpdate::Whole,
        ..write(&live, claim.token, 0)
    };
    let refused = store.save_session(&key, attempt).await;
    assert!(
        matches!(refused, Err(StoreError::NotActive { .. })),
        "{refused:?}"
    );
    make_active(&store, "ann", "s1").await;
    store.save_session(&key, attempt).await.unwrap();
}

#[tokio::test]
async fn only_the_changed_tail_of_the_transcript_is_rewritten() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let key = SessionKey::new("ann", "s1");
    let claim = store
        .claim_session(&key, "n", ClaimKind::Create, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    let asked = checkpoint(&key, 1, vec![turn(1, Some("a")), turn(2, None)]);
    store
        .save_session(&key, write(&asked, claim.token, 0))
        .await
        .unwrap();
    let answered = checkpoint(
        &key,
        2,
        vec![turn(1, Some("a")), turn(2, Some("b")), turn(3, None)],
    );
    store
        .save_session(&key, write(&answered, claim.token, 1))
        .await
        .unwrap();
    assert_eq!(
        store.load_session(&key).await.unwrap().as_ref(),
        Some(&answered)
    );
    let turns_key = "viva:{u:616e6e}:s:s1:turns";
    assert_eq!(redis.cli(&["LLEN", turns_key]), "3");
    assert!(
        redis.cli(&["PTTL", turns_key]).parse::<i64>().unwrap() > 0,
        "retention TTL set"
    );
}

#[tokio::test]
async fn user_records_are_compare_and_set() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let mut record = UserRecord::new("ann");
    record.version = 1;
    store.save_user(&record).await.unwrap();
    let conflict = store.save_user(&record).await;
    assert!(
        matches!(conflict, Err(StoreError::Conflict { .. })),
        "{conflict:?}"
    );
    record.version = 2;
    record.active_session = Some("s9".into());
    store.save_user(&record).await.unwrap();
    assert_eq!(store.load_user("ann").await.unwrap(), Some(record));
    assert_eq!(store.load_user("nobody").await.unwrap(), None);
}

#[tokio::test]
async fn a_users_review_history_is_stored_with_the_record_and_compare_and_set() {
    use viva_core::review::{ElementOutcome, Recall, merge_outcomes};
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let mut record = UserRecord::new("ann");
    record.version = 1;
    let outcomes: Vec<ElementOutcome> = (1..=7)
        .map(|n| ElementOutcome {
            element: format!("PA.I.A.K{n}"),
            recall: Recall::Satisfactory,
            at_ms: 1_765_000_000_000 + n,
        })
        .collect();
    merge_outcomes(&mut record.element_history, &outcomes);
    store.save_user(&record).await.unwrap();
    let mut stale = record.clone();
    stale.element_history.clear();
    let refused = store.save_user(&stale).await;
    assert!(
        matches!(refused, Err(StoreError::Conflict { .. })),
        "{refused:?}"
    );
    assert_eq!(store.load_user("ann").await.unwrap(), Some(record));
}

#[tokio::test]
async fn an_unreachable_redis_is_reported_as_unavailable() {
    let mut redis = RedisServer::start();
    let store = store(&redis).await;
    redis.stop();
    let failed = store.load_user("ann").await;
    assert!(
        matches!(failed, Err(StoreError::Unavailable(_))),
        "{failed:?}"
    );
    redis.restart();
    let mut recovered = store.load_user("ann").await;
    for _ in 0..20 {
        if recovered.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        recovered = store.load_user("ann").await;
    }
    assert_eq!(recovered.unwrap(), None);
}

#[tokio::test]
async fn notices_reach_the_addressed_node_only() {
    let redis = RedisServer::start();
    let config = RedisConfig::standalone(&redis.url());
    let mut one = viva_redis_store::listen(config.clone(), "one".into());
    let mut two = viva_redis_store::listen(config.clone(), "two".into());
    let bus = RedisBus::new(Connection::open(&config).await.unwrap());
    let notice = Notice::Yield {
        user_id: "ann".into(),
        active_session: "s2".into(),
    };
    let mut received = None;
    for _ in 0..50 {
        bus.publish("one", &notice).await.unwrap();
        if let Ok(Some(got)) = tokio::time::timeout(Duration::from_millis(100), one.recv()).await {
            received = Some(got);
            break;
        }
    }
    assert_eq!(received, Some(notice));
    assert!(two.try_recv().is_err(), "node two heard nothing");
}

/// A new student of ARITHMETIC, as a side record's body.
fn snapshot_of(user: &str) -> serde_json::Value {
    let cold =
        viva_core::tutor::snapshot::StudentSnapshot::cold_start(user, "ARITHMETIC", "add-1digit");
    viva_core::modes::tutor::mode::snapshot_body(&cold)
}

fn snapshot_key(user: &str) -> SideKey {
    viva_core::modes::tutor::mode::snapshot_key(user, "ARITHMETIC")
}

#[tokio::test]
async fn a_side_record_is_written_only_under_its_latest_claim_and_outlives_sessions() {
    use viva_core::checkpoint::SideStore;
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let ann = snapshot_key("ann");
    assert_eq!(store.load_side(&ann).await.unwrap(), None);
    let first = store
        .claim_side(&ann, &snapshot_of("ann"), "s1", 1)
        .await
        .unwrap();
    assert_eq!((first.fence, first.previous_owner.as_deref()), (1, None));
    let mut written = first.stored.clone();
    written.body["revisit"] = serde_json::json!(["add-1digit"]);
    store.save_side(&ann, &written).await.unwrap();
    let second = store
        .claim_side(&ann, &snapshot_of("ann"), "s2", 2)
        .await
        .unwrap();
    assert_eq!(
        (second.fence, second.previous_owner.as_deref()),
        (2, Some("s1"))
    );
    assert_eq!(
        second.stored.body["revisit"],
        serde_json::json!(["add-1digit"]),
        "the claim reads what s1 wrote"
    );
    let refused = store.save_side(&ann, &written).await.unwrap_err();
    assert!(
        matches!(refused, StoreError::Fenced { token: 1, .. }),
        "{refused}"
    );
    let read = store.load_side(&ann).await.unwrap().unwrap();
    assert_eq!((read.fence, read.owner.as_str()), (2, "s2"));
    assert_eq!(store.load_side(&snapshot_key("bob")).await.unwrap(), None);
    let session_like = SideKey {
        kind: "s",
        ..snapshot_key("ann")
    };
    assert!(
        store.load_side(&session_like).await.is_err(),
        "a kind never names a session's keys"
    );
}

/// Creates the session on node "one"; its token.
async fn created(store: &RedisStore, key: &SessionKey) -> u64 {
    let claim = store
        .claim_session(key, "one", ClaimKind::Create, LEASE_MS)
        .await;
    claim.expect("claimed").expect("new").token
}

/// Writes `checkpoint` with its head as `chain` says, and tells the chain it is stored.
async fn save_through(
    store: &RedisStore,
    chain: &mut HeadChain,
    key: &SessionKey,
    checkpoint: &SessionCheckpoint,
    token: u64,
    turns_from: usize,
) -> HeadUpdate {
    let head = serde_json::to_value(checkpoint.head()).expect("a head is a tree");
    let update = chain.update_for(&head);
    let write = SessionWrite {
        head: &update,
        ..write(checkpoint, token, turns_from)
    };
    store.save_session(key, write).await.expect("saved");
    chain.stored(head, checkpoint.version, &update);
    update
}

#[tokio::test]
async fn head_edits_are_logged_and_read_back_as_the_latest_head() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let key = SessionKey::new("ann", "s1");
    let token = created(&store, &key).await;
    let mut chain = HeadChain::default();
    let mut latest = checkpoint(&key, 1, vec![turn(1, None)]);
    // A window of applied event ids, as a live session keeps.
    latest.applied_event_ids = (0..32).map(|n| format!("event-{n:030}")).collect();
    let first = save_through(&store, &mut chain, &key, &latest, token, 0).await;
    assert_eq!(first, HeadUpdate::Whole);
    for version in 2..=6 {
        latest.version = version;
        latest.seq = version;
        latest.applied_event_ids.remove(0);
        latest.applied_event_ids.push(format!("e{version}"));
        latest
            .transcript
            .push(turn(version as usize, Some("answer")));
        let turns_from = latest.transcript.len() - 2;
        let update = save_through(&store, &mut chain, &key, &latest, token, turns_from).await;
        assert!(matches!(update, HeadUpdate::Edits { .. }), "{update:?}");
        assert_eq!(
            store.load_session(&key).await.unwrap().as_ref(),
            Some(&latest)
        );
    }
    let edits = redis.cli(&["LLEN", "viva:{u:616e6e}:s:s1:edits"]);
    assert_eq!(edits.trim(), "5", "one logged edit per write");
    let claimed = store
        .claim_session(&key, "two", ClaimKind::Adopt, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        claimed.checkpoint.as_ref(),
        Some(&latest),
        "a claim reads the edits too"
    );
}

#[tokio::test]
async fn edits_on_a_head_that_is_not_the_stored_one_are_written_whole() {
    let redis = RedisServer::start();
    let store = store(&redis).await;
    let key = SessionKey::new("ann", "s1");
    let token = created(&store, &key).await;
    let mut chain = HeadChain::default();
    let v1 = checkpoint(&key, 1, vec![turn(1, None)]);
    save_through(&store, &mut chain, &key, &v1, token, 0).await;
    // A write whose reply was lost: stored, but its writer's chain never heard of it.
    let mut lost_reply = checkpoint(&key, 2, vec![turn(1, Some("first try"))]);
    lost_reply.applied_event_ids.push("e2".into());
    store
        .save_session(&key, write(&lost_reply, token, 0))
        .await
        .unwrap();
    let mut v3 = checkpoint(&key, 3, vec![turn(1, Some("first try")), turn(2, None)]);
    v3.applied_event_ids.push("e3".into());
    let update = save_through(&store, &mut chain, &key, &v3, token, 0).await;
    assert!(matches!(
        update,
        HeadUpdate::Edits {
            parent_version: 1,
            ..
        }
    ));
    assert_eq!(store.load_session(&key).await.unwrap().as_ref(), Some(&v3));
    let edits = redis.cli(&["EXISTS", "viva:{u:616e6e}:s:s1:edits"]);
    assert_eq!(edits.trim(), "0", "the whole head replaced the log");
}
