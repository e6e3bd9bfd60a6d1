//! An answer (or a rubric phrase) as the judge reads it: clauses of lowercase tokens, spoken
//! numbers turned into digits, and the content words stemmed with their negation marked.

use viva_blueprint::normalize::{
    NumberValue, is_number_word, number_reach, parse_number, parse_number_words,
    starts_spoken_number,
};

use super::super::text::{stem, tokenize};
use super::super::vocabulary::synonym_at;
use super::work::step;

/// Words too common to carry meaning in a rubric phrase. Much shorter than the examiner's
/// stopword list: "not", "before", "above", "only" and "must" carry rules here.
fn is_little_word(token: &str) -> bool {
    matches!(
        token,
        "the"
            | "a"
            | "an"
            | "of"
            | "to"
            | "is"
            | "are"
            | "be"
            | "and"
            | "for"
            | "in"
            | "on"
            | "at"
            | "your"
            | "you"
            | "i"
            | "it"
            | "its"
            | "my"
            | "me"
            | "we"
            | "that"
            | "this"
            | "as"
            | "or"
            | "so"
            | "um"
            | "uh"
            | "er"
            | "like"
            | "just"
            | "then"
            | "there"
            | "their"
            | "they"
            | "has"
            | "have"
            | "been"
            | "was"
            | "were"
            | "by"
            | "with"
            | "well"
            | "ok"
            | "okay"
            | "yeah"
            | "basically"
            | "also"
            | "im"
            | "ive"
            | "id"
            | "youre"
            | "thats"
            | "theres"
            | "whats"
    )
}

/// Words that deny what follows them.
fn is_negation_word(token: &str) -> bool {
    matches!(
        token,
        "not"
            | "no"
            | "never"
            | "without"
            | "cannot"
            | "cant"
            | "dont"
            | "doesnt"
            | "didnt"
            | "isnt"
            | "arent"
            | "wasnt"
            | "werent"
            | "wont"
            | "shouldnt"
            | "wouldnt"
            | "couldnt"
            | "mustnt"
            | "neednt"
            | "havent"
            | "hasnt"
            | "aint"
            | "nor"
            | "neither"
    )
}

/// After a negation, these make a bound rather than a denial: "no more than 250 knots",
/// "not below 500 feet", "not later than".
fn is_bound_word(token: &str) -> bool {
    matches!(
        token,
        "more"
            | "less"
            | "fewer"
            | "greater"
            | "later"
            | "earlier"
            | "exceed"
            | "exceeding"
            | "below"
            | "above"
            | "lower"
            | "higher"
            | "beyond"
            | "over"
            | "under"
            | "only"
            | "until"
            | "closer"
            | "farther"
            | "further"
    )
}

/// After a negation, these make a double negative, not a denial: "don't forget the NOTAMs",
/// "never skip the runup".
fn is_canceller(token: &str) -> bool {
    matches!(
        token,
        "forget"
            | "forgetting"
            | "miss"
            | "missing"
            | "skip"
            | "skipping"
            | "neglect"
            | "overlook"
            | "ignore"
            | "fail"
            | "omit"
            | "leave"
    )
}

/// How many words before a phrase a negation reaches.
pub const NEGATION_REACH: usize = 3;

/// A number found in the text: its value and where it stands among the clause's tokens.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    /// The value.
    pub value: f64,
    /// Its clause.
    pub clause: usize,
    /// Its token index within the clause (after numbers are joined).
    pub token: usize,
}

/// A content word: its stem (or synonym's canonical term), where it stands, and whether a
/// negation reaches it.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// The stem or canonical term.
    pub stem: String,
    /// Its clause.
    pub clause: usize,
    /// Its token index within the clause.
    pub token: usize,
    /// A negation stands up to [`NEGATION_REACH`] tokens before it in its clause.
    pub negated: bool,
    /// The word is itself a negation.
    pub is_negation: bool,
}

/// The text as read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// Each clause's tokens, lowercase, numbers as digits.
    pub clauses: Vec<Vec<String>>,
    /// Each clause's tokens stemmed (little words too).
    pub token_stems: Vec<Vec<String>>,
    /// The content words, in order.
    pub words: Vec<Word>,
    /// The numbers, in order.
    pub numbers: Vec<Number>,
    /// Each clause's sentence: clauses split at a comma or colon share one, and a full stop,
    /// question mark, semicolon or line break starts the next.
    pub sentences: Vec<usize>,
}

impl Reading {
    /// Reads `text`.
    pub fn of(text: &str) -> Reading {
        let mut reading = Reading::default();
        for (index, (clause, sentence)) in split_clauses(text).iter().enumerate() {
            reading.sentences.push(*sentence);
            let (tokens, numbers) = join_numbers(tokenize(&clause.replace('%', " percent ")));
            reading
                .numbers
                .extend(numbers.into_iter().map(|(token, value)| Number {
                    value,
                    clause: index,
                    token,
                }));
            let stems: Vec<String> = tokens.iter().map(|t| stem(t)).collect();
            reading.words.extend(content_words(&tokens, &stems, index));
            reading.clauses.push(tokens);
            reading.token_stems.push(stems);
        }
        reading
    }

    /// The stems of the content words, in order.
    pub fn stems(&self) -> Vec<&str> {
        self.words.iter().map(|w| w.stem.as_str()).collect()
    }

    /// The tokens of a clause from `start` up to (not including) `end`.
    pub fn tokens(&self, clause: usize, start: usize, end: usize) -> &[String] {
        span(&self.clauses, clause, start, end)
    }

    /// The sentence of the content word at `word` (see [`Reading::sentences`]).
    pub fn sentence_of(&self, word: usize) -> usize {
        let clause = self.words[word].clause;
        self.sentences.get(clause).copied().unwrap_or(clause)
    }

    /// The token of its clause just before the content word at `word` ("" at the start).
    pub fn token_before(&self, word: usize) -> &str {
        let word = &self.words[word];
        let before = word
            .token
            .checked_sub(1)
            .map_or(&[][..], |t| self.tokens(word.clause, t, word.token));
        before.first().map_or("", String::as_str)
    }

    /// The stems of those tokens.
    pub fn stems_of(&self, clause: usize, start: usize, end: usize) -> &[String] {
        span(&self.token_stems, clause, start, end)
    }
}

fn span(clauses: &[Vec<String>], clause: usize, start: usize, end: usize) -> &[String] {
    clauses.get(clause).map_or(&[], |tokens| {
        &tokens[start.min(tokens.len())..end.min(tokens.len())]
    })
}

/// Whether a lowercase token denies what follows.
pub fn is_negation(token: &str) -> bool {
    is_negation_word(token)
}

/// Splits at clause punctuation and parentheses, keeping "121.5", "18,000" and "61.57"
/// whole; each clause comes with its sentence's number (equal within a sentence; an aside
/// in parentheses is a sentence of its own).
fn split_clauses(text: &str) -> Vec<(String, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let digit = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(char::is_ascii_digit)
    };
    let mut clauses = vec![(String::new(), 0)];
    let mut sentence = 0;
    // A parenthesis is an aside: a sentence of its own, after which the outer one goes on.
    let mut outer = None;
    for (i, &c) in chars.iter().enumerate() {
        let inside_number = matches!(c, '.' | ',') && digit(i.checked_sub(1)) && digit(Some(i + 1));
        if c == '(' || c == ')' {
            let resumed = if c == '(' { None } else { outer.take() };
            if c == '(' {
                outer = Some(sentence);
            }
            sentence = resumed.unwrap_or(sentence.max(clauses.len()) + 1);
            clauses.push((String::new(), sentence));
        } else if matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | '\n') && !inside_number {
            if !matches!(c, ',' | ':') {
                sentence = sentence.max(clauses.len()) + 1;
            }
            clauses.push((String::new(), sentence));
        } else if let Some((last, _)) = clauses.last_mut() {
            last.push(c);
        }
    }
    clauses.retain(|(clause, _)| !clause.trim().is_empty());
    clauses
}

/// Joins "18 000" (from "18,000") and spoken numbers ("ninety", "twenty four", "one two one
/// point five") into one digit token each; returns the tokens and each number's index.
fn join_numbers(raw: Vec<String>) -> (Vec<String>, Vec<(usize, f64)>) {
    let raw = join_digit_groups(raw);
    let words: Vec<&str> = raw.iter().map(String::as_str).collect();
    let mut tokens = Vec::with_capacity(raw.len());
    let mut numbers = Vec::new();
    let mut start = 0;
    while start < raw.len() {
        let longest = starts_number(&raw[start])
            .then(|| {
                let reach = number_reach(&words[start..raw.len().min(start + 8)]);
                (start + 1..=start + reach)
                    .rev()
                    .find_map(|end| number_of(&words[start..end]).map(|value| (end, value)))
            })
            .flatten();
        match longest {
            Some((end, value)) => {
                numbers.push((tokens.len(), value));
                tokens.push(match end == start + 1 && is_plain_integer(&raw[start]) {
                    // Written as its value would be: kept, not formatted again.
                    true => raw[start].clone(),
                    false => format_number(value),
                });
                start = end;
            }
            None => {
                tokens.push(raw[start].clone());
                start += 1;
            }
        }
    }
    (tokens, numbers)
}

/// `18,000` arrives as `18` and `000`: digits followed by groups of exactly three digits
/// are one number again.
fn join_digit_groups(words: Vec<String>) -> Vec<String> {
    let digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let mut joined: Vec<String> = Vec::with_capacity(words.len());
    for word in words {
        match joined.last_mut() {
            Some(last) if digits(last) && digits(&word) && word.len() == 3 && last.len() <= 3 => {
                last.push_str(&word);
            }
            _ => joined.push(word),
        }
    }
    joined
}

/// The number `words` make: one word parsed as typed, several as number words (only spans
/// within [`number_reach`] are tried).
fn number_of(words: &[&str]) -> Option<f64> {
    step(1);
    let value = match words {
        // Plain digits, the most common number by far: their value at once.
        [word] if is_plain_integer(word) => return word.parse::<i64>().ok().map(|n| n as f64),
        [word] if starts_number(word) => parse_number(word)?,
        [first, ..] if starts_number(first) && is_number_word(first) => parse_number_words(words)?,
        _ => return None,
    };
    match value {
        NumberValue::Int(value) => Some(value as f64),
        NumberValue::Decimal { text } => text.parse().ok(),
    }
}

fn starts_number(token: &str) -> bool {
    token.starts_with(|c: char| c.is_ascii_digit()) || starts_spoken_number(token)
}

/// Digits alone, with no leading zero and few enough to be exact as an `f64`: the text
/// [`format_number`] makes of its value.
fn is_plain_integer(token: &str) -> bool {
    let digits = token.bytes().all(|b| b.is_ascii_digit());
    digits && (1..=15).contains(&token.len()) && (token.len() == 1 || !token.starts_with('0'))
}

fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

fn content_words(tokens: &[String], stems: &[String], clause: usize) -> Vec<Word> {
    let denials: Vec<bool> = (0..tokens.len()).map(|at| denies(tokens, at)).collect();
    let mut words = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let token = &tokens[index];
        // "class a" keeps its letter: it names a class of airspace.
        let class_letter = token == "a" && index > 0 && tokens[index - 1] == "class";
        if is_little_word(token) && !class_letter {
            index += 1;
            continue;
        }
        let ahead = &stems[index..stems.len().min(index + 6)];
        let (span, canonical) = match synonym_at(ahead) {
            Some((span, canonical)) => (span, canonical.to_owned()),
            None => (1, stems[index].clone()),
        };
        let reach = index.saturating_sub(NEGATION_REACH)..index;
        words.push(Word {
            stem: canonical,
            clause,
            token: index,
            negated: denials[reach].iter().any(|denial| *denial),
            is_negation: is_negation(token),
        });
        index += span;
    }
    words
}

/// Whether the token at `at` of a clause's tokens denies what follows (a negation that is
/// not a bound or a double negative).
pub fn denies_at(tokens: &[String], at: usize) -> bool {
    at < tokens.len() && denies(tokens, at)
}

/// Whether the token at `at` makes a denial of what follows: a negation, but not a bound
/// ("no more than") and not a double negative ("don't forget").
fn denies(tokens: &[String], at: usize) -> bool {
    let next = tokens.get(at + 1).map(String::as_str);
    is_negation(&tokens[at]) && !next.is_some_and(|next| is_bound_word(next) || is_canceller(next))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Vec<f64> {
        Reading::of(text).numbers.iter().map(|n| n.value).collect()
    }

    #[test]
    fn class_a_keeps_its_letter() {
        let stems: Vec<String> = Reading::of("a class a airspace")
            .words
            .into_iter()
            .map(|w| w.stem)
            .collect();
        assert_eq!(stems, ["class", "a", "airspac"]);
    }

    #[test]
    fn spoken_and_typed_numbers_become_values() {
        assert_eq!(
            numbers("three takeoffs in ninety days and 24 calendar months"),
            vec![3.0, 90.0, 24.0]
        );
        assert_eq!(
            numbers("at 18,000 feet and 1,200 ft"),
            vec![18000.0, 1200.0]
        );
        assert_eq!(numbers("tune one two one point five"), vec![121.5]);
        assert_eq!(numbers("squawk seven seven zero zero"), vec![7700.0]);
        assert_eq!(numbers("a 10% reserve"), vec![10.0]);
        assert_eq!(numbers("and then a point"), Vec::<f64>::new());
    }

    #[test]
    fn clauses_split_at_punctuation_but_not_inside_numbers() {
        let reading = Reading::of("Tune 121.5, then climb to 18,000. Done");
        assert_eq!(reading.clauses.len(), 3);
        assert_eq!(reading.clauses[0], vec!["tune", "121.5"]);
    }

    #[test]
    fn negation_reaches_three_words_and_not_a_bound() {
        let negated = |text: &str, stem_of: &str| {
            Reading::of(text)
                .words
                .iter()
                .find(|w| w.stem == stem(stem_of))
                .map(|w| w.negated)
        };
        assert_eq!(negated("you do not need a medical", "medical"), Some(true));
        assert_eq!(
            negated("you need a current medical", "medical"),
            Some(false)
        );
        assert_eq!(negated("no more than 250 knots", "knots"), Some(false));
        assert_eq!(
            negated("I don't know, but a medical", "medical"),
            Some(false)
        );
    }

    #[test]
    fn little_words_are_dropped_and_the_rest_stemmed() {
        assert_eq!(
            Reading::of("The landings of the airplane").stems(),
            vec!["land", "aircraft"]
        );
    }
}
