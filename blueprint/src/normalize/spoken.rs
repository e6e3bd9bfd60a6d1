//! Spoken answers (final transcripts) read as the item's kind, repaired where speech
//! recognition is known to err, or said to be ambiguous or unclear: never guessed.

use super::expect::{Expectation, SpokenReading, option_label, spell};
use super::heard_option::{OptionMatch, match_option};
use super::hyphenated::unhyphen_octets;
use super::kind::AnswerKind;
use super::kind::read_as;
use super::leadin::{strip_lead_in, strip_loose_lead_in};
use super::lettered::{eighty_homophone, unletter_octets};
use super::options::parse_spoken_choice;
use super::pipeline::Answer;
use super::rejoin::{
    join_and, join_bare, join_tens_thousands, join_tens_units, split_decimal, tens_decimal,
};
use super::resegment::resegment;
use super::text::canonical_text;
use super::tokens::{as_strs, tokenize};
use super::value::{Normalized, NumberValue};
use super::vocab::ordinal_value;

/// Answers that say there is no answer: unclear under every kind.
const NON_ANSWERS: &[&str] = &[
    "i don't know",
    "i do not know",
    "don't know",
    "dunno",
    "no idea",
    "i have no idea",
    "not sure",
    "i'm not sure",
    "no clue",
    "pass",
    "skip",
];

/// Reads a final transcript against what the item expects.
///
/// First the plain readings: an option letter or phrase for a multiple-choice item (which
/// always wins, except that a bare "3rd" .. "9th" for a number item may be "thirty" ..
/// "ninety" and is ambiguous), then the answer as the item's kind ([`super::normalize_as`],
/// lead-ins included). Only when they give neither an option nor a value of the kind are the
/// repairs tried: option phrases matched phonetically when they sound like one ("Abshna",
/// "Absynia" for "option A"; never "Thirde"), numbers joined ("8200 and 6", "7,500 20",
/// "60 2", "30 2766"), homophones of eighty ("AT8", "at 8", "Itchy 5.75", "ii 6.75"),
/// decimals with a loose point when the key is a decimal ("60 2. 5"), and address octets
/// read back ("124.204.at2.0", "109.13d5.0.0") and re-segmented ("126. 3. 13. 5. 254",
/// "131.219.1308. 127", the looped "109.135.0.0.0"). Only when those give nothing is
/// a loose lead-in dropped for a number, percentage, address or prefix ("The network
/// addresses 72.254.192.128.", see [`strip_loose_lead_in`]) and the rest read, plainly or
/// repaired. A text answer to an item with text options that is none of them is also
/// matched phonetically.
/// Repairs never look at the key, so a wrong answer stays wrong; when they give several
/// readings the answer is [`SpokenReading::Ambiguous`].
pub fn read_spoken(transcript: &str, expect: &Expectation<'_>) -> SpokenReading {
    let heard = transcript.split_whitespace().collect::<Vec<_>>().join(" ");
    let answer = Answer::new(transcript);
    let said = canonical_text(&answer.cleaned);
    if said.is_empty() || NON_ANSWERS.contains(&said.as_str()) {
        return SpokenReading::Unclear { heard };
    }
    let answers = with_lead_in(answer, expect.kind);
    if let Some(index) = chosen_option(&answers, expect) {
        if let Some(tens) = tens_like_ordinal(&answers, expect) {
            return SpokenReading::Ambiguous {
                readings: vec![option_label(index), tens.to_string()],
                heard,
            };
        }
        return expect.settle(Normalized::OptionIndex(index), false, &heard);
    }
    if expect.kind == AnswerKind::Text {
        return read_text(&answers, expect, &heard);
    }
    if let Some(value) = answers.iter().find_map(|a| read_as(a, expect.kind)) {
        return expect.settle(value, false, &heard);
    }
    if let Some(reading) = fuzzy_option(&answers, expect, &heard) {
        return reading;
    }
    let mut values = repaired_values(&answers, expect);
    if values.is_empty() {
        values = after_loose_lead_in(&answers, expect);
    }
    match values.as_slice() {
        [] => SpokenReading::Unclear { heard },
        [value] => expect.settle(value.clone(), true, &heard),
        _ => SpokenReading::Ambiguous {
            readings: values.iter().map(|v| spell(v, expect.kind)).collect(),
            heard,
        },
    }
}

/// The distinct values the repairs read in `answers`, in order.
fn repaired_values(answers: &[Answer], expect: &Expectation<'_>) -> Vec<Normalized> {
    let mut values: Vec<Normalized> = Vec::new();
    for value in answers.iter().flat_map(|a| repairs(a, expect)) {
        if !values.contains(&value) {
            values.push(value);
        }
    }
    values
}

/// For a number, percentage, address or prefix: the value after a loose lead-in (the first
/// answer's), read plainly, else the values its repairs read.
fn after_loose_lead_in(answers: &[Answer], expect: &Expectation<'_>) -> Vec<Normalized> {
    let loose_kinds = [
        AnswerKind::Number,
        AnswerKind::Percent,
        AnswerKind::Ipv4,
        AnswerKind::Cidr,
    ];
    let rest = answers
        .first()
        .filter(|_| loose_kinds.contains(&expect.kind))
        .and_then(|a| strip_loose_lead_in(&a.cleaned))
        .map(|rest| Answer::new(&rest));
    let Some(rest) = rest else {
        return Vec::new();
    };
    match read_as(&rest, expect.kind) {
        Some(value) => vec![value],
        None => repaired_values(std::slice::from_ref(&rest), expect),
    }
}

/// The answer, and for every kind but text the answer after a lead-in, when it has one.
fn with_lead_in(answer: Answer, kind: AnswerKind) -> Vec<Answer> {
    let rest = (kind != AnswerKind::Text)
        .then(|| strip_lead_in(&answer.cleaned))
        .flatten()
        .map(|rest| Answer::new(&rest));
    std::iter::once(answer).chain(rest).collect()
}

/// An option letter or phrase ("B", "option bee", "the second one"), for an item with options.
fn chosen_option(answers: &[Answer], expect: &Expectation<'_>) -> Option<usize> {
    let count = expect.options.len();
    if count == 0 {
        return None;
    }
    answers
        .iter()
        .find_map(|a| parse_spoken_choice(&a.cleaned, count))
}

/// For a number or percentage item, a bare ordinal third..ninth ("3rd", "Third"): speech
/// recognition writes the tens number ("Thirty") so, which is read as well as the option
/// ("option C" or 30), never one of them chosen.
fn tens_like_ordinal(answers: &[Answer], expect: &Expectation<'_>) -> Option<i64> {
    if !matches!(expect.kind, AnswerKind::Number | AnswerKind::Percent) {
        return None;
    }
    let tokens = tokenize(&answers.first()?.cleaned);
    let words = as_strs(&tokens);
    let [word] = words[..] else {
        return None;
    };
    let ordinal = ordinal_value(word).filter(|n| (3..=9).contains(n))?;
    i64::try_from(ordinal * 10).ok()
}

/// A text item: the answer as [`super::normalize_answer`] reads it; when it is none of the
/// item's text options, the option it sounds like, if one clearly does.
fn read_text(answers: &[Answer], expect: &Expectation<'_>, heard: &str) -> SpokenReading {
    let Some(answer) = answers.first() else {
        return SpokenReading::Unclear {
            heard: heard.to_string(),
        };
    };
    let count = Some(expect.options.len());
    let value = answer.sniff(count).unwrap_or_else(|| answer.text());
    let plain = expect.settle(value, false, heard);
    match plain {
        SpokenReading::NotAnOption { .. } => fuzzy_option(answers, expect, heard).unwrap_or(plain),
        _ => plain,
    }
}

/// The option a misheard option phrase sounds like, or the two it sounds equally like.
fn fuzzy_option(
    answers: &[Answer],
    expect: &Expectation<'_>,
    heard: &str,
) -> Option<SpokenReading> {
    let found = answers
        .iter()
        .find_map(|a| match_option(&a.cleaned, expect.options))
        .or_else(|| {
            let rest = answers.iter().find_map(|a| after_keyword(&a.cleaned))?;
            match_option(&rest, expect.options)
        })?;
    Some(match found {
        OptionMatch::One(index) => expect.settle(Normalized::OptionIndex(index), true, heard),
        OptionMatch::Tied(first, second) => SpokenReading::Ambiguous {
            heard: heard.to_string(),
            readings: vec![option_label(first), option_label(second)],
        },
    })
}

/// The words after an opening "option" that the recogniser wrote twice, once as the word
/// and once misheard with the letter (`Option "Apshina"` for "option A"): "apshina".
fn after_keyword(cleaned: &str) -> Option<String> {
    let rest = cleaned.trim_start().strip_prefix("option")?;
    let rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
    (!rest.is_empty()).then(|| rest.to_owned())
}

/// The values the repairs for the expected kind read in `answer`.
fn repairs(answer: &Answer, expect: &Expectation<'_>) -> Vec<Normalized> {
    match expect.kind {
        AnswerKind::Number => number_repairs(&answer.cleaned, &answer.repaired, expect),
        AnswerKind::Percent => {
            let number = answer.percent_number().unwrap_or(&answer.repaired);
            number_repairs(number, number, expect)
        }
        AnswerKind::Ipv4 => {
            let rewritten =
                unhyphen_octets(&answer.cleaned).or_else(|| unletter_octets(&answer.repaired));
            resegment(rewritten.as_deref().unwrap_or(&answer.repaired))
                .into_iter()
                .map(Normalized::Ipv4)
                .collect()
        }
        _ => Vec::new(),
    }
}

/// "AT8", "Itchy 5.75" and "ii 6.75" (from the unrepaired text), "8200 and 6", "7,500 20",
/// "60 2", "30 2766", and when the key is a decimal "60 2. 5" and "60 2.5".
fn number_repairs(cleaned: &str, repaired: &str, expect: &Expectation<'_>) -> Vec<Normalized> {
    let whole = [
        join_and(repaired),
        join_bare(repaired),
        join_tens_units(repaired),
        join_tens_thousands(repaired),
    ];
    let decimal = expect
        .decimal
        .then(|| split_decimal(repaired).or_else(|| tens_decimal(repaired)))
        .flatten();
    eighty_homophone(cleaned)
        .into_iter()
        .chain(whole.into_iter().flatten().map(NumberValue::Int))
        .chain(decimal)
        .map(Normalized::Number)
        .collect()
}

#[cfg(test)]
#[path = "spoken_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "spoken_listening_tests.rs"]
mod listening_tests;

#[cfg(test)]
#[path = "spoken_first_try_tests.rs"]
mod first_try_tests;

/// The second measured batch (whisper tiny.en on synthetic speech): mangled lead-ins, "eighty"
/// heard as other words, numbers joined without "and", octets written "tens then unit".
#[cfg(test)]
mod repair_tests {
    use super::tests::{Want, check, check_wrong};

    const CASES: &[(&str, &str, &[&str], Want)] = &[
        (
            "The network addresses 72.254.192.128.",
            "72.254.192.128",
            &[],
            Want::Is("72.254.192.128", None, true),
        ),
        (
            "The network addresses 131.219.1308. 127",
            "131.219.138.127",
            &[],
            Want::Is("131.219.138.127", None, true),
        ),
        ("Not 72.254.192.128", "72.254.192.128", &[], Want::Unclear),
        (
            "the answer eighty five",
            "85",
            &[],
            Want::Is("85", None, true),
        ),
        (
            "the prefix slash 26",
            "/26",
            &[],
            Want::Is("/26", None, true),
        ),
        ("less than 85", "85", &[], Want::Unclear),
        ("it G 5.75", "85.75", &[], Want::Is("85.75", None, true)),
        ("Itchy 5.75.", "85.75", &[], Want::Is("85.75", None, true)),
        ("AT 8", "88", &[], Want::Is("88", None, true)),
        ("at 8", "88", &[], Want::Is("88", None, true)),
        ("the value is at 8", "88", &[], Want::Is("88", None, true)),
        ("the value at 8", "88", &[], Want::Unclear),
        ("hey 5", "85", &[], Want::Is("85", None, true)),
        ("at 8 percent", "88%", &[], Want::Is("88", None, true)),
        ("7,500 20", "7520", &[], Want::Is("7520", None, true)),
        ("7,500-20", "7520", &[], Want::Is("7520", None, true)),
        ("45,700 47", "45747", &[], Want::Is("45747", None, true)),
        ("7,500 600", "7520", &[], Want::Unclear),
        (
            "131.219.1308. 127",
            "131.219.138.127",
            &[],
            Want::Is("131.219.138.127", None, true),
        ),
        (
            "131.219.130.8. 127.",
            "131.219.138.127",
            &[],
            Want::Is("131.219.138.127", None, true),
        ),
        (
            "131. 20. 5. 8. 127",
            "131.25.8.127",
            &[],
            Want::Ambiguous(&["131.20.58.127", "131.25.8.127", "131.205.8.127"]),
        ),
    ];

    #[test]
    fn second_batch_of_misheard_answers_read_as_the_item_expects() {
        for &(transcript, key, options, want) in CASES {
            check((transcript, key, options), want);
        }
    }

    /// `(transcript, key, options)`: answers said wrong, which no repair may make right.
    const WRONG: &[(&str, &str, &[&str])] = &[
        (
            "The network addresses 72.254.192.129.",
            "72.254.192.128",
            &[],
        ),
        ("Not 72.254.192.128", "72.254.192.128", &[]),
        (
            "The network address isn't 72.254.192.128",
            "72.254.192.128",
            &[],
        ),
        ("the answer is not 85", "85", &[]),
        ("less than 85", "85", &[]),
        ("anything but 85", "85", &[]),
        ("option eight", "8", &[]),
        ("it G 5.76", "85.75", &[]),
        ("Itchy 5.7", "85.75", &[]),
        ("itchy 5.75", "5.75", &[]),
        ("at 7", "88", &[]),
        ("AT 9", "88", &[]),
        ("at 8", "8", &[]),
        ("the value at 8", "8", &[]),
        ("hey 5", "5", &[]),
        ("7,500 21", "7520", &[]),
        ("7,500 600", "8100", &[]),
        ("45,700 48", "45747", &[]),
        ("131.219.1308. 126", "131.219.138.127", &[]),
        ("131.219.130.8. 126.", "131.219.138.127", &[]),
        ("131.219.130.7. 127", "131.219.138.127", &[]),
        ("131.219.130. 127", "131.219.138.127", &[]),
    ];

    #[test]
    fn second_batch_of_wrong_answers_stay_wrong() {
        for &(transcript, key, options) in WRONG {
            check_wrong(transcript, key, options);
        }
    }
}
