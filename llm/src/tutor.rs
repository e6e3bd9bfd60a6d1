//! `LlmTutor`: the [`TutorModel`] that asks a model for a tutor turn (PF-3.6) and never
//! trusts it with control. The prompt is the bundle of [`crate::tutor_prompt`]; the response
//! format is the schema built from the turn's policy; the reply is held to that policy by
//! [`crate::tutor_reply`] (and again by the brain). Each call is made once; a failure, a
//! timeout or a reply that breaks a rule comes back as the reason, and the brain's own turn
//! is used. Every call comes back with its turn log.
//!
//! The reply streams: its text goes to the client as `tutor.delta` pieces as it is written
//! (the schema puts it first); a reply that writes a forbidden action, target or exam
//! question is dropped as soon as it does (nothing more is shown), and the brain's turn
//! follows without waiting for the rest. The `tutor.turn` replaces the preview either way.

use std::sync::Arc;

use viva_core::examiner::{Examined, ExaminerFuture, TextDeltas};
use viva_core::tutor::model::{ModelAnswer, ModelProposal, ModelTurnRequest, TutorModel};
use viva_core::tutor::policy::CONSTRAINTS;

use crate::call_log::{CallLog, prompt_hash};
use crate::json_stream::FieldStream;
use crate::metrics::LlmMetrics;
use crate::prompts::Prompts;
use crate::provider::{Flow, Provider};
use crate::tutor_prompt::{StudentTurn, tutor_prompt};
use crate::tutor_reply::{TurnBounds, check_tutor_reply, refused_so_far, tutor_schema};

/// The model-backed tutor.
pub struct LlmTutor {
    provider: Provider,
    prompts: Prompts,
    metrics: Arc<LlmMetrics>,
}

/// The token cap a reply needs to reach the tutor's word limit: about two tokens a word
/// (numbers and symbols cost more than words) and the JSON around the text. Measured: a
/// 140-word explanation of multiplying by 100 was cut at 256 tokens.
pub fn reply_token_cap(max_words: u32) -> u32 {
    max_words * 2 + 96
}

impl LlmTutor {
    /// A tutor over `provider` and `prompts`; the provider's token cap is raised, where it is
    /// lower, to what a reply at the word limit needs ([`reply_token_cap`]).
    pub fn new(provider: Provider, prompts: Prompts) -> LlmTutor {
        let needed = reply_token_cap(CONSTRAINTS.max_words);
        let cap = provider.settings().max_tokens.max(needed);
        LlmTutor {
            provider: provider.with_max_tokens(cap),
            prompts,
            metrics: Arc::default(),
        }
    }

    /// Counts every call into `metrics`.
    pub fn with_metrics(self, metrics: Arc<LlmMetrics>) -> LlmTutor {
        LlmTutor { metrics, ..self }
    }

    async fn propose_by_model(
        &self,
        request: &ModelTurnRequest,
        deltas: TextDeltas<'_>,
        log: &mut CallLog,
    ) -> Result<ModelProposal, &'static str> {
        let student = StudentTurn {
            event: &request.event,
            input: &request.input,
        };
        let context = (&request.policy, &request.grounding, &request.lite);
        let prompt = tutor_prompt(&self.prompts, &request.course_title, context, student).map_err(
            |err| {
                tracing::error!(%err, "tutor prompt failed");
                "prompt"
            },
        )?;
        log.prompt_hash = prompt_hash(&prompt.system, &prompt.user);
        let available: Vec<&str> = request.available.iter().map(String::as_str).collect();
        let course_units: Vec<String> = (request.grounding.course_units.iter())
            .map(|unit| unit.unit_id.clone())
            .collect();
        let bounds = TurnBounds {
            policy: &request.policy,
            course_units: &course_units,
            available: &available,
        };
        let schema = Some(("tutor_turn", tutor_schema(bounds)));
        let mut text = FieldStream::new("text");
        let (mut first_words, mut refused, began) = (None, None, log.began);
        let mut piece = |piece: &str| {
            text.push(piece);
            if let Some(rejection) = refused_so_far(text.raw(), bounds) {
                refused = Some(rejection.label());
                return Flow::Stop;
            }
            let words = text.take_new();
            if !words.is_empty() {
                first_words.get_or_insert_with(|| began.elapsed());
                deltas(&words);
            }
            Flow::Continue
        };
        let reply = self
            .provider
            .stream(&prompt.system, &prompt.user, schema, &mut piece)
            .await;
        let reply = log.reply.insert(reply.map_err(|err| {
            tracing::warn!(call = "tutor", error = %err, "LLM call failed");
            err.label()
        })?);
        // The first word that reached the student, not the JSON before it.
        reply.first_token = first_words;
        if let Some(reason) = refused {
            return Err(reason);
        }
        let checked =
            check_tutor_reply(&reply.text, reply.truncated, bounds).map_err(|rejection| {
                tracing::debug!(%rejection, reply = %reply.text, "tutor reply refused");
                rejection.label()
            })?;
        Ok(ModelProposal {
            action: checked.proposal.action,
            target: checked.proposal.target,
            text: checked.proposal.text,
            exam_question: checked.proposal.exam_question,
            mapped: checked.mapped,
        })
    }
}

impl TutorModel for LlmTutor {
    fn propose<'a>(
        &'a self,
        request: &'a ModelTurnRequest,
        deltas: TextDeltas<'a>,
    ) -> ExaminerFuture<'a, ModelAnswer> {
        Box::pin(async move {
            let mut log = CallLog::new("tutor");
            let outcome = self.propose_by_model(request, deltas, &mut log).await;
            let call = log.finish(
                &self.provider.settings().model,
                outcome.as_ref().err().copied(),
            );
            self.metrics.record(&call);
            Examined {
                value: outcome,
                call: Some(call),
            }
        })
    }
}
