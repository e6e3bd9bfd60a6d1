//! What the examiner says when the topic changes: a bridging sentence chosen by a pure rule
//! from how the two elements are linked, and a scenario's opening and closing words. A
//! bridge names topics by their ACS task titles, never a fact; a bridge that would state a
//! fact of the next element's rubric (judged as if it were an answer) is not said.

use viva_blueprint::scenario::{LinkBetween, LinkKind, Scenario};

use super::acs::{AcsLibrary, Rating};
use super::examiner::judge::{FactStatus, ReadAnswer, judge_read};
use super::examiner::text::readable_phrase;

/// Said before a scenario's setup.
pub const SCENARIO_OPENING: &str = "Let's set up a flight.";

/// Said when the exam leaves a scenario for another topic.
pub const SCENARIO_CLOSING: &str = "That wraps up that flight.";

/// The bridge from the topic just discussed to the next, by their link:
///
/// | link (previous → next)            | bridge |
/// |---|---|
/// | next requires previous            | Since we talked about P, let's build on it with N. |
/// | previous requires next            | P rests on N, so let's look at that next. |
/// | previous applies in next          | Since we talked about P, let's talk about how that shapes N. |
/// | next applies in previous          | Let's look at where N comes into P. |
/// | contrast (either way)             | We covered P; N works differently, so let's compare. |
/// | same topic (any link)             | Let's stay with P a moment longer. |
pub fn bridge(link: LinkBetween, previous_topic: &str, next_topic: &str) -> String {
    let (p, n) = (previous_topic, next_topic);
    if p == n {
        return format!("Let's stay with {p} a moment longer.");
    }
    let text = match (link.kind, link.from_previous) {
        (LinkKind::Requires, false) => {
            format!("Since we talked about {p}, let's build on it with {n}.")
        }
        (LinkKind::Requires, true) => format!("{p} rests on {n}, so let's look at that next."),
        (LinkKind::AppliesInScenario, true) => {
            format!("Since we talked about {p}, let's talk about how that shapes {n}.")
        }
        (LinkKind::AppliesInScenario, false) => format!("Let's look at where {n} comes into {p}."),
        (LinkKind::ContrastsWith, _) => {
            format!("We covered {p}; {n} works differently, so let's compare.")
        }
    };
    capitalised(&text)
}

/// The bridge of a link without naming the topics, for when a topic's title would state a
/// fact of the next element: the same move, in plain words.
pub fn plain_bridge(link: LinkBetween) -> &'static str {
    match (link.kind, link.from_previous) {
        (LinkKind::Requires, false) => "Let's build on that.",
        (LinkKind::Requires, true) => "That rests on something more basic, so let's step back.",
        (LinkKind::AppliesInScenario, true) => "Let's see how that plays out on a real flight.",
        (LinkKind::AppliesInScenario, false) => {
            "Let's look at something that comes into play there."
        }
        (LinkKind::ContrastsWith, _) => "Now for something that works differently.",
    }
}

/// What opens the question on a new element `next` after `previous`, when they are linked:
/// the bridge naming both topics, or, if that would state a fact of `next`'s rubric, the
/// plain bridge; `None` when they are not linked or both would give a fact away.
pub fn lead_in(library: &AcsLibrary, rating: Rating, previous: &str, next: &str) -> Option<String> {
    if previous == next {
        return None;
    }
    let link = library.links().between(previous, next)?;
    let topic = |code: &str| {
        let element = library.catalog(rating).element(code)?;
        Some(readable_phrase(element.task_title.trim()))
    };
    let titled = bridge(link, &topic(previous)?, &topic(next)?);
    [titled, plain_bridge(link).to_owned()]
        .into_iter()
        .find(|said| stated_facts(library, next, said).is_empty())
}

/// The words of a scenario question: the closing of the scenario before it (`closing`),
/// then, on the scenario's first question, its opening and setup, then the step's question.
/// `None` when the scenario does not ask `element`.
pub fn scenario_question(
    scenario: &Scenario,
    element: &str,
    opens: bool,
    closing: bool,
) -> Option<String> {
    let step = scenario.step(element)?;
    let mut parts = Vec::new();
    if closing {
        parts.push(SCENARIO_CLOSING.to_owned());
    }
    if opens {
        parts.push(SCENARIO_OPENING.to_owned());
        parts.push(scenario.doc.setup.spoken());
    }
    parts.push(step.ask.trim().to_owned());
    Some(parts.join(" "))
}

/// The facts of `element`'s rubric that `text` states, judged as if it were an answer: what
/// a question or a bridge must never say.
pub fn stated_facts(library: &AcsLibrary, element: &str, text: &str) -> Vec<String> {
    let Some(prepared) = library.prepared(element) else {
        return Vec::new();
    };
    let verdict = judge_read(prepared, &ReadAnswer::of(text), None);
    verdict
        .facts
        .into_iter()
        .filter(|(_, status)| *status == FactStatus::Stated)
        .map(|(id, _)| id)
        .collect()
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(kind: LinkKind, from_previous: bool) -> LinkBetween {
        LinkBetween {
            kind,
            from_previous,
        }
    }

    #[test]
    fn the_bridge_follows_from_the_link() {
        let (p, n) = ("weather information", "cross-country flight planning");
        let cases = [
            (
                link(LinkKind::AppliesInScenario, true),
                p,
                "Since we talked about weather information, let's talk about how that shapes \
                 cross-country flight planning.",
            ),
            (
                link(LinkKind::AppliesInScenario, false),
                p,
                "Let's look at where cross-country flight planning comes into weather information.",
            ),
            (
                link(LinkKind::Requires, false),
                p,
                "Since we talked about weather information, let's build on it with cross-country \
                 flight planning.",
            ),
            (
                link(LinkKind::Requires, true),
                p,
                "Weather information rests on cross-country flight planning, so let's look at that next.",
            ),
            (
                link(LinkKind::ContrastsWith, true),
                p,
                "We covered weather information; cross-country flight planning works \
                 differently, so let's compare.",
            ),
            (
                link(LinkKind::ContrastsWith, false),
                n,
                "Let's stay with cross-country flight planning a moment longer.",
            ),
        ];
        for (link, previous, expected) in cases {
            assert_eq!(bridge(link, previous, n), expected, "{link:?}");
        }
    }

    #[test]
    fn a_bridge_that_would_name_a_fact_falls_back_to_plain_words() {
        let library = crate::exam::test_scenarios::library();
        // "cross-country flight planning" says "flight plan", a fact of the ELT element.
        let titled = bridge(
            link(LinkKind::ContrastsWith, true),
            "cross-country flight planning",
            "emergency approach and landing (simulated)",
        );
        assert!(
            !stated_facts(library, "PA.IX.B.K5", &titled).is_empty(),
            "{titled}"
        );
        let said = lead_in(library, Rating::Private, "PA.I.D.K5", "PA.IX.B.K5");
        assert_eq!(
            said.as_deref(),
            Some("Now for something that works differently.")
        );
        let linked = lead_in(library, Rating::Private, "PA.I.C.K2", "PA.I.D.K1");
        assert!(linked.is_some_and(|said| said.starts_with("Since we talked about weather")));
        assert_eq!(
            lead_in(library, Rating::Private, "PA.I.C.K2", "PA.I.D.K4"),
            None
        );
    }

    #[test]
    fn capitalising_keeps_the_rest() {
        assert_eq!(capitalised("pilot qualifications"), "Pilot qualifications");
        assert_eq!(capitalised(""), "");
    }
}
