//! The brain over the shipped arithmetic course: each of the design document's triggers,
//! input by input.

use viva_protocol::ErrorCode;
use viva_protocol::tutor::{Card, TurnAction};

use super::render::exam_question_of;
use super::*;
use crate::base::AnswerInput;
use crate::tutor::drawn::DrillQuestion;
use crate::tutor::exams::LOCKOUT_MS;
use crate::tutor::library::TutorSettings;
use crate::tutor::policy::Action;
use crate::tutor::policy::CONSTRAINTS;
use crate::tutor::retrieval::UnitIndex;
use crate::tutor::scope::Mapped;
use crate::tutor::snapshot::{StudentSnapshot, Tier};
use crate::tutor::test_courses::Courses;
use crate::tutor::validate::word_count;

const NOW: u64 = 1_700_000_000_000;

struct Fixture {
    courses: Courses,
    index: UnitIndex,
}

impl Fixture {
    fn new() -> Fixture {
        let courses = Courses::load();
        let index = UnitIndex::build(courses.course("ARITHMETIC"));
        Fixture { courses, index }
    }

    fn tutor(&self) -> Tutor<'_> {
        Tutor {
            course: self.courses.course("ARITHMETIC"),
            index: &self.index,
            blueprints: &self.courses.blueprints,
            acs: &self.courses.acs,
            settings: TutorSettings::default(),
            model: None,
            verdict: None,
        }
    }
}

fn cold() -> TutorState {
    TutorState::new(
        StudentSnapshot::cold_start("ada", "ARITHMETIC", "add-1digit"),
        42,
    )
}

fn card(turn: &Turn) -> &Card {
    turn.messages[0].card.as_ref().expect("a card")
}

/// The answer to the open skill drill: right, or a distractor.
fn drill_answer(state: &TutorState, right: bool) -> TutorInput {
    let Some(OpenCard::Drill {
        question: DrillQuestion::Skill(item),
        ..
    }) = &state.open
    else {
        panic!("no skill drill open: {:?}", state.open);
    };
    let index = if right {
        item.answer_index
    } else {
        (item.answer_index + 1) % item.options.len()
    };
    TutorInput::DrillCheck {
        drill_id: None,
        answer: AnswerInput::Choice(index as u32),
    }
}

fn drill(fixture: &Fixture, state: &mut TutorState, right: bool) -> Turn {
    let tutor = fixture.tutor();
    take_turn(tutor, state, TutorInput::RequestDrill(None), NOW).unwrap();
    let answer = drill_answer(state, right);
    take_turn(tutor, state, answer, NOW).unwrap()
}

#[test]
fn a_new_student_is_greeted_with_a_socratic_question_on_the_entry_unit() {
    let fixture = Fixture::new();
    let mut state = cold();
    let turn = take_turn(fixture.tutor(), &mut state, TutorInput::Opening, NOW).unwrap();
    assert_eq!(turn.action, TurnAction::SocraticQuestion);
    assert_eq!(turn.target, "add-1digit");
    assert!(
        matches!(card(&turn), Card::SocraticQuestion { unit_id, .. } if unit_id == "add-1digit")
    );
    assert!(word_count(&turn.messages[0].text) <= CONSTRAINTS.max_words as usize);
    assert_eq!(
        turn.messages[0].text.matches('?').count(),
        1,
        "one question at a time"
    );
}

/// A1: a message about a unit whose prerequisite is untouched gets the prerequisite nudge.
#[test]
fn a_message_about_a_blocked_unit_is_nudged_to_its_prerequisite() {
    let fixture = Fixture::new();
    let mut state = cold();
    let message = TutorInput::Message(
        "how do I add three-digit numbers with carrying into the hundreds".into(),
    );
    let turn = take_turn(fixture.tutor(), &mut state, message, NOW).unwrap();
    assert_eq!(turn.target, "add-3digit");
    assert_eq!(turn.action, TurnAction::PrerequisiteNudge);
    let Card::PrerequisiteNudge {
        prerequisite_id, ..
    } = card(&turn)
    else {
        panic!("{turn:?}");
    };
    assert_eq!(prerequisite_id, "add-2digit");
    assert_eq!(
        state.snapshot.focus_unit, "add-1digit",
        "the focus moves to where the nudge starts: add-2digit needs add-1digit first"
    );
    assert!(
        matches!(card(&turn), Card::PrerequisiteNudge { start_id, .. } if start_id == "add-1digit")
    );
    assert_eq!(turn.debug.blocker.as_deref(), Some("add-2digit"));
}

/// A2: a message off the course keeps the focus and gets a guiding question on it.
#[test]
fn a_message_off_the_course_stays_on_the_focus_unit() {
    let fixture = Fixture::new();
    let mut state = cold();
    let turn = take_turn(
        fixture.tutor(),
        &mut state,
        TutorInput::Message("what's for lunch".into()),
        NOW,
    )
    .unwrap();
    assert_eq!(
        (turn.action, turn.target.as_str()),
        (TurnAction::SocraticQuestion, "add-1digit")
    );
    assert!(turn.debug.mapped.is_empty());
}

/// B1: a requested drill is generated at the tier's difficulty; its key stays here.
#[test]
fn a_requested_drill_opens_a_card_without_its_key() {
    let fixture = Fixture::new();
    let mut state = cold();
    let turn = take_turn(
        fixture.tutor(),
        &mut state,
        TutorInput::RequestDrill(None),
        NOW,
    )
    .unwrap();
    assert_eq!(turn.action, TurnAction::Drill);
    let Card::Drill {
        drill_id,
        tier,
        options,
        source,
        ..
    } = card(&turn)
    else {
        panic!("{turn:?}");
    };
    assert_eq!(
        (drill_id.as_str(), tier.as_str(), source.as_str()),
        ("d1", "bronze", "skill")
    );
    assert!(options.len() >= 2);
    let json = serde_json::to_string(&turn.messages).unwrap();
    assert!(!json.contains("answer_index") && !json.contains("option_mistakes"));
    let unknown = take_turn(
        fixture.tutor(),
        &mut state,
        TutorInput::RequestDrill(Some("nope".into())),
        NOW,
    );
    assert_eq!(unknown.unwrap_err().code, ErrorCode::InvalidField);
}

/// A3/B2: two wrong drills make the student stuck; "I'm stuck" then gets the concept card.
#[test]
fn two_wrong_drills_then_stuck_gets_the_concept_card() {
    let fixture = Fixture::new();
    let mut state = cold();
    let first = drill(&fixture, &mut state, false);
    assert_eq!(first.outcome, Some("wrong"));
    let Card::DrillResult {
        correct,
        confusion,
        streak,
        ..
    } = card(&first)
    else {
        panic!("{first:?}");
    };
    assert!(!correct);
    assert_eq!(*streak, 0);
    let opened = state.tally.drills_checked;
    let _ = confusion;
    let second = drill(&fixture, &mut state, false);
    assert!(second.debug.stuck, "two wrong drills: stuck");
    assert!(second.messages[0].text.contains("stuck"));
    let turn = take_turn(fixture.tutor(), &mut state, TutorInput::Stuck, NOW).unwrap();
    assert_eq!(turn.action, TurnAction::ConceptCard);
    let Card::ConceptCard { key_ideas, .. } = card(&turn) else {
        panic!("{turn:?}");
    };
    assert!(!key_ideas.is_empty() && key_ideas.len() <= 3);
    assert_eq!(state.tally.drills_checked, opened + 1);
}

/// "I'm stuck" on a fresh unit is not a concept card yet: a guiding question.
#[test]
fn stuck_before_two_attempts_gets_a_guiding_question() {
    let fixture = Fixture::new();
    let mut state = cold();
    let turn = take_turn(fixture.tutor(), &mut state, TutorInput::Stuck, NOW).unwrap();
    assert_eq!(turn.action, TurnAction::SocraticQuestion);
}

/// A4/C1: a streak of two makes the exam ready; a pass earns bronze and moves the focus on.
#[test]
fn a_streak_of_two_then_a_bronze_pass_earns_bronze() {
    let fixture = Fixture::new();
    let tutor = fixture.tutor();
    let mut state = cold();
    drill(&fixture, &mut state, true);
    let second = drill(&fixture, &mut state, true);
    assert!(second.debug.exam_ready, "{:?}", second.debug);
    let turn = take_turn(tutor, &mut state, TutorInput::DrillContinue, NOW).unwrap();
    assert_eq!(turn.action, TurnAction::Exam);
    let Card::Exam {
        question_id, tier, ..
    } = card(&turn)
    else {
        panic!("{turn:?}");
    };
    assert_eq!(tier, "bronze");
    let key = tutor
        .course
        .doc
        .exam_questions
        .iter()
        .find(|q| &q.question_id == question_id)
        .unwrap()
        .answer_index;
    let submit = TutorInput::ExamSubmit {
        question_id: question_id.clone(),
        index: key as u32,
    };
    let result = take_turn(tutor, &mut state, submit, NOW).unwrap();
    let Card::ExamResult {
        correct,
        tier_earned,
        locked_seconds,
        ..
    } = card(&result)
    else {
        panic!("{result:?}");
    };
    assert!(*correct);
    assert_eq!(tier_earned.as_deref(), Some("bronze"));
    assert_eq!(*locked_seconds, None);
    assert_eq!(state.snapshot.tier("add-1digit"), Tier::Bronze);
    assert_ne!(
        state.snapshot.focus_unit, "add-1digit",
        "the focus moves to the next unit"
    );
    assert_eq!(
        state.tally.tiers_earned,
        vec![("add-1digit".to_owned(), Tier::Bronze)]
    );
}

/// C2: a wrong exam answer locks the question for the lockout; it is offered again after.
#[test]
fn a_wrong_exam_answer_locks_the_question_until_the_lockout_ends() {
    let fixture = Fixture::new();
    let tutor = fixture.tutor();
    let mut state = cold();
    let (question_id, options, key) = open_exam(&fixture, &mut state);
    let wrong = (key + 1) % options as u32;
    let submit = TutorInput::ExamSubmit {
        question_id: question_id.clone(),
        index: wrong,
    };
    let result = take_turn(tutor, &mut state, submit.clone(), NOW).unwrap();
    let Card::ExamResult { locked_seconds, .. } = card(&result) else {
        panic!("{result:?}");
    };
    assert_eq!(*locked_seconds, Some(LOCKOUT_MS / 1000));
    assert_eq!(state.snapshot.revisit, vec!["add-1digit".to_owned()]);
    assert_eq!(
        state
            .snapshot
            .locked_for_ms(&question_id, NOW + LOCKOUT_MS - 1),
        Some(1)
    );
    let again = take_turn(tutor, &mut state, submit, NOW);
    assert_eq!(
        again.unwrap_err().code,
        ErrorCode::NoOpenQuestion,
        "the card closed"
    );
    drill(&fixture, &mut state, true);
    drill(&fixture, &mut state, true);
    let later = NOW + LOCKOUT_MS;
    let offered: Vec<String> = (0..4)
        .filter_map(|_| {
            let turn = take_turn(tutor, &mut state, TutorInput::DrillContinue, later).ok()?;
            match card(&turn) {
                Card::Exam { question_id, .. } => Some(question_id.clone()),
                _ => None,
            }
        })
        .collect();
    assert!(
        offered.contains(&question_id),
        "unlocked after the lockout: {offered:?}"
    );
    assert!(state.snapshot.locks.is_empty(), "expired locks are dropped");
}

/// Drills a streak of two, then continues to the bronze exam card: its question id, option
/// count and key.
fn open_exam(fixture: &Fixture, state: &mut TutorState) -> (String, usize, u32) {
    let tutor = fixture.tutor();
    drill(fixture, state, true);
    drill(fixture, state, true);
    let turn = take_turn(tutor, state, TutorInput::DrillContinue, NOW).unwrap();
    let Card::Exam {
        question_id,
        options,
        ..
    } = card(&turn).clone()
    else {
        panic!("{turn:?}");
    };
    let question = exam_question_of(tutor.course, &question_id).unwrap();
    (question_id, options.len(), question.answer_index as u32)
}

fn memo(question_id: &str) -> TutorInput {
    TutorInput::MemoViewed {
        question_id: question_id.to_owned(),
    }
}

/// C2, PV-AI-016: viewing the open card's memo before answering locks the question, closes
/// the card and puts the unit on the revisit list.
#[test]
fn viewing_the_open_cards_memo_locks_it_and_puts_the_unit_on_revisit() {
    let fixture = Fixture::new();
    let tutor = fixture.tutor();
    let mut state = cold();
    let (question_id, _, key) = open_exam(&fixture, &mut state);
    let turn = take_turn(tutor, &mut state, memo(&question_id), NOW).unwrap();
    let Card::ExamResult {
        locked_seconds,
        memo: text,
        ..
    } = card(&turn)
    else {
        panic!("{turn:?}");
    };
    assert_eq!(*locked_seconds, Some(LOCKOUT_MS / 1000));
    assert_eq!(
        text,
        &exam_question_of(tutor.course, &question_id).unwrap().memo
    );
    assert_eq!(state.snapshot.revisit, vec!["add-1digit".to_owned()]);
    assert_eq!(state.open, None, "the card closed");
    let submit = TutorInput::ExamSubmit {
        question_id: question_id.clone(),
        index: key,
    };
    let refused = take_turn(tutor, &mut state, submit, NOW).unwrap_err();
    assert_eq!(refused.code, ErrorCode::NoOpenQuestion);
    assert_eq!(state.snapshot.tier("add-1digit"), Tier::None);
}

/// A memo is shown only for the question on the open card or the one just answered; after
/// a right answer it locks nothing.
#[test]
fn a_memo_is_shown_only_for_the_open_card_or_the_question_just_answered() {
    let fixture = Fixture::new();
    let tutor = fixture.tutor();
    let never_offered = tutor
        .course
        .doc
        .exam_questions
        .last()
        .unwrap()
        .question_id
        .clone();
    let mut state = cold();
    for question_id in [never_offered.as_str(), "nope"] {
        let before = state.clone();
        let refused = take_turn(tutor, &mut state, memo(question_id), NOW).unwrap_err();
        assert_eq!(refused.code, ErrorCode::NoOpenQuestion, "{question_id}");
        assert_eq!(state, before, "nothing locked: {question_id}");
    }
    let (question_id, _, key) = open_exam(&fixture, &mut state);
    let submit = TutorInput::ExamSubmit {
        question_id: question_id.clone(),
        index: key,
    };
    take_turn(tutor, &mut state, submit, NOW).unwrap();
    let turn = take_turn(tutor, &mut state, memo(&question_id), NOW).unwrap();
    assert!(matches!(
        card(&turn),
        Card::ExamResult {
            locked_seconds: None,
            ..
        }
    ));
    assert!(state.snapshot.revisit.is_empty());
}

/// Options that do not exist are refused with `invalid_answer`, and nothing is applied: no
/// grade, no lock, no attempt, no reset streak.
#[test]
fn an_option_that_does_not_exist_is_refused_and_changes_nothing() {
    let fixture = Fixture::new();
    let tutor = fixture.tutor();
    let mut state = cold();
    drill(&fixture, &mut state, true);
    take_turn(tutor, &mut state, TutorInput::RequestDrill(None), NOW).unwrap();
    let before = state.clone();
    let check = TutorInput::DrillCheck {
        drill_id: None,
        answer: AnswerInput::Choice(11),
    };
    let refused = take_turn(tutor, &mut state, check, NOW).unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidAnswer);
    assert_eq!(state, before);
    let mut state = cold();
    let (question_id, options, _) = open_exam(&fixture, &mut state);
    let before = state.clone();
    for index in [options as u32, 11, u32::MAX] {
        let submit = TutorInput::ExamSubmit {
            question_id: question_id.clone(),
            index,
        };
        let refused = take_turn(tutor, &mut state, submit, NOW).unwrap_err();
        assert_eq!(refused.code, ErrorCode::InvalidAnswer, "{index}");
        assert_eq!(state, before, "{index}");
    }
}

/// A lock taken elsewhere (another session of the course wrote it into the snapshot) is
/// checked when the answer is applied: the open card's answer is refused, nothing earned.
#[test]
fn an_answer_to_a_question_locked_elsewhere_is_refused() {
    let fixture = Fixture::new();
    let tutor = fixture.tutor();
    let mut state = cold();
    let (question_id, _, key) = open_exam(&fixture, &mut state);
    state.snapshot.lock(&question_id, NOW, LOCKOUT_MS);
    let before = state.clone();
    let submit = TutorInput::ExamSubmit {
        question_id: question_id.clone(),
        index: key,
    };
    let refused = take_turn(tutor, &mut state, submit, NOW + 1).unwrap_err();
    assert_eq!(refused.code, ErrorCode::NoOpenQuestion);
    assert!(
        refused.message.contains("locked for 24 h"),
        "{}",
        refused.message
    );
    assert_eq!(state, before);
}

#[test]
fn a_countdown_reads_in_hours_and_minutes() {
    let cases = [
        (1, "1 min"),
        (60_000, "1 min"),
        (60_001, "2 min"),
        (3_600_000, "1 h"),
        (LOCKOUT_MS - 1, "24 h"),
        (LOCKOUT_MS - 61_000, "23 h 59 min"),
    ];
    for (ms, text) in cases {
        assert_eq!(countdown(ms), text, "{ms}");
    }
}

/// A5: a check with no drill open is refused, and nothing changes.
#[test]
fn a_check_without_an_open_drill_is_refused_and_changes_nothing() {
    let fixture = Fixture::new();
    let mut state = cold();
    let before = state.clone();
    let check = TutorInput::DrillCheck {
        drill_id: Some("d9".into()),
        answer: AnswerInput::Text("12".into()),
    };
    let refused = take_turn(fixture.tutor(), &mut state, check, NOW);
    assert_eq!(refused.unwrap_err().code, ErrorCode::NoOpenQuestion);
    assert_eq!(state, before);
}

/// "Try another" replaces the open drill without counting an attempt.
#[test]
fn try_another_replaces_the_drill_without_an_attempt() {
    let fixture = Fixture::new();
    let tutor = fixture.tutor();
    let mut state = cold();
    take_turn(tutor, &mut state, TutorInput::RequestDrill(None), NOW).unwrap();
    let turn = take_turn(tutor, &mut state, TutorInput::TryAnother, NOW).unwrap();
    assert!(matches!(card(&turn), Card::Drill { drill_id, .. } if drill_id == "d2"));
    assert_eq!(state.snapshot.unit("add-1digit").drill_attempts, 0);
}

/// Every turn's debug view ranks the scoped candidates by priority.
#[test]
fn the_debug_view_ranks_scoped_candidates() {
    let fixture = Fixture::new();
    let mut state = cold();
    let message = TutorInput::Message("multiplying by 10 and 100".into());
    let turn = take_turn(fixture.tutor(), &mut state, message, NOW).unwrap();
    let scores: Vec<f64> = turn.debug.candidates.iter().map(|c| c.score).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)));
    assert_eq!(
        turn.debug.mapped.first().map(|m| m.unit_id.as_str()),
        Some("mul-by10")
    );
}

fn proposal(action: Action, target: &str, text: &str) -> crate::tutor::model::ModelProposal {
    crate::tutor::model::ModelProposal {
        action,
        target: target.into(),
        text: text.into(),
        exam_question: None,
        mapped: Vec::new(),
    }
}

/// A model's proposal within the policy is used: its words, the brain's card.
#[test]
fn a_models_proposal_within_the_policy_speaks_with_the_brains_card() {
    let fixture = Fixture::new();
    let mut state = cold();
    let said = proposal(Action::Drill, "add-1digit", "Here is one to try.");
    let tutor = Tutor {
        model: Some(&said),
        ..fixture.tutor()
    };
    let turn = take_turn(
        tutor,
        &mut state,
        TutorInput::Message("let me practise".into()),
        NOW,
    )
    .unwrap();
    assert_eq!(turn.action, TurnAction::Drill);
    assert_eq!(turn.messages[0].text, "Here is one to try.");
    assert!(
        matches!(card(&turn), Card::Drill { .. }),
        "the card is the brain's"
    );
    assert_eq!(turn.fallback, None);
    assert!(matches!(state.open, Some(OpenCard::Drill { .. })));
}

/// Every rule a model's proposal can break falls back to the brain's own turn, named.
#[test]
fn a_models_proposal_breaking_a_rule_gives_the_brains_turn() {
    let fixture = Fixture::new();
    let mut exam = proposal(Action::Exam, "add-1digit", "Take the exam.");
    exam.exam_question = Some("add-1digit-bronze-1".into());
    let cases = [
        (
            proposal(Action::ConceptCard, "add-1digit", "Ideas."),
            "model_action_not_allowed",
        ),
        (exam, "model_action_not_allowed"),
        (
            proposal(Action::SocraticQuestion, "mul-by10", "Why?"),
            "model_target_not_the_policys",
        ),
        (
            proposal(Action::SocraticQuestion, "add-1digit", "Why? And how?"),
            "model_several_questions",
        ),
        (
            proposal(Action::SocraticQuestion, "add-1digit", &"word ".repeat(171)),
            "model_too_long",
        ),
    ];
    for (said, label) in cases {
        let mut state = cold();
        let tutor = Tutor {
            model: Some(&said),
            ..fixture.tutor()
        };
        let turn = take_turn(tutor, &mut state, TutorInput::Opening, NOW).unwrap();
        assert_eq!(turn.fallback, Some(label), "{said:?}");
        assert_eq!(
            turn.action,
            TurnAction::SocraticQuestion,
            "the brain's own turn"
        );
        assert_ne!(turn.messages[0].text, said.text);
    }
}

/// A model's mapping settles a tie retrieval left open (and moves the turn, whose words the
/// brain then speaks), but cannot pull an off-course message onto a unit.
#[test]
fn a_models_mapping_feeds_the_policy_only_through_the_evidence() {
    let fixture = Fixture::new();
    let ambiguous = "what about numbers with two digits";
    let retrieved = fixture.tutor().index.map(ambiguous, "add-1digit");
    assert_eq!(retrieved[0].confidence, retrieved[1].confidence, "a tie");
    assert!(
        retrieved[0].confidence < TARGET_CONFIDENCE,
        "reported unsure"
    );
    let brains_target = {
        let mut state = cold();
        let message = TutorInput::Message(ambiguous.into());
        take_turn(fixture.tutor(), &mut state, message, NOW)
            .unwrap()
            .target
    };
    assert_eq!(brains_target, "add-1digit", "unsure, so the focus");
    let mut said = proposal(Action::PrerequisiteNudge, &brains_target, "First this.");
    said.mapped = vec![Mapped {
        unit: retrieved[1].unit.clone(),
        confidence: 0.9,
    }];
    let tutor = Tutor {
        model: Some(&said),
        ..fixture.tutor()
    };
    let turn = take_turn(
        tutor,
        &mut cold(),
        TutorInput::Message(ambiguous.into()),
        NOW,
    )
    .unwrap();
    assert_eq!(turn.target, retrieved[1].unit, "the model settled the tie");
    assert_eq!(turn.fallback, Some("model_remapped"));
    assert_ne!(turn.messages[0].text, "First this.");

    let off_course = TutorInput::Message("my cat likes pizza".into());
    said.mapped = vec![Mapped {
        unit: "mul-single".into(),
        confidence: 1.0,
    }];
    let tutor = Tutor {
        model: Some(&said),
        ..fixture.tutor()
    };
    let turn = take_turn(tutor, &mut cold(), off_course, NOW).unwrap();
    assert_eq!(turn.target, "add-1digit", "the focus, as with no model");
}

/// Issue 33's tied messages: a tie the words leave open keeps the student's focus unless a
/// model's mapping settles it; a message naming a unit's title goes there, surely.
#[test]
fn a_tied_message_keeps_the_focus_or_lets_the_model_settle_it() {
    let fixture = Fixture::new();
    let tables = "Can you help me with the times tables, like 7 × 8?";
    let one_digit = "Can you help me with adding one-digit numbers?";
    let cases: [(&str, &str, Option<&str>, &str); 6] = [
        (tables, "add-1digit", None, "add-1digit"),
        (tables, "div-single", None, "div-single"),
        (tables, "add-1digit", Some("mul-single"), "mul-single"),
        (tables, "add-1digit", Some("div-single"), "div-single"),
        (one_digit, "sub-1digit", None, "add-1digit"),
        (one_digit, "sub-1digit", Some("add-3digit"), "add-1digit"),
    ];
    for (message, focus, model, expected) in cases {
        let mut state = cold();
        state.snapshot.focus_unit = focus.into();
        let mut said = proposal(Action::SocraticQuestion, focus, "Which one?");
        said.mapped = model.map_or_else(Vec::new, |unit| {
            vec![Mapped {
                unit: unit.into(),
                confidence: 0.9,
            }]
        });
        let tutor = Tutor {
            model: model.map(|_| &said),
            ..fixture.tutor()
        };
        let input = TutorInput::Message(message.into());
        let turn = take_turn(tutor, &mut state, input, NOW).unwrap();
        assert_eq!(
            turn.target, expected,
            "{message} (focus {focus}, model {model:?})"
        );
    }
}
