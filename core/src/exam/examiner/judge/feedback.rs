//! What the examiner says after judging an answer against a rubric: what was wrong or
//! missing, the correct fact and where it is written; and the sources behind it.

use viva_blueprint::rubric::{ElementRubric, Fact, Question};

use super::super::super::types::Score;
use super::verdict::{FactStatus, RubricVerdict};

/// How many missing facts feedback names.
const MISSING_NAMED: usize = 2;

/// Feedback and the sources it rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// What the examiner says.
    pub text: String,
    /// The sources of the facts named and stated, `; `-separated, for `source_summary`.
    pub sources: String,
    /// The first phrase of each required fact left unstated (to phrase a follow-up).
    pub missing_terms: Vec<String>,
}

/// What the examiner says of an answer a follow-up on its element comes after, before it
/// is asked: how far the answer went, and nothing of what it left out (which the follow-up
/// asks about, and the feedback on the element's last answer names).
pub const PARTLY_RIGHT_SO_FAR: &str = "Partly right so far.";

/// What the examiner says of an answer drawn out ([`super::draws_out`]) before asking to
/// hear more.
pub const DRAWN_OUT: &str = "That's a start.";

/// The feedback on `verdict`.
pub fn feedback(
    rubric: &ElementRubric,
    verdict: &RubricVerdict,
    asked: Option<&Question>,
) -> Feedback {
    feedback_on(rubric, verdict, required_facts(rubric, asked))
}

/// The facts a follow-up that asked for `probe`'s facts (the ones the answer before it left
/// out) requires of its answer: those alone, in the probe's order.
pub fn probe_facts<'r>(rubric: &'r ElementRubric, probe: &Question) -> Vec<&'r Fact> {
    (probe.facts.iter())
        .filter_map(|id| rubric.facts.iter().find(|f| &f.id == id))
        .collect()
}

/// What the examiner says of `verdict` while a follow-up on the element is still to come
/// (study mode's feedback waits until the element closes): [`DRAWN_OUT`] for an answer drawn
/// out, [`PARTLY_RIGHT_SO_FAR`] for one with `required` facts left out, and never a missing
/// fact, its claim or its source; the sources cited are those of the `required` facts it
/// stated. Its `missing_terms` are the full feedback's (the follow-up asks about them).
pub fn interim(rubric: &ElementRubric, verdict: &RubricVerdict, required: Vec<&Fact>) -> Feedback {
    let stated: Vec<&str> = required
        .iter()
        .filter(|f| verdict.status(&f.id) == FactStatus::Stated)
        .map(|f| f.source.as_str())
        .collect();
    let sources = dedup(stated).join("; ");
    let full = feedback_on(rubric, verdict, required);
    let text = if verdict.draws_out() {
        DRAWN_OUT.to_owned()
    } else if full.missing_terms.is_empty() {
        full.text
    } else {
        PARTLY_RIGHT_SO_FAR.to_owned()
    };
    Feedback {
        text,
        sources,
        missing_terms: full.missing_terms,
    }
}

/// The feedback on `verdict` against the facts the answer had to state, in order.
pub fn feedback_on(
    rubric: &ElementRubric,
    verdict: &RubricVerdict,
    required: Vec<&Fact>,
) -> Feedback {
    let missing: Vec<&Fact> = required
        .iter()
        .copied()
        .filter(|f| verdict.status(&f.id) == FactStatus::Missing)
        .collect();
    let (text, named) = say(rubric, verdict, &required, &missing);
    let mut sources: Vec<&str> = named.clone();
    sources.extend(
        required
            .iter()
            .filter(|f| verdict.status(&f.id) == FactStatus::Stated)
            .map(|f| f.source.as_str()),
    );
    Feedback {
        text,
        sources: dedup(sources).join("; "),
        missing_terms: missing
            .iter()
            .filter_map(|f| f.terms.first().cloned())
            .collect(),
    }
}

/// The facts the answer had to state: the question's, then the element's core ones.
pub fn required_facts<'r>(rubric: &'r ElementRubric, asked: Option<&Question>) -> Vec<&'r Fact> {
    let asked_ids = asked.map_or(&[][..], |q| q.facts.as_slice());
    let ids = asked_ids.iter().chain(rubric.satisfactory.iter());
    let mut facts: Vec<&Fact> = Vec::new();
    for id in ids {
        if let Some(fact) = rubric.facts.iter().find(|f| &f.id == id)
            && !facts.iter().any(|f| f.id == fact.id)
        {
            facts.push(fact);
        }
    }
    facts
}

/// The words, and the sources of what they name.
fn say<'r>(
    rubric: &'r ElementRubric,
    verdict: &RubricVerdict,
    required: &[&'r Fact],
    missing: &[&'r Fact],
) -> (String, Vec<&'r str>) {
    let first = |facts: &[&'r Fact]| facts[..facts.len().min(MISSING_NAMED)].to_vec();
    if verdict.non_answer {
        return explain("No answer to grade.", &first(required));
    }
    let held = rubric
        .misconceptions
        .iter()
        .find(|m| verdict.misconceptions.contains(&m.id));
    if let Some(misconception) = held {
        let text = format!(
            "That is not correct: {} ({}).",
            sentence(&misconception.correction),
            misconception.source
        );
        return (text, vec![misconception.source.as_str()]);
    }
    let wrong = rubric
        .facts
        .iter()
        .find(|f| verdict.status(&f.id) == FactStatus::Contradicted);
    if let Some(fact) = wrong {
        return explain("That is not correct.", &[fact]);
    }
    match verdict.score {
        Score::Satisfactory => {
            let more: Vec<&Fact> = rubric
                .facts
                .iter()
                .filter(|f| verdict.status(&f.id) == FactStatus::Missing)
                .take(1)
                .collect();
            explain_if_any("Correct.", "Also know:", &more)
        }
        Score::Partial if missing.is_empty() => (
            "Right, but commit to it: an examiner grades what you say with confidence.".to_owned(),
            Vec::new(),
        ),
        Score::Partial => explain("Partly right. You left out:", &first(missing)),
        Score::Unsatisfactory => explain("That does not answer it.", &first(required)),
    }
}

/// `opening` followed by each fact's claim and source.
fn explain<'r>(opening: &str, facts: &[&'r Fact]) -> (String, Vec<&'r str>) {
    let mut text = opening.to_owned();
    let mut sources = Vec::new();
    for fact in facts {
        text.push_str(&format!(" {} ({}).", sentence(&fact.claim), fact.source));
        sources.push(fact.source.as_str());
    }
    (text, sources)
}

/// `done`, then `lead` and the facts when there are any.
fn explain_if_any<'r>(done: &str, lead: &str, facts: &[&'r Fact]) -> (String, Vec<&'r str>) {
    if facts.is_empty() {
        return (done.to_owned(), Vec::new());
    }
    explain(&format!("{done} {lead}"), facts)
}

/// A claim without its final full stop, to be followed by its source.
fn sentence(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    text.trim_end_matches('.').to_owned()
}

fn dedup(sources: Vec<&str>) -> Vec<&str> {
    let mut seen: Vec<&str> = Vec::new();
    for source in sources.into_iter().flat_map(|s| s.split("; ")) {
        if !seen.contains(&source) {
            seen.push(source);
        }
    }
    seen
}
