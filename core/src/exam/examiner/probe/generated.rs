//! Probes generated for a fact, from data, never from the fact's claim or terms: the topic
//! comes from the ACS (the sub-element or part of the element text the fact is about, the
//! element, the task), and the question from the fact's kind (its value's kind: "how
//! many", "what time limit", "what altitude"; its slot's modality or domain: "what is
//! required", "who is responsible"; a definition: "what does it mean"). The claim and terms
//! only choose among ACS texts and question words; what is said comes from neither.

use viva_blueprint::rubric::{Fact, FactValue, Modality};

use super::super::super::acs::{AcsElement, ElementType};
use super::super::coverage::live_sub_elements;
use super::super::phrasing::{embed, subject_of, trim_end_punctuation};
use super::super::text::{readable_phrase, stem, tokenize};
use super::super::vocabulary::is_stopword;

/// Longest topic, in words: a longer ACS text reads badly mid-question.
const TOPIC_MAX_WORDS: usize = 10;

/// Words in a duration's claim that make it a limit ("within the preceding 90 days", "every
/// 24 calendar months", "valid for 60 months") rather than an amount of time.
const LIMIT_WORDS: &[&str] = &[
    "within",
    "every",
    "preceding",
    "valid",
    "expire",
    "expires",
    "each",
    "prior",
    "before",
    "after",
    "later",
    "least",
    "maximum",
    "minimum",
    "exceed",
    "more than",
    "less than",
];

/// Words in a count's claim that make it a requirement.
const REQUIREMENT_WORDS: &[&str] = &["must", "required", "requires", "need", "least", "minimum"];

/// The question a fact's kind asks, about a topic: `{}` stands for the topic.
fn frame(fact: &Fact, element: &AcsElement) -> &'static str {
    let claim = format!(" {} ", super::super::text::tokenize(&fact.claim).join(" "));
    let says = |words: &[&str]| words.iter().any(|w| claim.contains(&format!(" {w} ")));
    if let Some(value) = &fact.value {
        return match value {
            FactValue::Count { .. } if says(REQUIREMENT_WORDS) => "How many are required for {}?",
            FactValue::Count { .. } => "How many are there when it comes to {}?",
            FactValue::Duration { .. } if says(LIMIT_WORDS) => "What time limit applies to {}?",
            FactValue::Duration { .. } => "How much time is involved in {}?",
            FactValue::Altitude { .. } => "What altitude applies to {}?",
            FactValue::Distance { .. } => "What distance applies to {}?",
            FactValue::Speed { .. } => "What speed applies to {}?",
            FactValue::Percent { .. } => "What percentage applies to {}?",
            FactValue::Squawk { .. } => "What transponder code goes with {}?",
            FactValue::Frequency { .. } => "What frequency would you use for {}?",
            FactValue::LightSignal { .. } => "What light signal goes with {}?",
            FactValue::AirspaceClass { .. } => "Which class of airspace applies to {}?",
        };
    }
    let slot = fact.slot.as_ref();
    if let Some(modality) = slot.and_then(|s| s.modality) {
        return match modality {
            Modality::Required => "What is required when it comes to {}?",
            Modality::Prohibited => "What is not allowed when it comes to {}?",
            Modality::Permitted => "What are you allowed to do when it comes to {}?",
            Modality::NotRequired => "What is not required when it comes to {}?",
        };
    }
    if let Some((domain, _)) = slot.and_then(|s| s.values().next()) {
        return domain_frame(domain);
    }
    match element.element_type {
        ElementType::Risk => "What else would you consider about {}?",
        _ => "What else can you tell me about {}?",
    }
}

/// The question a categorical domain asks about a topic.
fn domain_frame(domain: &str) -> &'static str {
    match domain {
        "time-of-day" => "What time of day matters for {}?",
        "trend" => "How does {} change things?",
        "chart-colour" => "What colour shows {} on the chart?",
        "chart-line" => "How is {} drawn on the chart?",
        "airspace-class" => "Which class of airspace applies to {}?",
        "responsible-party" => "Who is responsible for {}?",
        "order" => "What comes first when it comes to {}?",
        "side" => "Which side matters for {}?",
        "vertical-direction" => "Which way does it move with {}?",
        "temperature-trend" => "How does the temperature change with {}?",
        "stability" => "How stable is the air with {}?",
        "mixture" => "How do you set the mixture for {}?",
        "heading-reference" => "What heading reference applies to {}?",
        "turn-direction" => "Which way do you turn for {}?",
        "flight-rules" => "Which flight rules apply to {}?",
        "medical-class" => "Which class of medical certificate applies to {}?",
        "compensation" => "What may you be paid for when it comes to {}?",
        _ => "What applies to {}?",
    }
}

/// Whether a frame already asks for anything more ("What else ...").
pub fn is_open_frame(question: &str) -> bool {
    question.starts_with("What else")
}

/// The generated probes of `fact`, most specific first: the question its kind asks about
/// each topic the ACS gives for it; a definition asks what its subject means first.
pub fn probes(element: &AcsElement, fact: &Fact) -> Vec<String> {
    let mut probes = Vec::new();
    if let Some(subject) = defined_subject(fact) {
        probes.push(format!("What does {subject} mean?"));
    }
    let frame = frame(fact, element);
    for topic in topics(element, fact) {
        probes.push(frame.replace("{}", &topic));
    }
    probes
}

/// The subject a defining fact defines, when it is not one of the fact's own terms.
fn defined_subject(fact: &Fact) -> Option<String> {
    let slot = fact.slot.as_ref().filter(|s| s.defines)?;
    let subject = slot.subject.first()?.trim();
    let is_term = fact.terms.iter().any(|t| t.eq_ignore_ascii_case(subject));
    (!is_term && !subject.is_empty()).then(|| embed(subject))
}

/// Stems too general to tie a fact to one part of an element ("required", "pilot",
/// "flight"): nearly every claim has them.
const GENERAL_STEMS: &[&str] = &[
    "requir", "must", "may", "need", "pilot", "command", "aircraft", "airplan", "flight", "fli",
    "use", "oper", "includ", "ani", "make", "time", "also", "other", "can", "befor", "after",
];

/// The content stems of a text, without stopwords, numbers and [`GENERAL_STEMS`] (no
/// synonyms: a synonym's canonical term would tie unrelated words together).
fn stems(text: &str) -> Vec<String> {
    tokenize(text)
        .iter()
        .filter(|t| t.len() > 2 && !is_stopword(t) && !t.chars().all(|c| c.is_ascii_digit()))
        .map(|t| stem(t))
        .filter(|s| !GENERAL_STEMS.contains(&s.as_str()))
        .collect()
}

/// The topics the ACS gives for `fact`, most specific first, each a noun phrase to embed
/// mid-question: the live sub-element and the part of the element text closest to the fact
/// (by the stems they share with its claim and terms), the element's subject when it is
/// not a list, the task.
pub fn topics(element: &AcsElement, fact: &Fact) -> Vec<String> {
    let mut about = stems(&fact.claim);
    for term in &fact.terms {
        about.extend(stems(term));
    }
    let closest = |texts: Vec<String>| -> Option<String> {
        let mut best: Option<(usize, String)> = None;
        for text in texts {
            let mut own = stems(&text);
            own.dedup();
            let shared = own.iter().filter(|s| about.contains(s)).count();
            if shared > 0 && best.as_ref().is_none_or(|(most, _)| shared > *most) {
                best = Some((shared, text));
            }
        }
        best.map(|(_, text)| text)
    };
    let subs: Vec<String> = live_sub_elements(element)
        .map(|sub| embed(trim_end_punctuation(&sub.text)))
        .collect();
    let subject = subject_of(&element.text, !subs.is_empty());
    let candidates = [
        closest(subs),
        closest(parts(&element.text)),
        Some(subject).filter(|s| !s.contains(',')),
        Some(readable_phrase(element.task_title.trim())),
    ];
    let mut topics: Vec<String> = Vec::new();
    for topic in candidates.into_iter().flatten() {
        let words = topic.split_whitespace().count();
        let fits = (1..=TOPIC_MAX_WORDS).contains(&words) && !topic.ends_with("the following");
        if fits && !topics.contains(&topic) {
            topics.push(topic);
        }
    }
    topics
}

/// The parts of an element text, each readable on its own: a list split at its commas
/// (`Certification requirements, recent flight experience, and recordkeeping`), and the
/// items of `Head: a, b` as `a of head`.
fn parts(text: &str) -> Vec<String> {
    let text = trim_end_punctuation(text);
    let (head, list) = match text.split_once(':') {
        Some((head, list)) => (Some(embed(head.trim())), list),
        None => (None, text),
    };
    let items = list
        .split([',', ';'])
        .map(|item| item.trim().trim_start_matches("and ").trim())
        .filter(|item| !item.is_empty())
        .map(embed);
    match head {
        Some(head) if head.split_whitespace().count() <= 4 => {
            items.map(|item| format!("{item} of {head}")).collect()
        }
        Some(_) => Vec::new(),
        None => items.collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_read_on_their_own() {
        let cases: [(&str, &[&str]); 4] = [
            (
                "Certification requirements, recent flight experience, and recordkeeping.",
                &[
                    "certification requirements",
                    "recent flight experience",
                    "recordkeeping",
                ],
            ),
            (
                "Medical certificates: class, expiration, privileges.",
                &[
                    "class of medical certificates",
                    "expiration of medical certificates",
                    "privileges of medical certificates",
                ],
            ),
            (
                "Privileges and limitations.",
                &["privileges and limitations"],
            ),
            (
                "Part 68 BasicMed privileges and limitations.",
                &["part 68 BasicMed privileges and limitations"],
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(parts(text), expected, "{text:?}");
        }
    }
}
