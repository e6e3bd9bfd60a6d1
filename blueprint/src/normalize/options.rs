//! Multiple-choice option references: "B", "(b)", "option two", "the third one", "letter c".

use super::numbers::parse_unsigned;
use super::tokens::{as_strs, tokenize};
use super::vocab::ordinal_value;

/// Nouns that make an ordinal an option reference: "the second one", "third option".
const OPTION_NOUNS: &[&str] = &["one", "option", "choice", "answer"];

/// Spoken letter names accepted after a keyword ("option bee", "letter sea").
const LETTER_NAMES: &[(&str, char)] = &[
    ("ay", 'a'),
    ("bee", 'b'),
    ("be", 'b'),
    ("see", 'c'),
    ("sea", 'c'),
    ("cee", 'c'),
    ("dee", 'd'),
    ("ef", 'f'),
    ("eff", 'f'),
    ("gee", 'g'),
];

/// NATO spelling alphabet, accepted after a keyword ("option bravo").
const NATO: [&str; 26] = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray", "yankee", "zulu",
];

/// Parses a reference to one of `option_count` options and returns its 0-based index.
///
/// Accepted (case-insensitive, surrounding punctuation and a leading "the" ignored):
/// * a single letter: "B", "b)", "(b)", "b." -> 1;
/// * a keyword (`option`, `choice`, `answer`, `letter`) and a letter, a spoken letter name
///   ("bee", "see", "sea") or NATO word ("bravo"): "option b", "letter c", "choice bravo";
/// * `option`/`choice`/`answer`, optionally followed by `number`, or just `number`, and a
///   1-based cardinal: "option 2", "choice two", "option number two", "number two" -> 1;
/// * an ordinal with a noun (`one`, `option`, `choice`, `answer`): "the second one",
///   "third option", "the 2nd choice", "the last one";
/// * a bare ordinal: "second", "2nd", "last".
///
/// Returns `None` when the index is not below `option_count`.
pub fn parse_option_index(text: &str, option_count: usize) -> Option<usize> {
    parse_option(text, option_count, false)
}

/// Like [`parse_option_index`] but without bare ordinals ("second" may be a text answer):
/// the form used by [`super::normalize_answer`].
pub(super) fn parse_explicit_option(text: &str, option_count: usize) -> Option<usize> {
    parse_option(text, option_count, true)
}

/// Like [`parse_option_index`], plus a lone spoken letter name or NATO word ("bee", "sea",
/// "bravo"): the form used when the item is known to expect an option letter.
pub(super) fn parse_spoken_choice(text: &str, option_count: usize) -> Option<usize> {
    if let Some(index) = parse_option_index(text, option_count) {
        return Some(index);
    }
    let tokens = tokenize(text);
    let all = as_strs(&tokens);
    let index = match all.strip_prefix(&["the"]).unwrap_or(&all) {
        [word] => spoken_letter_index(word)?,
        _ => return None,
    };
    (index < option_count).then_some(index)
}

fn parse_option(text: &str, option_count: usize, explicit: bool) -> Option<usize> {
    let tokens = tokenize(text);
    let all = as_strs(&tokens);
    let words = all.strip_prefix(&["the"]).unwrap_or(&all);
    let index = match words {
        [word] => letter_index(word).or_else(|| {
            (!explicit)
                .then(|| ordinal_index(word, option_count))
                .flatten()
        })?,
        [keyword, rest @ ..] if is_keyword(keyword) => keyword_phrase(keyword, rest)?,
        [ordinal, noun] if OPTION_NOUNS.contains(noun) => ordinal_index(ordinal, option_count)?,
        _ => return None,
    };
    (index < option_count).then_some(index)
}

fn is_keyword(word: &str) -> bool {
    matches!(word, "option" | "choice" | "answer" | "letter" | "number")
}

/// The words after a keyword.
fn keyword_phrase(keyword: &str, rest: &[&str]) -> Option<usize> {
    match (keyword, rest) {
        ("letter", [word]) => spoken_letter_index(word),
        ("letter", _) => None,
        ("number", _) => cardinal_index(rest),
        (_, ["number", numbers @ ..]) => cardinal_index(numbers),
        (_, [word]) => spoken_letter_index(word).or_else(|| cardinal_index(rest)),
        _ => cardinal_index(rest),
    }
}

/// A single ASCII letter: `a` -> 0 .. `z` -> 25.
fn letter_index(word: &str) -> Option<usize> {
    match word.as_bytes() {
        [b @ b'a'..=b'z'] => Some(usize::from(b - b'a')),
        _ => None,
    }
}

/// A letter, a spoken letter name or a NATO word.
fn spoken_letter_index(word: &str) -> Option<usize> {
    if let Some(index) = letter_index(word) {
        return Some(index);
    }
    if let Some((_, letter)) = LETTER_NAMES.iter().find(|(name, _)| *name == word) {
        return letter_index(letter.encode_utf8(&mut [0; 4]));
    }
    NATO.iter().position(|name| *name == word)
}

/// A 1-based spoken or typed cardinal ("two", "2") as a 0-based index.
fn cardinal_index(words: &[&str]) -> Option<usize> {
    let value = usize::try_from(parse_unsigned(words)?).ok()?;
    value.checked_sub(1)
}

/// A 1-based ordinal ("second", "2nd") or "last" as a 0-based index.
fn ordinal_index(word: &str, option_count: usize) -> Option<usize> {
    if word == "last" {
        return option_count.checked_sub(1);
    }
    ordinal_value(word)?.checked_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<usize>) {
        assert_eq!(parse_option_index(input, 4), expected, "input: {input:?}");
    }

    const CASES: &[(&str, Option<usize>)] = &[
        ("a", Some(0)),
        ("A", Some(0)),
        ("B", Some(1)),
        ("b)", Some(1)),
        ("(b)", Some(1)),
        ("b.", Some(1)),
        ("B!", Some(1)),
        ("[c]", Some(2)),
        ("D", Some(3)),
        ("the b", Some(1)),
        ("option b", Some(1)),
        ("Option B.", Some(1)),
        ("option (c)", Some(2)),
        ("option b)", Some(1)),
        ("choice d", Some(3)),
        ("answer c", Some(2)),
        ("letter c", Some(2)),
        ("the letter a", Some(0)),
        ("option bee", Some(1)),
        ("letter sea", Some(2)),
        ("option see", Some(2)),
        ("option dee", Some(3)),
        ("option ay", Some(0)),
        ("option bravo", Some(1)),
        ("letter charlie", Some(2)),
        ("choice alpha", Some(0)),
        ("option 2", Some(1)),
        ("option two", Some(1)),
        ("Option Two.", Some(1)),
        ("choice two", Some(1)),
        ("option number two", Some(1)),
        ("option number 3", Some(2)),
        ("answer one", Some(0)),
        ("number two", Some(1)),
        ("number 4", Some(3)),
        ("the second one", Some(1)),
        ("The second one.", Some(1)),
        ("second one", Some(1)),
        ("the third option", Some(2)),
        ("the first choice", Some(0)),
        ("the fourth answer", Some(3)),
        ("the 2nd one", Some(1)),
        ("second", Some(1)),
        ("2nd", Some(1)),
        ("first", Some(0)),
        ("fourth", Some(3)),
        ("last", Some(3)),
        ("the last one", Some(3)),
        ("last option", Some(3)),
        ("e", None),
        ("option e", None),
        ("option five", None),
        ("number 5", None),
        ("the fifth one", None),
        ("fifth", None),
        ("option zero", None),
        ("option 0", None),
        ("number zero", None),
        ("zeroth", None),
        ("0th", None),
        ("option", None),
        ("letter", None),
        ("letter two", None),
        ("letter b c", None),
        ("option b c", None),
        ("b and c", None),
        ("b or c", None),
        ("bb", None),
        ("2", None),
        ("two", None),
        ("the", None),
        ("the second", Some(1)),
        ("second two", None),
        ("one", None),
        ("option minus one", None),
        ("option 1,2", None),
        ("\u{e9}", None),
        ("", None),
        ("bee", None),
        ("bravo", None),
        ("the answer", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }

    #[test]
    fn bounds_follow_option_count() {
        assert_eq!(parse_option_index("z", 26), Some(25));
        assert_eq!(parse_option_index("z", 25), None);
        assert_eq!(parse_option_index("a", 0), None);
        assert_eq!(parse_option_index("last", 0), None);
        assert_eq!(parse_option_index("the last one", 1), Some(0));
        assert_eq!(parse_option_index("option 10", 10), Some(9));
        assert_eq!(parse_option_index("the twelfth one", 12), Some(11));
        assert_eq!(
            parse_option_index("option 99999999999999999999", usize::MAX),
            None
        );
    }

    #[test]
    fn spoken_choice_accepts_lone_letter_names() {
        let cases: &[(&str, Option<usize>)] = &[
            ("bee", Some(1)),
            ("Bee.", Some(1)),
            ("be", Some(1)),
            ("sea", Some(2)),
            ("see", Some(2)),
            ("dee", Some(3)),
            ("bravo", Some(1)),
            ("the charlie", Some(2)),
            ("second", Some(1)),
            ("b", Some(1)),
            ("option two", Some(1)),
            ("echo", None),
            ("eff", None),
            ("bee sea", None),
            ("two", None),
            ("", None),
        ];
        for &(input, expected) in cases {
            assert_eq!(parse_spoken_choice(input, 4), expected, "input: {input:?}");
        }
    }

    #[test]
    fn explicit_mode_rejects_bare_ordinals() {
        assert_eq!(parse_explicit_option("second", 4), None);
        assert_eq!(parse_explicit_option("last", 4), None);
        assert_eq!(parse_explicit_option("the second one", 4), Some(1));
        assert_eq!(parse_explicit_option("b", 4), Some(1));
        assert_eq!(parse_explicit_option("number two", 4), Some(1));
    }
}
