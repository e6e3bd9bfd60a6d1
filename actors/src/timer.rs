//! The actors' one timer idiom: a task that tells an actor a message after a wait, or every
//! period, for as long as the actor lives. A [`Timer`] cancels its task when dropped, so
//! replacing or clearing the field that holds it is all it takes to stop it.

use std::time::Duration;

use kameo::Actor;
use kameo::actor::WeakActorRef;
use kameo::message::Message;
use tokio::task::JoinHandle;

/// A pending tell; dropping it cancels it.
#[derive(Debug)]
pub struct Timer(JoinHandle<()>);

impl Drop for Timer {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Tells `actor` `message` once, after `wait`; nothing if the actor has stopped by then.
pub fn tell_after<A, M>(actor: WeakActorRef<A>, wait: Duration, message: M) -> Timer
where
    A: Actor + Message<M>,
    M: Send + 'static,
{
    Timer(tokio::spawn(async move {
        tokio::time::sleep(wait).await;
        if let Some(actor) = actor.upgrade() {
            // ignore: an actor that stopped meanwhile wants no message.
            let _ = actor.tell(message).await;
        }
    }))
}

/// Tells `actor` a message made by `message` every `period` (the first after one period;
/// a late tick waits a whole period again), until the actor stops or the timer is dropped.
pub fn tell_every<A, M>(
    actor: WeakActorRef<A>,
    period: Duration,
    message: impl Fn() -> M + Send + 'static,
) -> Timer
where
    A: Actor + Message<M>,
    M: Send + 'static,
{
    Timer(tokio::spawn(async move {
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        loop {
            ticks.tick().await;
            let Some(actor) = actor.upgrade() else { return };
            if actor.tell(message()).await.is_err() {
                return;
            }
        }
    }))
}
