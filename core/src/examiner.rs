//! The examiner seam: phrasing questions and assessing answers, behind one small trait.
//!
//! [`EmbeddedExaminer`] is the default: deterministic, offline, built on
//! [`crate::exam::examiner`]. The LLM examiner (`viva-llm`) implements the same trait;
//! whatever it does, it always returns an answer (falling back to the embedded one), so the
//! session never waits on a retry loop. Each answer comes [`Examined`]: with the turn log of
//! the model call behind it, when there was one, for the session's audit and metrics.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::exam::acs::{AcsElement, AcsLibrary, Rating};
use crate::exam::examiner::judge;
use crate::exam::examiner::judge::ReadAnswer;
use crate::exam::examiner::judge::feedback::{DRAWN_OUT, PARTLY_RIGHT_SO_FAR};
use crate::exam::examiner::judge::give_away::is_clean;
use crate::exam::examiner::probe;
use crate::exam::examiner::rubric_exam::{asked, assess_asked, missing_facts, rubric_question};
use crate::exam::examiner::{assess_answer, phrase_question, source_summary};
use crate::exam::types::{QuestionDifficulty, QuestionKind, Score};

pub use viva_protocol::result::ExaminerCall;

/// A boxed future returned by examiner methods.
pub type ExaminerFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the examiner is asked to phrase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionRequest {
    /// The exam's rating.
    pub rating: Rating,
    /// The element to ask about.
    pub element_code: String,
    /// Primary, follow-up or bonus.
    pub kind: QuestionKind,
    /// How demanding to make it.
    pub difficulty: QuestionDifficulty,
    /// For a follow-up: what the last answer did not cover.
    pub missing_terms: Vec<String>,
    /// The turn before this question, if there was one: a primary question bridges from
    /// its topic, a follow-up builds on its answer.
    pub previous: Option<PreviousTurn>,
}

impl QuestionRequest {
    /// Whether words phrased for `self` fit `other` as well: the same question asked of the
    /// same element, after the same question. Only a follow-up is phrased from the previous
    /// answer, so for any other kind the answer does not matter.
    pub fn phrased_alike(&self, other: &QuestionRequest) -> bool {
        let previous_alike = match (&self.previous, &other.previous) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.element_code == b.element_code
                    && a.question == b.question
                    && (self.kind != QuestionKind::FollowUp || a.answer == b.answer)
            }
            _ => false,
        };
        previous_alike
            && self.rating == other.rating
            && self.element_code == other.element_code
            && self.kind == other.kind
            && self.difficulty == other.difficulty
            && self.missing_terms == other.missing_terms
    }
}

/// A question chosen but not yet phrased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionDraft {
    /// Position in the planner queue, for new elements.
    pub planner_index: Option<usize>,
    /// What to phrase.
    pub request: QuestionRequest,
    /// The 1-based number it will have once asked.
    pub number: u32,
}

impl QuestionDraft {
    /// The id it will have once asked.
    pub fn question_id(&self) -> String {
        question_id(self.number)
    }
}

/// The id of the `number`th question of an exam.
pub fn question_id(number: u32) -> String {
    format!("q{number}")
}

/// The last question asked and the answer it got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousTurn {
    /// The element it was about.
    pub element_code: String,
    /// The words asked.
    pub question: String,
    /// The answer taken, if any.
    pub answer: Option<String>,
}

/// An examiner's answer with the turn log of the model call behind it (`None` when no model
/// was asked).
#[derive(Debug, Clone, PartialEq)]
pub struct Examined<T> {
    /// The answer the session uses.
    pub value: T,
    /// The model call, used or replaced.
    pub call: Option<ExaminerCall>,
}

impl<T> Examined<T> {
    /// An answer no model was asked for.
    pub fn offline(value: T) -> Examined<T> {
        Examined { value, call: None }
    }
}

/// Where a model's text (a question, a tutor's words) goes while the model is still writing
/// it, piece by piece.
pub type TextDeltas<'a> = &'a (dyn Fn(&str) + Send + Sync);

/// A [`TextDeltas`] that drops every piece.
pub fn no_deltas(_: &str) {}

/// Every reason an examiner may give for falling back (`viva_llm_fallbacks_total`'s
/// `reason` label). An examiner's labels outside this list are counted as `other`.
pub const FALLBACK_REASONS: &[&str] = &[
    "timeout",
    "endpoint",
    "empty",
    "prompt",
    "truncated",
    "unparseable",
    "unknown_score",
    "empty_feedback",
    "too_long",
    "follow_up_over_cap",
    "several_questions",
    "empty_question",
    "not_a_question",
    "names_the_code",
    "gives_away",
    "unknown_fact",
    "unknown_action",
    "empty_text",
    "card_on_plain_reply",
    "key_idea_too_long",
    "recites_prompt",
    "action_not_allowed",
    "target_out_of_scope",
    "exam_question_not_available",
    "card_not_allowed",
    "too_many_key_ideas",
    "too_many_worked_examples",
    "too_many_drill_steps",
];

/// What the examiner is asked to assess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssessRequest {
    /// The exam's rating.
    pub rating: Rating,
    /// The element asked about.
    pub element_code: String,
    /// The words asked.
    pub question: String,
    /// The candidate's answer.
    pub answer: String,
    /// Other elements still pending, which the answer may also cover (mention credit).
    pub other_pending: Vec<String>,
    /// Follow-ups the plan still allows on this element.
    pub follow_ups_left: u32,
    /// For the answer to a follow-up: the missing terms it asked about (the last answer's);
    /// whatever the follow-up's words, its answer is judged on the facts they name. Empty
    /// for any other question.
    pub missing_terms: Vec<String>,
}

/// The examiner's verdict on one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ExaminerAssessment {
    /// The score.
    pub score: Score,
    /// Feedback for the candidate.
    pub feedback: String,
    /// Readable terms the answer did not cover (used to phrase a follow-up).
    pub missing_terms: Vec<String>,
    /// Other pending elements the answer covered.
    pub mentioned_elements: Vec<String>,
    /// Where to study the element.
    pub source_summary: String,
    /// The answer is correct as far as it goes, short and incomplete
    /// ([`judge::draws_out`]): the plan asks to hear more, within its follow-up bound,
    /// before the element is scored.
    pub draw_out: bool,
    /// What the candidate is told instead of `feedback` and `source_summary` when a
    /// follow-up on the element comes next.
    pub interim: Interim,
}

/// What the candidate is told of an answer while a follow-up on its element is still to
/// come: how far it went, never what it left out (the element's last answer gets the full
/// feedback: what was missing, the fact and its source).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Interim {
    /// "Partly right so far.", "That's a start."
    pub feedback: String,
    /// The sources of what the answer stated (or the task's references), never of what it
    /// left out.
    pub source_summary: String,
}

/// Phrases questions and assesses answers. Infallible by contract.
pub trait Examiner: Send + Sync + 'static {
    /// The words of a question; an examiner that streams sends pieces to `deltas` first.
    fn phrase<'a>(
        &'a self,
        request: &'a QuestionRequest,
        deltas: TextDeltas<'a>,
    ) -> ExaminerFuture<'a, Examined<String>>;
    /// The verdict on an answer.
    fn assess<'a>(
        &'a self,
        request: &'a AssessRequest,
    ) -> ExaminerFuture<'a, Examined<ExaminerAssessment>>;

    /// Whether a call may take long (a model over the network). The session actor then runs
    /// it off its mailbox, so a takeover or a pause is not kept waiting behind it.
    fn is_slow(&self) -> bool {
        false
    }
}

/// The deterministic examiner that needs no network.
#[derive(Debug, Clone)]
pub struct EmbeddedExaminer {
    library: Arc<AcsLibrary>,
}

impl EmbeddedExaminer {
    /// An examiner over these catalogs.
    pub fn new(library: Arc<AcsLibrary>) -> EmbeddedExaminer {
        EmbeddedExaminer { library }
    }

    /// Synchronous phrasing, for callers that are not async: a follow-up from `probe`
    /// (asking about what is missing, never stating it); any other question the element's
    /// rubric question where it has one, else a question phrased from the element's text.
    pub fn phrase_now(&self, request: &QuestionRequest) -> String {
        let catalog = self.library.catalog(request.rating);
        let Some(element) = catalog.element(&request.element_code) else {
            return format!(
                "Tell me what you know about ACS element {}.",
                request.element_code
            );
        };
        if request.kind == QuestionKind::FollowUp {
            return self.follow_up_now(element, request);
        }
        let from_rubric = self
            .library
            .rubric(&element.code)
            .and_then(|rubric| rubric_question(rubric, request.kind, request.difficulty));
        from_rubric.unwrap_or_else(|| phrase_question(element, request.kind, request.difficulty))
    }

    fn follow_up_now(&self, element: &AcsElement, request: &QuestionRequest) -> String {
        let input = probe::FollowUpInput {
            element,
            difficulty: request.difficulty,
            draw_out: follows_a_short_answer(request),
        };
        match self.library.prepared(&element.code) {
            Some(prepared) => {
                let missing = missing_facts(&prepared.rubric, &request.missing_terms);
                probe::follow_up(input, prepared, &missing)
            }
            None => probe::key_term_follow_up(input, &request.missing_terms),
        }
    }

    /// Whether `text`, offered as the follow-up `request` asks for (a model's phrasing),
    /// gives away what the last answer left out: judged as if the candidate had said it, it
    /// credits a missing fact or holds its value (`judge::give_away`), or, for an element
    /// without a rubric, contains a missing key term.
    pub fn gives_away(&self, request: &QuestionRequest, text: &str) -> bool {
        match self.library.prepared(&request.element_code) {
            Some(prepared) => {
                let missing = missing_facts(&prepared.rubric, &request.missing_terms);
                !is_clean(prepared, text, &missing)
            }
            None => !probe::names_no_key_term(text, &request.missing_terms),
        }
    }

    /// Synchronous assessment.
    pub fn assess_now(&self, request: &AssessRequest) -> ExaminerAssessment {
        let catalog = self.library.catalog(request.rating);
        let Some(element) = catalog.element(&request.element_code) else {
            return unknown_element(&request.element_code);
        };
        let others: Vec<_> = request
            .other_pending
            .iter()
            .filter_map(|code| catalog.element(code))
            .collect();
        let task_sources = || source_summary(element, catalog.task(&element.task_code));
        let Some(prepared) = self.library.prepared(&element.code) else {
            let verdict = assess_answer(element, &request.answer, &others);
            // The same rule as `judge::draws_out`, with no contradiction to find.
            let draw_out = verdict.score != Score::Satisfactory
                && judge::is_short(&request.answer)
                && !judge::non_answer::is_non_answer(&request.answer);
            let interim = match draw_out {
                true => DRAWN_OUT,
                false => PARTLY_RIGHT_SO_FAR,
            };
            return ExaminerAssessment {
                score: verdict.score,
                feedback: verdict.feedback,
                missing_terms: verdict.missing,
                mentioned_elements: verdict.mentioned_elements,
                source_summary: task_sources(),
                draw_out,
                interim: Interim {
                    feedback: interim.to_owned(),
                    source_summary: task_sources(),
                },
            };
        };
        let answer = ReadAnswer::of(&request.answer);
        let asked =
            asked(&prepared.rubric, &request.question, &request.missing_terms).or_expected(|| {
                self.library
                    .asked_question(&element.code, &request.question)
            });
        let judged = assess_asked(prepared, &asked, &answer);
        ExaminerAssessment {
            score: judged.score,
            feedback: judged.feedback,
            missing_terms: judged.missing_terms,
            mentioned_elements: self.mentioned(element, &others, &request.answer, &answer),
            source_summary: judged.source_summary.unwrap_or_else(task_sources),
            draw_out: judged.draw_out,
            interim: Interim {
                feedback: judged.interim_feedback,
                source_summary: judged.interim_source_summary.unwrap_or_else(task_sources),
            },
        }
    }

    /// Other pending elements the answer covers: one with a rubric when the answer would
    /// satisfy that rubric on its own (its facts stated, nothing contradicted); one without,
    /// by the key-term rule.
    fn mentioned(
        &self,
        element: &AcsElement,
        others: &[&AcsElement],
        text: &str,
        answer: &ReadAnswer,
    ) -> Vec<String> {
        let (with_rubric, without): (Vec<&AcsElement>, Vec<&AcsElement>) = others
            .iter()
            .copied()
            .partition(|other| self.library.prepared(&other.code).is_some());
        let mut mentioned: Vec<String> = with_rubric
            .iter()
            .filter(|other| other.code != element.code)
            .filter(|other| {
                self.library.prepared(&other.code).is_some_and(|prepared| {
                    judge::may_satisfy(prepared, answer)
                        && judge::judge_read(prepared, answer, None).score == Score::Satisfactory
                })
            })
            .map(|other| other.code.clone())
            .collect();
        if !without.is_empty() {
            mentioned.extend(assess_answer(element, text, &without).mentioned_elements);
        }
        mentioned.dedup();
        mentioned
    }
}

/// Whether the answer a follow-up comes after was short (`judge::is_short`): a follow-up
/// comes only after a partial answer or one drawn out, so a short one is asked to expand.
pub fn follows_a_short_answer(request: &QuestionRequest) -> bool {
    request.kind == QuestionKind::FollowUp
        && (request.previous.as_ref())
            .and_then(|previous| previous.answer.as_deref())
            .is_some_and(judge::is_short)
}

fn unknown_element(code: &str) -> ExaminerAssessment {
    ExaminerAssessment {
        score: Score::Unsatisfactory,
        feedback: format!("Element {code} is not in this server's ACS data."),
        missing_terms: Vec::new(),
        mentioned_elements: Vec::new(),
        source_summary: "Study: the Airman Certification Standards.".to_owned(),
        draw_out: false,
        interim: Interim::default(),
    }
}

impl Examiner for EmbeddedExaminer {
    fn phrase<'a>(
        &'a self,
        request: &'a QuestionRequest,
        _deltas: TextDeltas<'a>,
    ) -> ExaminerFuture<'a, Examined<String>> {
        Box::pin(async move { Examined::offline(self.phrase_now(request)) })
    }

    fn assess<'a>(
        &'a self,
        request: &'a AssessRequest,
    ) -> ExaminerFuture<'a, Examined<ExaminerAssessment>> {
        Box::pin(async move { Examined::offline(self.assess_now(request)) })
    }
}
