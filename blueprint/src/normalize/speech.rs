//! Repairs of speech-to-text artefacts ("niner", "double five", "1 000") before strict parsing.
//!
//! The parsers in this module accept one canonical spelling each. Whisper and aviation
//! phraseology add a few more; [`repair`] rewrites those into the canonical spellings, so the
//! parsers stay strict and a failed parse still falls back to the unrepaired text.

use super::vocab::{DIGITS, digit_word};

/// ICAO pronunciations of digits, replaced wherever they occur as whole words.
const AVIATION_DIGITS: &[(&str, &str)] = &[("niner", "nine"), ("fife", "five"), ("fower", "four")];

/// Words allowed in a digit-by-digit context besides digits: separators and signs.
const CONTEXT_WORDS: &[&str] = &["dot", "point", "slash", "forward", "minus", "negative"];

/// Rewrites speech-to-text artefacts in a filler-free, lowercase answer:
///
/// * aviation digits anywhere: `niner` -> `nine`, `fife` -> `five`, `fower` -> `four`;
/// * in a digit-by-digit context only (see [`digit_context`]): `tree` -> `three`,
///   `double five` -> `five five`, `triple oh` -> `oh oh oh`, and typed single digits next to
///   them become words ("1 double 5" -> `one five five`);
/// * a whole answer of digits grouped by spaces in threes ("1 000", "-12 500 000") loses the
///   spaces, unless the groups could be an IPv4 address said without dots ("192 168 100 1").
pub(super) fn repair(cleaned: &str) -> String {
    let text = replace_words(cleaned, |word| {
        AVIATION_DIGITS
            .iter()
            .find(|(spoken, _)| *spoken == word)
            .map(|(_, digit)| *digit)
    });
    let text = digit_context(&text).unwrap_or(text);
    join_digit_groups(&text).unwrap_or(text)
}

/// Replaces each maximal run of ASCII letters for which `map` returns a replacement.
fn replace_words<'a>(text: &str, map: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let split = rest
            .find(|c: char| c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let (other, from_word) = rest.split_at(split);
        out.push_str(other);
        let end = from_word
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(from_word.len());
        let (word, after) = from_word.split_at(end);
        out.push_str(map(word).unwrap_or(word));
        rest = after;
    }
    out
}

/// One whitespace-separated token of a possible digit-by-digit answer.
#[derive(Clone, Copy)]
enum Token<'a> {
    /// A spoken digit (`tree` included), with its trailing punctuation.
    Digit(&'a str, &'a str),
    /// `double` (2) or `triple` (3).
    Repeat(usize),
    /// A typed single digit 0..=9, with its trailing punctuation.
    Typed(usize, &'a str),
    /// A typed number, a separator or a sign, kept as it is.
    Other(&'a str),
}

fn classify(token: &str) -> Option<Token<'_>> {
    let core = token.trim_end_matches(['.', ',']);
    let suffix = token.get(core.len()..).unwrap_or_default();
    if core == "tree" || digit_word(core).is_some() {
        return Some(Token::Digit(core, suffix));
    }
    match core {
        "double" if suffix.is_empty() => return Some(Token::Repeat(2)),
        "triple" if suffix.is_empty() => return Some(Token::Repeat(3)),
        _ => {}
    }
    if let [digit @ b'0'..=b'9'] = core.as_bytes() {
        return Some(Token::Typed(usize::from(digit - b'0'), suffix));
    }
    let typed = core.starts_with(|c: char| c.is_ascii_digit())
        && core
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '/'));
    let separator = core.is_empty() || core == "/" || CONTEXT_WORDS.contains(&core);
    (typed || separator).then_some(Token::Other(token))
}

/// Rewrites `tree`, `double` and `triple` when the whole answer is a digit-by-digit context:
/// every token is a spoken or typed digit, `double`/`triple` before a digit, a typed number, or
/// one of [`CONTEXT_WORDS`], and at least two digits are spoken. `None` when there is nothing
/// to rewrite or the answer is not such a context ("tree", "double twenty", "the tree").
fn digit_context(text: &str) -> Option<String> {
    let tokens: Vec<Token<'_>> = text
        .split_whitespace()
        .map(classify)
        .collect::<Option<_>>()?;
    let mut words: Vec<String> = Vec::with_capacity(tokens.len());
    let mut spoken = 0usize;
    let mut rewrites = false;
    let mut iter = tokens.iter().peekable();
    while let Some(token) = iter.next() {
        match *token {
            Token::Digit(word, suffix) => {
                rewrites |= word == "tree";
                let word = if word == "tree" { "three" } else { word };
                words.push(format!("{word}{suffix}"));
                spoken += 1;
            }
            Token::Repeat(times) => {
                let (word, suffix) = repeated_digit(iter.next())?;
                words.extend(std::iter::repeat_n(word.to_string(), times - 1));
                words.push(format!("{word}{suffix}"));
                spoken += times;
                rewrites = true;
            }
            Token::Typed(digit, suffix) => {
                words.push(format!("{}{suffix}", DIGITS.get(digit)?));
                spoken += 1;
            }
            Token::Other(text) => words.push(text.to_string()),
        }
    }
    (rewrites && spoken >= 2).then(|| words.join(" "))
}

/// The digit word that `double`/`triple` repeats, with its trailing punctuation.
fn repeated_digit<'a>(next: Option<&Token<'a>>) -> Option<(&'a str, &'a str)> {
    match next? {
        Token::Digit("tree", suffix) => Some(("three", suffix)),
        Token::Digit(word, suffix) => Some((word, suffix)),
        Token::Typed(digit, suffix) => Some((DIGITS.get(*digit)?, suffix)),
        _ => None,
    }
}

/// "1 000" -> `1000`: digits grouped by spaces in threes, optionally signed ("-", "minus",
/// "negative") and with a decimal tail on the last group ("1 000.5"). `None` when `text` is not
/// such a number or when its groups could be an IPv4 address (four octets 0..=255).
fn join_digit_groups(text: &str) -> Option<String> {
    let (sign, body) = ["minus ", "negative ", "-"]
        .iter()
        .find_map(|sign| text.strip_prefix(sign).map(|rest| (*sign, rest)))
        .unwrap_or(("", text));
    let groups: Vec<&str> = body.split_whitespace().collect();
    let (first, rest) = groups.split_first()?;
    let (last, middle) = rest.split_last()?;
    let (last_whole, fraction) = last.split_once('.').unwrap_or((last, ""));
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let grouped = (1..=3).contains(&first.len())
        && all_digits(first)
        && middle
            .iter()
            .chain([&last_whole])
            .all(|g| g.len() == 3 && all_digits(g))
        && (fraction.is_empty() || (all_digits(fraction) && last.contains('.')))
        && !last.ends_with('.');
    let octets = groups.len() == 4 && groups.iter().all(|g| is_octet(g));
    (grouped && !octets).then(|| format!("{sign}{}", groups.concat()))
}

/// A typed octet: 0..=255 without leading zeros.
fn is_octet(text: &str) -> bool {
    let canonical = text == "0" || !text.starts_with('0');
    canonical && text.parse::<u8>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &str) {
        assert_eq!(repair(input), expected, "input: {input:?}");
    }

    const CASES: &[(&str, &str)] = &[
        // Aviation digits, anywhere.
        ("niner", "nine"),
        ("fife", "five"),
        ("fower", "four"),
        ("one niner two", "one nine two"),
        ("niner-fife.", "nine-five."),
        ("fife thousand", "five thousand"),
        ("fifer", "fifer"),
        ("the fifes", "the fifes"),
        // tree, double and triple only in a digit-by-digit context.
        ("tree five", "three five"),
        ("tree point fife", "three point five"),
        ("one tree", "one three"),
        ("double five", "five five"),
        ("one double five", "one five five"),
        ("double oh seven", "oh oh seven"),
        ("triple seven", "seven seven seven"),
        ("double tree", "three three"),
        ("1 double 5", "one five five"),
        ("double 5", "five five"),
        ("minus double five", "minus five five"),
        (
            "one nine two dot one six eight dot tree dot one",
            "one nine two dot one six eight dot three dot one",
        ),
        ("192.168.1.tree tree", "192.168.1.tree tree"),
        ("tree", "tree"),
        ("the tree", "the tree"),
        ("tree hundred", "tree hundred"),
        ("decision tree five", "decision tree five"),
        ("double", "double"),
        ("double twenty", "double twenty"),
        ("double double five", "double double five"),
        ("five double", "five double"),
        ("double, five", "double, five"),
        ("5 5", "5 5"),
        ("one oh five", "one oh five"),
        // Digits grouped by spaces.
        ("1 000", "1000"),
        ("10 000", "10000"),
        ("1 000 000", "1000000"),
        ("-1 000", "-1000"),
        ("minus 12 500", "minus 12500"),
        ("1 000.5", "1000.5"),
        ("1 000 000 000", "1000000000"),
        ("192 168", "192168"),
        ("192 168 100 100", "192 168 100 100"),
        ("192 168 1 0", "192 168 1 0"),
        ("1 200 5", "1 200 5"),
        ("1000 000", "1000 000"),
        ("1 00", "1 00"),
        ("1 000.", "1 000."),
        ("1 000.x", "1 000.x"),
        ("1,000 000", "1,000 000"),
        ("1000", "1000"),
        ("", ""),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
