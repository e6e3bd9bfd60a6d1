//! The voice side of a session: its `SpokenTurns`, and the abort flags, ticker and decode
//! count that performing their actions needs (`voice` performs them).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::timer::Timer;
use viva_core::voice::DecodeKind;
use viva_core::voice::listener::Listener;
use viva_core::voice::turn::SpokenTurns;

/// The voice side of a session: its turns, and what performing their actions needs.
pub(super) struct Voice {
    pub(super) turns: SpokenTurns,
    /// Aborts the open turn's partial decodes when the turn closes.
    pub(super) partials: Arc<AtomicBool>,
    /// Aborts the speculative decode last submitted.
    pub(super) speculative: Arc<AtomicBool>,
    /// Counts gaps while a turn is open.
    pub(super) ticker: Option<Timer>,
    /// Cloned into every decode job and its reply: more than one holder means a decode is
    /// queued, running, or its reply not yet handled.
    pub(super) decodes: Arc<()>,
}

impl Voice {
    pub(super) fn new() -> Voice {
        Voice {
            turns: SpokenTurns::new(Listener::new()),
            partials: Arc::new(AtomicBool::new(false)),
            speculative: Arc::new(AtomicBool::new(false)),
            ticker: None,
            decodes: Arc::new(()),
        }
    }

    /// Nothing spoken is under way: no open turn, no decode out or reply unhandled, no
    /// commit being decoded, no reading waiting for a "yes", no speculation.
    pub(super) fn is_quiet(&self) -> bool {
        self.turns.is_quiet() && Arc::strong_count(&self.decodes) == 1
    }

    /// The abort flag a decode of `kind` listens to: a partial stops with its turn, a
    /// speculative decode on its own flag, a final never (its turn is already over).
    pub(super) fn abort_flag(&mut self, kind: DecodeKind) -> Arc<AtomicBool> {
        match kind {
            DecodeKind::Partial => self.partials.clone(),
            DecodeKind::Speculative => {
                self.speculative = Arc::new(AtomicBool::new(false));
                self.speculative.clone()
            }
            DecodeKind::Final => Arc::new(AtomicBool::new(false)),
        }
    }

    pub(super) fn abort_partials(&mut self) {
        self.partials.store(true, Ordering::Relaxed);
        self.partials = Arc::new(AtomicBool::new(false));
    }
}
