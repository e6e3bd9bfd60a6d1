//! The tutor's retrieval against a labelled query set (`bench/tutor/queries.yaml`: what
//! students might say about one unit of a course, or about nothing in it): recall@1 and
//! recall@3 of the unit mapping, how often the top unit clears the policy's 0.55 threshold
//! and is then right, and how often an off-course query is (wrongly) mapped with
//! confidence. The baseline, in the same run: a keyword match on unit titles alone.
//!
//! Then the held-out tie cases (`bench/tutor/ties.yaml`, issue 33: messages several units
//! hold alike): how often the top unit is the labelled one, how often a message that names
//! its unit whole is mapped to it confidently, and how often one whose words are shared is
//! mapped confidently anyway. Each query is a cold-start student's (focus: the course's
//! entry unit) unless it names a focus.
//!
//! Run with `cargo bench -p viva-core --bench retrieval`.

mod common;

use common::{blueprints, sources};
use serde::Deserialize;
use viva_blueprint::course::{Course, CourseSet};
use viva_blueprint::library::{BlueprintLibrary, Source, parse};
use viva_core::tutor::bm25::content_words;
use viva_core::tutor::policy::TARGET_CONFIDENCE;
use viva_core::tutor::retrieval::UnitIndex;

#[derive(Deserialize)]
struct QueryFile {
    queries: Vec<Query>,
}

#[derive(Deserialize)]
struct Query {
    course_id: String,
    text: String,
    unit: Option<String>,
    /// The student's focus (the course's entry unit when absent).
    #[serde(default)]
    focus: Option<String>,
    /// Tie cases: the message names its unit's whole title or one of its own tags.
    #[serde(default)]
    named: bool,
}

/// Counts over one set of queries.
#[derive(Default)]
struct Tally {
    on_course: usize,
    top1: usize,
    top3: usize,
    confident: usize,
    confident_right: usize,
    off_course: usize,
    off_mapped: usize,
}

impl Tally {
    fn add(&mut self, ranked: &[(String, f64)], label: Option<&str>) {
        let confident = ranked.first().filter(|(_, c)| *c >= TARGET_CONFIDENCE);
        let Some(unit) = label else {
            self.off_course += 1;
            self.off_mapped += usize::from(confident.is_some());
            return;
        };
        self.on_course += 1;
        let position = ranked.iter().position(|(u, _)| u == unit);
        self.top1 += usize::from(position == Some(0));
        self.top3 += usize::from(position.is_some_and(|p| p < 3));
        if let Some((top, _)) = confident {
            self.confident += 1;
            self.confident_right += usize::from(top == unit);
        }
    }

    fn print(&self, name: &str) {
        let pct = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
        println!(
            "{name:<26} recall@1 {:>5.1}%  recall@3 {:>5.1}%  confident {:>5.1}% (right {:>5.1}%)  off-course mapped {}/{}",
            pct(self.top1, self.on_course),
            pct(self.top3, self.on_course),
            pct(self.confident, self.on_course),
            pct(self.confident_right, self.confident),
            self.off_mapped,
            self.off_course,
        );
    }
}

/// The baseline: units ranked by how many of the query's words their title holds.
fn title_match(course: &Course, text: &str) -> Vec<(String, f64)> {
    let words = content_words(text);
    let mut ranked: Vec<(String, f64)> = course
        .doc
        .units
        .iter()
        .map(|unit| {
            let title = content_words(&unit.title);
            let shared = words.iter().filter(|w| title.contains(w)).count();
            (
                unit.unit_id.clone(),
                shared as f64 / words.len().max(1) as f64,
            )
        })
        .filter(|(_, score)| *score > 0.0)
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked
}

/// Counts over the tie cases.
#[derive(Default)]
struct Ties {
    queries: usize,
    top1: usize,
    named: usize,
    named_confident_right: usize,
    shared: usize,
    shared_confident: usize,
}

impl Ties {
    fn add(&mut self, ranked: &[(String, f64)], query: &Query) {
        let top = ranked.first();
        let right = top.is_some_and(|(unit, _)| Some(unit) == query.unit.as_ref());
        let confident = top.is_some_and(|(_, c)| *c >= TARGET_CONFIDENCE);
        self.queries += 1;
        self.top1 += usize::from(right);
        if query.named {
            self.named += 1;
            self.named_confident_right += usize::from(confident && right);
        } else {
            self.shared += 1;
            self.shared_confident += usize::from(confident);
        }
    }

    fn print(&self) {
        println!(
            "tie cases (held out)      top unit right {}/{}  named: confident and right {}/{}  shared: confident {}/{}",
            self.top1,
            self.queries,
            self.named_confident_right,
            self.named,
            self.shared_confident,
            self.shared,
        );
    }
}

fn load_queries(path: &std::path::Path) -> Vec<Query> {
    let source = Source {
        text: std::fs::read_to_string(path).expect("a query file"),
        path: path.display().to_string(),
    };
    let file: QueryFile = parse(&source).expect("the query set parses");
    file.queries
}

fn mapped(course: &Course, index: &UnitIndex, query: &Query) -> Vec<(String, f64)> {
    let focus = query.focus.as_deref().unwrap_or(&course.doc.entry_unit);
    index
        .map(&query.text, focus)
        .into_iter()
        .map(|m| (m.unit, m.confidence))
        .collect()
}

fn main() {
    let root = blueprints();
    let skills = BlueprintLibrary::load(&sources(&root.join("skills")), &[]).expect("skills");
    let courses = CourseSet::load(&sources(&root.join("courses")), &skills, &|_| true);
    let courses = courses.expect("courses");
    let queries = load_queries(&root.join("../bench/tutor/queries.yaml"));
    let ties = load_queries(&root.join("../bench/tutor/ties.yaml"));
    let mut bm25_all = Tally::default();
    let mut baseline_all = Tally::default();
    let mut tie_tally = Ties::default();
    for course in courses.iter() {
        let index = UnitIndex::build(course);
        let (mut bm25, mut baseline) = (Tally::default(), Tally::default());
        let of_course = |q: &&Query| q.course_id == course.doc.course_id;
        for query in queries.iter().filter(of_course) {
            let mapped = mapped(course, &index, query);
            let label = query.unit.as_deref();
            bm25.add(&mapped, label);
            bm25_all.add(&mapped, label);
            let titles = title_match(course, &query.text);
            baseline.add(&titles, label);
            baseline_all.add(&titles, label);
        }
        bm25.print(&format!("{} BM25", course.doc.course_id));
        baseline.print(&format!("{} titles", course.doc.course_id));
        for query in ties.iter().filter(of_course) {
            tie_tally.add(&mapped(course, &index, query), query);
        }
    }
    bm25_all.print("all courses, BM25");
    baseline_all.print("all courses, titles (baseline)");
    tie_tally.print();
}
