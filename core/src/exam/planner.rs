//! PlannerState: the cursor over the exam queue and the rule for picking the next element.

use std::collections::{HashMap, VecDeque};

/// How many recently asked elements the planner refuses to pick again.
pub const RECENT_WINDOW: usize = 5;

/// Version of the planner state layout.
pub const PLANNER_VERSION: u32 = 1;

/// Where the planner stands in the exam queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannerState {
    /// Layout version.
    pub version: u32,
    /// Element codes in study-mode order.
    pub queue: Vec<String>,
    /// Index in `queue` where the next scan starts.
    pub cursor: usize,
    /// The last [`RECENT_WINDOW`] elements asked, oldest first.
    pub recent: VecDeque<String>,
    /// Questions asked per element (follow-ups included).
    pub attempts: HashMap<String, u32>,
}

impl PlannerState {
    /// A planner at the start of `queue`.
    pub fn new(queue: Vec<String>) -> PlannerState {
        PlannerState {
            version: PLANNER_VERSION,
            queue,
            cursor: 0,
            recent: VecDeque::with_capacity(RECENT_WINDOW),
            attempts: HashMap::new(),
        }
    }

    /// The next element to ask: scanning forward from the cursor (wrapping once), the first
    /// element that is not in the recent window and that `is_pending` accepts. `None` when no
    /// element qualifies, including when every element is recent.
    pub fn next_element(&self, is_pending: impl Fn(&str) -> bool) -> Option<usize> {
        let len = self.queue.len();
        (0..len)
            .map(|offset| (self.cursor + offset) % len)
            .find(|&index| {
                let code = &self.queue[index];
                !self.recent.contains(code) && is_pending(code)
            })
    }

    /// Records that the element at `index` was asked: the cursor moves past it, it enters the
    /// recent window, and its attempt count rises.
    pub fn record_asked(&mut self, index: usize) {
        let Some(code) = self.queue.get(index).cloned() else {
            return;
        };
        self.cursor = index + 1;
        self.record_attempt(&code);
    }

    /// Records another question on `code` (a follow-up) without moving the cursor.
    pub fn record_attempt(&mut self, code: &str) {
        *self.attempts.entry(code.to_owned()).or_default() += 1;
        self.recent.retain(|recent| recent != code);
        self.recent.push_back(code.to_owned());
        while self.recent.len() > RECENT_WINDOW {
            self.recent.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planner(codes: &[&str]) -> PlannerState {
        PlannerState::new(codes.iter().map(|c| c.to_string()).collect())
    }

    #[test]
    fn scans_forward_from_the_cursor() {
        let mut state = planner(&["a", "b", "c"]);
        assert_eq!(state.next_element(|_| true), Some(0));
        state.record_asked(0);
        assert_eq!(state.next_element(|_| true), Some(1));
        assert_eq!(state.cursor, 1);
    }

    #[test]
    fn skips_elements_that_are_not_pending() {
        let state = planner(&["a", "b", "c"]);
        assert_eq!(state.next_element(|code| code == "c"), Some(2));
        assert_eq!(state.next_element(|_| false), None);
    }

    #[test]
    fn skips_the_recent_window_and_wraps() {
        let mut state = planner(&["a", "b", "c", "d", "e", "f", "g"]);
        for index in 0..6 {
            state.record_asked(index);
        }
        assert_eq!(state.recent.len(), RECENT_WINDOW);
        assert!(!state.recent.contains(&"a".to_owned()), "a left the window");
        assert_eq!(state.next_element(|_| true), Some(6));
        state.record_asked(6);
        assert_eq!(
            state.next_element(|_| true),
            Some(0),
            "wraps to a, no longer recent"
        );
    }

    #[test]
    fn returns_nothing_when_every_element_is_recent() {
        let mut state = planner(&["a", "b", "c"]);
        for index in 0..3 {
            state.record_asked(index);
        }
        assert_eq!(state.next_element(|_| true), None);
    }

    #[test]
    fn empty_queue_has_no_next_element() {
        assert_eq!(planner(&[]).next_element(|_| true), None);
    }

    #[test]
    fn attempts_count_follow_ups() {
        let mut state = planner(&["a", "b"]);
        state.record_asked(0);
        state.record_attempt("a");
        assert_eq!(state.attempts.get("a"), Some(&2));
        assert_eq!(state.cursor, 1, "a follow-up does not move the cursor");
        assert_eq!(state.recent.iter().filter(|c| *c == "a").count(), 1);
    }
}
