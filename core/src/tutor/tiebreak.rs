//! Settling ties in the mapping of a message to units (issue 33). Units tie when the
//! message's words hold them alike: their BM25 evidence without the numbers of examples
//! (an example's operands match a unit's sample sums by chance) is within
//! [`COVERAGE_EPSILON`] and [`SCORE_EPSILON`] of the best. Tied units are ordered by how
//! exactly the message names them ([`Specificity`]: the unit's title, then its longest tag
//! phrase), then the student's focus first, then the prerequisite order (shallower in the
//! graph first, then the course's order). Each tied unit's confidence is split among the
//! tied units at least as specific as it, so a tie the message's words do not settle is
//! reported unsure (below the policy's target confidence for any tie of two or more).
//!
//! Pure; [`super::retrieval`] supplies the hits and each unit's key.

use std::cmp::Ordering;

use super::bm25::Hit;

/// Units tie when their coverage of the message is within this of the best's: a word worth
/// under 5 % of the message's weight does not tell them apart.
pub const COVERAGE_EPSILON: f64 = 0.05;
/// … and their BM25 score within this share of the best's: about what length normalisation
/// alone moves the score of two units holding the same words in the same fields.
pub const SCORE_EPSILON: f64 = 0.10;

/// How exactly a message names a unit: its whole title, else its longest whole tag phrase
/// (in content words); more is more specific.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Specificity {
    /// The message holds the unit's whole title.
    pub title: bool,
    /// Content words of the longest tag the message holds whole (0: none).
    pub tag_words: usize,
}

/// The specificity of a unit with `title` and `tags` (each as
/// [`super::bm25::phrase_words`]) for a message's phrase words.
pub fn specificity(message: &[String], title: &[String], tags: &[Vec<String>]) -> Specificity {
    Specificity {
        title: holds(message, title),
        tag_words: tags
            .iter()
            .filter(|tag| holds(message, tag))
            .map(Vec::len)
            .max()
            .unwrap_or(0),
    }
}

/// Whether `phrase` (not empty) occurs in `words`, word for word and in a row.
fn holds(words: &[String], phrase: &[String]) -> bool {
    !phrase.is_empty() && words.windows(phrase.len()).any(|window| window == phrase)
}

/// What orders tied units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieKey {
    /// How exactly the message names the unit.
    pub specificity: Specificity,
    /// The unit is the student's focus.
    pub focus: bool,
    /// Its longest chain of prerequisites (0: none).
    pub depth: usize,
    /// Its position in the course.
    pub position: usize,
}

impl TieKey {
    /// More specific first, then the focus, then the prerequisite order.
    fn best_first(&self, other: &TieKey) -> Ordering {
        (other.specificity.cmp(&self.specificity))
            .then(other.focus.cmp(&self.focus))
            .then(self.depth.cmp(&other.depth))
            .then(self.position.cmp(&other.position))
    }
}

/// The units tied with `top` (the best hit): the `topic` hits (the message's evidence
/// without example numbers, best first) near the best of them. Empty when `top` has no
/// company there.
pub fn tied(top: usize, topic: &[Hit]) -> Vec<usize> {
    let Some(best) = topic.first() else {
        return Vec::new();
    };
    let near: Vec<usize> = topic
        .iter()
        .filter(|hit| {
            hit.coverage >= best.coverage - COVERAGE_EPSILON
                && hit.score >= best.score * (1.0 - SCORE_EPSILON)
        })
        .map(|hit| hit.doc)
        .collect();
    if near.len() >= 2 && near.contains(&top) {
        near
    } else {
        Vec::new()
    }
}

/// The mapping as (document, confidence), best first: `hits` (by score) with the `tied`
/// documents first in [`TieKey`] order, each tied one's coverage split among the tied at
/// least as specific, and every confidence capped by the one before it (the list reads
/// highest confidence first, as the scope and the policy take it).
pub fn settle(hits: &[Hit], tied: &[usize], key: impl Fn(usize) -> TieKey) -> Vec<(usize, f64)> {
    let coverage = |doc: usize| {
        hits.iter()
            .find(|h| h.doc == doc)
            .map_or(0.0, |h| h.coverage)
    };
    let mut front: Vec<(usize, TieKey)> = tied.iter().map(|&doc| (doc, key(doc))).collect();
    front.sort_by(|a, b| a.1.best_first(&b.1));
    let mut settled: Vec<(usize, f64)> = front
        .iter()
        .map(|(doc, own)| {
            let peers = front
                .iter()
                .filter(|(_, other)| other.specificity >= own.specificity)
                .count();
            (*doc, coverage(*doc) / peers.max(1) as f64)
        })
        .collect();
    let rest = hits.iter().filter(|hit| !tied.contains(&hit.doc));
    settled.extend(rest.map(|hit| (hit.doc, hit.coverage)));
    let mut ceiling = 1.0_f64;
    for (_, confidence) in &mut settled {
        *confidence = confidence.min(ceiling);
        ceiling = *confidence;
    }
    settled
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::bm25::phrase_words;

    fn check_specificity(message: &str, title: &str, tags: &[&str], expected: (bool, usize)) {
        let tags: Vec<Vec<String>> = tags.iter().map(|t| phrase_words(t)).collect();
        let got = specificity(&phrase_words(message), &phrase_words(title), &tags);
        let (title_held, tag_words) = expected;
        let expected = Specificity {
            title: title_held,
            tag_words,
        };
        assert_eq!(got, expected, "{message:?} / {title:?}");
    }

    #[test]
    fn a_whole_title_or_tag_is_specific_a_scattered_one_is_not() {
        let adding = ("Adding one-digit numbers", &["addition", "sum"][..]);
        let tables = (
            "Multiplication facts",
            &["multiplication", "times tables"][..],
        );
        let cases = [
            (
                "Can you help me with adding one-digit numbers?",
                adding,
                (true, 0),
            ),
            ("adding two-digit numbers", adding, (false, 0)),
            ("numbers: adding digits", adding, (false, 0)),
            ("the times tables, like 7 × 8", tables, (false, 2)),
            ("tables of times", tables, (false, 0)),
            ("multiplication facts and times tables", tables, (true, 2)),
            ("", tables, (false, 0)),
        ];
        for (message, (title, tags), expected) in cases {
            check_specificity(message, title, tags, expected);
        }
        check_specificity("anything", "the", &["of"], (false, 0));
    }

    fn hit(doc: usize, score: f64, coverage: f64) -> Hit {
        Hit {
            doc,
            score,
            coverage,
        }
    }

    #[test]
    fn units_tie_only_near_the_best_and_with_the_top_among_them() {
        let topic = [
            hit(0, 10.0, 1.0),
            hit(1, 9.2, 0.96),
            hit(2, 8.9, 1.0),
            hit(3, 9.9, 0.9),
        ];
        let cases: [(usize, &[Hit], &[usize]); 5] = [
            (0, &topic, &[0, 1]),
            (1, &topic, &[0, 1]),
            // The top unit leads on numbers only, with no tie among the words: no tie.
            (2, &topic, &[]),
            (0, &topic[..1], &[]),
            (0, &[], &[]),
        ];
        for (top, topic, expected) in cases {
            assert_eq!(tied(top, topic), expected, "top {top}");
        }
    }

    fn key(specificity: (bool, usize), focus: bool, depth: usize, position: usize) -> TieKey {
        TieKey {
            specificity: Specificity {
                title: specificity.0,
                tag_words: specificity.1,
            },
            focus,
            depth,
            position,
        }
    }

    /// (keys of documents 0, 1, 2, all tied, at coverage 1.0) → the order and confidences.
    #[test]
    fn ties_go_to_the_specific_then_the_focus_then_the_earlier_and_split_confidence() {
        type Row = ([TieKey; 3], [(usize, f64); 3]);
        let plain = |position| key((false, 0), false, 1, position);
        let rows: [Row; 5] = [
            // Nothing tells them apart: course order, a third each.
            (
                [plain(0), plain(1), plain(2)],
                [(0, 1.0 / 3.0), (1, 1.0 / 3.0), (2, 1.0 / 3.0)],
            ),
            // A whole title beats a tag: it alone keeps its confidence.
            (
                [
                    plain(0),
                    key((false, 2), false, 0, 1),
                    key((true, 0), false, 2, 2),
                ],
                [(2, 1.0), (1, 0.5), (0, 1.0 / 3.0)],
            ),
            // Equally specific: the focus first, but still unsure.
            (
                [
                    key((false, 2), false, 1, 0),
                    key((false, 2), true, 2, 1),
                    plain(2),
                ],
                [(1, 0.5), (0, 0.5), (2, 1.0 / 3.0)],
            ),
            // Then the shallower in the prerequisite graph.
            (
                [
                    key((false, 0), false, 3, 0),
                    key((false, 0), false, 2, 1),
                    plain(2),
                ],
                [(2, 1.0 / 3.0), (1, 1.0 / 3.0), (0, 1.0 / 3.0)],
            ),
            // The focus does not outrank a more specific unit.
            (
                [
                    plain(0),
                    key((false, 0), true, 0, 1),
                    key((false, 1), false, 3, 2),
                ],
                [(2, 1.0), (1, 1.0 / 3.0), (0, 1.0 / 3.0)],
            ),
        ];
        let hits = [hit(0, 3.0, 1.0), hit(1, 2.9, 1.0), hit(2, 2.8, 1.0)];
        for (keys, expected) in rows {
            let got = settle(&hits, &[0, 1, 2], |doc| keys[doc]);
            assert_eq!(got, expected, "{keys:?}");
        }
    }

    #[test]
    fn untied_hits_follow_in_score_order_never_above_the_one_before() {
        let hits = [hit(0, 9.0, 0.6), hit(1, 8.0, 0.9), hit(2, 1.0, 0.2)];
        let plain = |doc| key((false, 0), false, 0, doc);
        assert_eq!(
            settle(&hits, &[], plain),
            [(0, 0.6), (1, 0.6), (2, 0.2)],
            "no tie: the score's order, confidence capped"
        );
        assert_eq!(
            settle(&hits, &[1, 0], plain),
            [(0, 0.3), (1, 0.3), (2, 0.2)],
            "a tie of the first two"
        );
    }
}
