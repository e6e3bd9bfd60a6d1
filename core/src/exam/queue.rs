//! Building an exam's element queue: scope filters, oral eligibility and the study-mode order.
//!
//! Orders:
//! - `linear`: natural ACS code order ([`compare_codes`]).
//! - `cross_acs`: a connected walk. Each element gets a fingerprint: its task references
//!   (`ref:14 cfr part 61`) plus the stemmed content words of its task title and text. The walk
//!   starts at a seeded random element and greedily steps to the unvisited element with the
//!   highest Jaccard similarity (ties: natural code order). References alone are too coarse:
//!   every element of a task shares them. Elements with an empty fingerprint go last, linearly.
//!   With links (an exam with `scenarios` on), the walk steps to an unvisited element linked to
//!   the current one first (the most similar of them), and by similarity only when none is.
//! - `weak_areas`: spaced review (`crate::review`, docs/review.md): the elements due now,
//!   weakest then most overdue first (a satisfactory element that has come due is asked
//!   again); then those never asked; then the rest, soonest due first. Ties (and the
//!   untouched group) follow a seeded shuffle, so a seed gives one order.

use std::collections::BTreeSet;

use viva_protocol::config::StudyMode;

use super::acs::{AcsCatalog, AcsElement, ElementType, Rating, compare_codes};
use super::examiner::text::content_terms;
use crate::review::{ReviewBook, standing, urgency};
use viva_blueprint::rng::SeededRng;
use viva_blueprint::scenario::LinkSet;

/// Areas never asked orally: they are flight skills (Takeoffs, Landings and Go-Arounds;
/// Performance and Ground Reference Maneuvers). Both ratings leave out IV and V.
pub fn excluded_areas(rating: Rating) -> &'static [&'static str] {
    match rating {
        Rating::Private | Rating::Commercial => &["IV", "V"],
    }
}

/// Whether an element can be asked in an oral exam of its rating.
pub fn is_oral_eligible(element: &AcsElement, rating: Rating) -> bool {
    element.element_type != ElementType::Skill
        && !element.archived
        && !excluded_areas(rating).contains(&element.area.as_str())
}

/// What to put in the queue and in which order.
#[derive(Debug, Clone)]
pub struct QueueSpec<'a> {
    /// Aircraft class code, such as `ASEL`.
    pub aircraft_class: &'a str,
    /// Keep only these areas, if given.
    pub areas: Option<&'a [String]>,
    /// Keep only these task codes, if given.
    pub tasks: Option<&'a [String]>,
    /// The order.
    pub study_mode: StudyMode,
    /// Seed for `cross_acs` and `weak_areas`.
    pub seed: u64,
    /// What the user's record knows of each element, for `weak_areas`.
    pub review: &'a ReviewBook,
    /// Now (the session clock), for what is due in `weak_areas`.
    pub now_ms: u64,
    /// Links between elements, for `cross_acs` to chain on purpose (`None`: similarity only).
    pub links: Option<&'a LinkSet>,
}

/// Every oral-eligible element of the catalog's rating that applies to the class, in
/// document order. Its length is the "total oral for rating" of the plan formula.
pub fn oral_elements<'c>(catalog: &'c AcsCatalog, aircraft_class: &str) -> Vec<&'c AcsElement> {
    catalog
        .elements()
        .iter()
        .filter(|element| is_oral_eligible(element, catalog.rating()))
        .filter(|element| {
            element
                .applicable_classes
                .iter()
                .any(|c| c == aircraft_class)
        })
        .collect()
}

/// The ordered element codes for an exam.
pub fn build_queue(catalog: &AcsCatalog, spec: &QueueSpec<'_>) -> Vec<String> {
    let mut elements: Vec<&AcsElement> = oral_elements(catalog, spec.aircraft_class)
        .into_iter()
        .filter(|element| spec.areas.is_none_or(|areas| areas.contains(&element.area)))
        .filter(|element| {
            spec.tasks
                .is_none_or(|tasks| tasks.contains(&element.task_code))
        })
        .collect();
    elements.sort_by(|a, b| compare_codes(&a.code, &b.code));
    let ordered = match spec.study_mode {
        StudyMode::Linear => elements,
        StudyMode::CrossAcs => cross_acs_walk(&elements, spec.seed, spec.links),
        StudyMode::WeakAreas => weak_areas_order(&elements, spec),
    };
    ordered.iter().map(|element| element.code.clone()).collect()
}

/// An element's fingerprint for the connected walk.
pub fn fingerprint(element: &AcsElement) -> BTreeSet<String> {
    let references = element
        .task_references
        .iter()
        .map(|reference| format!("ref:{}", reference.to_lowercase()));
    let words = content_terms(&element.task_title)
        .into_iter()
        .chain(content_terms(&element.text));
    references.chain(words).collect()
}

/// Jaccard similarity of two sets: |a ∩ b| / |a ∪ b|, and 0 for two empty sets.
pub fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let shared = a.intersection(b).count();
    let union = a.len() + b.len() - shared;
    if union == 0 {
        0.0
    } else {
        shared as f64 / union as f64
    }
}

/// Greedy nearest-neighbour walk, linked elements first; `elements` must be in natural order
/// (ties follow it).
fn cross_acs_walk<'c>(
    elements: &[&'c AcsElement],
    seed: u64,
    links: Option<&LinkSet>,
) -> Vec<&'c AcsElement> {
    let prints: Vec<BTreeSet<String>> = elements.iter().map(|e| fingerprint(e)).collect();
    let (mut unvisited, blank): (Vec<usize>, Vec<usize>) =
        (0..elements.len()).partition(|&index| !prints[index].is_empty());
    let mut walk = Vec::with_capacity(elements.len());
    if !unvisited.is_empty() {
        let start = SeededRng::new(seed).next_index(unvisited.len());
        let mut current = unvisited.remove(start);
        walk.push(current);
        while !unvisited.is_empty() {
            let linked = |candidate: usize| {
                links.is_some_and(|links| {
                    let (from, to) = (&elements[current].code, &elements[candidate].code);
                    links.between(from, to).is_some()
                })
            };
            let next = nearest_linked(&prints, current, &unvisited, linked)
                .unwrap_or_else(|| nearest(&prints, current, &unvisited));
            current = unvisited.remove(next);
            walk.push(current);
        }
    }
    walk.extend(blank);
    walk.into_iter().map(|index| elements[index]).collect()
}

/// Position in `candidates` of the most similar element to `from` among those `linked`
/// accepts; `None` when it accepts none.
fn nearest_linked(
    prints: &[BTreeSet<String>],
    from: usize,
    candidates: &[usize],
    linked: impl Fn(usize) -> bool,
) -> Option<usize> {
    let positions: Vec<usize> = (0..candidates.len())
        .filter(|&position| linked(candidates[position]))
        .collect();
    let subset: Vec<usize> = positions.iter().map(|&p| candidates[p]).collect();
    (!subset.is_empty()).then(|| positions[nearest(prints, from, &subset)])
}

/// Position in `candidates` of the most similar element to `from`; the first one on ties.
fn nearest(prints: &[BTreeSet<String>], from: usize, candidates: &[usize]) -> usize {
    let mut best = 0;
    let mut best_similarity = -1.0;
    for (position, &candidate) in candidates.iter().enumerate() {
        let similarity = jaccard(&prints[from], &prints[candidate]);
        if similarity > best_similarity {
            best = position;
            best_similarity = similarity;
        }
    }
    best
}

/// The review order: by urgency at `spec.now_ms`, ties broken by a seeded draw per element
/// (drawn in natural code order, so a seed gives one order).
fn weak_areas_order<'c>(elements: &[&'c AcsElement], spec: &QueueSpec<'_>) -> Vec<&'c AcsElement> {
    let mut rng = SeededRng::new(spec.seed);
    let mut keyed: Vec<_> = elements
        .iter()
        .map(|&element| {
            let stands = standing(spec.review.get(&element.code), spec.now_ms);
            ((urgency(stands), rng.next_u64()), element)
        })
        .collect();
    keyed.sort_by_key(|(key, _)| *key);
    keyed.into_iter().map(|(_, element)| element).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::review::{DAY_MS, ElementHistory, Known, Recall, review_book};
    use std::collections::BTreeMap;

    /// The session clock in these tests.
    const NOW: u64 = 1_765_000_000_000;

    pub(crate) fn private_catalog() -> AcsCatalog {
        AcsCatalog::from_json(
            Rating::Private,
            include_str!("../../../blueprints/acs/acs-private-airplane.json"),
            include_str!("../../../blueprints/acs/acs-private-airplane-tasks.json"),
        )
        .unwrap()
    }

    pub(crate) fn commercial_catalog() -> AcsCatalog {
        AcsCatalog::from_json(
            Rating::Commercial,
            include_str!("../../../blueprints/acs/acs-commercial-airplane.json"),
            include_str!("../../../blueprints/acs/acs-commercial-airplane-tasks.json"),
        )
        .unwrap()
    }

    fn spec<'a>(mode: StudyMode, review: &'a ReviewBook) -> QueueSpec<'a> {
        QueueSpec {
            aircraft_class: "ASEL",
            areas: None,
            tasks: None,
            study_mode: mode,
            seed: 11,
            review,
            now_ms: NOW,
            links: None,
        }
    }

    #[test]
    fn oral_counts_match_the_data_notes() {
        let private = private_catalog();
        let all_classes = private
            .elements()
            .iter()
            .filter(|e| is_oral_eligible(e, Rating::Private))
            .count();
        assert_eq!(all_classes, 382);
        assert_eq!(oral_elements(&private, "ASEL").len(), 292);
        for element in private.elements() {
            let eligible = is_oral_eligible(element, Rating::Private);
            assert!(!eligible || element.element_type != ElementType::Skill);
        }
        let commercial = commercial_catalog();
        let areas: BTreeSet<&str> = oral_elements(&commercial, "ASEL")
            .iter()
            .map(|e| e.area.as_str())
            .collect();
        assert!(!areas.contains("IV") && !areas.contains("V") && areas.contains("VIII"));
    }

    #[test]
    fn filters_by_class_area_and_task() {
        let catalog = private_catalog();
        let scores = ReviewBook::new();
        let tasks = vec!["PA.I.A".to_owned()];
        let by_task = QueueSpec {
            tasks: Some(&tasks),
            ..spec(StudyMode::Linear, &scores)
        };
        let queue = build_queue(&catalog, &by_task);
        let expected = ["K1", "K2", "K3", "K4", "K5", "R1", "R2"].map(|s| format!("PA.I.A.{s}"));
        assert_eq!(queue, expected);
        let areas = vec!["IV".to_owned()];
        let excluded = QueueSpec {
            areas: Some(&areas),
            ..spec(StudyMode::Linear, &scores)
        };
        assert!(build_queue(&catalog, &excluded).is_empty());
        let seaplane = QueueSpec {
            aircraft_class: "ASES",
            ..spec(StudyMode::Linear, &scores)
        };
        let sea_queue = build_queue(&catalog, &seaplane);
        for code in &sea_queue {
            let element = catalog.element(code).unwrap();
            assert!(
                element.applicable_classes.iter().any(|c| c == "ASES"),
                "{code}"
            );
        }
    }

    #[test]
    fn linear_order_is_natural() {
        let catalog = private_catalog();
        let scores = ReviewBook::new();
        let queue = build_queue(&catalog, &spec(StudyMode::Linear, &scores));
        assert!(
            queue
                .windows(2)
                .all(|w| compare_codes(&w[0], &w[1]).is_lt())
        );
        assert_eq!(queue.len(), 292);
    }

    #[test]
    fn cross_acs_walk_steps_to_the_nearest_remaining_element() {
        let catalog = private_catalog();
        let scores = ReviewBook::new();
        let queue = build_queue(&catalog, &spec(StudyMode::CrossAcs, &scores));
        assert_eq!(queue.len(), 292);
        let prints: Vec<_> = queue
            .iter()
            .map(|c| fingerprint(catalog.element(c).unwrap()))
            .collect();
        for step in 0..prints.len() - 1 {
            let chosen = jaccard(&prints[step], &prints[step + 1]);
            for later in &prints[step + 2..] {
                assert!(chosen >= jaccard(&prints[step], later), "step {step}");
            }
        }
        let again = build_queue(&catalog, &spec(StudyMode::CrossAcs, &scores));
        assert_eq!(queue, again, "same seed, same walk");
    }

    #[test]
    fn cross_acs_walk_is_more_connected_than_linear_order() {
        let catalog = private_catalog();
        let scores = ReviewBook::new();
        let mean_step = |queue: &[String]| {
            let prints: Vec<_> = queue
                .iter()
                .map(|c| fingerprint(catalog.element(c).unwrap()))
                .collect();
            let total: f64 = prints.windows(2).map(|w| jaccard(&w[0], &w[1])).sum();
            total / (prints.len() - 1) as f64
        };
        let linear = mean_step(&build_queue(&catalog, &spec(StudyMode::Linear, &scores)));
        let walk = mean_step(&build_queue(&catalog, &spec(StudyMode::CrossAcs, &scores)));
        assert!(walk > linear, "walk {walk} vs linear {linear}");
    }

    #[test]
    fn with_links_the_walk_steps_to_a_linked_element_whenever_one_is_left() {
        let library = crate::exam::test_scenarios::library();
        let catalog = library.catalog(Rating::Private);
        let scores = ReviewBook::new();
        let linked = QueueSpec {
            links: Some(library.links()),
            ..spec(StudyMode::CrossAcs, &scores)
        };
        let queue = build_queue(catalog, &linked);
        assert_eq!(queue.len(), 292);
        let is_linked = |a: &str, b: &str| library.links().between(a, b).is_some();
        let mut chained = 0;
        for step in 0..queue.len() - 1 {
            let current = &queue[step];
            let left = queue[step + 1..]
                .iter()
                .any(|later| is_linked(current, later));
            assert_eq!(
                is_linked(current, &queue[step + 1]),
                left,
                "step {step}: {current}"
            );
            chained += usize::from(left);
        }
        assert!(chained >= 20, "{chained} linked steps");
        let plain = build_queue(catalog, &spec(StudyMode::CrossAcs, &scores));
        assert_ne!(queue, plain, "links change the walk");
        let linear = QueueSpec {
            links: Some(library.links()),
            ..spec(StudyMode::Linear, &scores)
        };
        let natural = build_queue(catalog, &spec(StudyMode::Linear, &scores));
        assert_eq!(
            build_queue(catalog, &linear),
            natural,
            "only cross_acs follows links"
        );
    }

    #[test]
    fn jaccard_values() {
        let set = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(jaccard(&set(&["a", "b"]), &set(&["b", "c"])), 1.0 / 3.0);
        assert_eq!(jaccard(&set(&[]), &set(&[])), 0.0);
        assert_eq!(jaccard(&set(&["a"]), &set(&["a"])), 1.0);
    }

    #[test]
    fn weak_areas_puts_weak_elements_first_on_average() {
        let catalog = private_catalog();
        let tasks = vec!["PA.I.A".to_owned(), "PA.I.B".to_owned()];
        let mut last_scores = BTreeMap::new();
        for code in build_queue(
            &catalog,
            &QueueSpec {
                tasks: Some(&tasks),
                ..spec(StudyMode::Linear, &ReviewBook::new())
            },
        ) {
            let score = if code.starts_with("PA.I.A") {
                "unsatisfactory"
            } else {
                "satisfactory"
            };
            last_scores.insert(code, score.to_owned());
        }
        // Scores alone, as records written before the review history hold them.
        let scores = review_book(&BTreeMap::new(), &last_scores);
        let mut weak_positions = 0usize;
        let mut runs = 0usize;
        for seed in 0..50 {
            let spec = QueueSpec {
                tasks: Some(&tasks),
                seed,
                ..spec(StudyMode::WeakAreas, &scores)
            };
            let queue = build_queue(&catalog, &spec);
            weak_positions += queue
                .iter()
                .take(7)
                .filter(|c| c.starts_with("PA.I.A"))
                .count();
            runs += 1;
        }
        let mean_weak_in_first_seven = weak_positions as f64 / runs as f64;
        assert!(mean_weak_in_first_seven > 4.5, "{mean_weak_in_first_seven}");
    }

    /// The history of one element: its outcome `days_ago`, and the interval it left.
    fn asked(recall: Recall, streak: u32, interval_days: u64, days_ago: u64) -> Known {
        let last_asked_ms = NOW - days_ago * DAY_MS;
        let interval_ms = interval_days * DAY_MS;
        Known::History(ElementHistory {
            last_asked_ms,
            last_outcome: recall,
            streak,
            interval_ms,
            due_ms: last_asked_ms + interval_ms,
        })
    }

    #[test]
    fn weak_areas_asks_what_is_due_first_then_untouched_then_the_rest() {
        let catalog = private_catalog();
        let tasks = vec!["PA.I.A".to_owned(), "PA.I.B".to_owned()];
        let review: ReviewBook = [
            ("PA.I.A.K1", asked(Recall::Unsatisfactory, 0, 0, 2)),
            ("PA.I.A.K2", asked(Recall::Partial, 0, 0, 3)),
            ("PA.I.A.K3", asked(Recall::Satisfactory, 1, 1, 5)), // due: re-tested
            ("PA.I.A.K4", asked(Recall::Satisfactory, 3, 15, 2)), // due in 13 days
            ("PA.I.A.K5", asked(Recall::Satisfactory, 2, 6, 1)), // due in 5 days
            ("PA.I.B.K1", Known::ScoreOnly(Recall::Unsatisfactory)),
        ]
        .into_iter()
        .map(|(code, known)| (code.to_owned(), known))
        .collect();
        let queue_for = |seed| {
            let spec = QueueSpec {
                tasks: Some(&tasks),
                seed,
                ..spec(StudyMode::WeakAreas, &review)
            };
            build_queue(&catalog, &spec)
        };
        let first = ["PA.I.A.K1", "PA.I.B.K1", "PA.I.A.K2", "PA.I.A.K3"];
        let last = ["PA.I.A.K5", "PA.I.A.K4"];
        let mut untouched_orders = BTreeSet::new();
        for seed in 0..20 {
            let queue = queue_for(seed);
            assert_eq!(queue[..4], first, "seed {seed}");
            assert_eq!(queue[queue.len() - 2..], last, "seed {seed}");
            assert_eq!(queue, queue_for(seed), "one order per seed");
            untouched_orders.insert(queue[4..queue.len() - 2].to_vec());
        }
        assert!(
            untouched_orders.len() > 1,
            "the seed shuffles the untouched"
        );
    }

    #[test]
    fn a_satisfactory_element_comes_back_once_it_is_due() {
        let catalog = private_catalog();
        let tasks = vec!["PA.I.A".to_owned()];
        let review: ReviewBook = oral_elements(&catalog, "ASEL")
            .iter()
            .filter(|element| element.task_code == "PA.I.A")
            .map(|element| {
                let known = match element.code.as_str() {
                    "PA.I.A.K2" => asked(Recall::Satisfactory, 3, 15, 16),
                    _ => asked(Recall::Satisfactory, 3, 15, 1),
                };
                (element.code.clone(), known)
            })
            .collect();
        let check = |now_ms, expected_first: &str| {
            let spec = QueueSpec {
                tasks: Some(&tasks),
                now_ms,
                ..spec(StudyMode::WeakAreas, &review)
            };
            assert_eq!(build_queue(&catalog, &spec)[0], expected_first);
        };
        check(NOW, "PA.I.A.K2"); // 16 days after a 15-day interval
        check(NOW - 2 * DAY_MS, "PA.I.A.K2"); // not due, but the soonest
        check(NOW + 15 * DAY_MS, "PA.I.A.K2"); // all due: the most overdue first
    }
}
