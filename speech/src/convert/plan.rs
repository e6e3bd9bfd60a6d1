//! What to write: the hyperparameters, read off the CTranslate2 variables' shapes, and the
//! list of whisper.cpp tensors with the CTranslate2 variable (and rows of it) each comes from.
//!
//! CTranslate2 fuses self-attention's query, key and value into one `linear_0` and
//! cross-attention's key and value into one `linear_1`; whisper.cpp wants them apart, and
//! has no key bias (Whisper's key projection has none, so the fused bias holds zeros there).
//! The order is that of OpenAI's checkpoints, which the official converter follows.

use std::ops::Range;

use super::ct2::{Index, Variable};
use super::error::ConvertError;

/// Whisper's attention head width, for models whose file does not record the head count.
const HEAD_DIM: u32 = 64;

/// The model's hyperparameters, in the order the ggml header stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hparams {
    /// Tokens in the vocabulary, special ones included.
    pub n_vocab: u32,
    /// Encoder positions (1500: 30 s of 20 ms frames).
    pub n_audio_ctx: u32,
    /// Encoder width.
    pub n_audio_state: u32,
    /// Encoder attention heads.
    pub n_audio_head: u32,
    /// Encoder blocks.
    pub n_audio_layer: u32,
    /// Decoder positions (448).
    pub n_text_ctx: u32,
    /// Decoder width.
    pub n_text_state: u32,
    /// Decoder attention heads.
    pub n_text_head: u32,
    /// Decoder blocks.
    pub n_text_layer: u32,
    /// Mel bands of the input (80, or 128 for large-v3).
    pub n_mels: u32,
}

impl Hparams {
    /// Reads the hyperparameters off the shapes (and the head counts off the
    /// `*/num_heads` scalars, when present).
    pub(crate) fn from_index(index: &Index, heads: [Option<i64>; 2]) -> Result<Self, ConvertError> {
        let [n_vocab, n_text_state] = dims(index, "decoder/embeddings/weight")?;
        let [n_text_ctx, _] = dims(index, "decoder/position_encodings/encodings")?;
        let [n_audio_ctx, n_audio_state] = dims(index, "encoder/position_encodings/encodings")?;
        let [_, n_mels, _] = dims(index, "encoder/conv1/weight")?;
        let head = |h: Option<i64>, state: u32| {
            h.and_then(|h| u32::try_from(h).ok())
                .unwrap_or(state / HEAD_DIM)
        };
        Ok(Self {
            n_vocab,
            n_audio_ctx,
            n_audio_state,
            n_audio_head: head(heads[0], n_audio_state),
            n_audio_layer: layers(index, "encoder"),
            n_text_ctx,
            n_text_state,
            n_text_head: head(heads[1], n_text_state),
            n_text_layer: layers(index, "decoder"),
            n_mels,
        })
    }
}

/// The shape of `name`, which must have rank `N`.
fn dims<const N: usize>(index: &Index, name: &str) -> Result<[u32; N], ConvertError> {
    let shape = &index.get(name)?.shape;
    let dims: Vec<u32> = shape
        .iter()
        .filter_map(|d| u32::try_from(*d).ok())
        .collect();
    dims.try_into().map_err(|_| ConvertError::Shape {
        name: name.to_owned(),
        found: shape.clone(),
        expected: format!("rank {N}"),
    })
}

fn layers(index: &Index, stack: &str) -> u32 {
    (0..)
        .take_while(|i| {
            index
                .variables
                .contains_key(&format!("{stack}/layer_{i}/ffn/linear_0/weight"))
        })
        .count() as u32
}

/// How a tensor's values are stored in the ggml file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FType {
    F32 = 0,
    F16 = 1,
}

/// One tensor of the ggml file and where its values come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tensor {
    /// whisper.cpp's name for it.
    pub name: String,
    /// The CTranslate2 variable holding it.
    pub source: String,
    /// The rows of `source` it is (all of them unless `source` is fused).
    pub rows: Range<usize>,
    /// Its shape, outermost dimension first (PyTorch order; ggml's is the reverse).
    pub shape: Vec<usize>,
    /// Its storage type.
    pub ftype: FType,
}

/// The tensors to write, and the fused key-bias parts that must be zero.
#[derive(Debug, Default)]
pub struct Plan {
    pub tensors: Vec<Tensor>,
    pub zero: Vec<(String, Range<usize>)>,
}

impl Plan {
    /// The plan for a model with these hyperparameters, each source checked against `index`.
    pub fn new(index: &Index, hp: &Hparams) -> Result<Self, ConvertError> {
        let mut plan = Self::default();
        let (a, t) = (hp.n_audio_state as usize, hp.n_text_state as usize);
        plan.whole(
            index,
            "encoder.positional_embedding",
            "encoder/position_encodings/encodings",
        )?;
        for conv in ["conv1", "conv2"] {
            plan.whole(
                index,
                &format!("encoder.{conv}.weight"),
                &format!("encoder/{conv}/weight"),
            )?;
            plan.whole(
                index,
                &format!("encoder.{conv}.bias"),
                &format!("encoder/{conv}/bias"),
            )?;
        }
        for i in 0..hp.n_audio_layer {
            let (out, src) = (format!("encoder.blocks.{i}"), format!("encoder/layer_{i}"));
            plan.self_attention(index, &out, &src, a)?;
            plan.ffn(index, &out, &src)?;
        }
        plan.norm(index, "encoder.ln_post", "encoder/layer_norm")?;
        plan.whole(
            index,
            "decoder.positional_embedding",
            "decoder/position_encodings/encodings",
        )?;
        plan.whole(
            index,
            "decoder.token_embedding.weight",
            "decoder/embeddings/weight",
        )?;
        for i in 0..hp.n_text_layer {
            let (out, src) = (format!("decoder.blocks.{i}"), format!("decoder/layer_{i}"));
            plan.self_attention(index, &out, &src, t)?;
            plan.cross_attention(index, &out, &src, t)?;
            plan.ffn(index, &out, &src)?;
        }
        plan.norm(index, "decoder.ln", "decoder/layer_norm")?;
        Ok(plan)
    }

    fn self_attention(
        &mut self,
        ix: &Index,
        out: &str,
        src: &str,
        n: usize,
    ) -> Result<(), ConvertError> {
        let (w, b) = (
            format!("{src}/self_attention/linear_0/weight"),
            format!("{src}/self_attention/linear_0/bias"),
        );
        expect_shape(ix.get(&w)?, &w, &[3 * n, n])?;
        self.rows(ix, &format!("{out}.attn.query.weight"), &w, 0..n)?;
        self.rows(ix, &format!("{out}.attn.query.bias"), &b, 0..n)?;
        self.rows(ix, &format!("{out}.attn.key.weight"), &w, n..2 * n)?;
        self.zero.push((b.clone(), n..2 * n));
        self.rows(ix, &format!("{out}.attn.value.weight"), &w, 2 * n..3 * n)?;
        self.rows(ix, &format!("{out}.attn.value.bias"), &b, 2 * n..3 * n)?;
        self.linear(
            ix,
            &format!("{out}.attn.out"),
            &format!("{src}/self_attention/linear_1"),
        )?;
        self.norm(
            ix,
            &format!("{out}.attn_ln"),
            &format!("{src}/self_attention/layer_norm"),
        )
    }

    fn cross_attention(
        &mut self,
        ix: &Index,
        out: &str,
        src: &str,
        n: usize,
    ) -> Result<(), ConvertError> {
        self.linear(
            ix,
            &format!("{out}.cross_attn.query"),
            &format!("{src}/attention/linear_0"),
        )?;
        let (w, b) = (
            format!("{src}/attention/linear_1/weight"),
            format!("{src}/attention/linear_1/bias"),
        );
        expect_shape(ix.get(&w)?, &w, &[2 * n, n])?;
        self.rows(ix, &format!("{out}.cross_attn.key.weight"), &w, 0..n)?;
        self.zero.push((b.clone(), 0..n));
        self.rows(ix, &format!("{out}.cross_attn.value.weight"), &w, n..2 * n)?;
        self.rows(ix, &format!("{out}.cross_attn.value.bias"), &b, n..2 * n)?;
        self.linear(
            ix,
            &format!("{out}.cross_attn.out"),
            &format!("{src}/attention/linear_2"),
        )?;
        self.norm(
            ix,
            &format!("{out}.cross_attn_ln"),
            &format!("{src}/attention/layer_norm"),
        )
    }

    fn ffn(&mut self, ix: &Index, out: &str, src: &str) -> Result<(), ConvertError> {
        self.linear(ix, &format!("{out}.mlp.0"), &format!("{src}/ffn/linear_0"))?;
        self.linear(ix, &format!("{out}.mlp.2"), &format!("{src}/ffn/linear_1"))?;
        self.norm(
            ix,
            &format!("{out}.mlp_ln"),
            &format!("{src}/ffn/layer_norm"),
        )
    }

    fn linear(&mut self, ix: &Index, out: &str, src: &str) -> Result<(), ConvertError> {
        self.whole(ix, &format!("{out}.weight"), &format!("{src}/weight"))?;
        self.whole(ix, &format!("{out}.bias"), &format!("{src}/bias"))
    }

    fn norm(&mut self, ix: &Index, out: &str, src: &str) -> Result<(), ConvertError> {
        self.whole(ix, &format!("{out}.weight"), &format!("{src}/gamma"))?;
        self.whole(ix, &format!("{out}.bias"), &format!("{src}/beta"))
    }

    fn whole(&mut self, ix: &Index, name: &str, source: &str) -> Result<(), ConvertError> {
        let rows = ix.get(source)?.shape.first().copied().unwrap_or(1);
        self.rows(ix, name, source, 0..rows)
    }

    fn rows(
        &mut self,
        ix: &Index,
        name: &str,
        source: &str,
        rows: Range<usize>,
    ) -> Result<(), ConvertError> {
        let var = ix.get(source)?;
        let mut shape = var.shape.clone();
        match shape.first_mut() {
            Some(first) if rows.end <= *first => *first = rows.len(),
            _ => {
                return Err(shape_error(
                    var,
                    source,
                    &format!("at least {} rows", rows.end),
                ));
            }
        }
        // whisper.cpp takes the conv biases as [n, 1] (OpenAI's converter reshapes them).
        if name.starts_with("encoder.conv") && name.ends_with(".bias") {
            shape.push(1);
        }
        let ftype = ftype_for(name, shape.len());
        self.tensors.push(Tensor {
            name: name.to_owned(),
            source: source.to_owned(),
            rows,
            shape,
            ftype,
        });
        Ok(())
    }
}

/// Matrices are f16, vectors, conv biases and positional embeddings f32, as in OpenAI's
/// converter (and as whisper.cpp's loader checks).
fn ftype_for(name: &str, rank: usize) -> FType {
    let f32_anyway = name.ends_with("positional_embedding")
        || name.starts_with("encoder.conv") && name.ends_with(".bias");
    if rank < 2 || f32_anyway {
        FType::F32
    } else {
        FType::F16
    }
}

fn expect_shape(var: &Variable, name: &str, expected: &[usize]) -> Result<(), ConvertError> {
    if var.shape == expected {
        Ok(())
    } else {
        Err(shape_error(var, name, &format!("{expected:?}")))
    }
}

fn shape_error(var: &Variable, name: &str, expected: &str) -> ConvertError {
    ConvertError::Shape {
        name: name.to_owned(),
        found: var.shape.clone(),
        expected: expected.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::testing;
    use std::io::Cursor;

    fn index(vars: &[(String, Vec<u32>, u8, Vec<u8>)]) -> Index {
        Index::read(&mut Cursor::new(testing::bytes(vars))).unwrap()
    }

    #[test]
    fn hparams_come_from_shapes_and_head_counts() {
        let ix = index(&testing::variables());
        let hp = Hparams::from_index(&ix, [Some(2), Some(2)]).unwrap();
        let expected = Hparams {
            n_vocab: 6,
            n_audio_ctx: 3,
            n_audio_state: 4,
            n_audio_head: 2,
            n_audio_layer: 1,
            n_text_ctx: 2,
            n_text_state: 4,
            n_text_head: 2,
            n_text_layer: 1,
            n_mels: 2,
        };
        assert_eq!(hp, expected);
        let guessed = Hparams::from_index(&ix, [None, None]).unwrap();
        assert_eq!(
            (guessed.n_audio_head, guessed.n_text_head),
            (0, 0),
            "4 / 64"
        );
    }

    fn check(
        plan: &Plan,
        name: &str,
        source: &str,
        rows: Range<usize>,
        shape: &[usize],
        ftype: FType,
    ) {
        let t = plan.tensors.iter().find(|t| t.name == name).unwrap();
        assert_eq!(
            (
                t.source.as_str(),
                t.rows.clone(),
                t.shape.as_slice(),
                t.ftype
            ),
            (source, rows, shape, ftype),
            "{name}"
        );
    }

    #[test]
    fn maps_and_splits_tensors_as_whisper_cpp_names_them() {
        let ix = index(&testing::variables());
        let plan = Plan::new(&ix, &Hparams::from_index(&ix, [Some(2), Some(2)]).unwrap()).unwrap();
        assert_eq!(plan.tensors.len(), 11 + 15 + 24);
        assert_eq!(plan.tensors[0].name, "encoder.positional_embedding");
        let qkv = "decoder/layer_0/self_attention/linear_0/weight";
        check(
            &plan,
            "decoder.blocks.0.attn.value.weight",
            qkv,
            8..12,
            &[4, 4],
            FType::F16,
        );
        let kv = "decoder/layer_0/attention/linear_1/bias";
        check(
            &plan,
            "decoder.blocks.0.cross_attn.value.bias",
            kv,
            4..8,
            &[4],
            FType::F32,
        );
        check(
            &plan,
            "encoder.conv1.bias",
            "encoder/conv1/bias",
            0..4,
            &[4, 1],
            FType::F32,
        );
        check(
            &plan,
            "encoder.conv2.weight",
            "encoder/conv2/weight",
            0..4,
            &[4, 4, 3],
            FType::F16,
        );
        check(
            &plan,
            "decoder.ln.weight",
            "decoder/layer_norm/gamma",
            0..4,
            &[4],
            FType::F32,
        );
        let pe = "decoder/position_encodings/encodings";
        check(
            &plan,
            "decoder.positional_embedding",
            pe,
            0..2,
            &[2, 4],
            FType::F32,
        );
        let zero: Vec<&str> = plan.zero.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(zero.len(), 3);
        assert!(zero.contains(&kv));
    }
}
