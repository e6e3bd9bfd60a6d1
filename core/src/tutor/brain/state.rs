//! What the brain reads ([`Tutor`]), what a student does ([`TutorInput`]), a session's
//! state beside its lifecycle, and one turn out.

use viva_blueprint::course::Course;
use viva_blueprint::library::BlueprintLibrary;
use viva_protocol::tutor::{PolicyDebug, TimelineMessage, TurnAction};

use crate::base::AnswerInput;
use crate::exam::acs::AcsLibrary;
use crate::examiner::ExaminerAssessment;
use crate::tutor::drawn::DrillQuestion;
use crate::tutor::library::TutorSettings;
use crate::tutor::model::ModelProposal;
use crate::tutor::retrieval::UnitIndex;
use crate::tutor::snapshot::{StudentSnapshot, Tier};

/// What the brain reads.
#[derive(Clone, Copy)]
pub struct Tutor<'a> {
    /// The course.
    pub course: &'a Course,
    /// Its retrieval index.
    pub index: &'a UnitIndex,
    /// Skill blueprints (skill drills).
    pub blueprints: &'a BlueprintLibrary,
    /// ACS rubrics (rubric drills).
    pub acs: &'a AcsLibrary,
    /// Lockout and debug view.
    pub settings: TutorSettings,
    /// A model's proposal for this turn, if one was asked for and came back.
    pub model: Option<&'a ModelProposal>,
    /// The examiner's verdict on the open rubric drill's answer, if the session asked for
    /// one (a model is configured); it decides right or wrong.
    pub verdict: Option<&'a ExaminerAssessment>,
}

/// A card waiting for the student.
// allow: a session holds at most one open card; boxing the drill would only add a pointer.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum OpenCard {
    /// A drill to check.
    Drill {
        /// `d<n>`.
        drill_id: String,
        /// The unit.
        unit: String,
        /// The tier drilled.
        tier: Tier,
        /// The question (with its key).
        question: DrillQuestion,
    },
    /// An exam question to submit.
    Exam {
        /// The course's question id.
        question_id: String,
    },
}

/// What the student did.
#[derive(Debug, Clone, PartialEq)]
pub enum TutorInput {
    /// The session opened: the tutor greets on the focus unit.
    Opening,
    /// A message, typed or spoken.
    Message(String),
    /// `REQUEST_DRILL`, on a unit or the focus.
    RequestDrill(Option<String>),
    /// An answer to the open drill.
    DrillCheck {
        /// The drill it answers, when the client named it.
        drill_id: Option<String>,
        /// The answer.
        answer: AnswerInput,
    },
    /// "I'm stuck".
    Stuck,
    /// "Try another".
    TryAnother,
    /// `DRILL_CONTINUE`.
    DrillContinue,
    /// An answer to the open exam question.
    ExamSubmit {
        /// The question.
        question_id: String,
        /// The option chosen.
        index: u32,
    },
    /// The student opened a question's memo.
    MemoViewed {
        /// The question.
        question_id: String,
    },
    /// `EXAM_CONTINUE`.
    ExamContinue,
}

/// Running counts of a session, for its result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Drills checked.
    pub drills_checked: u32,
    /// Drills right.
    pub drills_right: u32,
    /// Exam answers submitted.
    pub exams_taken: u32,
    /// Exam answers that earned a tier.
    pub exams_passed: u32,
    /// Tiers earned, in order.
    pub tiers_earned: Vec<(String, Tier)>,
}

/// A tutoring session's state, beside its lifecycle.
#[derive(Debug, Clone, PartialEq)]
pub struct TutorState {
    /// The student's snapshot.
    pub snapshot: StudentSnapshot,
    /// The card waiting for the student.
    pub open: Option<OpenCard>,
    /// The session's seed; drill `n` is generated from it and `n`.
    pub seed: u64,
    /// Drills drawn so far.
    pub drills_drawn: u32,
    /// The last exam question answered right (its memo then locks nothing).
    pub last_passed: Option<String>,
    /// The last exam question answered or whose memo closed its card: the one whose result
    /// the student sees, and so the only one besides the open card whose memo may be viewed.
    pub last_answered: Option<String>,
    /// Counts for the result.
    pub tally: Tally,
}

impl TutorState {
    /// A new session's state for `snapshot` (stored, or a cold start), drawing drills from
    /// `seed`.
    pub fn new(snapshot: StudentSnapshot, seed: u64) -> TutorState {
        TutorState {
            snapshot,
            open: None,
            seed,
            drills_drawn: 0,
            last_passed: None,
            last_answered: None,
            tally: Tally::default(),
        }
    }
}

/// One tutor turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// What the tutor did.
    pub action: TurnAction,
    /// The unit it is about.
    pub target: String,
    /// Its timeline messages.
    pub messages: Vec<TimelineMessage>,
    /// The policy behind it (sent only in development mode).
    pub debug: PolicyDebug,
    /// Why a proposal was replaced, when it was.
    pub fallback: Option<&'static str>,
    /// Right or wrong, for a checked card.
    pub outcome: Option<&'static str>,
}
