//! Option phrases as speech recognition mis-spells them ("Abshna", "Aptina" for "option A"),
//! matched by their phonetic keys against every option's spoken forms.

use std::collections::HashSet;

use super::phonetic::{LETTER_NAMES, distance, key};
use super::vocab::{digit_word, scale_value, starts_spoken_number};

/// Words that introduce an option letter; alone they are an option phrase with no letter.
pub(super) const KEYWORDS: [&str; 4] = ["option", "letter", "choice", "answer"];

/// Number words and their homophones: a transcript with one is a value, never fuzzily an
/// option ("option eight" is not "option a").
const NUMBERISH: &[&str] = &[
    "hundred", "point", "dot", "ate", "won", "to", "too", "for", "fore", "tree", "niner", "fife",
    "fower",
];

/// The shortest transcript key matched: shorter ones ("eh", "be") are too little evidence.
const MIN_KEY_LEN: usize = 3;

/// How a transcript matches the shown options' spoken forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OptionMatch {
    /// Close to this option and clearly closer than to anything else.
    One(usize),
    /// Close to the first, but about as close to the second.
    Tied(usize, usize),
}

/// What a spoken form stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A shown option.
    Shown(usize),
    /// A letter with no option, or a keyword said with no letter: never a reading.
    Other,
}

/// The option whose spoken forms ("option ay", "letter ay", "ay", its own text when it is
/// words) the filler-free transcript `cleaned` sounds like; `None` when it has a digit or
/// a number word, when nothing is close, or when the nearest other form is no option (a
/// letter the item does not show, or a keyword with no letter). An unshown form whose key is
/// a shown form's key ("option pee" beside "option bee") is no competitor: the key cannot
/// tell them apart, and only the shown one is an answer.
///
/// Distances are in half-edits (see [`distance`]). The best form must be within a quarter of
/// the longer key (`2 * d <= max_len`, so `d / (2 * max_len) <= 0.25`): the measured
/// mis-hearings of "option A" are 0–2 half-edits over six sounds (at most 0.17), while two
/// wrong consonants in a six-sound phrase (0.33) are rejected. Everything else (other options,
/// unshown letters, bare keywords) must be at least one whole consonant edit (2) further.
pub(super) fn match_option(cleaned: &str, options: &[String]) -> Option<OptionMatch> {
    if is_numberish(cleaned) {
        return None;
    }
    let heard = key(cleaned);
    if heard.len() < MIN_KEY_LEN {
        return None;
    }
    let opens_like_one = opens_like_keyword(&heard);
    let forms: Vec<(Target, Vec<u8>)> = spoken_forms(options, opens_like_one)
        .into_iter()
        .map(|(target, form)| (target, key(&form)))
        .collect();
    // A key more than twice as long as every form is more than a quarter away from all.
    let longest = forms.iter().map(|(_, form)| form.len()).max().unwrap_or(0);
    if heard.len() > 2 * longest {
        return None;
    }
    let shown: HashSet<&[u8]> = forms
        .iter()
        .filter(|(target, _)| *target != Target::Other)
        .map(|(_, form)| form.as_slice())
        .collect();
    let mut ranked: Vec<(usize, usize, Target)> = forms
        .iter()
        .filter(|(target, form)| *target != Target::Other || !shown.contains(form.as_slice()))
        .map(|(target, form)| {
            let d = distance(&heard, form);
            (d, heard.len().max(form.len()), *target)
        })
        .collect();
    ranked.sort_by_key(|&(d, _, _)| d);
    let &(best, len, Target::Shown(index)) = ranked.first()? else {
        return None;
    };
    if 2 * best > len {
        return None;
    }
    let runner_up = ranked.iter().find(|(_, _, t)| *t != Target::Shown(index))?;
    match *runner_up {
        (d, _, _) if d >= best + 2 => Some(OptionMatch::One(index)),
        (_, _, Target::Shown(other)) => Some(OptionMatch::Tied(index, other)),
        (_, _, Target::Other) => None,
    }
}

/// Every letter's forms ("option ay", "letter ay", "choice ay", "answer ay", "ay"), the bare
/// keywords, and each shown option's own text when it is words, with its
/// [`letter_variants`] as competitors. A keyword form is a reading only when the transcript
/// `opens_like_keyword` (see [`opens_like_keyword`]); otherwise it only competes, so that a
/// word such as "Thirde" (said "thirty") is never "letter dee".
fn spoken_forms(options: &[String], opens_like_keyword: bool) -> Vec<(Target, String)> {
    let mut forms = Vec::new();
    for (index, name) in LETTER_NAMES.iter().enumerate() {
        let target = if index < options.len() {
            Target::Shown(index)
        } else {
            Target::Other
        };
        let keyword_target = if opens_like_keyword {
            target
        } else {
            Target::Other
        };
        forms.extend(
            KEYWORDS
                .iter()
                .map(|k| (keyword_target, format!("{k} {name}"))),
        );
        forms.push((target, (*name).to_string()));
    }
    forms.extend(KEYWORDS.iter().map(|k| (Target::Other, (*k).to_string())));
    let texts = options.iter().enumerate().take(LETTER_NAMES.len());
    for (index, text) in texts.filter(|(_, text)| is_words(text)) {
        forms.push((Target::Shown(index), text.clone()));
        let variants = letter_variants(text, options);
        forms.extend(variants.into_iter().map(|v| (Target::Other, v)));
    }
    forms
}

/// Whether a phonetic key opens like an option keyword, the evidence that a transcript is an
/// option phrase at all: a vowel then a "p" or "sh" sound, as "option" opens ("Opshun",
/// "Abshna", "Aptina", "Absynia", "A-Shancey"), or the first three sounds of a keyword
/// ("lettuce sea" for "letter c").
pub(super) fn opens_like_keyword(heard: &[u8]) -> bool {
    let vowel = heard
        .first()
        .is_some_and(|s| matches!(s, b'A' | b'a' | b'e' | b'o'));
    let like_option = vowel && matches!(heard.get(1), Some(b'P' | b'X'));
    like_option
        || KEYWORDS.iter().any(|keyword| {
            let opening = key(keyword);
            opening.get(..3).is_some_and(|o| heard.starts_with(o))
        })
}

/// `text` with one single-letter word replaced by another letter, where that is no option's
/// text ("Class E airspace" for "Class B airspace"), so that a letter said that no option has
/// is never read as the option it resembles.
fn letter_variants(text: &str, options: &[String]) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let is_option = |variant: &str| {
        options.iter().any(|o| {
            let spaced = o.split_whitespace().collect::<Vec<_>>().join(" ");
            spaced.eq_ignore_ascii_case(variant)
        })
    };
    let mut variants = Vec::new();
    for (at, word) in words.iter().enumerate() {
        if !(word.len() == 1 && word.chars().all(|c| c.is_ascii_alphabetic())) {
            continue;
        }
        for letter in 'a'..='z' {
            let letter = letter.to_string();
            let mut variant = words.clone();
            if let Some(slot) = variant.get_mut(at) {
                *slot = &letter;
            }
            let variant = variant.join(" ");
            if !is_option(&variant) {
                variants.push(variant);
            }
        }
    }
    variants
}

/// Letters, spaces, hyphens and apostrophes, with at least one letter ("Class B airspace").
fn is_words(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c.is_whitespace() || matches!(c, '-' | '\''))
}

/// Whether `text` has a digit or a number word (or homophone).
fn is_numberish(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
        || text.split(|c: char| !c.is_ascii_alphabetic()).any(|w| {
            starts_spoken_number(w)
                || digit_word(w).is_some()
                || scale_value(w).is_some()
                || NUMBERISH.contains(&w)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_string()).collect()
    }

    #[test]
    fn option_phrases_as_misheard() {
        let abcd = options(&["77400", "74700", "7740", "77040"]);
        let airspace = options(&[
            "Class A airspace",
            "Class B airspace",
            "Class C airspace",
            "Class D airspace",
        ]);
        let one = |i| Some(OptionMatch::One(i));
        let cases: &[(&str, &[String], Option<OptionMatch>)] = &[
            ("abshna", &abcd, one(0)),
            ("apshana", &abcd, one(0)),
            ("aptina", &abcd, one(0)),
            ("opshun b", &abcd, one(1)),
            ("opshun dee", &abcd, one(3)),
            ("lettuce sea", &abcd, one(2)),
            ("class bee airspace", &airspace, one(1)),
            ("class sea airspace", &airspace, one(2)),
            ("class e airspace", &airspace, None),
            ("class airspace", &airspace, None),
            ("class bee", &airspace, None),
            ("option", &abcd, None),
            ("opshun", &abcd, None),
            ("option eight", &abcd, None),
            ("option ate", &abcd, None),
            ("at8", &abcd, None),
            ("thank you", &abcd, None),
            ("i don't know", &abcd, None),
            ("eh", &abcd, None),
            ("", &abcd, None),
            ("abshna", &[], None),
            ("option e", &abcd, None),
            ("opshun ee", &abcd, None),
            ("opshun bee", &options(&["x"]), None),
            ("opshun bee", &options(&["x", "y"]), one(1)),
            ("absynia", &abcd, one(0)),
            ("a shancey", &abcd, None),
            ("up shimzy", &abcd, one(2)),
            ("thirde", &abcd, None),
            ("third d", &abcd, None),
            ("erdi", &abcd, None),
            ("forde", &abcd, None),
            ("absune", &abcd, None),
            ("up shanei", &abcd, None),
        ];
        for (text, opts, expected) in cases {
            assert_eq!(match_option(text, opts), *expected, "{text:?}");
        }
    }
}
