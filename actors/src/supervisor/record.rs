//! The user record: refreshed from the store before each decision and updated by
//! compare-and-set on its version, retrying on a concurrent change from another node.

use viva_protocol::ErrorCode;
use viva_protocol::server::SessionStatus;

use super::actor::{SESSIONS_PER_USER, START_EVENT_IDS, UserSupervisor};
use viva_core::checkpoint::format::{Holder, SessionEntry};
use viva_core::checkpoint::{StoreError, UserRecord};
use viva_core::review::{ElementOutcome, merge_outcomes};
use viva_core::session::lifecycle::Refusal;
use viva_core::session::rules::{SessionLabel, SessionMarks};

/// Compare-and-set attempts before an update gives up (each follows a fresh read).
const UPDATE_ATTEMPTS: usize = 8;

fn unavailable() -> Refusal {
    Refusal::new(
        ErrorCode::StorageUnavailable,
        "the session could not be saved; resend the event",
    )
}

impl UserSupervisor {
    /// Reads the user's record again: another node may have changed it.
    pub(super) async fn refresh_record(&mut self) -> Result<(), Refusal> {
        let loaded = self.deps.session.store.load_user(&self.user_id).await;
        match loaded {
            Ok(record) => {
                self.record = record.unwrap_or_else(|| UserRecord::new(&self.user_id));
                Ok(())
            }
            Err(err) => {
                tracing::error!(user = %self.user_id, %err, "user record not read");
                Err(unavailable())
            }
        }
    }

    /// Applies `change` to the record and writes it by compare-and-set; on a concurrent
    /// change, reads the record again and re-applies. Returns what `change` returned on the
    /// attempt that was written.
    pub(super) async fn update_record<T>(
        &mut self,
        mut change: impl FnMut(&mut UserRecord) -> T,
    ) -> Result<T, Refusal> {
        for _ in 0..UPDATE_ATTEMPTS {
            let mut next = self.record.clone();
            let outcome = change(&mut next);
            next.version = self.record.version + 1;
            match self.deps.session.store.save_user(&next).await {
                Ok(()) => {
                    self.record = next;
                    return Ok(outcome);
                }
                Err(StoreError::Conflict { .. }) => self.refresh_record().await?,
                Err(err) => {
                    tracing::error!(user = %self.user_id, %err, "user record not saved");
                    return Err(unavailable());
                }
            }
        }
        tracing::error!(user = %self.user_id, "user record kept changing; update abandoned");
        Err(Refusal::new(
            ErrorCode::Overloaded,
            "too many concurrent changes to this user's sessions; retry",
        ))
    }

    /// Refuses a start beyond the per-minute or open-session limits.
    pub(super) fn check_limits(&mut self, now: tokio::time::Instant) -> Result<(), Refusal> {
        let minute = std::time::Duration::from_secs(60);
        while self
            .recent_starts
            .front()
            .is_some_and(|at| now.duration_since(*at) >= minute)
        {
            self.recent_starts.pop_front();
        }
        let limits = self.deps.limits;
        if self.recent_starts.len() >= limits.starts_per_minute as usize {
            let message = format!(
                "at most {} sessions may be started per minute",
                limits.starts_per_minute
            );
            return Err(Refusal::new(ErrorCode::RateLimited, message));
        }
        let open = self.record.sessions.iter().filter(|e| e.is_open()).count();
        if open >= limits.open_sessions as usize {
            let message = format!(
                "at most {} sessions may be open at once; end or finish one",
                limits.open_sessions
            );
            return Err(Refusal::new(ErrorCode::RateLimited, message));
        }
        self.recent_starts.push_back(now);
        Ok(())
    }
}

/// Lists a session in the record with its status, dropping the oldest finished ones beyond
/// the bound.
pub(super) fn note_session(record: &mut UserRecord, session_id: &str, status: SessionStatus) {
    match record
        .sessions
        .iter_mut()
        .find(|entry| entry.session_id == session_id)
    {
        Some(entry) => entry.status = status,
        None => record.sessions.push(SessionEntry {
            session_id: session_id.to_owned(),
            status,
            evaluation: false,
            mode: None,
            title: None,
        }),
    }
    while record.sessions.len() > SESSIONS_PER_USER {
        let oldest_finished = record.sessions.iter().position(SessionEntry::is_finished);
        record.sessions.remove(oldest_finished.unwrap_or(0));
    }
}

/// Notes a finished session (completed or abandoned): its status, the active session
/// released if it was this one, and its outcomes merged into the user's element history
/// (`viva_core::review`) and last scores (still written for nodes of earlier versions).
/// Applying it twice, as a compare-and-set retry or a repeated report does, changes nothing
/// more.
pub(super) fn note_finished(
    record: &mut UserRecord,
    session_id: &str,
    status: SessionStatus,
    outcomes: &[ElementOutcome],
) {
    merge_outcomes(&mut record.element_history, outcomes);
    for outcome in outcomes {
        if let Some(entry) = record.element_history.get(&outcome.element) {
            let score = entry.last_outcome.as_str().to_owned();
            record.element_scores.insert(outcome.element.clone(), score);
        }
    }
    record.release(session_id);
    note_session(record, session_id, status);
}

/// Remembers which session a `session.start` event id created, keeping the latest few (a
/// reused id now means the new session).
pub(super) fn note_start_event(record: &mut UserRecord, event_id: Option<&str>, session_id: &str) {
    let Some(event_id) = event_id else { return };
    record.start_event_ids.retain(|(seen, _)| seen != event_id);
    record
        .start_event_ids
        .push((event_id.to_owned(), session_id.to_owned()));
    let excess = record.start_event_ids.len().saturating_sub(START_EVENT_IDS);
    record.start_event_ids.drain(..excess);
}

/// The session a repeated `session.start` created, while it is still open (active or
/// paused): a resent start gets that session back. Once it has completed or been abandoned,
/// the same event id starts a new session (clients reuse ids such as "s1" across exams).
pub(super) fn repeated_open_start(record: &UserRecord, event_id: Option<&str>) -> Option<String> {
    let event_id = event_id?;
    let (_, session_id) = record
        .start_event_ids
        .iter()
        .find(|(seen, _)| seen == event_id)?;
    let open = record
        .sessions
        .iter()
        .any(|entry| entry.session_id == *session_id && entry.is_open());
    open.then(|| session_id.clone())
}

/// Makes `session_id` the user's active exam on `node`; returns the previous holder.
/// Labels `session_id` in the record.
pub(super) fn label_session(record: &mut UserRecord, session_id: &str, label: &SessionLabel) {
    if let Some(entry) = record
        .sessions
        .iter_mut()
        .find(|e| e.session_id == session_id)
    {
        entry.evaluation = label.marks.evaluation;
        entry.mode = Some(label.mode);
        entry.title = Some(label.title.clone());
    }
}

/// The marks of the user's open sessions (active or paused), for the rules that span them.
pub(super) fn open_marks(record: &UserRecord) -> impl Iterator<Item = SessionMarks> + '_ {
    let open = record.sessions.iter().filter(|e| e.is_open());
    open.map(|entry| SessionMarks {
        evaluation: entry.evaluation,
        coaching: false,
    })
}

pub(super) fn take_active(record: &mut UserRecord, session_id: &str, node: &str) -> Option<Holder> {
    let previous = record.hold(session_id, node);
    note_session(record, session_id, SessionStatus::Active);
    previous
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_evaluation_is_noted_until_it_finishes() {
        let mut record = UserRecord::new("u");
        let evaluation_open = |record: &UserRecord| open_marks(record).any(|m| m.evaluation);
        take_active(&mut record, "exam", "n");
        assert!(!evaluation_open(&record));
        take_active(&mut record, "eval", "n");
        let label = SessionLabel {
            mode: viva_protocol::Mode::Assessment,
            title: "Math (evaluation)".into(),
            marks: SessionMarks {
                evaluation: true,
                coaching: false,
            },
        };
        label_session(&mut record, "eval", &label);
        assert_eq!(
            record.sessions[1].title.as_deref(),
            Some("Math (evaluation)")
        );
        assert!(evaluation_open(&record));
        note_session(&mut record, "eval", SessionStatus::Paused);
        assert!(evaluation_open(&record), "paused is still open");
        note_session(&mut record, "eval", SessionStatus::Completed);
        assert!(!evaluation_open(&record));
    }

    #[test]
    fn taking_the_active_exam_reports_the_previous_holder() {
        let mut record = UserRecord::new("u");
        assert_eq!(take_active(&mut record, "s1", "n1"), None);
        let previous = take_active(&mut record, "s2", "n2");
        let expected = Holder {
            session_id: "s1".into(),
            node: Some("n1".into()),
        };
        assert_eq!(previous, Some(expected));
        assert_eq!(record.active_session.as_deref(), Some("s2"));
        assert_eq!(record.active_node.as_deref(), Some("n2"));
        assert_eq!(record.sessions.len(), 2);
    }

    #[test]
    fn a_repeated_start_means_its_session_only_while_it_is_open() {
        let mut record = UserRecord::new("u");
        note_start_event(&mut record, Some("s1"), "a");
        take_active(&mut record, "a", "n");
        assert_eq!(repeated_open_start(&record, Some("s1")), Some("a".into()));
        assert_eq!(repeated_open_start(&record, Some("s2")), None);
        assert_eq!(repeated_open_start(&record, None), None);
        note_session(&mut record, "a", SessionStatus::Paused);
        assert_eq!(repeated_open_start(&record, Some("s1")), Some("a".into()));
        for finished in [SessionStatus::Completed, SessionStatus::Abandoned] {
            note_session(&mut record, "a", finished);
            assert_eq!(repeated_open_start(&record, Some("s1")), None);
        }
    }

    #[test]
    fn a_reused_start_event_id_names_the_newest_session() {
        let mut record = UserRecord::new("u");
        note_start_event(&mut record, Some("s1"), "a");
        note_start_event(&mut record, Some("s1"), "b");
        take_active(&mut record, "b", "n");
        assert_eq!(record.start_event_ids, vec![("s1".into(), "b".into())]);
        assert_eq!(repeated_open_start(&record, Some("s1")), Some("b".into()));
    }

    #[test]
    fn start_event_ids_are_bounded() {
        let mut record = UserRecord::new("u");
        for n in 0..START_EVENT_IDS + 5 {
            note_start_event(&mut record, Some(&format!("e{n}")), "s");
        }
        note_start_event(&mut record, None, "s");
        assert_eq!(record.start_event_ids.len(), START_EVENT_IDS);
        assert_eq!(record.start_event_ids[0].0, "e5");
    }

    #[test]
    fn a_finished_session_merges_its_outcomes_into_the_history_once() {
        use viva_core::review::{DAY_MS, Recall, SECOND_INTERVAL_MS};
        let t0 = 1_765_000_000_000;
        let outcome = |element: &str, recall, at_ms| ElementOutcome {
            element: element.into(),
            recall,
            at_ms,
        };
        let mut record = UserRecord::new("u");
        record
            .element_scores
            .insert("PA.II.A.K1".into(), "partial".into());
        take_active(&mut record, "first", "n");
        let first = [
            outcome("PA.I.A.K1", Recall::Satisfactory, t0),
            outcome("PA.I.A.K2", Recall::Unsatisfactory, t0 + 60_000),
        ];
        note_finished(&mut record, "first", SessionStatus::Completed, &first);
        let once = record.clone();
        note_finished(&mut record, "first", SessionStatus::Completed, &first);
        assert_eq!(record, once, "a repeated report changes nothing");
        assert_eq!(record.active_session, None, "released");
        assert_eq!(record.sessions[0].status, SessionStatus::Completed);
        let k1 = record.element_history["PA.I.A.K1"];
        assert_eq!(
            (k1.streak, k1.interval_ms, k1.due_ms),
            (1, DAY_MS, t0 + DAY_MS)
        );
        let k2 = record.element_history["PA.I.A.K2"];
        assert_eq!(
            (k2.last_outcome, k2.due_ms),
            (Recall::Unsatisfactory, t0 + 60_000)
        );
        assert_eq!(record.element_scores["PA.I.A.K2"], "unsatisfactory");
        assert_eq!(
            record.element_scores["PA.II.A.K1"], "partial",
            "older scores stay"
        );
        take_active(&mut record, "second", "n");
        let later = [outcome("PA.I.A.K1", Recall::Satisfactory, t0 + 2 * DAY_MS)];
        note_finished(&mut record, "second", SessionStatus::Abandoned, &later);
        let k1 = record.element_history["PA.I.A.K1"];
        assert_eq!((k1.streak, k1.interval_ms), (2, SECOND_INTERVAL_MS));
        assert_eq!(k1.due_ms, t0 + 2 * DAY_MS + SECOND_INTERVAL_MS);
        assert_eq!(record.element_history.len(), 2);
    }

    #[test]
    fn the_oldest_finished_session_is_dropped_first() {
        let mut record = UserRecord::new("u");
        note_session(&mut record, "open", SessionStatus::Paused);
        note_session(&mut record, "done", SessionStatus::Completed);
        for n in 0..SESSIONS_PER_USER - 1 {
            note_session(&mut record, &format!("s{n}"), SessionStatus::Completed);
        }
        assert_eq!(record.sessions.len(), SESSIONS_PER_USER);
        assert_eq!(record.sessions[0].session_id, "open");
        assert!(record.sessions.iter().all(|e| e.session_id != "done"));
    }
}
