//! Writing the ggml model file whisper.cpp 1.8 loads (`whisper_model_load`).
//!
//! # Format
//! All integers are little-endian i32 unless said otherwise.
//! ```text
//! magic 0x67676d6c ("ggml"), then n_vocab, n_audio_ctx, n_audio_state, n_audio_head,
//! n_audio_layer, n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype (1: f16)
//! mel filters: n_mel, n_fft, then n_mel × n_fft f32
//! vocabulary: count, then per token a u32 length and its bytes
//! tensors until the end: n_dims, name length, type (0 f32, 1 f16),
//!   dims innermost first (ggml order), the name, the data
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use half::f16;

use super::error::ConvertError;
use super::plan::{FType, Hparams};

/// "ggml" as the file's first (little-endian) word.
const MAGIC: u32 = 0x6767_6d6c;

/// A ggml file being written, counting its bytes.
pub struct Writer {
    out: BufWriter<File>,
    path: PathBuf,
    bytes: u64,
}

impl Writer {
    /// Creates (or truncates) the file at `path`.
    pub fn create(path: &Path) -> Result<Self, ConvertError> {
        let file = File::create(path).map_err(|source| ConvertError::Write {
            path: path.to_owned(),
            source,
        })?;
        Ok(Self {
            out: BufWriter::with_capacity(1 << 20, file),
            path: path.to_owned(),
            bytes: 0,
        })
    }

    fn put(&mut self, bytes: &[u8]) -> Result<(), ConvertError> {
        self.out
            .write_all(bytes)
            .map_err(|source| ConvertError::Write {
                path: self.path.clone(),
                source,
            })?;
        self.bytes += bytes.len() as u64;
        Ok(())
    }

    fn int(&mut self, value: usize) -> Result<(), ConvertError> {
        let value = i32::try_from(value).map_err(|_| {
            ConvertError::Format(format!("{value} does not fit the file's 32-bit fields"))
        })?;
        self.put(&value.to_le_bytes())
    }

    /// The magic number and the hyperparameters, weights in f16.
    pub fn header(&mut self, hp: &Hparams) -> Result<(), ConvertError> {
        self.put(&MAGIC.to_le_bytes())?;
        let fields = [
            hp.n_vocab,
            hp.n_audio_ctx,
            hp.n_audio_state,
            hp.n_audio_head,
            hp.n_audio_layer,
            hp.n_text_ctx,
            hp.n_text_state,
            hp.n_text_head,
            hp.n_text_layer,
            hp.n_mels,
        ];
        for field in fields {
            self.int(field as usize)?;
        }
        self.int(FType::F16 as usize)
    }

    /// The mel filterbank, `n_mel` rows of `n_fft` bins.
    pub fn filters(
        &mut self,
        n_mel: usize,
        n_fft: usize,
        values: &[f32],
    ) -> Result<(), ConvertError> {
        self.int(n_mel)?;
        self.int(n_fft)?;
        self.values(values, FType::F32)
    }

    /// The ordinary tokens, as bytes.
    pub fn vocabulary(&mut self, tokens: &[Vec<u8>]) -> Result<(), ConvertError> {
        self.int(tokens.len())?;
        for token in tokens {
            self.int(token.len())?;
            self.put(token)?;
        }
        Ok(())
    }

    /// A tensor's header; `shape` is outermost first, as PyTorch writes it.
    pub fn tensor_header(
        &mut self,
        name: &str,
        shape: &[usize],
        ftype: FType,
    ) -> Result<(), ConvertError> {
        self.int(shape.len())?;
        self.int(name.len())?;
        self.int(ftype as usize)?;
        for dim in shape.iter().rev() {
            self.int(*dim)?;
        }
        self.put(name.as_bytes())
    }

    /// Values of a tensor, stored as `ftype`.
    pub fn values(&mut self, values: &[f32], ftype: FType) -> Result<(), ConvertError> {
        let bytes: Vec<u8> = match ftype {
            FType::F32 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            FType::F16 => values
                .iter()
                .flat_map(|v| f16::from_f32(*v).to_le_bytes())
                .collect(),
        };
        self.put(&bytes)
    }

    /// Flushes the file to disk; returns the bytes written.
    pub fn finish(self) -> Result<u64, ConvertError> {
        let error = |source| ConvertError::Write {
            path: self.path.clone(),
            source,
        };
        let file = self.out.into_inner().map_err(|e| error(e.into_error()))?;
        file.sync_all().map_err(error)?;
        Ok(self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hparams() -> Hparams {
        Hparams {
            n_vocab: 51864,
            n_audio_ctx: 1500,
            n_audio_state: 384,
            n_audio_head: 6,
            n_audio_layer: 4,
            n_text_ctx: 448,
            n_text_state: 384,
            n_text_head: 6,
            n_text_layer: 4,
            n_mels: 80,
        }
    }

    #[test]
    fn writes_whisper_cpp_layout() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.bin");
        let mut w = Writer::create(&path).unwrap();
        w.header(&hparams()).unwrap();
        w.filters(1, 2, &[0.5, -0.0]).unwrap();
        w.vocabulary(&[b"a".to_vec(), Vec::new()]).unwrap();
        w.tensor_header("encoder.conv1.bias", &[384, 1], FType::F32)
            .unwrap();
        w.values(&[1.0], FType::F16).unwrap();
        let bytes = w.finish().unwrap();
        let file = std::fs::read(&path).unwrap();
        assert_eq!(bytes, file.len() as u64);
        let words: Vec<i32> = file[..4 * 12]
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(
            words,
            [0x6767_6d6c, 51864, 1500, 384, 6, 4, 448, 384, 6, 4, 80, 1]
        );
        let rest = &file[48..];
        assert_eq!(&rest[..8], &[1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(&rest[8..16], &[0, 0, 0, 0x3f, 0, 0, 0, 0x80]);
        assert_eq!(&rest[16..29], &[2, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0, 0]);
        let tensor = &rest[29..];
        let ints: Vec<i32> = tensor[..20]
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(ints, [2, 18, 0, 1, 384]);
        assert_eq!(&tensor[20..38], b"encoder.conv1.bias");
        assert_eq!(&tensor[38..], &[0x00, 0x3c]);
    }
}
