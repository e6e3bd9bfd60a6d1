//! Tutoring content (`blueprints/content/<course>.yaml`): short, sourced chunks per unit —
//! lesson notes and worked explanations — that a model tutor is grounded in (the backend
//! retrieves and injects them; the model never searches). Two more kinds of chunk are made
//! from data the project already holds, never written twice: each rubric fact of a unit's
//! drill elements (`rubric_fact`), and each exam question's memo (`exam_support`).

use std::collections::BTreeSet;

use serde::Deserialize;

use super::model::CourseDoc;
use crate::error::LoadError;
use crate::ids::is_kebab;
use crate::yaml::Errors;

/// Words a written chunk may have.
pub const CHUNK_WORDS: std::ops::RangeInclusive<usize> = 20..=200;

/// A content file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentDoc {
    /// The course the chunks belong to.
    pub course_id: String,
    /// The publications the chunks cite.
    pub sources: Vec<ContentSource>,
    /// The chunks.
    pub chunks: Vec<Chunk>,
}

/// A cited publication.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentSource {
    /// `phak`, `14cfr91`, `viva-worked`.
    pub source_id: String,
    /// Its full title.
    pub title: String,
}

/// One retrievable chunk.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chunk {
    /// Unique in the course.
    pub chunk_id: String,
    /// The unit it teaches.
    pub unit: String,
    /// What kind of chunk.
    pub chunk_type: ChunkType,
    /// The publication it comes from.
    pub source_id: String,
    /// The chapter, section or paragraph.
    pub section: String,
    /// The text (20–200 words).
    pub text: String,
}

/// A chunk's kind (the design document's `chunk_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChunkType {
    /// Lesson notes written from a publication.
    Lesson,
    /// A method with a worked example.
    WorkedExplanation,
    /// A rubric fact of one of the unit's drill elements (made from the rubric).
    RubricFact,
    /// An exam question's memo (made from the course).
    ExamSupport,
}

impl ChunkType {
    /// The name in content files and prompts.
    pub fn as_str(self) -> &'static str {
        match self {
            ChunkType::Lesson => "lesson",
            ChunkType::WorkedExplanation => "worked_explanation",
            ChunkType::RubricFact => "rubric_fact",
            ChunkType::ExamSupport => "exam_support",
        }
    }
}

/// Every error in one parsed content file, against its course (`None`: no such course).
pub fn check_content(
    file: &str,
    text: &str,
    doc: &ContentDoc,
    course: Option<&CourseDoc>,
) -> Vec<LoadError> {
    let mut errors = Errors::new(file, text);
    let Some(course) = course else {
        errors.at("course_id", format!("no course {:?}", doc.course_id));
        return errors.into_found();
    };
    let sources: BTreeSet<&str> = doc.sources.iter().map(|s| s.source_id.as_str()).collect();
    let mut seen = BTreeSet::new();
    for (index, chunk) in doc.chunks.iter().enumerate() {
        let field = |name: &str| format!("chunks[{index}].{name}");
        let mut fault = |name: &str, message: String| errors.at(&field(name), message);
        if !is_kebab(&chunk.chunk_id) || !seen.insert(chunk.chunk_id.as_str()) {
            fault(
                "chunk_id",
                format!("{:?} is not a new kebab-case id", chunk.chunk_id),
            );
        }
        if !course.units.iter().any(|unit| unit.unit_id == chunk.unit) {
            fault("unit", format!("unknown unit {:?}", chunk.unit));
        }
        if !sources.contains(chunk.source_id.as_str()) {
            fault(
                "source_id",
                format!("{:?} is not under sources", chunk.source_id),
            );
        }
        if !matches!(
            chunk.chunk_type,
            ChunkType::Lesson | ChunkType::WorkedExplanation
        ) {
            let kind = chunk.chunk_type.as_str();
            fault(
                "chunk_type",
                format!("{kind} chunks are made from the data, not written"),
            );
        }
        let words = chunk.text.split_whitespace().count();
        if !CHUNK_WORDS.contains(&words) {
            fault("text", format!("{words} words; a chunk has 20 to 200"));
        }
        if chunk.section.trim().is_empty() {
            fault("section", "empty".to_owned());
        }
    }
    errors.into_found()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::{Course, CourseSet};
    use crate::library::{BlueprintLibrary, Source};

    const COURSE: &str = "course_id: C\ntitle: C\nentry_unit: a\nunits:\n  - unit_id: a\n    title: A\n    anchor: An anchor.\n    key_ideas: [One.]\ndrills:\n  - {unit: a, rubric_element: PA.I.A.K1}\nexam_questions:\n  - {question_id: q1, unit: a, tier: bronze, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n  - {question_id: q2, unit: a, tier: bronze, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n  - {question_id: q3, unit: a, tier: bronze, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n  - {question_id: q4, unit: a, tier: silver, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n  - {question_id: q5, unit: a, tier: silver, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n  - {question_id: q6, unit: a, tier: silver, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n  - {question_id: q7, unit: a, tier: gold, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n  - {question_id: q8, unit: a, tier: gold, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n  - {question_id: q9, unit: a, tier: gold, stem: S?, options: [x, y], answer_index: 0, memo: M.}\n";

    fn course() -> Course {
        let source = Source {
            path: "c.yaml".into(),
            text: COURSE.into(),
        };
        let set = CourseSet::load(&[source], &BlueprintLibrary::default(), &|_| true);
        set.expect("the test course loads")
            .get("C")
            .cloned()
            .expect("C")
    }

    fn errors(text: &str) -> Vec<String> {
        let source = Source {
            path: "content.yaml".into(),
            text: text.into(),
        };
        let doc: ContentDoc = crate::library::parse(&source).expect("parses");
        let course = course();
        let found = check_content("content.yaml", text, &doc, Some(&course.doc));
        found
            .iter()
            .map(|e| format!("{} {}", e.field, e.message))
            .collect()
    }

    const WORDS: &str = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty";

    #[test]
    fn a_good_chunk_passes_and_each_rule_names_its_field() {
        let good = format!(
            "course_id: C\nsources:\n  - {{source_id: s, title: S}}\nchunks:\n  - chunk_id: a-1\n    unit: a\n    chunk_type: lesson\n    source_id: s\n    section: One\n    text: {WORDS}\n"
        );
        assert_eq!(errors(&good), Vec::<String>::new());
        let cases = [
            ("unit: a", "unit: zz", "chunks[0].unit unknown unit \"zz\""),
            (
                "source_id: s\n    section",
                "source_id: t\n    section",
                "chunks[0].source_id \"t\" is not under sources",
            ),
            (
                "chunk_type: lesson",
                "chunk_type: rubric_fact",
                "chunks[0].chunk_type rubric_fact chunks are made from the data, not written",
            ),
            (
                "text: one two",
                "text: two",
                "chunks[0].text 19 words; a chunk has 20 to 200",
            ),
            ("section: One", "section: ' '", "chunks[0].section empty"),
        ];
        for (from, to, expected) in cases {
            let bad = good.replacen(from, to, 1);
            assert_eq!(errors(&bad), vec![expected.to_owned()], "{to}");
        }
    }

    #[test]
    fn content_for_an_unknown_course_is_refused() {
        let text = "course_id: NOPE\nsources: []\nchunks: []\n";
        let source = Source {
            path: "x.yaml".into(),
            text: text.into(),
        };
        let doc: ContentDoc = crate::library::parse(&source).expect("parses");
        let found = check_content("x.yaml", text, &doc, None);
        assert_eq!(
            found[0].to_string(),
            "x.yaml:1:12: course_id: no course \"NOPE\""
        );
    }
}
