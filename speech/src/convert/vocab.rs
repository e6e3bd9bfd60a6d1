//! The vocabulary: CTranslate2's `vocabulary.txt` (one token a line, in GPT-2's byte-level
//! alphabet, special tokens included) to the raw token bytes whisper.cpp reads.
//!
//! whisper.cpp takes the ordinary tokens only, those before `<|endoftext|>`, and names the
//! special ones itself (`[_EOT_]`, `[_SOT_]`, …), as OpenAI's converter writes them.

use std::collections::HashMap;

use super::error::ConvertError;

/// The token that ends the ordinary vocabulary.
const END_OF_TEXT: &str = "<|endoftext|>";

/// GPT-2's byte-to-character table: printable bytes stand for themselves, the others are
/// shifted to code points from 256 up, in byte order.
fn byte_decoder() -> HashMap<char, u8> {
    let printable = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    let mut shifted = 0u32;
    let mut table = HashMap::with_capacity(256);
    for b in 0..=255u8 {
        let c = if printable(b) {
            char::from(b)
        } else {
            shifted += 1;
            // Always some: 256 + at most 68 is a valid scalar value.
            char::from_u32(255 + shifted).unwrap_or(char::REPLACEMENT_CHARACTER)
        };
        table.insert(c, b);
    }
    table
}

/// The ordinary tokens of `text` (the contents of `vocabulary.txt`) as bytes, in id order.
/// `n_vocab` is the embedding's row count, which the file's line count must equal.
pub fn tokens(text: &str, n_vocab: usize) -> Result<Vec<Vec<u8>>, ConvertError> {
    let lines: Vec<&str> = text
        .strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect();
    if lines.len() != n_vocab {
        return Err(ConvertError::Vocabulary(format!(
            "{} tokens, the model's embedding has {n_vocab}",
            lines.len()
        )));
    }
    let end = lines
        .iter()
        .position(|l| *l == END_OF_TEXT)
        .ok_or_else(|| ConvertError::Vocabulary(format!("no {END_OF_TEXT} token")))?;
    let decoder = byte_decoder();
    lines[..end]
        .iter()
        .enumerate()
        .map(|(id, token)| decode(&decoder, token, id))
        .collect()
}

fn decode(decoder: &HashMap<char, u8>, token: &str, id: usize) -> Result<Vec<u8>, ConvertError> {
    token
        .chars()
        .map(|c| {
            decoder.get(&c).copied().ok_or_else(|| {
                ConvertError::Vocabulary(format!("token {id} {token:?} is not byte-level ({c:?})"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(line: &str, expected: &[u8]) {
        let text = format!("{line}\n{END_OF_TEXT}\n");
        assert_eq!(
            tokens(&text, 2).unwrap(),
            vec![expected.to_vec()],
            "{line:?}"
        );
    }

    #[test]
    fn decodes_gpt2_byte_level_tokens() {
        check("hello", b"hello");
        check("\u{120}the", b" the");
        check("\u{10A}", b"\n");
        check("\u{100}", &[0]);
        check("\u{143}", &[0xAD]);
        check("Ã©", "é".as_bytes());
        check("", b"");
    }

    #[test]
    fn keeps_only_tokens_before_end_of_text() {
        let text = "a\n\n<|endoftext|>\n<|startoftranscript|>\n";
        assert_eq!(tokens(text, 4).unwrap(), vec![b"a".to_vec(), Vec::new()]);
    }

    #[test]
    fn rejects_mismatched_count_and_foreign_characters() {
        assert!(tokens("a\n<|endoftext|>\n", 3).is_err());
        assert!(tokens("a\nb\n", 2).is_err());
        assert!(tokens("\u{4e00}\n<|endoftext|>\n", 2).is_err());
    }

    #[test]
    fn byte_table_is_a_bijection() {
        let table = byte_decoder();
        assert_eq!(table.len(), 256);
        let mut bytes: Vec<u8> = table.values().copied().collect();
        bytes.sort_unstable();
        assert_eq!(bytes, (0..=255).collect::<Vec<u8>>());
    }
}
