//! The ACS element data and the shipped rubrics, for building satisfactory and
//! mention-crediting answers.

use std::sync::OnceLock;

use serde::Deserialize;
use viva_blueprint::library::Source;
use viva_blueprint::rubric::RubricSet;

const ACS_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/blueprints/acs/acs-private-airplane.json"
);

/// An answer the deterministic assessor scores unsatisfactory (no key term of any element).
pub const UNSATISFACTORY_ANSWER: &str = "I don't know.";

#[derive(Deserialize)]
struct Element {
    code: String,
    text: String,
    task_code: String,
    sub_elements: Vec<SubElement>,
    oral_eligible: bool,
    archived: bool,
    applicable_classes: Vec<String>,
}

#[derive(Deserialize)]
struct SubElement {
    text: String,
}

fn elements() -> &'static [Element] {
    static ELEMENTS: OnceLock<Vec<Element>> = OnceLock::new();
    ELEMENTS.get_or_init(|| {
        let json = std::fs::read_to_string(ACS_PATH)
            .unwrap_or_else(|err| panic!("read {ACS_PATH}: {err}"));
        serde_json::from_str(&json).unwrap_or_else(|err| panic!("parse {ACS_PATH}: {err}"))
    })
}

fn element(code: &str) -> &'static Element {
    elements()
        .iter()
        .find(|element| element.code == code)
        .unwrap_or_else(|| panic!("{code} is not an element of {ACS_PATH}"))
}

/// The codes of `task`'s oral elements for an ASEL exam, in ACS order.
pub fn oral_elements(task: &str) -> Vec<&'static str> {
    elements()
        .iter()
        .filter(|e| e.task_code == task && e.oral_eligible && !e.archived)
        .filter(|e| e.applicable_classes.iter().any(|class| class == "ASEL"))
        .map(|e| e.code.as_str())
        .collect()
}

/// A correct, complete answer: every fact claim of the element's rubric (which the examiner
/// judges by); for an element without a rubric, its text and all its sub-elements' texts
/// (full key-term coverage).
pub fn satisfactory_answer(code: &str) -> String {
    if let Some(rubric) = rubrics().get(code) {
        let claims: Vec<&str> = rubric.facts.iter().map(|f| f.claim.as_str()).collect();
        return claims.join(" ");
    }
    let element = element(code);
    let mut answer = element.text.clone();
    for sub in &element.sub_elements {
        answer.push(' ');
        answer.push_str(&sub.text);
    }
    answer
}

/// A short correct answer to `question` (a `question` event), short enough to say in one
/// voice turn: the claims of the facts the rubric question asked for (the element's core
/// facts when the words are not a rubric question's).
pub fn short_answer(question: &serde_json::Value) -> String {
    let code = question["element_code"].as_str().unwrap_or_default();
    let asked = question["text"].as_str().unwrap_or_default();
    let Some(rubric) = rubrics().get(code) else {
        return satisfactory_answer(code);
    };
    let ids = rubric
        .questions
        .iter()
        .find(|q| asked.ends_with(q.ask.trim()))
        .map_or(&rubric.satisfactory, |q| &q.facts);
    let claims: Vec<&str> = rubric
        .facts
        .iter()
        .filter(|f| ids.contains(&f.id))
        .map(|f| f.claim.as_str())
        .collect();
    claims.join(" ")
}

/// Every rubric under `blueprints/rubrics/` (both ratings, and the shared domains).
pub fn rubrics() -> &'static RubricSet {
    static RUBRICS: OnceLock<RubricSet> = OnceLock::new();
    RUBRICS.get_or_init(|| {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/blueprints/rubrics"));
        let mut paths = Vec::new();
        yaml_files(dir, &mut paths);
        let mut sources: Vec<Source> = paths
            .into_iter()
            .map(|path| Source {
                text: std::fs::read_to_string(&path).expect("a rubric file"),
                path: path.display().to_string(),
            })
            .collect();
        sources.sort_by(|a, b| a.path.cmp(&b.path));
        RubricSet::load(&sources).unwrap_or_else(|errors| panic!("rubrics: {errors:?}"))
    })
}

/// Every `.yaml` file under `dir`, at any depth.
fn yaml_files(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|err| panic!("list {}: {err}", dir.display()));
    for path in entries.map(|entry| entry.expect("a directory entry").path()) {
        if path.is_dir() {
            yaml_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "yaml") {
            found.push(path);
        }
    }
}

/// The wordiest oral element of `task` not in `exclude`: the best element to credit by mention.
pub fn mention_target(task: &str, exclude: &[&str]) -> &'static str {
    oral_elements(task)
        .into_iter()
        .filter(|code| !exclude.contains(code))
        .max_by_key(|code| satisfactory_answer(code).split_whitespace().count())
        .unwrap_or_else(|| panic!("{task} has no element outside {exclude:?}"))
}
