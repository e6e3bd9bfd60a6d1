//! The audit's listing: the plans read from the stored sessions, and what else was read on
//! the way.

use serde::Serialize;
use viva_core::audit::{PlanRow, UserShown, plan_row};
use viva_core::checkpoint::SessionCheckpoint;

/// The plans found, and what else was read on the way.
#[derive(Debug, Default, Serialize)]
pub struct Listing {
    /// The most recently active plans, newest first.
    pub plans: Vec<PlanRow>,
    /// Sessions read.
    pub sessions_read: usize,
    /// Assessments read (not plans, so not listed).
    pub assessments_left_out: usize,
    /// Sessions that could not be decoded (each reported on stderr).
    pub unreadable: usize,
}

impl Listing {
    /// Takes one checkpoint (or the reason it could not be read) into the listing.
    pub fn take(&mut self, key: &str, read: Result<SessionCheckpoint, String>, shown: UserShown) {
        let checkpoint = match read {
            Ok(checkpoint) => checkpoint,
            Err(err) => {
                self.unreadable += 1;
                eprintln!("warning: session {key} is unreadable: {err}");
                return;
            }
        };
        self.sessions_read += 1;
        match plan_row(&checkpoint, shown) {
            Some(row) => self.plans.push(row),
            None => self.assessments_left_out += 1,
        }
    }
}
