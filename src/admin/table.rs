//! The plan audit as text: one aligned table of plans, or one plan with its elements.

use std::time::{Duration, UNIX_EPOCH};

use viva_core::audit::{AreaCoverage, ElementLine, PlanDetail, PlanRow};

use super::listing::Listing;

const PLAN_HEADERS: [&str; 14] = [
    "SESSION",
    "USER",
    "PLAN",
    "SCOPE",
    "PHASE",
    "OUTCOME",
    "PLANNED",
    "ASKED",
    "FOLLOW-UPS",
    "BONUS",
    "CREDITED",
    "EXAMINED",
    "AREAS (covered/in scope)",
    "UPDATED",
];

const ELEMENT_HEADERS: [&str; 8] = [
    "#",
    "ELEMENT",
    "AREA",
    "STATE",
    "ASKED AS",
    "QUESTIONS",
    "FOLLOW-UPS",
    "SCORE",
];

/// The listing: a table of plans, then what was read.
pub fn plans(listing: &Listing) -> String {
    let rows: Vec<Vec<String>> = listing.plans.iter().map(plan_cells).collect();
    let mut text = grid(&PLAN_HEADERS, &rows);
    text.push_str(&format!(
        "{} plans shown (sessions read: {}, assessments left out: {}, unreadable: {})\n",
        listing.plans.len(),
        listing.sessions_read,
        listing.assessments_left_out,
        listing.unreadable
    ));
    text
}

/// One plan: its summary, then every element in plan order.
pub fn detail(detail: &PlanDetail) -> String {
    let mut text = summary(detail);
    let elements: Vec<Vec<String>> = detail.elements.iter().map(element_cells).collect();
    text.push_str(&grid(&ELEMENT_HEADERS, &elements));
    text
}

/// The lines above a plan's elements.
fn summary(detail: &PlanDetail) -> String {
    let row = &detail.row;
    let outcome = row
        .outcome
        .as_ref()
        .map_or(String::new(), |o| format!(" ({o})"));
    let lines = [
        format!("session   {}", row.session_id),
        format!("user      {}", row.user),
        format!("plan      {} {}, {}", row.rating, row.study_mode, row.scope),
        format!("phase     {}{outcome}", row.phase),
        format!(
            "counts    planned {}, asked {} ({} questions, {} follow-ups), bonus {}/{}, \
             credited {}, examined {}/{}",
            row.planned,
            row.asked,
            row.questions,
            row.follow_ups,
            row.bonus_used,
            row.bonus_max,
            row.credited_by_mention,
            row.examined,
            row.planned
        ),
        format!(
            "open      {}; next step: {}",
            detail.open_question.as_deref().unwrap_or("-"),
            detail.next_step.as_deref().unwrap_or("-")
        ),
        format!("areas     {}", areas(&row.areas)),
        format!("started   {}", time(row.started_at_ms)),
        format!("updated   {}", time(row.updated_at_ms)),
    ];
    format!("{}\n\n", lines.join("\n"))
}

fn element_cells(element: &ElementLine) -> Vec<String> {
    let or_dash = |value: &Option<String>| value.clone().unwrap_or_else(|| "-".into());
    vec![
        element.position.to_string(),
        element.code.clone(),
        element.area.clone(),
        element.state.clone(),
        or_dash(&element.asked_as),
        element.questions.to_string(),
        element.follow_ups.to_string(),
        or_dash(&element.score),
    ]
}

fn plan_cells(row: &PlanRow) -> Vec<String> {
    vec![
        row.session_id.clone(),
        row.user.clone(),
        format!("{} {}", row.rating, row.study_mode),
        row.scope.clone(),
        row.phase.clone(),
        row.outcome.clone().unwrap_or_else(|| "-".into()),
        row.planned.to_string(),
        row.asked.to_string(),
        row.follow_ups.to_string(),
        format!("{}/{}", row.bonus_used, row.bonus_max),
        row.credited_by_mention.to_string(),
        format!("{}/{}", row.examined, row.planned),
        areas(&row.areas),
        time(row.updated_at_ms),
    ]
}

/// `I 3/7, III 0/2`: elements asked or credited, of those in scope, by area.
fn areas(areas: &[AreaCoverage]) -> String {
    let each = areas.iter().map(|a| {
        let covered = a.asked + a.credited_by_mention;
        format!("{} {covered}/{}", a.area, a.in_scope)
    });
    each.collect::<Vec<_>>().join(", ")
}

/// RFC 3339 in UTC, to the second.
fn time(ms: u64) -> String {
    let at = UNIX_EPOCH + Duration::from_millis(ms);
    humantime::format_rfc3339_seconds(at).to_string()
}

/// Left-aligned columns two spaces apart, headers first.
fn grid(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut text = line(headers.to_vec());
    for row in rows {
        text.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_under_their_headers() {
        let rows = vec![
            vec!["a".to_owned(), "long cell".to_owned()],
            vec!["bbbb".to_owned(), "x".to_owned()],
        ];
        let text = grid(&["H1", "H2"], &rows);
        assert_eq!(text, "H1    H2\na     long cell\nbbbb  x\n");
    }

    #[test]
    fn areas_count_asked_and_credited_elements() {
        let area = |name: &str, asked, credited, in_scope| AreaCoverage {
            area: name.into(),
            in_scope,
            asked,
            credited_by_mention: credited,
            ..AreaCoverage::default()
        };
        let text = areas(&[area("I", 2, 1, 7), area("III", 0, 0, 2)]);
        assert_eq!(text, "I 3/7, III 0/2");
        assert_eq!(time(1_700_000_000_000), "2023-11-14T22:13:20Z");
    }
}
