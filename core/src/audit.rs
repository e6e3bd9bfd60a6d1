//! The plan audit (`viva plan audit`): what an exam's plan set out to do and what it has done,
//! computed from the exam's checkpoint alone — no catalog, no store, no clock.
//!
//! Counts mean what the plan means by them: `asked` counts elements asked (follow-ups not
//! included), `questions` every question, `examined` the elements answered plus those
//! credited by mention (what grading compares with `planned`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::checkpoint::format::{ExamCheckpoint, SessionCheckpoint};
use crate::exam::acs::roman_value;

/// One exam plan as the audit table shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanRow {
    /// The session.
    pub session_id: String,
    /// The owner: a short stable hash of the user id (`u-` and 8 hex digits), or the id.
    pub user: String,
    /// `private` or `commercial`.
    pub rating: String,
    /// `linear`, `cross_acs` or `weak_areas`.
    pub study_mode: String,
    /// `all`, or the area and task filters of the start.
    pub scope: String,
    /// The stored phase: `awaiting_answer`, `paused`, `completed`, `abandoned`, …
    pub phase: String,
    /// `satisfactory`, `unsatisfactory` or `incomplete`, once graded.
    pub outcome: Option<String>,
    /// Questions planned (bonus questions come on top).
    pub planned: u32,
    /// Elements asked (follow-ups not counted).
    pub asked: u32,
    /// Every question asked, follow-ups included.
    pub questions: u32,
    /// Follow-up questions asked.
    pub follow_ups: u32,
    /// Bonus questions granted.
    pub bonus_used: u32,
    /// The bonus budget.
    pub bonus_max: u32,
    /// Elements credited by mention.
    pub credited_by_mention: u32,
    /// Elements answered or credited by mention.
    pub examined: u32,
    /// Elements in scope (the plan's queue).
    pub in_scope: u32,
    /// Elements in scope not reached yet.
    pub pending: u32,
    /// Elements left out when the exam ended.
    pub skipped: u32,
    /// Coverage by area of operation, in area order.
    pub areas: Vec<AreaCoverage>,
    /// When the exam started, ms since the epoch.
    pub started_at_ms: u64,
    /// Its last checkpoint, ms since the epoch.
    pub updated_at_ms: u64,
}

/// The elements of one area of operation, by where they stand.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AreaCoverage {
    /// The area's Roman numeral.
    pub area: String,
    /// Elements of the area in scope.
    pub in_scope: u32,
    /// Asked.
    pub asked: u32,
    /// Credited by mention.
    pub credited_by_mention: u32,
    /// Not reached yet.
    pub pending: u32,
    /// Left out at the end.
    pub skipped: u32,
}

/// One element of a plan, in plan order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ElementLine {
    /// 1-based position in the plan's queue.
    pub position: u32,
    /// The element code.
    pub code: String,
    /// Its area of operation.
    pub area: String,
    /// `pending`, `asked`, `credited_by_mention` or `skipped`.
    pub state: String,
    /// `primary` or `bonus`: how it was first asked (when the transcript is at hand).
    pub asked_as: Option<String>,
    /// Questions asked on it, follow-ups included.
    pub questions: u32,
    /// Follow-ups asked on it.
    pub follow_ups: u32,
    /// Its latest score.
    pub score: Option<String>,
}

/// One plan in detail: its row, what comes next, and every element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanDetail {
    /// The summary.
    #[serde(flatten)]
    pub row: PlanRow,
    /// The element of the open question, if one is open.
    pub open_question: Option<String>,
    /// What follows the last assessment, while that is undecided work: `follow_up`,
    /// `primary`, `bonus` or `finish`.
    pub next_step: Option<String>,
    /// Every element in scope, in plan order.
    pub elements: Vec<ElementLine>,
}

/// How the owner is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserShown {
    /// A short stable hash.
    Hashed,
    /// The user id itself.
    Plain,
}

/// The row of an exam checkpoint; `None` for other sessions (assessments) and for an exam
/// checkpoint without its exam part.
pub fn plan_row(checkpoint: &SessionCheckpoint, user: UserShown) -> Option<PlanRow> {
    let exam = exam_of(checkpoint)?;
    let plan = &exam.plan;
    let coverage = |state: &str| plan.coverage.values().filter(|c| *c == state).count() as u32;
    let credited = coverage("credited_by_mention");
    Some(PlanRow {
        session_id: checkpoint.session_id.clone(),
        user: match user {
            UserShown::Hashed => user_hash(&checkpoint.user_id),
            UserShown::Plain => checkpoint.user_id.clone(),
        },
        rating: wire_name(&exam.config.rating),
        study_mode: wire_name(&exam.config.study_mode),
        scope: scope(exam),
        phase: wire_name(&checkpoint.phase),
        outcome: exam.result.as_ref().map(|r| wire_name(&r.outcome)),
        planned: plan.planned_question_count,
        asked: plan.asked_count,
        questions: exam.questions_asked,
        follow_ups: plan.follow_ups.values().sum(),
        bonus_used: plan.bonus_used,
        bonus_max: plan.bonus_max,
        credited_by_mention: credited,
        examined: plan.scores.len() as u32 + credited,
        in_scope: exam.planner.queue.len() as u32,
        pending: coverage("pending"),
        skipped: coverage("skipped"),
        areas: areas(exam),
        started_at_ms: checkpoint.created_at_ms,
        updated_at_ms: checkpoint.updated_at_ms,
    })
}

/// The detail of an exam checkpoint; `None` as for [`plan_row`].
pub fn plan_detail(checkpoint: &SessionCheckpoint, user: UserShown) -> Option<PlanDetail> {
    let row = plan_row(checkpoint, user)?;
    let exam = exam_of(checkpoint)?;
    let elements = exam
        .planner
        .queue
        .iter()
        .enumerate()
        .map(|(index, code)| element_line(checkpoint, exam, index, code))
        .collect();
    Some(PlanDetail {
        row,
        open_question: exam.open_question.as_ref().map(|q| q.element_code.clone()),
        next_step: exam.next_step.as_ref().map(|step| step.step.clone()),
        elements,
    })
}

/// Sorts rows newest first (by last checkpoint, then session id) and keeps `limit`.
pub fn newest_first(rows: &mut Vec<PlanRow>, limit: usize) {
    rows.sort_by(|a, b| {
        b.updated_at_ms
            .cmp(&a.updated_at_ms)
            .then_with(|| a.session_id.cmp(&b.session_id))
    });
    rows.truncate(limit);
}

/// `u-` and the top 8 hex digits of the user id's 64-bit FNV-1a hash: stable across builds
/// and machines, short enough for a table, and not the id itself.
pub fn user_hash(user_id: &str) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let hash = user_id.bytes().fold(OFFSET, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    });
    format!("u-{:08x}", hash >> 32)
}

fn exam_of(checkpoint: &SessionCheckpoint) -> Option<&ExamCheckpoint> {
    match &checkpoint.state {
        crate::checkpoint::ModeCheckpoint::Exam(exam) => Some(exam.as_ref()),
        _ => None,
    }
}

/// The snake_case wire name of a serde enum value.
fn wire_name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn scope(exam: &ExamCheckpoint) -> String {
    let config = &exam.config;
    let mut parts = Vec::new();
    if let Some(areas) = config.areas.as_ref().filter(|a| !a.is_empty()) {
        parts.push(format!("areas {}", areas.join(",")));
    }
    if let Some(tasks) = config.tasks.as_ref().filter(|t| !t.is_empty()) {
        parts.push(format!("tasks {}", tasks.join(",")));
    }
    if parts.is_empty() {
        return "all".to_owned();
    }
    parts.join("; ")
}

/// The area of an element code: its second dot-separated part (`PA.I.A.K1` → `I`).
fn area_of(code: &str) -> &str {
    code.split('.').nth(1).unwrap_or("")
}

fn areas(exam: &ExamCheckpoint) -> Vec<AreaCoverage> {
    let mut areas: BTreeMap<(u32, &str), AreaCoverage> = BTreeMap::new();
    for code in &exam.planner.queue {
        let area = area_of(code);
        let key = (roman_value(area).unwrap_or(u32::MAX), area);
        let entry = areas.entry(key).or_insert_with(|| AreaCoverage {
            area: area.to_owned(),
            ..AreaCoverage::default()
        });
        entry.in_scope += 1;
        match exam.plan.coverage.get(code).map(String::as_str) {
            Some("asked") => entry.asked += 1,
            Some("credited_by_mention") => entry.credited_by_mention += 1,
            Some("skipped") => entry.skipped += 1,
            _ => entry.pending += 1,
        }
    }
    areas.into_values().collect()
}

fn element_line(
    checkpoint: &SessionCheckpoint,
    exam: &ExamCheckpoint,
    index: usize,
    code: &str,
) -> ElementLine {
    let plan = &exam.plan;
    let asked_as = checkpoint
        .transcript
        .iter()
        .find(|turn| turn.element_code == code && turn.kind != "follow_up")
        .map(|turn| turn.kind.clone());
    ElementLine {
        position: index as u32 + 1,
        code: code.to_owned(),
        area: area_of(code).to_owned(),
        state: plan
            .coverage
            .get(code)
            .cloned()
            .unwrap_or_else(|| "pending".to_owned()),
        asked_as,
        questions: exam.planner.attempts.get(code).copied().unwrap_or(0),
        follow_ups: plan.follow_ups.get(code).copied().unwrap_or(0),
        score: plan.scores.get(code).cloned(),
    }
}

#[cfg(test)]
#[path = "audit_tests.rs"]
mod tests;
