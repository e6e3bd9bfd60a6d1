//! A small in-memory BM25 over weighted text fields, shared by the embedded brain's unit
//! mapping and the model tutor's grounding (anchors, content chunks, exam candidates). A
//! course has at most a few dozen units and a few hundred chunks, so a search library's
//! index, segments and IO would cost more than the search; the benchmark `tutor_turn`
//! measures the whole turn.
//!
//! **Ranking** is the BM25 score. **Coverage** is the share, by inverse document frequency,
//! of the query's indexed words that a document holds, times the square root of the share
//! of the query's content words the index knows at all: a query mostly off the index never
//! covers a document well.

use std::collections::HashMap;

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalisation.
const B: f64 = 0.75;

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

/// Documents indexed for BM25.
#[derive(Debug, Clone, Default)]
pub struct Bm25 {
    docs: Vec<Doc>,
    /// Inverse document frequency of every indexed word.
    idf: HashMap<String, f64>,
    /// The idf of a word no document uses: that of the rarest possible word.
    unseen_idf: f64,
    average_length: f64,
}

#[derive(Debug, Clone)]
struct Doc {
    /// Weighted term frequencies.
    terms: HashMap<String, f64>,
    length: f64,
}

/// A document a query matched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// The document's position, as given to [`Bm25::new`].
    pub doc: usize,
    /// Its BM25 score (> 0).
    pub score: f64,
    /// Its coverage of the query, in [0, 1].
    pub coverage: f64,
}

impl Bm25 {
    /// Indexes `docs`, each a list of (text, weight) fields.
    pub fn new(docs: &[Vec<(&str, f64)>]) -> Bm25 {
        let docs: Vec<Doc> = docs.iter().map(|fields| index_doc(fields)).collect();
        let count = docs.len() as f64;
        let mut document_frequency: HashMap<&str, f64> = HashMap::new();
        for doc in &docs {
            for term in doc.terms.keys() {
                *document_frequency.entry(term).or_default() += 1.0;
            }
        }
        let idf_of = |df: f64| ((count - df + 0.5) / (df + 0.5) + 1.0).ln();
        let idf = document_frequency
            .iter()
            .map(|(term, df)| ((*term).to_owned(), idf_of(*df)))
            .collect();
        let total: f64 = docs.iter().map(|d| d.length).sum();
        Bm25 {
            average_length: if docs.is_empty() { 1.0 } else { total / count },
            unseen_idf: idf_of(1.0),
            idf,
            docs,
        }
    }

    /// The documents `keep` allows that share an indexed word with `query`, best first.
    pub fn search(&self, query: &str, keep: impl Fn(usize) -> bool) -> Vec<Hit> {
        let query = content_words(query);
        let known: Vec<&String> = query.iter().filter(|w| self.idf.contains_key(*w)).collect();
        let known_weight: f64 = known.iter().map(|word| self.idf_of(word)).sum();
        if known.is_empty() || known_weight <= 0.0 {
            return Vec::new();
        }
        let known_share = (known.len() as f64 / query.len() as f64).sqrt();
        let mut hits: Vec<Hit> = (0..self.docs.len())
            .filter(|index| keep(*index))
            .filter_map(|index| {
                let doc = &self.docs[index];
                let score = self.score(doc, &query);
                (score > 0.0).then(|| {
                    let covered: f64 = known
                        .iter()
                        .filter(|word| doc.terms.contains_key(word.as_str()))
                        .map(|word| self.idf_of(word))
                        .sum();
                    Hit {
                        doc: index,
                        score,
                        coverage: (covered / known_weight * known_share).clamp(0.0, 1.0),
                    }
                })
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
        hits
    }

    fn idf_of(&self, word: &str) -> f64 {
        self.idf.get(word).copied().unwrap_or(self.unseen_idf)
    }

    fn score(&self, doc: &Doc, query: &[String]) -> f64 {
        let norm = K1 * (1.0 - B + B * doc.length / self.average_length);
        query
            .iter()
            .filter_map(|word| {
                let tf = *doc.terms.get(word)?;
                Some(self.idf_of(word) * tf * (K1 + 1.0) / (tf + norm))
            })
            .sum()
    }
}

fn index_doc(fields: &[(&str, f64)]) -> Doc {
    let mut terms: HashMap<String, f64> = HashMap::new();
    let mut length = 0.0;
    for (text, weight) in fields {
        for word in content_words(text) {
            *terms.entry(word).or_default() += weight;
            length += weight;
        }
    }
    Doc { terms, length }
}

/// The message's content words, lower-cased and stemmed, stopwords dropped, each once.
pub fn content_words(text: &str) -> Vec<String> {
    let mut words = phrase_words(text);
    let mut seen = std::collections::HashSet::new();
    words.retain(|word| seen.insert(word.clone()));
    words
}

/// The text's content words in their order, repeats kept: what a phrase is matched on
/// ("Adding one-digit numbers" → `add digit number`).
pub fn phrase_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|word| word.replace('\'', "").to_lowercase())
        .filter(|word| !word.is_empty() && !STOPWORDS.contains(&word.as_str()))
        .map(|word| stem(&word))
        .collect()
}

/// The text without its numbers (words with no letter: "56", "1,000"): an example's
/// operands, which say nothing of what the text is about.
pub fn without_numbers(text: &str) -> String {
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|word| word.chars().any(char::is_alphabetic))
        .collect();
    words.join(" ")
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
    fn phrases_keep_order_and_repeats_and_numbers_can_be_dropped() {
        let phrases = [
            ("Adding one-digit numbers", vec!["ad", "digit", "number"]),
            ("times tables, times", vec!["tim", "tabl", "tim"]),
        ];
        for (text, expected) in phrases {
            assert_eq!(phrase_words(text), expected, "{text}");
        }
        let numbers = [
            ("56 ÷ 7 = 8 because 7 × 8 = 56.", "because"),
            ("× 10 moves each digit, 1,000 too", "moves each digit, too"),
            ("a times-table fact", "a times-table fact"),
        ];
        for (text, expected) in numbers {
            assert_eq!(without_numbers(text), expected, "{text}");
        }
    }

    #[test]
    fn weighted_fields_rank_and_keep_filters() {
        let index = Bm25::new(&[
            vec![("weather theory", 3.0), ("air rises and cools", 1.0)],
            vec![("weather services", 3.0), ("metar taf briefing", 1.0)],
            vec![("taxiing", 3.0), ("wind and controls", 1.0)],
        ]);
        let hits = index.search("metar weather", |_| true);
        assert_eq!(hits.iter().map(|h| h.doc).collect::<Vec<_>>(), [1, 0]);
        assert!((hits[0].coverage - 1.0).abs() < 1e-9, "{hits:?}");
        let kept = index.search("metar weather", |doc| doc != 1);
        assert_eq!(kept.iter().map(|h| h.doc).collect::<Vec<_>>(), [0]);
        assert!(index.search("pizza", |_| true).is_empty());
        assert!(Bm25::new(&[]).search("weather", |_| true).is_empty());
    }
}
