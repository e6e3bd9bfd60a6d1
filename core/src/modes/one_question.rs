//! A one-question check: the server asks one question (the config's, or a request to say a
//! sentence), takes any answer, typed or spoken, and completes with the answer as it heard
//! it. A device uses it to check that it is heard before an exam; the codebase uses it as
//! the smallest whole mode — everything a new mode writes, and nothing else.

use viva_protocol::config::OneQuestionConfig;
use viva_protocol::result::{OneQuestionResult, SessionResult};
use viva_protocol::server::{PlanSummary, Progress, Question, ServerEvent};
use viva_protocol::{ErrorCode, Mode};

use crate::base::{AnswerInput, Listening, ModeInput, Refusal};
use crate::checkpoint::sections::{ModeCheckpoint, OneQuestionCheckpoint};
use crate::session::lifecycle::Lifecycle;
use crate::session::mode::{OpenQuestionRef, SessionMode, StepContext, Work};
use crate::session::phase::{LivePhase, PhaseEvent};
use crate::session::rules::{SessionLabel, SessionMarks};
use crate::session::state::wrong_mode;

/// What is asked when the config names no question.
pub const DEFAULT_QUESTION: &str =
    "Say a sentence, as you would answer the examiner, so we can check that you are heard.";
/// The longest question a config may ask, in characters.
pub const MAX_QUESTION_CHARS: usize = 500;
/// The id of the one question.
const QUESTION_ID: &str = "q1";

/// A one-question check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneQuestion {
    question: String,
    asked: bool,
    answer: Option<String>,
    completed: bool,
}

/// What a check is, for the user's list.
pub fn label() -> SessionLabel {
    SessionLabel {
        mode: Mode::OneQuestion,
        title: "One-question check".into(),
        marks: SessionMarks::default(),
    }
}

/// A new check; refuses an empty or overlong question.
pub fn open(config: OneQuestionConfig) -> Result<OneQuestion, Refusal> {
    let question = config.question.unwrap_or_else(|| DEFAULT_QUESTION.into());
    let question = question.trim().to_owned();
    if question.is_empty() || question.chars().count() > MAX_QUESTION_CHARS {
        let message = format!("question: give 1 to {MAX_QUESTION_CHARS} characters");
        return Err(Refusal::new(ErrorCode::InvalidConfig, message));
    }
    Ok(OneQuestion {
        question,
        asked: false,
        answer: None,
        completed: false,
    })
}

/// A check from its checkpoint section.
pub fn restore(stored: &OneQuestionCheckpoint) -> OneQuestion {
    OneQuestion {
        question: stored.question.clone(),
        asked: stored.asked,
        answer: stored.answer.clone(),
        completed: stored.completed,
    }
}

impl OneQuestion {
    fn progress(&self) -> Progress {
        Progress {
            asked: u32::from(self.asked),
            planned_questions: 1,
            answered: u32::from(self.answer.is_some()),
            credited_by_mention: 0,
            bonus_used: 0,
        }
    }

    fn ask(&self, life: &mut Lifecycle) {
        life.emit(ServerEvent::Question(Question {
            question_id: QUESTION_ID.into(),
            text: self.question.clone(),
            options: None,
            number: 1,
            kind: None,
            element_code: None,
            scenario: None,
            total: None,
            time_remaining_seconds: None,
            difficulty: None,
        }));
    }

    fn complete(&mut self, life: &mut Lifecycle, now_ms: u64) -> Result<(), Refusal> {
        life.advance(PhaseEvent::Completed, now_ms)?;
        self.completed = true;
        if let Some(result) = self.result(false) {
            life.announce_completed(result);
        }
        Ok(())
    }
}

impl SessionMode for OneQuestion {
    fn kind(&self) -> Mode {
        Mode::OneQuestion
    }

    fn announce_start(&mut self, life: &mut Lifecycle, _: StepContext<'_>) {
        let plan = PlanSummary {
            planned_questions: 1,
            queue_length: 1,
            study_mode: None,
            time_limit_seconds: None,
            bonus_max: 0,
            follow_up_max_per_element: 0,
            adaptive_difficulty: None,
        };
        life.announce(Mode::OneQuestion, plan);
    }

    fn work(&self, life: &Lifecycle) -> Work {
        let due = life.phase.live().is_some() && (!self.asked || self.answer.is_some());
        if due { Work::Step } else { Work::Nothing }
    }

    fn step(&mut self, life: &mut Lifecycle, _: StepContext<'_>, now: u64) -> Result<(), Refusal> {
        if self.asked {
            return self.complete(life, now);
        }
        life.advance(PhaseEvent::QuestionCommitted, now)?;
        self.asked = true;
        self.ask(life);
        Ok(())
    }

    fn take_input(
        &mut self,
        life: &mut Lifecycle,
        input: ModeInput,
        event_id: Option<String>,
        _: StepContext<'_>,
        _: u64,
    ) -> Result<(), Refusal> {
        life.require_live()?;
        let text = match input {
            ModeInput::Answer(AnswerInput::Text(text)) => text,
            ModeInput::Answer(_) => {
                let message = "this check takes a typed or spoken answer";
                return Err(Refusal::new(ErrorCode::InvalidAnswer, message));
            }
            ModeInput::Event(event) => {
                return Err(wrong_mode(Mode::OneQuestion, event.type_name()));
            }
        };
        if life.phase.live() != Some(LivePhase::AwaitingAnswer) || self.answer.is_some() {
            return Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "no question is open",
            ));
        }
        self.answer = Some(text.trim().to_owned());
        life.acknowledge(event_id);
        Ok(())
    }

    fn end(&mut self, life: &mut Lifecycle, _: StepContext<'_>, now: u64) -> Result<(), Refusal> {
        self.complete(life, now)
    }

    fn resume(
        &mut self,
        life: &mut Lifecycle,
        _: StepContext<'_>,
        now: u64,
    ) -> Result<(), Refusal> {
        let status = life.resume(Mode::OneQuestion, self.progress(), now)?;
        if status == viva_protocol::server::SessionStatus::Completed {
            if let Some(result) = self.result(false) {
                life.announce_completed(result);
            }
        } else if self.asked && self.answer.is_none() {
            self.ask(life);
        }
        Ok(())
    }

    fn result(&self, _with_audit: bool) -> Option<SessionResult> {
        let result = OneQuestionResult {
            question: self.question.clone(),
            answer: self.answer.clone(),
        };
        self.completed.then_some(SessionResult::OneQuestion(result))
    }

    fn open_question(&self) -> Option<OpenQuestionRef> {
        let open = self.asked && self.answer.is_none();
        open.then(|| OpenQuestionRef {
            question_id: QUESTION_ID.into(),
            kind: "primary",
        })
    }

    fn listening(&self) -> Option<Listening<'_>> {
        None
    }

    fn checkpoint(&self) -> ModeCheckpoint {
        ModeCheckpoint::OneQuestion(OneQuestionCheckpoint {
            question: self.question.clone(),
            asked: self.asked,
            answer: self.answer.clone(),
            completed: self.completed,
        })
    }
}

#[cfg(test)]
mod tests {
    use viva_protocol::ServerEvent;
    use viva_protocol::config::SessionConfig;
    use viva_protocol::server::PauseReason;

    use super::*;
    use crate::modes::test_sessions::{START_MS, World};
    use crate::modes::{Opening, open as open_session, restore as restore_session};
    use crate::session::snapshot::checkpoint_of;
    use crate::session::state::SessionState;

    /// A check opened through the registry, its question asked and delivered.
    fn asked(world: &World, question: Option<&str>) -> SessionState {
        let config = SessionConfig::OneQuestion(OneQuestionConfig {
            question: question.map(str::to_owned),
            thinking_pause_ms: None,
        });
        let opening = Opening {
            session_id: "s-1".into(),
            user_id: "alice".into(),
            now_ms: START_MS,
            ..Opening::default()
        };
        let mut state = open_session(config, opening, world.ctx()).expect("a check opens");
        state.announce_start(world.ctx());
        assert_eq!(state.work(), Work::Step);
        state.step(world.ctx(), START_MS).unwrap();
        state.life_mut().mark_delivered(START_MS);
        state
    }

    fn events(state: &mut SessionState) -> Vec<ServerEvent> {
        let sent = std::mem::take(&mut state.life_mut().outbox);
        sent.into_iter().map(|message| message.event).collect()
    }

    #[test]
    fn it_asks_once_takes_any_words_and_completes_with_them() {
        let world = World::new();
        let mut state = asked(&world, None);
        let sent = events(&mut state);
        assert!(matches!(&sent[1], ServerEvent::Question(q) if q.text == DEFAULT_QUESTION));
        assert_eq!(state.open_question_kind(), Some("primary"));
        let words = AnswerInput::Text("  Cleared to land.  ".into());
        state
            .commit_answer(words, Some("e1".into()), world.ctx(), START_MS)
            .unwrap();
        assert_eq!(state.work(), Work::Step);
        state.step(world.ctx(), START_MS).unwrap();
        let expected = SessionResult::OneQuestion(OneQuestionResult {
            question: DEFAULT_QUESTION.into(),
            answer: Some("Cleared to land.".into()),
        });
        assert_eq!(state.result(), Some(expected));
        assert_eq!(state.work(), Work::Nothing);
        assert!(state.life().is_applied("e1"));
    }

    #[test]
    fn what_it_does_not_take_is_refused_and_changes_nothing() {
        let world = World::new();
        let mut state = asked(&world, Some("Say your name."));
        let before = checkpoint_of(&state);
        let cases = [
            (
                ModeInput::Answer(AnswerInput::Choice(0)),
                ErrorCode::InvalidAnswer,
            ),
            (
                ModeInput::Answer(AnswerInput::Skip),
                ErrorCode::InvalidAnswer,
            ),
            (
                ModeInput::Event(viva_protocol::ClientEvent::TutorStuck),
                ErrorCode::WrongMode,
            ),
        ];
        for (input, code) in cases {
            let refused = state.take_input(input, Some("e2".into()), world.ctx(), START_MS);
            assert_eq!(refused.unwrap_err().code, code);
            assert_eq!(checkpoint_of(&state), before);
        }
        state.life_mut().pause(PauseReason::User, START_MS).unwrap();
        let words = AnswerInput::Text("x".into());
        let paused = state.commit_answer(words, None, world.ctx(), START_MS);
        assert_eq!(
            paused.unwrap_err().code,
            ErrorCode::SessionPaused,
            "the lifecycle refuses"
        );
    }

    #[test]
    fn a_bad_question_is_refused_at_open() {
        let world = World::new();
        for question in ["   ", &"x".repeat(MAX_QUESTION_CHARS + 1)] {
            let config = SessionConfig::OneQuestion(OneQuestionConfig {
                question: Some(question.to_owned()),
                thinking_pause_ms: None,
            });
            let refused = open_session(config, Opening::default(), world.ctx()).unwrap_err();
            assert_eq!(refused.code, ErrorCode::InvalidConfig);
        }
    }

    #[test]
    fn a_resumed_check_asks_again_and_an_ended_one_reports_no_answer() {
        let world = World::new();
        let mut state = asked(&world, Some("Say your name."));
        state.life_mut().pause(PauseReason::User, START_MS).unwrap();
        let mut restored = restore_session(checkpoint_of(&state)).expect("it restores");
        assert_eq!(checkpoint_of(&restored), checkpoint_of(&state));
        events(&mut restored);
        restored.resume(world.ctx(), START_MS + 1).unwrap();
        let sent = events(&mut restored);
        assert!(matches!(&sent[1], ServerEvent::Question(q) if q.text == "Say your name."));
        restored.end(world.ctx(), START_MS + 2).unwrap();
        let Some(SessionResult::OneQuestion(result)) = restored.result() else {
            panic!("an ended check has its result");
        };
        assert_eq!(result.answer, None);
        assert!(!restored.expire_if_due(world.ctx(), u64::MAX), "untimed");
    }
}
