//! Rules that span a user's sessions, as data the seam evaluates: each session is opened
//! with [`SessionMarks`] (what it is, what it may not run beside), the user record keeps
//! them with the session, and [`refuse_beside`] decides a start or a resume from them
//! alone. Today's one rule: a session marked `coachable` (a tutor) neither starts nor
//! resumes while an `evaluation` of the same user is open, paused included.

use viva_protocol::{ErrorCode, Mode};

use crate::base::Refusal;

/// What a session is, for the rules that span sessions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionMarks {
    /// An evaluation: nothing that could coach its answers may run beside it.
    pub evaluation: bool,
    /// Could coach another session's answers (a tutor).
    pub coaching: bool,
}

/// What a new session is, for its user's list and the rules that span sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLabel {
    /// Its mode.
    pub mode: Mode,
    /// Its title: "Private pilot oral exam", "Math fundamentals (evaluation)".
    pub title: String,
    /// Its marks.
    pub marks: SessionMarks,
}

/// Refuses a session marked `wanted` while the user's open sessions, marked `open`, forbid
/// it; `Ok` otherwise.
pub fn refuse_beside(
    wanted: SessionMarks,
    open: impl IntoIterator<Item = SessionMarks>,
) -> Result<(), Refusal> {
    let evaluation_open = open.into_iter().any(|marks| marks.evaluation);
    if wanted.coaching && evaluation_open {
        return Err(Refusal::new(
            ErrorCode::EvaluationInProgress,
            "an evaluation assessment is open; finish or end it before tutoring",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: SessionMarks = SessionMarks {
        evaluation: false,
        coaching: false,
    };
    const EVALUATION: SessionMarks = SessionMarks {
        evaluation: true,
        coaching: false,
    };
    const TUTOR: SessionMarks = SessionMarks {
        evaluation: false,
        coaching: true,
    };

    #[test]
    fn only_a_coaching_session_beside_an_open_evaluation_is_refused() {
        let cases: [(&str, SessionMarks, &[SessionMarks], bool); 6] = [
            ("tutor, nothing open", TUTOR, &[], true),
            ("tutor beside an exam", TUTOR, &[PLAIN], true),
            (
                "tutor beside an evaluation",
                TUTOR,
                &[PLAIN, EVALUATION],
                false,
            ),
            ("exam beside an evaluation", PLAIN, &[EVALUATION], true),
            ("evaluation beside a tutor", EVALUATION, &[TUTOR], true),
            (
                "evaluation beside an evaluation",
                EVALUATION,
                &[EVALUATION],
                true,
            ),
        ];
        for (what, wanted, open, allowed) in cases {
            let got = refuse_beside(wanted, open.iter().copied());
            assert_eq!(got.is_ok(), allowed, "{what}");
            if let Err(refusal) = got {
                assert_eq!(refusal.code, ErrorCode::EvaluationInProgress, "{what}");
            }
        }
    }
}
