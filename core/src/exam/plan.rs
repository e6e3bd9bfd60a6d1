//! ExamPlanV1: how many questions, coverage per element, bonus and follow-up budgets, and the
//! rule that decides what follows an answer.

use std::collections::HashMap;

use super::types::{QuestionKind, Score};

/// Version of the plan layout.
pub const PLAN_VERSION: u32 = 1;

/// Plan sizing and budgets; overridable in the `[exam]` table of the config file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanDefaults {
    /// Questions for a full-scope exam.
    pub full: u32,
    /// Fewest planned questions.
    pub min: u32,
    /// Most planned questions.
    pub max: u32,
    /// Most bonus questions per exam.
    pub bonus_max: u32,
    /// Most follow-up questions per element.
    pub follow_up_max_per_element: u32,
}

impl Default for PlanDefaults {
    fn default() -> Self {
        PlanDefaults {
            full: 75,
            min: 5,
            max: 120,
            bonus_max: 2,
            follow_up_max_per_element: 1,
        }
    }
}

/// `clamp(ceil(full × queue / total_oral), min, max)`, capped at the queue length.
pub fn planned_question_count(queue_len: usize, total_oral: usize, defaults: &PlanDefaults) -> u32 {
    if queue_len == 0 || total_oral == 0 {
        return 0;
    }
    let proportional = (u64::from(defaults.full) * queue_len as u64).div_ceil(total_oral as u64);
    let clamped = proportional.clamp(
        u64::from(defaults.min),
        u64::from(defaults.max.max(defaults.min)),
    );
    clamped.min(queue_len as u64) as u32
}

/// Where one element of the plan stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Not asked yet.
    Pending,
    /// Asked.
    Asked,
    /// Covered by an answer to another element; never asked.
    CreditedByMention,
    /// Left out: the exam ended before it came up.
    Skipped,
}

impl Coverage {
    /// The wire and checkpoint name.
    pub fn as_str(self) -> &'static str {
        match self {
            Coverage::Pending => "pending",
            Coverage::Asked => "asked",
            Coverage::CreditedByMention => "credited_by_mention",
            Coverage::Skipped => "skipped",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Option<Coverage> {
        match s {
            "pending" => Some(Coverage::Pending),
            "asked" => Some(Coverage::Asked),
            "credited_by_mention" => Some(Coverage::CreditedByMention),
            "skipped" => Some(Coverage::Skipped),
            _ => None,
        }
    }
}

/// What the examiner does after an answer is assessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextStep {
    /// Probe the same element again.
    FollowUp,
    /// Ask the next element of the plan, of this kind.
    Ask(QuestionKind),
    /// The plan is done.
    Finish,
}

/// The plan of one exam.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExamPlan {
    /// Layout version.
    pub version: u32,
    /// Questions planned (bonus questions come on top).
    pub planned_question_count: u32,
    /// Elements asked so far (follow-ups not counted).
    pub asked_count: u32,
    /// Bonus questions granted so far.
    pub bonus_used: u32,
    /// Most bonus questions.
    pub bonus_max: u32,
    /// Most follow-ups per element.
    pub follow_up_max_per_element: u32,
    /// Follow-ups asked per element.
    pub follow_ups: HashMap<String, u32>,
    /// Coverage per element in scope.
    pub coverage: HashMap<String, Coverage>,
    /// Latest score per answered element.
    pub scores: HashMap<String, Score>,
    /// A bonus was granted and the next new element is asked as the bonus question.
    pub bonus_pending: bool,
}

impl ExamPlan {
    /// A plan over `queue`, sized against `total_oral` elements of the rating and class.
    pub fn new(queue: &[String], total_oral: usize, defaults: &PlanDefaults) -> ExamPlan {
        ExamPlan {
            version: PLAN_VERSION,
            planned_question_count: planned_question_count(queue.len(), total_oral, defaults),
            asked_count: 0,
            bonus_used: 0,
            bonus_max: defaults.bonus_max,
            follow_up_max_per_element: defaults.follow_up_max_per_element,
            follow_ups: HashMap::new(),
            coverage: queue
                .iter()
                .map(|code| (code.clone(), Coverage::Pending))
                .collect(),
            scores: HashMap::new(),
            bonus_pending: false,
        }
    }

    /// Whether `code` is in scope and still pending.
    pub fn is_pending(&self, code: &str) -> bool {
        self.coverage.get(code) == Some(&Coverage::Pending)
    }

    /// The stop rule: `asked_count >= planned_question_count + bonus_used`.
    pub fn quota_reached(&self) -> bool {
        self.asked_count >= self.planned_question_count + self.bonus_used
    }

    /// Marks a pending element asked and returns the kind of question it is.
    pub fn mark_asked(&mut self, code: &str) -> QuestionKind {
        self.coverage.insert(code.to_owned(), Coverage::Asked);
        self.asked_count += 1;
        if std::mem::take(&mut self.bonus_pending) {
            QuestionKind::Bonus
        } else {
            QuestionKind::Primary
        }
    }

    /// Records a follow-up on `code`.
    pub fn mark_follow_up(&mut self, code: &str) {
        *self.follow_ups.entry(code.to_owned()).or_default() += 1;
    }

    /// Credits pending elements by mention; returns the ones that changed. Elements already
    /// asked, credited or skipped, and codes outside the plan, are left alone.
    pub fn credit_mentions(&mut self, codes: &[String]) -> Vec<String> {
        let mut credited = Vec::new();
        for code in codes {
            if self.is_pending(code) {
                self.coverage
                    .insert(code.clone(), Coverage::CreditedByMention);
                credited.push(code.clone());
            }
        }
        credited
    }

    /// Stores the score of an answer on `code` and decides what follows it: a partial
    /// answer, or one drawn out (`drawn_out`: correct as far as it goes, short and
    /// incomplete; an unsatisfactory one is then not scored at once), gets a follow-up while
    /// the element has follow-ups left; the follow-up's answer scores the element.
    pub fn record_score(&mut self, code: &str, score: Score, drawn_out: bool) -> NextStep {
        self.scores.insert(code.to_owned(), score);
        let follow_ups = self.follow_ups.get(code).copied().unwrap_or(0);
        let probed = score == Score::Partial || (drawn_out && score == Score::Unsatisfactory);
        if probed && follow_ups < self.follow_up_max_per_element {
            return NextStep::FollowUp;
        }
        if score == Score::Unsatisfactory && self.bonus_used < self.bonus_max {
            self.bonus_used += 1;
            self.bonus_pending = true;
        }
        if self.quota_reached() {
            NextStep::Finish
        } else if self.bonus_pending {
            NextStep::Ask(QuestionKind::Bonus)
        } else {
            NextStep::Ask(QuestionKind::Primary)
        }
    }

    /// Marks every still-pending element skipped: the exam is over.
    pub fn close(&mut self) {
        for coverage in self.coverage.values_mut() {
            if *coverage == Coverage::Pending {
                *coverage = Coverage::Skipped;
            }
        }
    }

    /// Elements answered (they have a score) plus elements credited by mention.
    pub fn examined_count(&self) -> u32 {
        let credited = self.count(Coverage::CreditedByMention);
        self.scores.len() as u32 + credited
    }

    /// How many elements have this coverage.
    pub fn count(&self, coverage: Coverage) -> u32 {
        self.coverage.values().filter(|&&c| c == coverage).count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("PA.I.A.K{i}")).collect()
    }

    #[test]
    fn planned_count_is_proportional_clamped_and_capped() {
        let d = PlanDefaults::default();
        let check = |queue, total, expected| {
            assert_eq!(
                planned_question_count(queue, total, &d),
                expected,
                "{queue}/{total}"
            );
        };
        check(292, 292, 75); // full scope gets `full`
        check(146, 292, 38); // ceil(37.5)
        check(7, 292, 5); // clamped up to min
        check(3, 292, 3); // capped at the queue
        check(0, 292, 0);
        let big = PlanDefaults { full: 500, ..d };
        assert_eq!(
            planned_question_count(292, 292, &big),
            120,
            "clamped to max"
        );
    }

    #[test]
    fn overrides_change_the_count() {
        let custom = PlanDefaults {
            full: 10,
            min: 2,
            max: 8,
            bonus_max: 0,
            follow_up_max_per_element: 0,
        };
        assert_eq!(planned_question_count(292, 292, &custom), 8);
        assert_eq!(planned_question_count(30, 292, &custom), 2);
        assert_eq!(PlanDefaults::default().bonus_max, 2);
        assert_eq!(PlanDefaults::default().follow_up_max_per_element, 1);
    }

    #[test]
    fn stop_condition_counts_bonus_questions() {
        let mut plan = ExamPlan::new(&codes(7), 292, &PlanDefaults::default());
        assert_eq!(plan.planned_question_count, 5);
        for code in &codes(4) {
            plan.mark_asked(code);
            assert_eq!(
                plan.record_score(code, Score::Satisfactory, false),
                NextStep::Ask(QuestionKind::Primary)
            );
        }
        plan.mark_asked("PA.I.A.K5");
        assert_eq!(
            plan.record_score("PA.I.A.K5", Score::Unsatisfactory, false),
            NextStep::Ask(QuestionKind::Bonus)
        );
        assert!(!plan.quota_reached(), "5 asked < 5 planned + 1 bonus");
        assert_eq!(plan.mark_asked("PA.I.A.K6"), QuestionKind::Bonus);
        assert_eq!(
            plan.record_score("PA.I.A.K6", Score::Satisfactory, false),
            NextStep::Finish
        );
    }

    #[test]
    fn bonus_questions_are_bounded() {
        let mut plan = ExamPlan::new(&codes(20), 40, &PlanDefaults::default());
        let mut granted = 0;
        for code in codes(4) {
            plan.mark_asked(&code);
            if plan.record_score(&code, Score::Unsatisfactory, false)
                == NextStep::Ask(QuestionKind::Bonus)
            {
                granted += 1;
            }
        }
        assert_eq!(granted, 2);
        assert_eq!(plan.bonus_used, 2);
    }

    #[test]
    fn follow_ups_are_bounded_per_element() {
        let mut plan = ExamPlan::new(&codes(7), 292, &PlanDefaults::default());
        plan.mark_asked("PA.I.A.K1");
        assert_eq!(
            plan.record_score("PA.I.A.K1", Score::Partial, false),
            NextStep::FollowUp
        );
        plan.mark_follow_up("PA.I.A.K1");
        assert_eq!(
            plan.record_score("PA.I.A.K1", Score::Partial, false),
            NextStep::Ask(QuestionKind::Primary)
        );
        assert_eq!(plan.asked_count, 1, "follow-ups are not new elements");
    }

    #[test]
    fn an_answer_drawn_out_gets_a_follow_up_within_the_bound_before_it_is_scored() {
        use NextStep::*;
        // (score, drawn out, follow-ups used) -> next step, bonus granted
        let table = [
            (Score::Unsatisfactory, true, 0, FollowUp, 0),
            (Score::Partial, true, 0, FollowUp, 0),
            (Score::Partial, false, 0, FollowUp, 0),
            (Score::Unsatisfactory, false, 0, Ask(QuestionKind::Bonus), 1),
            (Score::Unsatisfactory, true, 1, Ask(QuestionKind::Bonus), 1),
            (Score::Satisfactory, true, 0, Ask(QuestionKind::Primary), 0),
        ];
        for (score, drawn_out, used, expected, bonus) in table {
            let mut plan = ExamPlan::new(&codes(7), 292, &PlanDefaults::default());
            plan.mark_asked("PA.I.A.K1");
            for _ in 0..used {
                plan.mark_follow_up("PA.I.A.K1");
            }
            let next = plan.record_score("PA.I.A.K1", score, drawn_out);
            let case = format!("{score:?} drawn out {drawn_out}, {used} used");
            assert_eq!((next, plan.bonus_used), (expected, bonus), "{case}");
        }
    }

    #[test]
    fn mention_credit_touches_only_pending_elements() {
        let mut plan = ExamPlan::new(&codes(5), 292, &PlanDefaults::default());
        plan.mark_asked("PA.I.A.K1");
        let mentioned = ["PA.I.A.K1", "PA.I.A.K2", "PA.X.A.K9"].map(String::from);
        assert_eq!(
            plan.credit_mentions(&mentioned),
            vec!["PA.I.A.K2".to_owned()]
        );
        assert_eq!(plan.coverage["PA.I.A.K1"], Coverage::Asked);
        assert_eq!(plan.coverage["PA.I.A.K2"], Coverage::CreditedByMention);
        assert!(!plan.coverage.contains_key("PA.X.A.K9"));
        assert!(
            plan.credit_mentions(&mentioned).is_empty(),
            "credit is given once"
        );
        assert_eq!(plan.examined_count(), 1);
    }

    #[test]
    fn close_skips_what_is_left() {
        let mut plan = ExamPlan::new(&codes(3), 292, &PlanDefaults::default());
        plan.mark_asked("PA.I.A.K1");
        plan.close();
        assert_eq!(plan.count(Coverage::Skipped), 2);
        assert_eq!(plan.count(Coverage::Asked), 1);
    }

    #[test]
    fn coverage_names_round_trip() {
        for coverage in [
            Coverage::Pending,
            Coverage::Asked,
            Coverage::CreditedByMention,
            Coverage::Skipped,
        ] {
            assert_eq!(Coverage::parse(coverage.as_str()), Some(coverage));
        }
    }
}
