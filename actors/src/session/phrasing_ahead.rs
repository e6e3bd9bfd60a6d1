//! The question phrased ahead while the candidate answers, and the examiner's call phrasing
//! it (stopped when dropped); `question_speculation` starts and reads it.

use viva_core::session::ahead::QuestionAhead;

/// The question phrased ahead, and the examiner's call while it runs.
#[derive(Default)]
pub(super) struct PhrasingAhead {
    pub(super) question: QuestionAhead,
    pub(super) call: Option<Call>,
}

/// The examiner's call; stopped when dropped.
pub(super) struct Call(pub(super) tokio::task::JoinHandle<()>);

impl Drop for Call {
    fn drop(&mut self) {
        self.0.abort();
    }
}
