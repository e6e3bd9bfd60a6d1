//! `QuestionAhead`: the question a slow examiner phrases ahead while the candidate answers
//! (the session's likely next question), and what it offers the question asked next. Pure:
//! the session makes the examiner's call and stops it when this says the draft is dropped.
//!
//! Words phrased ahead are used only for the same question number phrased alike
//! ([`QuestionRequest::phrased_alike`]); a follow-up, a bonus or mention credit takes its
//! place and they are dropped. Their words are never shown before they are asked.
//!
//! [`QuestionRequest::phrased_alike`]: crate::examiner::QuestionRequest::phrased_alike

use crate::examiner::{Examined, QuestionDraft};

/// The question phrased ahead, if any.
#[derive(Debug, Default)]
pub struct QuestionAhead {
    ahead: Option<Ahead>,
}

#[derive(Debug)]
struct Ahead {
    /// What it is phrased for.
    draft: QuestionDraft,
    /// The words, once the examiner returned them.
    words: Option<Examined<String>>,
}

impl Ahead {
    /// Whether its words fit `draft`: the same question number, phrased alike.
    fn fits(&self, draft: &QuestionDraft) -> bool {
        self.draft.number == draft.number && self.draft.request.phrased_alike(&draft.request)
    }
}

/// What the question phrased ahead offers the question about to be phrased.
#[derive(Debug, Clone, PartialEq)]
pub enum Offer {
    /// Its words, to ask now.
    Ready(Examined<String>),
    /// They are being phrased: they will come to [`QuestionAhead::phrased`].
    Coming,
    /// It was phrased for another question and is dropped (stop its call): phrase now.
    Missed,
    /// Nothing was phrased ahead: phrase now.
    Nothing,
}

impl QuestionAhead {
    /// The question likely asked next is `draft`: `true` when it is to be phrased now (the
    /// call for an earlier draft, if any, is stopped); `false` when what is phrased, or
    /// being phrased, fits it already.
    pub fn begin(&mut self, draft: QuestionDraft) -> bool {
        if self.ahead.as_ref().is_some_and(|ahead| ahead.fits(&draft)) {
            return false;
        }
        self.ahead = Some(Ahead { draft, words: None });
        true
    }

    /// Words phrased ahead for question `number` came back: kept, and `true`, when they are
    /// the ones awaited (a question may be waiting for them).
    pub fn phrased(&mut self, number: u32, words: Examined<String>) -> bool {
        let awaited = |ahead: &&mut Ahead| ahead.draft.number == number && ahead.words.is_none();
        let Some(ahead) = self.ahead.as_mut().filter(awaited) else {
            return false;
        };
        ahead.words = Some(words);
        true
    }

    /// What is phrased ahead offers the question `draft` the session is about to phrase;
    /// what does not fit is dropped, and words taken are forgotten.
    pub fn offer(&mut self, draft: &QuestionDraft) -> Offer {
        let Some(ahead) = self.ahead.as_mut() else {
            return Offer::Nothing;
        };
        if !ahead.fits(draft) {
            tracing::debug!(
                speculated = ?ahead.draft.request,
                asked = ?draft.request,
                "the question phrased ahead was not the one asked"
            );
            self.ahead = None;
            return Offer::Missed;
        }
        let Some(words) = ahead.words.take() else {
            return Offer::Coming;
        };
        self.ahead = None;
        Offer::Ready(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::acs::Rating;
    use crate::exam::types::{QuestionDifficulty, QuestionKind};
    use crate::examiner::QuestionRequest;

    /// One event: the likely next question is phrased ahead, its words come back, or the
    /// session asks for a question. A question is its number and element.
    enum Step {
        Begin(u32, &'static str),
        Phrased(u32, &'static str),
        Ask(u32, &'static str),
    }
    use Step::*;

    fn draft(number: u32, element_code: &str) -> QuestionDraft {
        QuestionDraft {
            planner_index: None,
            request: QuestionRequest {
                rating: Rating::Private,
                element_code: element_code.to_owned(),
                kind: QuestionKind::Primary,
                difficulty: QuestionDifficulty::Medium,
                missing_terms: Vec::new(),
                previous: None,
            },
            number,
        }
    }

    /// Runs `script`, one line per step: `phrase`, `-`, `kept`, or the offer.
    fn check(script: &[Step], expected: &str) {
        let mut ahead = QuestionAhead::default();
        let got: Vec<String> = script
            .iter()
            .map(|step| match *step {
                Begin(number, code) => match ahead.begin(draft(number, code)) {
                    true => "phrase".into(),
                    false => "-".into(),
                },
                Phrased(number, words) => {
                    match ahead.phrased(number, Examined::offline(words.to_owned())) {
                        true => "kept".into(),
                        false => "-".into(),
                    }
                }
                Ask(number, code) => match ahead.offer(&draft(number, code)) {
                    Offer::Ready(words) => format!("ready {:?}", words.value),
                    offer => format!("{offer:?}").to_lowercase(),
                },
            })
            .collect();
        let expected: Vec<&str> = expected.split(',').map(str::trim).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn words_phrased_ahead_are_asked_once() {
        check(
            &[
                Begin(2, "PA.I.A.K1"),
                Phrased(2, "What is..."),
                Ask(2, "PA.I.A.K1"),
                Ask(2, "PA.I.A.K1"),
            ],
            r#"phrase, kept, ready "What is...", nothing"#,
        );
    }

    #[test]
    fn a_question_asked_before_its_words_come_waits_for_them() {
        check(
            &[
                Begin(2, "PA.I.A.K1"),
                Ask(2, "PA.I.A.K1"),
                Phrased(2, "What is..."),
                Ask(2, "PA.I.A.K1"),
            ],
            r#"phrase, coming, kept, ready "What is...""#,
        );
    }

    #[test]
    fn the_same_draft_is_phrased_once() {
        check(
            &[
                Begin(2, "PA.I.A.K1"),
                Begin(2, "PA.I.A.K1"),
                Phrased(2, "What is..."),
                Begin(2, "PA.I.A.K1"),
            ],
            "phrase, -, kept, -",
        );
    }

    #[test]
    fn another_question_asked_drops_the_words_phrased_ahead() {
        check(
            &[
                Begin(2, "PA.I.A.K1"),
                Phrased(2, "What is..."),
                Ask(2, "PA.I.B.K1"),
                Ask(2, "PA.I.A.K1"),
            ],
            "phrase, kept, missed, nothing",
        );
        check(
            &[Begin(2, "PA.I.A.K1"), Ask(3, "PA.I.A.K1")],
            "phrase, missed",
        );
    }

    #[test]
    fn a_new_likely_question_replaces_the_draft_and_its_late_words() {
        check(
            &[
                Begin(2, "PA.I.A.K1"),
                Begin(3, "PA.I.B.K1"),
                Phrased(2, "What is..."),
                Phrased(3, "How does..."),
                Phrased(3, "again"),
                Ask(3, "PA.I.B.K1"),
            ],
            r#"phrase, phrase, -, kept, -, ready "How does...""#,
        );
    }

    #[test]
    fn nothing_phrased_ahead_offers_nothing() {
        check(
            &[Phrased(2, "What is..."), Ask(2, "PA.I.A.K1")],
            "-, nothing",
        );
    }
}
