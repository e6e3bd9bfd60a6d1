//! What an item expects of a spoken answer, and the readings [`super::read_spoken`] gives back.

use super::kind::AnswerKind;
use super::kind::read_as;
use super::matching::answers_match;
use super::pipeline::Answer;
use super::pipeline::normalize_answer;
use super::value::{Normalized, NumberValue};

/// What an item expects: its answer kind (from the key) and the options it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expectation<'a> {
    /// The kind of the keyed answer ([`AnswerKind::of_key`]).
    pub kind: AnswerKind,
    /// The options the item shows; empty for a short-answer item.
    pub options: &'a [String],
    /// Whether the key has a fractional part ("62.5"): only then is a decimal whose point
    /// speech recognition wrote apart ("62. 5", "60 2. 5") read.
    pub decimal: bool,
}

impl<'a> Expectation<'a> {
    /// The expectation of an item keyed `answer_key` showing `options`:
    /// kind = [`AnswerKind::of_key`]`(answer_key)`, `decimal` when the key reads as a number
    /// with a fractional part.
    pub fn of_item(answer_key: &str, options: &'a [String]) -> Expectation<'a> {
        let kind = AnswerKind::of_key(answer_key);
        let key = read_as(&Answer::new(answer_key), kind);
        let decimal = matches!(key, Some(Normalized::Number(NumberValue::Decimal { .. })));
        Expectation {
            kind,
            options,
            decimal,
        }
    }

    /// Whether every option reads as a value of the expected kind (text options do for a
    /// text item), so that a value which is none of them is worth a confirmation.
    fn options_are_values(&self) -> bool {
        !self.options.is_empty()
            && (self.kind == AnswerKind::Text
                || self
                    .options
                    .iter()
                    .all(|o| read_as(&Answer::new(o), self.kind).is_some()))
    }

    /// The reading of `value`: [`SpokenReading::Understood`], or
    /// [`SpokenReading::NotAnOption`] when the item's options are values and it is none of
    /// them; [`SpokenReading::Unclear`] when its canonical text would not read back as it.
    pub(super) fn settle(&self, value: Normalized, repaired: bool, heard: &str) -> SpokenReading {
        let understood_as = spell(&value, self.kind);
        if normalize_answer(&understood_as, Some(self.options.len())) != value {
            return SpokenReading::Unclear {
                heard: heard.to_string(),
            };
        }
        let option = match value {
            Normalized::OptionIndex(index) => Some(index),
            _ => self.options.iter().position(|o| answers_match(&value, o)),
        };
        if option.is_none() && self.options_are_values() {
            return SpokenReading::NotAnOption {
                value,
                understood_as,
            };
        }
        SpokenReading::Understood {
            value,
            understood_as,
            option,
            repaired,
        }
    }
}

/// How a spoken answer (a final transcript) reads against an expectation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpokenReading {
    /// Read as one value of the expected kind, or as one option. `understood_as` is a short
    /// canonical text the server shows the candidate and commits as the answer ("8206",
    /// "62.5", "192.168.10.0", "/26", "option B"); it round-trips:
    /// [`normalize_answer`]`(understood_as, Some(options.len()))` gives back `value`.
    /// `option` is the 0-based index of the option this value is (a letter or option
    /// phrase, or a value equal to an option by [`answers_match`]), if any. `repaired` says
    /// a repair was needed.
    Understood {
        /// The answer's value.
        value: Normalized,
        /// Its canonical text, to show and to commit.
        understood_as: String,
        /// The option it is, if any.
        option: Option<usize>,
        /// Whether a repair of a speech-recognition error was needed.
        repaired: bool,
    },
    /// A value of the expected kind that is none of the shown options (options exist and are
    /// values of that kind): the server asks to confirm ("I heard 7,400 — is that your
    /// answer?").
    NotAnOption {
        /// The answer's value.
        value: Normalized,
        /// Its canonical text, to show and to commit once confirmed.
        understood_as: String,
    },
    /// Two or more readings are about equally close (two options phonetically close, an
    /// address whose digits allow several segmentations): never guessed.
    Ambiguous {
        /// The transcript, tidied for display.
        heard: String,
        /// The canonical texts of the readings.
        readings: Vec<String>,
    },
    /// Cannot be read as the item's kind ("255. 192.", "I don't know", noise).
    Unclear {
        /// The transcript, tidied for display.
        heard: String,
    },
}

/// The canonical text of a value: digits, a dotted address, "/26", "option B", a code in
/// capitals, or the text itself.
pub(super) fn spell(value: &Normalized, kind: AnswerKind) -> String {
    match value {
        Normalized::Number(number) => number.to_string(),
        Normalized::Ipv4([a, b, c, d]) => format!("{a}.{b}.{c}.{d}"),
        Normalized::Cidr(prefix) => format!("/{prefix}"),
        Normalized::OptionIndex(index) => option_label(*index),
        Normalized::Text(text) if kind == AnswerKind::Alphanumeric => text.to_uppercase(),
        Normalized::Text(text) => text.clone(),
    }
}

/// "option A" .. "option Z", then "option 27" and on.
pub(super) fn option_label(index: usize) -> String {
    match u8::try_from(index).ok().filter(|i| *i < 26) {
        Some(letter) => format!("option {}", char::from(b'A' + letter)),
        None => format!("option {}", index.saturating_add(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_string()).collect()
    }

    #[test]
    fn expectation_of_an_item() {
        let none: Vec<String> = Vec::new();
        let cases: &[(&str, AnswerKind, bool)] = &[
            ("8206", AnswerKind::Number, false),
            ("62.5", AnswerKind::Number, true),
            ("12.5%", AnswerKind::Percent, true),
            ("85%", AnswerKind::Percent, false),
            ("192.168.10.0", AnswerKind::Ipv4, false),
            ("/26", AnswerKind::Cidr, false),
            ("HE5", AnswerKind::Alphanumeric, false),
            ("Class B airspace", AnswerKind::Text, false),
        ];
        for &(key, kind, decimal) in cases {
            let expect = Expectation::of_item(key, &none);
            assert_eq!((expect.kind, expect.decimal), (kind, decimal), "{key:?}");
        }
    }

    #[test]
    fn labels_read_back_as_their_option() {
        for index in [0, 1, 25, 26, 99] {
            let label = option_label(index);
            let read = normalize_answer(&label, Some(100));
            assert_eq!(read, Normalized::OptionIndex(index), "{label:?}");
        }
    }

    #[test]
    fn settled_values_and_options() {
        let options = strings(&["77400", "74700", "7740", "77040"]);
        let expect = Expectation::of_item("77400", &options);
        let value = Normalized::Number(NumberValue::Int(7_740));
        let reading = expect.settle(value.clone(), true, "7740");
        let understood = SpokenReading::Understood {
            value,
            understood_as: "7740".into(),
            option: Some(2),
            repaired: true,
        };
        assert_eq!(reading, understood);
        let value = Normalized::Number(NumberValue::Int(7_400));
        let reading = expect.settle(value.clone(), false, "7,400");
        let understood_as = "7400".to_string();
        assert_eq!(
            reading,
            SpokenReading::NotAnOption {
                value,
                understood_as
            }
        );
    }

    #[test]
    fn values_that_would_not_read_back_are_unclear() {
        let none: Vec<String> = Vec::new();
        let expect = Expectation::of_item("Class B airspace", &none);
        let reading = expect.settle(Normalized::Text("85".into()), false, "85");
        let heard = "85".to_string();
        assert_eq!(reading, SpokenReading::Unclear { heard });
    }
}
