//! The tutor's retrieval against a labelled query set (`bench/tutor/queries.yaml`: what
//! students might say about one unit of a course, or about nothing in it): recall@1 and
//! recall@3 of the unit mapping, how often the top unit clears the policy's 0.55 threshold
//! and is then right, and how often an off-course query is (wrongly) mapped with
//! confidence. The baseline, in the same run: a keyword match on unit titles alone.
//!
//! Run with `cargo bench -p viva-core --bench retrieval`.

mod common;

use common::{blueprints, sources};
use serde::Deserialize;
use viva_blueprint::course::CourseSet;
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
fn title_match(course: &viva_blueprint::course::Course, text: &str) -> Vec<(String, f64)> {
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

fn main() {
    let root = blueprints();
    let skills = BlueprintLibrary::load(&sources(&root.join("skills")), &[]).expect("skills");
    let courses = CourseSet::load(&sources(&root.join("courses")), &skills, &|_| true);
    let courses = courses.expect("courses");
    let path = root.join("../bench/tutor/queries.yaml");
    let source = Source {
        text: std::fs::read_to_string(&path).expect("bench/tutor/queries.yaml"),
        path: path.display().to_string(),
    };
    let file: QueryFile = parse(&source).expect("the query set parses");
    let mut bm25_all = Tally::default();
    let mut baseline_all = Tally::default();
    for course in courses.iter() {
        let index = UnitIndex::build(course);
        let (mut bm25, mut baseline) = (Tally::default(), Tally::default());
        for query in file
            .queries
            .iter()
            .filter(|q| q.course_id == course.doc.course_id)
        {
            let mapped: Vec<(String, f64)> = index
                .map(&query.text)
                .into_iter()
                .map(|m| (m.unit, m.confidence))
                .collect();
            let label = query.unit.as_deref();
            bm25.add(&mapped, label);
            bm25_all.add(&mapped, label);
            let titles = title_match(course, &query.text);
            baseline.add(&titles, label);
            baseline_all.add(&titles, label);
        }
        bm25.print(&format!("{} BM25", course.doc.course_id));
        baseline.print(&format!("{} titles", course.doc.course_id));
    }
    bm25_all.print("all courses, BM25");
    baseline_all.print("all courses, titles (baseline)");
}
