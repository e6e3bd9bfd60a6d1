//! How far an examiner's scores agree with expert labels: agreement, Cohen's kappa, the
//! confusion matrix, and the false-pass rate (answers labelled unsatisfactory that the
//! examiner scored satisfactory).

use viva_core::exam::types::Score;

/// The three scores, in the confusion matrix's order.
pub const SCORES: [Score; 3] = [Score::Satisfactory, Score::Partial, Score::Unsatisfactory];

fn index(score: Score) -> usize {
    match score {
        Score::Satisfactory => 0,
        Score::Partial => 1,
        Score::Unsatisfactory => 2,
    }
}

/// Counts of (label, score) pairs: `cells[label][score]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Confusion {
    /// Rows: the label; columns: the examiner's score (order of [`SCORES`]).
    pub cells: [[usize; 3]; 3],
}

impl Confusion {
    /// Adds one judged answer.
    pub fn add(&mut self, label: Score, scored: Score) {
        self.cells[index(label)][index(scored)] += 1;
    }

    /// How many answers.
    pub fn total(&self) -> usize {
        self.cells.iter().flatten().sum()
    }

    /// Share of answers scored as labelled (0 when empty).
    pub fn agreement(&self) -> f64 {
        let agreed: usize = (0..3).map(|i| self.cells[i][i]).sum();
        ratio(agreed, self.total())
    }

    /// Cohen's kappa: agreement beyond what the two marginal distributions give by chance.
    /// 1 when both agree perfectly; 0 when no better than chance (and when undefined).
    pub fn kappa(&self) -> f64 {
        let total = self.total() as f64;
        if total == 0.0 {
            return 0.0;
        }
        let label = |i: usize| self.cells[i].iter().sum::<usize>() as f64 / total;
        let scored = |j: usize| (0..3).map(|i| self.cells[i][j]).sum::<usize>() as f64 / total;
        let chance: f64 = (0..3).map(|k| label(k) * scored(k)).sum();
        if (1.0 - chance).abs() < f64::EPSILON {
            return 0.0;
        }
        (self.agreement() - chance) / (1.0 - chance)
    }

    /// Share of answers labelled unsatisfactory that were scored satisfactory.
    pub fn false_pass_rate(&self) -> f64 {
        let row = &self.cells[index(Score::Unsatisfactory)];
        ratio(row[index(Score::Satisfactory)], row.iter().sum())
    }

    /// How many answers labelled unsatisfactory were scored satisfactory.
    pub fn false_passes(&self) -> usize {
        self.cells[index(Score::Unsatisfactory)][index(Score::Satisfactory)]
    }

    /// The count of one cell.
    pub fn cell(&self, label: Score, scored: Score) -> usize {
        self.cells[index(label)][index(scored)]
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Score::*;

    fn confusion(pairs: &[(Score, Score)]) -> Confusion {
        let mut confusion = Confusion::default();
        for &(label, scored) in pairs {
            confusion.add(label, scored);
        }
        confusion
    }

    #[test]
    fn perfect_agreement_has_kappa_one() {
        let c = confusion(&[
            (Satisfactory, Satisfactory),
            (Partial, Partial),
            (Unsatisfactory, Unsatisfactory),
        ]);
        assert_eq!(c.agreement(), 1.0);
        assert!((c.kappa() - 1.0).abs() < 1e-12);
        assert_eq!(c.false_pass_rate(), 0.0);
    }

    #[test]
    fn kappa_matches_a_worked_example() {
        // Two raters, 50 items: 20 both yes, 15 both no, 5 yes/no, 10 no/yes: kappa 0.4.
        let c = Confusion {
            cells: [[20, 0, 5], [0, 0, 0], [10, 0, 15]],
        };
        assert!((c.agreement() - 0.7).abs() < 1e-12);
        assert!((c.kappa() - 0.4).abs() < 1e-12);
        assert_eq!(c.false_passes(), 10);
        assert!((c.false_pass_rate() - 0.4).abs() < 1e-12);
    }

    #[test]
    fn an_empty_matrix_reports_zeros() {
        let c = Confusion::default();
        assert_eq!(
            (c.agreement(), c.kappa(), c.false_pass_rate()),
            (0.0, 0.0, 0.0)
        );
    }
}
