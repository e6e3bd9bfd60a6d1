//! Converting an `ExamCore` to and from the versioned checkpoint format, explicitly.

use std::collections::{BTreeMap, HashMap};

use viva_protocol::config::Difficulty;
use viva_protocol::difficulty::LevelSpan;

use crate::checkpoint::format::{
    AdaptiveCheckpoint, ExamCheckpoint, NextStepCheckpoint, OpenQuestionCheckpoint, PlanCheckpoint,
    PlannerCheckpoint, RunningScenarioCheckpoint, ScenarioOutlineCheckpoint,
    ScenarioPlanCheckpoint, TurnCheckpoint,
};
use crate::exam::adaptive::{AdaptiveDifficulty, from_wire, wire_level};
use crate::exam::plan::{Coverage, ExamPlan};
use crate::exam::planner::PlannerState;
use crate::exam::scenarios::{RunningScenario, ScenarioOutline, ScenarioPlan};
use crate::exam::types::{QuestionKind, Score};

use crate::modes::exam::{ExamCore, OpenQuestion, StepAfter, Turn};

/// The exam's section of its checkpoint.
pub fn exam_checkpoint(core: &ExamCore) -> ExamCheckpoint {
    ExamCheckpoint {
        config: core.config.clone(),
        seed: core.seed,
        plan: plan_checkpoint(&core.plan),
        planner: planner_checkpoint(&core.planner),
        next_step: core.next_step.as_ref().map(step_checkpoint),
        questions_asked: core.questions_asked,
        answered: core.answered,
        open_question: core.open_question.as_ref().map(open_checkpoint),
        result: core.result.clone(),
        assessed_at_ms: core.assessed_at.clone(),
        come_back: core.come_back.clone(),
        came_back: core.came_back.clone(),
        adaptive: core.adaptive.as_ref().map(adaptive_checkpoint),
        scenarios: core.scenarios.as_ref().map(scenarios_checkpoint),
    }
}

fn adaptive_checkpoint(adaptive: &AdaptiveDifficulty) -> AdaptiveCheckpoint {
    AdaptiveCheckpoint {
        level: wire_level(adaptive.level),
        at_level: adaptive
            .at_level
            .iter()
            .map(|score| score.as_str().to_owned())
            .collect(),
        asked: adaptive
            .asked
            .iter()
            .map(|(level, from_question)| LevelSpan {
                level: wire_level(*level),
                from_question: *from_question,
            })
            .collect(),
    }
}

fn scenarios_checkpoint(plan: &ScenarioPlan) -> ScenarioPlanCheckpoint {
    ScenarioPlanCheckpoint {
        outlines: plan
            .outlines()
            .iter()
            .map(|outline| ScenarioOutlineCheckpoint {
                id: outline.id.clone(),
                elements: outline.elements.clone(),
            })
            .collect(),
        running: plan
            .running
            .as_ref()
            .map(|running| RunningScenarioCheckpoint {
                id: running.id.clone(),
                next: running.next,
                asked: running.asked,
            }),
        finished: plan.finished.clone(),
    }
}

fn restore_scenarios(stored: &ScenarioPlanCheckpoint) -> ScenarioPlan {
    let outlines = stored
        .outlines
        .iter()
        .map(|outline| ScenarioOutline {
            id: outline.id.clone(),
            elements: outline.elements.clone(),
        })
        .collect();
    let running = stored.running.as_ref().map(|running| RunningScenario {
        id: running.id.clone(),
        next: running.next,
        asked: running.asked,
    });
    ScenarioPlan::new(outlines, running, stored.finished.clone())
}

fn plan_checkpoint(plan: &ExamPlan) -> PlanCheckpoint {
    PlanCheckpoint {
        version: plan.version,
        planned_question_count: plan.planned_question_count,
        asked_count: plan.asked_count,
        bonus_used: plan.bonus_used,
        bonus_max: plan.bonus_max,
        follow_up_max_per_element: plan.follow_up_max_per_element,
        bonus_pending: plan.bonus_pending,
        follow_ups: plan
            .follow_ups
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
        coverage: plan
            .coverage
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().to_owned()))
            .collect(),
        scores: plan
            .scores
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().to_owned()))
            .collect(),
    }
}

fn planner_checkpoint(planner: &PlannerState) -> PlannerCheckpoint {
    PlannerCheckpoint {
        version: planner.version,
        queue: planner.queue.clone(),
        cursor: planner.cursor,
        recent: planner.recent.iter().cloned().collect(),
        attempts: planner
            .attempts
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
    }
}

fn step_checkpoint(step: &StepAfter) -> NextStepCheckpoint {
    let (name, element_code, missing_terms) = match step {
        StepAfter::FollowUp {
            element_code,
            missing_terms,
        } => (
            "follow_up",
            Some(element_code.clone()),
            missing_terms.clone(),
        ),
        StepAfter::Ask(kind) => (kind.as_str(), None, Vec::new()),
        StepAfter::Finish => ("finish", None, Vec::new()),
    };
    NextStepCheckpoint {
        step: name.to_owned(),
        element_code,
        missing_terms,
    }
}

fn open_checkpoint(open: &OpenQuestion) -> OpenQuestionCheckpoint {
    OpenQuestionCheckpoint {
        question_id: open.question_id.clone(),
        element_code: open.element_code.clone(),
        kind: open.kind.as_str().to_owned(),
        number: open.number,
        text: open.text.clone(),
        pending_answer: open.pending_answer.clone(),
        scenario: open.scenario.clone(),
        missing_terms: open.missing_terms.clone(),
    }
}

/// One transcript turn as the checkpoint stores it.
pub fn turn_checkpoint(turn: &Turn) -> TurnCheckpoint {
    TurnCheckpoint {
        question_id: turn.question_id.clone(),
        element_code: turn.element_code.clone(),
        kind: turn.kind.as_str().to_owned(),
        question: turn.question.clone(),
        answer: turn.answer.clone(),
        score: turn.score.map(|s| s.as_str().to_owned()),
        feedback: turn.feedback.clone(),
        examiner: turn.examiner.clone(),
        sources: turn.sources.clone(),
        scenario: turn.scenario.clone(),
    }
}

/// Rebuilds an exam from its section of the checkpoint and the transcript.
pub fn restore_exam(
    exam: &ExamCheckpoint,
    transcript: &[TurnCheckpoint],
) -> Result<ExamCore, String> {
    let plan = restore_plan(&exam.plan)?;
    let next_step = exam.next_step.as_ref().map(restore_step).transpose()?;
    let open_question = exam.open_question.as_ref().map(restore_open).transpose()?;
    let transcript = transcript
        .iter()
        .map(restore_turn)
        .collect::<Result<_, _>>()?;
    Ok(ExamCore {
        config: exam.config.clone(),
        seed: exam.seed,
        plan,
        planner: restore_planner(&exam.planner),
        next_step,
        questions_asked: exam.questions_asked,
        answered: exam.answered,
        open_question,
        result: exam.result.clone(),
        transcript,
        come_back: exam.come_back.clone(),
        came_back: exam.came_back.clone(),
        adaptive: restore_adaptive(exam)?,
        assessed_at: exam.assessed_at_ms.clone(),
        scenarios: exam.scenarios.as_ref().map(restore_scenarios),
    })
}

/// The adaptive level as stored; an adaptive exam stored without one starts afresh.
fn restore_adaptive(exam: &ExamCheckpoint) -> Result<Option<AdaptiveDifficulty>, String> {
    let Some(stored) = &exam.adaptive else {
        let adaptive = exam.config.difficulty == Difficulty::Adaptive;
        return Ok(adaptive.then(AdaptiveDifficulty::default));
    };
    let at_level = stored
        .at_level
        .iter()
        .map(|name| Score::parse(name).ok_or(format!("unknown score {name:?}")))
        .collect::<Result<_, _>>()?;
    Ok(Some(AdaptiveDifficulty {
        level: from_wire(stored.level),
        at_level,
        asked: stored
            .asked
            .iter()
            .map(|span| (from_wire(span.level), span.from_question))
            .collect(),
    }))
}

fn restore_plan(stored: &PlanCheckpoint) -> Result<ExamPlan, String> {
    let coverage = stored
        .coverage
        .iter()
        .map(|(code, name)| {
            Coverage::parse(name)
                .map(|c| (code.clone(), c))
                .ok_or(format!("unknown coverage {name:?}"))
        })
        .collect::<Result<HashMap<_, _>, _>>()?;
    let scores = parse_scores(&stored.scores)?;
    Ok(ExamPlan {
        version: stored.version,
        planned_question_count: stored.planned_question_count,
        asked_count: stored.asked_count,
        bonus_used: stored.bonus_used,
        bonus_max: stored.bonus_max,
        follow_up_max_per_element: stored.follow_up_max_per_element,
        follow_ups: stored.follow_ups.clone().into_iter().collect(),
        coverage,
        scores,
        bonus_pending: stored.bonus_pending,
    })
}

/// Parses stored score names; also used for user records.
pub fn parse_scores(stored: &BTreeMap<String, String>) -> Result<HashMap<String, Score>, String> {
    stored
        .iter()
        .map(|(code, name)| {
            Score::parse(name)
                .map(|s| (code.clone(), s))
                .ok_or(format!("unknown score {name:?}"))
        })
        .collect()
}

fn restore_planner(stored: &PlannerCheckpoint) -> PlannerState {
    PlannerState {
        version: stored.version,
        queue: stored.queue.clone(),
        cursor: stored.cursor,
        recent: stored.recent.iter().cloned().collect(),
        attempts: stored.attempts.clone().into_iter().collect(),
    }
}

fn parse_kind(name: &str) -> Result<QuestionKind, String> {
    QuestionKind::parse(name).ok_or(format!("unknown question kind {name:?}"))
}

fn restore_step(stored: &NextStepCheckpoint) -> Result<StepAfter, String> {
    match (stored.step.as_str(), &stored.element_code) {
        ("follow_up", Some(code)) => Ok(StepAfter::FollowUp {
            element_code: code.clone(),
            missing_terms: stored.missing_terms.clone(),
        }),
        ("finish", _) => Ok(StepAfter::Finish),
        (name, _) => parse_kind(name).map(StepAfter::Ask),
    }
}

fn restore_open(stored: &OpenQuestionCheckpoint) -> Result<OpenQuestion, String> {
    Ok(OpenQuestion {
        question_id: stored.question_id.clone(),
        element_code: stored.element_code.clone(),
        kind: parse_kind(&stored.kind)?,
        number: stored.number,
        text: stored.text.clone(),
        pending_answer: stored.pending_answer.clone(),
        scenario: stored.scenario.clone(),
        missing_terms: stored.missing_terms.clone(),
    })
}

fn restore_turn(stored: &TurnCheckpoint) -> Result<Turn, String> {
    let score = stored
        .score
        .as_deref()
        .map(|name| Score::parse(name).ok_or(format!("unknown score {name:?}")))
        .transpose()?;
    Ok(Turn {
        question_id: stored.question_id.clone(),
        element_code: stored.element_code.clone(),
        kind: parse_kind(&stored.kind)?,
        question: stored.question.clone(),
        answer: stored.answer.clone(),
        score,
        feedback: stored.feedback.clone(),
        examiner: stored.examiner.clone(),
        sources: stored.sources.clone(),
        scenario: stored.scenario.clone(),
    })
}

#[cfg(test)]
mod tests {
    use viva_protocol::ErrorCode;
    use viva_protocol::server::PauseReason;

    use crate::checkpoint::format::{PhaseName, SessionCheckpoint};
    use crate::modes::assessment::AnswerInput;
    use crate::modes::restore;
    use crate::modes::test_sessions::{START_MS, World};
    use crate::session::snapshot::checkpoint_of;
    use crate::session::state::SessionState;

    /// Writes, reads back and writes again: the two checkpoints are equal, and the restored
    /// session behaves as the original (same work, same open question, same status).
    fn assert_round_trips(state: &SessionState, what: &str) {
        let written = checkpoint_of(state);
        let bytes = serde_json::to_vec(&written).expect("a checkpoint encodes");
        let read: SessionCheckpoint = serde_json::from_slice(&bytes).expect("and decodes");
        let restored = restore(read).expect("a written checkpoint restores");
        assert_eq!(checkpoint_of(&restored), written, "{what}");
        assert_eq!(restored.work(), state.work(), "{what}");
        assert_eq!(
            restored.open_question_id(),
            state.open_question_id(),
            "{what}"
        );
        assert_eq!(restored.life().status(), state.life().status(), "{what}");
        assert_eq!(restored.life().phase, state.life().phase, "{what}");
        assert_eq!(restored.result(), state.result(), "{what}");
    }

    /// Every boundary of a session of each mode: new, asked, answered, assessed, paused,
    /// resumed, completed.
    #[test]
    fn every_mode_round_trips_through_its_checkpoint_at_every_boundary() {
        let world = World::new();
        let answer = |state: &mut SessionState, input: AnswerInput, now: u64| {
            state
                .commit_answer(input, Some(format!("e{now}")), world.ctx(), now)
                .expect("the open question takes an answer");
        };
        let sessions: [(&str, SessionState, AnswerInput); 4] = [
            (
                "exam",
                world.exam(),
                AnswerInput::Text("the airworthiness certificate".into()),
            ),
            (
                "adaptive exam",
                world.adaptive_exam(),
                AnswerInput::Text("the airworthiness certificate".into()),
            ),
            (
                "timed assessment",
                world.assessment("TIMED", false),
                AnswerInput::Choice(1),
            ),
            (
                "learning assessment",
                world.assessment("UNTIMED", true),
                AnswerInput::Text("7".into()),
            ),
        ];
        for (what, mut state, input) in sessions {
            assert_round_trips(&state, &format!("{what}: new"));
            world.run(&mut state, crate::exam::types::Score::Partial, START_MS + 1);
            assert_round_trips(&state, &format!("{what}: asked"));
            answer(&mut state, input, START_MS + 2);
            assert_round_trips(&state, &format!("{what}: answered"));
            world.run(&mut state, crate::exam::types::Score::Partial, START_MS + 3);
            assert_round_trips(&state, &format!("{what}: assessed and asked again"));
            state
                .life_mut()
                .pause(PauseReason::OtherDevice, START_MS + 4)
                .unwrap();
            assert_round_trips(&state, &format!("{what}: paused"));
            state.resume(world.ctx(), START_MS + 5).unwrap();
            assert_round_trips(&state, &format!("{what}: resumed"));
            state.end(world.ctx(), START_MS + 6).unwrap();
            assert!(state.result().is_some(), "{what}");
            assert_round_trips(&state, &format!("{what}: completed"));
        }
    }

    #[test]
    fn a_checkpoint_that_does_not_describe_a_session_is_refused_with_its_reason() {
        let world = World::new();
        let exam = checkpoint_of(&world.exam());
        let assessment = checkpoint_of(&world.assessment("UNTIMED", false));
        let cases: [(&str, SessionCheckpoint, &str); 2] = [
            (
                "unknown format",
                SessionCheckpoint {
                    format: 99,
                    ..exam.clone()
                },
                "unknown format 99",
            ),
            (
                "paused, to resume into a completed session",
                SessionCheckpoint {
                    phase: PhaseName::Paused,
                    resume_to: Some(PhaseName::Completed),
                    ..exam.clone()
                },
                "cannot resume to Completed",
            ),
        ];
        for (what, checkpoint, reason) in cases {
            let err = restore(checkpoint).expect_err(what);
            assert!(err.reason.contains(reason), "{what}: {err}");
            assert_eq!(err.session_id, "s-1", "{what}");
        }
        let exam = serde_json::to_value(&exam).unwrap();
        let assessment = serde_json::to_value(&assessment).unwrap();
        let without = |mut json: serde_json::Value, key: &str, mode: &str| {
            json.as_object_mut().unwrap().remove(key);
            json["mode"] = mode.into();
            json
        };
        let sections_missing = [
            (
                "exam without its state",
                without(exam.clone(), "exam", "exam"),
                "\"exam\" without",
            ),
            (
                "assessment named an exam",
                without(assessment, "", "exam"),
                "\"exam\" without",
            ),
            ("tutor", without(exam, "", "tutor"), "\"tutor\" without"),
        ];
        for (what, json, reason) in sections_missing {
            let err = serde_json::from_value::<SessionCheckpoint>(json).expect_err(what);
            assert!(err.to_string().contains(reason), "{what}: {err}");
        }
    }

    #[test]
    fn the_checkpoint_stores_phase_and_mode_by_their_names() {
        let world = World::new();
        let mut state = world.assessment("UNTIMED", false);
        world.run(&mut state, crate::exam::types::Score::Partial, START_MS + 1);
        state
            .life_mut()
            .pause(PauseReason::User, START_MS + 2)
            .unwrap();
        let json = serde_json::to_value(checkpoint_of(&state)).unwrap();
        assert_eq!(json["phase"], "paused");
        assert_eq!(
            json["resume_to"], "question_asked",
            "the item is shown again on resume"
        );
        assert_eq!(json["mode"], "assessment");
        let mut renamed = json.clone();
        renamed["phase"] = "thinking".into();
        let err = serde_json::from_value::<SessionCheckpoint>(renamed).unwrap_err();
        assert!(err.to_string().contains("thinking"), "{err}");
        assert_eq!(
            state.commit_answer(AnswerInput::Choice(0), None, world.ctx(), START_MS + 3),
            Err(crate::session::lifecycle::Refusal::new(
                ErrorCode::SessionPaused,
                "the session is paused; resume it first"
            ))
        );
    }
}
