//! Follow-ups that ask about what an answer left out, by a question, never by stating it.
//!
//! The rule (docs/rubrics.md, "Probes"):
//! - an answer drawn out (`judge::draws_out`: correct as far as it goes, short, incomplete)
//!   gets "Can you expand on that?", by difficulty, naming nothing;
//! - any other partial answer gets a probe for the first missing fact that can be asked
//!   cleanly: its authored `probe:` if it has one, else one generated from the ACS and the
//!   fact's kind (`generated`); with more facts missing, "What else would you add?";
//! - whatever its source, a follow-up is said only if, judged as if the candidate had said
//!   it, it credits no missing fact and holds none of their values (`judge::give_away`);
//!   else the next candidate is tried, down to an open question on the task, then "that".
//!
//! An element without a rubric is judged by key terms: its follow-up asks an open question
//! and must contain none of the missing key terms.

pub mod generated;

use viva_blueprint::rubric::Fact;

use super::super::acs::{AcsElement, ElementType};
use super::super::types::QuestionDifficulty;
use super::judge::PreparedRubric;
use super::judge::give_away::is_clean;
use super::text::{canonical_terms_of_answer, content_terms, readable_phrase};

/// What a follow-up is built from.
#[derive(Debug, Clone, Copy)]
pub struct FollowUpInput<'a> {
    /// The element asked about.
    pub element: &'a AcsElement,
    /// How demanding the exam's questions are.
    pub difficulty: QuestionDifficulty,
    /// The last answer was short (`judge::is_short`): a follow-up after a short answer comes
    /// only after one drawn out, so it asks to expand.
    pub draw_out: bool,
}

/// The words that ask a candidate to expand on a short answer, by difficulty.
pub fn expand(difficulty: QuestionDifficulty) -> &'static str {
    match difficulty {
        QuestionDifficulty::Easy => "Can you expand on that?",
        QuestionDifficulty::Medium => "Can you tell me more about that?",
        QuestionDifficulty::Hard => "Go on: what else would you say, and why?",
    }
}

/// The open questions a follow-up falls back on, the task's first.
fn open_questions(element: &AcsElement, difficulty: QuestionDifficulty) -> Vec<String> {
    let task = readable_phrase(element.task_title.trim());
    let risk = element.element_type == ElementType::Risk;
    let on_task = match (risk, difficulty) {
        (false, QuestionDifficulty::Easy) => format!("What else can you tell me about {task}?"),
        (false, QuestionDifficulty::Medium) => {
            format!("What else about {task} matters on an actual flight?")
        }
        (false, QuestionDifficulty::Hard) => {
            format!("What else about {task} would change what you decide, and why?")
        }
        (true, QuestionDifficulty::Easy) => {
            format!("What else would you do to manage that risk in {task}?")
        }
        (true, QuestionDifficulty::Medium) => {
            format!("What else would you do about that risk on an actual flight in {task}?")
        }
        (true, QuestionDifficulty::Hard) => {
            format!("What else would you do about that risk in {task}, and why?")
        }
    };
    let plain = match risk {
        false => "What else would you add?",
        true => "What else would you do to manage that risk?",
    };
    vec![on_task, plain.to_owned(), expand(difficulty).to_owned()]
}

/// Where a follow-up came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ProbeSource {
    /// "Can you expand on that?": the last answer was short, or nothing named is missing.
    Expand,
    /// A missing fact's authored `probe:`.
    Authored,
    /// Generated from the ACS and a missing fact's kind.
    Generated,
    /// An open question on the task, or "What else would you add?": nothing more specific
    /// could be asked without giving a missing fact away.
    Open,
}

/// A follow-up and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The words.
    pub text: String,
    /// Where they came from.
    pub source: ProbeSource,
}

/// The follow-up on an element with a rubric, after an answer that left `missing` out.
pub fn follow_up(input: FollowUpInput<'_>, prepared: &PreparedRubric, missing: &[&Fact]) -> String {
    choose(input, prepared, missing).text
}

/// [`follow_up`], with where it came from.
pub fn choose(input: FollowUpInput<'_>, prepared: &PreparedRubric, missing: &[&Fact]) -> Probe {
    let mut candidates: Vec<Probe> = Vec::new();
    let probe = |text: String, source| Probe { text, source };
    if input.draw_out || missing.is_empty() {
        candidates.push(probe(
            expand(input.difficulty).to_owned(),
            ProbeSource::Expand,
        ));
    } else {
        for fact in missing {
            candidates.extend(fact_probes(input.element, fact, missing.len() > 1));
        }
    }
    let open = open_questions(input.element, input.difficulty);
    candidates.extend(open.into_iter().map(|text| probe(text, ProbeSource::Open)));
    first_clean(candidates, |text| is_clean(prepared, text, missing))
}

/// What a probe adds when other facts are missing too: the answer must state them all.
const MORE_MISSING: &str = "What else would you add?";

/// The probes of one fact, its authored one first; `more`: other facts are missing too.
fn fact_probes(element: &AcsElement, fact: &Fact, more: bool) -> Vec<Probe> {
    let with_more = |probe: String| match more && !generated::is_open_frame(&probe) {
        true => format!("{probe} {MORE_MISSING}"),
        false => probe,
    };
    let authored = fact.probe.iter().map(|p| Probe {
        text: with_more(p.trim().to_owned()),
        source: ProbeSource::Authored,
    });
    let generated = generated::probes(element, fact)
        .into_iter()
        .map(|probe| Probe {
            text: with_more(probe),
            source: ProbeSource::Generated,
        });
    authored.chain(generated).collect()
}

/// The follow-up on an element without a rubric, after an answer that left the key terms
/// `missing` (readable words) out: an open question that contains none of them.
pub fn key_term_follow_up(input: FollowUpInput<'_>, missing: &[String]) -> String {
    let mut candidates = Vec::new();
    if input.draw_out || missing.is_empty() {
        candidates.push(expand(input.difficulty).to_owned());
    }
    candidates.extend(open_questions(input.element, input.difficulty));
    let candidates = candidates.into_iter().map(|text| Probe {
        text,
        source: ProbeSource::Open,
    });
    first_clean(candidates.collect(), |text| {
        names_no_key_term(text, missing)
    })
    .text
}

/// Whether `text` contains none of the key terms in `missing` (readable words).
pub fn names_no_key_term(text: &str, missing: &[String]) -> bool {
    let said = canonical_terms_of_answer(text);
    missing
        .iter()
        .flat_map(|words| content_terms(words))
        .all(|term| !said.contains(&term))
}

/// The first candidate `clean` accepts; the last one if none is (never empty: the last is
/// always "Can you expand on that?" or the like, which names nothing).
fn first_clean(candidates: Vec<Probe>, clean: impl Fn(&str) -> bool) -> Probe {
    let last = candidates.last().cloned();
    candidates
        .into_iter()
        .find(|probe| !probe.text.is_empty() && clean(&probe.text))
        .or(last)
        .unwrap_or_else(|| Probe {
            text: expand(QuestionDifficulty::Easy).to_owned(),
            source: ProbeSource::Expand,
        })
}

#[cfg(test)]
mod tests;
