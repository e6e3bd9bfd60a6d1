//! Grading an exam: the outcome rule and per-area counts.
//!
//! Outcome: `incomplete` when fewer elements were examined (answered, or credited by mention)
//! than planned; otherwise `unsatisfactory` when any element's final score is unsatisfactory
//! or partial; otherwise `satisfactory`. Credit by mention counts as examined: the candidate
//! covered the element unprompted, which is exactly what mention credit means.

use viva_protocol::result::{AreaResult, ElementResult, ExamResult, Outcome, Trigger};

use super::acs::{AcsCatalog, roman_value};
use super::plan::{Coverage, ExamPlan};
use super::types::Score;

/// The outcome of a plan as it stands.
pub fn outcome(plan: &ExamPlan) -> Outcome {
    if plan.examined_count() < plan.planned_question_count {
        return Outcome::Incomplete;
    }
    let failed = plan
        .scores
        .values()
        .any(|score| matches!(score, Score::Unsatisfactory | Score::Partial));
    if failed {
        Outcome::Unsatisfactory
    } else {
        Outcome::Satisfactory
    }
}

/// The graded result; `queue` gives the element order.
pub fn grade(
    plan: &ExamPlan,
    queue: &[String],
    catalog: &AcsCatalog,
    trigger: Trigger,
) -> ExamResult {
    let elements: Vec<ElementResult> = queue
        .iter()
        .map(|code| ElementResult {
            code: code.clone(),
            area: catalog
                .element(code)
                .map(|e| e.area.clone())
                .unwrap_or_default(),
            score: plan.scores.get(code).map(|score| score.as_str().to_owned()),
            status: plan
                .coverage
                .get(code)
                .copied()
                .unwrap_or(Coverage::Pending)
                .as_str()
                .to_owned(),
            scenario: None,
        })
        .collect();
    ExamResult {
        outcome: outcome(plan),
        trigger,
        planned_questions: plan.planned_question_count,
        asked: plan.asked_count,
        credited_by_mention: plan.count(Coverage::CreditedByMention),
        bonus_used: plan.bonus_used,
        areas: area_results(&elements, catalog),
        elements,
        adaptive_difficulty: None,
        transcript: Vec::new(),
        debrief: None,
    }
}

fn area_results(elements: &[ElementResult], catalog: &AcsCatalog) -> Vec<AreaResult> {
    let mut areas: Vec<AreaResult> = Vec::new();
    for element in elements {
        let index = match areas.iter().position(|area| area.area == element.area) {
            Some(index) => index,
            None => {
                areas.push(empty_area(&element.area, catalog, &element.code));
                areas.len() - 1
            }
        };
        count_element(&mut areas[index], element);
    }
    areas.sort_by_key(|area| roman_value(&area.area).unwrap_or(u32::MAX));
    areas
}

fn empty_area(area: &str, catalog: &AcsCatalog, code: &str) -> AreaResult {
    AreaResult {
        area: area.to_owned(),
        title: catalog
            .element(code)
            .map(|e| e.area_title.clone())
            .unwrap_or_default(),
        satisfactory: 0,
        partial: 0,
        unsatisfactory: 0,
        credited_by_mention: 0,
        not_covered: 0,
    }
}

fn count_element(area: &mut AreaResult, element: &ElementResult) {
    match (
        element.score.as_deref().and_then(Score::parse),
        element.status.as_str(),
    ) {
        (Some(Score::Satisfactory), _) => area.satisfactory += 1,
        (Some(Score::Partial), _) => area.partial += 1,
        (Some(Score::Unsatisfactory), _) => area.unsatisfactory += 1,
        (None, "credited_by_mention") => area.credited_by_mention += 1,
        (None, _) => area.not_covered += 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::plan::PlanDefaults;
    use crate::exam::queue::tests::private_catalog;

    fn plan_with(scores: &[(&str, Score)], credited: &[&str], queue: &[String]) -> ExamPlan {
        let mut plan = ExamPlan::new(queue, 292, &PlanDefaults::default());
        for (code, score) in scores {
            plan.mark_asked(code);
            plan.record_score(code, *score, false);
        }
        let credited: Vec<String> = credited.iter().map(|c| c.to_string()).collect();
        plan.credit_mentions(&credited);
        plan
    }

    fn queue() -> Vec<String> {
        ["K1", "K2", "K3", "K4", "K5", "R1", "R2"]
            .map(|s| format!("PA.I.A.{s}"))
            .to_vec()
    }

    fn sat<'a>(codes: &[&'a str]) -> Vec<(&'a str, Score)> {
        codes.iter().map(|c| (*c, Score::Satisfactory)).collect()
    }

    #[test]
    fn outcomes() {
        use Score::*;
        let q = queue();
        let five = [
            "PA.I.A.K1",
            "PA.I.A.K2",
            "PA.I.A.K3",
            "PA.I.A.K4",
            "PA.I.A.K5",
        ];
        let check = |plan: ExamPlan, expected| assert_eq!(outcome(&plan), expected);
        check(plan_with(&sat(&five), &[], &q), Outcome::Satisfactory);
        check(plan_with(&sat(&five[..4]), &[], &q), Outcome::Incomplete);
        check(
            plan_with(&sat(&five[..4]), &["PA.I.A.R1"], &q),
            Outcome::Satisfactory,
        );
        let mut one_partial = sat(&five);
        one_partial[2].1 = Partial;
        check(plan_with(&one_partial, &[], &q), Outcome::Unsatisfactory);
        let mut one_failed = sat(&five);
        one_failed[0].1 = Unsatisfactory;
        check(plan_with(&one_failed, &[], &q), Outcome::Unsatisfactory);
        check(plan_with(&[], &[], &q), Outcome::Incomplete);
    }

    #[test]
    fn per_area_counts() {
        let catalog = private_catalog();
        let mut q = queue();
        q.push("PA.III.A.K1".to_owned());
        let scores = [
            ("PA.I.A.K1", Score::Satisfactory),
            ("PA.I.A.K2", Score::Partial),
            ("PA.III.A.K1", Score::Unsatisfactory),
        ];
        let plan = plan_with(&scores, &["PA.I.A.K3"], &q);
        let result = grade(&plan, &q, &catalog, Trigger::UserEnded);
        assert_eq!(result.trigger, Trigger::UserEnded);
        assert_eq!(result.areas.len(), 2);
        let area_one = &result.areas[0];
        assert_eq!(
            (area_one.area.as_str(), area_one.title.as_str()),
            ("I", "Preflight Preparation")
        );
        assert_eq!(
            (
                area_one.satisfactory,
                area_one.partial,
                area_one.credited_by_mention,
                area_one.not_covered
            ),
            (1, 1, 1, 4)
        );
        assert_eq!(result.areas[1].unsatisfactory, 1);
        assert_eq!(result.elements.len(), 8);
        assert_eq!(result.asked, 3);
        assert_eq!(result.credited_by_mention, 1);
    }
}
