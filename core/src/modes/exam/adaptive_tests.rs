//! An adaptive exam through the session seam: the plan it announces, the level of each
//! question, the result, its checkpoint and the question phrased ahead.

use viva_protocol::ServerEvent;
use viva_protocol::difficulty::Level;
use viva_protocol::result::SessionResult;

use crate::base::AnswerInput;
use crate::checkpoint::format::SessionCheckpoint;
use crate::exam::types::{QuestionDifficulty, Score};
use crate::modes::restore;
use crate::modes::test_sessions::{START_MS, World};
use crate::session::mode::Work;
use crate::session::snapshot::checkpoint_of;
use crate::session::state::SessionState;

use Score::{Satisfactory as S, Unsatisfactory as U};

/// The events queued since the last call, taken.
fn taken(state: &mut SessionState) -> Vec<ServerEvent> {
    let outbox = std::mem::take(&mut state.life_mut().outbox);
    outbox.into_iter().map(|message| message.event).collect()
}

/// Each question asked in `events`: its number, kind and level.
fn questions(events: &[ServerEvent]) -> Vec<(u32, String, Option<Level>)> {
    let asked = events.iter().filter_map(|event| match event {
        ServerEvent::Question(q) => Some((q.number, q.kind.clone()?, q.difficulty)),
        _ => None,
    });
    asked.collect()
}

/// Asks the first question if none is open, then answers each question with the next of
/// `scores` (the examiner's verdict), until they run out or the exam ends; every event.
fn play(world: &World, state: &mut SessionState, scores: &[Score]) -> Vec<ServerEvent> {
    world.run(state, S, START_MS);
    let mut events = taken(state);
    for (index, score) in scores.iter().enumerate() {
        if state.result().is_some() {
            break;
        }
        let answer = AnswerInput::Text(format!("Answer {index}."));
        state
            .commit_answer(answer, None, world.ctx(), START_MS)
            .expect("the open question takes an answer");
        world.run(state, *score, START_MS);
        events.extend(taken(state));
    }
    events
}

#[test]
fn an_adaptive_exam_announces_its_start_and_asks_each_question_at_the_level_in_force() {
    let world = World::new();
    let mut state = world.adaptive_exam();
    let started = taken(&mut state);
    let Some(ServerEvent::SessionStarted(started)) = started.first() else {
        panic!("the exam is announced first: {started:?}");
    };
    let plan = started.plan.adaptive_difficulty.as_ref().expect("adaptive");
    assert_eq!(
        (plan.start, plan.window, plan.min_elements_between_changes),
        (Level::Medium, 4, 3)
    );
    // Five planned questions over PA.I.A, every answer satisfactory: hard from the fourth.
    let events = play(&world, &mut state, &[S; 5]);
    let levels: Vec<_> = questions(&events)
        .into_iter()
        .map(|(number, _, level)| (number, level))
        .collect();
    let (m, h) = (Some(Level::Medium), Some(Level::Hard));
    assert_eq!(levels, [(1, m), (2, m), (3, m), (4, h), (5, h)]);
    let Some(SessionResult::Exam(result)) = state.result() else {
        panic!("the exam is graded");
    };
    let report = result.adaptive_difficulty.expect("an adaptive result");
    assert_eq!((report.start, report.end), (Level::Medium, Level::Hard));
    let spans: Vec<_> = report
        .levels
        .iter()
        .map(|span| (span.level, span.from_question))
        .collect();
    assert_eq!(spans, [(Level::Medium, 1), (Level::Hard, 4)]);
}

#[test]
fn failures_lower_the_level_and_the_bonus_question_is_asked_at_it() {
    let world = World::new();
    let mut state = world.adaptive_exam();
    let events = play(&world, &mut state, &[U, U, U]);
    let asked = questions(&events);
    let kinds: Vec<(&str, Option<Level>)> = asked
        .iter()
        .map(|(_, kind, level)| (kind.as_str(), *level))
        .collect();
    let (e, m) = (Some(Level::Easy), Some(Level::Medium));
    // Each unsatisfactory answer earns a bonus question (two at most).
    assert_eq!(
        kinds,
        [("primary", m), ("bonus", m), ("bonus", m), ("primary", e)]
    );
}

#[test]
fn a_fixed_difficulty_exam_reports_no_level_anywhere() {
    let world = World::new();
    let mut state = world.exam();
    let started = taken(&mut state);
    let Some(ServerEvent::SessionStarted(started)) = started.first() else {
        panic!("the exam is announced first");
    };
    assert_eq!(started.plan.adaptive_difficulty, None);
    let events = play(&world, &mut state, &[S; 5]);
    assert!(
        questions(&events)
            .iter()
            .all(|(_, _, level)| level.is_none())
    );
    let Some(SessionResult::Exam(result)) = state.result() else {
        panic!("the exam is graded");
    };
    assert_eq!(result.adaptive_difficulty, None);
}

/// The state written and read back, as a restart or another node reads it.
fn restored(state: &SessionState) -> SessionState {
    let bytes = serde_json::to_vec(&checkpoint_of(state)).expect("encodes");
    let read: SessionCheckpoint = serde_json::from_slice(&bytes).expect("decodes");
    restore(read).expect("restores")
}

#[test]
fn the_level_and_the_scores_that_may_move_it_survive_a_restore() {
    let world = World::new();
    let mut state = world.adaptive_exam();
    play(&world, &mut state, &[S, S]);
    let mut state = restored(&state);
    // The third satisfactory element still raises the level: the first two were kept.
    let events = play(&world, &mut state, &[S]);
    let levels: Vec<_> = questions(&events).into_iter().map(|q| q.2).collect();
    assert_eq!(levels, [Some(Level::Hard)]);
    // A question open at a restore is asked again at the level it was asked at.
    let mut state = restored(&state);
    state.resume(world.ctx(), START_MS).expect("resumes");
    let again = questions(&taken(&mut state));
    assert_eq!(again, [(4, "primary".to_owned(), Some(Level::Hard))]);
}

#[test]
fn checkpoints_without_the_adaptive_section_still_read() {
    let world = World::new();
    for (what, state) in [("fixed", world.exam()), ("adaptive", world.adaptive_exam())] {
        let mut json = serde_json::to_value(checkpoint_of(&state)).unwrap();
        let exam = json["exam"].as_object_mut().expect("an exam section");
        assert_eq!(exam.contains_key("adaptive"), what == "adaptive", "{what}");
        exam.remove("adaptive");
        let read: SessionCheckpoint = serde_json::from_value(json).expect(what);
        let restored = restore(read).expect(what);
        assert_eq!(
            checkpoint_of(&restored),
            checkpoint_of(&state),
            "{what}: a new adaptive exam stored without its level starts at the same level"
        );
    }
}

#[test]
fn the_question_phrased_ahead_is_at_the_level_a_satisfactory_answer_brings() {
    let world = World::new();
    let mut state = world.adaptive_exam();
    play(&world, &mut state, &[S, S]);
    let likely = state.question_ahead().expect("a question is open");
    assert_eq!(likely.request.difficulty, QuestionDifficulty::Hard);
    state
        .commit_answer(
            AnswerInput::Text("An answer.".into()),
            None,
            world.ctx(),
            START_MS,
        )
        .unwrap();
    let Work::Assess(_) = state.work() else {
        panic!("the answer is assessed first");
    };
    state
        .take_reply(
            crate::modes::test_sessions::verdict(S),
            world.ctx(),
            START_MS,
        )
        .unwrap();
    let Work::Phrase(asked) = state.work() else {
        panic!("the next question is phrased");
    };
    assert!(
        likely.request.phrased_alike(&asked.request),
        "{likely:?} vs {asked:?}"
    );
}
