//! The embedded brain's retrieval: maps a student's message to course units, with a
//! confidence, by BM25 over each unit's title, tags, anchor and key ideas.
//!
//! A course has at most a few dozen units of a few hundred words each, so a small in-memory
//! BM25 is enough (a search library's index, segments and IO would cost more than the
//! search; the benchmark `tutor_turn` measures the whole turn). Titles and tags count three
//! times, the anchor twice, key ideas once.
//!
//! **Ranking** is the BM25 score. **Confidence** is what the policy's 0.55 threshold reads:
//! the share, by inverse document frequency, of the message's course words that the unit
//! covers, times the square root of the share of its content words the course knows at all.
//! So "how do I read a METAR" is confidently the weather unit (1.0); "what documents must
//! be on board for airworthiness" still is (its one course word names the unit); "tell me
//! about the exam" (no word of any unit) maps to nothing; and "weather pizza sandwich cat
//! dog", mostly off the course, stays below the threshold.

use std::collections::HashMap;

use viva_blueprint::course::Course;

use super::scope::Mapped;

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalisation.
const B: f64 = 0.75;
/// Units returned, best first.
pub const MAPPED_MAX: usize = 3;

/// Words that carry no topic ("how do I …", "tell me about …").
#[rustfmt::skip]
const STOPWORDS: &[&str] = &[
    "a", "about", "again", "all", "am", "an", "and", "any", "are", "as", "at", "be", "but",
    "by", "can", "could", "did", "do", "does", "dont", "example", "explain", "figure", "find",
    "for", "from", "get", "give", "go", "got", "had", "has", "have", "help", "how", "i", "if",
    "im", "in", "into", "is", "it", "its", "just", "know", "learn", "let", "like", "make", "me",
    "mean", "means", "more", "must", "my", "need", "new", "next", "no", "not", "now", "of",
    "ok", "okay", "on", "one", "or", "out", "please", "practice", "practise", "question",
    "questions", "read", "say", "should", "show", "so", "some", "something", "study", "teach",
    "tell", "that", "the", "them", "then", "there", "these", "they", "thing", "things", "think",
    "this", "those", "to", "understand", "up", "use", "using", "want", "was", "way", "we",
    "what", "when", "where", "which", "why", "will", "with", "work", "would", "yes", "you",
    "your",
];

/// A course's units, indexed.
#[derive(Debug, Clone)]
pub struct UnitIndex {
    units: Vec<IndexedUnit>,
    /// Inverse document frequency of every word in the course.
    idf: HashMap<String, f64>,
    /// The idf of a word no unit uses: that of the rarest possible word.
    unseen_idf: f64,
    average_length: f64,
}

#[derive(Debug, Clone)]
struct IndexedUnit {
    unit_id: String,
    /// Weighted term frequencies.
    terms: HashMap<String, f64>,
    length: f64,
}

impl UnitIndex {
    /// Indexes every unit of `course`.
    pub fn build(course: &Course) -> UnitIndex {
        let units: Vec<IndexedUnit> = course.doc.units.iter().map(index_unit).collect();
        let count = units.len() as f64;
        let mut document_frequency: HashMap<&str, f64> = HashMap::new();
        for unit in &units {
            for term in unit.terms.keys() {
                *document_frequency.entry(term).or_default() += 1.0;
            }
        }
        let idf_of = |df: f64| ((count - df + 0.5) / (df + 0.5) + 1.0).ln();
        let idf = document_frequency
            .iter()
            .map(|(term, df)| ((*term).to_owned(), idf_of(*df)))
            .collect();
        let total: f64 = units.iter().map(|u| u.length).sum();
        UnitIndex {
            average_length: if units.is_empty() { 1.0 } else { total / count },
            unseen_idf: idf_of(1.0),
            idf,
            units,
        }
    }

    /// The units `message` is about, best first, at most [`MAPPED_MAX`], each with its
    /// confidence in [0, 1]; empty when no unit shares a content word with it.
    pub fn map(&self, message: &str) -> Vec<Mapped> {
        let query = content_words(message);
        let known: Vec<&String> = query.iter().filter(|w| self.idf.contains_key(*w)).collect();
        let known_weight: f64 = known.iter().map(|word| self.idf_of(word)).sum();
        if known.is_empty() || known_weight <= 0.0 {
            return Vec::new();
        }
        let known_share = (known.len() as f64 / query.len() as f64).sqrt();
        let mut scored: Vec<(f64, Mapped)> = self
            .units
            .iter()
            .filter_map(|unit| {
                let score = self.bm25(unit, &query);
                (score > 0.0).then(|| {
                    let covered: f64 = known
                        .iter()
                        .filter(|word| unit.terms.contains_key(word.as_str()))
                        .map(|word| self.idf_of(word))
                        .sum();
                    let confidence = covered / known_weight * known_share;
                    let mapped = Mapped {
                        unit: unit.unit_id.clone(),
                        confidence: confidence.clamp(0.0, 1.0),
                    };
                    (score, mapped)
                })
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored
            .into_iter()
            .take(MAPPED_MAX)
            .map(|(_, mapped)| mapped)
            .collect()
    }

    fn idf_of(&self, word: &str) -> f64 {
        self.idf.get(word).copied().unwrap_or(self.unseen_idf)
    }

    fn bm25(&self, unit: &IndexedUnit, query: &[String]) -> f64 {
        let norm = K1 * (1.0 - B + B * unit.length / self.average_length);
        query
            .iter()
            .filter_map(|word| {
                let tf = *unit.terms.get(word)?;
                Some(self.idf_of(word) * tf * (K1 + 1.0) / (tf + norm))
            })
            .sum()
    }
}

fn index_unit(unit: &viva_blueprint::course::model::Unit) -> IndexedUnit {
    let mut terms: HashMap<String, f64> = HashMap::new();
    let mut length = 0.0;
    let mut add = |text: &str, weight: f64| {
        for word in content_words(text) {
            *terms.entry(word).or_default() += weight;
            length += weight;
        }
    };
    add(&unit.title, 3.0);
    add(&unit.unit_id.replace('-', " "), 3.0);
    for tag in &unit.tags {
        add(tag, 3.0);
    }
    add(&unit.anchor, 2.0);
    for idea in &unit.key_ideas {
        add(idea, 1.0);
    }
    IndexedUnit {
        unit_id: unit.unit_id.clone(),
        terms,
        length,
    }
}

/// The message's content words, lower-cased and stemmed, stopwords dropped, each once.
pub fn content_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|word| word.replace('\'', "").to_lowercase())
        .filter(|word| !word.is_empty() && !STOPWORDS.contains(&word.as_str()))
        .map(|word| stem(&word))
        .collect();
    let mut seen = std::collections::HashSet::new();
    words.retain(|word| seen.insert(word.clone()));
    words
}

/// A light suffix stemmer: enough that "subnets", "subnetting" and "subnet" meet.
fn stem(word: &str) -> String {
    for suffix in ["ing", "ies", "es", "ed", "s"] {
        if let Some(root) = word.strip_suffix(suffix)
            && root.chars().count() >= 3
            && !word.ends_with("ss")
        {
            let root = if suffix == "ies" {
                format!("{root}y")
            } else {
                root.to_owned()
            };
            return undouble(&root);
        }
    }
    word.to_owned()
}

/// "subnett" (from "subnetting") → "subnet".
fn undouble(root: &str) -> String {
    let chars: Vec<char> = root.chars().collect();
    match chars.as_slice() {
        [.., a, b] if a == b && a.is_alphabetic() && !"lsz".contains(*a) => {
            chars[..chars.len() - 1].iter().collect()
        }
        _ => root.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::test_courses::Courses;

    #[test]
    fn words_are_stemmed_deduplicated_and_stopwords_dropped() {
        let cases = [
            ("How do I read METARs?", vec!["metar"]),
            ("subnetting subnets subnet", vec!["subnet"]),
            ("What about the fronts, fronts!", vec!["front"]),
            ("Tell me about it", vec![]),
            ("studies", vec!["study"]),
            ("pass", vec!["pass"]),
        ];
        for (text, expected) in cases {
            assert_eq!(content_words(text), expected, "{text}");
        }
    }

    #[test]
    fn a_message_maps_to_the_units_it_names_with_its_coverage_as_confidence() {
        let courses = Courses::load();
        let index = UnitIndex::build(courses.course("PPL-GROUND"));
        let top = |text: &str| {
            let mapped = index.map(text);
            mapped.first().map(|m| (m.unit.clone(), m.confidence))
        };
        let cases = [
            ("how do I read a METAR", "weather-information"),
            (
                "density altitude on a hot day",
                "performance-and-limitations",
            ),
            ("what airspace needs a clearance", "national-airspace"),
            (
                "light gun signals from the tower",
                "communications-and-light-signals",
            ),
            (
                "what documents must be on board for airworthiness",
                "airworthiness-requirements",
            ),
        ];
        for (text, unit) in cases {
            let (got, confidence) = top(text).expect(text);
            assert_eq!(got, unit, "{text}");
            assert!(confidence >= 0.55, "{text}: {confidence}");
        }
        assert_eq!(top("tell me about it"), None, "no content words");
        assert_eq!(top("my cat likes pizza"), None, "no course words");
        let (_, confidence) = top("weather pizza sandwich cat dog").expect("weather");
        assert!(confidence < 0.55, "mostly off the course: {confidence}");
    }

    #[test]
    fn at_most_three_units_come_back_best_first() {
        let courses = Courses::load();
        let index = UnitIndex::build(courses.course("PPL-GROUND"));
        let mapped = index.map("weather airspace performance taxiing emergency systems");
        assert_eq!(mapped.len(), MAPPED_MAX);
        assert!(mapped.iter().all(|m| (0.0..=1.0).contains(&m.confidence)));
    }
}
