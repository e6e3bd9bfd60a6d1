//! The item plan of an assessment session: which skill and difficulty each item is, built
//! at start from the sections' counts, skill weights and difficulty mix, with one seed each.

use crate::assessment::{Assessment, Section};
use crate::rng::SeededRng;
use crate::skill::Difficulty;

/// One planned item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedItem {
    /// The section it counts for.
    pub section_id: String,
    /// The skill that generates it.
    pub skill_id: String,
    /// Its difficulty.
    pub difficulty: Difficulty,
    /// Its generation seed.
    pub seed: u64,
}

/// Plans every item of `assessment` from the session seed.
pub fn plan_items(assessment: &Assessment, seed: u64) -> Vec<PlannedItem> {
    let mut rng = SeededRng::new(seed);
    let mut items = Vec::with_capacity(assessment.total_items as usize);
    for section in &assessment.sections {
        let skills = allot_by_weight(section);
        let mut difficulties: Vec<Difficulty> = section
            .difficulties
            .iter()
            .flat_map(|(d, n)| std::iter::repeat_n(*d, *n as usize))
            .collect();
        shuffle(&mut difficulties, &mut rng);
        for (skill_id, difficulty) in skills.into_iter().zip(difficulties) {
            items.push(PlannedItem {
                section_id: section.id.clone(),
                skill_id,
                difficulty,
                seed: rng.next_u64(),
            });
        }
    }
    if assessment.shuffle_items {
        shuffle(&mut items, &mut rng);
    }
    items
}

/// Skill per item slot: `item_count` split by weight, largest remainder first, ties in order.
pub fn allot_by_weight(section: &Section) -> Vec<String> {
    let total: f64 = section.skills.iter().map(|(_, w)| w).sum();
    let count = section.item_count as usize;
    let quotas: Vec<f64> = section
        .skills
        .iter()
        .map(|(_, w)| w / total * count as f64)
        .collect();
    let mut counts: Vec<usize> = quotas.iter().map(|q| q.floor() as usize).collect();
    let mut order: Vec<usize> = (0..quotas.len()).collect();
    order.sort_by(|&a, &b| {
        (quotas[b] - quotas[b].floor())
            .total_cmp(&(quotas[a] - quotas[a].floor()))
            .then(a.cmp(&b))
    });
    let mut missing = count.saturating_sub(counts.iter().sum());
    for index in order.into_iter().cycle().take(missing * 2) {
        if missing == 0 {
            break;
        }
        counts[index] += 1;
        missing -= 1;
    }
    let slots = section.skills.iter().zip(counts);
    slots
        .flat_map(|((id, _), n)| std::iter::repeat_n(id.clone(), n))
        .collect()
}

fn shuffle<T>(items: &mut [T], rng: &mut SeededRng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.next_index(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(skills: &[(&str, f64)], item_count: u32, mix: &[(Difficulty, u32)]) -> Section {
        Section {
            id: "s".into(),
            title: "S".into(),
            item_count,
            skills: skills.iter().map(|(id, w)| (id.to_string(), *w)).collect(),
            difficulties: mix.to_vec(),
            weight: 1.0,
        }
    }

    fn counts(slots: &[String]) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for slot in slots {
            match counts.iter_mut().find(|(id, _)| id == slot) {
                Some((_, n)) => *n += 1,
                None => counts.push((slot.clone(), 1)),
            }
        }
        counts
    }

    #[test]
    fn weights_allot_items_by_largest_remainder() {
        let check = |skills: &[(&str, f64)], n: u32, expected: &[(&str, usize)]| {
            let slots = allot_by_weight(&section(skills, n, &[]));
            let expected: Vec<(String, usize)> = expected
                .iter()
                .map(|(id, c)| (id.to_string(), *c))
                .collect();
            assert_eq!(counts(&slots), expected, "{skills:?} over {n}");
        };
        check(
            &[("a", 0.3), ("b", 0.4), ("c", 0.3)],
            5,
            &[("a", 2), ("b", 2), ("c", 1)],
        );
        check(&[("a", 1.0)], 5, &[("a", 5)]);
        check(&[("a", 1.0), ("b", 1.0)], 4, &[("a", 2), ("b", 2)]);
        check(
            &[("a", 1.0), ("b", 1.0), ("c", 1.0)],
            2,
            &[("a", 1), ("b", 1)],
        );
    }

    #[test]
    fn plan_honours_counts_and_difficulty_mix() {
        let mix = [
            (Difficulty::Easy, 2),
            (Difficulty::Medium, 2),
            (Difficulty::Hard, 1),
        ];
        let assessment = Assessment {
            id: "A".into(),
            title: String::new(),
            total_items: 5,
            time_limit_minutes: None,
            passing_score_percent: 70.0,
            shuffle_items: true,
            shuffle_options: true,
            show_progress: true,
            allow_skip: false,
            sections: vec![section(&[("a", 1.0), ("b", 1.0)], 5, &mix)],
            grade_bands: Vec::new(),
            scoring_method: crate::scoring::ScoringMethod::PercentCorrect,
        };
        let plan = plan_items(&assessment, 9);
        assert_eq!(plan.len(), 5);
        let hard = plan
            .iter()
            .filter(|i| i.difficulty == Difficulty::Hard)
            .count();
        assert_eq!(hard, 1);
        assert_eq!(plan, plan_items(&assessment, 9), "same seed, same plan");
        let seeds: std::collections::BTreeSet<u64> = plan.iter().map(|i| i.seed).collect();
        assert_eq!(seeds.len(), 5, "every item has its own seed");
    }
}
