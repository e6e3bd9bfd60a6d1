//! Tests of the spaced review rule: the schedule, the order, the merge and the stored form.

use super::*;

const T0: u64 = 1_765_000_000_000;
const HOUR_MS: u64 = 60 * 60 * 1000;

fn entry(outcome: Recall, streak: u32, interval_days: u64, asked: u64) -> ElementHistory {
    let interval_ms = interval_days * DAY_MS;
    ElementHistory {
        last_asked_ms: asked,
        last_outcome: outcome,
        streak,
        interval_ms,
        due_ms: asked + interval_ms,
    }
}

#[test]
fn the_schedule_follows_the_documented_intervals() {
    use Recall::*;
    // (prior streak, prior interval in hours; none: never asked), outcome,
    // expected streak and interval in hours.
    let check = |prior: Option<(u32, u64)>, recall, streak, hours: u64| {
        let prior = prior.map(|(streak, hours)| ElementHistory {
            interval_ms: hours * HOUR_MS,
            ..entry(Satisfactory, streak, 0, T0 - DAY_MS)
        });
        let next = schedule(prior.as_ref(), recall, T0);
        let case = format!("{prior:?} {recall:?}");
        assert_eq!(
            (next.streak, next.interval_ms),
            (streak, hours * HOUR_MS),
            "{case}"
        );
        assert_eq!(next.due_ms, T0 + next.interval_ms, "{case}");
        assert_eq!(
            (next.last_asked_ms, next.last_outcome),
            (T0, recall),
            "{case}"
        );
    };
    check(None, Satisfactory, 1, 24); // first: 1 day
    check(Some((1, 24)), Satisfactory, 2, 144); // second: 6 days (2.5 days is less)
    check(Some((2, 144)), Satisfactory, 3, 360); // then × 2.5: 15 days
    check(Some((3, 360)), Satisfactory, 4, 900); // 37.5 days
    check(Some((4, 900)), Satisfactory, 5, 1440); // capped at 60 days
    check(Some((9, 1440)), Satisfactory, 10, 1440);
    check(Some((0, 72)), Satisfactory, 1, 180); // after a partial: × 2.5 of what is left
    check(None, Partial, 0, 0); // never satisfactory: due at once
    check(Some((1, 24)), Partial, 0, 12); // halved
    check(Some((5, 1440)), Partial, 0, 144); // halved, at most 6 days
    check(Some((5, 1440)), Unsatisfactory, 0, 0); // due at once
    check(None, Unsatisfactory, 0, 0);
}

#[test]
fn standing_and_urgency_order_due_untouched_then_later() {
    use Recall::*;
    let now = T0 + 10 * DAY_MS;
    let known = [
        // (label, what the record knows)
        (
            "sat due long ago",
            Some(Known::History(entry(Satisfactory, 1, 1, T0))),
        ),
        (
            "sat just due",
            Some(Known::History(entry(Satisfactory, 2, 6, now - 6 * DAY_MS))),
        ),
        (
            "sat due in 3 h",
            Some(Known::History(entry(
                Satisfactory,
                1,
                1,
                now - 21 * HOUR_MS,
            ))),
        ),
        (
            "partial, old",
            Some(Known::History(entry(Partial, 0, 0, T0))),
        ),
        (
            "miss, old",
            Some(Known::History(entry(Unsatisfactory, 0, 0, T0))),
        ),
        (
            "miss, yesterday",
            Some(Known::History(entry(Unsatisfactory, 0, 0, now - DAY_MS))),
        ),
        ("miss, score only", Some(Known::ScoreOnly(Unsatisfactory))),
        ("untouched", None),
        ("sat, score only", Some(Known::ScoreOnly(Satisfactory))),
        (
            "sat due in 5 h",
            Some(Known::History(entry(
                Satisfactory,
                1,
                1,
                now - 19 * HOUR_MS,
            ))),
        ),
        (
            "sat due in 20 d",
            Some(Known::History(entry(
                Satisfactory,
                4,
                30,
                now - 10 * DAY_MS,
            ))),
        ),
    ];
    let mut order: Vec<(&str, Standing)> = known
        .iter()
        .map(|(label, known)| (*label, standing(known.as_ref(), now)))
        .collect();
    order.sort_by_key(|(_, standing)| urgency(*standing));
    let labels: Vec<&str> = order.iter().map(|(label, _)| *label).collect();
    let expected = [
        "miss, old",
        "miss, yesterday",
        "miss, score only",
        "partial, old",
        "sat due long ago",
        "sat just due",
        "sat due in 3 h",
        "untouched",
        "sat due in 5 h",
        "sat due in 20 d",
        "sat, score only",
    ];
    assert_eq!(labels, expected);
}

#[test]
fn merging_is_idempotent_and_ignores_older_outcomes() {
    let outcome = |element: &str, recall, at_ms| ElementOutcome {
        element: element.into(),
        recall,
        at_ms,
    };
    let mut history = BTreeMap::new();
    let first = [
        outcome("PA.I.A.K1", Recall::Satisfactory, T0),
        outcome("PA.I.A.K2", Recall::Partial, T0),
    ];
    assert_eq!(merge_outcomes(&mut history, &first), 2);
    let once = history.clone();
    assert_eq!(
        merge_outcomes(&mut history, &first),
        0,
        "the same report again"
    );
    assert_eq!(history, once);
    let second = [outcome("PA.I.A.K1", Recall::Satisfactory, T0 + 2 * DAY_MS)];
    assert_eq!(merge_outcomes(&mut history, &second), 1);
    assert_eq!(history["PA.I.A.K1"].streak, 2);
    assert_eq!(history["PA.I.A.K1"].interval_ms, SECOND_INTERVAL_MS);
    let late = [outcome("PA.I.A.K1", Recall::Unsatisfactory, T0 + DAY_MS)];
    assert_eq!(
        merge_outcomes(&mut history, &late),
        0,
        "older than what is kept"
    );
    assert_eq!(history["PA.I.A.K1"].streak, 2);
}

#[test]
fn the_history_keeps_the_most_recently_asked_within_its_bound() {
    let mut history = BTreeMap::new();
    let outcomes: Vec<ElementOutcome> = (0..ELEMENT_HISTORY_MAX as u64 + 3)
        .map(|n| ElementOutcome {
            element: format!("E{n:05}"),
            recall: Recall::Satisfactory,
            at_ms: T0 + n,
        })
        .collect();
    merge_outcomes(&mut history, &outcomes);
    assert_eq!(history.len(), ELEMENT_HISTORY_MAX);
    assert!(!history.contains_key("E00000") && !history.contains_key("E00002"));
    assert!(history.contains_key("E00003"));
}

#[test]
fn the_review_book_prefers_the_history_and_keeps_older_scores() {
    let history = BTreeMap::from([("A".to_owned(), entry(Recall::Partial, 0, 0, T0))]);
    let scores = BTreeMap::from([
        ("A".to_owned(), "satisfactory".to_owned()),
        ("B".to_owned(), "unsatisfactory".to_owned()),
        ("C".to_owned(), "bogus".to_owned()),
    ]);
    let book = review_book(&history, &scores);
    assert_eq!(book.len(), 2);
    assert_eq!(book["A"], Known::History(entry(Recall::Partial, 0, 0, T0)));
    assert_eq!(book["B"], Known::ScoreOnly(Recall::Unsatisfactory));
}

#[test]
fn the_stored_form_is_the_documented_json() {
    let stored = r#"{"last_asked_ms": 1765000000000, "last_outcome": "satisfactory",
        "streak": 2, "interval_ms": 518400000, "due_ms": 1765518400000}"#;
    let entry: ElementHistory = serde_json::from_str(stored).unwrap();
    assert_eq!(entry, self::entry(Recall::Satisfactory, 2, 6, T0));
    for recall in [
        Recall::Satisfactory,
        Recall::Partial,
        Recall::Unsatisfactory,
    ] {
        let json = serde_json::to_string(&recall).unwrap();
        assert_eq!(json, format!("\"{}\"", recall.as_str()));
        assert_eq!(Recall::parse(recall.as_str()), Some(recall));
    }
}
