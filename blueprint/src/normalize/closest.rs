//! The shown option an unreadable spoken answer is nearest to, so that the server can offer
//! it back ("I heard 'Option Apshina'. Did you mean option A, 255.255.255.192?") instead of
//! only asking again. An offer, never a reading: nothing is recorded unless the candidate
//! says yes. Looser than [`super::heard_option`], which reads without asking.

use super::heard_option::{KEYWORDS, opens_like_keyword};
use super::phonetic::{LETTER_NAMES, distance, key};

/// The fewest digits a transcript must have to be compared by its digits.
const MIN_DIGITS: usize = 2;
/// The fewest sounds a transcript must have to be compared by its sound.
const MIN_SOUNDS: usize = 3;

/// The option `transcript` is clearly nearest to: by its digits when it has some and the
/// options do (at most one digit edit in three), else, when it opens like an option phrase
/// ("Opshina …") and is more than the keyword, by its sound against "option ay", "ay" and
/// the option's own words (at most one half-edit per sound of the longer key). `None` when
/// nothing is near, or two options are about as near.
pub fn closest_option(transcript: &str, options: &[String]) -> Option<usize> {
    if options.is_empty() {
        return None;
    }
    let digits = digits_of(transcript);
    if digits.len() >= MIN_DIGITS && options.iter().any(|o| !digits_of(o).is_empty()) {
        return by_digits(&digits, options);
    }
    by_sound(transcript, options)
}

fn digits_of(text: &str) -> Vec<u8> {
    text.bytes().filter(u8::is_ascii_digit).collect()
}

fn by_digits(heard: &[u8], options: &[String]) -> Option<usize> {
    let scored = options.iter().map(|option| {
        let digits = digits_of(option);
        let d = edits(heard, &digits);
        (d, 3 * d <= digits.len().max(heard.len()))
    });
    unique_best(scored.collect())
}

fn by_sound(transcript: &str, options: &[String]) -> Option<usize> {
    let heard = key(transcript);
    let words: Vec<String> = transcript
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let only_keywords = words.iter().all(|w| KEYWORDS.contains(&w.as_str()));
    if heard.len() < MIN_SOUNDS || only_keywords || !opens_like_keyword(&heard) {
        return None;
    }
    // The recogniser writes "option" twice, once plain and once misheard with the letter
    // (`Option "Apshina"`): the words after the first are compared as well.
    let rest = words
        .split_first()
        .filter(|(first, rest)| first.as_str() == "option" && !rest.is_empty())
        .map(|(_, rest)| key(&rest.join(" ")));
    let heards: Vec<Vec<u8>> = std::iter::once(heard).chain(rest).collect();
    let scored = options.iter().enumerate().map(|(index, option)| {
        let name = LETTER_NAMES.get(index).copied().unwrap_or_default();
        let forms = [format!("option {name}"), name.to_owned(), option.clone()];
        forms
            .iter()
            .map(|form| key(form))
            .filter(|form| !form.is_empty())
            .flat_map(|form| {
                heards.iter().map(move |heard| {
                    let d = distance(heard, &form);
                    (d, d <= heard.len().max(form.len()))
                })
            })
            .min()
            .unwrap_or((usize::MAX, false))
    });
    unique_best(scored.collect())
}

/// The index of the one lowest score that is near enough, at least one whole edit (two
/// half-edits for sounds, one for digits) below every other.
fn unique_best(scored: Vec<(usize, bool)>) -> Option<usize> {
    let (best, &(d, near)) = scored.iter().enumerate().min_by_key(|(_, (d, _))| *d)?;
    let clear = scored
        .iter()
        .enumerate()
        .all(|(other, &(e, _))| other == best || e > d);
    (near && clear).then_some(best)
}

/// Levenshtein distance between byte strings.
fn edits(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let substitution = previous + usize::from(x != y);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| (*v).to_owned()).collect()
    }

    #[test]
    fn the_nearest_option_is_offered_only_when_clear() {
        let masks = options(&[
            "255.255.255.192",
            "255.255.255.224",
            "255.255.255.128",
            "255.255.255.240",
        ]);
        let hosts = options(&["185.192.105.138", "10.0.0.1", "172.16.0.1", "192.168.1.1"]);
        let airspace = options(&["Class B", "Class C", "Class D", "Class E"]);
        let cases: &[(&str, &[String], Option<usize>)] = &[
            ("Option Apshina", &masks, Some(0)),
            ("Opshun bee", &masks, Some(1)),
            ("1-H-5.1-92.1-05. 138.", &hosts, Some(0)),
            ("255.255.255.19", &masks, Some(0)),
            ("Option Option", &masks, None),
            ("I don't know", &masks, None),
            ("", &masks, None),
            ("255.255.255.2", &masks, None),
            ("Apshina", &[], None),
            ("Opshun bee", &airspace, Some(1)),
            ("I don't know", &airspace, None),
            ("Um", &airspace, None),
        ];
        for (heard, shown, expected) in cases {
            assert_eq!(closest_option(heard, shown), *expected, "{heard:?}");
        }
    }
}
