//! A tutor session through the real supervisor and session actors, over the in-memory store,
//! with the wall clock moved by hand: a lockout that runs out.
#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use viva_actors::directory::Directory;
use viva_actors::link::{DeviceLink, Outbound};
use viva_actors::metrics::SessionMetrics;
use viva_actors::new_sessions::NewSessionGate;
use viva_actors::session::{Command, CommandOutcome, SessionCommand, SessionDeps};
use viva_actors::supervisor::{Attached, SessionLimits, StartSession, SupervisorDeps};
use viva_core::checkpoint::{CheckpointStore, LocalBus, MemoryStore, ModeCheckpoint, SessionKey};
use viva_core::clock::ManualClock;
use viva_core::exam::plan::PlanDefaults;
use viva_core::examiner::EmbeddedExaminer;
use viva_core::services::ModeServices;
use viva_core::tutor::exams::LOCKOUT_MS;
use viva_core::tutor::library::TutorSettings;
use viva_protocol::config::SessionConfig;
use viva_protocol::tutor::{Card, DrillCheck, ExamSubmit, MemoViewed, RequestDrill, TutorTurn};
use viva_protocol::{ClientEvent, ServerEvent};

struct World {
    directory: Directory,
    clock: Arc<ManualClock>,
    store: Arc<MemoryStore>,
    tutor: Arc<viva_core::tutor::library::TutorLibrary>,
}

impl World {
    /// A wrong option of exam question `question_id`.
    fn wrong_option(&self, question_id: &str) -> u32 {
        let (course, _) = self.tutor.course("ARITHMETIC").unwrap();
        let question = course
            .doc
            .exam_questions
            .iter()
            .find(|q| q.question_id == question_id)
            .unwrap();
        ((question.answer_index + 1) % question.options.len()) as u32
    }
}

fn world() -> World {
    let courses = viva_testkit::courses::load(TutorSettings::default());
    let store = Arc::new(MemoryStore::new());
    let clock = Arc::new(ManualClock::at(1_700_000_000_000));
    let session = Arc::new(SessionDeps {
        store: store.clone(),
        examiner: Arc::new(EmbeddedExaminer::new(courses.acs.clone())),
        modes: Arc::new(ModeServices {
            acs: courses.acs.clone(),
            blueprints: courses.skills.clone(),
            tutor: courses.tutor.clone(),
            tutor_model: None,
            plan_defaults: PlanDefaults::default(),
        }),
        clock: clock.clone(),
        abandon_after: Duration::from_secs(7 * 24 * 3600),
        node_id: "node-test".into(),
        lease: Duration::from_secs(10),
        speech: None,
        judge: None,
        turns: viva_core::voice::TurnSettings::default(),
        metrics: Arc::new(SessionMetrics::default()),
        sides: store.clone(),
        phrase_ahead: true,
        voice: None,
    });
    let deps = SupervisorDeps {
        session,
        limits: SessionLimits::default(),
        bus: Arc::new(LocalBus),
        new_sessions: NewSessionGate::new(store.clone(), true),
        hibernation: Default::default(),
    };
    World {
        directory: Directory::new(Arc::new(deps)),
        clock,
        store,
        tutor: courses.tutor,
    }
}

/// A tutor session of `user`, and its events.
struct Student {
    session: kameo::actor::ActorRef<viva_actors::session::LiveSession>,
    session_id: String,
    events: Outbound,
    sent: u64,
}

impl Student {
    async fn start(world: &World, user: &str) -> Student {
        let (link, mut events) = DeviceLink::new(1, "laptop".into(), CancellationToken::new());
        let config = serde_json::from_value(json!({"course_id": "ARITHMETIC"})).unwrap();
        let start = StartSession {
            link,
            event_id: Some("start".into()),
            config: SessionConfig::Tutor(config),
        };
        let reply = world.directory.supervisor(user).ask(start).await.unwrap();
        let Attached::Session {
            session,
            session_id,
        } = reply
        else {
            panic!("refused: {reply:?}");
        };
        next_turn(&mut events).await;
        Student {
            session,
            session_id,
            events,
            sent: 0,
        }
    }

    async fn send(&mut self, event: ClientEvent) -> TutorTurn {
        self.sent += 1;
        let command = Command {
            connection_id: 1,
            event_id: Some(format!("e{}", self.sent)),
            command: SessionCommand::Event(event),
        };
        let outcome = self.session.ask(command).await.unwrap();
        assert_eq!(outcome, CommandOutcome::Applied);
        next_turn(&mut self.events).await
    }

    /// Requests a drill and answers it with its key (read from the stored checkpoint).
    async fn right_drill(&mut self, world: &World) {
        let request = RequestDrill { unit_id: None };
        self.send(ClientEvent::TutorRequestDrill(request)).await;
        let key = SessionKey::new("ada", &self.session_id);
        let checkpoint = world.store.load_session(&key).await.unwrap().unwrap();
        let ModeCheckpoint::Tutor(tutor) = checkpoint.state else {
            panic!("a tutor checkpoint");
        };
        let open = serde_json::to_value(&tutor.open).unwrap();
        let index = open["item"]["answer_index"].as_u64().unwrap() as u32;
        let answer = ClientEvent::TutorDrillCheck(DrillCheck {
            drill_id: open["drill_id"].as_str().unwrap().to_owned(),
            text: None,
            index: Some(index),
        });
        let result = self.send(answer).await;
        assert!(matches!(
            first_card(&result),
            Card::DrillResult { correct: true, .. }
        ));
    }
}

async fn next_turn(events: &mut Outbound) -> TutorTurn {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), events.recv())
            .await
            .unwrap()
            .unwrap();
        if let ServerEvent::TutorTurn(turn) = message.event {
            return *turn;
        }
    }
}

fn first_card(turn: &TutorTurn) -> &Card {
    turn.messages[0].card.as_ref().unwrap()
}

/// An exam card's question and the unit's locked questions of its tier.
fn exam_of(turn: &TutorTurn) -> (String, Vec<(String, u64)>) {
    let Card::Exam {
        question_id,
        locked,
        ..
    } = first_card(turn)
    else {
        panic!("not an exam: {turn:?}");
    };
    let locked = locked
        .iter()
        .map(|l| (l.question_id.clone(), l.seconds_left))
        .collect();
    (question_id.clone(), locked)
}

#[tokio::test(start_paused = true)]
async fn a_wrong_exam_answer_locks_its_question_until_the_lockout_runs_out() {
    let world = world();
    let mut ada = Student::start(&world, "ada").await;
    ada.right_drill(&world).await;
    ada.right_drill(&world).await;
    let exam = ada.send(ClientEvent::TutorDrillContinue).await;
    let (locked_question, locked) = exam_of(&exam);
    assert!(locked.is_empty());
    let wrong = ClientEvent::TutorExamSubmit(ExamSubmit {
        question_id: locked_question.clone(),
        index: world.wrong_option(&locked_question),
    });
    let result = ada.send(wrong).await;
    let Card::ExamResult { locked_seconds, .. } = first_card(&result) else {
        panic!("{result:?}");
    };
    assert_eq!(*locked_seconds, Some(LOCKOUT_MS / 1000));
    world.clock.advance_ms(LOCKOUT_MS - 1_000);
    ada.right_drill(&world).await;
    ada.right_drill(&world).await;
    let later = ada.send(ClientEvent::TutorDrillContinue).await;
    let (offered, locked) = exam_of(&later);
    assert_ne!(offered, locked_question, "a locked question is not offered");
    assert_eq!(
        locked,
        vec![(locked_question.clone(), 1)],
        "one second left"
    );
    assert_eq!(later.snapshot.locks.len(), 1);
    let memo = ClientEvent::TutorMemoViewed(MemoViewed {
        question_id: offered.clone(),
    });
    ada.send(memo).await;
    world.clock.advance_ms(1_000);
    let after = ada.send(ClientEvent::TutorDrillContinue).await;
    let locks: Vec<&str> = after
        .snapshot
        .locks
        .iter()
        .map(|l| l.question_id.as_str())
        .collect();
    assert_eq!(
        locks,
        [offered.as_str()],
        "the first lock ran out; the memo's runs on"
    );
}
