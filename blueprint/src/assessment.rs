//! Compiling an assessment blueprint: sections, weights, difficulty mixes and grade bands,
//! all checked at load.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::LoadError;
use crate::model::{AssessmentDoc, GradeBand, ScoringMethod};
use crate::skill::Difficulty;

/// An assessment ready to plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// Unique id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Items in all.
    pub total_items: u32,
    /// Time limit in minutes; `None` for an untimed assessment.
    pub time_limit_minutes: Option<f64>,
    /// Pass mark, percent.
    pub passing_score_percent: f64,
    /// Shuffle the item order.
    pub shuffle_items: bool,
    /// Shuffle each item's options.
    pub shuffle_options: bool,
    /// Show `number` of `total`.
    pub show_progress: bool,
    /// Skipping allowed.
    pub allow_skip: bool,
    /// Sections in order.
    pub sections: Vec<Section>,
    /// Grade bands, highest first.
    pub grade_bands: Vec<GradeBand>,
    /// How the score is computed.
    pub scoring_method: ScoringMethod,
}

/// A section, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Items in it.
    pub item_count: u32,
    /// Skills and weights.
    pub skills: Vec<(String, f64)>,
    /// Items per difficulty.
    pub difficulties: Vec<(Difficulty, u32)>,
    /// Its weight in the score (sums to 1 over sections).
    pub weight: f64,
}

/// Compiles one assessment document from `file`; `skill_ids` are the skills loaded.
pub fn compile_assessment(
    file: &str,
    doc: AssessmentDoc,
    skill_ids: &BTreeSet<String>,
) -> Result<Assessment, Vec<LoadError>> {
    let mut errors = Vec::new();
    let mut fail = |field: &str, message: String| errors.push(LoadError::at(file, field, message));
    let config = &doc.configuration;
    if config.allow_review {
        fail(
            "configuration.allow_review",
            "reviewing earlier items is not supported; set it to false".into(),
        );
    }
    if config
        .time_limit_minutes
        .is_some_and(|minutes| !is_positive(minutes))
    {
        fail(
            "configuration.time_limit_minutes",
            "must be above 0 when given (leave it out for an untimed assessment)".into(),
        );
    }
    if !(0.0..=100.0).contains(&config.passing_score_percent) {
        fail(
            "configuration.passing_score_percent",
            "must be in 0..=100".into(),
        );
    }
    let sum: u32 = doc.sections.iter().map(|s| s.item_count).sum();
    if doc.sections.is_empty() || sum != config.total_items {
        fail(
            "configuration.total_items",
            format!(
                "is {}, but the sections hold {sum} items",
                config.total_items
            ),
        );
    }
    let weights = section_weights(&doc, &mut fail);
    let mut sections = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, section) in doc.sections.iter().enumerate() {
        let field = format!("sections[{i}]");
        if !seen.insert(section.section_id.clone()) {
            fail(
                &field,
                format!("section_id {:?} is repeated", section.section_id),
            );
        }
        for (j, skill) in section.skill_blueprints.iter().enumerate() {
            if !skill_ids.contains(&skill.skill_id) {
                fail(
                    &format!("{field}.skill_blueprints[{j}]"),
                    format!("unknown skill_id {:?}", skill.skill_id),
                );
            }
            if !is_positive(skill.weight) {
                fail(
                    &format!("{field}.skill_blueprints[{j}].weight"),
                    "must be positive".into(),
                );
            }
        }
        if section.skill_blueprints.is_empty() {
            fail(
                &format!("{field}.skill_blueprints"),
                "needs at least one skill".into(),
            );
        }
        let difficulties = difficulty_mix(
            section.item_count,
            &section.difficulty_distribution,
            &field,
            &mut fail,
        );
        sections.push(Section {
            id: section.section_id.clone(),
            title: section.title.clone(),
            item_count: section.item_count,
            skills: section
                .skill_blueprints
                .iter()
                .map(|s| (s.skill_id.clone(), s.weight))
                .collect(),
            difficulties,
            weight: weights.get(&section.section_id).copied().unwrap_or(0.0),
        });
    }
    let grade_bands = grade_bands(&doc, &mut fail);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Assessment {
        id: doc.assessment_id,
        title: doc.metadata.title,
        total_items: config.total_items,
        time_limit_minutes: config.time_limit_minutes,
        passing_score_percent: config.passing_score_percent,
        shuffle_items: config.shuffle_items,
        shuffle_options: config.shuffle_options,
        show_progress: config.show_progress,
        allow_skip: config.allow_skip,
        sections,
        grade_bands,
        scoring_method: doc.scoring.method.unwrap_or_default(),
    })
}

/// Positive and finite (so NaN is refused too).
fn is_positive(value: f64) -> bool {
    value.is_finite() && value > 0.0
}

/// Section weights from `scoring.section_weights`, or by item count when absent.
fn section_weights(
    doc: &AssessmentDoc,
    fail: &mut impl FnMut(&str, String),
) -> BTreeMap<String, f64> {
    let given = &doc.scoring.section_weights;
    if given.is_empty() {
        let total: f64 = doc
            .sections
            .iter()
            .map(|s| f64::from(s.item_count))
            .sum::<f64>()
            .max(1.0);
        return doc
            .sections
            .iter()
            .map(|s| (s.section_id.clone(), f64::from(s.item_count) / total))
            .collect();
    }
    let ids: BTreeSet<&String> = doc.sections.iter().map(|s| &s.section_id).collect();
    for key in given.keys() {
        if !ids.contains(key) {
            fail(
                &format!("scoring.section_weights.{key}"),
                "names no section".into(),
            );
        }
    }
    let sum: f64 = given.values().sum();
    if (sum - 1.0).abs() > 1e-6 || given.len() != ids.len() {
        fail(
            "scoring.section_weights",
            format!("must give every section a weight, summing to 1 (sum {sum})"),
        );
    }
    given.clone()
}

fn difficulty_mix(
    item_count: u32,
    distribution: &BTreeMap<String, u32>,
    field: &str,
    fail: &mut impl FnMut(&str, String),
) -> Vec<(Difficulty, u32)> {
    let mut mix = Vec::new();
    for (name, count) in distribution {
        match Difficulty::parse(name) {
            Some(difficulty) => mix.push((difficulty, *count)),
            None => fail(
                &format!("{field}.difficulty_distribution.{name}"),
                "must be easy, medium or hard".into(),
            ),
        }
    }
    let sum: u32 = mix.iter().map(|(_, count)| count).sum();
    if sum != item_count {
        fail(
            &format!("{field}.difficulty_distribution"),
            format!("sums to {sum}, but item_count is {item_count}"),
        );
    }
    mix.sort();
    mix
}

fn grade_bands(doc: &AssessmentDoc, fail: &mut impl FnMut(&str, String)) -> Vec<GradeBand> {
    let mut bands = doc.scoring.grade_bands.clone();
    bands.sort_by(|a, b| b.min_percent.total_cmp(&a.min_percent));
    if bands.last().is_some_and(|lowest| lowest.min_percent > 0.0) {
        fail(
            "scoring.grade_bands",
            "the lowest band must start at 0 so every score has a band".into(),
        );
    }
    bands
}
