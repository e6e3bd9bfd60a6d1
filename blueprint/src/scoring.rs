//! Scoring an assessment: percent correct weighted by section, section results, the grade
//! band, and pass or fail. Unanswered and skipped items count as wrong.

use crate::assessment::Assessment;
pub use crate::model::ScoringMethod;

/// How one item went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemOutcome {
    /// The item's section.
    pub section_id: String,
    /// The candidate answered (not skipped, not left when time ran out).
    pub attempted: bool,
    /// The answer was correct.
    pub correct: bool,
    /// Milliseconds from showing the item to the answer, when answered.
    pub response_ms: Option<u64>,
}

/// One section's results.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionScore {
    /// Section id.
    pub section_id: String,
    /// Title.
    pub title: String,
    /// Items planned.
    pub items: u32,
    /// Items answered.
    pub attempted: u32,
    /// Items correct.
    pub correct: u32,
    /// `correct / attempted`, 0 when nothing was attempted.
    pub accuracy: f64,
    /// Mean response time of the answered items.
    pub average_response_ms: Option<u64>,
}

/// The whole result.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreReport {
    /// Weighted percent correct, rounded to 0.01.
    pub score_percent: f64,
    /// Items planned.
    pub items_total: u32,
    /// Items answered.
    pub items_attempted: u32,
    /// Items correct.
    pub items_correct: u32,
    /// Per section, in blueprint order.
    pub sections: Vec<SectionScore>,
    /// The band the score falls in.
    pub grade_band: String,
    /// `score_percent >= passing_score_percent`.
    pub passed: bool,
}

/// Scores `outcomes` (one per planned item) against `assessment`.
pub fn score(assessment: &Assessment, outcomes: &[ItemOutcome]) -> ScoreReport {
    let sections: Vec<SectionScore> = assessment
        .sections
        .iter()
        .map(|section| {
            let mine: Vec<&ItemOutcome> = outcomes
                .iter()
                .filter(|o| o.section_id == section.id)
                .collect();
            section_score(&section.id, &section.title, section.item_count, &mine)
        })
        .collect();
    let weighted: f64 = assessment
        .sections
        .iter()
        .zip(&sections)
        .map(|(section, result)| {
            section.weight * f64::from(result.correct) / f64::from(result.items.max(1))
        })
        .sum();
    let score_percent = (weighted * 10_000.0).round() / 100.0;
    let band = assessment
        .grade_bands
        .iter()
        .find(|band| score_percent >= band.min_percent);
    ScoreReport {
        score_percent,
        items_total: assessment.total_items,
        items_attempted: sections.iter().map(|s| s.attempted).sum(),
        items_correct: sections.iter().map(|s| s.correct).sum(),
        grade_band: band.map(|b| b.label.clone()).unwrap_or_default(),
        passed: score_percent >= assessment.passing_score_percent,
        sections,
    }
}

fn section_score(id: &str, title: &str, items: u32, outcomes: &[&ItemOutcome]) -> SectionScore {
    let attempted = outcomes.iter().filter(|o| o.attempted).count() as u32;
    let correct = outcomes.iter().filter(|o| o.correct).count() as u32;
    let times: Vec<u64> = outcomes.iter().filter_map(|o| o.response_ms).collect();
    SectionScore {
        section_id: id.to_owned(),
        title: title.to_owned(),
        items,
        attempted,
        correct,
        accuracy: if attempted == 0 {
            0.0
        } else {
            f64::from(correct) / f64::from(attempted)
        },
        average_response_ms: (!times.is_empty())
            .then(|| times.iter().sum::<u64>() / times.len() as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assessment::Section;
    use crate::model::GradeBand;

    fn assessment(weights: [f64; 2]) -> Assessment {
        let section = |id: &str, weight| Section {
            id: id.into(),
            title: id.to_uppercase(),
            item_count: 2,
            skills: vec![("k".into(), 1.0)],
            difficulties: Vec::new(),
            weight,
        };
        let band = |label: &str, min_percent| GradeBand {
            label: label.into(),
            min_percent,
        };
        Assessment {
            id: "A".into(),
            title: String::new(),
            total_items: 4,
            time_limit_minutes: Some(10.0),
            passing_score_percent: 70.0,
            shuffle_items: false,
            shuffle_options: false,
            show_progress: true,
            allow_skip: true,
            sections: vec![section("a", weights[0]), section("b", weights[1])],
            grade_bands: vec![
                band("Excellent", 90.0),
                band("Satisfactory", 70.0),
                band("Needs improvement", 0.0),
            ],
            scoring_method: ScoringMethod::PercentCorrect,
        }
    }

    fn outcome(section: &str, attempted: bool, correct: bool, ms: Option<u64>) -> ItemOutcome {
        ItemOutcome {
            section_id: section.into(),
            attempted,
            correct,
            response_ms: ms,
        }
    }

    #[test]
    fn weighted_score_band_and_pass() {
        let outcomes = [
            outcome("a", true, true, Some(1000)),
            outcome("a", true, true, Some(3000)),
            outcome("b", true, false, Some(500)),
            outcome("b", false, false, None),
        ];
        let even = score(&assessment([0.5, 0.5]), &outcomes);
        assert_eq!(even.score_percent, 50.0);
        assert_eq!(
            (even.grade_band.as_str(), even.passed),
            ("Needs improvement", false)
        );
        let heavy_a = score(&assessment([0.8, 0.2]), &outcomes);
        assert_eq!(heavy_a.score_percent, 80.0);
        assert_eq!(
            (heavy_a.grade_band.as_str(), heavy_a.passed),
            ("Satisfactory", true)
        );
        let a = &even.sections[0];
        assert_eq!(
            (a.attempted, a.correct, a.accuracy, a.average_response_ms),
            (2, 2, 1.0, Some(2000))
        );
        let b = &even.sections[1];
        assert_eq!(
            (b.attempted, b.correct, b.accuracy, b.average_response_ms),
            (1, 0, 0.0, Some(500))
        );
        assert_eq!(
            (even.items_total, even.items_attempted, even.items_correct),
            (4, 3, 2)
        );
    }

    #[test]
    fn all_correct_is_the_top_band_and_nothing_answered_is_zero() {
        let all: Vec<ItemOutcome> = ["a", "a", "b", "b"]
            .iter()
            .map(|s| outcome(s, true, true, Some(10)))
            .collect();
        let report = score(&assessment([0.5, 0.5]), &all);
        assert_eq!(
            (
                report.score_percent,
                report.grade_band.as_str(),
                report.passed
            ),
            (100.0, "Excellent", true)
        );
        let none: Vec<ItemOutcome> = ["a", "a", "b", "b"]
            .iter()
            .map(|s| outcome(s, false, false, None))
            .collect();
        let report = score(&assessment([0.5, 0.5]), &none);
        assert_eq!((report.score_percent, report.items_attempted), (0.0, 0));
        assert_eq!(report.sections[0].average_response_ms, None);
    }
}
