//! Deterministic question phrasing for the embedded examiner, built from ACS element text.
//!
//! Knowledge elements ask the candidate to explain; risk elements to identify, assess and
//! mitigate. Easy asks for recall, Medium for application on a real flight, Hard sets a
//! short scenario from the task title and element text. Sub-elements are listed to cover.
//! Skill elements (never asked orally) are phrased like knowledge elements.

use super::super::acs::{AcsElement, ElementType};
use super::super::types::{QuestionDifficulty, QuestionKind};
use super::assessor::live_sub_elements;
use super::text::{lowercase_unless_acronym, readable_phrase};

/// What a bonus question opens with.
const BONUS_LEAD_IN: &str = "Let's try one more area.";
/// Words ending an element text that only introduce its sub-element list (`..., including:`).
const LIST_INTRODUCERS: &[&str] = &["including", "such as", "appropriate"];
/// Words that leave an element text dangling before its list (`Effects of:`).
const DANGLING_WORDS: &[&str] = &[
    "of", "for", "to", "in", "on", "with", "during", "from", "about",
];

/// The parts of an element a question is built from, ready to embed mid-sentence.
struct Topic {
    /// The element text, trimmed of end punctuation and list introducers.
    subject: String,
    /// The task title, readable mid-sentence.
    task: String,
    /// ` Cover: a) ...; b) ....` when there are live sub-elements, else empty.
    cover: String,
    is_risk: bool,
}

/// Phrases a question on `element`. Deterministic, never empty, and always ending in a
/// question mark or an imperative sentence. A follow-up phrased here names nothing the last
/// answer left out (the examiner's follow-ups come from `probe`, which asks about it).
pub fn phrase_question(
    element: &AcsElement,
    kind: QuestionKind,
    difficulty: QuestionDifficulty,
) -> String {
    let topic = Topic::of(element);
    match kind {
        QuestionKind::Primary => primary_question(&topic, difficulty),
        QuestionKind::Bonus => format!("{BONUS_LEAD_IN} {}", primary_question(&topic, difficulty)),
        QuestionKind::FollowUp => follow_up_question(&topic, difficulty),
    }
}

impl Topic {
    fn of(element: &AcsElement) -> Topic {
        let items: Vec<String> = live_sub_elements(element)
            .map(|sub| embed(trim_end_punctuation(&sub.text)))
            .filter(|item| !item.is_empty())
            .collect();
        let task = match readable_phrase(element.task_title.trim()) {
            title if title.is_empty() => "this area".to_owned(),
            title => title,
        };
        let subject = match subject_of(&element.text, !items.is_empty()) {
            subject if subject.is_empty() => task.clone(),
            subject => subject,
        };
        Topic {
            subject,
            task,
            cover: cover_list(&items),
            is_risk: element.element_type == ElementType::Risk,
        }
    }
}

pub(super) fn trim_end_punctuation(text: &str) -> &str {
    text.trim()
        .trim_end_matches(|c: char| matches!(c, '.' | ':' | ';' | ',') || c.is_whitespace())
}

/// Lowercases the first word for use mid-sentence, unless it is an acronym or starts a
/// capitalised name (`Airworthiness Directives`, `Visual Meteorological Conditions`).
pub(super) fn embed(text: &str) -> String {
    let mut words = text.splitn(3, ' ');
    let first = words.next().unwrap_or_default();
    let starts_name = words
        .next()
        .is_some_and(|second| second.starts_with(char::is_uppercase));
    if starts_name {
        return text.to_owned();
    }
    let rest = &text[first.len()..];
    format!("{}{rest}", lowercase_unless_acronym(first))
}

/// The element text as a noun phrase: end punctuation and list introducers dropped, and
/// `the following` added where a list would otherwise dangle (`effects of the following`).
pub(super) fn subject_of(text: &str, has_list: bool) -> String {
    let mut subject = trim_end_punctuation(text);
    for introducer in LIST_INTRODUCERS {
        if let Some(head) = subject.strip_suffix(introducer)
            && (head.is_empty() || head.ends_with([' ', ',']))
        {
            subject = trim_end_punctuation(head);
        }
    }
    let last_word = subject
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let single_gerund = !subject.contains(' ') && last_word.ends_with("ing");
    let dangling = DANGLING_WORDS.contains(&last_word.as_str()) || single_gerund;
    if has_list && dangling {
        return format!("{} the following", embed(subject));
    }
    embed(subject)
}

/// ` Cover: a) first; b) second.` for the sub-element items, or empty.
fn cover_list(items: &[String]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let labelled: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(index, item)| format!("{}) {item}", item_label(index)))
        .collect();
    format!(" Cover: {}.", labelled.join("; "))
}

/// `a`..`z`, then numbers (no ACS element has more than a dozen sub-elements).
fn item_label(index: usize) -> String {
    match u8::try_from(index).ok().filter(|&i| i < 26) {
        Some(i) => char::from(b'a' + i).to_string(),
        None => (index + 1).to_string(),
    }
}

fn primary_question(topic: &Topic, difficulty: QuestionDifficulty) -> String {
    let Topic {
        subject,
        task,
        cover,
        ..
    } = topic;
    let question = match (topic.is_risk, difficulty) {
        (false, QuestionDifficulty::Easy) => format!("Let's talk about {task}. Explain {subject}."),
        (false, QuestionDifficulty::Medium) => format!(
            "Let's talk about {task}. How does your knowledge of {subject} apply in practice \
             when you plan and fly an actual flight?"
        ),
        (false, QuestionDifficulty::Hard) => format!(
            "Here's a scenario about {task}. You are preparing for a flight, and a question \
             about {subject} comes up. What would you do, and why?"
        ),
        (true, QuestionDifficulty::Easy) => format!(
            "Let's talk about risk management in {task}. Consider this risk: {subject}. \
             Explain how you identify, assess and mitigate it."
        ),
        (true, QuestionDifficulty::Medium) => format!(
            "Let's talk about risk management in {task}. Consider this risk: {subject}. On an \
             actual flight, how would you identify it, assess it and mitigate it?"
        ),
        (true, QuestionDifficulty::Hard) => format!(
            "Here's a scenario about {task}. You are on a flight and run into this risk: \
             {subject}. How would you identify and assess it, what would you do to mitigate \
             it, and why?"
        ),
    };
    format!("{question}{cover}")
}

fn follow_up_question(topic: &Topic, difficulty: QuestionDifficulty) -> String {
    let lead = format!("Let's go back to that question on {}.", topic.task);
    let probe = match (topic.is_risk, difficulty) {
        (false, QuestionDifficulty::Easy) => "Tell me more: what else matters here?",
        (false, QuestionDifficulty::Medium) => "What else matters on an actual flight?",
        (false, QuestionDifficulty::Hard) => "What else would change what you decide, and why?",
        (true, QuestionDifficulty::Easy) => "What else would you do to manage this risk?",
        (true, QuestionDifficulty::Medium) => {
            "What else would you do about it on an actual flight?"
        }
        (true, QuestionDifficulty::Hard) => "What else would change what you do, and why?",
    };
    format!("{lead} {probe}")
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{catalogs, oral_elements, private_element};
    use super::*;

    const DIFFICULTIES: [QuestionDifficulty; 3] = [
        QuestionDifficulty::Easy,
        QuestionDifficulty::Medium,
        QuestionDifficulty::Hard,
    ];

    fn ask(code: &str, kind: QuestionKind, difficulty: QuestionDifficulty) -> String {
        phrase_question(private_element(code), kind, difficulty)
    }

    fn check(code: &str, kind: QuestionKind, difficulty: QuestionDifficulty, expected: &str) {
        assert_eq!(
            ask(code, kind, difficulty),
            expected,
            "{code} {kind:?} {difficulty:?}"
        );
    }

    #[test]
    fn knowledge_questions_by_difficulty() {
        check(
            "PA.I.A.K1",
            QuestionKind::Primary,
            QuestionDifficulty::Easy,
            "Let's talk about pilot qualifications. Explain certification requirements, recent \
             flight experience, and recordkeeping.",
        );
        check(
            "PA.I.A.K1",
            QuestionKind::Primary,
            QuestionDifficulty::Medium,
            "Let's talk about pilot qualifications. How does your knowledge of certification \
             requirements, recent flight experience, and recordkeeping apply in practice when \
             you plan and fly an actual flight?",
        );
        check(
            "PA.I.A.K5",
            QuestionKind::Primary,
            QuestionDifficulty::Hard,
            "Here's a scenario about pilot qualifications. You are preparing for a flight, and a \
             question about part 68 BasicMed privileges and limitations comes up. What would you \
             do, and why?",
        );
    }

    #[test]
    fn risk_questions_ask_to_identify_assess_and_mitigate() {
        check(
            "PA.I.A.R1",
            QuestionKind::Primary,
            QuestionDifficulty::Easy,
            "Let's talk about risk management in pilot qualifications. Consider this risk: \
             proficiency versus currency. Explain how you identify, assess and mitigate it.",
        );
        for difficulty in DIFFICULTIES {
            let question = ask("PA.I.A.R1", QuestionKind::Primary, difficulty);
            assert!(question.contains("mitigate"), "{question}");
        }
    }

    #[test]
    fn sub_elements_are_listed_to_cover() {
        check(
            "PA.IV.A.R2",
            QuestionKind::Primary,
            QuestionDifficulty::Easy,
            "Let's talk about risk management in normal takeoff and climb. Consider this risk: \
             effects of the following. Explain how you identify, assess and mitigate it. Cover: \
             a) crosswind; b) windshear; c) tailwind; d) wake turbulence; e) takeoff surface/condition.",
        );
        let question = ask(
            "PA.I.B.K3",
            QuestionKind::Primary,
            QuestionDifficulty::Medium,
        );
        assert!(
            question
                .contains("knowledge of equipment requirements for day and night VFR flight apply"),
            "{question}"
        );
        assert!(
            question.ends_with("d) required discrepancy records or placards."),
            "{question}"
        );
        let archived = ask(
            "PA.IX.C.K1",
            QuestionKind::Primary,
            QuestionDifficulty::Easy,
        );
        assert!(!archived.contains("Cover:"), "{archived}");
    }

    #[test]
    fn follow_ups_name_nothing() {
        assert_eq!(
            ask(
                "PA.I.A.K1",
                QuestionKind::FollowUp,
                QuestionDifficulty::Easy
            ),
            "Let's go back to that question on pilot qualifications. Tell me more: what else \
             matters here?"
        );
        let risk = ask(
            "PA.I.A.R1",
            QuestionKind::FollowUp,
            QuestionDifficulty::Hard,
        );
        assert!(
            risk.ends_with("What else would change what you do, and why?"),
            "{risk}"
        );
    }

    #[test]
    fn bonus_questions_lead_in_to_a_primary_question() {
        for difficulty in DIFFICULTIES {
            let bonus = ask("PA.I.A.K2", QuestionKind::Bonus, difficulty);
            let primary = ask("PA.I.A.K2", QuestionKind::Primary, difficulty);
            assert_eq!(bonus, format!("Let's try one more area. {primary}"));
        }
    }

    #[test]
    fn subjects_read_well_mid_sentence() {
        let cases = [
            ("Calculating:", true, "calculating the following"),
            (
                "Selection of appropriate:",
                true,
                "selection of the following",
            ),
            ("Airplane systems, including:", true, "airplane systems"),
            ("Features, such as:", true, "features"),
            ("VFR flight plans.", false, "VFR flight plans"),
            ("Part 68 BasicMed.", false, "part 68 BasicMed"),
            (
                "Airworthiness Directives and Bulletins",
                false,
                "Airworthiness Directives and Bulletins",
            ),
            ("Hypoxia", false, "hypoxia"),
            ("Effects of:", false, "effects of"),
            ("...", false, ""),
        ];
        for (text, has_list, expected) in cases {
            assert_eq!(subject_of(text, has_list), expected, "{text:?}");
        }
    }

    #[test]
    fn every_oral_question_is_distinct_by_difficulty_deterministic_and_well_ended() {
        let kinds = [
            QuestionKind::Primary,
            QuestionKind::FollowUp,
            QuestionKind::Bonus,
        ];
        for catalog in catalogs() {
            for element in oral_elements(catalog) {
                for kind in kinds {
                    let questions = DIFFICULTIES.map(|d| phrase_question(element, kind, d));
                    assert!(
                        questions[0] != questions[1] && questions[1] != questions[2],
                        "{}",
                        element.code
                    );
                    for (question, difficulty) in questions.iter().zip(DIFFICULTIES) {
                        assert_eq!(question, &phrase_question(element, kind, difficulty));
                        assert!(
                            question.ends_with(['?', '.']) && !question.contains(".."),
                            "{question}"
                        );
                        assert!(
                            !question.contains(" ,") && !question.contains("  "),
                            "{question}"
                        );
                    }
                }
            }
        }
    }
}
