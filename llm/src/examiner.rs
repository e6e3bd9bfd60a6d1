//! `LlmExaminer`: the [`Examiner`] that asks a model to phrase questions and assess answers,
//! and never trusts it with control. Each call is made once; a reply that fails validation,
//! comes late, or never comes is replaced by the embedded examiner's deterministic result.
//! Every call, used or replaced, comes back with its turn log ([`ExaminerCall`]): the prompt
//! hash, the model, latency, tokens, and the outcome with its reason. The plan, its bounds
//! and the grade stay in code.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::json;
use viva_core::exam::acs::{AcsElement, AcsLibrary, Rating};
use viva_core::exam::examiner::assess_answer;
use viva_core::exam::examiner::coverage::live_sub_elements;
use viva_core::exam::types::{QuestionKind, Score};
use viva_core::examiner::{
    AssessRequest, EmbeddedExaminer, Examined, Examiner, ExaminerAssessment, ExaminerCall,
    ExaminerFuture, Interim, QuestionRequest, TextDeltas, follows_a_short_answer, no_deltas,
};

use viva_core::exam::examiner::judge::{PreparedRubric, ReadAnswer, judge_read};
use viva_core::exam::examiner::rubric_exam::{asked, assessment_of};

/// The fallback reason of a model's follow-up that gives a missing fact away.
pub const GIVES_AWAY: &str = "gives_away";

use crate::call_log::CallLog;
pub use crate::call_log::prompt_hash;
use crate::json_stream::FieldStream;
use crate::metrics::LlmMetrics;
use crate::prompts::{Prompts, Template};
use crate::provider::{CallError, Flow, Provider};
use crate::rubric_check::{check_findings, findings_schema, merge, rubric_variables};
use crate::verdict::{
    PlanBounds, check_phrasing, check_question, check_verdict, hopeless_question, question_schema,
    verdict_schema,
};

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
    metrics: Arc<LlmMetrics>,
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
            metrics: Arc::default(),
        }
    }

    /// Counts every call into `metrics` (the server's `GET /metrics` renders them).
    pub fn with_metrics(self, metrics: Arc<LlmMetrics>) -> LlmExaminer {
        LlmExaminer { metrics, ..self }
    }

    /// Calls and fallbacks so far.
    pub fn tally(&self) -> Tally {
        self.tally.lock().map(|t| t.clone()).unwrap_or_default()
    }

    /// Ends a call's log and counts it.
    fn finish(&self, log: CallLog, fallback: Option<&'static str>) -> ExaminerCall {
        let call = log.finish(&self.provider.settings().model, fallback);
        self.metrics.record(&call);
        if let Ok(mut tally) = self.tally.lock() {
            match fallback {
                None => tally.used += 1,
                Some(reason) => {
                    let key = format!("{}/{reason}", call.call);
                    *tally.fallbacks.entry(key).or_default() += 1;
                }
            }
        }
        call
    }

    fn element(&self, rating: Rating, code: &str) -> Option<&AcsElement> {
        self.library.catalog(rating).element(code)
    }

    /// The task title an element belongs to ("Pilot Qualifications").
    fn topic(&self, rating: Rating, code: &str) -> String {
        self.element(rating, code)
            .map_or_else(String::new, |element| element.task_title.clone())
    }

    /// What a complete answer covers (the live sub-elements, or the element's own text) and
    /// the task's references.
    fn key_points_and_sources(&self, rating: Rating, code: &str) -> (Vec<String>, Vec<String>) {
        let Some(element) = self.element(rating, code) else {
            return (Vec::new(), Vec::new());
        };
        let points: Vec<String> = live_sub_elements(element)
            .map(|sub| sub.text.clone())
            .collect();
        let points = if points.is_empty() {
            vec![element.text.clone()]
        } else {
            points
        };
        (points, element.task_references.clone())
    }

    /// The mentioned elements the answer's own words back: a model may credit an element
    /// by mention only where the embedded examiner, reading the same answer against that
    /// element alone, would score it at least partial. (A small model credits generously:
    /// without this, one answer closed a five-element exam after two questions.)
    fn evidenced(&self, request: &AssessRequest, mentioned: Vec<String>) -> Vec<String> {
        mentioned
            .into_iter()
            .filter(|code| {
                self.element(request.rating, code).is_some_and(|element| {
                    assess_answer(element, &request.answer, &[]).score != Score::Unsatisfactory
                })
            })
            .collect()
    }

    fn element_text(&self, rating: Rating, code: &str) -> String {
        self.element(rating, code)
            .map_or_else(String::new, |element| element.text.clone())
    }

    /// The system prompt and the rendered user prompt of one call, hashed into `log`.
    fn prompts_for(
        &self,
        rating: Rating,
        (template, variables): (Template, serde_json::Value),
        log: &mut CallLog,
    ) -> Result<(String, String), &'static str> {
        let system = self
            .prompts
            .examiner_system(rating_title(rating))
            .map_err(|_| "prompt")?;
        let user = self
            .prompts
            .render(template, &variables)
            .map_err(|_| "prompt")?;
        log.prompt_hash = prompt_hash(&system, &user);
        Ok((system, user))
    }

    /// The template and variables that phrase `request`: a follow-up builds on the last
    /// answer; any other question may bridge from the previous topic. A follow-up's prompt
    /// holds the embedded examiner's probe (which asks about what is missing without
    /// stating it), never the missing facts' words: the model rephrases a question, it is
    /// given nothing to repeat.
    fn question_prompt(&self, request: &QuestionRequest) -> (Template, serde_json::Value) {
        let rating = request.rating;
        let element_text = self.element_text(rating, &request.element_code);
        let previous = request.previous.as_ref();
        if let (QuestionKind::FollowUp, Some(previous)) = (request.kind, previous) {
            let variables = json!({
                "element_code": request.element_code,
                "topic": self.topic(rating, &request.element_code),
                "element_text": element_text,
                "question": previous.question,
                "answer": previous.answer.clone().unwrap_or_default(),
                "draw_out": follows_a_short_answer(request),
                "probe": self.embedded.phrase_now(request),
            });
            return (Template::FollowUp, variables);
        }
        let previous_topic = previous
            .filter(|previous| previous.element_code != request.element_code)
            .map(|previous| self.element_text(rating, &previous.element_code))
            .unwrap_or_default();
        let variables = json!({
            "rating": rating_title(rating),
            "element_code": request.element_code,
            "topic": self.topic(rating, &request.element_code),
            "element_text": element_text,
            "kind": request.kind.as_str(),
            "difficulty": format!("{:?}", request.difficulty).to_lowercase(),
            "previous_topic": previous_topic,
        });
        (Template::Question, variables)
    }

    async fn phrase_by_model(
        &self,
        request: &QuestionRequest,
        deltas: TextDeltas<'_>,
        log: &mut CallLog,
    ) -> Result<String, &'static str> {
        let prompt = self.question_prompt(request);
        let (system, user) = self.prompts_for(request.rating, prompt, log)?;
        let mut question = FieldStream::new("question");
        let mut first_words = None;
        let mut piece = |piece: &str| {
            let words = question.feed(piece);
            if words.is_empty() {
                return Flow::Continue;
            }
            first_words.get_or_insert_with(|| log.began.elapsed());
            deltas(&words);
            if hopeless_question(&question.text()) {
                Flow::Stop
            } else {
                Flow::Continue
            }
        };
        let schema = Some(("question", question_schema()));
        let reply = self
            .provider
            .stream(&system, &user, schema, &mut piece)
            .await;
        let reply = log
            .reply
            .insert(reply.map_err(|err| failed(log.call, &err))?);
        // The first token that reaches the candidate, not the JSON around it.
        reply.first_token = first_words;
        if hopeless_question(&question.text()) {
            return check_question(&question.text()).map_err(|rejection| rejection.label());
        }
        if reply.truncated {
            return Err("truncated");
        }
        let text = check_phrasing(&reply.text).map_err(|rejection| rejection.label())?;
        // The model may phrase a follow-up, never reveal: judged as if the candidate had
        // said it, it must credit no missing fact and hold none of their values.
        if request.kind == QuestionKind::FollowUp && self.embedded.gives_away(request, &text) {
            return Err(GIVES_AWAY);
        }
        Ok(text)
    }

    async fn assess_by_model(
        &self,
        request: &AssessRequest,
        embedded: &ExaminerAssessment,
        log: &mut CallLog,
    ) -> Result<ExaminerAssessment, &'static str> {
        if let Some(rubric) = self.library.prepared(&request.element_code) {
            return self.assess_by_rubric(request, rubric, embedded, log).await;
        }
        let pending: Vec<_> = request
            .other_pending
            .iter()
            .map(|code| json!({"code": code, "text": self.element_text(request.rating, code)}))
            .collect();
        let (rating, code) = (request.rating, &request.element_code);
        let (key_points, sources) = self.key_points_and_sources(rating, code);
        let variables = json!({
            "element_code": code,
            "topic": self.topic(rating, code),
            "element_text": self.element_text(rating, code),
            "key_points": key_points,
            "sources": sources,
            "question": request.question,
            "answer": request.answer,
            "pending": pending,
        });
        let (system, user) =
            self.prompts_for(request.rating, (Template::Assessment, variables), log)?;
        let schema = Some(("assessment", verdict_schema(&request.other_pending)));
        let reply = self.provider.complete(&system, &user, schema).await;
        let reply = log
            .reply
            .insert(reply.map_err(|err| failed(log.call, &err))?);
        // A follow-up beyond what the plan still allows is refused; the planner decides
        // whether one is asked, and phrases it.
        let bounds = PlanBounds {
            element_code: &request.element_code,
            pending: &request.other_pending,
            follow_ups_left: request.follow_ups_left,
            sources: &sources,
        };
        let verdict = check_verdict(&reply.text, reply.truncated, &bounds)
            .map_err(|rejection| rejection.label())?;
        Ok(ExaminerAssessment {
            score: verdict.score,
            feedback: verdict.feedback,
            // What the answer left out, for the planner's follow-up, stays the embedded
            // examiner's deterministic reading.
            missing_terms: embedded.missing_terms.clone(),
            mentioned_elements: self.evidenced(request, verdict.mentioned_elements),
            source_summary: verdict.source_summary,
            // Whether to draw the answer out, and what to say meanwhile, stay the embedded
            // examiner's too: a model's feedback may name what is missing.
            draw_out: embedded.draw_out,
            interim: embedded.interim.clone(),
        })
    }
}

impl LlmExaminer {
    /// The model reads the answer fact by fact against the rubric, quoting its evidence;
    /// code checks every quote, merges what holds with the embedded findings and scores the
    /// result (`rubric_check`). The feedback is the judge's, from the merged findings.
    async fn assess_by_rubric(
        &self,
        request: &AssessRequest,
        prepared: &PreparedRubric,
        embedded: &ExaminerAssessment,
        log: &mut CallLog,
    ) -> Result<ExaminerAssessment, &'static str> {
        let (rating, code) = (request.rating, &request.element_code);
        let rubric = &prepared.rubric;
        let (facts, misconceptions) = rubric_variables(rubric);
        let variables = json!({
            "topic": self.topic(rating, code),
            "element_text": self.element_text(rating, code),
            "question": request.question,
            "answer": request.answer,
            "facts": facts,
            "misconceptions": misconceptions,
        });
        let (system, user) =
            self.prompts_for(rating, (Template::RubricAssessment, variables), log)?;
        let schema = Some(("fact_check", findings_schema(rubric)));
        let reply = self.provider.complete(&system, &user, schema).await;
        let reply = log
            .reply
            .insert(reply.map_err(|err| failed(log.call, &err))?);
        let findings = check_findings(&reply.text, reply.truncated, rubric)
            .map_err(|rejection| rejection.label())?;
        let asked = asked(rubric, &request.question, &request.missing_terms)
            .or_expected(|| self.library.asked_question(code, &request.question));
        let own = judge_read(prepared, &ReadAnswer::of(&request.answer), asked.question());
        let verdict = merge(rubric, asked.question(), &request.answer, &own, &findings);
        let said = assessment_of(rubric, &asked, verdict);
        Ok(ExaminerAssessment {
            score: said.score,
            feedback: said.feedback,
            missing_terms: said.missing_terms,
            mentioned_elements: embedded.mentioned_elements.clone(),
            source_summary: (said.source_summary)
                .unwrap_or_else(|| embedded.source_summary.clone()),
            draw_out: said.draw_out,
            interim: Interim {
                feedback: said.interim_feedback,
                source_summary: (said.interim_source_summary)
                    .unwrap_or_else(|| embedded.interim.source_summary.clone()),
            },
        })
    }
}

/// Logs why a call gave no reply (the turn log keeps only the label) and returns the label.
fn failed(call: &'static str, err: &CallError) -> &'static str {
    tracing::warn!(call, error = %err, "LLM call failed");
    err.label()
}

fn rating_title(rating: Rating) -> &'static str {
    match rating {
        Rating::Private => "Private Pilot",
        Rating::Commercial => "Commercial Pilot",
    }
}

impl Examiner for LlmExaminer {
    fn is_slow(&self) -> bool {
        true
    }

    fn phrase<'a>(
        &'a self,
        request: &'a QuestionRequest,
        deltas: TextDeltas<'a>,
    ) -> ExaminerFuture<'a, Examined<String>> {
        Box::pin(async move {
            let mut log = CallLog::new("phrase");
            // A follow-up is checked whole before anyone hears it (it must give nothing
            // away), so none of it streams.
            let deltas: TextDeltas<'_> = match request.kind {
                QuestionKind::FollowUp => &no_deltas,
                _ => deltas,
            };
            let outcome = self.phrase_by_model(request, deltas, &mut log).await;
            let call = self.finish(log, outcome.as_ref().err().copied());
            let value = outcome.unwrap_or_else(|_| self.embedded.phrase_now(request));
            Examined {
                value,
                call: Some(call),
            }
        })
    }

    fn assess<'a>(
        &'a self,
        request: &'a AssessRequest,
    ) -> ExaminerFuture<'a, Examined<ExaminerAssessment>> {
        Box::pin(async move {
            let embedded = self.embedded.assess_now(request);
            let mut log = CallLog::new("assess");
            let outcome = self.assess_by_model(request, &embedded, &mut log).await;
            let call = self.finish(log, outcome.as_ref().err().copied());
            Examined {
                value: outcome.unwrap_or(embedded),
                call: Some(call),
            }
        })
    }
}
