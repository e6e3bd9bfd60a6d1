//! A count of the judge's steps on this thread (words read, phrase starts tried, values
//! compared, pending elements checked), so a test can bound the work an answer costs without
//! timing it: the count is deterministic, the clock is not.

use std::cell::Cell;

thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Counts `n` steps.
pub fn step(n: usize) {
    STEPS.with(|steps| steps.set(steps.get().saturating_add(n as u64)));
}

/// Runs `f` and returns what it returned with the steps it took.
pub fn counted<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = STEPS.with(Cell::get);
    let result = f();
    (result, STEPS.with(Cell::get).saturating_sub(before))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_counted_inside_and_not_outside() {
        step(5);
        let ((), steps) = counted(|| step(3));
        assert_eq!(steps, 3);
    }
}
