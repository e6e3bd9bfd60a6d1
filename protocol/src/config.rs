//! The `mode` and `config` fields of `session.start`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which kind of session `session.start` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// An ACS oral exam.
    Exam,
    /// A blueprint assessment (evaluation or learning).
    Assessment,
    /// A tutoring session.
    Tutor,
    /// A one-question check: one question, any answer, then the result (a device checks
    /// that it is heard before an exam).
    OneQuestion,
}

impl Mode {
    /// The mode's wire name: `exam`, `assessment`, `tutor` or `one_question`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Exam => "exam",
            Mode::Assessment => "assessment",
            Mode::Tutor => "tutor",
            Mode::OneQuestion => "one_question",
        }
    }
}

/// `mode` plus its `config` object; flattened into `session.start`.
///
/// # Format
/// ```json
/// {"mode": "exam", "config": {"rating": "private", "study_mode": "linear"}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "mode", content = "config", rename_all = "snake_case")]
pub enum SessionConfig {
    /// An ACS oral exam.
    Exam(ExamConfig),
    /// A blueprint assessment.
    Assessment(AssessmentConfig),
    /// A tutoring session.
    Tutor(TutorConfig),
    /// A one-question check.
    OneQuestion(OneQuestionConfig),
}

/// Configuration of a one-question check: the question to ask (a default asks the candidate
/// to say a sentence), and the thinking pause for a spoken answer.
///
/// # Format
/// ```json
/// {"question": "Say your name and the aircraft you fly.", "thinking_pause_ms": 3000}
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OneQuestionConfig {
    /// The question; at most 500 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The thinking pause for spoken answers, ms (500 to 30000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking_pause_ms: Option<u32>,
}

/// The thinking pauses a session may ask for, in ms.
pub const THINKING_PAUSE_MS: std::ops::RangeInclusive<u32> = 500..=30_000;

impl SessionConfig {
    /// The thinking pause this session asked for, if any.
    pub fn thinking_pause_ms(&self) -> Option<u32> {
        match self {
            SessionConfig::Exam(config) => config.thinking_pause_ms,
            SessionConfig::Assessment(config) => config.thinking_pause_ms,
            SessionConfig::Tutor(_) => None,
            SessionConfig::OneQuestion(config) => config.thinking_pause_ms,
        }
    }

    /// The mode this config is for.
    pub fn mode(&self) -> Mode {
        match self {
            SessionConfig::Exam(_) => Mode::Exam,
            SessionConfig::Assessment(_) => Mode::Assessment,
            SessionConfig::Tutor(_) => Mode::Tutor,
            SessionConfig::OneQuestion(_) => Mode::OneQuestion,
        }
    }
}

/// Configuration of an ACS oral exam.
///
/// # Format
/// ```json
/// {"rating": "private", "study_mode": "cross_acs", "difficulty": "mixed",
///  "aircraft_class": "ASEL", "areas": ["I", "III"], "tasks": ["PA.I.A"],
///  "input": "voice", "seed": 7, "thinking_pause_ms": 4000, "scenarios": true}
/// ```
/// Only `rating` is required. Defaults: `study_mode` linear, `difficulty` mixed,
/// `aircraft_class` ASEL, `input` text, no area or task filter, `seed` drawn by the server,
/// `scenarios` off, `examiner_style` study (`"examiner_style": "checkride"` keeps every
/// verdict for the debrief at the end). `"difficulty": "adaptive"` starts at medium and moves
/// with the candidate's scores ([`crate::difficulty`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ExamConfig {
    /// `private` or `commercial`.
    pub rating: ExamRating,
    /// The order the planner walks the elements in.
    #[serde(default)]
    pub study_mode: StudyMode,
    /// How demanding the questions are.
    #[serde(default)]
    pub difficulty: Difficulty,
    /// Aircraft class; elements that do not apply to it are left out.
    #[serde(default)]
    pub aircraft_class: AircraftClass,
    /// Keep only these areas of operation (Roman numerals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub areas: Option<Vec<String>>,
    /// Keep only these tasks (task codes such as `PA.I.A`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Vec<String>>,
    /// How the candidate answers.
    #[serde(default)]
    pub input: InputMode,
    /// Seed for the `cross_acs` and `weak_areas` orderings; reproducible exams for tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Spoken answers: the silence, in ms, a candidate may keep to think before the turn
    /// ends (500 to 30,000; default: the server's setting for the question's kind).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking_pause_ms: Option<u32>,
    /// How the examiner treats each answer: `study` (a verdict and feedback after each) or
    /// `checkride` (nothing said until the debrief that ends the exam).
    #[serde(default, skip_serializing_if = "ExaminerStyle::is_study")]
    pub examiner_style: ExaminerStyle,
    /// Ask elements through flight scenarios where one fits, chain `cross_acs` topics by
    /// their links, and bridge topic changes (docs/scenarios.md). Off by default: the exam
    /// then runs exactly as it did before scenarios existed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub scenarios: bool,
}

/// How an examiner treats each answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExaminerStyle {
    /// Study: every answer gets its score and feedback (the wrong or missing fact and its
    /// source) at once.
    #[default]
    Study,
    /// A checkride oral: the examiner probes and moves on; each `assessment` says only
    /// `recorded: true`, and the result ends with a debrief of every element that was not
    /// satisfactory (what was said, the correct fact and its source) and the outcome as an
    /// examiner states it.
    Checkride,
}

impl ExaminerStyle {
    /// Whether this is the default, study style.
    pub fn is_study(&self) -> bool {
        *self == ExaminerStyle::Study
    }
}

/// Whether a flag is off (left out when serialized).
fn is_false(flag: &bool) -> bool {
    !*flag
}

/// The certificate an exam is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExamRating {
    /// Private Pilot – Airplane.
    Private,
    /// Commercial Pilot – Airplane.
    Commercial,
}

/// The order of the exam plan.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StudyMode {
    /// Natural ACS code order.
    #[default]
    Linear,
    /// A topic-connected walk across areas.
    CrossAcs,
    /// Spaced review across the user's exams: elements due first (misses, partial answers,
    /// then satisfactory ones whose interval has run out), then those never asked, then the
    /// rest (docs/review.md).
    WeakAreas,
}

/// Question difficulty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    /// Recall questions.
    Easy,
    /// Application questions.
    Medium,
    /// Scenario questions.
    Hard,
    /// A rotation of all three.
    #[default]
    Mixed,
    /// Starts at medium, then moves one level at a time by the scores of the latest elements
    /// assessed, never sooner than a few elements after its last move.
    Adaptive,
}

/// Aircraft class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum AircraftClass {
    /// Airplane single-engine land.
    #[default]
    ASEL,
    /// Airplane multiengine land.
    AMEL,
    /// Airplane single-engine sea.
    ASES,
    /// Airplane multiengine sea.
    AMES,
}

impl AircraftClass {
    /// The class code as the ACS data spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            AircraftClass::ASEL => "ASEL",
            AircraftClass::AMEL => "AMEL",
            AircraftClass::ASES => "ASES",
            AircraftClass::AMES => "AMES",
        }
    }
}

/// How the candidate answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InputMode {
    /// Spoken answers (binary audio frames).
    Voice,
    /// Typed answers (`answer.text`).
    #[default]
    Text,
}

/// Configuration of a blueprint assessment.
///
/// # Format
/// ```json
/// {"assessment_id": "MATH-FUNDAMENTALS-L1", "learning": false, "thinking_pause_ms": 2000}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AssessmentConfig {
    /// An assessment blueprint id.
    pub assessment_id: String,
    /// True for a learning session (feedback after each item); false for an evaluation.
    #[serde(default)]
    pub learning: bool,
    /// Seed for item order and generated values, honoured in learning mode only (reproducible
    /// practice). An evaluation ignores it and draws its own secret seed per session, so no
    /// run can be replayed from another's items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Spoken answers: the silence, in ms, a candidate may keep to think before the turn
    /// ends (500 to 30,000; default: the server's setting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking_pause_ms: Option<u32>,
}

/// Configuration of a tutoring session.
///
/// # Format
/// ```json
/// {"course_id": "networking-basics"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TutorConfig {
    /// The course to tutor.
    pub course_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_are_off_unless_asked_for_and_left_out_when_off() {
        let plain: ExamConfig = serde_json::from_str(r#"{"rating": "private"}"#).unwrap();
        assert!(!plain.scenarios);
        let json = serde_json::to_value(&plain).unwrap();
        assert!(json.get("scenarios").is_none(), "{json}");
        let on: ExamConfig =
            serde_json::from_str(r#"{"rating": "private", "scenarios": true}"#).unwrap();
        assert!(on.scenarios);
        assert_eq!(serde_json::to_value(&on).unwrap()["scenarios"], true);
    }
}
