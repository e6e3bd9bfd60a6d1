//! ACS element and task records, parsed from the FAA ACS JSON in `blueprints/acs/`.

use std::cmp::Ordering;
use std::collections::HashMap;

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use viva_blueprint::rubric::{ElementRubric, Question, RubricSet};
use viva_blueprint::scenario::{LinkSet, ScenarioSet};

use super::examiner::judge::PreparedRubric;

/// Which certificate an exam is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rating {
    /// Private Pilot – Airplane (FAA-S-ACS-6C).
    Private,
    /// Commercial Pilot – Airplane (FAA-S-ACS-7B).
    Commercial,
}

impl Rating {
    /// The rating's name as the ACS JSON spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Rating::Private => "private",
            Rating::Commercial => "commercial",
        }
    }

    /// Parses `"private"` or `"commercial"`.
    pub fn parse(s: &str) -> Option<Rating> {
        match s {
            "private" => Some(Rating::Private),
            "commercial" => Some(Rating::Commercial),
            _ => None,
        }
    }
}

/// The kind of an ACS element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElementType {
    /// `K`: knowledge the applicant must explain.
    Knowledge,
    /// `R`: a risk the applicant must identify, assess and mitigate.
    Risk,
    /// `S`: a flight skill, demonstrated in the airplane (never asked orally).
    Skill,
}

/// A sub-element of an element, such as `PA.I.B.K1a`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SubElement {
    /// The sub-element code.
    pub code: String,
    /// Its text.
    pub text: String,
}

/// One ACS element, as stored in `acs-*-airplane.json`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct AcsElement {
    /// Unique code, `XX.<roman area>.<task letter>.<K|R|S><n>`.
    pub code: String,
    /// `private` or `commercial`.
    pub rating: String,
    /// Roman numeral of the area of operation.
    pub area: String,
    /// Title of the area of operation.
    pub area_title: String,
    /// Task letter.
    pub task: String,
    /// Title of the task.
    pub task_title: String,
    /// Knowledge, risk or skill.
    #[serde(rename = "type")]
    pub element_type: ElementType,
    /// The element's own text.
    pub text: String,
    /// The task code, such as `PA.I.A`.
    pub task_code: String,
    /// The element number within its type.
    pub num: u32,
    /// Sub-elements, possibly empty.
    #[serde(default)]
    pub sub_elements: Vec<SubElement>,
    /// Whether the element was archived in this ACS edition.
    #[serde(default)]
    pub archived: bool,
    /// Aircraft classes the element applies to (`ASEL`, `AMEL`, `ASES`, `AMES`).
    pub applicable_classes: Vec<String>,
    /// The task's document-level references (14 CFR parts, handbooks, AIM).
    #[serde(default)]
    pub task_references: Vec<String>,
}

/// One ACS task, as stored in `acs-*-airplane-tasks.json`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct AcsTask {
    /// The task code, such as `PA.I.A`.
    pub task_code: String,
    /// Roman numeral of the area of operation.
    pub area: String,
    /// Title of the area of operation.
    pub area_title: String,
    /// Title of the task.
    pub task_title: String,
    /// The task objective.
    #[serde(default)]
    pub objective: String,
    /// The task's references.
    #[serde(default)]
    pub references: Vec<String>,
}

/// Errors loading ACS data. Terminal: the server cannot start without its data.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AcsError {
    /// A JSON document did not parse.
    #[error("ACS {what} JSON is malformed: {source}")]
    Json {
        /// Which document.
        what: &'static str,
        /// The parse error.
        source: serde_json::Error,
    },
    /// Two elements share a code.
    #[error("duplicate ACS element code {0}")]
    DuplicateCode(String),
    /// A code does not follow `XX.<roman>.<letter>.<K|R|S><n>`.
    #[error("malformed ACS element code {0}")]
    MalformedCode(String),
}

/// All elements and tasks of one rating, indexed by code.
#[derive(Debug, Clone)]
pub struct AcsCatalog {
    rating: Rating,
    elements: Vec<AcsElement>,
    by_code: HashMap<String, usize>,
    tasks: HashMap<String, AcsTask>,
}

impl AcsCatalog {
    /// Parses the element and task JSON documents of one rating.
    pub fn from_json(
        rating: Rating,
        elements_json: &str,
        tasks_json: &str,
    ) -> Result<AcsCatalog, AcsError> {
        let elements: Vec<AcsElement> =
            serde_json::from_str(elements_json).map_err(|source| AcsError::Json {
                what: "elements",
                source,
            })?;
        let tasks: Vec<AcsTask> =
            serde_json::from_str(tasks_json).map_err(|source| AcsError::Json {
                what: "tasks",
                source,
            })?;
        let mut by_code = HashMap::with_capacity(elements.len());
        for (index, element) in elements.iter().enumerate() {
            if CodeKey::parse(&element.code).is_none() {
                return Err(AcsError::MalformedCode(element.code.clone()));
            }
            if by_code.insert(element.code.clone(), index).is_some() {
                return Err(AcsError::DuplicateCode(element.code.clone()));
            }
        }
        let tasks = tasks
            .into_iter()
            .map(|task| (task.task_code.clone(), task))
            .collect();
        Ok(AcsCatalog {
            rating,
            elements,
            by_code,
            tasks,
        })
    }

    /// The rating this catalog covers.
    pub fn rating(&self) -> Rating {
        self.rating
    }

    /// Every element, in document order.
    pub fn elements(&self) -> &[AcsElement] {
        &self.elements
    }

    /// The element with this code.
    pub fn element(&self, code: &str) -> Option<&AcsElement> {
        self.by_code.get(code).map(|&index| &self.elements[index])
    }

    /// The task with this code.
    pub fn task(&self, task_code: &str) -> Option<&AcsTask> {
        self.tasks.get(task_code)
    }
}

/// The ACS catalogs of every rating the server examines, the rubrics of their elements,
/// the scenarios that thread them and the links between them.
#[derive(Debug, Clone)]
pub struct AcsLibrary {
    private: AcsCatalog,
    commercial: AcsCatalog,
    rubrics: BTreeMap<String, LazyRubric>,
    scenarios: ScenarioSet,
    links: LinkSet,
}

/// A rubric, prepared for judging the first time it is needed (so start-up stays quick).
#[derive(Debug, Clone)]
struct LazyRubric {
    rubric: ElementRubric,
    prepared: OnceLock<PreparedRubric>,
}

impl AcsLibrary {
    /// A library of the two airplane catalogs.
    pub fn new(private: AcsCatalog, commercial: AcsCatalog) -> AcsLibrary {
        AcsLibrary {
            private,
            commercial,
            rubrics: BTreeMap::new(),
            scenarios: ScenarioSet::default(),
            links: LinkSet::default(),
        }
    }

    /// The library with these scenarios (checked against its rubrics when loaded).
    pub fn with_scenarios(self, scenarios: ScenarioSet) -> AcsLibrary {
        AcsLibrary { scenarios, ..self }
    }

    /// The library with these links between elements.
    pub fn with_links(self, links: LinkSet) -> AcsLibrary {
        AcsLibrary { links, ..self }
    }

    /// Every scenario.
    pub fn scenarios(&self) -> &ScenarioSet {
        &self.scenarios
    }

    /// Every link between elements.
    pub fn links(&self) -> &LinkSet {
        &self.links
    }

    /// The question `asked` on `element`, with the facts it expects: one of the rubric's
    /// questions, else a scenario's (the words asked end with the question's; a bonus
    /// question, a setup or a bridge may come before).
    pub fn asked_question(&self, element: &str, asked: &str) -> Option<Question> {
        let rubric = self.rubric(element)?;
        let own = super::examiner::rubric_exam::asked_question(rubric, asked).cloned();
        own.or_else(|| self.scenarios.asked_question(element, asked))
    }

    /// The library with these rubrics (by element code, both ratings); each is prepared
    /// for judging once, when first needed.
    pub fn with_rubrics(self, rubrics: RubricSet) -> AcsLibrary {
        let rubrics = rubrics
            .iter()
            .map(|rubric| {
                let lazy = LazyRubric {
                    rubric: rubric.clone(),
                    prepared: OnceLock::new(),
                };
                (rubric.element.clone(), lazy)
            })
            .collect();
        AcsLibrary { rubrics, ..self }
    }

    /// The rating whose catalog holds `element_code`.
    pub fn rating_of(&self, element_code: &str) -> Option<Rating> {
        [Rating::Private, Rating::Commercial]
            .into_iter()
            .find(|rating| self.catalog(*rating).element(element_code).is_some())
    }

    /// The rubric of an element, if it has one.
    pub fn rubric(&self, element_code: &str) -> Option<&ElementRubric> {
        self.rubrics.get(element_code).map(|lazy| &lazy.rubric)
    }

    /// The rubric of an element prepared for judging, if it has one.
    pub fn prepared(&self, element_code: &str) -> Option<&PreparedRubric> {
        let lazy = self.rubrics.get(element_code)?;
        Some(
            lazy.prepared
                .get_or_init(|| PreparedRubric::new(lazy.rubric.clone())),
        )
    }

    /// The catalog of a rating.
    pub fn catalog(&self, rating: Rating) -> &AcsCatalog {
        match rating {
            Rating::Private => &self.private,
            Rating::Commercial => &self.commercial,
        }
    }
}

/// Sort key giving ACS codes their natural order: area by Roman value, then task letter,
/// then K before R before S, then element number as a number (`K2` before `K10`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CodeKey {
    prefix: String,
    area: u32,
    task: String,
    kind: char,
    num: u32,
}

impl CodeKey {
    /// Parses `XX.<roman>.<letter>.<K|R|S><n>`; `None` if the code is malformed.
    pub fn parse(code: &str) -> Option<CodeKey> {
        let mut parts = code.split('.');
        let prefix = parts.next()?.to_owned();
        let area = roman_value(parts.next()?)?;
        let task = parts.next()?.to_owned();
        let element = parts.next()?;
        if parts.next().is_some() {
            return None;
        }
        let kind = element.chars().next()?;
        let num = element.get(1..)?.parse().ok()?;
        Some(CodeKey {
            prefix,
            area,
            task,
            kind,
            num,
        })
    }
}

/// Compares two element codes in natural order; malformed codes sort last, by string.
pub fn compare_codes(a: &str, b: &str) -> Ordering {
    match (CodeKey::parse(a), CodeKey::parse(b)) {
        (Some(ka), Some(kb)) => ka.cmp(&kb),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// The value of a Roman numeral from I to XXXIX; `None` for anything else.
pub fn roman_value(numeral: &str) -> Option<u32> {
    if numeral.is_empty() {
        return None;
    }
    let mut total = 0u32;
    let mut previous = 0u32;
    for ch in numeral.chars().rev() {
        let value = match ch {
            'I' => 1,
            'V' => 5,
            'X' => 10,
            _ => return None,
        };
        if value < previous {
            total = total.checked_sub(value)?;
        } else {
            total += value;
            previous = value;
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roman_values() {
        let cases = [("I", 1), ("IV", 4), ("V", 5), ("IX", 9), ("XII", 12)];
        for (numeral, expected) in cases {
            assert_eq!(roman_value(numeral), Some(expected), "{numeral}");
        }
        assert_eq!(roman_value("Q"), None);
        assert_eq!(roman_value(""), None);
    }

    #[test]
    fn natural_code_order() {
        let check = |a: &str, b: &str| assert_eq!(compare_codes(a, b), Ordering::Less, "{a} < {b}");
        check("PA.I.A.K2", "PA.I.A.K10");
        check("PA.I.A.K5", "PA.I.A.R1");
        check("PA.IX.A.K1", "PA.X.A.K1");
        check("PA.II.A.K1", "PA.IV.A.K1");
        check("PA.I.A.S9", "PA.I.B.K1");
    }

    #[test]
    fn malformed_codes_are_rejected() {
        for code in ["", "PA", "PA.I.A", "PA.I.A.K", "PA.Q.A.K1", "PA.I.A.K1.x"] {
            assert!(CodeKey::parse(code).is_none(), "{code}");
        }
    }
}
