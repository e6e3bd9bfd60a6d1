//! `LlmExaminer`: the [`Examiner`] that asks a model to phrase questions and assess answers,
//! and never trusts it with control. Each call is made once; a reply that fails validation,
//! comes late, or never comes is replaced by the embedded examiner's deterministic result,
//! and the reason is counted and logged. The plan, its bounds and the grade stay in code.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::json;
use viva_actors::exam::acs::{AcsLibrary, Rating};
use viva_actors::examiner::{
    AssessRequest, EmbeddedExaminer, Examiner, ExaminerAssessment, ExaminerFuture, QuestionRequest,
};

use crate::prompts::{Prompts, Template};
use crate::provider::Provider;
use crate::verdict::{PlanBounds, check_question, check_verdict, verdict_schema};

/// Why the embedded examiner answered instead of the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallback {
    /// `phrase` or `assess`.
    pub call: &'static str,
    /// The rejection's or the failure's label.
    pub reason: &'static str,
}

/// Calls and fallbacks so far, by reason.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Replies used.
    pub used: u64,
    /// Fallbacks by `call/reason`.
    pub fallbacks: BTreeMap<String, u64>,
}

/// The model-backed examiner.
pub struct LlmExaminer {
    provider: Provider,
    prompts: Prompts,
    library: Arc<AcsLibrary>,
    embedded: EmbeddedExaminer,
    tally: Mutex<Tally>,
}

impl LlmExaminer {
    /// An examiner over `provider` and `prompts`, falling back to the embedded examiner over
    /// the same catalogs.
    pub fn new(provider: Provider, prompts: Prompts, library: Arc<AcsLibrary>) -> LlmExaminer {
        LlmExaminer {
            embedded: EmbeddedExaminer::new(library.clone()),
            provider,
            prompts,
            library,
            tally: Mutex::new(Tally::default()),
        }
    }

    /// Calls and fallbacks so far.
    pub fn tally(&self) -> Tally {
        self.tally.lock().map(|t| t.clone()).unwrap_or_default()
    }

    /// Counts a call: its reply was used, or it fell back for `fallback`'s reason.
    fn note(&self, fallback: Option<&Fallback>) {
        let Ok(mut tally) = self.tally.lock() else {
            return;
        };
        match fallback {
            None => tally.used += 1,
            Some(fallback) => {
                tracing::warn!(
                    call = fallback.call,
                    reason = fallback.reason,
                    "LLM fallback"
                );
                let key = format!("{}/{}", fallback.call, fallback.reason);
                *tally.fallbacks.entry(key).or_default() += 1;
            }
        }
    }

    fn element_text(&self, rating: Rating, code: &str) -> String {
        let catalog = self.library.catalog(rating);
        catalog
            .element(code)
            .map_or_else(String::new, |element| element.text.clone())
    }

    /// One model call for `call`: the rating's system prompt, `template` rendered with
    /// `variables`, and the reply (JSON following `schema`, when given) not yet checked.
    async fn ask(
        &self,
        call: &'static str,
        rating: Rating,
        (template, variables): (Template, serde_json::Value),
        schema: Option<(&str, serde_json::Value)>,
    ) -> Result<crate::provider::Reply, Fallback> {
        let fail = |reason| Fallback { call, reason };
        let system = self
            .prompts
            .examiner_system(rating_title(rating))
            .map_err(|_| fail("prompt"))?;
        let user = self
            .prompts
            .render(template, &variables)
            .map_err(|_| fail("prompt"))?;
        self.provider
            .complete(&system, &user, schema)
            .await
            .map_err(|err| fail(err.label()))
    }

    async fn phrase_by_model(&self, request: &QuestionRequest) -> Result<String, Fallback> {
        let fail = |reason| Fallback {
            call: "phrase",
            reason,
        };
        let variables = json!({
            "rating": rating_title(request.rating),
            "element_code": request.element_code,
            "element_text": self.element_text(request.rating, &request.element_code),
            "kind": format!("{:?}", request.kind).to_lowercase(),
            "difficulty": format!("{:?}", request.difficulty).to_lowercase(),
            "previous_topic": "",
        });
        let prompt = (Template::Question, variables);
        let reply = self.ask("phrase", request.rating, prompt, None).await?;
        if reply.truncated {
            return Err(fail("truncated"));
        }
        check_question(&reply.text).map_err(|rejection| fail(rejection.label()))
    }

    async fn assess_by_model(
        &self,
        request: &AssessRequest,
        embedded: &ExaminerAssessment,
    ) -> Result<ExaminerAssessment, Fallback> {
        let fail = |reason| Fallback {
            call: "assess",
            reason,
        };
        let pending: Vec<_> = request
            .other_pending
            .iter()
            .map(|code| json!({"code": code, "text": self.element_text(request.rating, code)}))
            .collect();
        let variables = json!({
            "element_code": request.element_code,
            "element_text": self.element_text(request.rating, &request.element_code),
            "question": request.question,
            "answer": request.answer,
            "pending": pending,
        });
        let schema = Some(("assessment", verdict_schema(&request.other_pending)));
        let prompt = (Template::Assessment, variables);
        let reply = self.ask("assess", request.rating, prompt, schema).await?;
        // A follow-up beyond what the plan still allows is refused; the planner decides
        // whether one is asked, and phrases it.
        let bounds = PlanBounds {
            element_code: &request.element_code,
            pending: &request.other_pending,
            follow_ups_used: 0,
            follow_up_max: request.follow_ups_left,
        };
        let verdict = check_verdict(&reply.text, reply.truncated, &bounds)
            .map_err(|rejection| fail(rejection.label()))?;
        Ok(ExaminerAssessment {
            score: verdict.score,
            feedback: verdict.feedback,
            // What the answer left out, for the planner's follow-up, stays the embedded
            // examiner's deterministic reading.
            missing_terms: embedded.missing_terms.clone(),
            mentioned_elements: verdict.mentioned_elements,
            source_summary: verdict.source_summary,
        })
    }
}

fn rating_title(rating: Rating) -> &'static str {
    match rating {
        Rating::Private => "Private Pilot",
        Rating::Commercial => "Commercial Pilot",
    }
}

impl Examiner for LlmExaminer {
    fn phrase<'a>(&'a self, request: &'a QuestionRequest) -> ExaminerFuture<'a, String> {
        Box::pin(async move {
            let outcome = self.phrase_by_model(request).await;
            self.note(outcome.as_ref().err());
            outcome.unwrap_or_else(|_| self.embedded.phrase_now(request))
        })
    }

    fn assess<'a>(&'a self, request: &'a AssessRequest) -> ExaminerFuture<'a, ExaminerAssessment> {
        Box::pin(async move {
            let embedded = self.embedded.assess_now(request);
            let outcome = self.assess_by_model(request, &embedded).await;
            self.note(outcome.as_ref().err());
            outcome.unwrap_or(embedded)
        })
    }
}
