//! Adaptive difficulty: the level an exam asks its next questions at, moved by the scores of
//! the latest elements assessed at the level in force. Pure and table-tested here; the rule
//! and its numbers are explained in docs/adaptive-difficulty.md.
//!
//! The rule, for `"difficulty": "adaptive"`:
//! - the exam starts at [`START`] (medium);
//! - each element counts once, with its final score (after its follow-ups), when the exam
//!   leaves it; an element credited by mention was never asked and does not count;
//! - only elements settled at the level in force count, the latest [`WINDOW`] of them, and
//!   nothing moves before [`MIN_ELEMENTS_BETWEEN_CHANGES`] of them are in;
//! - points: satisfactory 2, partial 1, unsatisfactory 0. The level rises one step when the
//!   window averages at least 1.75 points, and falls one step when it averages at most 0.75;
//!   between the two it stays (a dead band);
//! - a move empties the window, so the next move needs that many elements at the new level;
//!   the level never leaves easy..hard and never jumps two steps.
//!
//! So the level cannot oscillate: two moves are always at least
//! [`MIN_ELEMENTS_BETWEEN_CHANGES`] elements apart, each one step.

use viva_protocol::difficulty::{AdaptivePlan, AdaptiveResult, Level, LevelSpan};

use super::types::{QuestionDifficulty, Score};

/// The level of an adaptive exam's first question.
pub const START: QuestionDifficulty = QuestionDifficulty::Medium;
/// How many of the latest elements settled at the level in force decide a move.
pub const WINDOW: usize = 4;
/// Elements settled at a level before it may move again (at most [`WINDOW`]).
pub const MIN_ELEMENTS_BETWEEN_CHANGES: usize = 3;
/// The level rises when the window's points average at least this many quarters (1.75 of 2).
const RAISE_AT_QUARTERS: usize = 7;
/// The level falls when the window's points average at most this many quarters (0.75 of 2).
const LOWER_AT_QUARTERS: usize = 3;

/// An adaptive exam's level: the one in force, the scores that may move it, and the levels
/// its questions were asked at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdaptiveDifficulty {
    /// The level the next new question is asked at.
    pub level: QuestionDifficulty,
    /// Final scores of the elements settled at `level` since it came into force, oldest
    /// first; the latest [`WINDOW`] are kept.
    pub at_level: Vec<Score>,
    /// Each level questions were asked at, in order, with the number of the first question
    /// asked at it.
    pub asked: Vec<(QuestionDifficulty, u32)>,
}

impl Default for AdaptiveDifficulty {
    fn default() -> Self {
        AdaptiveDifficulty {
            level: START,
            at_level: Vec::new(),
            asked: Vec::new(),
        }
    }
}

impl AdaptiveDifficulty {
    /// The exam left an element whose final score is `score`: it counts, and the level may
    /// move one step.
    pub fn settle(&mut self, score: Score) {
        self.at_level.push(score);
        if self.at_level.len() > WINDOW {
            self.at_level.remove(0);
        }
        let moved = step(self.level, decide(&self.at_level));
        if moved != self.level {
            self.level = moved;
            self.at_level.clear();
        }
    }

    /// The level in force once an element settles with `score`; changes nothing.
    pub fn after(&self, score: Score) -> QuestionDifficulty {
        let mut next = self.clone();
        next.settle(score);
        next.level
    }

    /// Question `number` is asked at the level in force.
    pub fn asked_at(&mut self, number: u32) {
        if self.asked_level() != Some(self.level) {
            self.asked.push((self.level, number));
        }
    }

    /// The level the latest question was asked at.
    pub fn asked_level(&self) -> Option<QuestionDifficulty> {
        self.asked.last().map(|(level, _)| *level)
    }

    /// What `session.started`'s plan says of it.
    pub fn plan() -> AdaptivePlan {
        AdaptivePlan {
            start: wire_level(START),
            window: WINDOW as u32,
            min_elements_between_changes: MIN_ELEMENTS_BETWEEN_CHANGES as u32,
        }
    }

    /// What the result says of it: the levels asked at, and the level in force at the end
    /// (one step past the last level asked when the last elements moved it).
    pub fn report(&self) -> AdaptiveResult {
        let levels: Vec<LevelSpan> = self
            .asked
            .iter()
            .map(|(level, from_question)| LevelSpan {
                level: wire_level(*level),
                from_question: *from_question,
            })
            .collect();
        AdaptiveResult {
            start: levels.first().map_or(wire_level(START), |span| span.level),
            end: wire_level(self.level),
            levels,
        }
    }
}

/// Which way the window moves the level, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// One step harder.
    Raise,
    /// One step easier.
    Lower,
}

/// The rule on the scores settled at the level in force (the latest [`WINDOW`]).
pub fn decide(window: &[Score]) -> Option<Move> {
    if window.len() < MIN_ELEMENTS_BETWEEN_CHANGES {
        return None;
    }
    let window = &window[window.len().saturating_sub(WINDOW)..];
    let quarters = 4 * window.iter().copied().map(points).sum::<usize>();
    let count = window.len();
    if quarters >= raise_floor(count) {
        Some(Move::Raise)
    } else if quarters <= lower_ceiling(count) {
        Some(Move::Lower)
    } else {
        None
    }
}

/// Quarter-points a window of `count` needs to rise: 1.75 points each.
fn raise_floor(count: usize) -> usize {
    RAISE_AT_QUARTERS * count
}

/// Quarter-points at or under which a window of `count` falls: 0.75 points each.
fn lower_ceiling(count: usize) -> usize {
    LOWER_AT_QUARTERS * count
}

/// A score's points: satisfactory 2, partial 1, unsatisfactory 0.
fn points(score: Score) -> usize {
    match score {
        Score::Satisfactory => 2,
        Score::Partial => 1,
        Score::Unsatisfactory => 0,
    }
}

/// `level` moved one step by `change`, within easy..hard.
fn step(level: QuestionDifficulty, change: Option<Move>) -> QuestionDifficulty {
    use QuestionDifficulty::{Easy, Hard, Medium};
    match (level, change) {
        (Easy, Some(Move::Raise)) => Medium,
        (Medium, Some(Move::Raise)) | (Hard, Some(Move::Raise)) => Hard,
        (Hard, Some(Move::Lower)) => Medium,
        (Medium, Some(Move::Lower)) | (Easy, Some(Move::Lower)) => Easy,
        (level, None) => level,
    }
}

/// A level's wire form.
pub fn wire_level(level: QuestionDifficulty) -> Level {
    match level {
        QuestionDifficulty::Easy => Level::Easy,
        QuestionDifficulty::Medium => Level::Medium,
        QuestionDifficulty::Hard => Level::Hard,
    }
}

/// A level from its wire form.
pub fn from_wire(level: Level) -> QuestionDifficulty {
    match level {
        Level::Easy => QuestionDifficulty::Easy,
        Level::Medium => QuestionDifficulty::Medium,
        Level::Hard => QuestionDifficulty::Hard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use QuestionDifficulty::{Easy, Hard, Medium};
    use Score::{Partial as P, Satisfactory as S, Unsatisfactory as U};

    /// Settles `scores` one by one from `START`; the level after each, as initials.
    fn check(scores: &[Score], expected: &str) {
        let mut adaptive = AdaptiveDifficulty::default();
        let got: String = scores
            .iter()
            .map(|score| {
                adaptive.settle(*score);
                match adaptive.level {
                    Easy => 'e',
                    Medium => 'm',
                    Hard => 'h',
                }
            })
            .collect();
        assert_eq!(got, expected, "{scores:?}");
    }

    #[test]
    fn the_level_moves_one_step_after_enough_elements_at_the_level_in_force() {
        // Nothing moves before three elements, however they went.
        check(&[S, S], "mm");
        check(&[U, U], "mm");
        // Three satisfactory: up; three more at hard stay there (the ceiling).
        check(&[S, S, S], "mmh");
        check(&[S, S, S, S, S, S], "mmhhhh");
        // Three failures: down; the floor is easy.
        check(&[U, U, U, U, U, U], "mmeeee");
        check(&[U, P, U], "mme");
        // The dead band: partials hold the level.
        check(&[P, P, P, P, P, P, P, P], "mmmmmmmm");
        check(&[S, P, S], "mmm");
        // Four in the window: three satisfactory and a partial rise, …
        check(&[S, P, S, S], "mmmh");
        // … and three partials with a failure fall.
        check(&[P, P, P, U], "mmme");
        // Only the latest four count: an early failure ages out.
        check(&[U, S, S, P, S], "mmmmh");
    }

    #[test]
    fn a_move_empties_the_window_so_the_next_needs_three_new_elements() {
        // Up to hard after three, then failures: down only after three at hard.
        check(&[S, S, S, U, U, U], "mmhhhm");
        // Down to easy, then a recovery: up only after three at easy.
        check(&[U, U, U, S, S, S], "mmeeem");
        // Climbing all the way takes three elements a step.
        check(&[U, U, U, S, S, S, S, S, S], "mmeeemmmh");
    }

    /// Every sequence of up to eight scores: each move is one step, moves are at least three
    /// elements apart, and the level stays within easy..hard.
    #[test]
    fn no_sequence_of_scores_makes_the_level_oscillate() {
        let rank = |level| match level {
            Easy => 0i32,
            Medium => 1,
            Hard => 2,
        };
        for length in 1..=8u32 {
            for code in 0..3usize.pow(length) {
                let scores: Vec<Score> = (0..length)
                    .map(|i| [S, P, U][code / 3usize.pow(i) % 3])
                    .collect();
                let mut adaptive = AdaptiveDifficulty::default();
                let mut last_move: Option<usize> = None;
                for (index, score) in scores.iter().enumerate() {
                    let before = adaptive.level;
                    adaptive.settle(*score);
                    if adaptive.level == before {
                        continue;
                    }
                    assert_eq!((rank(adaptive.level) - rank(before)).abs(), 1, "{scores:?}");
                    let since = last_move.map_or(index + 1, |at| index - at);
                    assert!(since >= MIN_ELEMENTS_BETWEEN_CHANGES, "{scores:?}");
                    last_move = Some(index);
                }
            }
        }
    }

    #[test]
    fn the_level_after_a_score_is_the_one_settling_it_gives() {
        let mut adaptive = AdaptiveDifficulty::default();
        adaptive.settle(S);
        adaptive.settle(S);
        assert_eq!(adaptive.after(S), Hard);
        assert_eq!(adaptive.after(P), Medium);
        assert_eq!(adaptive.level, Medium, "asking changes nothing");
    }

    #[test]
    fn the_levels_asked_are_kept_once_per_change_with_their_first_question() {
        let mut adaptive = AdaptiveDifficulty::default();
        for number in 1..=3 {
            adaptive.asked_at(number);
            adaptive.settle(S);
        }
        adaptive.asked_at(4);
        adaptive.asked_at(5);
        assert_eq!(adaptive.asked, [(Medium, 1), (Hard, 4)]);
        assert_eq!(adaptive.asked_level(), Some(Hard));
    }

    #[test]
    fn the_report_gives_the_levels_asked_and_the_level_in_force_at_the_end() {
        let mut adaptive = AdaptiveDifficulty::default();
        let empty = adaptive.report();
        assert_eq!((empty.start, empty.end), (Level::Medium, Level::Medium));
        assert!(empty.levels.is_empty(), "no question was asked");
        for number in 1..=3 {
            adaptive.asked_at(number);
            adaptive.settle(U);
        }
        adaptive.asked_at(4);
        for _ in 0..3 {
            adaptive.settle(S);
        }
        let report = adaptive.report();
        assert_eq!((report.start, report.end), (Level::Medium, Level::Medium));
        let levels: Vec<_> = report
            .levels
            .iter()
            .map(|span| (span.level, span.from_question))
            .collect();
        assert_eq!(levels, [(Level::Medium, 1), (Level::Easy, 4)]);
    }

    #[test]
    fn levels_convert_to_their_wire_form_and_back() {
        for level in [Easy, Medium, Hard] {
            assert_eq!(from_wire(wire_level(level)), level);
        }
    }
}
