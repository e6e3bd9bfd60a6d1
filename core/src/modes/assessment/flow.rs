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

use crate::modes::assessment::{AnswerInput, AssessmentCore, PendingAnswer, Response};
use crate::session::lifecycle::{Lifecycle, Refusal};
use crate::session::phase::PhaseEvent;

impl AssessmentCore {
    /// Queues `session.started`.
    pub fn announce_start(&self, life: &mut Lifecycle, library: &BlueprintLibrary) {
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
            adaptive_difficulty: None,
        };
        life.announce(Mode::Assessment, plan);
    }

    /// Commits the generated item of slot `index` as the open question.
    pub fn ask(
        &mut self,
        life: &mut Lifecycle,
        index: usize,
        item: Item,
        library: &BlueprintLibrary,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        life.advance(PhaseEvent::QuestionCommitted, now_ms)?;
        let slot = &mut self.items[index];
        slot.item = Some(item);
        slot.asked_at_ms = Some(now_ms);
        self.current = Some(index);
        self.emit_open_item(life, library, now_ms);
        Ok(())
    }

    /// Queues the open item (again, after a resume): stem and options, never the key.
    pub fn emit_open_item(&self, life: &mut Lifecycle, library: &BlueprintLibrary, now_ms: u64) {
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
            scenario: None,
            total: show_progress.then_some(self.items.len() as u32),
            time_remaining_seconds: self.seconds_remaining(now_ms),
            difficulty: None,
        };
        life.emit(ServerEvent::Question(question));
    }

    /// Commits an answer to the open item and queues its `ack`.
    pub fn commit_answer(
        &mut self,
        life: &mut Lifecycle,
        input: AnswerInput,
        allow_skip: bool,
        event_id: Option<String>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        life.require_live()?;
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
        life.updated_at_ms = now_ms;
        life.acknowledge(event_id);
        Ok(())
    }

    /// Judges the committed answer and queues the `assessment` (only `recorded` when evaluating).
    pub fn judge(&mut self, life: &mut Lifecycle, now_ms: u64) -> Result<(), Refusal> {
        let (Some(index), Some(pending)) = (self.current, self.pending.take()) else {
            return Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "no answer awaits judging",
            ));
        };
        life.advance(PhaseEvent::AnswerAssessed, now_ms)?;
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
        life.emit(ServerEvent::Assessment(assessment));
        Ok(())
    }

    /// Grades the session (unanswered items count as wrong) and queues `session.completed`.
    pub fn complete(
        &mut self,
        life: &mut Lifecycle,
        trigger: AssessmentTrigger,
        library: &BlueprintLibrary,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        life.advance(PhaseEvent::Completed, now_ms)?;
        self.current = None;
        self.pending = None;
        self.result = Some(self.grade(trigger, library, life.created_at_ms, now_ms));
        self.emit_completed(life);
        Ok(())
    }

    fn emit_completed(&self, life: &mut Lifecycle) {
        if let Some(result) = self.result.clone() {
            life.announce_completed(viva_protocol::result::SessionResult::Assessment(result));
        }
    }

    fn grade(
        &self,
        trigger: AssessmentTrigger,
        library: &BlueprintLibrary,
        created_at_ms: u64,
        now_ms: u64,
    ) -> AssessmentResult {
        let outcomes: Vec<ItemOutcome> = self.items.iter().map(outcome).collect();
        let skipped = self
            .items
            .iter()
            .filter(|s| s.response.as_ref().is_some_and(|r| r.skipped))
            .count();
        let duration_seconds = now_ms.saturating_sub(created_at_ms) as f64 / 1000.0;
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
    pub fn resume(
        &self,
        life: &mut Lifecycle,
        library: &BlueprintLibrary,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let progress = self.progress();
        let status = life.resume(Mode::Assessment, progress, now_ms)?;
        if status == SessionStatus::Completed {
            self.emit_completed(life);
        } else if self.pending.is_none() {
            self.emit_open_item(life, library, now_ms);
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

fn outcome(slot: &crate::modes::assessment::AssessmentItem) -> ItemOutcome {
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

fn audit_item(index: usize, slot: &crate::modes::assessment::AssessmentItem) -> AuditItem {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::assessment::AssessmentWork;
    use crate::modes::test_sessions::{START_MS, World};

    /// An assessment of `id` with its first item asked and delivered.
    fn asked(world: &World, id: &str, learning: bool) -> (AssessmentCore, Lifecycle) {
        let mut life = world.life();
        let mut core =
            AssessmentCore::create(START_MS, id, learning, 3, &world.blueprints).unwrap();
        assert_eq!(core.pending_work(&life), AssessmentWork::Ask(0));
        let item = core.generate_slot(0, &world.blueprints).unwrap();
        core.ask(&mut life, 0, item, &world.blueprints, START_MS)
            .unwrap();
        life.mark_delivered(START_MS);
        (core, life)
    }

    fn key(core: &AssessmentCore) -> (u32, String) {
        let item = core.items[0].item.as_ref().unwrap();
        (item.answer_index as u32, item.answer.clone())
    }

    #[test]
    fn an_answer_is_checked_against_the_open_item_before_it_is_committed() {
        let world = World::new();
        let cases: [(&str, bool, AnswerInput, Option<ErrorCode>); 5] = [
            ("UNTIMED", false, AnswerInput::Choice(3), None),
            (
                "UNTIMED",
                false,
                AnswerInput::Choice(4),
                Some(ErrorCode::InvalidAnswer),
            ),
            (
                "UNTIMED",
                false,
                AnswerInput::Skip,
                Some(ErrorCode::SkipNotAllowed),
            ),
            ("TIMED", true, AnswerInput::Skip, None),
            ("TIMED", true, AnswerInput::Text("forty".into()), None),
        ];
        for (id, allow_skip, input, refused) in cases {
            let (mut core, mut life) = asked(&world, id, false);
            let got = core.commit_answer(&mut life, input.clone(), allow_skip, None, START_MS + 1);
            assert_eq!(got.err().map(|r| r.code), refused, "{id} {input:?}");
            assert_eq!(core.pending.is_some(), refused.is_none(), "{id} {input:?}");
        }
    }

    #[test]
    fn a_second_answer_to_the_same_item_is_refused() {
        let world = World::new();
        let (mut core, mut life) = asked(&world, "UNTIMED", false);
        core.commit_answer(&mut life, AnswerInput::Choice(0), false, None, START_MS + 1)
            .unwrap();
        let refusal =
            core.commit_answer(&mut life, AnswerInput::Choice(1), false, None, START_MS + 1);
        assert_eq!(refusal.unwrap_err().code, ErrorCode::NoOpenQuestion);
    }

    #[test]
    fn evaluation_reveals_nothing_until_the_end_and_learning_shows_the_key() {
        let world = World::new();
        for learning in [false, true] {
            let (mut core, mut life) = asked(&world, "UNTIMED", learning);
            let (index, answer) = key(&core);
            let wrong = (index + 1) % 4;
            core.commit_answer(
                &mut life,
                AnswerInput::Choice(wrong),
                false,
                None,
                START_MS + 1,
            )
            .unwrap();
            core.judge(&mut life, START_MS + 2).unwrap();
            let Some(ServerEvent::Assessment(shown)) = life.outbox.last().map(|m| &m.event) else {
                panic!("the judgement is queued");
            };
            let revealed = (
                shown.score.clone(),
                shown.correct_answer.clone(),
                shown.recorded,
            );
            let expected = match learning {
                true => (Some("unsatisfactory".to_owned()), Some(answer), None),
                false => (None, None, Some(true)),
            };
            assert_eq!(revealed, expected, "learning {learning}");
            let response = core.items[0].response.as_ref().unwrap();
            assert!(!response.correct && !response.skipped);
        }
    }

    #[test]
    fn a_spoken_or_typed_answer_is_judged_by_its_value_and_says_what_was_understood() {
        let world = World::new();
        let (_, answer) = key(&asked(&world, "UNTIMED", false).0);
        let cases = [
            (answer.clone(), true, answer.clone()),
            (format!("it's {answer}"), true, answer.clone()),
            ("option Z".into(), false, "option z".into()),
        ];
        for (said, correct, understood) in cases {
            let (mut core, mut life) = asked(&world, "UNTIMED", true);
            core.commit_answer(
                &mut life,
                AnswerInput::Text(said.clone()),
                false,
                None,
                START_MS + 1,
            )
            .unwrap();
            core.judge(&mut life, START_MS + 2).unwrap();
            assert_eq!(
                core.items[0].response.as_ref().unwrap().correct,
                correct,
                "{said}"
            );
            let Some(ServerEvent::Assessment(shown)) = life.outbox.last().map(|m| &m.event) else {
                panic!("the judgement is queued");
            };
            assert_eq!(
                shown.understood_as.as_deref(),
                Some(understood.as_str()),
                "{said}"
            );
        }
    }

    #[test]
    fn grading_counts_unanswered_items_as_wrong_and_keeps_the_keys_for_the_audit() {
        let world = World::new();
        let (mut core, mut life) = asked(&world, "UNTIMED", false);
        let (index, _) = key(&core);
        core.commit_answer(
            &mut life,
            AnswerInput::Choice(index),
            false,
            None,
            START_MS + 1,
        )
        .unwrap();
        core.judge(&mut life, START_MS + 2).unwrap();
        core.complete(
            &mut life,
            AssessmentTrigger::UserEnded,
            &world.blueprints,
            START_MS + 60_000,
        )
        .unwrap();
        let result = core.result.clone().unwrap();
        assert_eq!(
            (
                result.items_total,
                result.items_attempted,
                result.items_correct
            ),
            (2, 1, 1)
        );
        assert_eq!(result.score_percent, 50.0);
        assert_eq!(result.duration_seconds, 60.0);
        assert!(
            result.audit.is_empty(),
            "the result sent in session.completed has no audit"
        );
        let audit = core.result_with_audit().unwrap().audit;
        assert_eq!(audit.len(), 2);
        assert_eq!(audit[0].answer_index, Some(index));
        assert_eq!(audit[1].stem, None, "an item never asked has no stem");
    }
}
