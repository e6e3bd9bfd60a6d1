//! Adaptive end of turn: whether what a candidate said before a pause reads as a whole
//! answer, so the turn may end after a short pause instead of the full thinking pause.
//! Pure. Code decides, from evidence it can check: an exam answer is whole when the
//! embedded assessor finds the element satisfied; an item's answer when it reads as the
//! item's kind (never whether it is right: a turn that ended sooner for right answers would
//! tell the candidate which ones were right). Whatever sounds unfinished (a trailing filler,
//! a word that needs another after it, a number that may go on) keeps the turn open.

use viva_blueprint::normalize::{Expectation, SpokenReading, read_spoken};

use super::listener::{ends_with_filler, spoken_text};
use crate::base::Listening;
use crate::exam::types::Score;
use crate::examiner::{AssessRequest, EmbeddedExaminer};

/// Whether `text`, the transcript of the turn so far, is a whole answer to the open question.
pub fn answer_is_complete(text: &str, open: &Listening<'_>, examiner: &EmbeddedExaminer) -> bool {
    let Some(text) = spoken_text(text) else {
        return false;
    };
    if sounds_unfinished(&text) {
        return false;
    }
    match open {
        Listening::Exam {
            question,
            element_code,
            rating,
            ..
        } => {
            let request = AssessRequest {
                rating: *rating,
                element_code: (*element_code).to_owned(),
                question: (*question).to_owned(),
                answer: text,
                other_pending: Vec::new(),
                follow_ups_left: 0,
                missing_terms: Vec::new(),
            };
            examiner.assess_now(&request).score == Score::Satisfactory
        }
        Listening::Item { item, .. } => {
            reads_as_kind(&text, &Expectation::of_item(&item.answer, &item.options))
        }
    }
}

/// Whether a spoken item answer reads as one value of the item's kind (right or wrong).
fn reads_as_kind(text: &str, expect: &Expectation<'_>) -> bool {
    matches!(read_spoken(text, expect), SpokenReading::Understood { .. })
}

/// Words after which a sentence goes on: conjunctions, prepositions, articles and other
/// determiners, auxiliaries, subject pronouns, and the words of a number or an address
/// still being said.
const GOES_ON: &[&str] = &[
    // conjunctions and connectives
    "and", "or", "but", "nor", "because", "since", "so", "then", "if", "when", "while", "although",
    "though", "unless", "until", "than", "whether", "whereas", "also", "plus", "minus", "times",
    "like", "which", "who", "where", "that's", "is", "are", "was", "were", "be", "been", "being",
    "am", "will", "would", "can", "could", "should", "must", "may", "might", "shall", "do", "does",
    "did", "has", "have", "had", "need", "needs", "get", // prepositions
    "of", "to", "in", "on", "at", "for", "with", "by", "from", "into", "onto", "about", "over",
    "under", "between", "through", "after", "before", "above", "below", "within", "without", "per",
    "via", "as", "against", "toward", "towards", "during",
    // articles, determiners, possessives
    "a", "an", "the", "my", "your", "our", "their", "his", "her", "its", "this", "these", "those",
    "some", "any", "every", "each", "no", "another", "other", "more", "less", "most", "least",
    "very", "too", // subject pronouns and openers
    "i", "we", "you", "they", "he", "she", "i'm", "it's", "there's", "there", "think",
    // a number or an address still being said
    "point", "dot", "hundred", "thousand", "million", "twenty", "thirty", "forty", "fifty", "sixty",
    "seventy", "eighty", "ninety", "slash", "negative",
];

/// Whether `text` sounds like more is coming: it ends in a filler ("um", "let me think"), a
/// word that needs another after it ("and", "the", "is", "point"), a comma, a dash or an
/// ellipsis.
pub fn sounds_unfinished(text: &str) -> bool {
    let trimmed = text.trim_end();
    if trimmed.ends_with([',', '-', ';', ':']) || trimmed.ends_with("...") || trimmed.ends_with('…')
    {
        return true;
    }
    if ends_with_filler(trimmed) {
        return true;
    }
    let last = trimmed
        .split_whitespace()
        .last()
        .map(|word| {
            word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .unwrap_or_default();
    last.is_empty() || GOES_ON.contains(&last.as_str()) || number_may_go_on(&last)
}

/// Whether a number written in digits may be the start of a longer one as said: "four
/// hundred" (400) before "and thirty", "one twenty" (120) before "eight". A whole number
/// of 20 or more that ends in 0 may; a decimal or a number ending in another digit does not.
fn number_may_go_on(word: &str) -> bool {
    let digits: String = word.chars().filter(|c| *c != ',').collect();
    let last_part = digits.rsplit('.').next().unwrap_or_default();
    if digits.contains('.') && digits.split('.').count() != 4 {
        return false;
    }
    last_part
        .parse::<u64>()
        .is_ok_and(|n| n >= 20 && n % 10 == 0)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::exam::acs::Rating;
    use crate::tutor::test_courses::Courses;

    #[test]
    fn a_trailing_filler_or_connective_sounds_unfinished() {
        for text in [
            "Three takeoffs and landings, and",
            "The annual inspection is done by the",
            "um",
            "It has to be inspected every, let me think",
            "The answer is one nine two dot",
            "It's eighty",
            "Two hundred",
            "I think it's 400.",
            "131.219.138.120",
            "It's 7,600.",
            "I think it's,",
            "The registration certificate is...",
            "",
        ] {
            assert!(sounds_unfinished(text), "{text:?}");
        }
    }

    #[test]
    fn a_closed_sentence_or_bare_value_does_not() {
        for text in [
            "Eighty five.",
            "Option B",
            "It expires seven years after issue.",
            "192.168.10.0",
            "10.0.0.0",
            "It's 14.",
            "29.70",
            "Every 12 calendar months.",
            "The owner or operator is responsible for it.",
        ] {
            assert!(!sounds_unfinished(text), "{text:?}");
        }
    }

    fn examiner() -> EmbeddedExaminer {
        EmbeddedExaminer::new(Arc::new(Courses::load().acs))
    }

    fn exam_question(element_code: &str) -> Listening<'_> {
        Listening::Exam {
            question_id: "q1",
            question: "What documents and inspections make this airplane airworthy?",
            element_code,
            rating: Rating::Private,
        }
    }

    #[test]
    fn an_exam_answer_is_whole_only_when_the_assessor_finds_the_element_satisfied() {
        let examiner = examiner();
        let open = exam_question("PA.I.B.K1");
        let whole = "The airworthiness certificate has to be displayed and the registration \
                     aboard, it needs an annual inspection every 12 calendar months, and the \
                     owner or operator is responsible for keeping it airworthy.";
        assert!(answer_is_complete(whole, &open, &examiner));
        let half = "The airworthiness certificate has to be displayed and the registration aboard.";
        assert!(!answer_is_complete(half, &open, &examiner));
        let trailing = "The airworthiness certificate has to be displayed and the registration \
                        aboard, it needs an annual inspection every 12 calendar months, and the \
                        owner or operator is responsible for";
        assert!(!answer_is_complete(trailing, &open, &examiner));
    }

    #[test]
    fn a_non_answer_is_never_whole() {
        let examiner = examiner();
        let open = exam_question("PA.I.B.K1");
        for text in ["I don't know.", "[BLANK_AUDIO]", "Um, let me think."] {
            assert!(!answer_is_complete(text, &open, &examiner), "{text:?}");
        }
    }

    #[test]
    fn an_item_answer_is_whole_when_it_reads_as_the_kind_right_or_wrong() {
        let shown: Vec<String> = ["42", "52", "32", "41"].map(String::from).into();
        let expect = Expectation::of_item("42", &shown);
        assert!(reads_as_kind("Forty two.", &expect));
        assert!(
            reads_as_kind("Fifty two.", &expect),
            "a wrong value ends the turn as soon"
        );
        let addresses: Vec<String> = ["192.168.10.0", "192.168.10.64", "192.168.0.0", "10.0.0.0"]
            .map(String::from)
            .into();
        let expect = Expectation::of_item("192.168.10.0", &addresses);
        assert!(!reads_as_kind("one nine two dot one six eight.", &expect));
        assert!(reads_as_kind(
            "one nine two dot one six eight dot ten dot zero",
            &expect
        ));
    }
}
