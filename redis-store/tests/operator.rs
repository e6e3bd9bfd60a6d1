//! The operator's side of Redis against a real redis-server: the new-session switch shared by
//! every node, and the session scan behind `viva plan audit` (one server and a cluster).

use std::collections::BTreeMap;

use viva_core::checkpoint::SwitchRecord;
use viva_core::checkpoint::format::{CHECKPOINT_FORMAT, PhaseName, TurnCheckpoint};
use viva_core::checkpoint::{
    CheckpointStore, ClaimKind, HeadUpdate, SessionCheckpoint, SessionKey, SessionWrite,
    StoreError, SwitchStore,
};
use viva_redis_store::scan::{ScanError, ScanRequest, scan_sessions};
use viva_redis_store::{Connection, RedisConfig, RedisStore, Retention};
use viva_testkit::redis::{RedisCluster, RedisServer};

async fn store(config: &RedisConfig) -> RedisStore {
    let conn = Connection::open(config).await.expect("connect");
    RedisStore::new(conn, Retention::default())
}

fn turn(n: usize) -> TurnCheckpoint {
    TurnCheckpoint {
        question_id: format!("q{n}"),
        element_code: "PA.I.A.K1".into(),
        kind: "primary".into(),
        question: format!("question {n}"),
        answer: None,
        score: None,
        feedback: None,
        examiner: Vec::new(),
        sources: None,
        scenario: None,
    }
}

/// Stores a session of `user` with `turns` turns, the way a node does: claim, then write.
async fn put_session(store: &RedisStore, user: &str, session: &str, turns: usize) {
    let key = SessionKey::new(user, session);
    let claim = store
        .claim_session(&key, "node", ClaimKind::Create, 10_000)
        .await
        .expect("claim")
        .expect("a new session");
    let checkpoint = SessionCheckpoint {
        format: CHECKPOINT_FORMAT,
        session_id: session.into(),
        user_id: user.into(),
        version: 1,
        created_at_ms: 1,
        updated_at_ms: 2,
        paused_at_ms: None,
        thinking_pause_ms: None,
        seq: 1,
        phase: PhaseName::Paused,
        resume_to: Some(PhaseName::AwaitingAnswer),
        state: viva_core::checkpoint::ModeCheckpoint::OneQuestion(Default::default()),
        transcript: (1..=turns).map(turn).collect(),
        applied_event_ids: Vec::new(),
    };
    let write = SessionWrite {
        checkpoint: &checkpoint,
        token: claim.token,
        turns_from: 0,
        live: false,
        lease: None,
        head: &HeadUpdate::Whole,
    };
    store.save_session(&key, write).await.expect("save");
}

/// Every session the scan finds: id → (user, turns read).
async fn scan(config: &RedisConfig, request: &ScanRequest) -> BTreeMap<String, (String, usize)> {
    let mut found = BTreeMap::new();
    scan_sessions(config, request, |session| {
        let checkpoint = session.checkpoint.expect("a readable head");
        let entry = (checkpoint.user_id, checkpoint.transcript.len());
        let earlier = found.insert(checkpoint.session_id, entry);
        assert!(earlier.is_none(), "a session found twice: {}", session.key);
    })
    .await
    .expect("scan");
    found
}

#[tokio::test]
async fn the_switch_is_one_key_that_every_node_reads() {
    let redis = RedisServer::start();
    let config = RedisConfig::standalone(&redis.url());
    let (one, two) = (store(&config).await, store(&config).await);
    assert_eq!(two.load_switch().await.unwrap(), None);
    let stopped = SwitchRecord::new(false, 42);
    one.save_switch(Some(&stopped)).await.unwrap();
    assert_eq!(two.load_switch().await.unwrap(), Some(stopped));
    one.save_switch(None).await.unwrap();
    assert_eq!(two.load_switch().await.unwrap(), None);
    redis.cli(&["set", "viva:control:new-sessions", "{not json"]);
    assert!(matches!(
        two.load_switch().await,
        Err(StoreError::Corrupt { .. })
    ));
}

#[tokio::test]
async fn a_scan_reads_every_session_once_across_cursor_steps_and_narrows_to_one() {
    let redis = RedisServer::start();
    let config = RedisConfig::standalone(&redis.url());
    let store = store(&config).await;
    for n in 0..40 {
        put_session(&store, &format!("user-{}", n % 7), &format!("s-{n}"), n % 3).await;
    }
    // Other keys, so that the scan takes several cursor steps of SCAN_BATCH.
    let filler: Vec<String> = (0..1_200)
        .flat_map(|n| [format!("other:{n}"), "x".into()])
        .collect();
    let mut args = vec!["mset"];
    args.extend(filler.iter().map(String::as_str));
    redis.cli(&args);
    let all = scan(&config, &ScanRequest::default()).await;
    assert_eq!(all.len(), 40, "{all:?}");
    assert_eq!(all["s-7"], ("user-0".to_owned(), 0), "heads only, no turns");
    let one = ScanRequest {
        session_id: Some("s-5".into()),
        with_turns: true,
    };
    let found = scan(&config, &one).await;
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        [("s-5".to_owned(), ("user-5".to_owned(), 2))]
    );
    let bad = ScanRequest {
        session_id: Some("s-*".into()),
        with_turns: false,
    };
    let refused = scan_sessions(&config, &bad, |_| {}).await;
    assert!(
        matches!(refused, Err(ScanError::BadSessionId(_))),
        "{refused:?}"
    );
}

#[tokio::test]
async fn a_cluster_scan_reads_the_sessions_of_every_master() {
    let cluster = RedisCluster::start();
    let mut config = RedisConfig::standalone(&cluster.urls()[0]);
    config.urls = cluster.urls();
    config.cluster = true;
    let store = store(&config).await;
    for n in 0..30 {
        put_session(&store, &format!("pilot-{n}"), &format!("c-{n}"), 1).await;
    }
    let all = scan(&config, &ScanRequest::default()).await;
    assert_eq!(all.len(), 30, "{all:?}");
    let holders = cluster
        .nodes()
        .iter()
        .filter(|node| node.cli(&["dbsize"]).trim() != "0")
        .count();
    assert!(holders > 1, "the sessions are spread over the masters");
    let one = ScanRequest {
        session_id: Some("c-17".into()),
        with_turns: true,
    };
    assert_eq!(
        scan(&config, &one).await["c-17"],
        ("pilot-17".to_owned(), 1)
    );
}
