//! The commands that change an `AssessmentCore`: start, ask, answer, judge, resume, grade.
//! In evaluation mode nothing it emits before `session.completed` reveals an answer.

use viva_blueprint::generate::Item;
use viva_blueprint::library::BlueprintLibrary;
use viva_blueprint::normalize::{
    AnswerKind, Normalized, answers_match, normalize_answer, normalize_as,
};
use viva_blueprint::scoring::{ItemOutcome, score};
use viva_protocol::result::{AssessmentResult, AssessmentTrigger, AuditItem, SectionResult};
use viva_protocol::server::{Assessment, PlanSummary, Question, SessionStatus};
use viva_protocol::{ErrorCode, Mode, ServerEvent};

use super::assessment::{AnswerInput, AssessmentCore, PendingAnswer, Response};
use super::lifecycle::Refusal;
use super::phase::PhaseEvent;

impl AssessmentCore {
    /// Queues `session.started`.
    pub fn announce_start(&mut self, library: &BlueprintLibrary) {
        let time_limit = library
            .assessment(&self.assessment_id)
            .and_then(|a| a.time_limit_minutes)
            .map(|minutes| (minutes * 60.0).round() as u32);
        let plan = PlanSummary {
            planned_questions: self.items.len() as u32,
            queue_length: self.items.len() as u32,
            study_mode: None,
            bonus_max: 0,
            follow_up_max_per_element: 0,
            time_limit_seconds: time_limit,
        };
        self.life.announce(Mode::Assessment, plan);
    }

    /// Commits the generated item of slot `index` as the open question.
    pub fn ask(
        &mut self,
        index: usize,
        item: Item,
        library: &BlueprintLibrary,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.life.advance(PhaseEvent::QuestionCommitted, now_ms)?;
        let slot = &mut self.items[index];
        slot.item = Some(item);
        slot.asked_at_ms = Some(now_ms);
        self.current = Some(index);
        self.emit_open_item(library, now_ms);
        Ok(())
    }

    /// Queues the open item (again, after a resume): stem and options, never the key.
    pub fn emit_open_item(&mut self, library: &BlueprintLibrary, now_ms: u64) {
        let Some(index) = self.current else { return };
        let Some(item) = &self.items[index].item else {
            return;
        };
        let show_progress = library
            .assessment(&self.assessment_id)
            .is_none_or(|a| a.show_progress);
        let question = Question {
            question_id: format!("i{}", index + 1),
            text: item.stem.clone(),
            options: Some(item.options.clone()),
            number: index as u32 + 1,
            kind: None,
            element_code: None,
            total: show_progress.then_some(self.items.len() as u32),
            time_remaining_seconds: self.seconds_remaining(now_ms),
        };
        self.life.emit(ServerEvent::Question(question));
    }

    /// Commits an answer to the open item and queues its `ack`.
    pub fn commit_answer(
        &mut self,
        input: AnswerInput,
        allow_skip: bool,
        event_id: Option<String>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.life.require_live()?;
        let open = self.current.filter(|_| self.pending.is_none());
        let Some(item) = open.and_then(|index| self.items[index].item.as_ref()) else {
            return Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "there is no open item to answer",
            ));
        };
        match &input {
            AnswerInput::Choice(index) if *index as usize >= item.options.len() => {
                let message = format!(
                    "option {index} does not exist; this item has {}",
                    item.options.len()
                );
                return Err(Refusal::new(ErrorCode::InvalidAnswer, message));
            }
            AnswerInput::Skip if !allow_skip => {
                return Err(Refusal::new(
                    ErrorCode::SkipNotAllowed,
                    "this assessment does not allow skipping",
                ));
            }
            _ => {}
        }
        self.pending = Some(PendingAnswer {
            input,
            at_ms: now_ms,
        });
        self.life.updated_at_ms = now_ms;
        self.life.acknowledge(event_id);
        Ok(())
    }

    /// Judges the committed answer and queues the `assessment` (only `recorded` when evaluating).
    pub fn judge(&mut self, now_ms: u64) -> Result<(), Refusal> {
        let (Some(index), Some(pending)) = (self.current, self.pending.take()) else {
            return Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "no answer awaits judging",
            ));
        };
        self.life.advance(PhaseEvent::AnswerAssessed, now_ms)?;
        let Some(item) = self.items[index].item.clone() else {
            return Err(Refusal::new(
                ErrorCode::Internal,
                "the open item was never generated",
            ));
        };
        let response = judge_response(&item, &pending);
        let correct = response.correct;
        self.items[index].response = Some(response);
        self.current = None;
        let mut assessment = Assessment {
            question_id: format!("i{}", index + 1),
            score: None,
            feedback: None,
            recorded: Some(true),
            source_summary: None,
            correct_answer: None,
            credited_elements: Vec::new(),
            understood_as: understood_as(&item, &pending.input),
        };
        if self.learning {
            assessment.recorded = None;
            assessment.score = Some(
                if correct {
                    "satisfactory"
                } else {
                    "unsatisfactory"
                }
                .to_owned(),
            );
            let fallback = format!("The correct answer is {}.", item.answer);
            assessment.feedback = Some(item.explanation.clone().unwrap_or(fallback));
            assessment.correct_answer = Some(item.answer.clone());
        }
        self.life.emit(ServerEvent::Assessment(assessment));
        Ok(())
    }

    /// Grades the session (unanswered items count as wrong) and queues `session.completed`.
    pub fn complete(
        &mut self,
        trigger: AssessmentTrigger,
        library: &BlueprintLibrary,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.life.advance(PhaseEvent::Completed, now_ms)?;
        self.current = None;
        self.pending = None;
        self.result = Some(self.grade(trigger, library, now_ms));
        self.emit_completed();
        Ok(())
    }

    fn emit_completed(&mut self) {
        if let Some(result) = self.result.clone() {
            self.life
                .announce_completed(viva_protocol::result::SessionResult::Assessment(result));
        }
    }

    fn grade(
        &self,
        trigger: AssessmentTrigger,
        library: &BlueprintLibrary,
        now_ms: u64,
    ) -> AssessmentResult {
        let outcomes: Vec<ItemOutcome> = self.items.iter().map(outcome).collect();
        let skipped = self
            .items
            .iter()
            .filter(|s| s.response.as_ref().is_some_and(|r| r.skipped))
            .count();
        let duration_seconds = now_ms.saturating_sub(self.life.created_at_ms) as f64 / 1000.0;
        let Some(assessment) = library.assessment(&self.assessment_id) else {
            return empty_result(self, trigger, duration_seconds);
        };
        let report = score(assessment, &outcomes);
        AssessmentResult {
            assessment_id: self.assessment_id.clone(),
            learning: self.learning,
            trigger,
            score_percent: report.score_percent,
            grade_band: report.grade_band,
            passed: report.passed,
            passing_score_percent: assessment.passing_score_percent,
            items_total: report.items_total,
            items_attempted: report.items_attempted,
            items_correct: report.items_correct,
            items_skipped: skipped as u32,
            duration_seconds,
            sections: report.sections.into_iter().map(section_result).collect(),
            audit: Vec::new(),
        }
    }

    /// Resumes; queues `session.resumed`, then the open item or the result.
    pub fn resume(&mut self, library: &BlueprintLibrary, now_ms: u64) -> Result<(), Refusal> {
        let progress = self.progress();
        let status = self.life.resume(Mode::Assessment, progress, now_ms)?;
        if status == SessionStatus::Completed {
            self.emit_completed();
        } else if self.pending.is_none() {
            self.emit_open_item(library, now_ms);
        }
        Ok(())
    }

    /// The result with its audit trail: every item, its key, and the response.
    pub fn result_with_audit(&self) -> Option<AssessmentResult> {
        let mut result = self.result.clone()?;
        result.audit = self
            .items
            .iter()
            .enumerate()
            .map(|(i, slot)| audit_item(i, slot))
            .collect();
        Some(result)
    }
}

fn judge_response(item: &Item, pending: &PendingAnswer) -> Response {
    let (given, correct, skipped) = match &pending.input {
        AnswerInput::Skip => (None, false, true),
        AnswerInput::Choice(index) => {
            let shown = item.options.get(*index as usize).cloned();
            (shown, *index as usize == item.answer_index, false)
        }
        AnswerInput::Text(text) => {
            let normalized = normalize_answer(text, Some(item.options.len()));
            let correct = match normalized {
                Normalized::OptionIndex(index) => index == item.answer_index,
                other => answers_match(&other, &item.answer),
            };
            (Some(text.clone()), correct, false)
        }
    };
    Response {
        given,
        correct,
        skipped,
        answered_at_ms: pending.at_ms,
    }
}

/// What the server read a typed or spoken text answer as: its normalised value, shown as
/// the candidate would write it ("192.168.10.0", "8206", "option B"); `None` for a choice or
/// a skip, where there was nothing to read.
fn understood_as(item: &Item, input: &AnswerInput) -> Option<String> {
    let AnswerInput::Text(text) = input else {
        return None;
    };
    let first = normalize_answer(text, Some(item.options.len()));
    // The second reading `answers_match` gives a text answer: as the key's kind.
    let read = match first {
        Normalized::Text(_) => match normalize_as(text, Some(AnswerKind::of_key(&item.answer))) {
            Normalized::Text(_) => first,
            as_kind => as_kind,
        },
        other => other,
    };
    Some(match read {
        Normalized::Number(value) => value.to_string(),
        Normalized::Ipv4([a, b, c, d]) => format!("{a}.{b}.{c}.{d}"),
        Normalized::Cidr(prefix) => format!("/{prefix}"),
        Normalized::OptionIndex(index) => option_name(index),
        Normalized::Text(text) => text,
    })
}

/// "option B" for index 1.
fn option_name(index: usize) -> String {
    match u8::try_from(index).ok().filter(|i| *i < 26) {
        Some(i) => format!("option {}", char::from(b'A' + i)),
        None => format!("option {}", index + 1),
    }
}

fn outcome(slot: &super::assessment::AssessmentItem) -> ItemOutcome {
    let response = slot.response.as_ref();
    let response_ms = match (response, slot.asked_at_ms) {
        (Some(r), Some(asked)) if !r.skipped => Some(r.answered_at_ms.saturating_sub(asked)),
        _ => None,
    };
    ItemOutcome {
        section_id: slot.planned.section_id.clone(),
        attempted: response.is_some_and(|r| !r.skipped),
        correct: response.is_some_and(|r| r.correct),
        response_ms,
    }
}

fn section_result(section: viva_blueprint::scoring::SectionScore) -> SectionResult {
    SectionResult {
        section_id: section.section_id,
        title: section.title,
        items: section.items,
        attempted: section.attempted,
        correct: section.correct,
        accuracy: section.accuracy,
        average_response_ms: section.average_response_ms,
    }
}

fn empty_result(
    core: &AssessmentCore,
    trigger: AssessmentTrigger,
    duration_seconds: f64,
) -> AssessmentResult {
    AssessmentResult {
        assessment_id: core.assessment_id.clone(),
        learning: core.learning,
        trigger,
        score_percent: 0.0,
        grade_band: String::new(),
        passed: false,
        passing_score_percent: 100.0,
        items_total: core.items.len() as u32,
        items_attempted: 0,
        items_correct: 0,
        items_skipped: 0,
        duration_seconds,
        sections: Vec::new(),
        audit: Vec::new(),
    }
}

fn audit_item(index: usize, slot: &super::assessment::AssessmentItem) -> AuditItem {
    let item = slot.item.as_ref();
    let response = slot.response.as_ref();
    AuditItem {
        number: index as u32 + 1,
        section_id: slot.planned.section_id.clone(),
        skill_id: slot.planned.skill_id.clone(),
        difficulty: slot.planned.difficulty.as_str().to_owned(),
        seed: item.map_or(slot.planned.seed, |i| i.seed),
        parameters: item.map(|i| i.parameters.clone()).unwrap_or_default(),
        stem: item.map(|i| i.stem.clone()),
        options: item.map(|i| i.options.clone()).unwrap_or_default(),
        answer: item.map(|i| i.answer.clone()),
        answer_index: item.map(|i| i.answer_index as u32),
        explanation: item.and_then(|i| i.explanation.clone()),
        response: response.and_then(|r| r.given.clone()),
        correct: response.is_some_and(|r| r.correct),
        skipped: response.is_some_and(|r| r.skipped),
        response_ms: outcome(slot).response_ms,
    }
}
