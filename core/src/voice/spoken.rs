//! What a spoken answer to an item becomes: an answer to record, or a question back to the
//! candidate. Pure. A spoken answer is read as the item's kind with speech repairs
//! ([`read_spoken`]); when it cannot be read, or could be read several ways, or is a value
//! none of the options has, nothing is recorded: the server says what it heard and asks
//! again, and for a value it could read ("I heard 7400") a "yes" keeps it. Typed answers
//! never come here: they are never second-guessed.

use viva_blueprint::normalize::{Expectation, SpokenReading, closest_option, read_spoken};

/// A reading the candidate may confirm with "yes".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmable {
    /// The question it answers.
    pub question_id: String,
    /// The answer "yes" records.
    pub understood_as: String,
}

/// What to do with a spoken answer to an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpokenDecision {
    /// Record this text as the answer: the canonical reading, which judges exactly as the
    /// value the server understood.
    Record(String),
    /// Record nothing; tell the candidate.
    AskAgain(Unclear),
}

/// Why a spoken answer was not recorded, and what to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclear {
    /// What was heard, tidied.
    pub heard: String,
    /// `not_read`, `ambiguous` or `not_an_option`.
    pub reason: &'static str,
    /// Readings the server could not choose between.
    pub readings: Vec<String>,
    /// The one reading it has, which "yes" keeps: a value of the item's kind, or the option
    /// offered in `closest_option` ("option A").
    pub understood_as: Option<String>,
    /// For an answer that could not be read, the letter of the shown option it is clearly
    /// nearest to, offered back ("Did you mean option A, …?").
    pub closest_option: Option<String>,
    /// What to tell the candidate.
    pub message: String,
}

/// Decides what the final transcript `text` of a turn answering an item does. `pending` is a
/// reading offered for confirmation on the previous turn of the same question, if any: a
/// "yes" records it; anything else is read afresh.
pub fn decide(
    text: &str,
    expect: &Expectation<'_>,
    pending: Option<&Confirmable>,
) -> SpokenDecision {
    if let Some(pending) = pending
        && is_affirmation(text)
    {
        return SpokenDecision::Record(pending.understood_as.clone());
    }
    match read_spoken(text, expect) {
        SpokenReading::Understood { understood_as, .. } => SpokenDecision::Record(understood_as),
        SpokenReading::NotAnOption { understood_as, .. } => SpokenDecision::AskAgain(Unclear {
            heard: tidy(text),
            reason: "not_an_option",
            readings: Vec::new(),
            message: format!(
                "I heard {understood_as}, which is not one of the options. Say your answer \
                 again, or say yes to keep {understood_as}."
            ),
            understood_as: Some(understood_as),
            closest_option: None,
        }),
        SpokenReading::Ambiguous { heard, readings } => SpokenDecision::AskAgain(Unclear {
            message: format!(
                "I heard \"{heard}\", which could be {}. Please say your answer again.",
                either(&readings)
            ),
            heard,
            reason: "ambiguous",
            readings,
            understood_as: None,
            closest_option: None,
        }),
        SpokenReading::Unclear { heard } => SpokenDecision::AskAgain(not_read(heard, expect)),
    }
}

/// An answer that could not be read: what was heard, and the option it is clearly nearest
/// to, if any, offered for a "yes".
fn not_read(heard: String, expect: &Expectation<'_>) -> Unclear {
    let offer = closest_option(&heard, expect.options).and_then(|index| {
        let letter = u8::try_from(index).ok().filter(|i| *i < 26)?;
        let value = expect.options.get(index)?;
        Some((char::from(b'A' + letter).to_string(), value))
    });
    let Some((letter, value)) = offer else {
        return Unclear {
            message: format!(
                "I heard \"{heard}\", but I could not make out an answer. Please say it again."
            ),
            heard,
            reason: "not_read",
            readings: Vec::new(),
            understood_as: None,
            closest_option: None,
        };
    };
    Unclear {
        message: format!(
            "I heard \"{heard}\". Did you mean option {letter}, {value}? Say yes, or say \
             your answer again."
        ),
        heard,
        reason: "not_read",
        readings: Vec::new(),
        understood_as: Some(format!("option {letter}")),
        closest_option: Some(letter),
    }
}

/// "a or b", "a, b or c".
fn either(readings: &[String]) -> String {
    match readings.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "several answers".to_owned(),
    }
}

fn tidy(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Words that confirm, alone or together ("yes", "yes that's right", "correct").
const AFFIRMATIONS: &[&str] = &[
    "yes",
    "yeah",
    "yep",
    "yup",
    "correct",
    "right",
    "that's",
    "thats",
    "it",
    "is",
    "that",
    "my",
    "answer",
    "confirm",
    "confirmed",
    "affirmative",
    "please",
    "keep",
];

/// Whether `text` says yes and nothing else: "Yes.", "Yes, that's right", "Correct", "Yeah,
/// keep it". "Yes, 7,700" is not (it is a new answer); neither is "no" or "that's wrong".
pub fn is_affirmation(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let says_yes = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "yes" | "yeah" | "yep" | "yup" | "correct" | "affirmative" | "confirm" | "confirmed"
        )
    });
    says_yes && words.iter().all(|w| AFFIRMATIONS.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| (*v).to_owned()).collect()
    }

    #[test]
    fn yes_and_only_yes_confirms() {
        for yes in [
            "Yes.",
            "yes, that's right",
            "Correct.",
            "Yeah, keep it",
            "yep",
        ] {
            assert!(is_affirmation(yes), "{yes}");
        }
        for not in [
            "No.",
            "that's wrong",
            "Yes, 7,700",
            "right turn",
            "",
            "It is 42",
        ] {
            assert!(!is_affirmation(not), "{not}");
        }
    }

    #[test]
    fn a_clear_answer_is_recorded_as_its_reading() {
        let shown = options(&["42", "52", "32", "41"]);
        let expect = Expectation::of_item("42", &shown);
        assert_eq!(
            decide("Forty two.", &expect, None),
            SpokenDecision::Record("42".into())
        );
    }

    #[test]
    fn a_value_none_of_the_options_has_is_offered_for_confirmation() {
        let shown = options(&["77400", "74700", "7740", "77040"]);
        let expect = Expectation::of_item("77400", &shown);
        let SpokenDecision::AskAgain(unclear) = decide("7,400", &expect, None) else {
            panic!("recorded a value that is no option");
        };
        assert_eq!(unclear.reason, "not_an_option");
        assert_eq!(unclear.understood_as.as_deref(), Some("7400"));
        assert!(
            unclear.message.contains("I heard 7400"),
            "{}",
            unclear.message
        );
        let pending = Confirmable {
            question_id: "i1".into(),
            understood_as: "7400".into(),
        };
        assert_eq!(
            decide("Yes.", &expect, Some(&pending)),
            SpokenDecision::Record("7400".into())
        );
        assert_eq!(
            decide(
                "seventy seven thousand four hundred",
                &expect,
                Some(&pending)
            ),
            SpokenDecision::Record("77400".into())
        );
    }

    #[test]
    fn an_unreadable_answer_offers_the_option_it_is_nearest_to() {
        let shown = options(&[
            "255.255.255.192",
            "255.255.255.224",
            "255.255.255.128",
            "255.255.255.240",
        ]);
        let expect = Expectation::of_item("255.255.255.224", &shown);
        let SpokenDecision::AskAgain(unclear) = decide("Option \"Option \"", &expect, None) else {
            panic!("recorded an option phrase with no letter");
        };
        assert_eq!(unclear.closest_option, None);
        let SpokenDecision::AskAgain(unclear) = decide("Opshun Beeble.", &expect, None) else {
            panic!("read a garbled phrase without asking");
        };
        assert_eq!(unclear.reason, "not_read");
        assert_eq!(unclear.closest_option.as_deref(), Some("B"));
        assert_eq!(unclear.understood_as.as_deref(), Some("option B"));
        assert_eq!(
            unclear.message,
            "I heard \"Opshun Beeble.\". Did you mean option B, 255.255.255.224? Say yes, or \
             say your answer again."
        );
        let SpokenDecision::AskAgain(digits) = decide("255.255.255.1922", &expect, None) else {
            panic!("read an address with a four-digit octet");
        };
        assert_eq!(digits.closest_option.as_deref(), Some("A"));
        let pending = Confirmable {
            question_id: "i1".into(),
            understood_as: "option B".into(),
        };
        assert_eq!(
            decide("Yes.", &expect, Some(&pending)),
            SpokenDecision::Record("option B".into())
        );
    }

    #[test]
    fn nothing_readable_is_asked_again_and_yes_without_an_offer_is_no_answer() {
        let shown = options(&["192.168.10.0", "192.168.10.64", "192.168.0.0", "10.0.0.0"]);
        let expect = Expectation::of_item("192.168.10.0", &shown);
        let SpokenDecision::AskAgain(unclear) = decide("255. 192.", &expect, None) else {
            panic!("recorded an address with two octets");
        };
        assert_eq!(unclear.reason, "not_read");
        assert!(matches!(
            decide("Yes.", &expect, None),
            SpokenDecision::AskAgain(_)
        ));
    }
}
