//! `StudentSnapshot`: what the tutor knows of one student in one course. Sparse: a unit the
//! student never touched has no entry and reads as untouched. A new student starts focused
//! on the course's entry unit.

use std::collections::BTreeMap;

/// A unit's mastery tier, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Tier {
    /// Not yet passed at any tier.
    #[default]
    None,
    /// The first exam tier.
    Bronze,
    /// The second.
    Silver,
    /// The top tier.
    Gold,
}

impl Tier {
    /// Every tier, lowest first.
    pub const ALL: [Tier; 4] = [Tier::None, Tier::Bronze, Tier::Silver, Tier::Gold];

    /// The tier named `name` (`none`, `bronze`, `silver`, `gold`).
    pub fn parse(name: &str) -> Option<Tier> {
        Tier::ALL.into_iter().find(|tier| tier.as_str() == name)
    }

    /// The tier above this one (`None` above gold).
    pub fn next(self) -> Option<Tier> {
        match self {
            Tier::None => Some(Tier::Bronze),
            Tier::Bronze => Some(Tier::Silver),
            Tier::Silver => Some(Tier::Gold),
            Tier::Gold => None,
        }
    }

    /// How much a unit at this tier still needs work (priority's tier need).
    pub fn need(self) -> f64 {
        match self {
            Tier::None => 1.0,
            Tier::Bronze => 0.7,
            Tier::Silver => 0.4,
            Tier::Gold => 0.1,
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::None => "none",
            Tier::Bronze => "bronze",
            Tier::Silver => "silver",
            Tier::Gold => "gold",
        }
    }
}

/// One unit's progress.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnitProgress {
    /// The mastery tier reached.
    pub tier: Tier,
    /// Drills attempted at the current tier.
    pub drill_attempts: u32,
    /// Drills answered right in a row (a wrong one resets it).
    pub drill_streak: u32,
    /// When the student last worked on the unit, ms since the epoch.
    pub last_touched_ms: Option<u64>,
    /// An exam question of the unit was answered or its memo viewed.
    pub exam_touched: bool,
}

impl UnitProgress {
    /// Started and not yet at gold: the unit is in progress.
    pub fn in_progress(&self) -> bool {
        self.last_touched_ms.is_some() && self.tier != Tier::Gold
    }
}

/// What the tutor knows of one student in one course.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudentSnapshot {
    /// The student.
    pub user_id: String,
    /// The course.
    pub course_id: String,
    /// The unit the student is working towards.
    pub focus_unit: String,
    /// Progress per touched unit.
    pub units: BTreeMap<String, UnitProgress>,
    /// Exam questions locked for this student: question id → locked until, ms since the
    /// epoch. Viva's own lockouts, authoritative on every node.
    pub locks: BTreeMap<String, u64>,
    /// Units to come back to (a wrong exam answer), oldest first.
    pub revisit: Vec<String>,
}

impl StudentSnapshot {
    /// A new student: nothing touched, focused on the course's entry unit.
    pub fn cold_start(user_id: &str, course_id: &str, entry_unit: &str) -> StudentSnapshot {
        StudentSnapshot {
            user_id: user_id.to_owned(),
            course_id: course_id.to_owned(),
            focus_unit: entry_unit.to_owned(),
            units: BTreeMap::new(),
            locks: BTreeMap::new(),
            revisit: Vec::new(),
        }
    }

    /// A unit's progress; an untouched unit's is the default.
    pub fn unit(&self, unit_id: &str) -> UnitProgress {
        self.units.get(unit_id).cloned().unwrap_or_default()
    }

    /// A unit's tier.
    pub fn tier(&self, unit_id: &str) -> Tier {
        self.units.get(unit_id).map_or(Tier::None, |u| u.tier)
    }

    /// The units in progress, most recently touched first (ties by id).
    pub fn in_progress(&self) -> Vec<&str> {
        let mut units: Vec<(&str, u64)> = self
            .units
            .iter()
            .filter(|(_, progress)| progress.in_progress())
            .map(|(id, progress)| (id.as_str(), progress.last_touched_ms.unwrap_or(0)))
            .collect();
        units.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        units.into_iter().map(|(id, _)| id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_student_is_focused_on_the_entry_unit_with_nothing_touched() {
        let snapshot = StudentSnapshot::cold_start("ada", "arith", "add");
        assert_eq!(snapshot.focus_unit, "add");
        assert!(snapshot.units.is_empty());
        assert_eq!(snapshot.unit("anything"), UnitProgress::default());
        assert_eq!(snapshot.tier("anything"), Tier::None);
        assert!(snapshot.in_progress().is_empty());
    }

    #[test]
    fn tiers_are_ordered_with_their_need_and_successor() {
        let cases = [
            (Tier::None, 1.0, Some(Tier::Bronze), "none"),
            (Tier::Bronze, 0.7, Some(Tier::Silver), "bronze"),
            (Tier::Silver, 0.4, Some(Tier::Gold), "silver"),
            (Tier::Gold, 0.1, None, "gold"),
        ];
        for (tier, need, next, name) in cases {
            assert_eq!(
                (tier.need(), tier.next(), tier.as_str()),
                (need, next, name)
            );
        }
        assert!(Tier::None < Tier::Bronze && Tier::Silver < Tier::Gold);
    }

    #[test]
    fn units_in_progress_are_touched_below_gold_most_recent_first() {
        let mut snapshot = StudentSnapshot::cold_start("ada", "arith", "add");
        let touched = |tier, at| UnitProgress {
            tier,
            last_touched_ms: at,
            ..UnitProgress::default()
        };
        snapshot
            .units
            .insert("add".into(), touched(Tier::Bronze, Some(10)));
        snapshot
            .units
            .insert("sub".into(), touched(Tier::None, Some(30)));
        snapshot
            .units
            .insert("mul".into(), touched(Tier::Gold, Some(50)));
        snapshot
            .units
            .insert("div".into(), touched(Tier::None, None));
        snapshot
            .units
            .insert("neg".into(), touched(Tier::Silver, Some(30)));
        assert_eq!(snapshot.in_progress(), ["neg", "sub", "add"]);
    }
}
