//! The model's assessment of one answer, checked against the exam plan before anything of it
//! is used. The model proposes; this module disposes:
//!
//! - a reply cut at the token cap, unparseable JSON, unknown fields or an unknown score is
//!   rejected;
//! - empty or overlong feedback is rejected;
//! - `mentioned_elements` outside the plan's pending elements are dropped (and the element
//!   being assessed is not "mentioned" again);
//! - a follow-up beyond `follow_up_max_per_element`, or one that asks several questions, is
//!   rejected;
//! - a missing `source_summary` becomes the fixed "Insufficient FAA sources" sentence.
//!
//! A rejection names its reason; the caller falls back to the embedded examiner, with no
//! retry, and counts and logs the reason.

use serde::Deserialize;
use serde_json::{Value, json};
use viva_core::exam::types::Score;

use crate::grounding::{NO_SOURCES, source_summary_or_default};

/// Longest feedback accepted, in characters (the schema asks for at most this too).
pub const MAX_FEEDBACK: usize = 600;
/// Longest question or follow-up accepted, in characters.
pub const MAX_QUESTION: usize = 300;
/// Longest source summary accepted, in characters.
pub const MAX_SOURCES: usize = 300;
/// Most mentioned elements one answer may claim.
pub const MAX_MENTIONED: usize = 8;

/// What the plan allows for this answer.
#[derive(Debug, Clone, Copy)]
pub struct PlanBounds<'a> {
    /// The element being assessed.
    pub element_code: &'a str,
    /// Other elements still pending in the plan (mention credit may only go to these).
    pub pending: &'a [String],
    /// Follow-ups the plan still allows on this element.
    pub follow_ups_left: u32,
    /// The references the model was given (`14 CFR part 61`, `FAA-H-8083-25`): a source
    /// summary that cites none of them is replaced by the fixed "Insufficient FAA sources"
    /// sentence.
    pub sources: &'a [String],
}

/// A checked assessment.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The score.
    pub score: Score,
    /// Feedback for the candidate.
    pub feedback: String,
    /// Pending elements the answer also covered.
    pub mentioned_elements: Vec<String>,
    /// Where the judgement comes from; never empty.
    pub source_summary: String,
    /// A follow-up question, within the plan's bound.
    pub follow_up: Option<String>,
}

/// Why a reply was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The reply stopped at the token cap.
    #[error("truncated at the token cap")]
    Truncated,
    /// Not the JSON asked for.
    #[error("unparseable: {0}")]
    Unparseable(String),
    /// A score other than satisfactory, partial or unsatisfactory.
    #[error("unknown score {0:?}")]
    UnknownScore(String),
    /// No feedback.
    #[error("empty feedback")]
    EmptyFeedback,
    /// A field longer than allowed.
    #[error("{0} too long")]
    TooLong(&'static str),
    /// A follow-up when the element has used its follow-ups.
    #[error("a follow-up beyond follow_up_max_per_element")]
    FollowUpOverCap,
    /// Text that asks more than one question.
    #[error("asks several questions")]
    SeveralQuestions,
    /// An empty question.
    #[error("empty question")]
    EmptyQuestion,
    /// Text that neither ends with a question nor makes a request.
    #[error("does not read as a question")]
    NotAQuestion,
    /// Text that reads out an ACS element code.
    #[error("reads out an ACS code")]
    NamesTheCode,
}

impl Rejection {
    /// A stable label for metrics and logs.
    pub fn label(&self) -> &'static str {
        match self {
            Rejection::Truncated => "truncated",
            Rejection::Unparseable(_) => "unparseable",
            Rejection::UnknownScore(_) => "unknown_score",
            Rejection::EmptyFeedback => "empty_feedback",
            Rejection::TooLong(_) => "too_long",
            Rejection::FollowUpOverCap => "follow_up_over_cap",
            Rejection::SeveralQuestions => "several_questions",
            Rejection::EmptyQuestion => "empty_question",
            Rejection::NotAQuestion => "not_a_question",
            Rejection::NamesTheCode => "names_the_code",
        }
    }
}

/// The reply's shape (`deny_unknown_fields`: anything else is not the schema's).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVerdict {
    score: String,
    feedback: String,
    #[serde(default)]
    mentioned_elements: Vec<String>,
    #[serde(default)]
    source_summary: Option<String>,
    #[serde(default)]
    follow_up: Option<String>,
}

/// Checks a model reply (`truncated` when it stopped at the token cap) against the plan.
pub fn check_verdict(
    reply: &str,
    truncated: bool,
    bounds: &PlanBounds<'_>,
) -> Result<Verdict, Rejection> {
    if truncated {
        return Err(Rejection::Truncated);
    }
    let raw: RawVerdict =
        serde_json::from_str(reply).map_err(|err| Rejection::Unparseable(err.to_string()))?;
    let score =
        Score::parse(raw.score.trim()).ok_or_else(|| Rejection::UnknownScore(raw.score.clone()))?;
    let feedback = raw.feedback.trim().to_owned();
    if feedback.is_empty() {
        return Err(Rejection::EmptyFeedback);
    }
    bounded(&feedback, MAX_FEEDBACK, "feedback")?;
    let source_summary = grounded_summary(raw.source_summary.as_deref(), bounds.sources);
    bounded(&source_summary, MAX_SOURCES, "source_summary")?;
    // Only a partial answer has something left to follow up; otherwise the model's
    // follow-up is ignored.
    let follow_up = match score {
        Score::Partial => check_follow_up(raw.follow_up.as_deref(), bounds)?,
        _ => None,
    };
    Ok(Verdict {
        score,
        feedback,
        mentioned_elements: pending_only(raw.mentioned_elements, bounds),
        source_summary,
        follow_up,
    })
}

/// The model's source summary if it cites one of `sources`; otherwise (none given, none
/// cited, or sources invented) the fixed "Insufficient FAA sources" sentence.
fn grounded_summary(summary: Option<&str>, sources: &[String]) -> String {
    let summary = source_summary_or_default(summary);
    // "14 CFR part 61" is cited as "14 CFR 61.3" too.
    let plain = |text: &str| text.to_lowercase().replace("part ", "");
    let cited = plain(&summary);
    let cites = sources.iter().any(|source| cited.contains(&plain(source)));
    if cites {
        summary
    } else {
        NO_SOURCES.to_owned()
    }
}

fn bounded(text: &str, max: usize, field: &'static str) -> Result<(), Rejection> {
    if text.chars().count() > max {
        return Err(Rejection::TooLong(field));
    }
    Ok(())
}

/// Mentioned elements the plan still has pending, once each, in the model's order.
fn pending_only(mentioned: Vec<String>, bounds: &PlanBounds<'_>) -> Vec<String> {
    let mut kept: Vec<String> = Vec::new();
    for code in mentioned {
        let code = code.trim().to_owned();
        let pending = bounds.pending.contains(&code) && code != bounds.element_code;
        if pending && !kept.contains(&code) && kept.len() < MAX_MENTIONED {
            kept.push(code);
        }
    }
    kept
}

fn check_follow_up(
    follow_up: Option<&str>,
    bounds: &PlanBounds<'_>,
) -> Result<Option<String>, Rejection> {
    let Some(text) = follow_up
        .map(str::trim)
        .filter(|t| !t.is_empty() && *t != "null")
    else {
        return Ok(None);
    };
    if bounds.follow_ups_left == 0 {
        return Err(Rejection::FollowUpOverCap);
    }
    check_question(text).map(Some)
}

/// Words that open a spoken request an examiner may make instead of a literal question
/// ("Explain ...", "Walk me through ...").
const REQUEST_OPENERS: &[&str] = &[
    "explain",
    "describe",
    "tell",
    "walk",
    "talk",
    "list",
    "name",
    "give",
    "define",
    "compare",
    "show",
    "discuss",
    "summarize",
    "outline",
];

/// One question as a candidate would hear it, tidied (surrounding quotes dropped, runs of
/// whitespace made one space) and checked:
/// - not empty and not too long;
/// - asking one thing and saying nothing after it: at most one question mark, and that one
///   ends the text;
/// - reading as a question: it ends with its question mark, or, with none, its last
///   sentence is a request ("Explain ...", "Walk me through ...");
/// - never reading out an ACS code ("PA.I.A.K1"): an examiner names the topic, not its
///   number.
pub fn check_question(text: &str) -> Result<String, Rejection> {
    let text = tidy(text);
    if text.is_empty() {
        return Err(Rejection::EmptyQuestion);
    }
    bounded(&text, MAX_QUESTION, "question")?;
    match text.matches('?').count() {
        0 if is_request(last_sentence(&text)) => {}
        0 => return Err(Rejection::NotAQuestion),
        1 if text.ends_with('?') => {}
        // A second question, or anything said after the question.
        _ => return Err(Rejection::SeveralQuestions),
    }
    if text.split_whitespace().any(looks_like_acs_code) {
        return Err(Rejection::NamesTheCode);
    }
    Ok(text)
}

/// Quotes a model may wrap its question in.
const QUOTES: &[char] = &['"', '\'', '\u{201c}', '\u{201d}', '`'];

/// Whether the text streamed so far can no longer become one valid question (something
/// after its question mark, or too long), so the model may stop writing.
pub fn hopeless_question(so_far: &str) -> bool {
    let after_question = so_far.find('?').is_some_and(|at| {
        so_far[at + 1..]
            .trim_matches(|c: char| c.is_whitespace() || QUOTES.contains(&c))
            .chars()
            .next()
            .is_some()
    });
    after_question || so_far.chars().count() > MAX_QUESTION + 8
}

fn tidy(text: &str) -> String {
    let words: Vec<&str> = text
        .trim()
        .trim_matches(QUOTES)
        .split_whitespace()
        .collect();
    words.join(" ")
}

/// The text after the last ". " or "! " (a dot inside a word, as in "14 CFR 61.3" or an
/// ACS code, ends no sentence).
fn last_sentence(text: &str) -> &str {
    let ends = [". ", "! "].map(|end| text.rfind(end).map(|at| at + end.len()));
    let start = ends.into_iter().flatten().max().unwrap_or(0);
    &text[start..]
}

/// A sentence that asks for something within its first three words ("Explain ...", "Now,
/// please describe ...").
fn is_request(sentence: &str) -> bool {
    sentence.split_whitespace().take(3).any(|word| {
        let word = word
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        REQUEST_OPENERS.contains(&word.as_str())
    })
}

/// `PA.I.A.K1`, `CA.IX.B.R2`: two capitals, then dotted parts.
fn looks_like_acs_code(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    let mut parts = word.split('.');
    let prefix_ok = parts
        .next()
        .is_some_and(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_uppercase()));
    prefix_ok && parts.count() >= 2
}

/// The JSON schema of a phrasing: `{"question": "..."}`, its text one line that starts
/// with a capital and ends with its only question mark (servers that honour `pattern`
/// enforce it while generating; [`check_phrasing`] checks it again).
pub fn question_schema() -> Value {
    let pattern = format!("^[A-Z][^?\\n]{{10,{}}}[?]$", MAX_QUESTION - 2);
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["question"],
        "properties": {"question": {"type": "string", "pattern": pattern}}
    })
}

/// The reply's shape for a phrasing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPhrasing {
    question: String,
}

/// The question of a phrasing reply (`{"question": "..."}`), checked by
/// [`check_question`].
pub fn check_phrasing(reply: &str) -> Result<String, Rejection> {
    let raw: RawPhrasing =
        serde_json::from_str(reply).map_err(|err| Rejection::Unparseable(err.to_string()))?;
    check_question(&raw.question)
}

/// The JSON schema for `response_format`: the verdict first (models write in schema order),
/// bounded strings (asked shorter than the validator's limits: each character asked for is
/// generation time, and a small model fills what it is given), and mentioned elements
/// limited to the pending ones.
pub fn verdict_schema(pending: &[String]) -> Value {
    let mentioned = if pending.is_empty() {
        json!({"type": "array", "maxItems": 0, "items": {"type": "string"}})
    } else {
        json!({"type": "array", "maxItems": MAX_MENTIONED,
               "items": {"type": "string", "enum": pending}})
    };
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["score", "feedback", "mentioned_elements", "source_summary", "follow_up"],
        "properties": {
            "score": {"type": "string", "enum": ["satisfactory", "partial", "unsatisfactory"]},
            "feedback": {"type": "string", "maxLength": MAX_FEEDBACK / 2},
            "mentioned_elements": mentioned,
            "source_summary": {"type": "string", "maxLength": MAX_SOURCES / 2},
            "follow_up": {"type": ["string", "null"], "maxLength": MAX_QUESTION * 2 / 3}
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use viva_core::examiner::FALLBACK_REASONS;

    fn sources() -> Vec<String> {
        vec!["14 CFR part 61".to_owned(), "FAA-H-8083-25".to_owned()]
    }

    fn pending() -> Vec<String> {
        vec!["PA.I.A.K2".to_owned(), "PA.I.A.K3".to_owned()]
    }

    fn check(reply: &str, follow_ups_used: u32) -> Result<Verdict, Rejection> {
        let pending = pending();
        let bounds = PlanBounds {
            element_code: "PA.I.A.K1",
            pending: &pending,
            // The plan allows one follow-up per element.
            follow_ups_left: 1_u32.saturating_sub(follow_ups_used),
            sources: &sources(),
        };
        check_verdict(reply, false, &bounds)
    }

    const GOOD: &str = r#"{"score": "partial", "feedback": "You named the certificate but not the medical.",
        "mentioned_elements": ["PA.I.A.K2"], "source_summary": "14 CFR 61.3",
        "follow_up": "Which medical certificate does a private pilot need?"}"#;

    #[test]
    fn a_good_reply_is_used_as_given() {
        let verdict = check(GOOD, 0).unwrap();
        assert_eq!(verdict.score, Score::Partial);
        assert_eq!(verdict.mentioned_elements, ["PA.I.A.K2"]);
        assert_eq!(verdict.source_summary, "14 CFR 61.3");
        assert!(verdict.follow_up.is_some());
    }

    #[test]
    fn every_rule_has_its_rejection() {
        let table: &[(&str, u32, Rejection)] = &[
            ("not json", 0, Rejection::Unparseable(String::new())),
            (
                r#"{"score": "good", "feedback": "x"}"#,
                0,
                Rejection::UnknownScore("good".into()),
            ),
            (
                r#"{"score": "partial", "feedback": "  "}"#,
                0,
                Rejection::EmptyFeedback,
            ),
            (
                r#"{"score": "partial", "feedback": "x", "grade": 4}"#,
                0,
                Rejection::Unparseable(String::new()),
            ),
            (GOOD, 1, Rejection::FollowUpOverCap),
            (
                r#"{"score": "partial", "feedback": "x", "follow_up": "Why? And when?"}"#,
                0,
                Rejection::SeveralQuestions,
            ),
        ];
        for (reply, used, expected) in table {
            let got = check(reply, *used).unwrap_err();
            assert_eq!(got.label(), expected.label(), "{reply}: {got}");
        }
        let long = format!(
            r#"{{"score": "partial", "feedback": "{}"}}"#,
            "x".repeat(MAX_FEEDBACK + 1)
        );
        assert_eq!(check(&long, 0).unwrap_err(), Rejection::TooLong("feedback"));
        let bounds = PlanBounds {
            element_code: "E",
            pending: &[],
            follow_ups_left: 1,
            sources: &[],
        };
        assert_eq!(
            check_verdict(GOOD, true, &bounds).unwrap_err(),
            Rejection::Truncated
        );
    }

    #[test]
    fn mention_credit_only_goes_to_pending_elements_once() {
        let reply = r#"{"score": "satisfactory", "feedback": "Good.",
            "mentioned_elements": ["PA.I.A.K3", "PA.IX.A.K1", "PA.I.A.K1", "PA.I.A.K3", " PA.I.A.K2 "]}"#;
        let verdict = check(reply, 0).unwrap();
        assert_eq!(verdict.mentioned_elements, ["PA.I.A.K3", "PA.I.A.K2"]);
    }

    #[test]
    fn a_summary_citing_none_of_the_given_sources_gets_the_fixed_sentence() {
        let with = |summary: &str| {
            let reply = json!({"score": "satisfactory", "feedback": "Good.",
                "source_summary": summary});
            check(&reply.to_string(), 0).unwrap().source_summary
        };
        assert_eq!(
            with("14 CFR 61.113 and FAA-H-8083-25"),
            "14 CFR 61.113 and FAA-H-8083-25"
        );
        assert_eq!(with("See 14 CFR Part 61."), "See 14 CFR Part 61.");
        assert_eq!(with("The National Pilot Act of 1999"), NO_SOURCES);
    }

    #[test]
    fn a_follow_up_counts_only_after_a_partial_answer() {
        let satisfactory = r#"{"score": "satisfactory", "feedback": "Good.",
            "follow_up": "What was missing if the score is partial, else null."}"#;
        assert_eq!(check(satisfactory, 0).unwrap().follow_up, None);
        assert_eq!(
            check(satisfactory, 1).unwrap().follow_up,
            None,
            "no cap to pass"
        );
        let partial = r#"{"score": "partial", "feedback": "Half.",
            "follow_up": "What was missing if the score is partial, else null."}"#;
        assert_eq!(check(partial, 0).unwrap_err(), Rejection::NotAQuestion);
    }

    #[test]
    fn a_phrasing_is_json_with_one_question() {
        assert_eq!(
            check_phrasing(r#"{"question": " Which documents do you carry? "}"#).unwrap(),
            "Which documents do you carry?"
        );
        let table = [
            (r#"{"question": "What? Why?"}"#, "several_questions"),
            (r#"{"question": "Which documents"#, "unparseable"),
            (r#"{"question": "Which?", "hint": "x"}"#, "unparseable"),
        ];
        for (reply, label) in table {
            assert_eq!(check_phrasing(reply).unwrap_err().label(), label, "{reply}");
        }
        let schema = question_schema();
        let pattern = schema["properties"]["question"]["pattern"]
            .as_str()
            .unwrap();
        assert_eq!(
            pattern,
            format!("^[A-Z][^?\\n]{{10,{}}}[?]$", MAX_QUESTION - 2)
        );
    }

    #[test]
    fn a_missing_or_null_source_summary_gets_the_fixed_sentence() {
        let verdict = check(
            r#"{"score": "unsatisfactory", "feedback": "No.", "source_summary": "null"}"#,
            0,
        );
        assert_eq!(verdict.unwrap().source_summary, NO_SOURCES);
        let verdict = check(
            r#"{"score": "unsatisfactory", "feedback": "No.", "follow_up": null}"#,
            0,
        );
        assert_eq!(verdict.unwrap().source_summary, NO_SOURCES);
    }

    #[test]
    fn one_question_at_a_time_that_reads_as_one() {
        let table: &[(&str, Result<&str, Rejection>)] = &[
            (
                "What documents must be on board?",
                Ok("What documents must be on board?"),
            ),
            (
                " \"Walk me through\n your preflight.\" ",
                Ok("Walk me through your preflight."),
            ),
            (
                "Good. Now explain the privileges of a private pilot.",
                Ok("Good. Now explain the privileges of a private pilot."),
            ),
            (
                "Moving on from weather. Describe how you would plan fuel.",
                Ok("Moving on from weather. Describe how you would plan fuel."),
            ),
            (
                "What is VFR? What is IFR?",
                Err(Rejection::SeveralQuestions),
            ),
            (
                "What is VFR? Take your time.",
                Err(Rejection::SeveralQuestions),
            ),
            (
                "The privileges of a private pilot.",
                Err(Rejection::NotAQuestion),
            ),
            ("What does PA.I.A.K1 cover?", Err(Rejection::NamesTheCode)),
            (
                "Explain element (CA.IX.B.R2).",
                Err(Rejection::NamesTheCode),
            ),
            ("  ", Err(Rejection::EmptyQuestion)),
        ];
        for (text, expected) in table {
            let got = check_question(text);
            assert_eq!(&got.as_deref().map_err(Clone::clone), expected, "{text:?}");
        }
        let long = "Why ".repeat(MAX_QUESTION);
        assert_eq!(
            check_question(&long).unwrap_err(),
            Rejection::TooLong("question")
        );
    }

    #[test]
    fn a_stream_is_hopeless_once_it_asks_twice_or_runs_long() {
        assert!(!hopeless_question("What is VFR"));
        assert!(!hopeless_question("\"What is VFR?\" "));
        assert!(hopeless_question("What is VFR? What is"));
        assert!(hopeless_question("What is VFR? Take"));
        assert!(hopeless_question(&"a".repeat(MAX_QUESTION + 9)));
    }

    #[test]
    fn every_label_is_one_the_server_counts() {
        let rejections = [
            Rejection::Truncated,
            Rejection::Unparseable(String::new()),
            Rejection::UnknownScore(String::new()),
            Rejection::EmptyFeedback,
            Rejection::TooLong("x"),
            Rejection::FollowUpOverCap,
            Rejection::SeveralQuestions,
            Rejection::EmptyQuestion,
            Rejection::NotAQuestion,
            Rejection::NamesTheCode,
        ];
        for rejection in rejections {
            let label = rejection.label();
            assert!(FALLBACK_REASONS.contains(&label), "{label}");
        }
    }

    #[test]
    fn the_schema_puts_the_verdict_first_and_bounds_everything() {
        let schema = verdict_schema(&pending());
        assert_eq!(schema["required"][0], "score");
        // Models write properties in the schema's order: serde_json keeps it
        // (`preserve_order`), so the request carries the verdict before the explanation.
        let order: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        let expected = [
            "score",
            "feedback",
            "mentioned_elements",
            "source_summary",
            "follow_up",
        ];
        assert_eq!(order, expected);
        let sent = serde_json::to_string(&schema).unwrap();
        let position = |key: &str| sent.find(&format!("\"{key}\":{{")).unwrap();
        assert!(position("score") < position("feedback"), "{sent}");
        assert_eq!(
            schema["properties"]["feedback"]["maxLength"],
            MAX_FEEDBACK / 2
        );
        assert_eq!(
            schema["properties"]["mentioned_elements"]["items"]["enum"][1],
            "PA.I.A.K3"
        );
        assert_eq!(
            verdict_schema(&[])["properties"]["mentioned_elements"]["maxItems"],
            0
        );
    }
}
