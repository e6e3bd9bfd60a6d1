//! Deterministic assessor for the embedded examiner: scores an answer by the share of an
//! element's key terms it contains, and credits other pending elements it also covers.
//!
//! Limits, stated plainly. It scores vocabulary overlap, not understanding:
//! - a candidate who reads the element text back scores satisfactory;
//! - negations and wrong facts are not detected ("no medical is ever needed" still hears
//!   `medical`), nor are numbers checked against the rule (`30 days` hears `30` and `day`);
//! - the synonym table is small (see `vocabulary`), so a right idea in other words earns nothing;
//! - key terms come from the ACS wording, so a generic word there (`factors`) counts as much
//!   as the point that matters.
//!
//! It is an honest baseline for running without a language model, not a grader to trust alone.

use std::collections::HashSet;

use super::super::acs::AcsElement;
use super::super::types::Score;
use super::coverage::Coverage;
pub use super::coverage::{key_terms, live_sub_elements};
pub use super::sources::source_summary;
pub use super::text::KeyTerm;
use super::text::{canonical_terms_of_answer, join_words, tokenize};
use super::vocabulary::{is_non_answer_word, is_stopword};

/// Satisfactory needs at least this share of key terms heard. With two or more key terms this
/// already means two or more heard (2 of 3, 3 of 5, 6 of 10); an element of one or two key
/// terms needs all of them.
pub const SATISFACTORY_COVERAGE: f32 = 0.6;
/// Partial needs at least this share (so at least one term; one of three for small elements).
/// Below it, the answer is unsatisfactory.
pub const PARTIAL_COVERAGE: f32 = 0.3;
/// Another pending element counts as mentioned when the answer covers this share of its
/// key terms ...
pub const MENTION_COVERAGE: f32 = 0.75;
/// ... and at least this many of them, so that two-word elements are never credited by chance.
pub const MENTION_MIN_TERMS: usize = 3;
/// How many words feedback names in one list before counting the rest.
const FEEDBACK_MAX_WORDS: usize = 6;

/// The embedded assessor's verdict on one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddedAssessment {
    /// The score, from the coverage thresholds above.
    pub score: Score,
    /// Fraction of the element's key terms heard, `0..=1`.
    pub coverage: f32,
    /// Readable words of the key terms heard, in element order; adjacent terms heard read as
    /// one phrase (`recent flight experience`).
    pub covered: Vec<String>,
    /// Readable words of the key terms not heard, in element order, joined likewise.
    pub missing: Vec<String>,
    /// Codes of other pending elements this answer also covers, in their input order.
    pub mentioned_elements: Vec<String>,
    /// One or two sentences for the candidate; never empty.
    pub feedback: String,
}

/// The score a coverage fraction earns.
fn score_for_coverage(coverage: f32) -> Score {
    if coverage >= SATISFACTORY_COVERAGE {
        Score::Satisfactory
    } else if coverage >= PARTIAL_COVERAGE {
        Score::Partial
    } else {
        Score::Unsatisfactory
    }
}

/// Whether the answer says nothing: empty, or only stopwords and "don't know" words.
fn is_non_answer(answer: &str) -> bool {
    tokenize(answer)
        .iter()
        .all(|token| is_stopword(token) || is_non_answer_word(token))
}

/// Scores `answer` against `element`, and credits the other pending elements it also covers.
/// An empty answer, or one like "I don't know", is unsatisfactory with coverage 0. An element
/// without key terms (none in the real ACS) cannot be checked: any answer is partial.
pub fn assess_answer(
    element: &AcsElement,
    answer: &str,
    other_pending: &[&AcsElement],
) -> EmbeddedAssessment {
    let terms = key_terms(element);
    if is_non_answer(answer) {
        let missing = Coverage::of(&terms, &HashSet::new()).missing;
        let feedback = non_answer_feedback(&missing);
        return EmbeddedAssessment {
            score: Score::Unsatisfactory,
            coverage: 0.0,
            covered: Vec::new(),
            missing,
            mentioned_elements: Vec::new(),
            feedback,
        };
    }
    let answer_terms = canonical_terms_of_answer(answer);
    let coverage = Coverage::of(&terms, &answer_terms);
    let fraction = coverage.fraction();
    let score = if terms.is_empty() {
        Score::Partial
    } else {
        score_for_coverage(fraction)
    };
    EmbeddedAssessment {
        score,
        coverage: fraction,
        feedback: feedback(score, &coverage.covered, &coverage.missing),
        covered: coverage.covered,
        missing: coverage.missing,
        mentioned_elements: mentioned_elements(element, &answer_terms, other_pending),
    }
}

/// Codes of `other_pending` elements (never `element` itself) the answer covers well enough.
fn mentioned_elements(
    element: &AcsElement,
    answer_terms: &HashSet<String>,
    other_pending: &[&AcsElement],
) -> Vec<String> {
    let mut mentioned: Vec<String> = Vec::new();
    for other in other_pending {
        if other.code == element.code || mentioned.contains(&other.code) {
            continue;
        }
        let coverage = Coverage::of(&key_terms(other), answer_terms);
        if coverage.heard >= MENTION_MIN_TERMS && coverage.fraction() >= MENTION_COVERAGE {
            mentioned.push(other.code.clone());
        }
    }
    mentioned
}

fn score_label(score: Score) -> &'static str {
    match score {
        Score::Satisfactory => "Satisfactory",
        Score::Partial => "Partial",
        Score::Unsatisfactory => "Unsatisfactory",
    }
}

fn non_answer_feedback(missing: &[String]) -> String {
    if missing.is_empty() {
        return "Unsatisfactory: no answer was heard.".to_owned();
    }
    let points = join_words(missing, FEEDBACK_MAX_WORDS);
    format!("Unsatisfactory: no answer was heard. The key points are {points}.")
}

/// Names what was covered and what was missed, in readable words.
fn feedback(score: Score, covered: &[String], missing: &[String]) -> String {
    let label = score_label(score);
    let heard = join_words(covered, FEEDBACK_MAX_WORDS);
    let unheard = join_words(missing, FEEDBACK_MAX_WORDS);
    match (covered.is_empty(), missing.is_empty(), score) {
        (true, true, _) => format!("{label}: this element has no key terms to check."),
        (false, true, _) => format!("{label}: you covered {heard}."),
        (true, false, _) => format!("{label}: you did not mention {unheard}."),
        (false, false, Score::Satisfactory) => {
            format!("{label}: you covered {heard}. You could also mention {unheard}.")
        }
        (false, false, _) => {
            format!("{label}: you covered {heard}, but did not mention {unheard}.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::private_element;
    use super::*;

    const NATO: &str = "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima";
    const K1_POINTS: [&str; 3] = [
        "certification requirements",
        "recent flight experience",
        "recordkeeping",
    ];

    /// A made-up element whose key terms are the first `total` NATO words.
    fn nato_element(code: &str, total: usize) -> AcsElement {
        let mut element = private_element("PA.I.A.K1").clone();
        element.code = code.to_owned();
        element.text = nato_answer(total).replace(" and ", ", ");
        element
    }

    fn nato_answer(heard: usize) -> String {
        NATO.split(' ')
            .take(heard)
            .collect::<Vec<_>>()
            .join(" and ")
    }

    fn check(total: usize, heard: usize, expected: Score) {
        let element = nato_element("PA.I.A.K9", total);
        let assessment = assess_answer(&element, &nato_answer(heard), &[]);
        let expected_coverage = heard as f32 / total as f32;
        let actual = (
            assessment.score,
            assessment.coverage,
            assessment.covered.len(),
        );
        assert_eq!(
            actual,
            (expected, expected_coverage, heard),
            "{heard} of {total}"
        );
    }

    #[test]
    fn score_thresholds_at_their_boundaries() {
        let table = [
            (1, 1, Score::Satisfactory),
            (1, 0, Score::Unsatisfactory),
            (2, 2, Score::Satisfactory),
            (2, 1, Score::Partial),
            (3, 2, Score::Satisfactory),
            (3, 1, Score::Partial),
            (5, 3, Score::Satisfactory),   // exactly 0.6
            (10, 6, Score::Satisfactory),  // exactly 0.6
            (12, 7, Score::Partial),       // 0.583, just under 0.6
            (10, 3, Score::Partial),       // exactly 0.3
            (7, 2, Score::Unsatisfactory), // 0.286, just under 0.3
            (4, 1, Score::Unsatisfactory),
        ];
        for (total, heard, expected) in table {
            check(total, heard, expected);
        }
    }

    #[test]
    fn good_and_half_answers_to_pa_i_a_k1() {
        let element = private_element("PA.I.A.K1");
        let good = "I meet the certificate requirements, have recent flight experience (three \
                    takeoffs and landings in 90 days) and log it all in my logbook.";
        let assessment = assess_answer(element, good, &[]);
        assert_eq!(
            (assessment.score, assessment.coverage),
            (Score::Satisfactory, 1.0)
        );
        assert_eq!(assessment.covered, K1_POINTS);
        assert_eq!(
            assessment.feedback,
            "Satisfactory: you covered certification requirements, recent flight experience \
             and recordkeeping."
        );
        let half = assess_answer(element, "Recent flight experience.", &[]);
        assert_eq!((half.score, half.coverage), (Score::Partial, 0.5));
        assert_eq!(half.covered, [K1_POINTS[1]]);
        assert_eq!(half.missing, [K1_POINTS[0], K1_POINTS[2]]);
        assert_eq!(
            half.feedback,
            "Partial: you covered recent flight experience, but did not mention certification \
             requirements and recordkeeping."
        );
    }

    #[test]
    fn empty_and_dont_know_answers_are_unsatisfactory() {
        let element = private_element("PA.I.A.K1");
        for blank in [
            "",
            "   ",
            "I don't know.",
            "Sorry, no idea",
            "um, I'm not sure",
        ] {
            let assessment = assess_answer(element, blank, &[element]);
            let verdict = (assessment.score, assessment.coverage);
            assert_eq!(verdict, (Score::Unsatisfactory, 0.0), "{blank:?}");
            assert!(assessment.covered.is_empty() && assessment.mentioned_elements.is_empty());
            assert_eq!(assessment.missing, K1_POINTS);
            let expected = "Unsatisfactory: no answer was heard. The key points are";
            assert!(assessment.feedback.starts_with(expected), "{blank:?}");
        }
    }

    #[test]
    fn a_synonym_counts_for_its_key_term() {
        let element = private_element("PA.I.A.K1");
        let assessment = assess_answer(element, "Everything goes in my logbook.", &[]);
        assert_eq!(assessment.covered, ["recordkeeping"]);
        assert_eq!(
            assessment.feedback,
            "Unsatisfactory: you covered recordkeeping, but did not mention certification \
             requirements and recent flight experience."
        );
    }

    #[test]
    fn wrong_answers_with_the_right_words_still_score() {
        // A documented limit: negation is not detected.
        let element = private_element("PA.I.A.K2");
        let answer = "There are no privileges and no limitations.";
        assert_eq!(
            assess_answer(element, answer, &[]).score,
            Score::Satisfactory
        );
    }

    #[test]
    fn mention_credit_names_other_covered_elements_in_input_order() {
        let codes = [
            "PA.I.A.K1",
            "PA.I.A.K2",
            "PA.I.A.K3",
            "PA.I.A.K4",
            "PA.I.A.R1",
        ];
        let [k1, k2, k3, k4, r1] = codes.map(private_element);
        let answer = "Certification requirements and recent flight experience, logged. My medical \
                      certificate class and its expiration, its privileges and limitations, and \
                      temporary disqualifications. The documents required to exercise private \
                      pilot privileges.";
        let mentioned =
            |pending: &[&AcsElement]| assess_answer(k1, answer, pending).mentioned_elements;
        assert_eq!(mentioned(&[r1, k4, k1, k2, k3]), ["PA.I.A.K4", "PA.I.A.K3"]);
        assert_eq!(mentioned(&[k3, k4, k3]), ["PA.I.A.K3", "PA.I.A.K4"]);
        assert!(
            mentioned(&[k1, k2, r1]).is_empty(),
            "not itself, not a two-term element"
        );
    }

    #[test]
    fn mention_thresholds_at_their_boundaries() {
        let element = nato_element("PA.I.A.K9", 1);
        let cases = [
            (4, 3, true),
            (5, 3, false),
            (8, 6, true),
            (8, 5, false),
            (2, 2, false),
        ];
        for (total, heard, expected) in cases {
            let other = nato_element("PA.I.A.K8", total);
            let mentioned =
                assess_answer(&element, &nato_answer(heard), &[&other]).mentioned_elements;
            assert_eq!(!mentioned.is_empty(), expected, "{heard} of {total}");
        }
    }

    #[test]
    fn assessment_is_deterministic() {
        let element = private_element("PA.I.B.K1");
        let answer = "Airworthiness directives, required inspections and the logbook.";
        assert_eq!(
            assess_answer(element, answer, &[]),
            assess_answer(element, answer, &[])
        );
    }
}
