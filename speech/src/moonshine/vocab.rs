//! Moonshine's token ids as text: the vocabulary of its `tokenizer.json` (a SentencePiece-
//! style BPE) and the decoding Hugging Face `tokenizers` applies to it: `▁` is a space,
//! `<0xNN>` tokens are raw bytes fused into UTF-8, special tokens are dropped, and the one
//! space that opens the text is stripped. Pure.

use std::collections::HashMap;

/// Why a vocabulary could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a Moonshine tokenizer.json: {0}")]
pub struct VocabError(String);

/// Token ids to the pieces they stand for.
#[derive(Debug, Clone)]
pub struct Vocab {
    pieces: Vec<Piece>,
}

/// What one token id stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// Text, with `▁` already turned into a space.
    Text(String),
    /// One raw byte (`<0x0A>`), fused with its neighbours into UTF-8.
    Byte(u8),
    /// A special token (`<s>`, `</s>`, `<unk>`, `<<ST_0>>`…), never shown.
    Special,
}

/// The shape of the parts of `tokenizer.json` this reads.
#[derive(serde::Deserialize)]
struct TokenizerJson {
    model: ModelJson,
    #[serde(default)]
    added_tokens: Vec<AddedToken>,
}

#[derive(serde::Deserialize)]
struct ModelJson {
    vocab: HashMap<String, u32>,
}

#[derive(serde::Deserialize)]
struct AddedToken {
    id: u32,
    #[serde(default)]
    special: bool,
}

/// The most token ids a vocabulary may hold: Moonshine's has 32,768.
const MAX_TOKENS: usize = 1 << 20;

impl Vocab {
    /// Reads the vocabulary out of a `tokenizer.json`.
    pub fn from_json(json: &str) -> Result<Vocab, VocabError> {
        let parsed: TokenizerJson =
            serde_json::from_str(json).map_err(|err| VocabError(err.to_string()))?;
        let size = parsed
            .model
            .vocab
            .values()
            .chain(parsed.added_tokens.iter().map(|t| &t.id))
            .max()
            .map_or(0, |max| *max as usize + 1);
        if size == 0 || size > MAX_TOKENS {
            return Err(VocabError(format!("{size} token ids")));
        }
        let mut pieces = vec![Piece::Special; size];
        for (token, id) in parsed.model.vocab {
            pieces[id as usize] = piece_of(&token);
        }
        for added in parsed.added_tokens.iter().filter(|t| t.special) {
            pieces[added.id as usize] = Piece::Special;
        }
        Ok(Vocab { pieces })
    }

    /// How many token ids there are.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The text of `ids`; unknown ids are skipped.
    pub fn decode(&self, ids: &[u32]) -> String {
        let mut bytes = Vec::new();
        for id in ids {
            match self.pieces.get(*id as usize) {
                Some(Piece::Text(text)) => bytes.extend_from_slice(text.as_bytes()),
                Some(Piece::Byte(byte)) => bytes.push(*byte),
                Some(Piece::Special) | None => {}
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        text.strip_prefix(' ').unwrap_or(&text).to_owned()
    }
}

/// A vocabulary entry: `<unk>`-style names are special, `<0xNN>` a byte, the rest text.
fn piece_of(token: &str) -> Piece {
    if let Some(hex) = token.strip_prefix("<0x").and_then(|t| t.strip_suffix('>'))
        && let Ok(byte) = u8::from_str_radix(hex, 16)
    {
        return Piece::Byte(byte);
    }
    match token {
        "<unk>" | "<s>" | "</s>" => Piece::Special,
        text => Piece::Text(text.replace('\u{2581}', " ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{
        "model": {"vocab": {"<unk>": 0, "<s>": 1, "</s>": 2, "<0xC3>": 3, "<0xA9>": 4,
            "▁A": 5, "▁flight": 6, "▁review": 7, ".": 8, "▁caf": 9, "▁twenty": 10, "-": 11,
            "four": 12}},
        "added_tokens": [{"id": 0, "special": true}, {"id": 13, "special": true}]
    }"#;

    #[test]
    fn pieces_join_with_spaces_and_the_leading_space_goes() {
        let vocab = Vocab::from_json(JSON).unwrap();
        assert_eq!(vocab.len(), 14);
        assert_eq!(vocab.decode(&[1, 5, 6, 7, 8, 2]), "A flight review.");
        assert_eq!(vocab.decode(&[10, 11, 12]), "twenty-four");
    }

    #[test]
    fn byte_tokens_fuse_into_utf8_and_specials_and_unknowns_vanish() {
        let vocab = Vocab::from_json(JSON).unwrap();
        assert_eq!(vocab.decode(&[9, 3, 4]), "café");
        assert_eq!(vocab.decode(&[0, 13, 5, 99_999]), "A");
        // A lone byte that is not UTF-8 is shown, not dropped silently.
        assert_eq!(vocab.decode(&[5, 3]), "A\u{fffd}");
    }

    #[test]
    fn what_is_not_a_tokenizer_is_an_error() {
        assert!(Vocab::from_json("{}").is_err());
        assert!(Vocab::from_json(r#"{"model": {"vocab": {}}}"#).is_err());
        assert!(Vocab::from_json("not json").is_err());
    }
}
