//! The blueprint documents as written in YAML: plain serde types that keep the design
//! document's field names, so blueprints written by others load unchanged.

use std::collections::BTreeMap;

use serde::Deserialize;

/// A skill blueprint (`blueprints/skills/**.yaml`).
#[derive(Debug, Clone, Deserialize)]
pub struct SkillDoc {
    /// Unique skill id, such as `MATH.ARITH.ADD.2DIGIT`.
    pub skill_id: String,
    /// Blueprint version.
    #[serde(default)]
    pub version: Option<String>,
    /// Descriptive metadata.
    #[serde(default)]
    pub metadata: SkillMetadata,
    /// How items are generated.
    pub generation: GenerationDoc,
    /// How items are shown.
    pub presentation: PresentationDoc,
    /// How answers are judged.
    #[serde(default)]
    pub evaluation: EvaluationDoc,
    /// Expected performance by proficiency level (informational).
    #[serde(default)]
    pub performance_benchmarks: BTreeMap<String, Benchmark>,
}

/// `metadata` of a skill.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SkillMetadata {
    /// Domain, such as `mathematics`.
    #[serde(default)]
    pub domain: String,
    /// Subdomain.
    #[serde(default)]
    pub subdomain: String,
    /// Topic.
    #[serde(default)]
    pub topic: String,
    /// What the skill is.
    #[serde(default)]
    pub skill_statement: String,
    /// Bloom-style level.
    #[serde(default)]
    pub cognitive_level: String,
    /// Extension: ACS element codes the skill exercises.
    #[serde(default)]
    pub acs_codes: Vec<String>,
}

/// `generation`.
#[derive(Debug, Clone, Deserialize)]
pub struct GenerationDoc {
    /// Only `multiple_choice` for now.
    pub item_type: String,
    /// Sampled parameters, in order.
    #[serde(default)]
    pub parameters: IndexedMap<ParameterDoc>,
    /// Derived values, in order.
    #[serde(default)]
    pub computed_values: IndexedMap<String>,
    /// The correct answer.
    pub answer_formula: String,
    /// `integer` or `string`.
    pub answer_type: String,
    /// `easy`, `medium` and `hard`.
    pub difficulty_levels: BTreeMap<String, DifficultyDoc>,
}

/// A YAML mapping whose entry order matters (parameters, computed values).
#[derive(Debug, Clone)]
pub struct IndexedMap<T>(pub Vec<(String, T)>);

impl<T> Default for IndexedMap<T> {
    fn default() -> Self {
        IndexedMap(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for IndexedMap<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<T> {
            type Value = IndexedMap<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, T>()? {
                    entries.push(entry);
                }
                Ok(IndexedMap(entries))
            }
        }
        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

/// One sampled parameter.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ParameterDoc {
    /// A whole number in `min..=max`, stepping by `step`, never one of `exclude`.
    Integer {
        /// Lowest value.
        min: i64,
        /// Highest value.
        max: i64,
        /// Values never drawn.
        #[serde(default)]
        exclude: Vec<i64>,
        /// Extension: the spacing of values from `min` (default 1).
        #[serde(default)]
        step: Option<i64>,
    },
    /// Extension: one of `values`, uniformly.
    Choice {
        /// The candidates.
        values: Vec<Scalar>,
    },
}

/// A YAML scalar.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
}

/// One difficulty level.
#[derive(Debug, Clone, Deserialize)]
pub struct DifficultyDoc {
    /// Nominal difficulty in 0..1 (informational).
    #[serde(default)]
    pub value: Option<f64>,
    /// Expressions every item of this level satisfies.
    #[serde(default)]
    pub constraints: Vec<String>,
}

/// `presentation`.
#[derive(Debug, Clone, Deserialize)]
pub struct PresentationDoc {
    /// Stem templates with `{expr}` placeholders.
    pub stem_templates: Vec<String>,
    /// Options per item, the answer included.
    pub option_count: usize,
    /// Wrong-answer strategies, tried in order.
    #[serde(default)]
    pub distractor_strategies: Vec<DistractorDoc>,
    /// Checks every distractor passes.
    #[serde(default)]
    pub distractor_validation: Vec<String>,
    /// Extension: the explanation shown in learning mode and in the audit trail.
    #[serde(default)]
    pub explanation_template: Option<String>,
}

/// One distractor strategy.
#[derive(Debug, Clone, Deserialize)]
pub struct DistractorDoc {
    /// A name for the mistake it models.
    #[serde(rename = "type")]
    pub kind: String,
    /// Human description.
    #[serde(default)]
    pub description: Option<String>,
    /// The wrong value.
    pub formula: String,
    /// Only used when this holds.
    #[serde(default)]
    pub condition: Option<String>,
}

/// `evaluation`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct EvaluationDoc {
    /// Only `exact_match` for now.
    #[serde(default)]
    pub method: Option<String>,
    /// Not supported yet; must be false.
    #[serde(default)]
    pub partial_credit: bool,
}

/// Expected performance at one proficiency level.
#[derive(Debug, Clone, Deserialize)]
pub struct Benchmark {
    /// Expected share of correct answers.
    #[serde(default)]
    pub expected_accuracy: Option<f64>,
    /// Expected seconds per item.
    #[serde(default)]
    pub expected_time_seconds: Option<f64>,
}

/// An assessment blueprint (`blueprints/assessments/*.yaml`).
#[derive(Debug, Clone, Deserialize)]
pub struct AssessmentDoc {
    /// Unique id, such as `MATH-FUNDAMENTALS-L1`.
    pub assessment_id: String,
    /// Blueprint version.
    #[serde(default)]
    pub version: Option<String>,
    /// Descriptive metadata.
    #[serde(default)]
    pub metadata: AssessmentMetadata,
    /// Rules of the session.
    pub configuration: ConfigurationDoc,
    /// Sections, in order.
    pub sections: Vec<SectionDoc>,
    /// How the score is computed.
    pub scoring: ScoringDoc,
}

/// `metadata` of an assessment.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AssessmentMetadata {
    /// Title.
    #[serde(default)]
    pub title: String,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// Audience.
    #[serde(default)]
    pub target_audience: String,
    /// Expected duration.
    #[serde(default)]
    pub estimated_duration_minutes: Option<u32>,
}

/// `configuration` of an assessment.
#[derive(Debug, Clone, Deserialize)]
pub struct ConfigurationDoc {
    /// Items in all; must equal the sections' sum.
    pub total_items: u32,
    /// Time limit in minutes (fractions allowed); the session completes when it runs out.
    /// Left out (or `null`), the assessment is untimed.
    #[serde(default)]
    pub time_limit_minutes: Option<f64>,
    /// Pass mark.
    pub passing_score_percent: f64,
    /// Shuffle the item order.
    #[serde(default)]
    pub shuffle_items: bool,
    /// Shuffle each item's options.
    #[serde(default = "yes")]
    pub shuffle_options: bool,
    /// Show `number` of `total` on each item.
    #[serde(default = "yes")]
    pub show_progress: bool,
    /// Going back to earlier items (not supported yet; must be false).
    #[serde(default)]
    pub allow_review: bool,
    /// Skipping items.
    #[serde(default)]
    pub allow_skip: bool,
}

fn yes() -> bool {
    true
}

/// One section of an assessment.
#[derive(Debug, Clone, Deserialize)]
pub struct SectionDoc {
    /// Unique within the assessment.
    pub section_id: String,
    /// Title.
    #[serde(default)]
    pub title: String,
    /// Items in this section.
    pub item_count: u32,
    /// Skills and their weights.
    pub skill_blueprints: Vec<SkillWeight>,
    /// Items per difficulty; sums to `item_count`.
    pub difficulty_distribution: BTreeMap<String, u32>,
}

/// A skill's share of a section.
#[derive(Debug, Clone, Deserialize)]
pub struct SkillWeight {
    /// The skill.
    pub skill_id: String,
    /// Its weight.
    #[serde(default = "one")]
    pub weight: f64,
}

fn one() -> f64 {
    1.0
}

/// `scoring`.
#[derive(Debug, Clone, Deserialize)]
pub struct ScoringDoc {
    /// How the score is computed: one of [`ScoringMethod::ALL`] (the default,
    /// `percent_correct`, when left out). Any other name is refused where it is written.
    #[serde(default)]
    pub method: Option<ScoringMethod>,
    /// Weight per section id; equal weights by item count when absent.
    #[serde(default)]
    pub section_weights: BTreeMap<String, f64>,
    /// Grade bands.
    #[serde(default)]
    pub grade_bands: Vec<GradeBand>,
}

/// How an assessment's score is computed (`scoring.method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ScoringMethod {
    /// `percent_correct`: the percent of items correct in each section, weighted by the
    /// section weights; unanswered and skipped items count as wrong.
    #[default]
    PercentCorrect,
}

impl ScoringMethod {
    /// Every implemented method.
    pub const ALL: [ScoringMethod; 1] = [ScoringMethod::PercentCorrect];

    /// The name blueprints use.
    pub fn as_str(self) -> &'static str {
        match self {
            ScoringMethod::PercentCorrect => "percent_correct",
        }
    }

    /// The method named `name`, if it is implemented.
    pub fn parse(name: &str) -> Option<ScoringMethod> {
        ScoringMethod::ALL.into_iter().find(|m| m.as_str() == name)
    }
}

impl<'de> Deserialize<'de> for ScoringMethod {
    /// Refuses an unknown name inside the visitor, so the error carries the name's own line,
    /// column and path (`scoring.method`).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = ScoringMethod;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a scoring method name")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<ScoringMethod, E> {
                ScoringMethod::parse(name).ok_or_else(|| {
                    let known: Vec<&str> = ScoringMethod::ALL.iter().map(|m| m.as_str()).collect();
                    E::custom(format!(
                        "unknown scoring method {name:?} (implemented: {})",
                        known.join(", ")
                    ))
                })
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// A grade band.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GradeBand {
    /// Label, such as `Proficient`.
    pub label: String,
    /// Lowest score percent in the band.
    pub min_percent: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoring_methods_by_name() {
        assert_eq!(
            ScoringMethod::parse("percent_correct"),
            Some(ScoringMethod::PercentCorrect)
        );
        assert_eq!(ScoringMethod::parse("irt"), None);
        assert_eq!(ScoringMethod::default().as_str(), "percent_correct");
    }
}
