//! A slow examiner's call (or a mode's own call) under way off the mailbox: what it is for,
//! and how the actor mutes or stops it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use viva_core::session::mode::{CallFuture, EventSink};
use viva_core::session::state::Work;

/// A mode's call, ready to run off the mailbox.
pub(super) type RunCall = Box<dyn FnOnce(EventSink) -> CallFuture + Send>;

/// A slow examiner's call under way.
pub(super) struct InFlight {
    pub(super) work: Work,
    /// Set when the device that would see the question being written loses the session.
    pub(super) muted: Arc<AtomicBool>,
    pub(super) task: tokio::task::JoinHandle<()>,
}

impl InFlight {
    /// No more `question.delta` pieces go to the device.
    pub(super) fn mute(&self) {
        self.muted.store(true, Ordering::Relaxed);
    }

    /// Stops the call (the actor is stopping).
    pub(super) fn abort(self) {
        self.task.abort();
    }
}
