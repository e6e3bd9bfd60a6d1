//! What each decoding thread is doing, so that a final transcript arriving while every thread
//! is busy can preempt a partial (a preview nobody waits for) instead of queueing behind it.
//! A preempted preview reports `Aborted`; the session asks for another one later.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use viva_core::voice::DecodeKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Doing {
    Idle,
    Final,
    Partial,
    /// A partial told to stop.
    Preempted,
}

#[derive(Debug)]
struct Slot {
    doing: Doing,
    preempt: Arc<AtomicBool>,
}

/// One slot per decoding thread.
#[derive(Debug)]
pub struct Slots(Mutex<Vec<Slot>>);

impl Slots {
    /// `workers` idle slots.
    pub fn new(workers: usize) -> Slots {
        let slots = (0..workers)
            .map(|_| Slot {
                doing: Doing::Idle,
                preempt: Arc::new(AtomicBool::new(false)),
            })
            .collect();
        Slots(Mutex::new(slots))
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, Vec<Slot>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Thread `worker` starts a job of `kind`; returns the flag that preempts it. The flag is
    /// cleared here, under the lock, so a preemption meant for an earlier job never leaks.
    pub fn begin(&self, worker: usize, kind: DecodeKind) -> Arc<AtomicBool> {
        let mut slots = self.slots();
        let Some(slot) = slots.get_mut(worker) else {
            return Arc::new(AtomicBool::new(false));
        };
        slot.preempt.store(false, Ordering::Relaxed);
        slot.doing = match kind {
            DecodeKind::Final => Doing::Final,
            DecodeKind::Partial | DecodeKind::Speculative => Doing::Partial,
        };
        slot.preempt.clone()
    }

    /// Thread `worker` finished its job.
    pub fn end(&self, worker: usize) {
        if let Some(slot) = self.slots().get_mut(worker) {
            slot.doing = Doing::Idle;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_final_preempts_a_partial_only_when_every_thread_is_busy() {
        let slots = Slots::new(2);
        assert!(slots.has_room_for_partial(), "both threads idle");
        let partial = slots.begin(0, DecodeKind::Partial);
        assert!(
            !slots.has_room_for_partial(),
            "the last idle thread is kept for finals"
        );
        assert!(!slots.make_room_for_final(), "thread 1 is idle");
        let final_flag = slots.begin(1, DecodeKind::Final);
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
        let slots = Slots::new(1);
        assert!(slots.has_room_for_partial());
        slots.begin(0, DecodeKind::Final);
        assert!(!slots.has_room_for_partial());
        slots.end(0);
        assert!(slots.has_room_for_partial());
    }

    #[test]
    fn a_preemption_does_not_leak_into_the_next_job() {
        let slots = Slots::new(1);
        slots.begin(0, DecodeKind::Partial);
        assert!(slots.make_room_for_final());
        slots.end(0);
        let next = slots.begin(0, DecodeKind::Final);
        assert!(!next.load(Ordering::Relaxed));
        assert!(!slots.make_room_for_final(), "a final is running");
    }
}
