//! Answer normaliser: turns typed or speech-to-text answers into canonical comparable values.
//!
//! Candidates answer oral-exam items by typing or by voice. [`normalize_answer`] turns what
//! they said into a [`Normalized`] value and [`answers_match`] compares that with the keyed
//! answer the backend computed. Everything here is pure (no IO), allocation-light and never
//! panics: garbage, overflow and ambiguity fall back to `None` or to [`Normalized::Text`].
//!
//! # Pipeline of [`normalize_answer`]
//!
//! 1. **Filler removal.** Lowercase; drop hesitations anywhere ("um", "uh", "er", "erm",
//!    "hmm", "ah"); drop lead-ins at the start, repeatedly and in any order ("so", "well",
//!    "ok", "I think", "I'd say", "it's", "it is", "the answer is", "my answer is",
//!    "that would be", "that's", ...); drop "I think", "I guess", "I believe",
//!    "final answer", "please", "thank you" at the end; trim surrounding sentence punctuation
//!    and quotes.
//! 2. **Speech repairs** (for numbers, addresses and prefixes only; the text fallback keeps
//!    the unrepaired words): aviation digits "niner", "fife", "fower" anywhere; "tree",
//!    "double five", "triple seven" only when the whole answer is digit-by-digit speech
//!    ("tree five" = 35, "one double five" = 155, but "tree" and "the tree" stay text);
//!    digits grouped by spaces in threes ("1 000", "12 500 000"), unless the groups could be
//!    an address.
//! 3. **IPv4** ([`parse_ipv4`]): exactly four octets joined by `.` or the words `dot`/`point`,
//!    with speech-to-text commas and misplaced slashes repaired ("192,168,1,0",
//!    "192.16/8.1.0").
//! 4. **Network** ([`parse_network`]): an address, then `/` or `slash` and a prefix length;
//!    returned as canonical text `192.168.1.0/24`.
//! 5. **CIDR prefix** ([`parse_cidr`]): a leading `/` or the word `slash`, then 0..=32.
//! 6. **Option** ([`parse_option_index`]), only when `option_count` is `Some`: a single letter
//!    in range, or an explicit option phrase ("option b", "choice two", "letter c",
//!    "number two", "the third one", "last option"). A bare number ("2", "two") is *not* an
//!    option, because numeric answers (and numeric options) are common; nor is a bare
//!    ordinal ("second"), which may be a text answer.
//! 7. **Number** ([`parse_number`]): digits with optional sign, comma grouping and decimal
//!    point, or number words, including "point" decimals and "and a half".
//! 8. **Text** ([`canonical_text`]) otherwise.
//!
//! When the caller knows what the item expects, [`normalize_as`] reads the answer as that
//! [`AnswerKind`] only, which allows forms that are ambiguous otherwise (a bare "26" as a
//! prefix, "192 168 1 0" as an address, "bee" as option B, "85 percent" as a percentage,
//! "h e 5" as the code `he5`), and drops a short lead-in ending in "is", "would be", "equals"
//! ("the network address is ...") when what follows reads as the kind. [`answers_match`]
//! infers the kind from the keyed answer ([`AnswerKind::of_key`]) and gives a text answer a
//! second reading as that kind.
//!
//! # Number heuristics
//!
//! * Standard grammar: units, teens, tens, "hundred", then scale words "thousand", "million",
//!   "billion" in strictly decreasing order; "and" only after "hundred" or a scale word
//!   ("one hundred and five", "two thousand and twenty"); "a" only first and only before
//!   "hundred" or a scale ("a hundred", "a million"). Hyphens are spaces ("eighty-five").
//!   A digit token up to 999 may count a scale ("25 thousand", "5 hundred").
//! * Colloquial hundreds: 11..=99 (not a multiple of ten) before "hundred" at the start of a
//!   number means that many hundreds ("twelve hundred" = 1200, "twenty five hundred" = 2500);
//!   no scale word may follow ("twelve hundred thousand" is rejected).
//! * Digit by digit: when every word is a single-digit word (`zero`, `oh`, `o`, `one`..`nine`)
//!   and there are 2..=18 of them, they spell the digits ("one nine two" = 192,
//!   "one oh five" = 105, "zero seven" = 7). A lone `oh`/`o` is not a number (it may be a
//!   letter), except as an IPv4 octet.
//! * Digit plus two-digit number: a single `one`..`nine` followed by 10..=99 in words is
//!   hundreds plus the rest ("one ninety two" = 192, "two fifty five" = 255, "one ten" = 110).
//! * Anything else is rejected as ambiguous: "nineteen two", "twenty twenty", "ten five",
//!   "one hundred five hundred". No year-style pairs.
//! * Decimals: after `point`, either digit words/tokens ("two point five zero" = 2.5,
//!   "point oh five" = 0.05) or one number 10..=99 in words ("two point twenty five" = 2.25).
//!   Values are exact ([`NumberValue`]): "2.50" = "2.5", "85.0" = 85. Whole parts must fit in
//!   an `i64`; all arithmetic is checked.
//! * Sign: a leading `minus`/`negative` word or `-`, not both.
//! * Units are not stripped: "85 knots" and "85 percent" are text unless a percentage is
//!   expected ([`AnswerKind::Percent`], or a keyed answer such as "85%").
//!
//! # Address heuristics
//!
//! * "192 168 1 0" without dots is not an address (it is text) unless an address is expected.
//! * Each octet accepts every unsigned number form above; octets above 255 or with leading
//!   zeros ("01", "zero one") reject the whole address.
//! * "192.168.1.0/26" is neither an address nor a prefix; it is the network text
//!   `192.168.1.0/26`, however it was said.
//! * A prefix needs a marker: "26" and "26 bits" are not prefixes (unless a prefix is
//!   expected, then "26" is). A prefix is not compared with a dotted mask by
//!   [`answers_match`]; use [`prefix_to_mask`] / [`mask_to_prefix`].
//!
//! # Codes
//!
//! A keyed answer that is one word of letters and digits ("HE5", "27L", "A320") is compared
//! without case and separators: "h e 5", "He-5", "H.E. 5" and "h e five" all match "HE5". Only
//! the separators and spelled digits go; every letter and digit must be there, in order.
//!
//! # Spoken answers
//!
//! [`read_spoken`] reads a final transcript against an item's [`Expectation`] (kind, options,
//! whether the key is a decimal) and says how it reads ([`SpokenReading`]): understood, with
//! a canonical `understood_as` that reads back as the same value; a value that is none of the
//! options (to confirm); ambiguous; or unclear. Plain readings come first; only when they
//! fail are the measured whisper errors repaired: option phrases matched phonetically, only
//! when they open like one ("Abshna", "Absynia" for "option A"; "Thirde" is no option), "8200
//! and 6", "7,500 20", "60 2", "30 2766" (32766), "AT8", "at 8", "Itchy 5.75", "ii 6.75"
//! (86.75), "60 2. 5" (decimal keys only), address octets with letters ("124.204.at2.0",
//! "109.13d5.0.0") and address octets re-segmented ("126. 3. 13. 5. 254", "131.219.1308.
//! 127") or read once when looped ("109.135.0.0.0"); last, a loose lead-in is dropped before
//! a number, percentage, address or prefix ("The network addresses 72.254.192.128."), never
//! one with a negation, a qualifier or a number word. A bare "3rd" for a number item is
//! option C or thirty: ambiguous. Repairs never look at the key, and several equally good
//! readings are ambiguous, never guessed.
//!
//! # Number words
//!
//! [`vocab`] is the one table of English number words (digits, teens, tens, scales,
//! ordinals, "oh", "point", "dot"); the readers here use it, and so does [`spell`], which says
//! numbers in those words (the load tester's synthesised answers) and is tested round trip
//! against the readers.

mod alnum;
mod artefacts;
mod cidr;
mod closest;
mod decimals;
mod expect;
mod fillers;
mod grammar;
mod heard_option;
mod hyphenated;
mod ipv4;
mod kind;
mod leadin;
mod lettered;
mod matching;
mod network;
mod numbers;
mod options;
pub(crate) mod phonetic;
mod pipeline;
mod rejoin;
mod resegment;
mod speech;
pub mod spell;
mod spoken;
mod text;
mod tokens;
mod value;
pub mod vocab;

pub use cidr::{mask_to_prefix, parse_cidr, prefix_to_mask};
pub use closest::closest_option;
pub use decimals::{parse_number, parse_number_words, parse_spoken_number};
pub use expect::{Expectation, SpokenReading};
pub use ipv4::parse_ipv4;
pub use kind::{AnswerKind, normalize_as};
pub use matching::answers_match;
pub use network::parse_network;
pub use options::parse_option_index;
pub use pipeline::normalize_answer;
pub use spoken::read_spoken;
pub use text::canonical_text;
pub use value::{Normalized, NumberValue};
pub use vocab::{is_number_word, number_reach, starts_spoken_number};

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected result, in a form that fits in a `const` table.
    #[derive(Clone, Copy)]
    pub(super) enum Exp {
        Int(i64),
        Dec(&'static str),
        Ip([u8; 4]),
        Cidr(u8),
        Opt(usize),
        Text(&'static str),
    }

    impl Exp {
        pub(super) fn into_normalized(self) -> Normalized {
            match self {
                Exp::Int(v) => Normalized::Number(NumberValue::Int(v)),
                Exp::Dec(t) => Normalized::Number(NumberValue::Decimal { text: t.into() }),
                Exp::Ip(a) => Normalized::Ipv4(a),
                Exp::Cidr(p) => Normalized::Cidr(p),
                Exp::Opt(i) => Normalized::OptionIndex(i),
                Exp::Text(t) => Normalized::Text(t.into()),
            }
        }
    }

    /// `input` is `(raw answer, option count)`.
    fn check(input: (&str, Option<usize>), expected: Exp) {
        let (raw, options) = input;
        let expected = expected.into_normalized();
        assert_eq!(normalize_answer(raw, options), expected, "input: {input:?}");
    }

    const MC: Option<usize> = Some(4);

    const CASES: &[(&str, Option<usize>, Exp)] = &[
        // Numbers, typed and spoken, with speech-to-text noise.
        ("85", None, Exp::Int(85)),
        ("85.", None, Exp::Int(85)),
        ("Eighty five.", None, Exp::Int(85)),
        ("Eighty-five", None, Exp::Int(85)),
        ("Um, eighty five", None, Exp::Int(85)),
        ("uh eighty uh five", None, Exp::Int(85)),
        ("The answer is 85.", None, Exp::Int(85)),
        ("I think it's eighty-five, um.", None, Exp::Int(85)),
        (
            "So, my answer is one hundred and five.",
            None,
            Exp::Int(105),
        ),
        (
            "that would be two thousand three hundred",
            None,
            Exp::Int(2_300),
        ),
        ("1,200", None, Exp::Int(1_200)),
        ("Twelve hundred.", None, Exp::Int(1_200)),
        ("a hundred", None, Exp::Int(100)),
        ("A hundred", MC, Exp::Int(100)),
        ("minus seven", None, Exp::Int(-7)),
        ("-7", None, Exp::Int(-7)),
        ("zero", None, Exp::Int(0)),
        ("two point five", None, Exp::Dec("2.5")),
        ("Two point five zero.", None, Exp::Dec("2.5")),
        ("2.50", None, Exp::Dec("2.5")),
        ("85.0", None, Exp::Int(85)),
        ("point five", None, Exp::Dec("0.5")),
        ("it's two and a half", None, Exp::Dec("2.5")),
        ("one nine two", None, Exp::Int(192)),
        ("one ninety two", None, Exp::Int(192)),
        ("two billion", None, Exp::Int(2_000_000_000)),
        ("2", MC, Exp::Int(2)),
        ("two", MC, Exp::Int(2)),
        ("The answer is two.", MC, Exp::Int(2)),
        // Addresses and masks.
        ("192.168.1.0", None, Exp::Ip([192, 168, 1, 0])),
        ("192.168.1.0.", None, Exp::Ip([192, 168, 1, 0])),
        ("Um, it's 192.168.1.128.", None, Exp::Ip([192, 168, 1, 128])),
        ("255.255.255.192", MC, Exp::Ip([255, 255, 255, 192])),
        (
            "one nine two dot one six eight dot one dot zero",
            None,
            Exp::Ip([192, 168, 1, 0]),
        ),
        (
            "One ninety-two dot one sixty-eight dot one dot zero.",
            None,
            Exp::Ip([192, 168, 1, 0]),
        ),
        (
            "one hundred ninety two point one sixty eight point zero point one",
            None,
            Exp::Ip([192, 168, 0, 1]),
        ),
        (
            "uh ten dot zero dot uh zero dot one",
            None,
            Exp::Ip([10, 0, 0, 1]),
        ),
        (
            "The mask is two five five dot two five five dot two five five dot one nine two",
            None,
            Exp::Text(
                "the mask is two five five dot two five five dot two five five dot one nine two",
            ),
        ),
        ("192 168 1 0", None, Exp::Text("192 168 1 0")),
        ("256.1.1.1", None, Exp::Text("256.1.1.1")),
        ("192.168.1.0/26", None, Exp::Text("192.168.1.0/26")),
        // CIDR prefixes.
        ("/26", None, Exp::Cidr(26)),
        ("/26.", MC, Exp::Cidr(26)),
        ("slash twenty six", None, Exp::Cidr(26)),
        ("Slash twenty-six.", None, Exp::Cidr(26)),
        ("Um, slash, uh, 24", None, Exp::Cidr(24)),
        ("It's a slash 26", None, Exp::Text("a slash 26")),
        ("26 bits", None, Exp::Text("26 bits")),
        ("slash 40", None, Exp::Text("slash 40")),
        // Options.
        ("B", MC, Exp::Opt(1)),
        ("b)", MC, Exp::Opt(1)),
        ("(b)", MC, Exp::Opt(1)),
        ("B.", MC, Exp::Opt(1)),
        ("The answer is B.", MC, Exp::Opt(1)),
        ("Um, the answer is, uh, B.", MC, Exp::Opt(1)),
        ("B, I think.", MC, Exp::Opt(1)),
        ("I'd say C", MC, Exp::Opt(2)),
        ("a", MC, Exp::Opt(0)),
        ("Option B", MC, Exp::Opt(1)),
        ("option two", MC, Exp::Opt(1)),
        ("choice two", MC, Exp::Opt(1)),
        ("letter c", MC, Exp::Opt(2)),
        ("answer c", MC, Exp::Opt(2)),
        ("the third one", MC, Exp::Opt(2)),
        ("It's the third one.", MC, Exp::Opt(2)),
        ("the last one", MC, Exp::Opt(3)),
        ("number two", MC, Exp::Opt(1)),
        ("option bravo", MC, Exp::Opt(1)),
        ("second", MC, Exp::Text("second")),
        ("E", MC, Exp::Text("e")),
        ("option e", MC, Exp::Text("option e")),
        ("B", None, Exp::Text("b")),
        ("option two", None, Exp::Text("option two")),
        ("the third one", None, Exp::Text("the third one")),
        ("B", Some(0), Exp::Text("b")),
        // Text fallback and ambiguity.
        ("Class B airspace", None, Exp::Text("class b airspace")),
        ("Class B airspace", MC, Exp::Text("class b airspace")),
        (
            "Um, I think it's Class B airspace.",
            None,
            Exp::Text("class b airspace"),
        ),
        ("nineteen two", None, Exp::Text("nineteen two")),
        ("twenty twenty", None, Exp::Text("twenty twenty")),
        (
            "eighty five percent",
            None,
            Exp::Text("eighty five percent"),
        ),
        ("one hundred and", None, Exp::Text("one hundred and")),
        (
            "9999999999999999999999",
            None,
            Exp::Text("9999999999999999999999"),
        ),
        ("b and c", MC, Exp::Text("b and c")),
        ("", None, Exp::Text("")),
        ("Um.", None, Exp::Text("")),
        ("!!!", MC, Exp::Text("")),
    ];

    #[test]
    fn table() {
        for &(raw, options, expected) in CASES {
            check((raw, options), expected);
        }
    }
}
