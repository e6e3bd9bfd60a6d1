//! Standard English number-word grammar: "two thousand three hundred and five".

use super::vocab::{AND, HUNDRED, digits_value, scale_value, teen_value, tens_value, unit_value};

/// One classified word of the standard grammar.
#[derive(Clone, Copy)]
enum Word {
    Unit(i64),
    Teen(i64),
    Tens(i64),
    Digits(i64),
    Hundred,
    Scale(i64),
    And,
    A,
}

fn classify(word: &str) -> Option<Word> {
    let kind = match word {
        HUNDRED => Word::Hundred,
        AND => Word::And,
        "a" => Word::A,
        _ => unit_value(word)
            .map(Word::Unit)
            .or_else(|| teen_value(word).map(Word::Teen))
            .or_else(|| tens_value(word).map(Word::Tens))
            .or_else(|| scale_value(word).map(Word::Scale))
            .or_else(|| {
                digits_value(word)
                    .and_then(|v| i64::try_from(v).ok())
                    .map(Word::Digits)
            })?,
    };
    match kind {
        Word::Digits(v) if v > 999 => None,
        kind => Some(kind),
    }
}

/// What the previous word was, which decides what may follow.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    Start,
    A,
    Unit,
    Teen,
    Tens,
    Digits,
    Hundred,
    Scale,
    And,
}

/// State of the standard-grammar parser.
struct Grammar {
    total: i64,
    current: i64,
    last: Last,
    last_scale: i64,
    colloquial: bool,
}

/// Standard English number words, e.g. "two thousand three hundred and five".
///
/// Units, teens and tens build a group below 1000 with "hundred"; scale words ("thousand",
/// "million", "billion") close a group of 1..=999 and must strictly decrease. "and" may only
/// follow "hundred" or a scale word, "a" only starts a number before "hundred" or a scale, and
/// a digit token up to 999 may stand for a group ("25 thousand"). 11..=99 (not a multiple of
/// ten) before "hundred" at the very start is colloquial ("twelve hundred" = 1200) and may
/// not take a scale word. Every sum and product is checked.
pub(super) fn parse_grammar(words: &[&str]) -> Option<i64> {
    let mut state = Grammar {
        total: 0,
        current: 0,
        last: Last::Start,
        last_scale: i64::MAX,
        colloquial: false,
    };
    for word in words {
        state.step(classify(word)?)?;
    }
    state.finish()
}

impl Grammar {
    fn step(&mut self, word: Word) -> Option<()> {
        let opens_group = matches!(
            self.last,
            Last::Start | Last::Hundred | Last::Scale | Last::And
        );
        match word {
            Word::Unit(v) => self.add(v, Last::Unit, opens_group || self.last == Last::Tens),
            Word::Teen(v) => self.add(v, Last::Teen, opens_group),
            Word::Tens(v) => self.add(v, Last::Tens, opens_group),
            Word::Digits(v) => self.add(v, Last::Digits, opens_group && self.last != Last::Hundred),
            Word::Hundred => self.hundred(),
            Word::Scale(s) => self.scale(s),
            Word::And => self.mark(Last::And, matches!(self.last, Last::Hundred | Last::Scale)),
            Word::A => {
                self.current = 1;
                self.mark(Last::A, self.last == Last::Start)
            }
        }
    }

    fn mark(&mut self, last: Last, allowed: bool) -> Option<()> {
        self.last = last;
        allowed.then_some(())
    }

    fn add(&mut self, value: i64, last: Last, allowed: bool) -> Option<()> {
        self.current = self.current.checked_add(value)?;
        self.mark(last, allowed)
    }

    /// "hundred" multiplies a group of 1..=9, or 11..=99 (not a multiple of ten) at the very
    /// start of the number ("twelve hundred" = 1200), which then cannot take a scale word.
    fn hundred(&mut self) -> Option<()> {
        let c = self.current;
        let after_count = matches!(
            self.last,
            Last::A | Last::Unit | Last::Teen | Last::Tens | Last::Digits
        );
        let colloquial = (11..=99).contains(&c) && c % 10 != 0 && self.last_scale == i64::MAX;
        if !after_count || !((1..=9).contains(&c) || colloquial) {
            return None;
        }
        self.colloquial = colloquial;
        self.current = c.checked_mul(100)?;
        self.mark(Last::Hundred, true)
    }

    /// Scale words must follow a group of 1..=999 and strictly decrease.
    fn scale(&mut self, scale: i64) -> Option<()> {
        let after_count = !matches!(self.last, Last::Start | Last::Scale | Last::And);
        let fits = (1..=999).contains(&self.current) && scale < self.last_scale;
        if !after_count || !fits || self.colloquial {
            return None;
        }
        self.total = self.total.checked_add(self.current.checked_mul(scale)?)?;
        self.current = 0;
        self.last_scale = scale;
        self.mark(Last::Scale, true)
    }

    fn finish(&self) -> Option<i64> {
        match self.last {
            Last::Start | Last::A | Last::And => None,
            _ => self.total.checked_add(self.current),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::{as_strs, tokenize};
    use super::*;

    fn check(input: &str, expected: Option<i64>) {
        let tokens = tokenize(input);
        assert_eq!(
            parse_grammar(&as_strs(&tokens)),
            expected,
            "input: {input:?}"
        );
    }

    const CASES: &[(&str, Option<i64>)] = &[
        ("seven", Some(7)),
        ("seventeen", Some(17)),
        ("seventy", Some(70)),
        ("seventy-seven", Some(77)),
        ("seven hundred", Some(700)),
        ("seven hundred and seven", Some(707)),
        ("seven hundred seventy", Some(770)),
        ("a thousand and one", Some(1_001)),
        ("eleven hundred", Some(1_100)),
        ("ninety nine hundred and ninety nine", Some(9_999)),
        ("one billion one", Some(1_000_000_001)),
        ("5 hundred and 5", Some(505)),
        ("999 billion", Some(999_000_000_000)),
        ("seven seven", None),
        ("seventy seventy", None),
        ("seventeen seven", None),
        ("seven seventeen", None),
        ("seven seventy", None),
        ("hundred seven", None),
        ("seven and seven", None),
        ("seven hundred and and seven", None),
        ("seven thousand and", None),
        ("a", None),
        ("a seven", None),
        ("an hundred", None),
        ("zero", None),
        ("oh", None),
        ("eleven hundred thousand", None),
        ("seventy hundred", None),
        ("thousand thousand", None),
        ("one million one million", None),
        ("1000 thousand", None),
        ("seven thousand 1000", None),
        ("one hundred 50", None),
        ("", None),
    ];

    #[test]
    fn table() {
        for &(input, expected) in CASES {
            check(input, expected);
        }
    }
}
