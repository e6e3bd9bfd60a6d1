//! Sessions of every mode for the session core's in-file tests, and a driver that does the
//! actor's part (answering examiner work with fixed words and verdicts) without any IO.

use viva_blueprint::library::{BlueprintLibrary, Source};
use viva_protocol::config::ExamConfig;

use crate::exam::acs::AcsLibrary;
use crate::exam::plan::PlanDefaults;
use crate::exam::queue::tests::{commercial_catalog, private_catalog};
use crate::exam::types::Score;
use crate::examiner::{Examined, ExaminerAssessment};
use crate::modes::assessment::AssessmentCore;
use crate::modes::exam::ExamCore;
use crate::modes::exam::transitions::NewExam;
use crate::session::lifecycle::Lifecycle;
use crate::session::mode::{Call, StepContext, Work, WorkReply};
use crate::session::state::SessionState;

/// When every test session starts, ms since the epoch.
pub(crate) const START_MS: u64 = 1_700_000_000_000;

/// A shipped skill: two-digit addition (easy: no regrouping).
const ADDITION: &str = include_str!("../../../blueprints/skills/math/arithmetic/add-2digit.yaml");

/// An assessment of two addition items; `extra` adds configuration keys.
fn addition_assessment(id: &str, extra: &str) -> String {
    format!(
        "assessment_id: {id}\nconfiguration: {{total_items: 2, passing_score_percent: 50{extra}}}\n\
         sections: [{{section_id: s, item_count: 2, skill_blueprints: [{{skill_id: MATH.ARITH.ADD.2DIGIT}}], \
         difficulty_distribution: {{easy: 2}}}}]\n\
         scoring: {{grade_bands: [{{label: A, min_percent: 0}}]}}\n"
    )
}

/// The data every test session reads.
pub(crate) struct World {
    pub acs: AcsLibrary,
    pub blueprints: BlueprintLibrary,
    pub tutor: crate::tutor::library::TutorLibrary,
}

impl World {
    /// The real ACS catalogs and a small addition blueprint: `TIMED` (one minute, skips
    /// allowed) and `UNTIMED`.
    pub fn new() -> World {
        let source = |path: &str, text: String| Source {
            path: path.into(),
            text,
        };
        let blueprints = BlueprintLibrary::load(
            &[source("add.yaml", ADDITION.to_owned())],
            &[
                source(
                    "timed.yaml",
                    addition_assessment("TIMED", ", time_limit_minutes: 1, allow_skip: true"),
                ),
                source("untimed.yaml", addition_assessment("UNTIMED", "")),
            ],
        )
        .expect("the test blueprints load");
        World {
            acs: AcsLibrary::new(private_catalog(), commercial_catalog()),
            blueprints,
            tutor: crate::tutor::library::TutorLibrary::default(),
        }
    }

    pub fn ctx(&self) -> StepContext<'_> {
        StepContext::offline(&self.acs, &self.blueprints, &self.tutor)
    }

    /// A new private exam over task PA.I.A (seven elements), announced.
    pub fn exam(&self) -> SessionState {
        self.announced(Box::new(self.exam_core()))
    }

    /// The mode state of a new private exam over task PA.I.A.
    pub fn exam_core(&self) -> ExamCore {
        self.exam_core_at("mixed")
    }

    /// A new private exam over task PA.I.A whose difficulty is adaptive, announced.
    pub fn adaptive_exam(&self) -> SessionState {
        self.announced(Box::new(self.exam_core_at("adaptive")))
    }

    /// The mode state of a new private exam over task PA.I.A at `difficulty`.
    fn exam_core_at(&self, difficulty: &str) -> ExamCore {
        self.exam_core_with(serde_json::json!({
            "rating": "private", "study_mode": "linear", "tasks": ["PA.I.A"], "seed": 7,
            "difficulty": difficulty
        }))
    }

    /// A new exam of `config` (JSON, as a client sends it), announced.
    pub fn exam_with(&self, config: serde_json::Value) -> SessionState {
        self.announced(Box::new(self.exam_core_with(config)))
    }

    /// The mode state of a new exam of `config` (JSON, as a client sends it).
    pub fn exam_core_with(&self, config: serde_json::Value) -> ExamCore {
        let config: ExamConfig = serde_json::from_value(config).expect("a valid exam config");
        let review = crate::review::ReviewBook::new();
        let new = NewExam {
            config,
            default_seed: 1,
            defaults: PlanDefaults::default(),
            review: &review,
            now_ms: START_MS,
        };
        ExamCore::create(new, &self.acs).expect("PA.I.A has oral elements")
    }

    /// A new session's lifecycle.
    pub fn life(&self) -> Lifecycle {
        Lifecycle::new("s-1".into(), "alice".into(), START_MS)
    }

    /// A new assessment of `id` (`TIMED` or `UNTIMED`), announced.
    pub fn assessment(&self, id: &str, learning: bool) -> SessionState {
        let core = AssessmentCore::create(START_MS, id, learning, 3, &self.blueprints)
            .expect("a known assessment");
        self.announced(Box::new(core))
    }

    fn announced(&self, mode: Box<dyn crate::session::mode::SessionMode>) -> SessionState {
        let mut state = SessionState::new(self.life(), mode);
        state.announce_start(self.ctx());
        state
    }

    /// Does the session's work until it waits for the candidate (or ends), answering the
    /// examiner with fixed words and `score`, and delivers what it asked.
    pub fn run(&self, state: &mut SessionState, score: Score, now_ms: u64) {
        loop {
            let done = match state.work() {
                Work::Nothing => break,
                Work::Step => state.step(self.ctx(), now_ms),
                Work::Phrase(draft) => {
                    let words = Examined::offline(format!("Question {}?", draft.number));
                    state.take_reply(WorkReply::Phrased(draft, words), self.ctx(), now_ms)
                }
                Work::Assess(_) => state.take_reply(verdict(score), self.ctx(), now_ms),
                Work::Call(_) => match state.call(self.ctx(), now_ms) {
                    Some(Call::Answered(answer)) => {
                        state.take_reply(WorkReply::Called(answer), self.ctx(), now_ms)
                    }
                    _ => panic!("a test session calls no model"),
                },
            };
            done.expect("each step the session asks for is accepted");
        }
        state.life_mut().mark_delivered(now_ms);
    }
}

/// A verdict of `score` naming one missing term.
pub(crate) fn verdict(score: Score) -> WorkReply {
    WorkReply::Assessed(Examined::offline(ExaminerAssessment {
        score,
        feedback: "feedback".into(),
        missing_terms: vec!["airworthiness".into()],
        mentioned_elements: Vec::new(),
        source_summary: "14 CFR 91.203".into(),
        draw_out: false,
        interim: crate::examiner::Interim {
            feedback: "Partly right so far.".into(),
            source_summary: "14 CFR 91.203(a)".into(),
        },
    }))
}
