//! The user's review report (`GET /v1/progress`): what their record knows of each element
//! (`crate::review`), grouped by ACS area, with what is due now in the order a `weak_areas`
//! exam asks it. Codes no catalog holds any more are left out.

use std::cmp::Ordering;

use viva_protocol::progress::{AreaProgress, ElementProgress, ProgressReport};

use super::acs::{AcsElement, AcsLibrary, Rating, compare_codes};
use crate::review::{Known, ReviewBook, Standing, standing, urgency};

/// The ratings in the order the report lists them.
const RATINGS: [Rating; 2] = [Rating::Private, Rating::Commercial];

/// One known element with its catalog entry and where it stands.
struct Entry<'a> {
    rating: usize,
    element: &'a AcsElement,
    known: Known,
    standing: Standing,
}

/// The report of `book` at `now_ms`.
pub fn progress_report(acs: &AcsLibrary, book: &ReviewBook, now_ms: u64) -> ProgressReport {
    let mut entries = known_entries(acs, book, now_ms);
    entries.sort_by(|a, b| in_acs_order(a, b));
    let mut due: Vec<&Entry<'_>> = entries.iter().filter(|e| is_due(e)).collect();
    due.sort_by(|a, b| {
        urgency(a.standing)
            .cmp(&urgency(b.standing))
            .then(in_acs_order(a, b))
    });
    let mut areas: Vec<AreaProgress> = Vec::new();
    for entry in &entries {
        let element = entry.element;
        let rating = RATINGS[entry.rating].as_str();
        let same_area = |area: &AreaProgress| area.rating == rating && area.area == element.area;
        if !areas.last().is_some_and(same_area) {
            areas.push(AreaProgress {
                rating: rating.to_owned(),
                area: element.area.clone(),
                title: element.area_title.clone(),
                due: due_in(&due, entry.rating, &element.area),
                elements: Vec::new(),
            });
        }
        if let Some(area) = areas.last_mut() {
            area.elements.push(element_progress(entry));
        }
    }
    ProgressReport {
        now_ms,
        due: due.iter().map(|e| e.element.code.clone()).collect(),
        areas,
    }
}

fn known_entries<'a>(acs: &'a AcsLibrary, book: &ReviewBook, now_ms: u64) -> Vec<Entry<'a>> {
    let mut entries = Vec::with_capacity(book.len());
    for (code, known) in book {
        let found = RATINGS
            .iter()
            .enumerate()
            .find_map(|(index, &rating)| Some((index, acs.catalog(rating).element(code)?)));
        if let Some((rating, element)) = found {
            entries.push(Entry {
                rating,
                element,
                known: *known,
                standing: standing(Some(known), now_ms),
            });
        }
    }
    entries
}

fn in_acs_order(a: &Entry<'_>, b: &Entry<'_>) -> Ordering {
    let codes = || compare_codes(&a.element.code, &b.element.code);
    a.rating.cmp(&b.rating).then_with(codes)
}

fn is_due(entry: &Entry<'_>) -> bool {
    matches!(entry.standing, Standing::Due { .. })
}

/// The due codes of one area, in the report's due order.
fn due_in(due: &[&Entry<'_>], rating: usize, area: &str) -> Vec<String> {
    due.iter()
        .filter(|e| e.rating == rating && e.element.area == area)
        .map(|e| e.element.code.clone())
        .collect()
}

fn element_progress(entry: &Entry<'_>) -> ElementProgress {
    let element = entry.element;
    let due_now = is_due(entry);
    let (last_asked_ms, last_outcome, streak, interval_ms, due_ms) = match entry.known {
        Known::History(h) => (
            Some(h.last_asked_ms),
            h.last_outcome,
            h.streak,
            h.interval_ms,
            Some(h.due_ms),
        ),
        Known::ScoreOnly(recall) => (None, recall, 0, 0, None),
    };
    ElementProgress {
        code: element.code.clone(),
        task_code: element.task_code.clone(),
        last_asked_ms,
        last_outcome: last_outcome.as_str().to_owned(),
        streak,
        interval_ms,
        due_ms,
        due_now,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::queue::tests::{commercial_catalog, private_catalog};
    use crate::review::{DAY_MS, Recall, schedule};

    const NOW: u64 = 1_765_000_000_000;

    fn library() -> AcsLibrary {
        AcsLibrary::new(private_catalog(), commercial_catalog())
    }

    fn asked(recall: Recall, days_ago: u64) -> Known {
        Known::History(schedule(None, recall, NOW - days_ago * DAY_MS))
    }

    #[test]
    fn the_report_groups_by_area_and_lists_what_is_due_most_urgent_first() {
        let book: ReviewBook = [
            ("PA.III.A.K1", asked(Recall::Satisfactory, 3)), // 1-day interval: due
            ("PA.I.A.K2", asked(Recall::Partial, 1)),
            ("PA.I.A.K1", asked(Recall::Satisfactory, 0)), // due tomorrow
            ("CA.I.A.K1", asked(Recall::Unsatisfactory, 1)),
            ("PA.I.B.K1", Known::ScoreOnly(Recall::Unsatisfactory)),
            ("PA.IX.Z.K9", asked(Recall::Unsatisfactory, 1)), // no such element
        ]
        .into_iter()
        .map(|(code, known)| (code.to_owned(), known))
        .collect();
        let report = progress_report(&library(), &book, NOW);
        assert_eq!(report.now_ms, NOW);
        // Misses first (the one asked a day ago before the one with a score alone, which
        // counts as overdue 0), then the partial, then the satisfactory one come due; the
        // one asked today is not due.
        let due = ["CA.I.A.K1", "PA.I.B.K1", "PA.I.A.K2", "PA.III.A.K1"];
        assert_eq!(report.due, due);
        let areas: Vec<(&str, &str)> = report
            .areas
            .iter()
            .map(|a| (a.rating.as_str(), a.area.as_str()))
            .collect();
        let expected = [("private", "I"), ("private", "III"), ("commercial", "I")];
        assert_eq!(areas, expected);
        let area_i = &report.areas[0];
        assert_eq!(area_i.title, "Preflight Preparation");
        assert_eq!(area_i.due, ["PA.I.B.K1", "PA.I.A.K2"]);
        let codes: Vec<&str> = area_i.elements.iter().map(|e| e.code.as_str()).collect();
        assert_eq!(codes, ["PA.I.A.K1", "PA.I.A.K2", "PA.I.B.K1"]);
        let k1 = &area_i.elements[0];
        let expected_k1 = ElementProgress {
            code: "PA.I.A.K1".into(),
            task_code: "PA.I.A".into(),
            last_asked_ms: Some(NOW),
            last_outcome: "satisfactory".into(),
            streak: 1,
            interval_ms: DAY_MS,
            due_ms: Some(NOW + DAY_MS),
            due_now: false,
        };
        assert_eq!(*k1, expected_k1);
        let scored_only = &area_i.elements[2];
        assert_eq!(
            (scored_only.last_asked_ms, scored_only.due_ms),
            (None, None)
        );
        assert!(scored_only.due_now);
    }

    #[test]
    fn the_history_bound_holds_every_oral_element_of_both_catalogs() {
        use crate::exam::queue::is_oral_eligible;
        let catalogs = [private_catalog(), commercial_catalog()];
        let oral: usize = catalogs
            .iter()
            .map(|c| {
                c.elements()
                    .iter()
                    .filter(|e| is_oral_eligible(e, c.rating()))
                    .count()
            })
            .sum();
        assert_eq!(
            oral, 718,
            "the figure crate::review::ELEMENT_HISTORY_MAX names"
        );
        assert!(oral <= crate::review::ELEMENT_HISTORY_MAX);
    }

    #[test]
    fn an_empty_book_reports_nothing_due() {
        let report = progress_report(&library(), &ReviewBook::new(), NOW);
        assert!(report.due.is_empty() && report.areas.is_empty());
    }
}
