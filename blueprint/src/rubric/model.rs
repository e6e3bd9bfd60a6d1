//! The rubric YAML documents: one file per ACS task, one rubric per element.

use serde::Deserialize;

/// One file: the rubrics of one ACS task's elements.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RubricDoc {
    /// The ACS task code, such as `PA.I.A`.
    pub task: String,
    /// The elements' rubrics.
    pub elements: Vec<ElementRubric>,
}

/// What an examiner knows about one element.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementRubric {
    /// The element code, such as `PA.I.A.K1`; it must belong to the file's task.
    pub element: String,
    /// The key facts.
    pub facts: Vec<Fact>,
    /// The ids of the facts a satisfactory answer states, every one of them.
    pub satisfactory: Vec<String>,
    /// What makes an answer partial; without it, short of satisfactory is unsatisfactory.
    #[serde(default)]
    pub partial: Option<Partial>,
    /// Common false beliefs about this element.
    #[serde(default)]
    pub misconceptions: Vec<Misconception>,
    /// Questions with checkable answers, each asking for some of the facts.
    #[serde(default)]
    pub questions: Vec<Question>,
}

/// A question an examiner asks about the element, and the facts its answer must state.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The question as an examiner asks it: "How many takeoffs and landings ...?"
    pub ask: String,
    /// The ids of the facts a satisfactory answer to it states, every one of them.
    pub facts: Vec<String>,
}

/// A short true claim, with its source and, where it has one, its typed value.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    /// Unique within its element, kebab-case: `passenger-currency`.
    pub id: String,
    /// The claim, as an examiner would state it.
    pub claim: String,
    /// Where it is written: `14 CFR 61.57(a)`, `AIM 4-2-4`, `FAA-H-8083-25, chapter 12`.
    pub source: String,
    /// The words and phrases whose presence shows the fact is stated (stems and synonyms
    /// are the assessor's business; list the distinct ways a candidate says it).
    pub terms: Vec<String>,
    /// The fact's value, where it has one; an answer stating another value contradicts it.
    #[serde(default)]
    pub value: Option<FactValue>,
    /// What the claim binds: its subject, a modality, categorical values and conditions
    /// (docs/rubrics.md).
    #[serde(default)]
    pub slot: Option<Slot>,
    /// The question an examiner asks to draw this fact out when an answer leaves it out,
    /// without stating it ("What limits how long a flight review stays valid?"); without
    /// one, the examiner generates a probe from the ACS and the fact's kind. `viva
    /// blueprints check` refuses a probe that gives a fact away (docs/rubrics.md, "Probes").
    #[serde(default)]
    pub probe: Option<String>,
}

/// What a fact binds, so that code can tell an answer that binds something else to the same
/// subject: another value of a domain, the opposite polarity, another condition, another
/// term's definition.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slot {
    /// Phrases naming what the fact is about: `[Class B, class bravo]`.
    pub subject: Vec<String>,
    /// Phrases naming what is said of the subject: `[clearance]` (needed by `modality`).
    #[serde(default)]
    pub attribute: Vec<String>,
    /// What the claim says of subject and attribute.
    #[serde(default)]
    pub modality: Option<Modality>,
    /// Categorical values, as `domain.member`: `chart-colour.magenta`.
    #[serde(default)]
    pub is: Vec<String>,
    /// The conditions the value or rule holds under, as `domain.member`: `time-of-day.night`.
    #[serde(default)]
    pub when: Vec<String>,
    /// The fact's terms define its subject, one of several terms its element names.
    #[serde(default)]
    pub defines: bool,
    /// How far a stated number may be from `value`, in its units, and still be it.
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// The domains `is` and `when` name, filled in when the rubrics are loaded.
    #[serde(skip)]
    pub domains: Vec<Domain>,
}

impl Slot {
    /// The `(domain, member)` pairs of `is`, split.
    pub fn values(&self) -> impl Iterator<Item = (&str, &str)> {
        self.is.iter().filter_map(|pair| pair.split_once('.'))
    }

    /// The `(domain, member)` pairs of `when`, split.
    pub fn conditions(&self) -> impl Iterator<Item = (&str, &str)> {
        self.when.iter().filter_map(|pair| pair.split_once('.'))
    }

    /// The loaded domain `id`, if the slot names it.
    pub fn domain(&self, id: &str) -> Option<&Domain> {
        self.domains.iter().find(|d| d.id == id)
    }
}

/// What a claim says of its subject and attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Modality {
    /// "must", "is required".
    Required,
    /// "may not", "is prohibited".
    Prohibited,
    /// "may", "is permitted".
    Permitted,
    /// "is not required", "need not".
    NotRequired,
}

impl Modality {
    /// Whether the claim affirms (required, permitted) rather than denies.
    pub fn is_positive(self) -> bool {
        matches!(self, Modality::Required | Modality::Permitted)
    }
}

/// A closed set of values, declared once and shared by every rubric: chart colours, airspace
/// classes, trends, times of day.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Domain {
    /// Kebab-case: `chart-colour`.
    pub id: String,
    /// Each member's id and the phrases that say it.
    pub members: std::collections::BTreeMap<String, Vec<String>>,
}

/// A file of domains (`blueprints/rubrics/domains/*.yaml`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainDoc {
    /// The domains it declares.
    pub domains: Vec<Domain>,
}

/// A typed value an answer can state and code can compare.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FactValue {
    /// How many of something: 3 takeoffs and landings.
    Count {
        /// The number.
        amount: f64,
        /// What is counted, in the plural: `takeoffs and landings`.
        of: String,
    },
    /// A span of time: 90 days, 24 calendar months.
    Duration {
        /// The number of units.
        amount: f64,
        /// `minutes`, `hours`, `days`, `calendar_months` or `years`.
        unit: String,
    },
    /// A height: 1,000 ft AGL.
    Altitude {
        /// Feet.
        feet: f64,
        /// `agl` or `msl`.
        reference: String,
    },
    /// A distance: 3 statute miles, 2,000 ft horizontally.
    Distance {
        /// The number of units.
        amount: f64,
        /// `sm`, `nm` or `ft`.
        unit: String,
    },
    /// A speed: 200 knots.
    Speed {
        /// The number of units.
        amount: f64,
        /// `knots` or `mph`.
        unit: String,
    },
    /// A share: 10 percent.
    Percent {
        /// The percentage.
        amount: f64,
    },
    /// A transponder code: 7700.
    Squawk {
        /// Four octal digits.
        code: String,
    },
    /// A radio frequency: 121.5 MHz.
    Frequency {
        /// Megahertz.
        mhz: f64,
    },
    /// An ATC light gun signal: `steady green`.
    LightSignal {
        /// One of the six signals.
        signal: String,
    },
    /// A class of airspace: B.
    AirspaceClass {
        /// `A` to `G`.
        class: String,
    },
}

/// An answer stating at least `at_least` of the facts `of` (default: the satisfactory ones)
/// is partial.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partial {
    /// How many.
    pub at_least: usize,
    /// Of which facts; empty means the satisfactory ones.
    #[serde(default)]
    pub of: Vec<String>,
}

impl Partial {
    /// The facts counted: `of`, or the satisfactory ones when `of` is empty.
    pub fn counted<'a>(&'a self, satisfactory: &'a [String]) -> &'a [String] {
        if self.of.is_empty() {
            satisfactory
        } else {
            &self.of
        }
    }
}

/// A false belief candidates hold, its correction and where the truth is written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Misconception {
    /// Unique within its element, kebab-case.
    pub id: String,
    /// The false claim, as a candidate would say it.
    pub claim: String,
    /// Words whose presence (with the claim's value, if any) shows the answer holds it.
    pub terms: Vec<String>,
    /// The correction, as an examiner would say it.
    pub correction: String,
    /// Where the truth is written.
    pub source: String,
    /// The fact it contradicts, if one of this element's.
    #[serde(default)]
    pub contradicts: Option<String>,
    /// The false value, where the claim has one (it differs from the fact's).
    #[serde(default)]
    pub value: Option<FactValue>,
}
