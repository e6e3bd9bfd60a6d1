//! What the candidate reads: each server event as lines of text (pure), and a printer that
//! redraws live partial transcripts in place on a terminal.

use std::io::Write;

use viva_protocol::ServerEvent;
use viva_protocol::result::{AssessmentResult, ExamResult, SessionResult, TutorResult};
use viva_protocol::server::{Assessment, Question};
use viva_protocol::tutor::{Card, TutorTurn};

/// Longest partial transcript shown on the live line; longer ones show their end.
const PARTIAL_CHARS: usize = 100;

/// How an event is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Nothing (acks, pongs).
    Nothing,
    /// A live line, replaced by the next one.
    Live(String),
    /// Lines that stay.
    Lines(Vec<String>),
}

/// Renders one server event.
pub fn render(event: &ServerEvent) -> Shown {
    use ServerEvent::*;
    let lines = match event {
        SessionStarted(started) => vec![format!(
            "Session {} started: {} questions planned.",
            started.session_id, started.plan.planned_questions
        )],
        SessionResumed(resumed) => vec![format!(
            "Session {} resumed ({}): {} of {} asked.",
            resumed.session_id,
            words(&resumed.status),
            resumed.progress.asked,
            resumed.progress.planned_questions
        )],
        SessionPaused(paused) => vec![format!("Session paused ({}).", words(&paused.reason))],
        Question(question) => question_lines(question),
        TranscriptPartial(transcript) => return Shown::Live(live_text(&transcript.text)),
        TranscriptFinal(transcript) => vec![format!("You: {}", transcript.text)],
        AnswerUnclear(unclear) => vec![format!("Examiner: {}", unclear.message)],
        // Replaced by the assessment when it comes.
        AnswerAssessing(_) => return Shown::Live("Assessing your answer…".to_owned()),
        Assessment(assessment) => assessment_lines(assessment),
        SessionCompleted(completed) => result_lines(&completed.result),
        TutorTurn(turn) => tutor_turn_lines(turn),
        Error(error) => vec![format!(
            "Error [{}]: {}",
            error.code.as_str(),
            error.message
        )],
        // The `question` (or `tutor.turn`) that follows is shown and spoken whole; its
        // pieces add nothing to a terminal that speaks.
        QuestionDelta(_) | TutorDelta(_) | Ack(_) | Pong => return Shown::Nothing,
        VoiceStarted(_) | VoiceMark(_) | VoiceEnded(_) => return Shown::Nothing,
        // The live transcript already shows that the candidate is heard.
        SpeechStarted(_) | SpeechStopped(_) => return Shown::Nothing,
    };
    Shown::Lines(lines)
}

fn question_lines(question: &Question) -> Vec<String> {
    let level = question.difficulty.map(|level| level.as_str());
    let mut tags: Vec<&str> = [
        question.element_code.as_deref(),
        question.kind.as_deref(),
        level,
    ]
    .into_iter()
    .flatten()
    .collect();
    tags.retain(|tag| *tag != "primary");
    let tags = if tags.is_empty() {
        String::new()
    } else {
        format!(" [{}]", tags.join(", "))
    };
    let of_total = question.total.map(|t| format!("/{t}")).unwrap_or_default();
    let mut lines = vec![
        String::new(),
        format!("Q{}{of_total}{tags}: {}", question.number, question.text),
    ];
    for (index, option) in question.options.iter().flatten().enumerate() {
        lines.push(format!("  {}. {option}", index + 1));
    }
    lines
}

fn assessment_lines(assessment: &Assessment) -> Vec<String> {
    let mut lines = Vec::new();
    match (&assessment.score, &assessment.feedback) {
        (Some(score), Some(feedback)) => lines.push(format!("Assessment: {score}. {feedback}")),
        (Some(score), None) => lines.push(format!("Assessment: {score}.")),
        (None, Some(feedback)) => lines.push(format!("Assessment: {feedback}")),
        (None, None) if assessment.recorded == Some(true) => {
            lines.push("Answer recorded.".to_owned())
        }
        (None, None) => lines.push("Assessed.".to_owned()),
    }
    if let Some(answer) = &assessment.correct_answer {
        lines.push(format!("  Correct answer: {answer}"));
    }
    if let Some(source) = &assessment.source_summary {
        lines.push(format!("  {source}"));
    }
    if !assessment.credited_elements.is_empty() {
        let credited = assessment.credited_elements.join(", ");
        lines.push(format!("  Also credited: {credited}"));
    }
    if let Some(understood) = &assessment.understood_as {
        lines.push(format!("  Understood as: {understood}"));
    }
    lines
}

/// The final result, a line per area or section.
pub fn result_lines(result: &SessionResult) -> Vec<String> {
    match result {
        SessionResult::Exam(exam) => exam_result_lines(exam),
        SessionResult::Assessment(assessment) => assessment_result_lines(assessment),
        SessionResult::Tutor(tutor) => tutor_result_lines(tutor),
        SessionResult::OneQuestion(check) => {
            let heard = check.answer.as_deref().unwrap_or("(no answer)");
            vec![String::new(), format!("Heard: {heard}")]
        }
    }
}

fn tutor_result_lines(tutor: &TutorResult) -> Vec<String> {
    let mut lines = vec![
        String::new(),
        format!(
            "Tutoring on {} ended after {} turns: {} of {} drills right, {} of {} exam answers earned a tier.",
            tutor.course_id,
            tutor.turns,
            tutor.drills_right,
            tutor.drills_checked,
            tutor.exams_passed,
            tutor.exams_taken
        ),
    ];
    for earned in &tutor.tiers_earned {
        lines.push(format!("  {}: {}", earned.unit_id, earned.tier));
    }
    lines
}

/// A tutor turn: each message, its card, and the snapshot's badge line.
fn tutor_turn_lines(turn: &TutorTurn) -> Vec<String> {
    let mut lines = vec![String::new()];
    for message in &turn.messages {
        lines.push(format!("Tutor: {}", message.text));
        if let Some(card) = &message.card {
            lines.extend(card_lines(card));
        }
    }
    let lite = &turn.snapshot;
    let counts = &lite.counts;
    lines.push(format!(
        "  [{} · {}] bronze {} · silver {} · gold {}{}",
        lite.focus_title,
        lite.focus_tier,
        counts.bronze,
        counts.silver,
        counts.gold,
        lite.prerequisite_nudge
            .as_deref()
            .map(|unit| format!(" · first: {unit}"))
            .unwrap_or_default()
    ));
    lines
}

fn card_lines(card: &Card) -> Vec<String> {
    let numbered = |options: &[String]| -> Vec<String> {
        options
            .iter()
            .enumerate()
            .map(|(index, option)| format!("  {}. {option}", index + 1))
            .collect()
    };
    match card {
        Card::Drill {
            prompt,
            options,
            tier,
            ..
        } => {
            let mut lines = vec![format!("  Drill ({tier}): {prompt}")];
            lines.extend(numbered(options));
            lines.push("  (answer, or /stuck, /another)".to_owned());
            lines
        }
        Card::Exam {
            stem,
            options,
            tier,
            ..
        } => {
            let mut lines = vec![format!("  Exam ({tier}): {stem}")];
            lines.extend(numbered(options));
            lines.push(
                "  (answer with the option's number; /memo opens the memo and locks it)".to_owned(),
            );
            lines
        }
        Card::ConceptCard {
            key_ideas,
            worked_example,
            ..
        } => {
            let mut lines: Vec<String> =
                key_ideas.iter().map(|idea| format!("  • {idea}")).collect();
            if let Some(example) = worked_example {
                lines.push(format!("  Example: {example}"));
            }
            lines
        }
        Card::DrillResult {
            confusion: Some(confusion),
            ..
        } => vec![format!("  (mistake: {confusion}; /continue for another)")],
        Card::DrillResult { .. } => vec!["  (/continue for another)".to_owned()],
        Card::ExamResult {
            memo,
            locked_seconds,
            tier_earned,
            ..
        } => {
            let mut lines = vec![format!("  Memo: {memo}")];
            if let Some(tier) = tier_earned {
                lines.push(format!("  Earned: {tier}"));
            }
            if let Some(seconds) = locked_seconds {
                lines.push(format!("  Locked for {}.", countdown(*seconds)));
            }
            lines.push("  (/continue)".to_owned());
            lines
        }
        Card::PrerequisiteNudge {
            prerequisite_title, ..
        } => vec![format!("  First: {prerequisite_title}")],
        Card::SocraticQuestion { .. } => Vec::new(),
    }
}

/// `23h 59m`, `5m 3s`, `42s`.
fn countdown(seconds: u64) -> String {
    let (hours, minutes, secs) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    match (hours, minutes) {
        (0, 0) => format!("{secs}s"),
        (0, _) => format!("{minutes}m {secs}s"),
        _ => format!("{hours}h {minutes}m"),
    }
}

fn exam_result_lines(exam: &ExamResult) -> Vec<String> {
    let mut lines = vec![
        String::new(),
        format!(
            "Result: {} ({}).",
            words(&exam.outcome),
            words(&exam.trigger)
        ),
        format!(
            "Asked {} of {} planned, {} credited by mention, {} bonus.",
            exam.asked, exam.planned_questions, exam.credited_by_mention, exam.bonus_used
        ),
    ];
    if let Some(adaptive) = &exam.adaptive_difficulty {
        let spans: Vec<String> = adaptive
            .levels
            .iter()
            .map(|span| format!("{} from Q{}", span.level.as_str(), span.from_question))
            .collect();
        lines.push(format!(
            "Difficulty adapted: {} to {} ({}).",
            adaptive.start.as_str(),
            adaptive.end.as_str(),
            spans.join(", ")
        ));
    }
    for area in &exam.areas {
        lines.push(format!(
            "  Area {} {}: {} satisfactory, {} partial, {} unsatisfactory, {} not covered",
            area.area,
            area.title,
            area.satisfactory,
            area.partial,
            area.unsatisfactory,
            area.not_covered
        ));
    }
    lines
}

fn assessment_result_lines(result: &AssessmentResult) -> Vec<String> {
    let verdict = if result.passed {
        "passed"
    } else {
        "not passed"
    };
    let mut lines = vec![
        String::new(),
        format!(
            "Result: {:.1}% {}, {verdict} (pass mark {:.0}%).",
            result.score_percent, result.grade_band, result.passing_score_percent
        ),
        format!(
            "{} of {} correct, {} answered, {} skipped, in {:.0} s.",
            result.items_correct,
            result.items_total,
            result.items_attempted,
            result.items_skipped,
            result.duration_seconds
        ),
    ];
    for section in &result.sections {
        lines.push(format!(
            "  {}: {} of {} correct",
            section.title, section.correct, section.items
        ));
    }
    lines
}

/// A wire enum's name as words: `other_device` reads "other device".
fn words<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name.replace('_', " "),
        _ => "?".to_owned(),
    }
}

/// The end of `text`, at most [`PARTIAL_CHARS`] characters, marked as live.
fn live_text(text: &str) -> String {
    let count = text.chars().count();
    let tail: String = text
        .chars()
        .skip(count.saturating_sub(PARTIAL_CHARS))
        .collect();
    let cut = if count > PARTIAL_CHARS { "…" } else { "" };
    format!("… {cut}{tail}")
}

/// Writes rendered events to stdout; on a terminal the live line is redrawn in place.
pub struct Printer {
    terminal: bool,
    live_line_open: bool,
}

impl Printer {
    /// A printer for stdout.
    pub fn stdout() -> Printer {
        Printer {
            terminal: std::io::IsTerminal::is_terminal(&std::io::stdout()),
            live_line_open: false,
        }
    }

    /// Shows a server event.
    pub fn event(&mut self, event: &ServerEvent) {
        match render(event) {
            Shown::Nothing => {}
            Shown::Live(text) if self.terminal => {
                self.live_line_open = true;
                self.write(&format!("\r\x1b[2K{text}"));
            }
            Shown::Live(text) => self.line(&text),
            Shown::Lines(lines) => lines.iter().for_each(|line| self.line(line)),
        }
    }

    /// Prints a line that stays, replacing the live line if one is showing.
    pub fn line(&mut self, line: &str) {
        let clear = if std::mem::take(&mut self.live_line_open) {
            "\r\x1b[2K"
        } else {
            ""
        };
        self.write(&format!("{clear}{line}\n"));
    }

    fn write(&self, text: &str) {
        let mut stdout = std::io::stdout().lock();
        // ignore: a closed stdout (a pipe whose reader left) must not stop the exam.
        let _ = stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush());
    }
}

#[cfg(test)]
mod tests {
    use viva_protocol::ServerMessage;

    use super::*;

    fn check(json: &str, expected: &[&str]) {
        let message: ServerMessage = serde_json::from_str(json).unwrap();
        let expected = Shown::Lines(expected.iter().map(|line| line.to_string()).collect());
        assert_eq!(render(&message.event), expected, "{json}");
    }

    #[test]
    fn events_render_as_lines() {
        check(
            r#"{"type":"session.started","session_id":"s1","mode":"exam","plan":{"planned_questions":7,"queue_length":7,"bonus_max":2,"follow_up_max_per_element":1}}"#,
            &["Session s1 started: 7 questions planned."],
        );
        check(
            r#"{"type":"question","question_id":"q1","number":3,"text":"Explain.","kind":"follow_up","element_code":"PA.I.A.K2"}"#,
            &["", "Q3 [PA.I.A.K2, follow_up]: Explain."],
        );
        check(
            r#"{"type":"question","question_id":"q4","number":4,"text":"Explain.","kind":"primary","element_code":"PA.I.A.K2","difficulty":"hard"}"#,
            &["", "Q4 [PA.I.A.K2, hard]: Explain."],
        );
        check(
            r#"{"type":"question","question_id":"i1","number":1,"total":20,"text":"What is 12 + 30?","options":["42","52"]}"#,
            &["", "Q1/20: What is 12 + 30?", "  1. 42", "  2. 52"],
        );
        check(
            r#"{"type":"transcript.final","text":"ninety days"}"#,
            &["You: ninety days"],
        );
        check(
            r#"{"type":"assessment","question_id":"q1","score":"partial","feedback":"Missed one.","source_summary":"Study: 14 CFR 61.","credited_elements":["PA.I.A.K3"]}"#,
            &[
                "Assessment: partial. Missed one.",
                "  Study: 14 CFR 61.",
                "  Also credited: PA.I.A.K3",
            ],
        );
        check(
            r#"{"type":"assessment","question_id":"i1","recorded":true}"#,
            &["Answer recorded."],
        );
        check(
            r#"{"type":"error","code":"voice_unavailable","message":"text only"}"#,
            &["Error [voice_unavailable]: text only"],
        );
        check(
            r#"{"type":"session.paused","session_id":"s","reason":"other_device"}"#,
            &["Session paused (other device)."],
        );
    }

    #[test]
    fn results_render_with_their_areas_or_sections() {
        check(
            r#"{"type":"session.completed","session_id":"s","result":{"mode":"exam","outcome":"unsatisfactory","trigger":"all_tasks_covered","planned_questions":7,"asked":6,"credited_by_mention":1,"bonus_used":0,"areas":[{"area":"I","title":"Preflight Preparation","satisfactory":4,"partial":1,"unsatisfactory":1,"credited_by_mention":1,"not_covered":0}],"elements":[]}}"#,
            &[
                "",
                "Result: unsatisfactory (all tasks covered).",
                "Asked 6 of 7 planned, 1 credited by mention, 0 bonus.",
                "  Area I Preflight Preparation: 4 satisfactory, 1 partial, 1 unsatisfactory, 0 not covered",
            ],
        );
        check(
            r#"{"type":"session.completed","session_id":"s","result":{"mode":"assessment","assessment_id":"M","learning":false,"trigger":"all_items_answered","score_percent":85.0,"grade_band":"Proficient","passed":true,"passing_score_percent":70.0,"items_total":20,"items_attempted":19,"items_correct":17,"items_skipped":1,"duration_seconds":412.5,"sections":[{"section_id":"a","title":"Addition","items":5,"attempted":5,"correct":5,"accuracy":1.0}]}}"#,
            &[
                "",
                "Result: 85.0% Proficient, passed (pass mark 70%).",
                "17 of 20 correct, 19 answered, 1 skipped, in 412 s.",
                "  Addition: 5 of 5 correct",
            ],
        );
    }

    #[test]
    fn partials_are_live_and_keep_their_end() {
        let message: ServerMessage =
            serde_json::from_str(r#"{"type":"transcript.partial","text":"you need a"}"#).unwrap();
        assert_eq!(render(&message.event), Shown::Live("… you need a".into()));
        let long = "x".repeat(150) + "END";
        let shown = live_text(&long);
        assert!(
            shown.ends_with("END") && shown.chars().count() == PARTIAL_CHARS + 3,
            "{shown}"
        );
    }

    #[test]
    fn acks_and_pongs_are_not_shown() {
        let ack: ServerMessage = serde_json::from_str(r#"{"type":"ack","event_id":"e"}"#).unwrap();
        assert_eq!(render(&ack.event), Shown::Nothing);
        assert_eq!(render(&ServerEvent::Pong), Shown::Nothing);
    }
}
