//! How the server would take a transcript of a spoken item answer, both ways, and the counts
//! over many. Pure.
//!
//! - **plain**, the old path: the transcript (annotations dropped, `spoken_text`) recorded as
//!   typed text and judged by the assessment's text rule — `normalize_answer` with the
//!   option count; an option index is right iff it is the key's, anything else iff it
//!   `answers_match` the key.
//! - **repair**, the new path: `voice::spoken::decide` reads it as the item's kind with
//!   speech repairs; a `Record` is judged by that same rule, an `AskAgain` records nothing.
//!
//! A transcript with nothing spoken in it is "asked again" both ways (the server answers it
//! with a `no_speech` error and records nothing).

use serde_json::{Value, json};
use viva_blueprint::generate::Item;
use viva_blueprint::normalize::{Expectation, Normalized, answers_match, normalize_answer};
use viva_core::voice::listener::spoken_text;
use viva_core::voice::spoken::{SpokenDecision, decide};

/// The two readings compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The transcript recorded as it is (the server before repairs).
    Plain,
    /// `decide`: read as the item's kind, repaired, or asked again.
    Repair,
}

impl Reading {
    /// Both, old first.
    pub const ALL: [Reading; 2] = [Reading::Plain, Reading::Repair];

    /// `plain` or `repair`.
    pub fn name(self) -> &'static str {
        match self {
            Reading::Plain => "plain",
            Reading::Repair => "repair",
        }
    }
}

/// What the server did with one transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It recorded this text, judged right.
    Right(String),
    /// It recorded this text, judged wrong.
    Wrong(String),
    /// It recorded nothing and asked again, for this reason (`no_speech`, `not_read`,
    /// `ambiguous`, `not_an_option`).
    AskedAgain(&'static str),
}

impl Verdict {
    /// A short form for the report: `right: 8206`, `wrong: option B`, `asked: ambiguous`.
    pub fn describe(&self) -> String {
        match self {
            Verdict::Right(text) => format!("right: {text}"),
            Verdict::Wrong(text) => format!("wrong: {text}"),
            Verdict::AskedAgain(reason) => format!("asked: {reason}"),
        }
    }
}

/// `transcript` of an answer to `item`, taken by `reading`.
pub fn judge(item: &Item, transcript: &str, reading: Reading) -> Verdict {
    let Some(text) = spoken_text(transcript) else {
        return Verdict::AskedAgain("no_speech");
    };
    let recorded = match reading {
        Reading::Plain => text,
        Reading::Repair => {
            let expect = Expectation::of_item(&item.answer, &item.options);
            match decide(&text, &expect, None) {
                SpokenDecision::Record(answer) => answer,
                SpokenDecision::AskAgain(unclear) => return Verdict::AskedAgain(unclear.reason),
            }
        }
    };
    if is_right(item, &recorded) {
        Verdict::Right(recorded)
    } else {
        Verdict::Wrong(recorded)
    }
}

/// The assessment's rule for a recorded text answer.
pub fn is_right(item: &Item, text: &str) -> bool {
    match normalize_answer(text, Some(item.options.len())) {
        Normalized::OptionIndex(index) => index == item.answer_index,
        other => answers_match(&other, &item.answer),
    }
}

/// Verdicts summed against what the candidate meant.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Transcripts judged.
    pub clips: usize,
    /// A right answer judged right, or a wrong one wrong.
    pub intended: usize,
    /// Nothing recorded.
    pub asked_again: usize,
    /// A wrong answer judged right: must stay 0.
    pub wrong_judged_right: usize,
    /// A right answer judged wrong.
    pub right_judged_wrong: usize,
}

impl Counts {
    /// Adds one verdict on an answer that was `right` (or not).
    pub fn add(&mut self, right: bool, verdict: &Verdict) {
        self.clips += 1;
        match (right, verdict) {
            (_, Verdict::AskedAgain(_)) => self.asked_again += 1,
            (true, Verdict::Right(_)) | (false, Verdict::Wrong(_)) => self.intended += 1,
            (false, Verdict::Right(_)) => self.wrong_judged_right += 1,
            (true, Verdict::Wrong(_)) => self.right_judged_wrong += 1,
        }
    }

    /// The share judged as intended, of all.
    pub fn share(&self) -> f64 {
        self.intended as f64 / self.clips.max(1) as f64
    }

    /// `91.7% (55/60; asked again 4, wrong→right 0, right→wrong 1)`.
    pub fn line(&self) -> String {
        let alarm = if self.wrong_judged_right > 0 {
            " MUST BE 0"
        } else {
            ""
        };
        format!(
            "{:5.1}% ({}/{}; asked again {}, wrong→right {}{alarm}, right→wrong {})",
            self.share() * 100.0,
            self.intended,
            self.clips,
            self.asked_again,
            self.wrong_judged_right,
            self.right_judged_wrong
        )
    }

    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({"share_as_intended": crate::stats::round3(self.share()), "clips": self.clips,
               "as_intended": self.intended, "asked_again": self.asked_again,
               "wrong_judged_right": self.wrong_judged_right,
               "right_judged_wrong": self.right_judged_wrong})
    }
}

#[cfg(test)]
mod tests {
    use viva_blueprint::skill::Difficulty;

    use super::*;

    fn item(options: &[&str], answer_index: usize) -> Item {
        Item {
            skill_id: "T".into(),
            difficulty: Difficulty::Easy,
            seed: 0,
            parameters: Vec::new(),
            stem: "?".into(),
            options: options.iter().map(|o| (*o).to_owned()).collect(),
            answer_index,
            option_mistakes: vec![None; options.len()],
            answer: options[answer_index].to_owned(),
            explanation: None,
        }
    }

    #[test]
    fn the_plain_reading_judges_the_text_as_typed() {
        let shown = item(&["52", "42", "32", "41"], 1);
        let plain = |text: &str| judge(&shown, text, Reading::Plain);
        assert_eq!(plain("Forty two."), Verdict::Right("Forty two.".into()));
        assert_eq!(plain("Option B."), Verdict::Right("Option B.".into()));
        assert_eq!(plain("Option A."), Verdict::Wrong("Option A.".into()));
        assert_eq!(plain("52"), Verdict::Wrong("52".into()));
        assert_eq!(plain("[BLANK_AUDIO]"), Verdict::AskedAgain("no_speech"));
    }

    #[test]
    fn the_repair_reading_records_what_decide_reads() {
        let shown = item(&["52", "42", "32", "41"], 1);
        assert_eq!(
            judge(&shown, "Forty two.", Reading::Repair),
            Verdict::Right("42".into())
        );
        assert_eq!(
            judge(&shown, "(silence)", Reading::Repair),
            Verdict::AskedAgain("no_speech")
        );
    }

    #[test]
    fn counts_sort_verdicts_by_what_was_meant() {
        let mut counts = Counts::default();
        counts.add(true, &Verdict::Right("a".into()));
        counts.add(false, &Verdict::Wrong("b".into()));
        counts.add(false, &Verdict::Right("c".into()));
        counts.add(true, &Verdict::Wrong("d".into()));
        counts.add(true, &Verdict::AskedAgain("not_read"));
        assert_eq!(
            counts,
            Counts {
                clips: 5,
                intended: 2,
                asked_again: 1,
                wrong_judged_right: 1,
                right_judged_wrong: 1,
            }
        );
        assert!((counts.share() - 0.4).abs() < 1e-9);
        assert!(counts.line().contains("MUST BE 0"), "{}", counts.line());
        assert!(!Counts::default().line().contains("MUST"));
    }
}
