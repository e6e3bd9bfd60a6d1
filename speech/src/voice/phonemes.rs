//! Text to Piper's phoneme ids: espeak-ng (a subprocess, `-q --ipa`, one per sentence) gives
//! IPA, one line per clause; each clause gets its own punctuation back (espeak drops it, Piper
//! was trained with it), and each code point maps through the voice's `phoneme_id_map` with
//! Piper's convention: BOS, pad after every phoneme, EOS.

use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};

use viva_core::voice::synth::SynthError;

/// The program that turns text into IPA.
pub const ESPEAK: &str = "espeak-ng";
/// The longest sentence handed to espeak-ng, in bytes; the rest is dropped (a bounded cost).
pub const MAX_SENTENCE_BYTES: usize = 1000;

/// Piper's start, pad and end symbols.
const BOS: char = '^';
const PAD: char = '_';
const EOS: char = '$';

/// A voice's phoneme alphabet: each code point to its ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PhonemeIds {
    map: HashMap<char, Vec<i64>>,
}

impl PhonemeIds {
    /// The alphabet of a voice's `phoneme_id_map` (keys of one code point; others are skipped).
    pub fn new(map: HashMap<String, Vec<i64>>) -> PhonemeIds {
        let map = map
            .into_iter()
            .filter_map(|(key, ids)| {
                let mut chars = key.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some((c, ids)),
                    _ => None,
                }
            })
            .collect();
        PhonemeIds { map }
    }

    /// The ids of `phonemes`: BOS, then each known code point followed by the pad, then EOS.
    /// Unknown code points are skipped.
    pub fn ids(&self, phonemes: &str) -> Vec<i64> {
        let mut out = Vec::with_capacity(phonemes.len() * 2 + 3);
        let pad = self.map.get(&PAD).cloned().unwrap_or_default();
        out.extend(self.map.get(&BOS).into_iter().flatten());
        out.extend(&pad);
        for c in phonemes.chars() {
            if let Some(ids) = self.map.get(&c) {
                out.extend(ids);
                out.extend(&pad);
            }
        }
        out.extend(self.map.get(&EOS).into_iter().flatten());
        out
    }
}

/// The punctuation that ends each clause of `sentence`, as espeak-ng splits clauses (`,` `;`
/// `:` `.` `?` `!` before white space or the end); `None` for a clause that ends bare.
pub fn clause_marks(sentence: &str) -> Vec<Option<char>> {
    let mut marks = Vec::new();
    let mut chars = sentence.trim().chars().peekable();
    let mut words = false;
    while let Some(c) = chars.next() {
        let at_break = chars.peek().is_none_or(|n| n.is_whitespace());
        if matches!(c, ',' | ';' | ':' | '.' | '?' | '!') && at_break {
            // A run of marks ("...", "?!") ends one clause.
            if words {
                marks.push(Some(c));
            }
            words = false;
        } else if !c.is_whitespace() && !matches!(c, ',' | ';' | ':' | '.' | '?' | '!') {
            words = true;
        }
    }
    if words {
        marks.push(None);
    }
    marks
}

/// espeak-ng's clause lines joined into one phoneme string, each clause followed by its mark
/// when the clause counts agree (else by a comma, as a pause).
pub fn join_clauses(lines: &[&str], marks: &[Option<char>]) -> String {
    let lines: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    let agree = lines.len() == marks.len();
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        let last = i + 1 == lines.len();
        match (agree, marks.get(i).copied().flatten()) {
            (true, Some(mark)) => out.push(mark),
            (false, _) if last => out.push('.'),
            (false, _) => out.push(','),
            (true, None) => {}
        }
        if !last {
            out.push(' ');
        }
    }
    out
}

/// The IPA of one sentence from espeak-ng in `voice`, clause marks restored.
pub fn phonemize(voice: &str, sentence: &str) -> Result<String, SynthError> {
    let sentence = clip(sentence, MAX_SENTENCE_BYTES);
    let mut espeak = Command::new(ESPEAK);
    espeak.args(["-q", "--ipa", "-v", voice]);
    let stdout =
        stdout_of(espeak, sentence).map_err(|e| SynthError::Failed(format!("{ESPEAK}: {e}")))?;
    let text = String::from_utf8_lossy(&stdout);
    let lines: Vec<&str> = text.lines().collect();
    Ok(join_clauses(&lines, &clause_marks(sentence)))
}

/// `text` cut to at most `max` bytes at a character boundary.
/// Runs `command` with `input` on its stdin (text never goes in an argument, where a leading
/// '-' would be an option) and returns its stdout; an exit with failure is an error.
pub(super) fn stdout_of(mut command: Command, input: &str) -> Result<Vec<u8>, String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(output.status.to_string());
    }
    Ok(output.stdout)
}

pub(super) fn clip(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alphabet() -> PhonemeIds {
        let pairs = [("_", 0), ("^", 1), ("$", 2), (" ", 3), (".", 10), ("h", 20)];
        let mut map: HashMap<String, Vec<i64>> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), vec![*v]))
            .collect();
        map.insert("ə".into(), vec![59]);
        map.insert("ab".into(), vec![99]);
        PhonemeIds::new(map)
    }

    #[test]
    fn ids_follow_pipers_bos_pad_eos_convention() {
        let ids = alphabet().ids("hə.");
        assert_eq!(ids, vec![1, 0, 20, 0, 59, 0, 10, 0, 2]);
        // Unknown code points are skipped, with their pad.
        assert_eq!(alphabet().ids("hZ"), vec![1, 0, 20, 0, 2]);
    }

    #[test]
    fn clause_marks_follow_espeaks_clauses() {
        let check =
            |s: &str, expected: &[Option<char>]| assert_eq!(clause_marks(s), expected, "{s}");
        check("What is VFR?", &[Some('?')]);
        check(
            "Call me at 3.5 miles, then turn; okay: go!",
            &[Some(','), Some(';'), Some(':'), Some('!')],
        );
        check("No end", &[None]);
        check("Wait...", &[Some('.')]);
        check("", &[]);
    }

    #[test]
    fn clauses_get_their_marks_back() {
        let marks = [Some(','), Some('?')];
        assert_eq!(
            join_clauses(&["nˈeɪm tˈuː", "plˈiːz", ""], &marks),
            "nˈeɪm tˈuː, plˈiːz?"
        );
        assert_eq!(join_clauses(&["a", "b", "c"], &marks), "a, b, c.");
        assert_eq!(join_clauses(&["a"], &[None]), "a");
    }

    #[test]
    fn espeak_ng_gives_ipa_for_a_question() {
        let ipa = phonemize("en-us", "Name two, please?").expect("espeak-ng is installed");
        assert_eq!(ipa, "nˈeɪm tˈuː, plˈiːz?");
        assert_eq!(clip("Über", 1), "");
    }
}
