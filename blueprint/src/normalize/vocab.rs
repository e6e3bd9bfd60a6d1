//! English number vocabulary, the one table of number words: the normaliser reads with it
//! (words → numbers, here and in [`super::grammar`]) and [`super::spell`] speaks with it
//! (numbers → words, for the load tester's synthesised answers).

/// The digits' names by value: `zero` to `nine`.
pub const DIGITS: [&str; 10] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];

/// `ten` to `nineteen`, by value less ten.
pub const TEENS: [&str; 10] = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];

/// `twenty` to `ninety`, by tens digit less two.
pub const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// The word that multiplies a digit by a hundred.
pub const HUNDRED: &str = "hundred";

/// Scale words with their values, largest first.
pub const SCALES: [(u64, &str); 3] = [
    (1_000_000_000, "billion"),
    (1_000_000, "million"),
    (1_000, "thousand"),
];

/// The British "and" before the last part of a number ("two hundred and six").
pub const AND: &str = "and";

/// Zero said as the letter, inside a number said digit by digit ("two oh five").
pub const OH: &str = "oh";

/// The decimal point said aloud ("three point seven five").
pub const POINT: &str = "point";

/// The dot between the octets of an address said aloud ("ten dot zero dot zero dot one").
pub const DOT: &str = "dot";

/// `first` to `twentieth`, by value less one.
pub const ORDINALS: [&str; 20] = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];

/// Value of `word` in `table`, counting from `first`.
fn lookup(table: &[&str], first: i64, word: &str) -> Option<i64> {
    (first..)
        .zip(table)
        .find(|(_, w)| **w == word)
        .map(|(v, _)| v)
}

/// `one`..`nine` -> 1..=9.
pub(super) fn unit_value(word: &str) -> Option<i64> {
    lookup(&DIGITS[1..], 1, word)
}

/// `ten`..`nineteen` -> 10..=19.
pub(super) fn teen_value(word: &str) -> Option<i64> {
    lookup(&TEENS, 10, word)
}

/// `twenty`..`ninety` -> 20..=90 (also the common misspelling `fourty`).
pub(super) fn tens_value(word: &str) -> Option<i64> {
    if word == "fourty" {
        return Some(40);
    }
    lookup(&TENS, 2, word).map(|v| v * 10)
}

/// `thousand`, `million`, `billion` -> their multipliers.
pub(super) fn scale_value(word: &str) -> Option<i64> {
    SCALES
        .iter()
        .find(|(_, name)| *name == word)
        .and_then(|(value, _)| i64::try_from(*value).ok())
}

/// Whether a spoken number can start with `word`: "zero", "oh", a unit, a teen or a tens
/// word.
pub fn starts_spoken_number(word: &str) -> bool {
    matches!(word, "zero" | OH)
        || unit_value(word).is_some()
        || teen_value(word).is_some()
        || tens_value(word).is_some()
}

/// Whether `word` can be one word of a number of two or more words: digits, a number word,
/// or a word of the grammar ("hundred", "and", "a", "half", "point", "minus"); see
/// [`number_reach`] for the one other word a number of several words may hold.
pub fn is_number_word(word: &str) -> bool {
    matches!(
        word,
        "zero" | OH | "o" | HUNDRED | AND | "a" | "half" | POINT | "minus" | "negative"
    ) || digits_value(word).is_some()
        || starts_spoken_number(word)
        || scale_value(word).is_some()
}

/// How many of `words`, from the first, a number of [`super::parse_number_words`] could
/// span: after the first word only number words ([`is_number_word`]) or a typed number
/// after "minus", and two digit tokens side by side only after "point" ("2 point 5 5"; "1 1" is no number). A caller trying
/// every span of a text tries none longer, so a list of numbers costs one parse each.
pub fn number_reach(words: &[&str]) -> usize {
    let digits = |w: &str| digits_value(w).is_some();
    let mut point = false;
    let mut reach = usize::from(!words.is_empty());
    for (at, pair) in words.windows(2).enumerate() {
        let [before, word] = pair else { break };
        point |= *before == POINT;
        let signed_literal = at == 0
            && matches!(*before, "minus" | "negative")
            && word.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | '+' | '-'));
        if !(is_number_word(word) || signed_literal) || (digits(before) && digits(word) && !point) {
            break;
        }
        reach += 1;
    }
    reach
}

/// A single spoken digit: `zero`, `oh`, `o` -> 0 and `one`..`nine`.
pub(super) fn digit_word(word: &str) -> Option<i64> {
    match word {
        "zero" | OH | "o" => Some(0),
        _ => unit_value(word),
    }
}

/// A number from 10 to 99 said as one or two words: `ten`, `fifteen`, `sixty`, `sixty eight`.
pub(super) fn two_digit(words: &[&str]) -> Option<i64> {
    match words {
        [w] => teen_value(w).or_else(|| tens_value(w)),
        [tens, unit] => Some(tens_value(tens)? + unit_value(unit)?),
        _ => None,
    }
}

/// An all-ASCII-digit token as a number; `None` when empty, signed, or overflowing `u64`.
pub(super) fn digits_value(token: &str) -> Option<u64> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

/// A 1-based ordinal: `first`..`twentieth`, or digits with a suffix (`2nd`, `3rd`, `11th`).
pub(super) fn ordinal_value(word: &str) -> Option<usize> {
    if let Some(v) = lookup(&ORDINALS, 1, word) {
        return usize::try_from(v).ok();
    }
    let digits = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|suffix| word.strip_suffix(suffix))?;
    let value = usize::try_from(digits_value(digits)?).ok()?;
    (value >= 1).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<i64>) {
        let words: Vec<&str> = input.split_whitespace().collect();
        let actual = match words.as_slice() {
            ["ordinal", w] => ordinal_value(w).and_then(|v| i64::try_from(v).ok()),
            ["digit", w] => digit_word(w),
            ["scale", w] => scale_value(w),
            ["digits", w] => digits_value(w).and_then(|v| i64::try_from(v).ok()),
            rest => two_digit(rest),
        };
        assert_eq!(actual, expected, "input: {input:?}");
    }

    const CASES: &[(&str, Option<i64>)] = &[
        ("ten", Some(10)),
        ("nineteen", Some(19)),
        ("twenty", Some(20)),
        ("sixty eight", Some(68)),
        ("ninety nine", Some(99)),
        ("fourty two", Some(42)),
        ("twenty ten", None),
        ("ten five", None),
        ("five", None),
        ("", None),
        ("sixty eight nine", None),
        ("digit oh", Some(0)),
        ("digit o", Some(0)),
        ("digit zero", Some(0)),
        ("digit nine", Some(9)),
        ("digit ten", None),
        ("scale thousand", Some(1_000)),
        ("scale billion", Some(1_000_000_000)),
        ("scale trillion", None),
        ("digits 007", Some(7)),
        ("digits +7", None),
        ("digits 99999999999999999999999", None),
        ("ordinal first", Some(1)),
        ("ordinal twelfth", Some(12)),
        ("ordinal twentieth", Some(20)),
        ("ordinal 2nd", Some(2)),
        ("ordinal 3rd", Some(3)),
        ("ordinal 11th", Some(11)),
        ("ordinal 0th", None),
        ("ordinal th", None),
        ("ordinal second-ish", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
