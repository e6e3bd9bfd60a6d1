//! The decoding queue: bounded, two priorities. Final transcripts (a finished turn, which a
//! candidate waits for) always go before partials (a live preview, which may be dropped).
//! Workers block on it; submitters never do.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, PoisonError};

/// Why a job was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum QueueFull {
    /// As many finals are waiting as the queue holds: the server is overloaded.
    #[error("{waiting} final transcripts are already waiting")]
    Finals {
        /// How many.
        waiting: usize,
    },
    /// Partials are full; this preview is skipped (the next one will come).
    #[error("partial transcripts are full")]
    Partials,
}

#[derive(Debug)]
struct Lanes<T> {
    finals: VecDeque<T>,
    partials: VecDeque<T>,
    closed: bool,
}

/// A bounded two-lane queue.
#[derive(Debug)]
pub struct JobQueue<T> {
    lanes: Mutex<Lanes<T>>,
    ready: Condvar,
    final_capacity: usize,
    partial_capacity: usize,
}

impl<T> JobQueue<T> {
    /// A queue holding at most `final_capacity` finals and `partial_capacity` partials.
    pub fn new(final_capacity: usize, partial_capacity: usize) -> JobQueue<T> {
        JobQueue {
            lanes: Mutex::new(Lanes {
                finals: VecDeque::new(),
                partials: VecDeque::new(),
                closed: false,
            }),
            ready: Condvar::new(),
            final_capacity,
            partial_capacity,
        }
    }

    fn lanes(&self) -> std::sync::MutexGuard<'_, Lanes<T>> {
        // A panic while holding this lock leaves the deques intact; keep serving.
        self.lanes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a job without waiting.
    pub fn push(&self, job: T, is_final: bool) -> Result<(), QueueFull> {
        let mut lanes = self.lanes();
        if is_final {
            if lanes.finals.len() >= self.final_capacity {
                let waiting = lanes.finals.len();
                return Err(QueueFull::Finals { waiting });
            }
            lanes.finals.push_back(job);
        } else {
            if lanes.partials.len() >= self.partial_capacity {
                return Err(QueueFull::Partials);
            }
            lanes.partials.push_back(job);
        }
        drop(lanes);
        self.ready.notify_one();
        Ok(())
    }

    /// The next job, finals first; blocks while empty. `None` once closed and drained.
    pub fn pop(&self) -> Option<T> {
        let mut lanes = self.lanes();
        loop {
            if let Some(job) = lanes.finals.pop_front() {
                return Some(job);
            }
            if let Some(job) = lanes.partials.pop_front() {
                return Some(job);
            }
            if lanes.closed {
                return None;
            }
            lanes = self
                .ready
                .wait(lanes)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Jobs waiting, finals and partials.
    pub fn depth(&self) -> (usize, usize) {
        let lanes = self.lanes();
        (lanes.finals.len(), lanes.partials.len())
    }

    /// Wakes every worker; `pop` returns `None` once the queue is empty.
    pub fn close(&self) {
        self.lanes().closed = true;
        self.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finals_go_first_and_each_lane_is_bounded() {
        let queue = JobQueue::new(2, 1);
        queue.push("p1", false).unwrap();
        assert_eq!(queue.push("p2", false), Err(QueueFull::Partials));
        queue.push("f1", true).unwrap();
        queue.push("f2", true).unwrap();
        assert_eq!(
            queue.push("f3", true),
            Err(QueueFull::Finals { waiting: 2 })
        );
        assert_eq!(queue.depth(), (2, 1));
        let order: Vec<_> =
            std::iter::from_fn(|| (queue.depth() != (0, 0)).then(|| queue.pop()).flatten())
                .collect();
        assert_eq!(order, ["f1", "f2", "p1"]);
    }

    #[test]
    fn closing_wakes_a_blocked_worker() {
        let queue = std::sync::Arc::new(JobQueue::<u8>::new(1, 1));
        let worker = {
            let queue = queue.clone();
            std::thread::spawn(move || queue.pop())
        };
        std::thread::sleep(std::time::Duration::from_millis(20));
        queue.close();
        assert_eq!(worker.join().unwrap(), None);
    }
}
