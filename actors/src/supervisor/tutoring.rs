//! A new tutoring session: refused while an evaluation-mode assessment is open (a tutor
//! could otherwise coach its answers; a resume of one is refused the same way); else it claims the student's snapshot of the course
//! (a cold start at the entry unit for a new student) and starts from it.

use viva_core::checkpoint::UserRecord;
use viva_core::session::lifecycle::{Lifecycle, Refusal};
use viva_core::session::state::StepContext;
use viva_core::modes::tutor::TutorCore;
use viva_core::modes::tutor::snapshot::{restore_snapshot, snapshot_record};
use viva_core::tutor::snapshot::StudentSnapshot;
use viva_protocol::ErrorCode;

use super::UserSupervisor;
use super::record::evaluation_open;
use crate::stall::ride_out;

impl UserSupervisor {
    /// The tutor of a new session on `course_id`.
    pub(super) async fn tutor_core(
        &self,
        course_id: &str,
        life: &Lifecycle,
        seed: u64,
    ) -> Result<TutorCore, Refusal> {
        refuse_tutoring_during_evaluation(&self.record)?;
        let deps = &self.deps.session;
        let ctx = StepContext {
            acs: &deps.library,
            blueprints: &deps.blueprints,
            tutor: &deps.tutor,
        };
        let entry = match deps.tutor.course(course_id) {
            Some((course, _)) => course.doc.entry_unit.clone(),
            // The core refuses it with the list of courses.
            None => {
                return TutorCore::create(
                    course_id,
                    cold(&self.user_id, course_id, ""),
                    0,
                    seed,
                    ctx,
                );
            }
        };
        let cold = snapshot_record(&cold(&self.user_id, course_id, &entry));
        // A claim repeated in a stall only takes a newer fence.
        let claiming = || {
            deps.snapshots
                .claim_snapshot(&cold, &life.session_id, life.created_at_ms)
        };
        let claim = ride_out(claiming).await.map_err(|err| {
            tracing::error!(user = %self.user_id, %err, "snapshot not claimed");
            Refusal::new(
                ErrorCode::StorageUnavailable,
                "the session could not be started; retry",
            )
        })?;
        let snapshot = restore_snapshot(&claim.stored.snapshot).map_err(|reason| {
            tracing::error!(user = %self.user_id, %reason, "stored snapshot unreadable");
            Refusal::new(ErrorCode::Internal, "the stored progress could not be read")
        })?;
        TutorCore::create(course_id, snapshot, claim.fence, seed, ctx)
    }
}

/// A tutor session may neither start nor be resumed while an evaluation-mode assessment of
/// the user is open (paused included): pausing an evaluation to ask the tutor would coach it.
pub(super) fn refuse_tutoring_during_evaluation(record: &UserRecord) -> Result<(), Refusal> {
    if !evaluation_open(record) {
        return Ok(());
    }
    Err(Refusal::new(
        ErrorCode::EvaluationInProgress,
        "an evaluation assessment is open; finish or end it before tutoring",
    ))
}

fn cold(user_id: &str, course_id: &str, entry: &str) -> StudentSnapshot {
    StudentSnapshot::cold_start(user_id, course_id, entry)
}
