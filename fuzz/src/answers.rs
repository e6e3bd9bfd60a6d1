//! Exam answers for the examiner's judge: the adversarial shapes that once made it slow
//! (long lists of numbers, repeated words, every unit word, 16 KB of digits), rubric words
//! in random order, and real labelled answers mutated, each up to the text frame limit; and
//! the assessment request the exam makes with one, against a whole exam still pending.

use std::sync::Arc;

use viva_blueprint::answer_set::LabelledAnswer;
use viva_core::exam::acs::{AcsLibrary, Rating};
use viva_core::exam::queue::oral_elements;
use viva_core::examiner::AssessRequest;
use viva_protocol::MAX_TEXT_FRAME_BYTES;

use crate::corpus::{self, CorpusError};
use crate::draw::Draw;

/// The words that follow a number as its unit, name a signal or class, or make a number.
pub const UNIT_WORDS: &[&str] = &[
    "minutes",
    "min",
    "mins",
    "hours",
    "hr",
    "hrs",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "calendar months",
    "year",
    "years",
    "feet",
    "foot",
    "ft",
    "AGL",
    "MSL",
    "nm",
    "nautical miles",
    "sm",
    "statute miles",
    "miles",
    "mi",
    "knots",
    "kt",
    "kts",
    "KIAS",
    "mph",
    "percent",
    "%",
    "MHz",
    "megahertz",
    "squawk",
    "code",
    "transponder",
    "ident",
    "steady green",
    "flashing red",
    "blinking white",
    "alternating red and green",
    "class B",
    "class bravo",
    "a year",
    "per day",
    "each month",
    "every week",
    "annually",
    "yearly",
    "takeoffs",
    "landings",
    "hundred",
    "thousand",
    "point",
    "and a half",
    "minus",
    "negative",
];

/// Spoken numbers and what joins them.
pub const NUMBER_WORDS: &[&str] = &[
    "zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fifteen", "nineteen", "twenty", "thirty", "forty", "fifty",
    "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "point", "and", "a", "half",
];

/// Words that deny, bound or hedge.
const STANCE_WORDS: &[&str] = &[
    "not",
    "no",
    "never",
    "don't",
    "no more than",
    "not below",
    "don't forget",
    "I'm not sure",
    "maybe",
    "I don't know",
    "but",
];

/// The shapes of answer the generator makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shape {
    /// `1,1,1,…`, the answer of issue 33.
    CommaOnes,
    /// Random numbers, whole and decimal, with random separators.
    NumberList,
    /// Numbers each followed by a unit word.
    NumberUnits,
    /// One run of digits, grouped by commas or dots or not at all.
    Digits,
    /// Spoken numbers in random order.
    SpokenNumbers,
    /// One rubric word or term over and over.
    RepeatedWord,
    /// Every unit word in turn, with numbers.
    EveryUnitWord,
    /// Rubric terms, stance words, numbers and units in random order.
    TermSoup,
    /// A labelled answer repeated and mutated.
    Mutated,
    /// Random characters: letters, digits, punctuation, other scripts.
    Noise,
}

impl Shape {
    /// Every shape.
    pub const ALL: [Shape; 10] = [
        Shape::CommaOnes,
        Shape::NumberList,
        Shape::NumberUnits,
        Shape::Digits,
        Shape::SpokenNumbers,
        Shape::RepeatedWord,
        Shape::EveryUnitWord,
        Shape::TermSoup,
        Shape::Mutated,
        Shape::Noise,
    ];
}

/// What answers are made from, and the exam they are given in.
#[derive(Debug, Clone)]
pub struct AnswerWorld {
    /// The examiner's library.
    pub library: Arc<AcsLibrary>,
    /// Every oral element of a private ASEL exam, in queue order.
    pub oral: Vec<String>,
    /// The oral elements with a rubric.
    pub with_rubric: Vec<String>,
    /// Every term of every rubric (facts and misconceptions).
    pub terms: Vec<String>,
    /// The labelled answers.
    pub answers: Vec<LabelledAnswer>,
}

impl AnswerWorld {
    /// Reads the repository's library, rubrics and labelled answers.
    pub fn load() -> Result<AnswerWorld, CorpusError> {
        let library = corpus::acs_library()?;
        let oral: Vec<String> = oral_elements(library.catalog(Rating::Private), "ASEL")
            .into_iter()
            .map(|e| e.code.clone())
            .collect();
        let with_rubric = oral
            .iter()
            .filter(|code| library.rubric(code).is_some())
            .cloned()
            .collect();
        let rubrics = corpus::rubrics()?;
        let terms = rubrics
            .iter()
            .flat_map(|r| {
                let facts = r.facts.iter().flat_map(|f| f.terms.iter());
                facts.chain(r.misconceptions.iter().flat_map(|m| m.terms.iter()))
            })
            .cloned()
            .collect();
        Ok(AnswerWorld {
            library,
            oral,
            with_rubric,
            terms,
            answers: corpus::bench_answers()?,
        })
    }

    /// Input `draw`'s answer and its shape: at most [`MAX_TEXT_FRAME_BYTES`], half of them
    /// exactly that long.
    pub fn answer(&self, draw: &mut Draw) -> (Shape, String) {
        let shape = Shape::ALL[draw.below(Shape::ALL.len())];
        let limit = if draw.chance(1, 2) {
            MAX_TEXT_FRAME_BYTES
        } else {
            draw.between(1, MAX_TEXT_FRAME_BYTES)
        };
        let mut text = String::with_capacity(limit + 64);
        let repeated = self.repeated_piece(draw);
        while text.len() < limit {
            self.piece(shape, draw, &repeated, &mut text);
        }
        cut(&mut text, limit);
        (shape, text)
    }

    fn repeated_piece(&self, draw: &mut Draw) -> String {
        let word = draw.pick(&self.terms).map_or("flight", String::as_str);
        let sep = *draw.pick(&[" ", ", ", ". ", " not ", "-"]).unwrap_or(&" ");
        format!("{word}{sep}")
    }

    fn piece(&self, shape: Shape, draw: &mut Draw, repeated: &str, text: &mut String) {
        let sep = *draw
            .pick(&[" ", ", ", ",", "; ", ". ", " and ", "\n"])
            .unwrap_or(&" ");
        match shape {
            Shape::CommaOnes => text.push_str("1,"),
            Shape::NumberList => push_all(text, &[&number(draw), sep]),
            Shape::NumberUnits => {
                let unit = draw.pick(UNIT_WORDS).unwrap_or(&"feet");
                push_all(text, &[&number(draw), " ", unit, sep]);
            }
            Shape::Digits => {
                let group = *draw.pick(&["", ",", ".", " "]).unwrap_or(&"");
                let digits = draw.bits().to_string();
                push_all(text, &[&digits, group]);
            }
            Shape::SpokenNumbers => {
                push_all(text, &[draw.pick(NUMBER_WORDS).unwrap_or(&"one"), " "])
            }
            Shape::RepeatedWord => text.push_str(repeated),
            Shape::EveryUnitWord => {
                let unit = UNIT_WORDS[(text.len() / 7) % UNIT_WORDS.len()];
                push_all(text, &[&number(draw), " ", unit, sep]);
            }
            Shape::TermSoup => self.soup(draw, sep, text),
            Shape::Mutated => self.mutated(draw, text),
            Shape::Noise => noise(draw, text),
        }
    }

    fn soup(&self, draw: &mut Draw, sep: &str, text: &mut String) {
        let word = match draw.below(5) {
            0 => draw.pick(STANCE_WORDS).copied().unwrap_or("not").to_owned(),
            1 => number(draw),
            2 => draw.pick(UNIT_WORDS).copied().unwrap_or("feet").to_owned(),
            3 => draw.pick(NUMBER_WORDS).copied().unwrap_or("one").to_owned(),
            _ => draw.pick(&self.terms).cloned().unwrap_or_default(),
        };
        push_all(text, &[&word, sep]);
    }

    fn mutated(&self, draw: &mut Draw, text: &mut String) {
        let answer = draw.pick(&self.answers).map_or("", |a| a.answer.as_str());
        let mut piece: Vec<char> = answer.chars().collect();
        for _ in 0..draw.below(8) {
            let at = draw.below(piece.len() + 1);
            match draw.below(3) {
                0 if at < piece.len() => {
                    piece.remove(at);
                }
                1 => piece.insert(at, random_char(draw)),
                _ => {
                    let word = draw.pick(UNIT_WORDS).unwrap_or(&"feet");
                    for (i, c) in format!(" {word} ").chars().enumerate() {
                        piece.insert(at + i, c);
                    }
                }
            }
        }
        text.extend(piece);
        text.push(' ');
    }

    /// The assessment the exam asks for `answer`: an element with a rubric, one of its
    /// questions (or another), and every other oral element still pending.
    pub fn request(&self, draw: &mut Draw, answer: String) -> AssessRequest {
        let element = draw
            .pick(&self.with_rubric)
            .cloned()
            .unwrap_or_else(|| "PA.I.A.K1".to_owned());
        let question = self
            .library
            .rubric(&element)
            .and_then(|r| draw.pick(&r.questions))
            .map_or_else(|| format!("Tell me about {element}."), |q| q.ask.clone());
        let other_pending = self
            .oral
            .iter()
            .filter(|c| **c != element)
            .cloned()
            .collect();
        AssessRequest {
            rating: Rating::Private,
            element_code: element,
            question,
            answer,
            other_pending,
            follow_ups_left: 1,
            missing_terms: Vec::new(),
        }
    }
}

fn push_all(text: &mut String, parts: &[&str]) {
    for part in parts {
        text.push_str(part);
    }
}

fn number(draw: &mut Draw) -> String {
    match draw.below(4) {
        0 => draw.below(10).to_string(),
        1 => draw.below(100_000).to_string(),
        2 => format!("{}.{}", draw.below(1000), draw.below(100)),
        _ => format!("{},{:03}", draw.between(1, 999), draw.below(1000)),
    }
}

fn random_char(draw: &mut Draw) -> char {
    const ODD: &[char] = &[
        'é', 'ß', 'İ', 'Σ', '日', '\u{301}', '\u{200b}', '’', '—', '½', '٣',
    ];
    match draw.below(4) {
        0 => *draw.pick(ODD).unwrap_or(&'é'),
        1 => *draw
            .pick(&['.', ',', ';', ':', '!', '?', '\n', '%', '-', '\''])
            .unwrap_or(&'.'),
        _ => char::from(b' ' + draw.below(95) as u8),
    }
}

fn noise(draw: &mut Draw, text: &mut String) {
    for _ in 0..draw.between(1, 32) {
        text.push(random_char(draw));
    }
}

/// Cuts `text` to at most `limit` bytes, at a character boundary.
fn cut(text: &mut String, limit: usize) {
    let mut end = limit.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
}

#[cfg(test)]
mod tests {
    use viva_core::exam::examiner::judge::work::counted;
    use viva_core::exam::examiner::judge::{PreparedRubric, ReadAnswer, judge_read, may_satisfy};
    use viva_core::exam::types::Score;
    use viva_core::examiner::EmbeddedExaminer;

    use super::*;

    /// Steps the judge may take per byte of answer, plus per pending element: the work of one
    /// assessment grows linearly with the answer, whatever its shape.
    const STEPS_PER_BYTE: u64 = 12;
    const STEPS_PER_PENDING: u64 = 64;

    #[test]
    fn the_judges_work_is_linear_in_the_answer_for_every_shape() {
        let world = AnswerWorld::load().expect("the repository's corpus");
        let examiner = EmbeddedExaminer::new(world.library.clone());
        let mut worst = (0.0, String::new());
        for index in 0..120 {
            let mut draw = Draw::new(33, index);
            let (shape, answer) = world.answer(&mut draw);
            let len = answer.len() as u64;
            let request = world.request(&mut draw, answer);
            let pending = request.other_pending.len() as u64;
            let (_, steps) = counted(|| examiner.assess_now(&request));
            let bound = STEPS_PER_BYTE * (len + 1) + STEPS_PER_PENDING * pending;
            assert!(
                steps <= bound,
                "input {index} ({shape:?}, {len} bytes): {steps} > {bound}"
            );
            let ratio = steps as f64 / bound as f64;
            if ratio > worst.0 {
                worst = (
                    ratio,
                    format!("input {index} ({shape:?}, {len} bytes): {steps}"),
                );
            }
        }
        println!(
            "most work against its bound: {:.2} of it, {}",
            worst.0, worst.1
        );
    }

    /// Mention credit judges in full only the rubrics `may_satisfy` admits: it must admit
    /// every rubric an answer satisfies, for the labelled answers and the generated ones.
    #[test]
    fn may_satisfy_never_turns_away_an_answer_that_satisfies() {
        let world = AnswerWorld::load().expect("the repository's corpus");
        let rubrics: Vec<PreparedRubric> = (world.with_rubric.iter())
            .filter_map(|code| world.library.prepared(code).cloned())
            .collect();
        let generated = (0..40).map(|index| world.answer(&mut Draw::new(7, index)).1);
        let labelled = world.answers.iter().map(|a| a.answer.clone());
        let mut satisfied = 0;
        for answer in labelled.chain(generated) {
            let read = ReadAnswer::of(&answer);
            for rubric in &rubrics {
                if judge_read(rubric, &read, None).score == Score::Satisfactory {
                    satisfied += 1;
                    assert!(
                        may_satisfy(rubric, &read),
                        "{}: {answer:?}",
                        rubric.rubric.element
                    );
                }
            }
        }
        assert!(
            satisfied > 50,
            "only {satisfied} answers satisfied a rubric"
        );
    }

    #[test]
    fn answers_fit_the_frame_and_every_shape_is_made() {
        let world = AnswerWorld::load().expect("the repository's corpus");
        let mut shapes = std::collections::BTreeSet::new();
        for index in 0..200 {
            let (shape, answer) = world.answer(&mut Draw::new(1, index));
            assert!(answer.len() <= MAX_TEXT_FRAME_BYTES, "{shape:?}");
            shapes.insert(shape);
        }
        assert_eq!(shapes.len(), Shape::ALL.len());
    }
}
