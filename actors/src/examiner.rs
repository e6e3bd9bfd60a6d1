//! The examiner seam: phrasing questions and assessing answers, behind one small trait.
//!
//! [`EmbeddedExaminer`] is the default: deterministic, offline, built on
//! [`crate::exam::examiner`]. An LLM examiner implements the same trait later; whatever it
//! does, it must always return an answer (falling back to the embedded one), so the session
//! never waits on a retry loop.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::exam::acs::{AcsLibrary, Rating};
use crate::exam::examiner::{assess_answer, phrase_question, source_summary};
use crate::exam::types::{QuestionDifficulty, QuestionKind, Score};

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
}

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
}

/// Phrases questions and assesses answers. Infallible by contract.
pub trait Examiner: Send + Sync + 'static {
    /// The words of a question.
    fn phrase<'a>(&'a self, request: &'a QuestionRequest) -> ExaminerFuture<'a, String>;
    /// The verdict on an answer.
    fn assess<'a>(&'a self, request: &'a AssessRequest) -> ExaminerFuture<'a, ExaminerAssessment>;
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

    /// Synchronous phrasing, for callers that are not async.
    pub fn phrase_now(&self, request: &QuestionRequest) -> String {
        let catalog = self.library.catalog(request.rating);
        match catalog.element(&request.element_code) {
            Some(element) => phrase_question(
                element,
                request.kind,
                request.difficulty,
                &request.missing_terms,
            ),
            None => format!(
                "Tell me what you know about ACS element {}.",
                request.element_code
            ),
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
        let verdict = assess_answer(element, &request.answer, &others);
        ExaminerAssessment {
            score: verdict.score,
            feedback: verdict.feedback,
            missing_terms: verdict.missing,
            mentioned_elements: verdict.mentioned_elements,
            source_summary: source_summary(element, catalog.task(&element.task_code)),
        }
    }
}

fn unknown_element(code: &str) -> ExaminerAssessment {
    ExaminerAssessment {
        score: Score::Unsatisfactory,
        feedback: format!("Element {code} is not in this server's ACS data."),
        missing_terms: Vec::new(),
        mentioned_elements: Vec::new(),
        source_summary: "Study: the Airman Certification Standards.".to_owned(),
    }
}

impl Examiner for EmbeddedExaminer {
    fn phrase<'a>(&'a self, request: &'a QuestionRequest) -> ExaminerFuture<'a, String> {
        Box::pin(async move { self.phrase_now(request) })
    }

    fn assess<'a>(&'a self, request: &'a AssessRequest) -> ExaminerFuture<'a, ExaminerAssessment> {
        Box::pin(async move { self.assess_now(request) })
    }
}
