//! The benchmark's printed report: figures overall, the confusion matrix, figures by kind
//! of answer and for spoken answers, and (asked for) each disagreement.

use std::collections::BTreeMap;
use std::time::Duration;

use viva_blueprint::answer_set::{AnswerKindLabel, Label, LabelledAnswer};
use viva_core::exam::types::Score;

use super::agreement::{Confusion, SCORES};

/// One answer as an examiner judged it.
#[derive(Debug, Clone)]
pub struct Judged {
    /// The score given.
    pub score: Score,
    /// The feedback given.
    pub feedback: String,
    /// How long the assessment took.
    pub elapsed: Duration,
    /// A model was asked and its verdict replaced by the embedded one.
    pub fell_back: bool,
}

/// Prints the report for one examiner.
pub fn print(name: &str, answers: &[LabelledAnswer], judged: &[Judged], disagreements: bool) {
    let overall = confusion(answers, judged, |_| true);
    let elements: std::collections::BTreeSet<&str> =
        answers.iter().map(|a| a.element.as_str()).collect();
    println!("\n## examiner: {name}");
    println!(
        "{} answers over {} elements; fell back to the embedded examiner: {}",
        answers.len(),
        elements.len(),
        judged.iter().filter(|j| j.fell_back).count()
    );
    println!("{}", figures("all answers", &overall));
    let non_answers = confusion(answers, judged, |a| a.kind == AnswerKindLabel::NonAnswer);
    println!(
        "non-answers scored satisfactory: {} of {}",
        non_answers.cell(Score::Unsatisfactory, Score::Satisfactory)
            + non_answers.cell(Score::Partial, Score::Satisfactory),
        non_answers.total()
    );
    print_matrix(&overall);
    println!("\n| answers | n | agreement | false-pass | scored satisfactory |");
    println!("|---|---|---|---|---|");
    let mut kinds: BTreeMap<AnswerKindLabel, ()> = BTreeMap::new();
    answers.iter().for_each(|a| {
        kinds.insert(a.kind, ());
    });
    for kind in kinds.keys() {
        let c = confusion(answers, judged, |a| a.kind == *kind);
        println!("{}", row(kind.as_str(), &c));
    }
    println!(
        "{}",
        row("spoken", &confusion(answers, judged, |a| a.spoken))
    );
    println!(
        "{}",
        row("typed", &confusion(answers, judged, |a| !a.spoken))
    );
    println!("\n{}", timing(judged));
    if disagreements {
        print_disagreements(answers, judged);
    }
}

fn confusion(
    answers: &[LabelledAnswer],
    judged: &[Judged],
    keep: impl Fn(&LabelledAnswer) -> bool,
) -> Confusion {
    let mut confusion = Confusion::default();
    for (answer, judged) in answers.iter().zip(judged) {
        if keep(answer) {
            confusion.add(label_score(answer.label), judged.score);
        }
    }
    confusion
}

fn figures(what: &str, c: &Confusion) -> String {
    format!(
        "{what}: agreement {:.1} %, Cohen's kappa {:.3}, false-pass rate {:.1} % ({} of {} \
         unsatisfactory answers scored satisfactory)",
        c.agreement() * 100.0,
        c.kappa(),
        c.false_pass_rate() * 100.0,
        c.false_passes(),
        SCORES
            .iter()
            .map(|&s| c.cell(Score::Unsatisfactory, s))
            .sum::<usize>()
    )
}

fn print_matrix(c: &Confusion) {
    println!("\n| label \\ scored | satisfactory | partial | unsatisfactory |");
    println!("|---|---|---|---|");
    for label in SCORES {
        let cells: Vec<String> = SCORES
            .iter()
            .map(|&scored| c.cell(label, scored).to_string())
            .collect();
        println!("| {} | {} |", label.as_str(), cells.join(" | "));
    }
}

fn row(name: &str, c: &Confusion) -> String {
    let satisfactory: usize = SCORES.iter().map(|&l| c.cell(l, Score::Satisfactory)).sum();
    format!(
        "| {name} | {} | {:.1} % | {:.1} % | {satisfactory} |",
        c.total(),
        c.agreement() * 100.0,
        c.false_pass_rate() * 100.0
    )
}

fn timing(judged: &[Judged]) -> String {
    let mut times: Vec<Duration> = judged.iter().map(|j| j.elapsed).collect();
    times.sort();
    let at = |q: f64| {
        let index = ((times.len() as f64 - 1.0) * q).round() as usize;
        times.get(index).copied().unwrap_or_default()
    };
    format!(
        "assessment wall time (orientation only): p50 {:?}, p99 {:?}, max {:?}",
        at(0.5),
        at(0.99),
        at(1.0)
    )
}

fn print_disagreements(answers: &[LabelledAnswer], judged: &[Judged]) {
    println!("\ndisagreements:");
    for (answer, judged) in answers.iter().zip(judged) {
        let label = label_score(answer.label);
        if label == judged.score {
            continue;
        }
        println!(
            "- {} [{}{}] label {} scored {}: {}\n    feedback: {}",
            answer.element,
            answer.kind.as_str(),
            if answer.spoken { ", spoken" } else { "" },
            label.as_str(),
            judged.score.as_str(),
            answer
                .answer
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            judged.feedback
        );
    }
}

/// The label as a score.
fn label_score(label: Label) -> Score {
    match label {
        Label::Satisfactory => Score::Satisfactory,
        Label::Partial => Score::Partial,
        Label::Unsatisfactory => Score::Unsatisfactory,
    }
}
