//! What the open question leads the recogniser to expect: the text given to whisper as the
//! context that "came before" the turn (its prompt tokens). Whisper continues a prompt in
//! its own style and vocabulary, so an item's option phrases and values, written as the
//! server reads them best ("Option B", "192.168.10.0", "62.5"), and an exam question's key
//! terms ("carburetor", "VFR") make those the likelier words. Pure; the pool tokenises it.
//!
//! Each part is separate ([`HintParts`]) so the voice benchmark can measure each bias alone.
//!
//! Measured, and not used by the server (docs/benchmarks.md, "Listening (issue 17)"): on
//! festival speech no item hint raised the share of item answers judged as intended with
//! repairs (tiny.en 86.9 % without, 70.5–82.0 % with), and each cost 5–24 % more decode
//! time; the exam hint halved tiny.en's word error rate but cost 28–32 % more time, gained
//! nothing with base, and in the socket tests made whisper drop the second half of an answer
//! said after a thinking pause. The speech pool still takes a hint (`DecodeJob::hint`).
//! Measured again in issue 37 with the aviation phrase set ("Aviation vocabulary and
//! first-try item answers"): the element's terms helped held-out festival phrases, espeak-ng
//! and free answers, hurt the tuned festival phrases and cost ×1.34; still not used.

use viva_blueprint::normalize::AnswerKind;
use viva_blueprint::rubric::ElementRubric;

use crate::exam::examiner::rubric_exam::asked_question;

/// The longest hint, in characters: well under whisper's 224 prompt tokens, and short, for
/// prompt tokens cost decoding time.
pub const MAX_HINT_CHARS: usize = 360;
/// The most key terms an exam hint lists.
const MAX_TERMS: usize = 16;

/// Which parts of an item's hint to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintParts {
    /// "Option A, option B, …": how the candidate names an option.
    pub option_letters: bool,
    /// The options' own values, as the server reads them best.
    pub option_values: bool,
    /// The words of the answer's kind ("dot", "point", "slash") in a worked example.
    pub kind_words: bool,
}

impl HintParts {
    /// Every part.
    pub const ALL: HintParts = HintParts {
        option_letters: true,
        option_values: true,
        kind_words: true,
    };
    /// No hint at all.
    pub const NONE: HintParts = HintParts {
        option_letters: false,
        option_values: false,
        kind_words: false,
    };
}

/// The hint for a generated item with `options`, whose key is of `kind`; `None` when no part
/// is asked for.
pub fn item_hint(options: &[String], kind: AnswerKind, parts: HintParts) -> Option<String> {
    let mut sentences = Vec::new();
    if parts.option_letters && !options.is_empty() {
        sentences.push(option_letters(options.len()));
    }
    if parts.option_values && !options.is_empty() {
        sentences.push(format!("The options are {}.", options.join(", ")));
    }
    if parts.kind_words
        && let Some(example) = kind_example(kind)
    {
        sentences.push(example.to_owned());
    }
    finish(sentences.join(" "))
}

/// "Option A, option B, option C or option D."
fn option_letters(count: usize) -> String {
    let letters: Vec<String> = (0..count.min(26))
        .map(|index| format!("option {}", char::from(b'A' + index as u8)))
        .collect();
    let mut sentence = match letters.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    if let Some(first) = sentence.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    format!("{sentence}.")
}

/// A short example in the answer's kind, written as whisper should write it.
fn kind_example(kind: AnswerKind) -> Option<&'static str> {
    match kind {
        AnswerKind::Ipv4 => {
            Some("Addresses are said with dots, like 192.168.10.0 or 255.255.255.192.")
        }
        AnswerKind::Cidr => Some("Prefixes are said with a slash, like /26 or 10.0.0.0/8."),
        AnswerKind::Number | AnswerKind::Percent => {
            Some("Numbers are written in digits, like 8206 or 62.5.")
        }
        _ => None,
    }
}

/// The hint for an exam question: the question as asked, then the key terms of the facts it
/// asks about (all the element's facts when the question is not one of the rubric's).
pub fn exam_hint(question: &str, rubric: Option<&ElementRubric>) -> Option<String> {
    let terms = rubric
        .map(|rubric| question_terms(rubric, question))
        .unwrap_or_default();
    let mut hint = question.trim().to_owned();
    if !terms.is_empty() {
        hint.push_str(&format!(" Key terms: {}.", terms.join(", ")));
    }
    finish(hint)
}

/// Distinct key terms of the facts `question` asks about, at most [`MAX_TERMS`].
fn question_terms(rubric: &ElementRubric, question: &str) -> Vec<String> {
    let asked = asked_question(rubric, question);
    let wanted = |id: &str| asked.is_none_or(|q| q.facts.iter().any(|f| f == id));
    let mut terms: Vec<String> = Vec::new();
    let facts = rubric.facts.iter().filter(|fact| wanted(&fact.id));
    for term in facts.flat_map(|fact| &fact.terms) {
        let term = term.trim();
        let seen = terms.iter().any(|t| t.eq_ignore_ascii_case(term));
        if !term.is_empty() && !seen && terms.len() < MAX_TERMS {
            terms.push(term.to_owned());
        }
    }
    terms
}

/// The hint cut to [`MAX_HINT_CHARS`] at a word boundary, without NUL bytes; `None` if empty.
fn finish(hint: String) -> Option<String> {
    let hint: String = hint.chars().filter(|c| *c != '\0').collect();
    let hint = hint.trim();
    if hint.is_empty() {
        return None;
    }
    if hint.chars().count() <= MAX_HINT_CHARS {
        return Some(hint.to_owned());
    }
    let cut: String = hint.chars().take(MAX_HINT_CHARS).collect();
    let at_word = cut.rfind(' ').map_or(cut.as_str(), |space| &cut[..space]);
    Some(at_word.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| (*v).to_owned()).collect()
    }

    #[test]
    fn an_item_hint_names_the_options_their_values_and_the_kind() {
        let shown = options(&["192.168.10.0", "192.168.10.64", "192.168.0.0", "10.0.0.0"]);
        let hint = item_hint(&shown, AnswerKind::Ipv4, HintParts::ALL).unwrap_or_default();
        assert!(
            hint.starts_with("Option A, option B, option C or option D."),
            "{hint}"
        );
        assert!(
            hint.contains("The options are 192.168.10.0, 192.168.10.64"),
            "{hint}"
        );
        assert!(hint.contains("with dots"), "{hint}");
    }

    #[test]
    fn each_part_can_be_asked_for_alone() {
        let shown = options(&["42", "52"]);
        let letters = HintParts {
            option_letters: true,
            ..HintParts::NONE
        };
        assert_eq!(
            item_hint(&shown, AnswerKind::Number, letters).as_deref(),
            Some("Option A or option B.")
        );
        assert_eq!(item_hint(&shown, AnswerKind::Number, HintParts::NONE), None);
        assert_eq!(
            item_hint(
                &shown,
                AnswerKind::Text,
                HintParts {
                    kind_words: true,
                    ..HintParts::NONE
                }
            ),
            None
        );
    }

    #[test]
    fn a_hint_is_bounded_and_holds_no_nul() {
        let long: Vec<String> = (0..200).map(|n| format!("value{n}\0")).collect();
        let hint = item_hint(&long, AnswerKind::Text, HintParts::ALL).unwrap_or_default();
        assert!(hint.chars().count() <= MAX_HINT_CHARS);
        assert!(!hint.contains('\0'));
    }

    #[test]
    fn an_exam_hint_lists_the_terms_of_the_facts_asked() {
        let text = "task: PA.I.B\nelements:\n  - element: PA.I.B.K1\n    facts:\n      \
            - id: night\n        claim: Three takeoffs and landings to a full stop at night.\n        \
            source: 14 CFR 61.57(b)\n        terms: [full stop, night]\n      \
            - id: ninety\n        claim: Within the preceding 90 days.\n        \
            source: 14 CFR 61.57(a)\n        terms: [90 days, preceding]\n    \
            satisfactory: [night, ninety]\n    questions:\n      \
            - ask: What makes you night current?\n        facts: [night]\n";
        let source = viva_blueprint::library::Source {
            path: "r.yaml".into(),
            text: text.into(),
        };
        let set = viva_blueprint::rubric::RubricSet::load(&[source]).expect("valid");
        let rubric = set.get("PA.I.B.K1").cloned().expect("rubric");
        let hint = exam_hint("Next: What makes you night current?", Some(&rubric));
        assert_eq!(
            hint.as_deref(),
            Some("Next: What makes you night current? Key terms: full stop, night.")
        );
        let other = exam_hint("Tell me about currency.", Some(&rubric)).unwrap_or_default();
        assert!(
            other.ends_with("Key terms: full stop, night, 90 days, preceding."),
            "{other}"
        );
    }
}
