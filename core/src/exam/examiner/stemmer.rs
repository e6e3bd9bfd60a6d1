//! The Porter2 (Snowball English) stemmer, as published in Snowball 3.x, written out by hand.
//!
//! Follows `english.sbl` of Snowball 3.1: the R1 prefix exceptions (`gener`, `commun`, `arsen`,
//! `past`, `univers`, `later`, `emerg`, `organ`, `inter`), the `-ing` exceptions of step 1b
//! (`dying` -> `die`, `inning`, `outing`, ...) and `-ogist` -> `-og` in step 2.

/// Whole words with a fixed stem (Snowball's `exception1`).
const EXCEPTIONAL_WORDS: &[(&str, &str)] = &[
    ("skis", "ski"),
    ("skies", "sky"),
    ("idly", "idl"),
    ("gently", "gentl"),
    ("ugly", "ugli"),
    ("early", "earli"),
    ("only", "onli"),
    ("singly", "singl"),
    ("sky", "sky"),
    ("news", "news"),
    ("howe", "howe"),
    ("atlas", "atlas"),
    ("cosmos", "cosmos"),
    ("bias", "bias"),
    ("andes", "andes"),
];

/// Word beginnings after which region R1 starts, overriding the usual rule.
const R1_PREFIXES: &[&str] = &[
    "arsen", "commun", "emerg", "gener", "inter", "later", "organ", "past", "univers",
];

/// Step 2 suffixes and their replacements; `ogi` and `li` have extra conditions.
const STEP_2_SUFFIXES: &[(&str, &str)] = &[
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("abli", "able"),
    ("entli", "ent"),
    ("izer", "ize"),
    ("ization", "ize"),
    ("ational", "ate"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("aliti", "al"),
    ("alli", "al"),
    ("fulness", "ful"),
    ("ousli", "ous"),
    ("ousness", "ous"),
    ("iveness", "ive"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("bli", "ble"),
    ("ogist", "og"),
    ("ogi", "og"),
    ("fulli", "ful"),
    ("lessli", "less"),
    ("li", ""),
];

/// Step 3 suffixes and their replacements; `ative` is removed only in R2.
const STEP_3_SUFFIXES: &[(&str, &str)] = &[
    ("tional", "tion"),
    ("ational", "ate"),
    ("alize", "al"),
    ("icate", "ic"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
    ("ative", ""),
];

/// Step 4 suffixes, removed in R2; `ion` only after `s` or `t`.
const STEP_4_SUFFIXES: &[&str] = &[
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate",
    "iti", "ous", "ive", "ize", "ion",
];

/// Stems one lowercase English word with Porter2. Words holding anything but ASCII letters
/// and apostrophes (numbers such as `61.57`, non-English letters) are returned unchanged.
pub fn stem(word: &str) -> String {
    if !word.bytes().all(|b| b.is_ascii_lowercase() || b == b'\'') {
        return word.to_owned();
    }
    if let Some((_, fixed)) = EXCEPTIONAL_WORDS.iter().find(|(w, _)| *w == word) {
        return (*fixed).to_owned();
    }
    if word.len() < 3 {
        return word.to_owned();
    }
    let mut w = prelude(word);
    let (p1, p2) = mark_regions(&w);
    step_1a(&mut w);
    step_1b(&mut w, p1);
    step_1c(&mut w);
    step_2(&mut w, p1);
    step_3(&mut w, p1, p2);
    step_4(&mut w, p2);
    step_5(&mut w, p1, p2);
    w.iter()
        .map(|&b| char::from(if b == b'Y' { b'y' } else { b }))
        .collect()
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Drops a leading apostrophe and marks consonant `y`s (initial, or after a vowel) as `Y`.
fn prelude(word: &str) -> Vec<u8> {
    let mut w: Vec<u8> = word.strip_prefix('\'').unwrap_or(word).bytes().collect();
    if w.first() == Some(&b'y') {
        w[0] = b'Y';
    }
    for i in 1..w.len() {
        if w[i] == b'y' && is_vowel(w[i - 1]) {
            w[i] = b'Y';
        }
    }
    w
}

/// The start of regions R1 and R2 (the word's length where a region is empty).
fn mark_regions(w: &[u8]) -> (usize, usize) {
    let p1 = R1_PREFIXES
        .iter()
        .find(|prefix| w.starts_with(prefix.as_bytes()))
        .map_or_else(|| after_vowel_then_consonant(w, 0), |prefix| prefix.len());
    (p1, after_vowel_then_consonant(w, p1))
}

/// The position just after the first non-vowel that follows a vowel, from `from` on.
fn after_vowel_then_consonant(w: &[u8], from: usize) -> usize {
    let Some(vowel) = (from..w.len()).find(|&i| is_vowel(w[i])) else {
        return w.len();
    };
    (vowel + 1..w.len())
        .find(|&i| !is_vowel(w[i]))
        .map_or(w.len(), |i| i + 1)
}

/// Snowball's `shortv`: the word ends in a short syllable.
fn ends_in_short_syllable(w: &[u8]) -> bool {
    let n = w.len();
    let vowel_wxy = |b: u8| is_vowel(b) || matches!(b, b'w' | b'x' | b'Y');
    (n >= 3 && !vowel_wxy(w[n - 1]) && is_vowel(w[n - 2]) && !is_vowel(w[n - 3]))
        || (n == 2 && is_vowel(w[0]) && !is_vowel(w[1]))
        || w.ends_with(b"past")
}

fn replace_suffix(w: &mut Vec<u8>, suffix_len: usize, replacement: &str) {
    w.truncate(w.len() - suffix_len);
    w.extend_from_slice(replacement.as_bytes());
}

/// The longest of `suffixes` the word ends with.
fn longest_suffix<'a>(w: &[u8], suffixes: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    suffixes
        .filter(|suffix| w.ends_with(suffix.as_bytes()))
        .max_by_key(|suffix| suffix.len())
}

/// Possessives, then plural `-s`, `-sses`, `-ies`.
fn step_1a(w: &mut Vec<u8>) {
    if let Some(suffix) = longest_suffix(w, ["'s'", "'s", "'"].into_iter()) {
        w.truncate(w.len() - suffix.len());
    }
    let n = w.len();
    if w.ends_with(b"sses") {
        replace_suffix(w, 4, "ss");
    } else if w.ends_with(b"ied") || w.ends_with(b"ies") {
        let replacement = if n > 4 { "i" } else { "ie" };
        replace_suffix(w, 3, replacement);
    } else if w.ends_with(b"s") && !w.ends_with(b"ss") && !w.ends_with(b"us") {
        let vowel_before = n >= 2 && w[..n - 2].iter().any(|&b| is_vowel(b));
        if vowel_before {
            w.truncate(n - 1);
        }
    }
}

/// `-eed`, `-ed`, `-ing` and their `-ly` forms.
fn step_1b(w: &mut Vec<u8>, p1: usize) {
    let suffixes = ["eed", "eedly", "ed", "edly", "ing", "ingly"];
    let Some(suffix) = longest_suffix(w, suffixes.into_iter()) else {
        return;
    };
    let start = w.len() - suffix.len();
    if suffix.starts_with("eed") {
        let excepted = matches!(&w[..start], b"succ" | b"proc" | b"exc");
        if start >= p1 && !excepted {
            replace_suffix(w, suffix.len(), "ee");
        }
        return;
    }
    if suffix == "ing" && ing_exception(w, start) {
        return;
    }
    if !w[..start].iter().any(|&b| is_vowel(b)) {
        return;
    }
    w.truncate(start);
    tidy_after_1b_deletion(w, p1);
}

/// Handles `-ing` words Snowball keeps (`inning`, `outing`, ...) or rewrites (`dying` -> `die`).
/// Returns whether the word was dealt with.
fn ing_exception(w: &mut Vec<u8>, start: usize) -> bool {
    let stem_part = &w[..start];
    if matches!(
        stem_part,
        b"even" | b"cann" | b"inn" | b"earr" | b"herr" | b"out"
    ) {
        return true;
    }
    if stem_part.len() == 2 && stem_part[1] == b'y' && !is_vowel(stem_part[0]) {
        w.truncate(1);
        w.extend_from_slice(b"ie");
        return true;
    }
    false
}

/// After removing `-ed`/`-ing`: restore `e` (`hop(e)`, `-ate`), or undouble (`hopp`).
fn tidy_after_1b_deletion(w: &mut Vec<u8>, p1: usize) {
    let n = w.len();
    if w.ends_with(b"at") || w.ends_with(b"bl") || w.ends_with(b"iz") {
        w.push(b'e');
    } else if n >= 2 && w[n - 1] == w[n - 2] && b"bdfgmnprt".contains(&w[n - 1]) {
        let aeo_word = n == 3 && b"aeo".contains(&w[0]);
        if !aeo_word {
            w.truncate(n - 1);
        }
    } else if n == p1 && ends_in_short_syllable(w) {
        w.push(b'e');
    }
}

/// Final `y` after a consonant (not the first letter) becomes `i`.
fn step_1c(w: &mut [u8]) {
    let n = w.len();
    if n >= 3 && matches!(w[n - 1], b'y' | b'Y') && !is_vowel(w[n - 2]) {
        w[n - 1] = b'i';
    }
}

fn step_2(w: &mut Vec<u8>, p1: usize) {
    let Some(suffix) = longest_suffix(w, STEP_2_SUFFIXES.iter().map(|(s, _)| *s)) else {
        return;
    };
    let start = w.len() - suffix.len();
    if start < p1 {
        return;
    }
    let before = start.checked_sub(1).map(|i| w[i]);
    let allowed = match suffix {
        "ogi" => before == Some(b'l'),
        "li" => before.is_some_and(|b| b"cdeghkmnrt".contains(&b)),
        _ => true,
    };
    if let Some((_, replacement)) = STEP_2_SUFFIXES.iter().find(|(s, _)| *s == suffix)
        && allowed
    {
        replace_suffix(w, suffix.len(), replacement);
    }
}

fn step_3(w: &mut Vec<u8>, p1: usize, p2: usize) {
    let Some(suffix) = longest_suffix(w, STEP_3_SUFFIXES.iter().map(|(s, _)| *s)) else {
        return;
    };
    let start = w.len() - suffix.len();
    if start < p1 || (suffix == "ative" && start < p2) {
        return;
    }
    if let Some((_, replacement)) = STEP_3_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
        replace_suffix(w, suffix.len(), replacement);
    }
}

fn step_4(w: &mut Vec<u8>, p2: usize) {
    let Some(suffix) = longest_suffix(w, STEP_4_SUFFIXES.iter().copied()) else {
        return;
    };
    let start = w.len() - suffix.len();
    if start < p2 {
        return;
    }
    let after_s_or_t = start > 0 && matches!(w[start - 1], b's' | b't');
    if suffix != "ion" || after_s_or_t {
        w.truncate(start);
    }
}

/// Final `e` (in R2, or in R1 after a long syllable) and the second `l` of `ll` in R2.
fn step_5(w: &mut Vec<u8>, p1: usize, p2: usize) {
    let Some(last) = w.len().checked_sub(1) else {
        return;
    };
    match w[last] {
        b'e' if last >= p2 || (last >= p1 && !ends_in_short_syllable(&w[..last])) => {
            w.truncate(last);
        }
        b'l' if last >= p2 && last > 0 && w[last - 1] == b'l' => w.truncate(last),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(word: &str, expected: &str) {
        assert_eq!(stem(word), expected, "stem({word:?})");
    }

    /// Expected stems are those of the Snowball 3.1 English stemmer (snowballstemmer 3.1.1).
    #[test]
    fn stems_match_snowball_english() {
        let table = [
            ("requirements", "requir"),
            ("recordkeeping", "recordkeep"),
            ("flying", "fli"),
            ("flies", "fli"),
            ("flight", "flight"),
            ("certification", "certif"),
            ("experience", "experi"),
            ("privileges", "privileg"),
            ("limitations", "limit"),
            ("regulations", "regul"),
            ("maintenance", "mainten"),
            ("airworthiness", "airworthi"),
            ("altimeter", "altimet"),
            ("logbooks", "logbook"),
            ("emergency", "emergenc"),
            ("organization", "organiz"),
            ("universal", "universal"),
            ("generous", "generous"),
            ("communication", "communic"),
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cries", "cri"),
            ("gas", "gas"),
            ("gaps", "gap"),
            ("controlled", "control"),
            ("hopping", "hop"),
            ("filing", "file"),
            ("agreed", "agre"),
            ("feed", "feed"),
            ("proceeding", "proceed"),
            ("exceed", "exceed"),
            ("dying", "die"),
            ("inning", "inning"),
            ("sing", "sing"),
            ("geology", "geolog"),
            ("skies", "sky"),
            ("news", "news"),
            ("yellow", "yellow"),
            ("enjoy", "enjoy"),
            ("by", "by"),
        ];
        for (word, expected) in table {
            check(word, expected);
        }
    }

    #[test]
    fn non_words_are_left_alone() {
        check("61.57", "61.57");
        check("14", "14");
        check("a4", "a4");
    }
}
