//! Card events graded: a drill checked, "I'm stuck", an exam answer, a memo viewed.

use viva_blueprint::course::{Course, ExamQuestion};
use viva_protocol::ErrorCode;
use viva_protocol::tutor::{Card, PolicyDebug, TimelineMessage, TurnAction};

use super::render::{debug_view, exam_question_of};
use super::reply::{certain, open_drill_unit, policy_for, reply, tier_of};
use super::state::{OpenCard, Turn, Tutor, TutorState};
use crate::base::AnswerInput;
use crate::base::Refusal;
use crate::tutor::cards;
use crate::tutor::drawn::check_drill;
use crate::tutor::mastery::ExamRecord;
use crate::tutor::policy::Action;
use crate::tutor::snapshot::{StudentSnapshot, Tier};

/// Checks the open drill and records it.
pub(super) fn check_open_drill(
    tutor: Tutor<'_>,
    state: &mut TutorState,
    drill_id: Option<&str>,
    answer: &AnswerInput,
    now_ms: u64,
) -> Result<Turn, Refusal> {
    let Some(OpenCard::Drill {
        drill_id: open_id,
        unit,
        question,
        ..
    }) = state.open.clone()
    else {
        return Err(no_open(
            "no drill is open; ask for one with tutor.request_drill",
        ));
    };
    if drill_id.is_some_and(|id| id != open_id) {
        return Err(no_open("that drill is no longer open"));
    }
    if let AnswerInput::Choice(index) = answer {
        require_option(*index, question.options().len(), "drill")?;
    }
    let checked = check_drill(&question, answer, tutor.acs, tutor.verdict);
    state.open = None;
    state
        .snapshot
        .record_drill(&unit, checked.grade.right, now_ms);
    state.tally.drills_checked += 1;
    state.tally.drills_right += u32::from(checked.grade.right);
    let card = Card::DrillResult {
        drill_id: open_id,
        correct: checked.grade.right,
        feedback: checked.feedback.clone(),
        confusion: checked.grade.confusion.clone(),
        streak: state.snapshot.unit(&unit).drill_streak,
    };
    let mut turn = result_turn(
        tutor,
        state,
        &unit,
        TurnAction::DrillResult,
        cards::message(sentence(&checked.feedback), Some(card)),
        outcome(checked.grade.right),
        now_ms,
    );
    let next = next_step_hint(&turn.debug);
    turn.messages[0].text = format!("{} {next}", turn.messages[0].text);
    Ok(turn)
}

pub(super) fn outcome(right: bool) -> Option<&'static str> {
    Some(if right { "right" } else { "wrong" })
}

pub(super) fn no_open(message: &str) -> Refusal {
    Refusal::new(ErrorCode::NoOpenQuestion, message)
}

/// A choice of option `index` on a card with `options` options: refused, with nothing
/// applied, when no such option exists (a free-answer card has none).
fn require_option(index: u32, options: usize, card: &str) -> Result<(), Refusal> {
    if (index as usize) < options {
        return Ok(());
    }
    let message = match options {
        0 => format!("this {card} takes a typed or spoken answer, not an option"),
        _ => format!(
            "option {index} does not exist; this {card} has {options} (0 to {})",
            options - 1
        ),
    };
    Err(Refusal::new(ErrorCode::InvalidAnswer, message))
}

/// Refused while `question_id` is locked for the student: its memo was viewed or it was
/// answered wrong, on this session or another of the same course.
fn require_unlocked(state: &TutorState, question_id: &str, now_ms: u64) -> Result<(), Refusal> {
    let Some(left_ms) = state.snapshot.locked_for_ms(question_id, now_ms) else {
        return Ok(());
    };
    Err(no_open(&format!(
        "this exam question is locked for {}: its memo was viewed or it was answered wrong; \
         continue for another",
        countdown(left_ms)
    )))
}

/// A lock's time left, as people say it (`23 h 59 min`, `5 min`).
pub fn countdown(left_ms: u64) -> String {
    let minutes = left_ms.div_ceil(60_000);
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

/// What the student can do next, after a drill result, from the result's policy.
pub(super) fn next_step_hint(policy: &PolicyDebug) -> &'static str {
    if policy.exam_ready {
        "You are ready for the exam: continue to take it."
    } else if policy.stuck {
        "Say you are stuck for the key ideas, or try another."
    } else {
        "Continue for another drill."
    }
}

pub(super) fn result_turn(
    tutor: Tutor<'_>,
    state: &TutorState,
    unit: &str,
    action: TurnAction,
    message: TimelineMessage,
    outcome: Option<&'static str>,
    now_ms: u64,
) -> Turn {
    let mapped = [certain(unit)];
    let policy = policy_for(tutor, state, &mapped, now_ms);
    Turn {
        action,
        target: unit.to_owned(),
        messages: vec![message],
        debug: debug_view(state, &mapped, &policy, None, now_ms),
        fallback: None,
        outcome,
    }
}

/// "I'm stuck": an open drill counts as a wrong attempt (no confusion tag: nothing was
/// answered); then a concept card if the student is now stuck, else a guiding question.
pub(super) fn stuck(tutor: Tutor<'_>, state: &mut TutorState, now_ms: u64) -> Turn {
    let unit = open_drill_unit(state).unwrap_or_else(|| state.snapshot.focus_unit.clone());
    if let Some(OpenCard::Drill { .. }) = state.open.take() {
        state.snapshot.record_drill(&unit, false, now_ms);
        state.tally.drills_checked += 1;
    }
    let mapped = [certain(&unit)];
    let policy = policy_for(tutor, state, &mapped, now_ms);
    let wanted = if policy.stuck {
        Action::ConceptCard
    } else {
        Action::SocraticQuestion
    };
    reply(tutor, state, &mapped, Some(wanted), now_ms)
}

/// Grades the open exam question and records it: a pass of the next tier with a streak of
/// 2 earns the tier; a wrong answer locks the question and puts the unit on the revisit
/// list.
pub(super) fn submit_exam(
    tutor: Tutor<'_>,
    state: &mut TutorState,
    question_id: &str,
    index: u32,
    now_ms: u64,
) -> Result<Turn, Refusal> {
    let open = matches!(&state.open, Some(OpenCard::Exam { question_id: id }) if id == question_id);
    let question = exam_question_of(tutor.course, question_id).filter(|_| open);
    let Some(question) = question else {
        return Err(no_open("that exam question is not open"));
    };
    require_unlocked(state, question_id, now_ms)?;
    require_option(index, question.options.len(), "exam question")?;
    let tier = tier_of(question.tier).unwrap_or(Tier::Bronze);
    let passed = index as usize == question.answer_index;
    let lockout = (now_ms, tutor.settings.lockout_ms);
    let unit = question.unit.clone();
    let record = state
        .snapshot
        .record_exam(&unit, question_id, tier, passed, lockout);
    state.open = None;
    state.tally.exams_taken += 1;
    let earned = match record {
        ExamRecord::Promoted(tier) => {
            state.tally.exams_passed += 1;
            state.tally.tiers_earned.push((unit.clone(), tier));
            Some(tier)
        }
        ExamRecord::NoChange | ExamRecord::Failed => None,
    };
    state.last_passed = passed.then(|| question_id.to_owned());
    state.last_answered = Some(question_id.to_owned());
    let locked_seconds = state
        .snapshot
        .locked_for_ms(question_id, now_ms)
        .map(|ms| ms.div_ceil(1000));
    let text = exam_result_text(tutor.course, question, passed, earned);
    let card = Card::ExamResult {
        question_id: question_id.to_owned(),
        correct: passed,
        memo: question.memo.clone(),
        locked_seconds,
        tier_earned: earned.map(|t| t.as_str().to_owned()),
    };
    if earned.is_some() {
        move_focus_on(tutor.course, &mut state.snapshot);
    }
    Ok(result_turn(
        tutor,
        state,
        &unit,
        TurnAction::ExamResult,
        cards::message(text, Some(card)),
        outcome(passed),
        now_ms,
    ))
}

pub(super) fn exam_result_text(
    course: &Course,
    question: &ExamQuestion,
    passed: bool,
    earned: Option<Tier>,
) -> String {
    let title = cards::title_of(course, &question.unit);
    match (passed, earned) {
        (true, Some(tier)) => format!(
            "Right: {title} is now at {}. Continue when ready.",
            tier.as_str()
        ),
        (true, None) => "Right. Continue when ready.".to_owned(),
        (false, _) => format!(
            "Not this time. The memo explains it; this question is locked for now, and {title} \
             goes on your revisit list."
        ),
    }
}

/// After a tier is earned, the focus moves to the first unit, in course order, that is at
/// tier none and not blocked (it stays if every unit is started).
pub fn move_focus_on(course: &Course, snapshot: &mut StudentSnapshot) {
    let next = course.doc.units.iter().find(|unit| {
        snapshot.tier(&unit.unit_id) == Tier::None
            && crate::tutor::graph::first_blocker(&course.graph, &unit.unit_id, snapshot).is_none()
    });
    if let Some(unit) = next {
        snapshot.focus_unit = unit.unit_id.clone();
    }
}

/// The memo of a question was opened: only the question on the open exam card, or the one
/// whose result was just shown. Before answering, it locks the question and puts its unit on
/// the revisit list (PV-AI-016), and the card closes; after a wrong answer the question is
/// locked already; after a right one it locks nothing.
pub(super) fn memo_viewed(
    tutor: Tutor<'_>,
    state: &mut TutorState,
    question_id: &str,
    now_ms: u64,
) -> Result<Turn, Refusal> {
    let on_card =
        matches!(&state.open, Some(OpenCard::Exam { question_id: id }) if id == question_id);
    let answered = state.last_answered.as_deref() == Some(question_id);
    let question = exam_question_of(tutor.course, question_id).filter(|_| on_card || answered);
    let Some(question) = question else {
        return Err(no_open(
            "no exam card of that question is open: a memo can be viewed only for the question \
             on the open card or the one just answered",
        ));
    };
    if state.last_passed.as_deref() != Some(question_id) {
        let lockout = (now_ms, tutor.settings.lockout_ms);
        state
            .snapshot
            .miss_exam(&question.unit, question_id, lockout);
    }
    if on_card {
        state.open = None;
        state.last_answered = Some(question_id.to_owned());
    }
    let locked_seconds = state
        .snapshot
        .locked_for_ms(question_id, now_ms)
        .map(|ms| ms.div_ceil(1000));
    let card = Card::ExamResult {
        question_id: question_id.to_owned(),
        correct: false,
        memo: question.memo.clone(),
        locked_seconds,
        tier_earned: None,
    };
    let text = match locked_seconds {
        Some(_) => "Here is the memo. Having read it, this question is locked for now.".to_owned(),
        None => "Here is the memo.".to_owned(),
    };
    let unit = question.unit.clone();
    Ok(result_turn(
        tutor,
        state,
        &unit,
        TurnAction::ExamResult,
        cards::message(text, Some(card)),
        None,
        now_ms,
    ))
}

/// `text` ending as a sentence does, so another can follow it.
fn sentence(text: &str) -> String {
    let text = text.trim_end();
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}
