//! A rough phonetic key of spoken words and a weighted edit distance between keys, for
//! matching what speech recognition wrote with what was meant ("Abshna" for "option A").

/// Spoken names of the letters, used for the option forms and for single-letter words.
pub(super) const LETTER_NAMES: [&str; 26] = [
    "ay",
    "bee",
    "see",
    "dee",
    "ee",
    "ef",
    "gee",
    "aitch",
    "eye",
    "jay",
    "kay",
    "el",
    "em",
    "en",
    "oh",
    "pee",
    "cue",
    "ar",
    "ess",
    "tee",
    "you",
    "vee",
    "double you",
    "ex",
    "why",
    "zee",
];

/// The vowel symbol of a key (every vowel run but a final one becomes one).
const VOWEL: u8 = b'A';

/// A rough phonetic key: ASCII letters only, single letters read as their names, "sh", "ch",
/// "tch", "j", soft "g" and "ti"/"si"/"ci" before a vowel as one sound `X`; b/p, d/t,
/// hard c/g/k/q, v/f and z/s merged; "h" dropped after the digraphs; every vowel run one
/// [`VOWEL`], except a run that ends a word, which keeps its class ([`final_vowel`]: the name
/// of an option letter is often only a vowel); a symbol repeated within a word once ("class
/// see" keeps both s sounds, unlike "class ee").
pub(crate) fn key(text: &str) -> Vec<u8> {
    let lower = text.to_ascii_lowercase();
    let mut out: Vec<u8> = Vec::with_capacity(lower.len());
    for word in lower.split(|c: char| !c.is_ascii_alphabetic()) {
        let word = match word.as_bytes() {
            [letter] => LETTER_NAMES
                .get(usize::from(letter - b'a'))
                .copied()
                .unwrap_or(word),
            _ => word,
        };
        out.extend(word_key(word));
    }
    out
}

/// The key of one lowercase word (see [`key`]).
fn word_key(word: &str) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(word.len());
    let bytes = word.as_bytes();
    let mut at = 0;
    while let Some(&c) = bytes.get(at) {
        let next = bytes.get(at + 1).copied();
        let after = bytes.get(at + 2).copied();
        let (symbol, used) = sound(c, next, after);
        if let Some(symbol) = symbol
            && out.last() != Some(&symbol)
        {
            out.push(symbol);
        }
        at += used;
    }
    if let Some(last) = out.last_mut()
        && *last == VOWEL
    {
        *last = final_vowel(word);
    }
    out
}

/// The class of the vowel run that ends `word` (a letter name's own sound: "ay", "ee",
/// "oh"): `o` when it has an o or u, `a` when it starts with a or is "ia"/"ya" ("Absynia",
/// "Asia"), else `e`.
fn final_vowel(word: &str) -> u8 {
    let run: Vec<u8> = word
        .bytes()
        .rev()
        .take_while(|&c| is_vowel(c) || c == b'h')
        .filter(|&c| c != b'h')
        .collect();
    if run.iter().any(|&c| matches!(c, b'o' | b'u')) {
        b'o'
    } else if run.last() == Some(&b'a') || matches!(run[..], [b'a', b'i' | b'y']) {
        b'a'
    } else {
        b'e'
    }
}

/// The symbol of the sound starting with `c`, and how many letters it used.
fn sound(c: u8, next: Option<u8>, after: Option<u8>) -> (Option<u8>, usize) {
    let vowel = |x: Option<u8>| x.is_some_and(is_vowel);
    let soft = |x: Option<u8>| matches!(x, Some(b'e' | b'i' | b'y'));
    match (c, next) {
        (b't', Some(b'c')) if after == Some(b'h') => (Some(b'X'), 3),
        (b's' | b'c', Some(b'h')) => (Some(b'X'), 2),
        (b't' | b's' | b'c', Some(b'i')) if vowel(after) => (Some(b'X'), 2),
        (b'p', Some(b'h')) => (Some(b'F'), 2),
        (b'c', Some(b'k')) => (Some(b'K'), 2),
        (b'w', Some(b'h')) => (Some(b'W'), 2),
        (b'c', _) if soft(next) => (Some(b'S'), 1),
        (b'g', _) if soft(next) => (Some(b'X'), 1),
        (b'x', _) => (Some(b'S'), 1),
        _ => (consonant(c), 1),
    }
}

/// Merged consonant classes; `None` for "h" and anything else dropped.
fn consonant(c: u8) -> Option<u8> {
    let symbol = match c {
        c if is_vowel(c) => VOWEL,
        b'b' | b'p' => b'P',
        b'd' | b't' => b'T',
        b'c' | b'g' | b'k' | b'q' => b'K',
        b'v' | b'f' => b'F',
        b'z' | b's' => b'S',
        b'j' => b'X',
        b'l' | b'm' | b'n' | b'r' | b'w' => c.to_ascii_uppercase(),
        _ => return None,
    };
    Some(symbol)
}

fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Weighted edit distance in half-edits: a different symbol, or a consonant added or dropped,
/// costs 2 (a vowel of no class for a classed one, 1); a vowel added or dropped costs 1 inside
/// a key ("Abshna" for "Apshana") and 2 at either end, where it is a syllable of its own ("option" is not "option ay").
pub(crate) fn distance(a: &[u8], b: &[u8]) -> usize {
    let indel = |key: &[u8], at: usize| {
        let inner = at > 0 && at + 1 < key.len();
        let vowel = key
            .get(at)
            .is_some_and(|s| matches!(s, b'A' | b'a' | b'e' | b'o'));
        if vowel && inner { 1 } else { 2 }
    };
    let mut row: Vec<usize> = (0..=b.len())
        .scan(0, |sum, j| {
            let cost = *sum;
            *sum += if j < b.len() { indel(b, j) } else { 0 };
            Some(cost)
        })
        .collect();
    for (i, x) in a.iter().enumerate() {
        let mut diagonal = row.first().copied().unwrap_or_default();
        let first = diagonal + indel(a, i);
        if let Some(slot) = row.first_mut() {
            *slot = first;
        }
        for (j, y) in b.iter().enumerate() {
            let substitute = diagonal + substitution(*x, *y);
            let above = row.get(j + 1).copied().unwrap_or_default();
            let left = row.get(j).copied().unwrap_or_default();
            let best = substitute.min(above + indel(a, i)).min(left + indel(b, j));
            diagonal = above;
            if let Some(slot) = row.get_mut(j + 1) {
                *slot = best;
            }
        }
    }
    row.last().copied().unwrap_or_default()
}

/// Two symbols: 0 when equal, 1 between an unclassed vowel and a classed one, else 2.
fn substitution(x: u8, y: u8) -> usize {
    let classed = |s: u8| matches!(s, b'a' | b'e' | b'o');
    match (x, y) {
        _ if x == y => 0,
        (VOWEL, s) | (s, VOWEL) if classed(s) => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_merge_close_sounds() {
        let cases = [
            ("option a", "APXANa"),
            ("Abshna", "APXNa"),
            ("Apshana", "APXANa"),
            ("Aptina", "APTANa"),
            ("Opshun B", "APXANPe"),
            ("option bee", "APXANPe"),
            ("option oh", "APXANo"),
            ("option", "APXAN"),
            ("Absynia", "APSANa"),
            ("sea", "Se"),
            ("class b airspace", "KLASPeARSPASe"),
            ("class c airspace", "KLASSeARSPASe"),
            ("", ""),
            ("123 !!", ""),
        ];
        for (text, expected) in cases {
            assert_eq!(String::from_utf8_lossy(&key(text)), expected, "{text:?}");
        }
    }

    #[test]
    fn distances_are_weighted() {
        let d = |a: &str, b: &str| distance(&key(a), &key(b));
        assert_eq!(d("Apshana", "option a"), 0);
        assert_eq!(d("Abshna", "option a"), 1);
        assert_eq!(d("Aptina", "option a"), 2);
        assert_eq!(d("option", "option a"), 2);
        assert_eq!(d("", "option"), d("option", ""));
        assert_eq!(d("", ""), 0);
    }
}
