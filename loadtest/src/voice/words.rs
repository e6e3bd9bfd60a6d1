//! Word accuracy of a transcript: words lower-cased, punctuation stripped, numbers said in
//! words or written in digits brought to digits on both sides, then the word-level edit
//! distance (substitutions, deletions, insertions) against the reference.

use viva_blueprint::normalize::parse_spoken_number;
use viva_blueprint::normalize::vocab::{DIGITS, HUNDRED, SCALES, TEENS, TENS};

/// The one scale word a number said in words may hold here (the larger ones stay words).
const THOUSAND: &str = SCALES[2].1;

/// Whether `word` can be part of a number said in words: zero to nineteen, the tens,
/// "hundred" or "thousand".
fn is_number_word(word: &str) -> bool {
    [&DIGITS[..], &TEENS, &TENS, &[HUNDRED, THOUSAND]]
        .iter()
        .any(|table| table.contains(&word))
}

/// `text` as comparable words: lower case, no punctuation (hyphens split words, a comma or
/// point between digits is dropped), and every run of number words or digits as one number.
pub fn normalise(text: &str) -> Vec<String> {
    let tokens = tokens(text);
    let mut words = Vec::with_capacity(tokens.len());
    let mut at = 0;
    while at < tokens.len() {
        let run = number_run(&tokens[at..]);
        if run == 0 {
            words.push(tokens[at].clone());
            at += 1;
            continue;
        }
        words.extend(number(&tokens[at..at + run]));
        at += run;
    }
    words
}

/// `text` as transcribed, only lower-cased and without punctuation (numbers are not
/// brought to digits): the words of a raw word error rate.
pub fn raw_words(text: &str) -> Vec<String> {
    tokens(text)
}

/// Lower-case tokens without punctuation. A hyphen splits numbers ("eighty-five", "2-7-0")
/// and joins anything else ("take-offs" is "takeoffs"); a pound or dollar sign before a
/// number becomes the word after it.
fn tokens(text: &str) -> Vec<String> {
    let lower = text.to_lowercase().replace(['—', '/'], " ");
    let mut tokens = Vec::new();
    for word in lower.split_whitespace() {
        let parts: Vec<String> = word
            .split('-')
            .map(strip)
            .filter(|p| !p.is_empty())
            .collect();
        if parts.iter().all(|p| is_number_token(p)) {
            tokens.extend(parts);
        } else {
            tokens.push(parts.concat());
        }
        if let Some(unit) = currency(word) {
            tokens.push(unit.to_owned());
        }
    }
    tokens.retain(|t| !t.is_empty());
    tokens
}

/// The unit a leading currency sign stands for.
fn currency(word: &str) -> Option<&'static str> {
    match word.chars().next()? {
        '£' => Some("pounds"),
        '$' => Some("dollars"),
        _ => None,
    }
}

/// `word` without punctuation.
fn strip(word: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    (0..chars.len())
        .filter(|&i| keep(&chars, i))
        .map(|i| chars[i])
        .collect()
}

/// Letters, digits and inner apostrophes stay; so does a point between two digits.
fn keep(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    let digit_at = |j: Option<usize>| {
        j.and_then(|j| chars.get(j))
            .is_some_and(char::is_ascii_digit)
    };
    match c {
        '\'' => i > 0 && i + 1 < chars.len(),
        '.' => digit_at(i.checked_sub(1)) && digit_at(Some(i + 1)),
        _ => c.is_alphanumeric(),
    }
}

fn is_number_token(token: &str) -> bool {
    is_number_word(token) || token.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// How many tokens from the start form one number ("and" only inside one: "one hundred and
/// five").
fn number_run(tokens: &[String]) -> usize {
    let mut run = 0;
    while run < tokens.len() {
        let token = tokens[run].as_str();
        let joins = token == "and"
            && run > 0
            && matches!(tokens[run - 1].as_str(), HUNDRED | THOUSAND)
            && tokens
                .get(run + 1)
                .is_some_and(|next| is_number_token(next));
        if !(is_number_token(token) || joins) {
            break;
        }
        run += 1;
    }
    run
}

/// A run of number tokens as digits: parsed as one spoken number, else digit tokens joined
/// ("2 7 0" is 270), else left as it was.
fn number(run: &[String]) -> Vec<String> {
    if let Some(value) = parse_spoken_number(&run.join(" ")) {
        return vec![value.to_string()];
    }
    if run.iter().all(|t| t.chars().all(|c| c.is_ascii_digit())) {
        return vec![run.concat()];
    }
    run.to_vec()
}

/// Word-level edit distance: the fewest substitutions, deletions and insertions that turn
/// `reference` into `hypothesis`.
pub fn edit_distance(reference: &[String], hypothesis: &[String]) -> usize {
    let mut previous: Vec<usize> = (0..=hypothesis.len()).collect();
    for (i, word) in reference.iter().enumerate() {
        let mut current = Vec::with_capacity(previous.len());
        current.push(i + 1);
        for (j, heard) in hypothesis.iter().enumerate() {
            let substitute = previous[j] + usize::from(word != heard);
            let delete = previous[j + 1] + 1;
            let insert = current[j] + 1;
            current.push(substitute.min(delete).min(insert));
        }
        previous = current;
    }
    previous[hypothesis.len()]
}

/// Reference words and word errors, summed over transcripts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Words in the references.
    pub words: usize,
    /// Substitutions, deletions and insertions.
    pub errors: usize,
    /// Transcripts that matched their reference exactly.
    pub exact: usize,
    /// Transcripts compared.
    pub clips: usize,
}

impl Tally {
    /// Adds one transcript of `reference`.
    pub fn add(&mut self, reference: &str, heard: &str) {
        self.add_words(&normalise(reference), &normalise(heard));
    }

    /// Adds one transcript, both sides already made words.
    pub fn add_words(&mut self, reference: &[String], heard: &[String]) {
        let errors = edit_distance(reference, heard);
        self.words += reference.len();
        self.errors += errors;
        self.exact += usize::from(errors == 0);
        self.clips += 1;
    }

    /// Word error rate: errors over reference words (0 when there were none).
    pub fn wer(&self) -> f64 {
        self.errors as f64 / self.words.max(1) as f64
    }

    /// Word accuracy, `1 − WER` (negative when insertions outnumber the words).
    pub fn accuracy(&self) -> f64 {
        1.0 - self.wer()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &str) {
        assert_eq!(normalise(input).join(" "), expected, "input: {input:?}");
    }

    #[test]
    fn text_is_lower_cased_and_stripped_of_punctuation() {
        check(
            "Aviate, navigate, communicate.",
            "aviate navigate communicate",
        );
        check("It's the pilot's call!", "it's the pilot's call");
        check("'Quoted' — words", "quoted words");
        check("Three take-offs", "3 takeoffs");
    }

    #[test]
    fn numbers_in_words_and_digits_meet_as_digits() {
        check(
            "Climb to three thousand five hundred feet.",
            "climb to 3500 feet",
        );
        check("Climb to 3,500 feet.", "climb to 3500 feet");
        check(
            "Wind two seven zero at fifteen knots",
            "wind 270 at 15 knots",
        );
        check("Wind 2-7-0 at 15 knots", "wind 270 at 15 knots");
        check("two thousand four hundred fifty pounds", "2450 pounds");
        check("one hundred and five knots", "105 knots");
        check("cats and dogs", "cats and dogs");
        check("five to ten knots", "5 to 10 knots");
        check("Set 29.92 inches.", "set 29.92 inches");
        check("The weight is £2,450.", "the weight is 2450 pounds");
    }

    #[test]
    fn edit_distance_counts_substitutions_deletions_and_insertions() {
        let words = |s: &str| normalise(s);
        assert_eq!(edit_distance(&words("a b c"), &words("a b c")), 0);
        assert_eq!(edit_distance(&words("a b c"), &words("a x c")), 1);
        assert_eq!(edit_distance(&words("a b c"), &words("a c")), 1);
        assert_eq!(edit_distance(&words("a b c"), &words("a b c d e")), 2);
        assert_eq!(edit_distance(&words("a b c"), &[]), 3);
        assert_eq!(edit_distance(&[], &words("a")), 1);
    }

    #[test]
    fn the_tally_gives_word_accuracy_over_all_clips() {
        let mut tally = Tally::default();
        tally.add("Climb to three thousand feet.", "Climb to 3,000 feet.");
        tally.add("Carburetor ice.", "Carburetor rice.");
        assert_eq!(tally.words, 6);
        assert_eq!(tally.errors, 1);
        assert_eq!(tally.exact, 1);
        assert!((tally.accuracy() - 5.0 / 6.0).abs() < 1e-9);
        assert_eq!(Tally::default().wer(), 0.0);
    }
}
