//! What a model tutor is grounded in (PF-3.5): the backend retrieves and injects; the model
//! never searches. For one turn, by BM25 over the student's message:
//!
//! - **anchors**: the scoped units' titles and anchors, top [`ANCHORS`];
//! - **chunks**: content of the scoped units, top [`CHUNKS`] within [`CHUNK_WORDS`] words —
//!   the course's written lessons and worked explanations, each rubric fact of the unit's
//!   drill elements (with its source), and the memo of each exam question the student is
//!   locked out of (a memo of a question the student may still take would hand the model
//!   its answer, so it is left out). The target unit's own chunks come first (memos of
//!   locked questions, then the rest in the course's order), whatever the message: the unit being taught is grounded in full, and
//!   turn after turn on one unit its content reads the same, so a model server can keep it
//!   as a cached prefix. The message's best chunks of the other scoped units fill the rest;
//! - **candidates**: the target unit's exam questions at the desired tier that are not
//!   locked, top [`CANDIDATES`], without their keys or memos, listed in the course's order;
//! - **course units**: every unit's id and title, in the course's order, whatever the turn.
//!
//! When the message matches nothing (a card event carries no words), each list keeps the
//! course's order, the target unit first.

use viva_blueprint::course::content::ChunkType;
use viva_blueprint::course::{Course, ExamQuestion};

use super::bm25::Bm25;
use super::policy::Policy;
use super::retrieval::UnitIndex;
use super::snapshot::StudentSnapshot;
use crate::exam::acs::AcsLibrary;

/// Anchors injected.
pub const ANCHORS: usize = 6;
/// Content chunks injected.
pub const CHUNKS: usize = 8;
/// Words of content injected at most: the top chunks that fit (a small model's context is
/// 2,048 tokens; at least one chunk is always sent).
pub const CHUNK_WORDS: usize = 600;
/// Exam candidates injected.
pub const CANDIDATES: usize = 10;

/// One chunk, written or made from the data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroundChunk {
    /// Unique in the course.
    pub chunk_id: String,
    /// The unit.
    pub unit: String,
    /// Its kind.
    pub chunk_type: ChunkType,
    /// Where it comes from: a publication's title, a rubric fact's citation, the course.
    pub source: String,
    /// The section.
    pub section: String,
    /// The text.
    pub text: String,
    /// For an exam-support chunk: its question.
    pub question_id: Option<String>,
}

/// A unit as the model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// The unit.
    pub unit_id: String,
    /// Its title.
    pub title: String,
    /// Its anchor text.
    pub anchor: String,
}

/// An exam question the model may offer, without its key or memo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The question.
    pub question_id: String,
    /// Its unit.
    pub unit_id: String,
    /// Its tier.
    pub tier: String,
    /// Its stem.
    pub stem: String,
    /// Its options.
    pub options: Vec<String>,
}

/// A unit of the course by name only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitTitle {
    /// The unit.
    pub unit_id: String,
    /// Its title.
    pub title: String,
}

/// One turn's grounding.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grounding {
    /// Every unit of the course, in the course's order: the same on every turn, so a model
    /// server can keep it in a cached prefix; the list a model maps a message onto.
    pub course_units: Vec<UnitTitle>,
    /// Scoped units' anchors.
    pub anchors: Vec<Anchor>,
    /// Content chunks.
    pub chunks: Vec<GroundChunk>,
    /// Exam candidates.
    pub candidates: Vec<Candidate>,
}

/// A course's chunks and exam questions, indexed once.
#[derive(Debug, Clone)]
pub struct CourseGrounding {
    chunks: Vec<GroundChunk>,
    chunk_index: Bm25,
    question_index: Bm25,
}

impl CourseGrounding {
    /// Collects and indexes `course`'s chunks: its written content, its rubric facts (from
    /// `acs`) and its memos.
    pub fn build(course: &Course, acs: &AcsLibrary) -> CourseGrounding {
        let mut chunks: Vec<GroundChunk> = written(course);
        chunks.extend(rubric_facts(course, acs));
        chunks.extend(memos(course));
        let fields: Vec<Vec<(&str, f64)>> = chunks
            .iter()
            .map(|c| vec![(c.section.as_str(), 2.0), (c.text.as_str(), 1.0)])
            .collect();
        let questions: Vec<Vec<(&str, f64)>> = course
            .doc
            .exam_questions
            .iter()
            .map(|q| vec![(q.stem.as_str(), 1.0)])
            .collect();
        CourseGrounding {
            chunk_index: Bm25::new(&fields),
            question_index: Bm25::new(&questions),
            chunks,
        }
    }

    /// Every chunk, in order (written, rubric facts, memos).
    pub fn chunks(&self) -> &[GroundChunk] {
        &self.chunks
    }

    /// The grounding of one turn.
    pub fn ground(
        &self,
        (course, units): (&Course, &UnitIndex),
        message: &str,
        policy: &Policy,
        (snapshot, now_ms): (&StudentSnapshot, u64),
    ) -> Grounding {
        Grounding {
            course_units: course_units(course),
            anchors: anchors((course, units), message, &policy.scoped_units),
            chunks: self.pick_chunks(message, policy, (snapshot, now_ms)),
            candidates: self.candidates(course, message, policy, (snapshot, now_ms)),
        }
    }

    fn pick_chunks(
        &self,
        message: &str,
        policy: &Policy,
        (snapshot, now_ms): (&StudentSnapshot, u64),
    ) -> Vec<GroundChunk> {
        let allowed = |index: usize| {
            let chunk = &self.chunks[index];
            policy.scoped_units.contains(&chunk.unit)
                && chunk
                    .question_id
                    .as_ref()
                    .is_none_or(|q| snapshot.locked_for_ms(q, now_ms).is_some())
        };
        let own_of = |kind: fn(ChunkType) -> bool| {
            (0..self.chunks.len()).filter(move |i| {
                let chunk = &self.chunks[*i];
                chunk.unit == policy.target && kind(chunk.chunk_type) && allowed(*i)
            })
        };
        // A locked question's memo first: it explains what the student just got wrong.
        let own = own_of(|kind| kind == ChunkType::ExamSupport)
            .chain(own_of(|kind| kind != ChunkType::ExamSupport));
        let ranked = self
            .chunk_index
            .search(message, allowed)
            .into_iter()
            .map(|h| h.doc);
        let others = policy.scoped_units.iter().filter(|u| **u != policy.target);
        let fill: Vec<usize> = others
            .flat_map(|unit| (0..self.chunks.len()).filter(move |i| self.chunks[*i].unit == *unit))
            .filter(|index| allowed(*index))
            .collect();
        let mut words = 0;
        first_unique(own.chain(ranked).chain(fill), CHUNKS)
            .into_iter()
            .map(|index| &self.chunks[index])
            .take_while(|chunk| {
                let first = words == 0;
                words += chunk.text.split_whitespace().count();
                first || words <= CHUNK_WORDS
            })
            .cloned()
            .collect()
    }

    fn candidates(
        &self,
        course: &Course,
        message: &str,
        policy: &Policy,
        (snapshot, now_ms): (&StudentSnapshot, u64),
    ) -> Vec<Candidate> {
        let Some(tier) = policy.desired_exam_tier else {
            return Vec::new();
        };
        let questions = &course.doc.exam_questions;
        let allowed = |index: usize| {
            let q = &questions[index];
            q.unit == policy.target
                && tier.as_str() == q.tier.as_str()
                && snapshot.locked_for_ms(&q.question_id, now_ms).is_none()
        };
        let ranked = self
            .question_index
            .search(message, allowed)
            .into_iter()
            .map(|h| h.doc);
        let fill = (0..questions.len()).filter(|i| allowed(*i));
        let mut picked = first_unique(ranked.chain(fill), CANDIDATES);
        // The message chose which; the course's order keeps the list the same from turn to
        // turn (a cacheable prompt) whenever the choice is the same.
        picked.sort_unstable();
        picked
            .into_iter()
            .map(|index| candidate(&questions[index]))
            .collect()
    }
}

/// The first `limit` distinct positions of `order`.
fn first_unique(order: impl Iterator<Item = usize>, limit: usize) -> Vec<usize> {
    let mut picked: Vec<usize> = Vec::new();
    for index in order {
        if picked.len() == limit {
            break;
        }
        if !picked.contains(&index) {
            picked.push(index);
        }
    }
    picked
}

fn anchors(
    (course, units): (&Course, &UnitIndex),
    message: &str,
    scoped: &[String],
) -> Vec<Anchor> {
    let ranked: Vec<&str> = units.ranked_among(message, scoped);
    let order = ranked.into_iter().chain(scoped.iter().map(String::as_str));
    let mut picked: Vec<&str> = Vec::new();
    for unit in order {
        if picked.len() < ANCHORS && !picked.contains(&unit) {
            picked.push(unit);
        }
    }
    picked
        .into_iter()
        .filter_map(|id| course.unit(id))
        .map(|unit| Anchor {
            unit_id: unit.unit_id.clone(),
            title: unit.title.clone(),
            anchor: unit.anchor.clone(),
        })
        .collect()
}

fn course_units(course: &Course) -> Vec<UnitTitle> {
    course
        .doc
        .units
        .iter()
        .map(|unit| UnitTitle {
            unit_id: unit.unit_id.clone(),
            title: unit.title.clone(),
        })
        .collect()
}

fn candidate(question: &ExamQuestion) -> Candidate {
    Candidate {
        question_id: question.question_id.clone(),
        unit_id: question.unit.clone(),
        tier: question.tier.as_str().to_owned(),
        stem: question.stem.clone(),
        options: question.options.clone(),
    }
}

fn written(course: &Course) -> Vec<GroundChunk> {
    course
        .content
        .iter()
        .map(|chunk| {
            let source = course
                .sources
                .iter()
                .find(|s| s.source_id == chunk.source_id)
                .map_or_else(|| chunk.source_id.clone(), |s| s.title.clone());
            GroundChunk {
                chunk_id: chunk.chunk_id.clone(),
                unit: chunk.unit.clone(),
                chunk_type: chunk.chunk_type,
                source,
                section: chunk.section.clone(),
                text: chunk.text.clone(),
                question_id: None,
            }
        })
        .collect()
}

/// Each fact of each rubric a unit's drills name, as a chunk citing the fact's source.
fn rubric_facts(course: &Course, acs: &AcsLibrary) -> Vec<GroundChunk> {
    let mut chunks = Vec::new();
    for drill in &course.doc.drills {
        let Some(rubric) = drill.rubric_element.as_ref().and_then(|e| acs.rubric(e)) else {
            continue;
        };
        for fact in &rubric.facts {
            chunks.push(GroundChunk {
                chunk_id: format!("{}-{}-{}", drill.unit, rubric.element, fact.id),
                unit: drill.unit.clone(),
                chunk_type: ChunkType::RubricFact,
                source: fact.source.clone(),
                section: rubric.element.clone(),
                text: fact.claim.clone(),
                question_id: None,
            });
        }
    }
    chunks
}

fn memos(course: &Course) -> Vec<GroundChunk> {
    course
        .doc
        .exam_questions
        .iter()
        .map(|q| GroundChunk {
            chunk_id: format!("memo-{}", q.question_id),
            unit: q.unit.clone(),
            chunk_type: ChunkType::ExamSupport,
            source: format!("{} exam memo", course.doc.title),
            section: q.question_id.clone(),
            text: q.memo.clone(),
            question_id: Some(q.question_id.clone()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::policy::{TurnFacts, policy};
    use crate::tutor::scope::Mapped;
    use crate::tutor::test_courses::Courses;

    const NOW: u64 = 1_700_000_000_000;

    fn turn_policy(course: &Course, snapshot: &StudentSnapshot, unit: &str) -> Policy {
        let mapped = [Mapped {
            unit: unit.into(),
            confidence: 1.0,
        }];
        let facts = TurnFacts {
            mapped: &mapped,
            exam_available: true,
        };
        policy(snapshot, &course.graph, facts)
    }

    #[test]
    fn chunks_come_from_scoped_units_with_rubric_facts_and_only_locked_memos() {
        let courses = Courses::load();
        let course = courses.course("PPL-GROUND");
        let grounding = CourseGrounding::build(course, &courses.acs);
        let units = UnitIndex::build(course);
        let facts = grounding
            .chunks()
            .iter()
            .filter(|c| c.chunk_type == ChunkType::RubricFact);
        assert!(
            facts.count() > 50,
            "the pilot course's drill rubrics are chunks"
        );
        let mut snapshot = StudentSnapshot::cold_start("ada", "PPL-GROUND", "pilot-qualifications");
        let policy = turn_policy(course, &snapshot, "pilot-qualifications");
        let turn = grounding.ground(
            (course, &units),
            "flight review currency",
            &policy,
            (&snapshot, NOW),
        );
        assert!(!turn.chunks.is_empty() && turn.chunks.len() <= CHUNKS);
        assert!(
            turn.chunks
                .iter()
                .all(|c| policy.scoped_units.contains(&c.unit))
        );
        assert!(
            turn.chunks.iter().all(|c| c.question_id.is_none()),
            "no memo of an open question"
        );
        assert!(
            turn.chunks
                .iter()
                .any(|c| c.text.to_lowercase().contains("flight review")),
            "{:?}",
            turn.chunks
        );
        let other_words = grounding.ground(
            (course, &units),
            "what does a private pilot need to carry",
            &policy,
            (&snapshot, NOW),
        );
        let own = |g: &Grounding| -> Vec<String> {
            g.chunks
                .iter()
                .filter(|c| c.unit == policy.target)
                .map(|c| c.chunk_id.clone())
                .collect()
        };
        assert!(!own(&turn).is_empty());
        assert_eq!(
            own(&turn),
            own(&other_words),
            "the target's own content reads the same whatever the message"
        );
        assert_eq!(turn.chunks[0].unit, policy.target, "and comes first");
        let question = &course.doc.exam_questions[0];
        snapshot.lock(&question.question_id, NOW, 1_000);
        let memo = format!("memo-{}", question.question_id);
        let locked = grounding.ground((course, &units), &question.stem, &policy, (&snapshot, NOW));
        assert!(
            locked.chunks.iter().any(|c| c.chunk_id == memo),
            "a locked question's memo may explain it"
        );
    }

    #[test]
    fn candidates_are_the_targets_unlocked_questions_at_the_desired_tier_without_keys() {
        let courses = Courses::load();
        let course = courses.course("ARITHMETIC");
        let grounding = CourseGrounding::build(course, &courses.acs);
        let units = UnitIndex::build(course);
        let mut snapshot = StudentSnapshot::cold_start("ada", "ARITHMETIC", "add-1digit");
        let policy = turn_policy(course, &snapshot, "add-1digit");
        let all = grounding
            .ground((course, &units), "", &policy, (&snapshot, NOW))
            .candidates;
        assert!(all.len() >= 3 && all.len() <= CANDIDATES);
        assert!(
            all.iter()
                .all(|c| c.unit_id == "add-1digit" && c.tier == "bronze")
        );
        let last_stem = &all[all.len() - 1].stem;
        let asked = grounding.ground((course, &units), last_stem, &policy, (&snapshot, NOW));
        assert_eq!(
            asked.candidates, all,
            "the message chooses which, not in what order (a cacheable prompt)"
        );
        assert_eq!(
            (asked.course_units.len(), &asked.course_units[0].unit_id),
            (course.doc.units.len(), &course.doc.units[0].unit_id),
            "every unit of the course, in its order"
        );
        snapshot.lock(&all[0].question_id, NOW, 1_000);
        let fewer = grounding
            .ground((course, &units), "", &policy, (&snapshot, NOW))
            .candidates;
        assert_eq!(
            fewer.len(),
            all.len() - 1,
            "a locked question is no candidate"
        );
        let anchors = grounding
            .ground((course, &units), "", &policy, (&snapshot, NOW))
            .anchors;
        assert_eq!(
            anchors[0].unit_id, "add-1digit",
            "the target comes first without words"
        );
        assert!(anchors.len() <= ANCHORS);
    }
}
