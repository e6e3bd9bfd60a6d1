//! Reading CTranslate2's `model.bin`: an index of its variables (name, shape, type, where
//! the data lies), and the data of one variable, or of a run of its rows, on demand.
//!
//! # Format
//! All integers little-endian; strings are a u16 length then that many bytes, the last a NUL.
//! ```text
//! u32 version (4..=6), string spec name, u32 spec revision, u32 variable count,
//! per variable: string name, u8 rank, u32 dims[rank], u8 dtype, u32 byte count, data,
//! u32 alias count, per alias: string alias, string target.
//! ```
//! dtype: 0 f32, 1 i8, 2 i16, 3 i32, 4 f16, 5 bf16.

use std::collections::HashMap;
use std::io::{self, Read, Seek, SeekFrom};

use half::{bf16, f16};

use super::error::ConvertError;

/// The oldest and newest `model.bin` versions whose layout this reader knows.
const VERSIONS: std::ops::RangeInclusive<u32> = 4..=6;

/// The element type of a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DType {
    F32,
    I8,
    I16,
    I32,
    F16,
    BF16,
}

impl DType {
    fn from_id(id: u8) -> Option<Self> {
        Some(match id {
            0 => Self::F32,
            1 => Self::I8,
            2 => Self::I16,
            3 => Self::I32,
            4 => Self::F16,
            5 => Self::BF16,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Self::I8 => 1,
            Self::I16 | Self::F16 | Self::BF16 => 2,
            Self::F32 | Self::I32 => 4,
        }
    }

    /// Whether values of this type are floats (a quantized model stores integers).
    pub fn is_float(self) -> bool {
        matches!(self, Self::F32 | Self::F16 | Self::BF16)
    }
}

/// One variable of the model: its shape and type, and where its data starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub shape: Vec<usize>,
    pub dtype: DType,
    offset: u64,
}

/// The variables of a `model.bin`, by name (aliases are left out: the converter never needs
/// one, whisper's output projection being the token embedding again).
#[derive(Debug)]
pub struct Index {
    pub spec: String,
    pub variables: HashMap<String, Variable>,
}

impl Index {
    /// Reads the header and every variable's description, seeking past the data.
    pub fn read<R: Read + Seek>(r: &mut R) -> Result<Self, ConvertError> {
        let version = read_u32(r)?;
        if !VERSIONS.contains(&version) {
            return Err(ConvertError::Format(format!(
                "model.bin version {version}, this converter reads versions {}..={}",
                VERSIONS.start(),
                VERSIONS.end()
            )));
        }
        let spec = read_string(r)?;
        let _revision = read_u32(r)?;
        let count = read_u32(r)?;
        let mut variables = HashMap::new();
        for _ in 0..count {
            let (name, variable) = read_variable(r)?;
            variables.insert(name, variable);
        }
        Ok(Self { spec, variables })
    }

    /// The variable called `name`.
    pub fn get(&self, name: &str) -> Result<&Variable, ConvertError> {
        self.variables
            .get(name)
            .ok_or_else(|| ConvertError::MissingVariable(name.to_owned()))
    }

    /// The value of a scalar integer variable (such as `encoder/num_heads`), if present.
    pub fn scalar<R: Read + Seek>(
        &self,
        r: &mut R,
        name: &str,
    ) -> Result<Option<i64>, ConvertError> {
        let Some(var) = self.variables.get(name) else {
            return Ok(None);
        };
        let mut buf = [0u8; 4];
        let bytes = &mut buf[..var.dtype.size()];
        r.seek(SeekFrom::Start(var.offset))?;
        r.read_exact(bytes)?;
        Ok(match var.dtype {
            DType::I8 => Some(i64::from(bytes[0] as i8)),
            DType::I16 => Some(i64::from(i16::from_le_bytes([bytes[0], bytes[1]]))),
            DType::I32 => Some(i64::from(i32::from_le_bytes(buf))),
            _ => None,
        })
    }
}

/// Reads rows `rows` of `var` as f32 values. A row spans all dimensions but the first, so
/// a row of a matrix is one output unit's weights and a row of a vector is one element.
pub fn read_rows<R: Read + Seek>(
    r: &mut R,
    var: &Variable,
    rows: std::ops::Range<usize>,
) -> Result<Vec<f32>, ConvertError> {
    let row_len: usize = var.shape.iter().skip(1).product();
    let size = var.dtype.size();
    let start = var.offset + (rows.start * row_len * size) as u64;
    let mut bytes = vec![0u8; rows.len() * row_len * size];
    r.seek(SeekFrom::Start(start))?;
    r.read_exact(&mut bytes)?;
    let values = match var.dtype {
        DType::F32 => bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        DType::F16 => bytes
            .chunks_exact(2)
            .map(|c| f16::from_le_bytes([c[0], c[1]]).to_f32())
            .collect(),
        DType::BF16 => bytes
            .chunks_exact(2)
            .map(|c| bf16::from_le_bytes([c[0], c[1]]).to_f32())
            .collect(),
        other => {
            return Err(ConvertError::Format(format!(
                "cannot read {other:?} as floats"
            )));
        }
    };
    Ok(values)
}

fn read_variable<R: Read + Seek>(r: &mut R) -> Result<(String, Variable), ConvertError> {
    let name = read_string(r)?;
    let rank = read_u8(r)?;
    let shape = (0..rank)
        .map(|_| read_u32(r).map(|d| d as usize))
        .collect::<Result<Vec<_>, _>>()?;
    let dtype_id = read_u8(r)?;
    let dtype = DType::from_id(dtype_id)
        .ok_or_else(|| ConvertError::Format(format!("{name}: unknown dtype {dtype_id}")))?;
    let bytes = u64::from(read_u32(r)?);
    let expected = (shape.iter().product::<usize>() * dtype.size()) as u64;
    if bytes != expected {
        return Err(ConvertError::Format(format!(
            "{name}: {bytes} bytes of data for shape {shape:?} of {dtype:?}"
        )));
    }
    let offset = r.stream_position()?;
    r.seek(SeekFrom::Current(bytes as i64))?;
    Ok((
        name,
        Variable {
            shape,
            dtype,
            offset,
        },
    ))
}

fn read_u8<R: Read>(r: &mut R) -> io::Result<u8> {
    let mut b = [0u8; 1];
    r.read_exact(&mut b)?;
    Ok(b[0])
}

fn read_u32<R: Read>(r: &mut R) -> io::Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn read_string<R: Read>(r: &mut R) -> Result<String, ConvertError> {
    let mut len = [0u8; 2];
    r.read_exact(&mut len)?;
    let mut bytes = vec![0u8; usize::from(u16::from_le_bytes(len))];
    r.read_exact(&mut bytes)?;
    if bytes.pop() != Some(0) {
        return Err(ConvertError::Format(
            "a string is not NUL-terminated".into(),
        ));
    }
    String::from_utf8(bytes).map_err(|_| ConvertError::Format("a name is not UTF-8".into()))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Cursor;

    /// A `model.bin` writer for tests: `(name, shape, dtype id, data bytes)`.
    pub(crate) fn model_bin(spec: &str, vars: &[(&str, Vec<u32>, u8, Vec<u8>)]) -> Vec<u8> {
        let mut out = Vec::new();
        let string = |out: &mut Vec<u8>, s: &str| {
            out.extend((s.len() as u16 + 1).to_le_bytes());
            out.extend(s.as_bytes());
            out.push(0);
        };
        out.extend(6u32.to_le_bytes());
        string(&mut out, spec);
        out.extend(3u32.to_le_bytes());
        out.extend((vars.len() as u32).to_le_bytes());
        for (name, shape, dtype, data) in vars {
            string(&mut out, name);
            out.push(shape.len() as u8);
            shape.iter().for_each(|d| out.extend(d.to_le_bytes()));
            out.push(*dtype);
            out.extend((data.len() as u32).to_le_bytes());
            out.extend(data);
        }
        out.extend(1u32.to_le_bytes());
        string(&mut out, "decoder/projection/weight");
        string(&mut out, "decoder/embeddings/weight");
        out
    }

    pub(crate) fn f16_bytes(values: &[f32]) -> Vec<u8> {
        values
            .iter()
            .flat_map(|v| f16::from_f32(*v).to_le_bytes())
            .collect()
    }

    #[test]
    fn reads_index_scalars_and_row_ranges() {
        let bin = model_bin(
            "WhisperSpec",
            &[
                ("encoder/num_heads", vec![], 2, 6i16.to_le_bytes().to_vec()),
                (
                    "w",
                    vec![3, 2],
                    4,
                    f16_bytes(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
                ),
                (
                    "b",
                    vec![2],
                    0,
                    [1.5f32, -2.0]
                        .iter()
                        .flat_map(|v| v.to_le_bytes())
                        .collect(),
                ),
            ],
        );
        let mut r = Cursor::new(bin);
        let index = Index::read(&mut r).unwrap();
        assert_eq!(index.spec, "WhisperSpec");
        assert_eq!(index.scalar(&mut r, "encoder/num_heads").unwrap(), Some(6));
        let w = index.get("w").unwrap().clone();
        assert_eq!(
            read_rows(&mut r, &w, 1..3).unwrap(),
            vec![3.0, 4.0, 5.0, 6.0]
        );
        let b = index.get("b").unwrap().clone();
        assert_eq!(read_rows(&mut r, &b, 0..2).unwrap(), vec![1.5, -2.0]);
        assert!(matches!(
            index.get("nope"),
            Err(ConvertError::MissingVariable(_))
        ));
    }

    #[test]
    fn rejects_unknown_versions_and_wrong_sizes() {
        let mut bin = model_bin("WhisperSpec", &[]);
        bin[0] = 9;
        assert!(matches!(
            Index::read(&mut Cursor::new(bin)),
            Err(ConvertError::Format(_))
        ));
        let bin = model_bin("WhisperSpec", &[("w", vec![2], 4, vec![0; 3])]);
        assert!(matches!(
            Index::read(&mut Cursor::new(bin)),
            Err(ConvertError::Format(_))
        ));
    }
}
