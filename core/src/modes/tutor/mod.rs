//! Tutoring as a [`SessionMode`]: every student input is answered at once by the embedded
//! brain ([`crate::tutor::brain`]), as one committed boundary — the input's `ack`, then the
//! `tutor.turn`. The student snapshot travels in the checkpoint; the actor also writes it to
//! the snapshot store, under this session's fence, so it outlives the session.

use viva_protocol::excerpt::quoted;
use viva_protocol::result::{SessionResult, TierEarned, TutorResult};
use viva_protocol::server::{Progress, ServerEvent};
use viva_protocol::tutor::{DrillTally, SnapshotLite, TutorTurn};
use viva_protocol::{ErrorCode, MAX_TUTOR_MESSAGE_CHARS};

use crate::base::{AnswerInput, Refusal};
use crate::checkpoint::format::TurnCheckpoint;
use crate::exam::acs::Rating;
use crate::examiner::{AssessRequest, Examined, ExaminerAssessment};
use crate::session::lifecycle::{Lifecycle, TurnNote};
use crate::session::mode::StepContext;
use crate::session::phase::{LivePhase, PhaseEvent};
use crate::tutor::brain::{
    OpenCard, Turn, Tutor, TutorInput, TutorState, countdown, model_request, take_turn,
};
use crate::tutor::cards;
use crate::tutor::drawn::DrillQuestion;
use crate::tutor::model::{ModelAnswer, ModelTurnRequest, model_fault};
use crate::tutor::snapshot::StudentSnapshot;

pub mod mode;
pub mod snapshot;

/// A rubric drill's free-form answer, waiting for the examiner's verdict: with a model
/// configured, the model judges it against the element's rubric (every quote checked in
/// code, the embedded judge's verdict on any failure).
#[derive(Debug, Clone, PartialEq)]
pub struct PendingAnswer {
    /// The student's words.
    pub text: String,
    /// The rating whose catalog holds the element.
    pub rating: Rating,
    /// The drill's ACS element.
    pub element: String,
    /// The drill's question.
    pub ask: String,
}

/// What an acked input waits for, off the mailbox; at most one at a time.
#[derive(Debug, Clone, PartialEq)]
pub enum Awaiting {
    /// A message (its text), for the model tutor's proposal.
    Proposal(String),
    /// A rubric drill's answer, for the examiner's verdict.
    Verdict(PendingAnswer),
}

impl PendingAnswer {
    /// What the examiner is asked: one element, no other pending, no follow-up.
    pub fn request(&self) -> AssessRequest {
        AssessRequest {
            rating: self.rating,
            element_code: self.element.clone(),
            question: self.ask.clone(),
            answer: self.text.clone(),
            other_pending: Vec::new(),
            follow_ups_left: 0,
            missing_terms: Vec::new(),
        }
    }
}

/// The most turns one tutoring session takes: the turn that reaches it says so and the
/// session completes (the student's progress lives in the snapshot, so a new session goes on
/// where this one stopped). A session's log, and its checkpoint, so stay bounded.
pub const MAX_TUTOR_TURNS: u32 = 500;

/// How a turn-log entry names the reason its proposal was replaced (`feedback`).
pub const FALLBACK_PREFIX: &str = "fallback: ";

/// A tutoring session's mode state.
#[derive(Debug, Clone, PartialEq)]
pub struct TutorCore {
    /// The course.
    pub course_id: String,
    /// The brain's state: snapshot, open card, seed, tally.
    pub state: TutorState,
    /// This session's claim on the stored snapshot.
    pub fence: u64,
    /// Bumped at every change of the snapshot.
    pub revision: u64,
    /// The revision last written to the snapshot store.
    pub stored_revision: u64,
    /// Turns so far.
    pub turns: u32,
    /// The last turn sent, resent to a resuming device.
    pub last_turn: Option<TutorTurn>,
    /// The turn log: one entry per turn.
    pub transcript: Vec<TurnCheckpoint>,
    /// The summary, once ended.
    pub result: Option<TutorResult>,
    /// An input acked and waiting for a model.
    pub awaiting: Option<Awaiting>,
    /// The model call behind the turn being logged.
    pub model_call: Option<viva_protocol::result::ExaminerCall>,
}

impl TutorCore {
    /// A session on `course_id` for `snapshot` (the stored one, or a cold start), holding the
    /// snapshot claim `fence`.
    pub fn create(
        course_id: &str,
        snapshot: StudentSnapshot,
        fence: u64,
        seed: u64,
        ctx: StepContext<'_>,
    ) -> Result<TutorCore, Refusal> {
        if ctx.tutor.course(course_id).is_none() {
            let known = ctx.tutor.course_ids().join(", ");
            return Err(Refusal::new(
                ErrorCode::InvalidConfig,
                format!(
                    "course_id: no course {} (courses: {known})",
                    quoted(course_id)
                ),
            ));
        }
        Ok(TutorCore {
            course_id: course_id.to_owned(),
            state: TutorState::new(snapshot, seed),
            fence,
            revision: 0,
            stored_revision: 0,
            turns: 0,
            last_turn: None,
            transcript: Vec::new(),
            result: None,
            awaiting: None,
            model_call: None,
        })
    }

    /// Whether the snapshot changed since it was last stored.
    pub fn snapshot_unstored(&self) -> bool {
        self.revision > self.stored_revision
    }

    /// Takes one student input: refused (nothing changes), or answered with a turn.
    pub fn take_tutor_input(
        &mut self,
        life: &mut Lifecycle,
        input: TutorInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        life.require_live()?;
        if life.phase.live() != Some(LivePhase::AwaitingAnswer) {
            return Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "the tutor's last turn has not reached a device yet; resume to see it",
            ));
        }
        if self.awaiting.is_some() {
            return Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "the tutor is still answering your last message",
            ));
        }
        require_short_message(&input)?;
        if let Some(answer) = self.examined_answer(&input, ctx) {
            // Acked now; the examiner's verdict, then the drill's result, follow as work.
            self.awaiting = Some(Awaiting::Verdict(answer));
            life.acknowledge(event_id);
            return Ok(());
        }
        if let TutorInput::Message(text) = &input
            && ctx.tutor.settings.model
        {
            // Acked now; the model's proposal (or the brain's turn) follows as work.
            self.awaiting = Some(Awaiting::Proposal(text.clone()));
            life.acknowledge(event_id);
            return Ok(());
        }
        let said = describe(&input);
        let turn = self.turn(input, ctx, now_ms)?;
        life.advance(PhaseEvent::AnswerAssessed, now_ms)?;
        life.acknowledge(event_id);
        self.emit_turn(life, turn, Some(said), ctx, now_ms)
    }

    /// A free-form answer to the open rubric drill, when a model is configured to judge it.
    fn examined_answer(&self, input: &TutorInput, ctx: StepContext<'_>) -> Option<PendingAnswer> {
        let TutorInput::DrillCheck {
            drill_id,
            answer: AnswerInput::Text(text),
        } = input
        else {
            return None;
        };
        let Some(OpenCard::Drill {
            drill_id: open,
            question: DrillQuestion::Rubric { element, ask },
            ..
        }) = &self.state.open
        else {
            return None;
        };
        if !ctx.tutor.settings.model || drill_id.as_ref().is_some_and(|id| id != open) {
            return None;
        }
        Some(PendingAnswer {
            text: text.clone(),
            rating: ctx.acs.rating_of(element)?,
            element: element.clone(),
            ask: ask.clone(),
        })
    }

    /// What the model tutor is asked for the pending message.
    pub fn model_request(&self, ctx: StepContext<'_>, now_ms: u64) -> Option<ModelTurnRequest> {
        let Some(Awaiting::Proposal(message)) = &self.awaiting else {
            return None;
        };
        let tutor = self.tutor(ctx).ok()?;
        let grounding = ctx.tutor.grounding(&self.course_id)?;
        let request = model_request(tutor, &self.state, grounding, message, now_ms);
        Some(ModelTurnRequest {
            turn: self.turns + 1,
            ..request
        })
    }

    fn turn(
        &mut self,
        input: TutorInput,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<Turn, Refusal> {
        self.turn_with(self.tutor(ctx)?, input, now_ms)
    }

    /// One turn of `tutor` (which may carry a model's proposal or an examiner's verdict),
    /// applied only if it is not refused; a changed snapshot bumps the revision.
    fn turn_with(
        &mut self,
        tutor: Tutor<'_>,
        input: TutorInput,
        now_ms: u64,
    ) -> Result<Turn, Refusal> {
        let mut state = self.state.clone();
        let turn = take_turn(tutor, &mut state, input, now_ms)?;
        if state.snapshot != self.state.snapshot {
            self.revision += 1;
        }
        self.state = state;
        Ok(turn)
    }

    /// The snapshot as the tutor screen shows it, with this session's drills so far.
    fn shown_snapshot(&self, tutor: &Tutor<'_>, now_ms: u64) -> SnapshotLite {
        let snapshot = &self.state.snapshot;
        let mut shown = cards::lite(snapshot, tutor.course, &tutor.course.graph, now_ms);
        shown.drills = Some(DrillTally {
            checked: self.state.tally.drills_checked,
            right: self.state.tally.drills_right,
        });
        shown
    }

    fn tutor<'a>(&self, ctx: StepContext<'a>) -> Result<Tutor<'a>, Refusal> {
        let (course, index) = ctx.tutor.course(&self.course_id).ok_or_else(|| {
            Refusal::new(
                ErrorCode::Internal,
                format!("course {:?} is no longer loaded", self.course_id),
            )
        })?;
        Ok(Tutor {
            course,
            index,
            blueprints: ctx.blueprints,
            acs: ctx.acs,
            settings: ctx.tutor.settings,
            model: None,
            verdict: None,
        })
    }

    /// The examiner's verdict on the pending rubric drill answer: the drill's result.
    fn take_verdict(
        &mut self,
        life: &mut Lifecycle,
        verdict: Examined<ExaminerAssessment>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let Some(Awaiting::Verdict(pending)) = self.awaiting.clone() else {
            return Err(Refusal::new(
                ErrorCode::Internal,
                "no drill answer awaits the examiner",
            ));
        };
        let input = TutorInput::DrillCheck {
            drill_id: None,
            answer: AnswerInput::Text(pending.text),
        };
        let said = describe(&input);
        let tutor = Tutor {
            verdict: Some(&verdict.value),
            ..self.tutor(ctx)?
        };
        let turn = self.turn_with(tutor, input, now_ms)?;
        self.awaiting = None;
        self.commit_awaited(life, (turn, verdict.call), said, ctx, now_ms)
    }

    /// The pending message's turn: the model's proposal where it holds to the policy, else
    /// the brain's own turn with the reason.
    fn take_proposal(
        &mut self,
        life: &mut Lifecycle,
        answer: ModelAnswer,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let Some(Awaiting::Proposal(message)) = self.awaiting.clone() else {
            return Err(Refusal::new(
                ErrorCode::Internal,
                "no message awaits the model",
            ));
        };
        let input = TutorInput::Message(message.clone());
        let tutor = Tutor {
            model: answer.value.as_ref().ok(),
            ..self.tutor(ctx)?
        };
        let mut turn = self.turn_with(tutor, input, now_ms)?;
        if let Err(reason) = &answer.value {
            turn.fallback = Some(model_fault(reason));
        }
        self.awaiting = None;
        self.commit_awaited(life, (turn, answer.call), message, ctx, now_ms)
    }

    /// Commits the turn of an input that waited for a model (a message for the model tutor,
    /// a rubric drill answer for the examiner), logged with the call behind it.
    fn commit_awaited(
        &mut self,
        life: &mut Lifecycle,
        (turn, call): (Turn, Option<viva_protocol::result::ExaminerCall>),
        said: String,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        life.advance(PhaseEvent::AnswerAssessed, now_ms)?;
        self.model_call = call;
        self.emit_turn(life, turn, Some(said), ctx, now_ms)
    }

    /// Commits the turn: the phase moves to a new open turn, the turn is logged and queued.
    fn emit_turn(
        &mut self,
        life: &mut Lifecycle,
        turn: Turn,
        said: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        life.advance(PhaseEvent::QuestionCommitted, now_ms)?;
        self.turns += 1;
        let mut turn = turn;
        let last = self.turns >= MAX_TUTOR_TURNS;
        if let Some(first) = turn.messages.first_mut().filter(|_| last) {
            first.text = format!(
                "{} This session has reached its {MAX_TUTOR_TURNS} turns and ends here; your \
                 progress is saved, so start a new session to go on.",
                first.text
            );
        }
        self.log_turn(life, &turn, said);
        let tutor = self.tutor(ctx)?;
        let wire = TutorTurn {
            turn: self.turns,
            action: turn.action,
            target_unit: turn.target,
            messages: turn.messages,
            snapshot: self.shown_snapshot(&tutor, now_ms),
            debug: ctx.tutor.settings.debug_view.then_some(turn.debug),
        };
        self.last_turn = Some(wire.clone());
        life.emit(ServerEvent::TutorTurn(Box::new(wire)));
        if last {
            self.complete(life, now_ms)?;
        }
        Ok(())
    }

    /// One turn-log entry: what the student did, what the tutor did and on which unit, the
    /// outcome and any fallback.
    fn log_turn(&mut self, life: &mut Lifecycle, turn: &Turn, said: Option<String>) {
        life.turn_notes.push(TurnNote {
            action: turn.action.as_str().to_owned(),
            target: turn.target.clone(),
            said: said.clone().unwrap_or_default(),
            outcome: turn.outcome.unwrap_or_default().to_owned(),
            fallback: turn.fallback.map(str::to_owned),
        });
        let text: Vec<&str> = turn.messages.iter().map(|m| m.text.as_str()).collect();
        self.transcript.push(TurnCheckpoint {
            question_id: format!("t{}", self.turns),
            element_code: turn.target.clone(),
            kind: turn.action.as_str().to_owned(),
            question: text.join("\n"),
            answer: said,
            score: turn.outcome.map(str::to_owned),
            feedback: turn
                .fallback
                .map(|reason| format!("{FALLBACK_PREFIX}{reason}")),
            examiner: self.model_call.take().into_iter().collect(),
            sources: None,
            scenario: None,
        });
    }

    fn complete(&mut self, life: &mut Lifecycle, now_ms: u64) -> Result<(), Refusal> {
        let tally = &self.state.tally;
        let result = TutorResult {
            course_id: self.course_id.clone(),
            turns: self.turns,
            drills_checked: tally.drills_checked,
            drills_right: tally.drills_right,
            exams_taken: tally.exams_taken,
            exams_passed: tally.exams_passed,
            tiers_earned: tally
                .tiers_earned
                .iter()
                .map(|(unit, tier)| TierEarned {
                    unit_id: unit.clone(),
                    tier: tier.as_str().to_owned(),
                })
                .collect(),
            log: Vec::new(),
        };
        life.advance(PhaseEvent::Completed, now_ms)?;
        self.state.open = None;
        self.result = Some(result.clone());
        life.announce_completed(SessionResult::Tutor(result));
        Ok(())
    }

    fn progress(&self) -> Progress {
        Progress {
            asked: self.turns,
            planned_questions: 0,
            answered: self
                .transcript
                .iter()
                .filter(|t| t.answer.is_some())
                .count() as u32,
            credited_by_mention: 0,
            bonus_used: 0,
        }
    }

    /// How an answer event reads in a tutor session: it answers the open drill or exam card,
    /// else it is a message to the tutor. A typed or spoken answer to an exam card is its
    /// option (a letter, or its number as shown, from 1); anything else is a message.
    fn input_of(&self, answer: AnswerInput, ctx: StepContext<'_>) -> Result<TutorInput, Refusal> {
        match (&self.state.open, answer) {
            (Some(OpenCard::Drill { .. }), AnswerInput::Skip) => Ok(TutorInput::TryAnother),
            (Some(OpenCard::Drill { .. }), answer) => Ok(TutorInput::DrillCheck {
                drill_id: None,
                answer,
            }),
            (Some(OpenCard::Exam { question_id }), AnswerInput::Choice(index)) => {
                Ok(TutorInput::ExamSubmit {
                    question_id: question_id.clone(),
                    index,
                })
            }
            (Some(OpenCard::Exam { question_id }), AnswerInput::Text(text)) => {
                let options = self.exam_options(question_id, ctx);
                Ok(match exam_option(&text, options) {
                    Some(index) => TutorInput::ExamSubmit {
                        question_id: question_id.clone(),
                        index,
                    },
                    None => TutorInput::Message(text),
                })
            }
            (_, AnswerInput::Text(text)) => Ok(TutorInput::Message(text)),
            (_, AnswerInput::Choice(_) | AnswerInput::Skip) => Err(Refusal::new(
                ErrorCode::NoOpenQuestion,
                "no drill or exam card is open to choose an option of",
            )),
        }
    }

    /// On resume: an open exam card whose question the student's snapshot now locks (its
    /// memo was viewed, or it was answered wrong, in another session of the course) closes,
    /// and a new turn says why and goes on as after a result. True when it did.
    fn close_locked_card(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<bool, Refusal> {
        let Some(OpenCard::Exam { question_id }) = &self.state.open else {
            return Ok(false);
        };
        let Some(left_ms) = self.state.snapshot.locked_for_ms(question_id, now_ms) else {
            return Ok(false);
        };
        let question_id = question_id.clone();
        self.state.open = None;
        let mut turn = self.turn(TutorInput::ExamContinue, ctx, now_ms)?;
        let why = format!(
            "The exam question that was open here is locked for {} (its memo was viewed, or it \
             was answered wrong, in another session), so it is closed.",
            countdown(left_ms)
        );
        if let Some(first) = turn.messages.first_mut() {
            first.text = format!("{why} {}", first.text);
        }
        life.advance(PhaseEvent::AnswerAssessed, now_ms)?;
        let said = format!("(resumed: {question_id} locked elsewhere)");
        self.emit_turn(life, turn, Some(said), ctx, now_ms)?;
        Ok(true)
    }

    fn exam_options(&self, question_id: &str, ctx: StepContext<'_>) -> usize {
        ctx.tutor
            .course(&self.course_id)
            .and_then(|(course, _)| {
                course
                    .doc
                    .exam_questions
                    .iter()
                    .find(|q| q.question_id == question_id)
            })
            .map_or(0, |q| q.options.len())
    }
}

/// The option a typed or spoken exam answer names: a letter (`b`, "option B") or the
/// option's number as shown (`2` is the second).
fn exam_option(text: &str, options: usize) -> Option<u32> {
    use viva_blueprint::normalize::{Normalized, normalize_answer};
    if let Normalized::OptionIndex(index) = normalize_answer(text, Some(options)) {
        return Some(index as u32);
    }
    let number: usize = text.trim().trim_end_matches('.').parse().ok()?;
    (1..=options).contains(&number).then(|| number as u32 - 1)
}

/// A message to the tutor of at most [`MAX_TUTOR_MESSAGE_CHARS`] characters.
fn require_short_message(input: &TutorInput) -> Result<(), Refusal> {
    let TutorInput::Message(text) = input else {
        return Ok(());
    };
    let chars = text.chars().count();
    if chars <= MAX_TUTOR_MESSAGE_CHARS {
        return Ok(());
    }
    Err(Refusal::new(
        ErrorCode::InvalidField,
        format!(
            "text: a message to the tutor is {chars} characters; at most \
             {MAX_TUTOR_MESSAGE_CHARS}"
        ),
    ))
}

/// What the student did, for the turn log.
fn describe(input: &TutorInput) -> String {
    match input {
        TutorInput::Opening => "(opened)".to_owned(),
        TutorInput::Message(text) => text.clone(),
        TutorInput::RequestDrill(unit) => {
            format!("REQUEST_DRILL {}", unit.as_deref().unwrap_or("(focus)"))
        }
        TutorInput::DrillCheck { answer, .. } => match answer {
            AnswerInput::Text(text) => format!("CHECK {text}"),
            AnswerInput::Choice(index) => format!("CHECK option {index}"),
            AnswerInput::Skip => "CHECK (skipped)".to_owned(),
        },
        TutorInput::Stuck => "I'm stuck".to_owned(),
        TutorInput::TryAnother => "Try another".to_owned(),
        TutorInput::DrillContinue => "DRILL_CONTINUE".to_owned(),
        TutorInput::ExamSubmit { question_id, index } => {
            format!("EXAM_SUBMIT {question_id} option {index}")
        }
        TutorInput::MemoViewed { question_id } => format!("MEMO_VIEWED {question_id}"),
        TutorInput::ExamContinue => "EXAM_CONTINUE".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use viva_protocol::ServerEvent;

    use super::*;
    use crate::base::ModeInput;
    use crate::checkpoint::sections::ModeCheckpoint;
    use crate::modes::restore_mode;
    use crate::session::mode::Work;
    use crate::session::snapshot::checkpoint_of;
    use crate::session::state::SessionState;
    use crate::tutor::library::{TutorLibrary, TutorSettings};
    use crate::tutor::test_courses::Courses;

    const NOW: u64 = 1_700_000_000_000;

    struct World {
        courses: Courses,
        tutor: TutorLibrary,
    }

    impl World {
        fn new() -> World {
            let courses = Courses::load();
            let tutor = TutorLibrary::new(
                courses.courses.clone(),
                &courses.acs,
                TutorSettings::default(),
            );
            World { courses, tutor }
        }

        fn ctx(&self) -> StepContext<'_> {
            StepContext::offline(&self.courses.acs, &self.courses.blueprints, &self.tutor)
        }

        /// A new arithmetic session, its opening turn delivered.
        fn session(&self) -> SessionState {
            let snapshot = StudentSnapshot::cold_start("ada", "ARITHMETIC", "add-1digit");
            let core = TutorCore::create("ARITHMETIC", snapshot, 1, 7, self.ctx()).unwrap();
            let life = Lifecycle::new("s1".into(), "ada".into(), NOW);
            let mut state = SessionState::new(life, Box::new(core));
            state.announce_start(self.ctx());
            assert_eq!(state.work(), Work::Step);
            state.step(self.ctx(), NOW).unwrap();
            state.life_mut().mark_delivered(NOW);
            state
        }
    }

    fn turns(state: &mut SessionState) -> Vec<TutorTurn> {
        std::mem::take(&mut state.life_mut().outbox)
            .into_iter()
            .filter_map(|m| match m.event {
                ServerEvent::TutorTurn(turn) => Some(*turn),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_exam_answer_names_an_option_by_letter_or_shown_number() {
        let cases = [
            ("b", Some(1)),
            ("2", Some(1)),
            ("4.", Some(3)),
            ("5", None),
            ("0", None),
            ("why?", None),
        ];
        for (text, expected) in cases {
            assert_eq!(exam_option(text, 4), expected, "{text}");
        }
    }

    #[test]
    fn an_unknown_course_is_refused_with_the_courses_there_are() {
        let world = World::new();
        let snapshot = StudentSnapshot::cold_start("ada", "NOPE", "x");
        let refused = TutorCore::create("NOPE", snapshot, 1, 7, world.ctx()).unwrap_err();
        assert_eq!(refused.code, ErrorCode::InvalidConfig);
        assert!(
            refused.message.contains("ARITHMETIC"),
            "{}",
            refused.message
        );
    }

    #[test]
    fn each_input_is_acked_then_answered_with_one_turn() {
        let world = World::new();
        let mut state = world.session();
        let opening = turns(&mut state);
        assert_eq!(opening.len(), 1);
        assert_eq!(opening[0].turn, 1);
        assert_eq!(state.open_question_kind(), Some("primary"));
        let drill = TutorInput::RequestDrill(None);
        let mode = tutor_of(&state).is_some();
        assert!(mode);
        let ctx = world.ctx();
        let (life, core) = split(&mut state);
        core.take_tutor_input(life, drill, Some("e1".into()), ctx, NOW)
            .unwrap();
        let outbox: Vec<&str> = state
            .life()
            .outbox
            .iter()
            .map(|m| m.event.type_name())
            .collect();
        assert_eq!(outbox, ["ack", "tutor.turn"]);
        assert_eq!(state.open_question_kind(), None, "not delivered yet");
        state.life_mut().mark_delivered(NOW);
        assert_eq!(state.open_question_kind(), Some("item"), "a drill is open");
        let answered = state.commit_answer(AnswerInput::Text("999999".into()), None, ctx, NOW);
        answered.unwrap();
        let result = turns(&mut state);
        assert_eq!(
            result.last().map(|t| t.action),
            Some(viva_protocol::tutor::TurnAction::DrillResult)
        );
        let core = tutor_of(&state).unwrap();
        assert_eq!(core.revision, 1, "the drill changed the snapshot");
        assert!(core.snapshot_unstored());
        assert_eq!(core.transcript.len(), 3);
    }

    fn split(state: &mut SessionState) -> (&mut Lifecycle, &mut TutorCore) {
        let (life, mode) = state.parts_mut();
        (life, mode.as_any_mut().downcast_mut().expect("a tutor"))
    }

    fn tutor_of(state: &SessionState) -> Option<&TutorCore> {
        state.mode_state().as_any().downcast_ref()
    }

    #[test]
    fn a_checkpoint_restores_the_same_tutor_with_its_open_drill() {
        let world = World::new();
        let mut state = world.session();
        let ctx = world.ctx();
        let (life, core) = split(&mut state);
        core.take_tutor_input(life, TutorInput::RequestDrill(None), None, ctx, NOW)
            .unwrap();
        state.life_mut().mark_delivered(NOW);
        let checkpoint = checkpoint_of(&state);
        let restored = restore_mode(&checkpoint.state, &checkpoint.transcript).unwrap();
        assert_eq!(restored.as_any().downcast_ref(), tutor_of(&state));
        let mut broken = checkpoint.clone();
        if let ModeCheckpoint::Tutor(tutor) = &mut broken.state {
            tutor.snapshot.units.insert(
                "x".into(),
                crate::checkpoint::tutor_format::UnitRecord {
                    tier: "platinum".into(),
                    drill_attempts: 0,
                    drill_streak: 0,
                    last_touched_ms: None,
                    exam_touched: false,
                },
            );
        }
        assert_eq!(
            restore_mode(&broken.state, &broken.transcript).unwrap_err(),
            "unknown tier \"platinum\""
        );
    }

    /// With a model configured, a free-form answer to a rubric drill is acked, then judged by
    /// the examiner as work (surviving a checkpoint meanwhile); the verdict grades the drill.
    #[test]
    fn a_rubric_drill_answer_waits_for_the_examiners_verdict_when_a_model_judges() {
        let mut world = World::new();
        let settings = TutorSettings {
            model: true,
            ..TutorSettings::default()
        };
        world.tutor =
            TutorLibrary::new(world.courses.courses.clone(), &world.courses.acs, settings);
        let snapshot = StudentSnapshot::cold_start("ada", "PPL-GROUND", "pilot-qualifications");
        let core = TutorCore::create("PPL-GROUND", snapshot, 1, 7, world.ctx()).unwrap();
        let life = Lifecycle::new("s1".into(), "ada".into(), NOW);
        let mut state = SessionState::new(life, Box::new(core));
        state.announce_start(world.ctx());
        state.step(world.ctx(), NOW).unwrap();
        state.life_mut().mark_delivered(NOW);
        let (life, core) = split(&mut state);
        core.take_tutor_input(life, TutorInput::RequestDrill(None), None, world.ctx(), NOW)
            .unwrap();
        let Some(OpenCard::Drill {
            question: DrillQuestion::Rubric { element, .. },
            ..
        }) = core.state.open.clone()
        else {
            panic!("a rubric drill opens: {:?}", core.state.open);
        };
        state.life_mut().mark_delivered(NOW);
        turns(&mut state);
        let answer = TutorInput::DrillCheck {
            drill_id: None,
            answer: AnswerInput::Text("I don't know".into()),
        };
        let (life, core) = split(&mut state);
        core.take_tutor_input(life, answer, Some("e1".into()), world.ctx(), NOW)
            .unwrap();
        let Work::Assess(request) = state.work() else {
            panic!("the examiner is asked: {:?}", state.work());
        };
        assert_eq!(request.element_code, element);
        assert_eq!(request.answer, "I don't know");
        assert!(turns(&mut state).is_empty(), "only the ack so far");
        let checkpoint = checkpoint_of(&state);
        let restored = restore_mode(&checkpoint.state, &checkpoint.transcript).unwrap();
        assert_eq!(
            restored.as_any().downcast_ref(),
            tutor_of(&state),
            "the wait is checkpointed"
        );
        let verdict =
            crate::modes::test_sessions::verdict(crate::exam::types::Score::Unsatisfactory);
        state.take_reply(verdict, world.ctx(), NOW).unwrap();
        let result = turns(&mut state);
        assert_eq!(result.len(), 1);
        assert_eq!(
            result[0].action,
            viva_protocol::tutor::TurnAction::DrillResult
        );
        assert!(
            result[0].messages[0].text.starts_with("feedback"),
            "{:?}",
            result[0]
        );
        assert_eq!(state.work(), Work::Nothing);
    }

    #[test]
    fn a_resumed_device_gets_the_last_turn_again_and_an_ended_session_its_summary() {
        let world = World::new();
        let mut state = world.session();
        turns(&mut state);
        state
            .life_mut()
            .pause(viva_protocol::server::PauseReason::User, NOW)
            .unwrap();
        state.life_mut().outbox.clear();
        state.resume(world.ctx(), NOW + 1).unwrap();
        let again = turns(&mut state);
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].turn, 1);
        state.end(world.ctx(), NOW + 2).unwrap();
        let Some(SessionResult::Tutor(result)) = state.result() else {
            panic!("no tutor result");
        };
        assert_eq!((result.course_id.as_str(), result.turns), ("ARITHMETIC", 1));
    }

    /// A resumed session whose open exam card another session of the course locked (it
    /// adopted that session's snapshot on resume) closes the card and says why in a new turn.
    #[test]
    fn a_resumed_session_closes_an_exam_card_locked_elsewhere_and_says_why() {
        let world = World::new();
        let mut state = world.session();
        turns(&mut state);
        let (course, _) = world.tutor.course("ARITHMETIC").unwrap();
        let question_id = course.doc.exam_questions[0].question_id.clone();
        let (_, core) = split(&mut state);
        core.state.open = Some(OpenCard::Exam {
            question_id: question_id.clone(),
        });
        core.state
            .snapshot
            .lock(&question_id, NOW, crate::tutor::exams::LOCKOUT_MS);
        state
            .life_mut()
            .pause(viva_protocol::server::PauseReason::OtherDevice, NOW)
            .unwrap();
        state.life_mut().outbox.clear();
        state.resume(world.ctx(), NOW + 1).unwrap();
        let again = turns(&mut state);
        assert_eq!(again.len(), 1, "{again:?}");
        assert_eq!(again[0].turn, 2, "a new turn, not the stale card");
        let text = &again[0].messages[0].text;
        assert!(text.contains("locked for 24 h"), "{text}");
        let open = &tutor_of(&state).unwrap().state.open;
        assert_ne!(
            open,
            &Some(OpenCard::Exam { question_id }),
            "the locked card is closed"
        );
    }

    #[test]
    fn a_message_longer_than_the_limit_is_refused_and_changes_nothing() {
        let world = World::new();
        let mut state = world.session();
        turns(&mut state);
        let ctx = world.ctx();
        let before = tutor_of(&state).cloned();
        let long = "é".repeat(MAX_TUTOR_MESSAGE_CHARS + 1);
        let refused = state.commit_answer(AnswerInput::Text(long), None, ctx, NOW);
        let refused = refused.unwrap_err();
        assert_eq!(refused.code, ErrorCode::InvalidField);
        assert!(
            refused.message.contains("at most 2000"),
            "{}",
            refused.message
        );
        assert_eq!(tutor_of(&state).cloned(), before);
        let longest = "a".repeat(MAX_TUTOR_MESSAGE_CHARS);
        let (life, core) = split(&mut state);
        core.take_tutor_input(life, TutorInput::Message(longest), None, ctx, NOW)
            .unwrap();
    }

    /// A session ends at its turn limit, saying so, and its checkpoint stays bounded.
    #[test]
    fn a_session_completes_at_its_turn_limit_and_says_so() {
        let world = World::new();
        let mut state = world.session();
        let ctx = world.ctx();
        let longest = "a".repeat(MAX_TUTOR_MESSAGE_CHARS);
        for _ in 1..MAX_TUTOR_TURNS {
            turns(&mut state);
            state.life_mut().mark_delivered(NOW);
            let (life, core) = split(&mut state);
            core.take_tutor_input(life, TutorInput::Message(longest.clone()), None, ctx, NOW)
                .unwrap();
        }
        let last = turns(&mut state);
        assert_eq!(last.last().map(|t| t.turn), Some(MAX_TUTOR_TURNS));
        let text = &last[0].messages[0].text;
        assert!(text.contains("reached its 500 turns"), "{text}");
        assert!(state.result().is_some(), "the session completed");
        let checkpoint = serde_json::to_vec(&checkpoint_of(&state)).unwrap();
        assert!(checkpoint.len() < 2_000_000, "{} bytes", checkpoint.len());
    }

    #[test]
    fn other_modes_refuse_tutor_events_with_wrong_mode() {
        let world = crate::modes::test_sessions::World::new();
        let mut exam = world.exam();
        let stuck = ModeInput::Event(viva_protocol::ClientEvent::TutorStuck);
        let refused = exam.take_input(stuck, None, world.ctx(), NOW);
        assert_eq!(refused.unwrap_err().code, ErrorCode::WrongMode);
    }
}
