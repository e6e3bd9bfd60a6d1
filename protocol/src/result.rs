//! The graded result carried by `session.completed` and `GET /v1/sessions/{id}/result`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A session's result, tagged by `mode`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum SessionResult {
    /// The result of an ACS oral exam.
    Exam(ExamResult),
    /// The result of a blueprint assessment.
    Assessment(AssessmentResult),
    /// What a tutoring session did (a tutor session is never graded as a whole).
    Tutor(TutorResult),
    /// The answer a one-question check heard.
    OneQuestion(OneQuestionResult),
}

/// The result of a one-question check: the question and the answer as the server took it
/// (a spoken answer's transcript), or none when the check was ended unanswered.
///
/// # Format
/// ```json
/// {"mode": "one_question", "question": "Say a sentence.", "answer": "Cleared to land."}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OneQuestionResult {
    /// The words asked.
    pub question: String,
    /// The answer taken.
    pub answer: Option<String>,
}

/// The summary of a tutoring session, when it ends.
///
/// # Format
/// ```json
/// {"mode": "tutor", "course_id": "ARITHMETIC", "turns": 9, "drills_checked": 4,
///  "drills_right": 3, "exams_taken": 1, "exams_passed": 1,
///  "tiers_earned": [{"unit_id": "add-1digit", "tier": "bronze"}]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TutorResult {
    /// The course.
    pub course_id: String,
    /// Tutor turns in the session.
    pub turns: u32,
    /// Drills checked.
    pub drills_checked: u32,
    /// Drills right.
    pub drills_right: u32,
    /// Exam answers submitted.
    pub exams_taken: u32,
    /// Exam answers that earned a tier.
    pub exams_passed: u32,
    /// Tiers earned, in order.
    pub tiers_earned: Vec<TierEarned>,
    /// The turn log, in the owner's result only (`GET /v1/sessions/{id}/result`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<TutorTurnLog>,
}

/// One turn of a tutoring session's log (PV-AI-024).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TutorTurnLog {
    /// The turn's number, from 1.
    pub turn: u32,
    /// What the tutor did (a `tutor.turn` action).
    pub action: String,
    /// The unit it was about.
    pub target_unit: String,
    /// What the student did: their words, or the card event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    /// `right` or `wrong`, for a checked card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Why the proposed reply was replaced, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// The model call behind the turn, when a model tutor was asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examiner: Vec<ExaminerCall>,
}

/// A tier a unit reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TierEarned {
    /// The unit.
    pub unit_id: String,
    /// `bronze`, `silver` or `gold`.
    pub tier: String,
}

/// The graded result of an ACS oral exam.
///
/// # Format
/// ```json
/// {"mode": "exam", "outcome": "unsatisfactory", "trigger": "all_tasks_covered",
///  "planned_questions": 7, "asked": 6, "credited_by_mention": 1, "bonus_used": 1,
///  "areas": [{"area": "I", "title": "Preflight Preparation", "satisfactory": 4,
///             "partial": 1, "unsatisfactory": 1, "credited_by_mention": 1, "not_covered": 0}],
///  "elements": [{"code": "PA.I.A.K1", "area": "I", "score": "partial", "status": "asked",
///                "scenario": "night-passengers-frederick"}]}
/// ```
/// An adaptive exam adds `"adaptive_difficulty": {"start": "medium", "end": "hard",
/// "levels": [{"level": "medium", "from_question": 1}, {"level": "hard", "from_question": 5}]}`.
/// `scenario` names the flight scenario an element was asked through (`scenarios` on).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExamResult {
    /// `satisfactory`, `unsatisfactory` or `incomplete`.
    pub outcome: Outcome,
    /// What ended the exam.
    pub trigger: Trigger,
    /// Questions planned at the start.
    pub planned_questions: u32,
    /// Elements asked (follow-ups not counted).
    pub asked: u32,
    /// Elements credited by mention.
    pub credited_by_mention: u32,
    /// Bonus questions granted.
    pub bonus_used: u32,
    /// Counts per area of operation, in area order.
    pub areas: Vec<AreaResult>,
    /// Every element in scope, in plan order.
    pub elements: Vec<ElementResult>,
    /// When the difficulty was adaptive: the levels over the exam and the level at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive_difficulty: Option<crate::difficulty::AdaptiveResult>,
    /// Every question asked, with the answer taken and its score (result endpoint only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transcript: Vec<TranscriptTurn>,
    /// A checkride's debrief (`"examiner_style": "checkride"` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debrief: Option<Debrief>,
}

/// What the examiner says when a checkride-style exam ends: the outcome as an examiner
/// states it, with the rule behind it, then each element that was not satisfactory.
///
/// # Format
/// ```json
/// {"outcome_statement": "That concludes the oral. Had this been your practical test, …",
///  "outcome_source": "14 CFR 61.43(f)",
///  "items": [{"element_code": "PA.I.B.K1", "element": "General airworthiness requirements …",
///             "task": "Airworthiness Requirements", "score": "partial",
///             "said": ["The annual is every 12 months."],
///             "correction": "You did not say that … (14 CFR 91.203(a))",
///             "sources": "14 CFR 91.203(a)"}]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Debrief {
    /// The outcome, in an examiner's words.
    pub outcome_statement: String,
    /// The rule the statement rests on (retesting, credit for what passed).
    pub outcome_source: String,
    /// Each element scored partial or unsatisfactory, in the order it was asked.
    pub items: Vec<DebriefItem>,
}

/// One element of a debrief.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DebriefItem {
    /// The element's ACS code.
    pub element_code: String,
    /// The element's ACS text.
    pub element: String,
    /// Its task's title.
    pub task: String,
    /// `partial` or `unsatisfactory`.
    pub score: String,
    /// What the candidate said to it, each answer in the order given.
    pub said: Vec<String>,
    /// The examiner's correction: what was wrong or missing, the correct fact and where it
    /// is written.
    pub correction: String,
    /// The sources behind the correction, `; `-separated.
    pub sources: String,
}

/// One question of an exam's transcript, for its owner.
///
/// # Format
/// ```json
/// {"question_id": "q3", "element_code": "PA.I.A.K2", "kind": "follow_up",
///  "question": "And what limits those privileges?",
///  "answer": "privileges and limitations", "score": "partial",
///  "scenario": "night-passengers-frederick"}
/// ```
/// `question` is the text the examiner said (absent in results stored before it was kept).
/// `scenario` is present when the question came from a flight scenario (a follow-up inside
/// one names it too).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TranscriptTurn {
    /// The question's id.
    pub question_id: String,
    /// The element asked about.
    pub element_code: String,
    /// `primary`, `follow_up` or `bonus`.
    pub kind: String,
    /// The question as the examiner said it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The answer taken (absent while unanswered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Its score (absent until assessed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// The scenario the question came from, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The turn log: each model call made for this turn (phrasing the question, assessing
    /// the answer), absent when the embedded examiner answered without a model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examiner: Vec<ExaminerCall>,
}

/// One call to the LLM examiner, as the turn log keeps it.
///
/// # Format
/// ```json
/// {"call": "assess", "model": "qwen2.5-0.5b", "prompt_hash": "3f9c0a1be4d27765",
///  "latency_ms": 2140, "prompt_tokens": 612, "completion_tokens": 88,
///  "outcome": "fallback", "fallback_reason": "follow_up_over_cap"}
/// ```
/// `outcome` is `used` (the reply passed validation and was used) or `fallback` (the
/// embedded examiner's deterministic result was used instead, for `fallback_reason`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExaminerCall {
    /// `phrase` or `assess`.
    pub call: String,
    /// The model named in the request.
    pub model: String,
    /// The first 16 hex digits of the SHA-256 of the system and user prompts.
    pub prompt_hash: String,
    /// From asking to the whole reply (or the failure).
    pub latency_ms: u64,
    /// Until the first streamed token, for a streamed phrasing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_token_ms: Option<u64>,
    /// Prompt tokens as the model server counted them (0 when unknown).
    pub prompt_tokens: u32,
    /// Reply tokens as the model server counted them (0 when unknown).
    pub completion_tokens: u32,
    /// `used` or `fallback`.
    pub outcome: String,
    /// Why the reply was not used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback_reason: Option<String>,
}

/// The overall outcome of an exam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every examined element was satisfactory.
    Satisfactory,
    /// At least one element was unsatisfactory or partial.
    Unsatisfactory,
    /// Fewer elements were examined than planned.
    Incomplete,
}

/// What ended an exam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// The plan ran out: all planned questions asked, or nothing left to ask.
    AllTasksCovered,
    /// The user sent `session.end`.
    UserEnded,
}

/// Counts for one area of operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AreaResult {
    /// Roman numeral.
    pub area: String,
    /// Area title.
    pub title: String,
    /// Elements scored satisfactory.
    pub satisfactory: u32,
    /// Elements scored partial.
    pub partial: u32,
    /// Elements scored unsatisfactory.
    pub unsatisfactory: u32,
    /// Elements credited by mention.
    pub credited_by_mention: u32,
    /// Elements in scope but neither asked nor credited.
    pub not_covered: u32,
}

/// One element's standing at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ElementResult {
    /// The ACS element code.
    pub code: String,
    /// Roman numeral of its area.
    pub area: String,
    /// Its final score, if it was asked and answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// `pending`, `asked`, `credited_by_mention` or `skipped`.
    pub status: String,
    /// The scenario it was asked through, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
}

/// The graded result of a blueprint assessment.
///
/// # Format
/// ```json
/// {"mode": "assessment", "assessment_id": "MATH-FUNDAMENTALS-L1", "learning": false,
///  "trigger": "all_items_answered", "score_percent": 85.0, "grade_band": "Proficient",
///  "passed": true, "passing_score_percent": 70.0, "items_total": 20, "items_attempted": 19,
///  "items_correct": 17, "items_skipped": 1, "duration_seconds": 412.5,
///  "sections": [{"section_id": "addition", "title": "Addition", "items": 5, "attempted": 5,
///                "correct": 5, "accuracy": 1.0, "average_response_ms": 8200}],
///  "audit": []}
/// ```
/// `audit` is filled only by `GET /v1/sessions/{id}/result`, after completion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AssessmentResult {
    /// The assessment blueprint.
    pub assessment_id: String,
    /// Learning (true) or evaluation (false).
    pub learning: bool,
    /// What ended it.
    pub trigger: AssessmentTrigger,
    /// Percent correct, weighted by section.
    pub score_percent: f64,
    /// The grade band of the score.
    pub grade_band: String,
    /// Whether the score reaches the pass mark.
    pub passed: bool,
    /// The pass mark.
    pub passing_score_percent: f64,
    /// Items planned.
    pub items_total: u32,
    /// Items answered.
    pub items_attempted: u32,
    /// Items answered correctly.
    pub items_correct: u32,
    /// Items skipped.
    pub items_skipped: u32,
    /// From start to completion.
    pub duration_seconds: f64,
    /// Per section, in blueprint order.
    pub sections: Vec<SectionResult>,
    /// Every item with its answer and the response (result endpoint only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audit: Vec<AuditItem>,
}

/// What ended an assessment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AssessmentTrigger {
    /// Every item was answered or skipped.
    AllItemsAnswered,
    /// The time limit ran out; unanswered items count as wrong.
    TimeLimit,
    /// The user sent `session.end`.
    UserEnded,
}

/// One section's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SectionResult {
    /// Section id.
    pub section_id: String,
    /// Title.
    pub title: String,
    /// Items planned.
    pub items: u32,
    /// Items answered.
    pub attempted: u32,
    /// Items correct.
    pub correct: u32,
    /// `correct / attempted`.
    pub accuracy: f64,
    /// Mean response time of answered items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_response_ms: Option<u64>,
}

/// One item of the audit trail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AuditItem {
    /// 1-based position.
    pub number: u32,
    /// Section.
    pub section_id: String,
    /// Skill blueprint.
    pub skill_id: String,
    /// `easy`, `medium` or `hard`.
    pub difficulty: String,
    /// The seed that regenerates the item.
    pub seed: u64,
    /// Sampled parameters and computed values.
    pub parameters: Vec<(String, String)>,
    /// The stem shown (absent if the item was never reached).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stem: Option<String>,
    /// The options shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The keyed answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Its index in `options`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_index: Option<u32>,
    /// The explanation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// What the candidate answered, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// Whether it was correct.
    pub correct: bool,
    /// Whether it was skipped.
    pub skipped: bool,
    /// Milliseconds from showing the item to the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_ms: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_example_round_trips() {
        let example = r#"{"mode":"exam","outcome":"unsatisfactory","trigger":"all_tasks_covered",
            "planned_questions":7,"asked":6,"credited_by_mention":1,"bonus_used":1,
            "areas":[{"area":"I","title":"Preflight Preparation","satisfactory":4,"partial":1,
            "unsatisfactory":1,"credited_by_mention":1,"not_covered":0}],
            "elements":[{"code":"PA.I.A.K1","area":"I","score":"partial","status":"asked"}],
            "adaptive_difficulty":{"start":"medium","end":"hard","levels":[{"level":"medium",
            "from_question":1},{"level":"hard","from_question":5}]},
            "transcript":[{"question_id":"q1","element_code":"PA.I.A.K1","kind":"primary",
            "answer":"a certificate","score":"partial","examiner":[{"call":"phrase",
            "model":"qwen2.5-0.5b","prompt_hash":"3f9c0a1be4d27765","latency_ms":1190,
            "first_token_ms":646,"prompt_tokens":242,"completion_tokens":31,"outcome":"used"},
            {"call":"assess","model":"qwen2.5-0.5b","prompt_hash":"5e01a7c2d9b3f4e8",
            "latency_ms":8000,"prompt_tokens":0,"completion_tokens":0,"outcome":"fallback",
            "fallback_reason":"timeout"}]}]}"#;
        let expected: serde_json::Value = serde_json::from_str(example).unwrap();
        let result: SessionResult = serde_json::from_value(expected.clone()).unwrap();
        assert_eq!(serde_json::to_value(&result).unwrap(), expected);
    }

    #[test]
    fn scenario_fields_round_trip_and_are_left_out_when_absent() {
        let example = r#"{"mode":"exam","outcome":"satisfactory","trigger":"all_tasks_covered",
            "planned_questions":5,"asked":5,"credited_by_mention":0,"bonus_used":0,"areas":[],
            "elements":[{"code":"PA.I.A.K1","area":"I","score":"satisfactory","status":"asked",
            "scenario":"night-passengers-frederick"},
            {"code":"PA.I.A.K2","area":"I","status":"skipped"}],
            "transcript":[{"question_id":"q1","element_code":"PA.I.A.K1","kind":"primary",
            "question":"What makes you current to carry passengers at night?",
            "answer":"three takeoffs and landings","score":"satisfactory",
            "scenario":"night-passengers-frederick"}]}"#;
        let expected: serde_json::Value = serde_json::from_str(example).unwrap();
        let result: SessionResult = serde_json::from_value(expected.clone()).unwrap();
        assert_eq!(serde_json::to_value(&result).unwrap(), expected);
        let SessionResult::Exam(exam) = result else {
            panic!("an exam result");
        };
        assert_eq!(exam.elements[1].scenario, None);
    }

    #[test]
    fn assessment_example_round_trips() {
        let example = r#"{"mode":"assessment","assessment_id":"MATH-FUNDAMENTALS-L1","learning":false,
            "trigger":"all_items_answered","score_percent":85.0,"grade_band":"Proficient","passed":true,
            "passing_score_percent":70.0,"items_total":20,"items_attempted":19,"items_correct":17,
            "items_skipped":1,"duration_seconds":412.5,"sections":[{"section_id":"addition",
            "title":"Addition","items":5,"attempted":5,"correct":5,"accuracy":1.0,"average_response_ms":8200}],
            "audit":[{"number":1,"section_id":"addition","skill_id":"MATH.ARITH.ADD.1DIGIT","difficulty":"easy",
            "seed":7,"parameters":[["a","3"]],"stem":"What is 3 + 4?","options":["7","8"],"answer":"7",
            "answer_index":0,"response":"7","correct":true,"skipped":false,"response_ms":1200}]}"#;
        let expected: serde_json::Value = serde_json::from_str(example).unwrap();
        let result: SessionResult = serde_json::from_value(expected.clone()).unwrap();
        assert_eq!(serde_json::to_value(&result).unwrap(), expected);
    }
}
