//! The scenario and link YAML documents: one scenario per file under `scenarios/`, and link
//! lists under `links/`.

use serde::Deserialize;

use crate::rubric::Question;

/// One file: a flight scenario threading several ACS elements.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioDoc {
    /// Kebab-case, unique across files: `night-passengers-frederick`.
    pub id: String,
    /// A short title for transcripts: "A night flight with two passengers".
    pub title: String,
    /// The flight, read out once before the scenario's first question.
    pub setup: Setup,
    /// Where each fact the setup states is written (a NOTAM's meaning, an equipment rule).
    #[serde(default)]
    pub cites: Vec<Citation>,
    /// The elements asked through the scenario, in the order they are asked.
    pub steps: Vec<Step>,
}

/// The flight: each field one or two sentences, spoken in the order below.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Where from and to.
    pub route: String,
    /// The airplane.
    pub aircraft: String,
    /// Who comes along.
    pub passengers: String,
    /// When.
    pub time_of_day: String,
    /// The weather as briefed.
    pub weather: String,
    /// A NOTAM on the route (a NOTAM or an inoperative item, or both, is required).
    #[serde(default)]
    pub notam: Option<String>,
    /// Equipment found inoperative.
    #[serde(default)]
    pub inoperative: Option<String>,
}

impl Setup {
    /// The sentences in speaking order.
    pub fn sentences(&self) -> impl Iterator<Item = &str> {
        [
            Some(&self.route),
            Some(&self.aircraft),
            Some(&self.passengers),
            Some(&self.time_of_day),
            Some(&self.weather),
            self.notam.as_ref(),
            self.inoperative.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(|text| text.trim())
    }

    /// The setup as one paragraph, as the examiner reads it out.
    pub fn spoken(&self) -> String {
        self.sentences().collect::<Vec<_>>().join(" ")
    }
}

/// A fact the setup states, and where it is written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Citation {
    /// What the setup relies on: "A NOTAM closing a runway takes it out of use."
    pub says: String,
    /// A precise citation, as a rubric fact's `source`.
    pub source: String,
}

/// One element asked through the scenario.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The ACS element code; it has a rubric and is asked orally.
    pub element: String,
    /// The question, in the scenario's terms; it ends with "?" and states none of the facts
    /// it expects.
    pub ask: String,
    /// Ids of the element rubric's facts a satisfactory answer states, every one.
    pub expects: Vec<String>,
}

impl Step {
    /// The step as a rubric question, for the judge: its words and the facts it expects.
    pub fn question(&self) -> Question {
        Question {
            ask: self.ask.clone(),
            facts: self.expects.clone(),
        }
    }
}

/// A file of links between elements.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkDoc {
    /// The links.
    pub links: Vec<Link>,
}

/// A purposeful connection between two elements.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// One element.
    pub from: String,
    /// The other.
    pub to: String,
    /// How they connect.
    pub kind: LinkKind,
}

/// How two elements connect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// `from` builds on `to`: knowing `to` comes first.
    Requires,
    /// `from` is applied in the situation `to` covers (weather minimums in a flight plan).
    AppliesInScenario,
    /// The two are easily confused or work differently; asked together they sharpen each
    /// other. Symmetric.
    ContrastsWith,
}

impl LinkKind {
    /// The YAML name.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkKind::Requires => "requires",
            LinkKind::AppliesInScenario => "applies_in_scenario",
            LinkKind::ContrastsWith => "contrasts_with",
        }
    }
}
