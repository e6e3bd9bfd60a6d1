//! Test fixtures: a miniature CTranslate2 Whisper model (width 4, one block each side) with
//! recognisable values, and its vocabulary.

use super::ct2::tests::{f16_bytes, model_bin};

/// Model width.
pub const N: u32 = 4;
/// Vocabulary, special tokens included.
pub const VOCABULARY: &str = "a\n\u{120}b\n\n<|endoftext|>\n<|startoftranscript|>\n<|en|>\n";
pub const N_VOCAB: u32 = 6;

type Var = (String, Vec<u32>, u8, Vec<u8>);

/// An f16 variable whose element `i` is `base + i / 64`.
fn var(name: &str, shape: &[u32], base: f32) -> Var {
    let len = shape.iter().product::<u32>() as usize;
    let values: Vec<f32> = (0..len).map(|i| base + i as f32 / 64.0).collect();
    (name.to_owned(), shape.to_vec(), 4, f16_bytes(&values))
}

fn zero_key_bias(mut v: Var, key: std::ops::Range<usize>) -> Var {
    for i in key {
        v.3[2 * i] = 0;
        v.3[2 * i + 1] = 0;
    }
    v
}

fn linear(vars: &mut Vec<Var>, name: &str, out: u32, inp: u32) {
    vars.push(var(&format!("{name}/weight"), &[out, inp], 1.0));
    vars.push(var(&format!("{name}/bias"), &[out], 2.0));
}

fn norm(vars: &mut Vec<Var>, name: &str) {
    vars.push(var(&format!("{name}/gamma"), &[N], 3.0));
    vars.push(var(&format!("{name}/beta"), &[N], 4.0));
}

fn block(vars: &mut Vec<Var>, prefix: &str, cross: bool) {
    let n = N as usize;
    vars.push(var(
        &format!("{prefix}/self_attention/linear_0/weight"),
        &[3 * N, N],
        5.0,
    ));
    let qkv = var(
        &format!("{prefix}/self_attention/linear_0/bias"),
        &[3 * N],
        6.0,
    );
    vars.push(zero_key_bias(qkv, n..2 * n));
    linear(vars, &format!("{prefix}/self_attention/linear_1"), N, N);
    norm(vars, &format!("{prefix}/self_attention/layer_norm"));
    if cross {
        linear(vars, &format!("{prefix}/attention/linear_0"), N, N);
        vars.push(var(
            &format!("{prefix}/attention/linear_1/weight"),
            &[2 * N, N],
            7.0,
        ));
        let kv = var(&format!("{prefix}/attention/linear_1/bias"), &[2 * N], 8.0);
        vars.push(zero_key_bias(kv, 0..n));
        linear(vars, &format!("{prefix}/attention/linear_2"), N, N);
        norm(vars, &format!("{prefix}/attention/layer_norm"));
    }
    linear(vars, &format!("{prefix}/ffn/linear_0"), 4 * N, N);
    linear(vars, &format!("{prefix}/ffn/linear_1"), N, 4 * N);
    norm(vars, &format!("{prefix}/ffn/layer_norm"));
}

/// The variables of the miniature model; `edit` may change them before they are written.
pub fn variables() -> Vec<Var> {
    let mut vars = vec![
        (
            "encoder/num_heads".to_owned(),
            vec![],
            2,
            2i16.to_le_bytes().to_vec(),
        ),
        (
            "decoder/num_heads".to_owned(),
            vec![],
            2,
            2i16.to_le_bytes().to_vec(),
        ),
        ("decoder/scale_embeddings".to_owned(), vec![], 1, vec![1]),
        var("encoder/position_encodings/encodings", &[3, N], 9.0),
        var("encoder/conv1/weight", &[N, 2, 3], 10.0),
        var("encoder/conv1/bias", &[N], 11.0),
        var("encoder/conv2/weight", &[N, N, 3], 12.0),
        var("encoder/conv2/bias", &[N], 13.0),
        var("decoder/position_encodings/encodings", &[2, N], 14.0),
        var("decoder/embeddings/weight", &[N_VOCAB, N], 15.0),
    ];
    block(&mut vars, "encoder/layer_0", false);
    norm(&mut vars, "encoder/layer_norm");
    block(&mut vars, "decoder/layer_0", true);
    norm(&mut vars, "decoder/layer_norm");
    vars
}

/// `model.bin` bytes for `vars`.
pub fn bytes(vars: &[Var]) -> Vec<u8> {
    let borrowed: Vec<(&str, Vec<u32>, u8, Vec<u8>)> = vars
        .iter()
        .map(|(n, s, d, b)| (n.as_str(), s.clone(), *d, b.clone()))
        .collect();
    model_bin("WhisperSpec", &borrowed)
}
