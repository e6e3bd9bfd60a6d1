//! What each decoding thread is doing, so that a final transcript arriving while every thread
//! is busy can preempt a partial (a preview nobody waits for) instead of queueing behind it.
//! A preempted preview reports `Aborted`; the session asks for another one later.
//!
//! Each thread stands for one core. A final that starts while other threads are idle and
//! nothing waits borrows their cores and decodes on several threads (a lone turn is then
//! decoded about twice as fast on two cores); a thread whose core is lent waits for it before
//! starting its next job, so the cores are never oversubscribed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use viva_core::voice::DecodeKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Doing {
    Idle,
    Final,
    Partial,
    /// A partial told to stop.
    Preempted,
    /// Idle, its core lent to the final running on thread `.0`.
    Lent(usize),
}

/// The most threads one decode runs on: whisper gains little beyond four on a short clip.
pub const MAX_THREADS_PER_DECODE: usize = 4;

/// A job's place on the cores: the flag that preempts it and how many threads it may use.
#[derive(Debug)]
pub struct Begun {
    /// Set when a final needs this thread's core back (partials only).
    pub preempt: Arc<AtomicBool>,
    /// Threads the decode may run on: its own, plus the cores lent to it.
    pub threads: usize,
}

#[derive(Debug)]
struct Slot {
    doing: Doing,
    preempt: Arc<AtomicBool>,
}

/// One slot per decoding thread.
#[derive(Debug)]
pub struct Slots {
    slots: Mutex<Vec<Slot>>,
    /// Whether idle cores are lent to finals.
    lend: bool,
    /// Signalled when lent cores are given back.
    returned: Condvar,
}

impl Slots {
    /// `workers` idle slots, lending their cores to finals if `lend`.
    pub fn new(workers: usize, lend: bool) -> Slots {
        let slots = (0..workers)
            .map(|_| Slot {
                doing: Doing::Idle,
                preempt: Arc::new(AtomicBool::new(false)),
            })
            .collect();
        Slots {
            slots: Mutex::new(slots),
            lend,
            returned: Condvar::new(),
        }
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, Vec<Slot>> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Thread `worker` starts a job of `kind`, first waiting for its core if it is lent. A
    /// final borrows the idle threads' cores unless `others_waiting()` (jobs queued for them),
    /// asked once the core is back, so a job queued during the wait is seen (it runs under
    /// this lock, so it must not take it; the queue's lock is never held while taking this
    /// one). The preemption
    /// flag is cleared here, under the lock, so a preemption meant for an earlier job never
    /// leaks.
    pub fn begin(
        &self,
        worker: usize,
        kind: DecodeKind,
        others_waiting: impl FnOnce() -> bool,
    ) -> Begun {
        let mut slots = self.slots();
        while matches!(
            slots.get(worker),
            Some(Slot {
                doing: Doing::Lent(_),
                ..
            })
        ) {
            slots = self
                .returned
                .wait(slots)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let Some(slot) = slots.get_mut(worker) else {
            return Begun {
                preempt: Arc::new(AtomicBool::new(false)),
                threads: 1,
            };
        };
        slot.preempt.store(false, Ordering::Relaxed);
        slot.doing = match kind {
            DecodeKind::Final => Doing::Final,
            DecodeKind::Partial | DecodeKind::Speculative => Doing::Partial,
        };
        let preempt = slot.preempt.clone();
        let lent = match self.lend && kind == DecodeKind::Final && !others_waiting() {
            true => lend_idle_cores(&mut slots, worker),
            false => 0,
        };
        Begun {
            preempt,
            threads: 1 + lent,
        }
    }

    /// Thread `worker` finished its job and gives back the cores lent to it.
    pub fn end(&self, worker: usize) {
        let mut slots = self.slots();
        for slot in slots.iter_mut() {
            if slot.doing == Doing::Lent(worker) {
                slot.doing = Doing::Idle;
            }
        }
        if let Some(slot) = slots.get_mut(worker) {
            slot.doing = Doing::Idle;
        }
        self.returned.notify_all();
    }

    /// Whether a partial may take a thread: one is idle, and with several threads, another
    /// stays idle for a final that may come (whisper cannot stop a running encoder, so a
    /// partial on the last idle thread would delay that final by a whole decode).
    pub fn has_room_for_partial(&self) -> bool {
        let slots = self.slots();
        let idle = slots
            .iter()
            .filter(|slot| slot.doing == Doing::Idle)
            .count();
        let spare = if slots.len() > 1 { 1 } else { 0 };
        idle > spare
    }

    /// A final was queued: when no thread is idle, stops one running partial. Returns
    /// whether one was stopped.
    pub fn make_room_for_final(&self) -> bool {
        let mut slots = self.slots();
        if slots.iter().any(|slot| slot.doing == Doing::Idle) {
            return false;
        }
        let Some(slot) = slots.iter_mut().find(|slot| slot.doing == Doing::Partial) else {
            return false;
        };
        slot.preempt.store(true, Ordering::Relaxed);
        slot.doing = Doing::Preempted;
        true
    }
}

/// Marks idle threads as lending their cores to `borrower`, up to
/// [`MAX_THREADS_PER_DECODE`] threads in all; returns how many were lent.
fn lend_idle_cores(slots: &mut [Slot], borrower: usize) -> usize {
    let idle = slots.iter_mut().filter(|slot| slot.doing == Doing::Idle);
    let mut lent = 0;
    for slot in idle.take(MAX_THREADS_PER_DECODE - 1) {
        slot.doing = Doing::Lent(borrower);
        lent += 1;
    }
    lent
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_final_preempts_a_partial_only_when_every_thread_is_busy() {
        let slots = Slots::new(2, true);
        assert!(slots.has_room_for_partial(), "both threads idle");
        let partial = slots.begin(0, DecodeKind::Partial, || false).preempt;
        assert!(
            !slots.has_room_for_partial(),
            "the last idle thread is kept for finals"
        );
        assert!(!slots.make_room_for_final(), "thread 1 is idle");
        let final_flag = slots.begin(1, DecodeKind::Final, || false).preempt;
        assert!(slots.make_room_for_final());
        assert!(partial.load(Ordering::Relaxed));
        assert!(
            !final_flag.load(Ordering::Relaxed),
            "finals are never preempted"
        );
        assert!(
            !slots.make_room_for_final(),
            "that partial is already stopping"
        );
    }

    #[test]
    fn a_single_thread_takes_a_partial_when_idle() {
        let slots = Slots::new(1, true);
        assert!(slots.has_room_for_partial());
        slots.begin(0, DecodeKind::Final, || false);
        assert!(!slots.has_room_for_partial());
        slots.end(0);
        assert!(slots.has_room_for_partial());
    }

    #[test]
    fn a_preemption_does_not_leak_into_the_next_job() {
        let slots = Slots::new(1, true);
        slots.begin(0, DecodeKind::Partial, || false);
        assert!(slots.make_room_for_final());
        slots.end(0);
        let next = slots.begin(0, DecodeKind::Final, || false).preempt;
        assert!(!next.load(Ordering::Relaxed));
        assert!(!slots.make_room_for_final(), "a final is running");
    }

    #[test]
    fn a_lone_final_borrows_the_idle_cores_and_gives_them_back() {
        let slots = Slots::new(3, true);
        assert_eq!(slots.begin(0, DecodeKind::Final, || false).threads, 3);
        assert!(!slots.has_room_for_partial(), "every core is decoding");
        slots.end(0);
        assert!(slots.has_room_for_partial());
        assert_eq!(slots.begin(1, DecodeKind::Final, || false).threads, 3);
    }

    #[test]
    fn nothing_is_lent_to_previews_or_while_jobs_wait() {
        let slots = Slots::new(2, true);
        assert_eq!(slots.begin(0, DecodeKind::Final, || true).threads, 1);
        slots.end(0);
        assert_eq!(slots.begin(0, DecodeKind::Speculative, || false).threads, 1);
        assert_eq!(slots.begin(1, DecodeKind::Final, || false).threads, 1);
    }

    #[test]
    fn nothing_is_lent_when_lending_is_off() {
        let slots = Slots::new(2, false);
        assert_eq!(slots.begin(0, DecodeKind::Final, || false).threads, 1);
        // Thread 1 kept its core: it starts at once (it would wait here had it been lent).
        assert_eq!(slots.begin(1, DecodeKind::Final, || false).threads, 1);
    }

    #[test]
    fn one_decode_takes_at_most_four_threads() {
        let slots = Slots::new(6, true);
        assert_eq!(
            slots.begin(0, DecodeKind::Final, || false).threads,
            MAX_THREADS_PER_DECODE
        );
        assert!(slots.has_room_for_partial(), "two threads are still idle");
    }

    #[test]
    fn a_thread_whose_core_is_lent_waits_for_it() {
        let slots = Arc::new(Slots::new(2, true));
        assert_eq!(slots.begin(0, DecodeKind::Final, || false).threads, 2);
        let (began, on_begin) = std::sync::mpsc::channel();
        let waiting = {
            let slots = slots.clone();
            std::thread::spawn(move || {
                let threads = slots.begin(1, DecodeKind::Final, || false).threads;
                began.send(threads).unwrap();
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(on_begin.try_recv().is_err(), "began on a lent core");
        slots.end(0);
        assert_eq!(on_begin.recv().unwrap(), 2, "borrows thread 0 in turn");
        waiting.join().unwrap();
    }

    #[test]
    fn a_job_queued_while_a_core_was_lent_keeps_the_next_final_to_one_thread() {
        let slots = Arc::new(Slots::new(2, true));
        assert_eq!(slots.begin(0, DecodeKind::Final, || false).threads, 2);
        let queued = Arc::new(AtomicBool::new(false));
        let waiting = {
            let (slots, queued) = (slots.clone(), queued.clone());
            std::thread::spawn(move || {
                let others_waiting = || queued.load(Ordering::SeqCst);
                slots.begin(1, DecodeKind::Final, others_waiting).threads
            })
        };
        queued.store(true, Ordering::SeqCst);
        slots.end(0);
        assert_eq!(
            waiting.join().unwrap(),
            1,
            "thread 0 is left for the queued job"
        );
    }
}
