//! Tutoring as a [`SessionMode`]: how a session opens on a course (claiming the student's
//! snapshot, a side record), what it asks of the actor (the model tutor's call, the
//! examiner's verdict on a rubric drill), and its checkpoint section and side records.

use std::sync::Arc;

use viva_protocol::config::TutorConfig;
use viva_protocol::result::{SessionResult, TutorTurnLog};
use viva_protocol::server::{PlanSummary, ServerEvent};
use viva_protocol::tutor::TutorDelta;
use viva_protocol::{ErrorCode, Mode};

use super::snapshot::{restore_snapshot, snapshot_record, tutor_checkpoint};
use super::{Awaiting, FALLBACK_PREFIX, TutorCore};
use crate::base::{Listening, ModeInput, Refusal};
use crate::checkpoint::format::TurnCheckpoint;
use crate::checkpoint::sections::ModeCheckpoint;
use crate::checkpoint::tutor_format::SnapshotRecord;
use crate::examiner::Examined;
use crate::modes::opening::Opening;
use crate::session::lifecycle::Lifecycle;
use crate::session::mode::{
    Call, CallAnswer, CallFuture, EventSink, OpenQuestionRef, SessionMode, StepContext, Work,
    WorkReply, unasked_reply,
};
use crate::session::phase::LivePhase;
use crate::session::rules::{SessionLabel, SessionMarks};
use crate::session::side::{SideClaim, SideHold, SideKey, SideWrite};
use crate::tutor::brain::{OpenCard, TutorInput};
use crate::tutor::drawn::DrillQuestion;
use crate::tutor::model::{ModelAnswer, ModelTurnRequest, TutorModel};
use crate::tutor::snapshot::StudentSnapshot;
use crate::tutor::wire::tutor_input;

impl SessionMode for TutorCore {
    fn kind(&self) -> Mode {
        Mode::Tutor
    }

    fn announce_start(&mut self, life: &mut Lifecycle, ctx: StepContext<'_>) {
        let units = ctx
            .tutor
            .course(&self.course_id)
            .map_or(0, |(course, _)| course.doc.units.len() as u32);
        let plan = PlanSummary {
            planned_questions: 0,
            queue_length: units,
            study_mode: None,
            time_limit_seconds: None,
            bonus_max: 0,
            follow_up_max_per_element: 0,
            adaptive_difficulty: None,
        };
        life.announce(Mode::Tutor, plan);
    }

    fn work(&self, life: &Lifecycle) -> Work {
        match (life.phase.live(), &self.awaiting) {
            (Some(LivePhase::Idle), _) => Work::Step,
            (Some(LivePhase::AwaitingAnswer), Some(Awaiting::Proposal(message))) => {
                Work::Call(message.clone())
            }
            (Some(LivePhase::AwaitingAnswer), Some(Awaiting::Verdict(answer))) => {
                Work::Assess(answer.request())
            }
            _ => Work::Nothing,
        }
    }

    /// The model tutor's call for the pending message: answered at once with `no_model`
    /// when no model tutor is configured (the brain's turn then stands).
    fn call(&self, ctx: StepContext<'_>, now_ms: u64) -> Option<Call> {
        let request = self.model_request(ctx, now_ms)?;
        let Some(model) = ctx.tutor_model.cloned() else {
            let answer: ModelAnswer = Examined::offline(Err("no_model"));
            return Some(Call::Answered(CallAnswer::new(None, answer)));
        };
        Some(Call::Run(Box::new(move |sink| {
            propose(model, request, sink)
        })))
    }

    /// The examiner's verdict on the pending rubric drill answer (the drill's result), or the
    /// model tutor's answer to the pending message.
    fn take_reply(
        &mut self,
        life: &mut Lifecycle,
        reply: WorkReply,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        match reply {
            WorkReply::Assessed(verdict) => self.take_verdict(life, verdict, ctx, now_ms),
            WorkReply::Called(answer) => {
                let answer: ModelAnswer = answer.read()?;
                self.take_proposal(life, answer, ctx, now_ms)
            }
            WorkReply::Phrased(..) => Err(unasked_reply()),
        }
    }

    /// The opening turn: the tutor greets the student on the focus unit.
    fn step(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let turn = self.turn(TutorInput::Opening, ctx, now_ms)?;
        self.emit_turn(life, turn, None, ctx, now_ms)
    }

    fn take_input(
        &mut self,
        life: &mut Lifecycle,
        input: ModeInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let input = match input {
            ModeInput::Answer(answer) => {
                life.require_live()?;
                self.input_of(answer, ctx)?
            }
            ModeInput::Event(event) => match tutor_input(event) {
                Some(read) => read?,
                None => return Err(Refusal::new(ErrorCode::WrongMode, "not a tutor event")),
            },
        };
        self.take_tutor_input(life, input, event_id, ctx, now_ms)
    }

    fn end(
        &mut self,
        life: &mut Lifecycle,
        _ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.complete(life, now_ms)
    }

    /// `session.resumed`, then the last turn again with the snapshot as it stands now (lock
    /// countdowns move on), so the device shows the open card.
    fn resume(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let status = life.resume(Mode::Tutor, self.progress(), now_ms)?;
        if let Some(result) = &self.result {
            life.announce_completed(SessionResult::Tutor(result.clone()));
            return Ok(());
        }
        let Some(mut turn) = self.last_turn.clone() else {
            return Ok(());
        };
        if status == viva_protocol::server::SessionStatus::Active
            && self.close_locked_card(life, ctx, now_ms)?
        {
            return Ok(());
        }
        if status == viva_protocol::server::SessionStatus::Active {
            if let Ok(tutor) = self.tutor(ctx) {
                turn.snapshot = self.shown_snapshot(&tutor, now_ms);
            }
            life.emit(ServerEvent::TutorTurn(Box::new(turn)));
        }
        Ok(())
    }

    fn result(&self, with_audit: bool) -> Option<SessionResult> {
        let mut result = self.result.clone()?;
        if !with_audit {
            return Some(SessionResult::Tutor(result));
        }
        result.log = self
            .transcript
            .iter()
            .enumerate()
            .map(|(index, turn)| TutorTurnLog {
                turn: index as u32 + 1,
                action: turn.kind.clone(),
                target_unit: turn.element_code.clone(),
                said: turn.answer.clone(),
                outcome: turn.score.clone(),
                fallback: turn
                    .feedback
                    .as_deref()
                    .and_then(|f| f.strip_prefix(FALLBACK_PREFIX))
                    .map(str::to_owned),
                examiner: turn.examiner.clone(),
            })
            .collect();
        Some(SessionResult::Tutor(result))
    }

    fn open_question(&self) -> Option<OpenQuestionRef> {
        if self.result.is_some() || self.turns == 0 {
            return None;
        }
        Some(match &self.state.open {
            Some(OpenCard::Drill { drill_id, .. }) => OpenQuestionRef {
                question_id: drill_id.clone(),
                kind: "item",
            },
            Some(OpenCard::Exam { question_id }) => OpenQuestionRef {
                question_id: question_id.clone(),
                kind: "primary",
            },
            None => OpenQuestionRef {
                question_id: format!("t{}", self.turns),
                kind: "primary",
            },
        })
    }

    fn listening(&self) -> Option<Listening<'_>> {
        match &self.state.open {
            Some(OpenCard::Drill {
                drill_id,
                question: DrillQuestion::Skill(item),
                ..
            }) => Some(Listening::Item {
                question_id: drill_id.clone(),
                item,
            }),
            _ => None,
        }
    }

    fn marks(&self) -> SessionMarks {
        SessionMarks {
            evaluation: false,
            coaching: true,
        }
    }

    fn side_holds(&self) -> Vec<SideHold> {
        vec![SideHold {
            key: snapshot_key(&self.state.snapshot.user_id, &self.course_id),
            cold: snapshot_body(&self.state.snapshot),
        }]
    }

    fn side_writes(&self) -> Vec<SideWrite> {
        if !self.snapshot_unstored() {
            return Vec::new();
        }
        vec![SideWrite {
            key: snapshot_key(&self.state.snapshot.user_id, &self.course_id),
            body: snapshot_body(&self.state.snapshot),
            fence: self.fence,
            revision: self.revision,
        }]
    }

    fn side_stored(&mut self, key: &SideKey, revision: u64) {
        if key.kind == SNAPSHOT_KIND {
            self.stored_revision = self.stored_revision.max(revision);
        }
    }

    /// Takes the new fence; adopts the stored snapshot when another session of the course
    /// wrote it since this one last held it.
    fn side_reclaimed(&mut self, life: &Lifecycle, claim: SideClaim) -> Result<(), Refusal> {
        if claim.key.kind != SNAPSHOT_KIND {
            return Ok(());
        }
        self.fence = claim.fence;
        if claim.previous_owner.as_deref() == Some(life.session_id.as_str()) {
            return Ok(());
        }
        self.state.snapshot = snapshot_of_body(&claim.stored.body)?;
        self.revision += 1;
        self.stored_revision = self.revision;
        Ok(())
    }

    fn checkpoint(&self) -> ModeCheckpoint {
        ModeCheckpoint::Tutor(Box::new(tutor_checkpoint(self)))
    }

    fn transcript(&self) -> Vec<TurnCheckpoint> {
        self.transcript.clone()
    }
}

/// The side-record kind of a student's snapshot of a course (stored under `tutor`, as
/// before side records were generic).
pub const SNAPSHOT_KIND: &str = "tutor";

/// The side record of `user_id`'s snapshot of `course_id`.
pub fn snapshot_key(user_id: &str, course_id: &str) -> SideKey {
    SideKey {
        kind: SNAPSHOT_KIND,
        user_id: user_id.to_owned(),
        name: course_id.to_owned(),
    }
}

/// A snapshot as a side record's body.
pub fn snapshot_body(snapshot: &StudentSnapshot) -> serde_json::Value {
    // ignore: a record of strings, numbers and string-keyed maps always serialises.
    serde_json::to_value(snapshot_record(snapshot)).unwrap_or_default()
}

/// A snapshot from a side record's body.
pub fn snapshot_of_body(body: &serde_json::Value) -> Result<StudentSnapshot, Refusal> {
    let unreadable = |reason: String| {
        tracing::error!(%reason, "stored snapshot unreadable");
        Refusal::new(ErrorCode::Internal, "the stored progress could not be read")
    };
    let record: SnapshotRecord =
        serde_json::from_value(body.clone()).map_err(|err| unreadable(err.to_string()))?;
    restore_snapshot(&record).map_err(unreadable)
}

/// What a tutoring session is, for its user's list: "Arithmetic (tutoring)". Marked as
/// coaching, so it neither starts nor resumes beside an open evaluation.
pub fn label(config: &TutorConfig, ctx: StepContext<'_>) -> SessionLabel {
    let id = &config.course_id;
    let found = ctx.tutor.course(id);
    let name = found.map_or(id.as_str(), |(course, _)| course.doc.title.as_str());
    SessionLabel {
        mode: Mode::Tutor,
        title: format!("{name} (tutoring)"),
        marks: SessionMarks {
            evaluation: false,
            coaching: true,
        },
    }
}

/// The snapshot a new session on the course claims (a cold start at the entry unit when the
/// student has none); none for an unknown course, which [`open`] refuses.
pub fn side_holds(config: &TutorConfig, user_id: &str, ctx: StepContext<'_>) -> Vec<SideHold> {
    let Some((course, _)) = ctx.tutor.course(&config.course_id) else {
        return Vec::new();
    };
    let cold = StudentSnapshot::cold_start(user_id, &config.course_id, &course.doc.entry_unit);
    vec![SideHold {
        key: snapshot_key(user_id, &config.course_id),
        cold: snapshot_body(&cold),
    }]
}

/// A new tutoring session from the student's claimed snapshot.
pub fn open(
    config: &TutorConfig,
    opening: &Opening,
    ctx: StepContext<'_>,
) -> Result<TutorCore, Refusal> {
    let course_id = &config.course_id;
    let key = snapshot_key(&opening.user_id, course_id);
    let Some(claim) = opening.claims.iter().find(|claim| claim.key == key) else {
        // An unknown course (nothing was claimed): refused with the list of courses.
        let cold = StudentSnapshot::cold_start(&opening.user_id, course_id, "");
        return TutorCore::create(course_id, cold, 0, opening.seed, ctx);
    };
    let snapshot = snapshot_of_body(&claim.stored.body)?;
    TutorCore::create(course_id, snapshot, claim.fence, opening.seed, ctx)
}

/// The model tutor's answer. Its words go to `sink` as `tutor.delta` pieces while it
/// writes them.
fn propose(model: Arc<dyn TutorModel>, request: ModelTurnRequest, sink: EventSink) -> CallFuture {
    Box::pin(async move {
        let turn = request.turn;
        let deltas = move |text: &str| {
            let delta = TutorDelta {
                turn,
                text: text.to_owned(),
            };
            sink(ServerEvent::TutorDelta(delta));
        };
        let answer = model.propose(&request, &deltas).await;
        CallAnswer::new(answer.call.clone(), answer)
    })
}
