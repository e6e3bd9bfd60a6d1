//! Text normalisation: words, stems, stopwords and synonyms, down to canonical content terms.

use std::collections::HashSet;

pub use super::stemmer::stem;
use super::vocabulary::{is_stopword, synonym_at};
use super::words::scan_tokens;
pub use super::words::tokenize;

/// A content term of a text: its canonical form and the words it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyTerm {
    /// The canonical term: a Porter2 stem, or a synonym's canonical term (see `vocabulary`).
    pub canonical: String,
    /// The words it came from, as written, lowercased unless an acronym (`VFR`, `NOTAMs`).
    pub word: String,
    /// The text between the previous term and this one (a space, a hyphen) when this term
    /// directly follows it in the same text, so that their words read as one phrase
    /// (`recent flight experience`); `None` after punctuation or a dropped word.
    pub joined_by: Option<String>,
}

/// The word lowercased, unless it holds two or more capitals (`VFR`, `NOTAMs`, `BasicMed`).
pub fn lowercase_unless_acronym(word: &str) -> String {
    if word.chars().filter(|c| c.is_uppercase()).count() >= 2 {
        word.to_owned()
    } else {
        word.to_lowercase()
    }
}

/// Text made readable mid-sentence: each run of letters through [`lowercase_unless_acronym`],
/// everything else kept (`Cross-Country Flight Planning` -> `cross-country flight planning`).
pub fn readable_phrase(span: &str) -> String {
    let mut out = String::with_capacity(span.len());
    let mut run = String::new();
    for c in span.chars() {
        if c.is_alphabetic() {
            run.push(c);
        } else {
            out.push_str(&lowercase_unless_acronym(&run));
            run.clear();
            out.push(c);
        }
    }
    out.push_str(&lowercase_unless_acronym(&run));
    out
}

/// Joins words as a list, `a, b and c`; past `max` words the rest are counted (`and 2 more`).
pub fn join_words(words: &[String], max: usize) -> String {
    let shown: Vec<&str> = words.iter().take(max.max(1)).map(String::as_str).collect();
    let hidden = words.len() - shown.len();
    match (shown.split_last(), hidden) {
        (None, _) => String::new(),
        (Some((last, [])), 0) => (*last).to_owned(),
        (Some((last, rest)), 0) => format!("{} and {last}", rest.join(", ")),
        (Some(_), hidden) => format!("{} and {hidden} more", shown.join(", ")),
    }
}

/// Whether a lone token carries content: not a stopword, and longer than one character
/// unless it is a number (`3` takeoffs count, the `a` of `a)` does not).
fn is_content_token(token: &str) -> bool {
    let is_number = token.chars().all(|c| c.is_ascii_digit() || c == '.');
    !is_stopword(token) && (is_number || token.chars().count() > 1)
}

/// The content terms of a text with the words they came from, deduplicated by canonical
/// term in first-seen order. Synonym phrases (`air traffic control`) are matched on stems
/// before stopwords are dropped, longest first; other tokens are stemmed and kept unless
/// they are stopwords or single letters. Numbers are kept as they are (`90`, `61.57`).
pub fn terms_with_words(text: &str) -> Vec<KeyTerm> {
    let tokens = scan_tokens(text);
    let stems: Vec<String> = tokens.iter().map(|token| stem(&token.text)).collect();
    let mut seen = HashSet::new();
    let mut terms = Vec::new();
    let mut previous_term_end: Option<usize> = None;
    let mut index = 0;
    while index < tokens.len() {
        let (span, canonical) = match synonym_at(&stems[index..]) {
            Some((span, canonical)) => (span, Some(canonical.to_owned())),
            None => {
                let is_content = is_content_token(&tokens[index].text);
                (1, is_content.then(|| stems[index].clone()))
            }
        };
        let (start, end) = (tokens[index].start, tokens[index + span - 1].end);
        index += span;
        let Some(canonical) = canonical.filter(|canonical| seen.insert(canonical.clone())) else {
            previous_term_end = None;
            continue;
        };
        let joined_by = previous_term_end
            .map(|previous_end| &text[previous_end..start])
            .filter(|between| between.chars().all(|c| c == ' ' || c == '-'))
            .map(str::to_owned);
        let word = readable_phrase(&text[start..end]);
        terms.push(KeyTerm {
            canonical,
            word,
            joined_by,
        });
        previous_term_end = Some(end);
    }
    terms
}

/// The canonical content terms of a text, in first-seen order (see [`terms_with_words`]).
pub fn content_terms(text: &str) -> Vec<String> {
    terms_with_words(text)
        .into_iter()
        .map(|term| term.canonical)
        .collect()
}

/// The set of canonical terms an answer contains, for matching against key terms.
pub fn canonical_terms_of_answer(answer: &str) -> HashSet<String> {
    content_terms(answer).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<T: PartialEq + std::fmt::Debug>(input: &str, actual: T, expected: T) {
        assert_eq!(actual, expected, "input: {input:?}");
    }

    #[test]
    fn tokenizer_table() {
        let cases: [(&str, &[&str]); 7] = [
            ("Pilot's logbook", &["pilots", "logbook"]),
            (
                "14 CFR 61.57, 90 days.",
                &["14", "cfr", "61.57", "90", "days"],
            ),
            ("pilot-in-command (PIC)", &["pilot", "in", "command", "pic"]),
            ("VFR/IFR; e.g., wx", &["vfr", "ifr", "e", "g", "wx"]),
            ("Version 1.5. Done", &["version", "1.5", "done"]),
            ("the pilots’ ‘records’", &["the", "pilots", "records"]),
            ("  ...  ", &[]),
        ];
        for (input, expected) in cases {
            check(
                input,
                tokenize(input),
                expected.iter().map(|s| s.to_string()).collect(),
            );
        }
    }

    #[test]
    fn content_terms_drop_stopwords_stem_and_map_synonyms() {
        let cases: [(&str, &[&str]); 7] = [
            (
                "Certification requirements, recent flight experience, and recordkeeping.",
                &[
                    "certif",
                    "requir",
                    "recent",
                    "flight",
                    "experi",
                    "recordkeep",
                ],
            ),
            (
                "Logbooks and records of the flight",
                &["recordkeep", "flight"],
            ),
            ("Check the wx and NOTAMs", &["check", "weather", "notam"]),
            ("Notice to Air Missions (NOTAMs)", &["notam"]),
            (
                "3 takeoffs and landings within the preceding 90 days",
                &["3", "takeoff", "land", "preced", "90", "day"],
            ),
            (
                "Use of appropriate checklists, including associated items, etc.",
                &["checklist", "item"],
            ),
            (
                "Limitations of air traffic control (ATC) services",
                &["limit", "atc", "servic"],
            ),
        ];
        for (input, expected) in cases {
            check(
                input,
                content_terms(input),
                expected.iter().map(|s| s.to_string()).collect(),
            );
        }
    }

    #[test]
    fn key_terms_keep_readable_original_words() {
        let terms = terms_with_words("Minimum Equipment List (MEL) and the pilot's CG limits");
        let words: Vec<&str> = terms.iter().map(|term| term.word.as_str()).collect();
        assert_eq!(words, ["minimum equipment list", "pilot's", "CG", "limits"]);
        assert_eq!(terms[0].canonical, "mel");
        assert_eq!(terms[2].canonical, "center_of_graviti");
    }

    #[test]
    fn adjacent_terms_are_joined_only_by_spaces_and_hyphens() {
        let terms = terms_with_words(
            "Certification requirements, recent flight experience, and pilot-performed recordkeeping",
        );
        let joins: Vec<Option<&str>> = terms.iter().map(|term| term.joined_by.as_deref()).collect();
        assert_eq!(
            joins,
            [
                None,
                Some(" "),
                None,
                Some(" "),
                Some(" "),
                None,
                Some("-"),
                Some(" ")
            ]
        );
    }

    #[test]
    fn answer_terms_are_a_set_of_canonical_terms() {
        let terms = canonical_terms_of_answer("I keep a logbook, a log book, and records.");
        check(
            "logbook answer",
            terms,
            HashSet::from(["keep".to_owned(), "recordkeep".to_owned()]),
        );
    }

    #[test]
    fn word_lists_read_naturally() {
        let words: Vec<String> = ["a", "b", "c", "d"].iter().map(|w| w.to_string()).collect();
        let cases = [
            (0, 4, ""),
            (1, 4, "a"),
            (2, 4, "a and b"),
            (3, 4, "a, b and c"),
            (4, 2, "a, b and 2 more"),
        ];
        for (count, max, expected) in cases {
            check(
                expected,
                join_words(&words[..count], max),
                expected.to_owned(),
            );
        }
    }

    #[test]
    fn title_case_becomes_readable() {
        let cases = [
            (
                "Cross-Country Flight Planning",
                "cross-country flight planning",
            ),
            ("VFR Cruising Altitudes", "VFR cruising altitudes"),
        ];
        for (title, expected) in cases {
            check(title, readable_phrase(title), expected.to_owned());
        }
    }

    #[test]
    fn acronyms_keep_their_capitals() {
        for (word, expected) in [
            ("VFR", "VFR"),
            ("NOTAMs", "NOTAMs"),
            ("Weather", "weather"),
            ("14", "14"),
        ] {
            check(word, lowercase_unless_acronym(word), expected.to_owned());
        }
    }
}
