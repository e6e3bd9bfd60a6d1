//! Tests of the plan audit over hand-built checkpoints.

use std::collections::BTreeMap;

use super::*;
use crate::checkpoint::format::{
    CHECKPOINT_FORMAT, NextStepCheckpoint, OpenQuestionCheckpoint, PhaseName, PlanCheckpoint,
    PlannerCheckpoint, TurnCheckpoint,
};
use crate::checkpoint::sections::{ModeCheckpoint, OneQuestionCheckpoint};

const QUEUE: [&str; 6] = [
    "PA.I.A.K1",
    "PA.I.A.K2",
    "PA.I.A.K3",
    "PA.III.A.K1",
    "PA.III.A.K2",
    "PA.IX.B.R1",
];

/// What happened to each element: (code, coverage, score, questions, follow-ups).
type Fate = (&'static str, &'static str, Option<&'static str>, u32, u32);

fn map<V: Clone>(pairs: &[(&str, V)]) -> BTreeMap<String, V> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

/// An exam over [`QUEUE`] with 4 planned questions, in which `fates` happened.
fn exam(fates: &[Fate], asked: u32, bonus_used: u32, phase: PhaseName) -> SessionCheckpoint {
    let mut coverage: Vec<(&str, String)> = QUEUE.iter().map(|c| (*c, "pending".into())).collect();
    for (code, state, ..) in fates {
        if let Some(entry) = coverage.iter_mut().find(|(c, _)| c == code) {
            entry.1 = (*state).to_owned();
        }
    }
    let scores: Vec<(&str, String)> = fates
        .iter()
        .filter_map(|(code, _, score, ..)| score.map(|s| (*code, s.to_owned())))
        .collect();
    let attempts: Vec<(&str, u32)> = fates.iter().map(|f| (f.0, f.3)).collect();
    let follow_ups: Vec<(&str, u32)> = fates
        .iter()
        .filter(|f| f.4 > 0)
        .map(|f| (f.0, f.4))
        .collect();
    let config = serde_json::json!({"rating": "private", "study_mode": "cross_acs",
        "areas": ["I", "III", "IX"], "tasks": ["PA.I.A"]});
    let exam = ExamCheckpoint {
        config: serde_json::from_value(config).unwrap(),
        seed: 1,
        plan: PlanCheckpoint {
            version: 1,
            planned_question_count: 4,
            asked_count: asked,
            bonus_used,
            bonus_max: 2,
            follow_up_max_per_element: 1,
            bonus_pending: false,
            follow_ups: map(&follow_ups),
            coverage: map(&coverage),
            scores: map(&scores),
        },
        planner: PlannerCheckpoint {
            version: 1,
            queue: QUEUE.map(str::to_owned).to_vec(),
            cursor: 0,
            recent: Vec::new(),
            attempts: map(&attempts),
        },
        next_step: None,
        questions_asked: attempts.iter().map(|(_, n)| n).sum(),
        answered: scores.len() as u32,
        open_question: None,
        result: None,
        come_back: Vec::new(),
        came_back: Vec::new(),
        adaptive: None,
        assessed_at_ms: Default::default(),
        scenarios: None,
    };
    SessionCheckpoint {
        format: CHECKPOINT_FORMAT,
        session_id: "s-1".into(),
        user_id: "alice".into(),
        version: 3,
        created_at_ms: 1_000,
        updated_at_ms: 2_000,
        paused_at_ms: None,
        thinking_pause_ms: None,
        seq: 9,
        phase,
        resume_to: None,
        state: ModeCheckpoint::Exam(Box::new(exam)),
        transcript: Vec::new(),
        applied_event_ids: Vec::new(),
    }
}

/// The counts of a row: planned, asked, questions, follow-ups, bonus used, credited,
/// examined, pending, skipped.
fn counts(row: &PlanRow) -> [u32; 9] {
    [
        row.planned,
        row.asked,
        row.questions,
        row.follow_ups,
        row.bonus_used,
        row.credited_by_mention,
        row.examined,
        row.pending,
        row.skipped,
    ]
}

fn check(checkpoint: SessionCheckpoint, expected: [u32; 9]) {
    let row = plan_row(&checkpoint, UserShown::Hashed).unwrap();
    assert_eq!(counts(&row), expected, "{row:#?}");
    assert_eq!(row.in_scope, QUEUE.len() as u32);
    let by_area: u32 = row.areas.iter().map(|a| a.in_scope).sum();
    assert_eq!(by_area, row.in_scope, "every element is in one area");
}

#[test]
fn counts_follow_the_plan() {
    // Nothing asked yet.
    check(
        exam(&[], 0, 0, PhaseName::Idle),
        [4, 0, 0, 0, 0, 0, 0, 6, 0],
    );
    // One open question, not answered yet: asked, not examined.
    let open = [("PA.I.A.K1", "asked", None, 1, 0)];
    check(
        exam(&open, 1, 0, PhaseName::AwaitingAnswer),
        [4, 1, 1, 0, 0, 0, 0, 5, 0],
    );
    // Partial, then a follow-up; unsatisfactory earned a bonus; one credited by mention.
    let mixed = [
        ("PA.I.A.K1", "asked", Some("satisfactory"), 2, 1),
        ("PA.I.A.K2", "asked", Some("unsatisfactory"), 1, 0),
        ("PA.I.A.K3", "credited_by_mention", None, 0, 0),
        ("PA.III.A.K1", "asked", Some("satisfactory"), 1, 0),
    ];
    check(
        exam(&mixed, 3, 1, PhaseName::Paused),
        [4, 3, 4, 1, 1, 1, 4, 2, 0],
    );
    // Ended early: what was left is skipped.
    let ended = [
        ("PA.I.A.K1", "asked", Some("satisfactory"), 1, 0),
        ("PA.I.A.K2", "skipped", None, 0, 0),
        ("PA.I.A.K3", "skipped", None, 0, 0),
        ("PA.III.A.K1", "skipped", None, 0, 0),
        ("PA.III.A.K2", "skipped", None, 0, 0),
        ("PA.IX.B.R1", "skipped", None, 0, 0),
    ];
    check(
        exam(&ended, 1, 0, PhaseName::Completed),
        [4, 1, 1, 0, 0, 0, 1, 0, 5],
    );
}

#[test]
fn the_row_names_the_plan_and_its_areas_in_area_order() {
    let fates = [
        ("PA.I.A.K1", "asked", Some("satisfactory"), 1, 0),
        ("PA.III.A.K2", "credited_by_mention", None, 0, 0),
    ];
    let row = plan_row(
        &exam(&fates, 1, 0, PhaseName::AwaitingAnswer),
        UserShown::Hashed,
    )
    .unwrap();
    assert_eq!(row.rating, "private");
    assert_eq!(row.study_mode, "cross_acs");
    assert_eq!(row.scope, "areas I,III,IX; tasks PA.I.A");
    assert_eq!((row.started_at_ms, row.updated_at_ms), (1_000, 2_000));
    let areas: Vec<(&str, [u32; 5])> = row
        .areas
        .iter()
        .map(|a| {
            let counts = [
                a.in_scope,
                a.asked,
                a.credited_by_mention,
                a.pending,
                a.skipped,
            ];
            (a.area.as_str(), counts)
        })
        .collect();
    assert_eq!(
        areas,
        [
            ("I", [3, 1, 0, 2, 0]),
            ("III", [2, 0, 1, 1, 0]),
            ("IX", [1, 0, 0, 1, 0])
        ]
    );
}

#[test]
fn users_are_hashed_unless_asked_for_plainly() {
    let checkpoint = exam(&[], 0, 0, PhaseName::Idle);
    let hashed = plan_row(&checkpoint, UserShown::Hashed).unwrap().user;
    assert_eq!(hashed, user_hash("alice"));
    assert!(hashed.starts_with("u-") && hashed.len() == 10, "{hashed}");
    assert_ne!(user_hash("alice"), user_hash("alicf"));
    assert_eq!(user_hash(""), "u-cbf29ce4", "FNV-1a's offset basis: stable");
    let plain = plan_row(&checkpoint, UserShown::Plain).unwrap().user;
    assert_eq!(plain, "alice");
}

#[test]
fn other_modes_are_not_plans() {
    let mut checkpoint = exam(&[], 0, 0, PhaseName::Idle);
    checkpoint.state = ModeCheckpoint::OneQuestion(OneQuestionCheckpoint {
        question: "?".into(),
        asked: false,
        answer: None,
        completed: false,
    });
    assert_eq!(plan_row(&checkpoint, UserShown::Hashed), None);
    assert_eq!(plan_detail(&checkpoint, UserShown::Hashed), None);
}

fn turn(code: &str, kind: &str) -> TurnCheckpoint {
    TurnCheckpoint {
        question_id: format!("q-{code}-{kind}"),
        element_code: code.into(),
        kind: kind.into(),
        question: "?".into(),
        answer: None,
        score: None,
        feedback: None,
        examiner: Vec::new(),
        sources: None,
        scenario: None,
    }
}

#[test]
fn the_detail_lists_every_element_in_plan_order() {
    let fates = [
        ("PA.I.A.K1", "asked", Some("partial"), 2, 1),
        ("PA.I.A.K2", "asked", None, 1, 0),
        ("PA.III.A.K1", "credited_by_mention", None, 0, 0),
    ];
    let mut checkpoint = exam(&fates, 2, 1, PhaseName::AwaitingAnswer);
    checkpoint.transcript = vec![
        turn("PA.I.A.K1", "primary"),
        turn("PA.I.A.K1", "follow_up"),
        turn("PA.I.A.K2", "bonus"),
    ];
    let ModeCheckpoint::Exam(exam_part) = &mut checkpoint.state else {
        panic!("an exam checkpoint");
    };
    exam_part.open_question = Some(OpenQuestionCheckpoint {
        question_id: "q3".into(),
        element_code: "PA.I.A.K2".into(),
        kind: "bonus".into(),
        number: 3,
        text: "?".into(),
        pending_answer: None,
        scenario: None,
        missing_terms: Vec::new(),
    });
    exam_part.next_step = Some(NextStepCheckpoint {
        step: "bonus".into(),
        element_code: None,
        missing_terms: Vec::new(),
    });
    let detail = plan_detail(&checkpoint, UserShown::Hashed).unwrap();
    assert_eq!(detail.open_question.as_deref(), Some("PA.I.A.K2"));
    assert_eq!(detail.next_step.as_deref(), Some("bonus"));
    let codes: Vec<&str> = detail.elements.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, QUEUE);
    let line = |code: &str| detail.elements.iter().find(|e| e.code == code).unwrap();
    let first = line("PA.I.A.K1");
    assert_eq!(
        (
            first.position,
            first.state.as_str(),
            first.questions,
            first.follow_ups
        ),
        (1, "asked", 2, 1)
    );
    assert_eq!(first.asked_as.as_deref(), Some("primary"));
    assert_eq!(first.score.as_deref(), Some("partial"));
    assert_eq!(line("PA.I.A.K2").asked_as.as_deref(), Some("bonus"));
    let credited = line("PA.III.A.K1");
    assert_eq!(
        (credited.state.as_str(), credited.area.as_str()),
        ("credited_by_mention", "III")
    );
    assert_eq!(line("PA.IX.B.R1").state, "pending");
}

#[test]
fn rows_are_kept_newest_first_up_to_the_limit() {
    let row = |id: &str, updated: u64| {
        let mut checkpoint = exam(&[], 0, 0, PhaseName::Idle);
        checkpoint.session_id = id.into();
        checkpoint.updated_at_ms = updated;
        plan_row(&checkpoint, UserShown::Hashed).unwrap()
    };
    let mut rows = vec![row("a", 5), row("b", 9), row("c", 7), row("d", 9)];
    newest_first(&mut rows, 3);
    let ids: Vec<&str> = rows.iter().map(|r| r.session_id.as_str()).collect();
    assert_eq!(ids, ["b", "d", "c"]);
}
