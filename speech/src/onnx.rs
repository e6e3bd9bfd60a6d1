//! ONNX Runtime, loaded at run time from the shared library that `viva models install
//! --model onnxruntime` takes out of PyPI's `onnxruntime` wheel: nothing is downloaded when
//! building, and a server without the library runs without the models that need it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ort::environment::Environment;
use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;

/// The shared library's file name, as installed in the models folder.
pub const ONNXRUNTIME_FILE: &str = "libonnxruntime.so.1.31.1";

/// Why the runtime or a model could not be used. All are terminal for the process (a missing
/// or wrong file), except [`OnnxError::Run`], which concerns one inference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OnnxError {
    /// The shared library is missing or could not be loaded.
    #[error("cannot load ONNX Runtime from {path}: {detail}")]
    Runtime {
        /// The library asked for.
        path: PathBuf,
        /// What went wrong.
        detail: String,
    },
    /// The process loaded another copy of the library already (it can hold only one).
    #[error("ONNX Runtime was loaded from {loaded} already, not {asked}")]
    OtherRuntime {
        /// The library loaded.
        loaded: PathBuf,
        /// The library asked for now.
        asked: PathBuf,
    },
    /// A model file could not be read or is not a model the runtime accepts.
    #[error("cannot load the ONNX model {path}: {detail}")]
    Model {
        /// The model file.
        path: PathBuf,
        /// What the runtime said.
        detail: String,
    },
    /// One inference failed (its inputs, or the runtime).
    #[error("ONNX inference failed: {0}")]
    Run(String),
}

/// The library this process loaded and its one environment, or why it could not.
static RUNTIME: OnceLock<Result<(PathBuf, Environment), OnnxError>> = OnceLock::new();

/// Loads ONNX Runtime from `dylib` for the whole process. Idempotent: later calls with the
/// same path return the first call's outcome; another path is refused.
pub fn init_runtime(dylib: &Path) -> Result<(), OnnxError> {
    environment(dylib).map(|_| ())
}

fn environment(dylib: &Path) -> Result<&'static Environment, OnnxError> {
    match RUNTIME.get_or_init(|| load(dylib).map(|env| (dylib.to_owned(), env))) {
        Ok((loaded, env)) if loaded == dylib => Ok(env),
        Ok((loaded, _)) => Err(OnnxError::OtherRuntime {
            loaded: loaded.clone(),
            asked: dylib.to_owned(),
        }),
        Err(error) => Err(error.clone()),
    }
}

fn load(dylib: &Path) -> Result<Environment, OnnxError> {
    let failed = |detail: String| OnnxError::Runtime {
        path: dylib.to_owned(),
        detail,
    };
    if !dylib.is_file() {
        return Err(failed("no such file".to_owned()));
    }
    ort::init_from(dylib)
        .map_err(|e| failed(e.to_string()))?
        .with_name("viva")
        .build()
        .map_err(|e| failed(e.to_string()))
}

/// A session for the model at `path`, run on `threads` intra-op threads (no inter-op
/// pool), fully optimised, on the runtime [`init_runtime`] loaded from `dylib`.
pub fn session(dylib: &Path, path: &Path, threads: usize) -> Result<Session, OnnxError> {
    let env = environment(dylib)?;
    let failed = |detail: String| OnnxError::Model {
        path: path.to_owned(),
        detail,
    };
    let error = |e: ort::Error<_>| failed(e.to_string());
    Session::builder(env)
        .map_err(|e| failed(e.to_string()))?
        .with_optimization_level(GraphOptimizationLevel::All)
        .map_err(error)?
        .with_intra_threads(threads)
        .map_err(error)?
        .with_inter_threads(1)
        .map_err(error)?
        .commit_from_file(path)
        .map_err(|e| failed(e.to_string()))
}

/// Where the runtime library would be in the models folder `dir`.
pub fn runtime_in(dir: &Path) -> PathBuf {
    dir.join(ONNXRUNTIME_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_is_an_error_not_a_panic() {
        let missing = Path::new("/nonexistent/libonnxruntime.so.1.31.1");
        let err = load(missing).map(|_| ()).unwrap_err();
        assert!(matches!(err, OnnxError::Runtime { .. }), "{err}");
        assert_eq!(
            runtime_in(Path::new("/m")),
            Path::new("/m/libonnxruntime.so.1.31.1")
        );
    }
}
