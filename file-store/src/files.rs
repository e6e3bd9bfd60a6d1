//! The file store's file handling: crash-safe writes (temporary file, fsync, rename, fsync
//! the directory), JSON records read off the async runtime, and the format check.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use viva_core::checkpoint::StoreError;

pub(crate) fn check_format(key: &str, found: Option<u32>, known: u32) -> Result<(), StoreError> {
    match found {
        Some(format) if format != known => Err(StoreError::Corrupt {
            key: key.to_owned(),
            reason: format!("format {format}, this build reads {known}"),
        }),
        _ => Ok(()),
    }
}

/// Runs `work` on the blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|err| StoreError::Unavailable(format!("file task failed: {err}")))?
}

pub(crate) async fn write_json<T: Serialize>(path: PathBuf, value: &T) -> Result<(), StoreError> {
    let bytes =
        serde_json::to_vec(value).map_err(|err| StoreError::Unavailable(err.to_string()))?;
    tokio::task::spawn_blocking(move || write_atomically(&path, &bytes))
        .await
        .map_err(|err| StoreError::Unavailable(format!("write task failed: {err}")))?
}

pub(crate) async fn read_json<T: DeserializeOwned + Send + 'static>(
    path: PathBuf,
) -> Result<Option<T>, StoreError> {
    tokio::task::spawn_blocking(move || {
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(unavailable(&path, err)),
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|err| StoreError::Corrupt {
                key: path.display().to_string(),
                reason: err.to_string(),
            })
    })
    .await
    .map_err(|err| StoreError::Unavailable(format!("read task failed: {err}")))?
}

/// Write to `<path>.tmp`, fsync, rename over `path`, fsync the directory.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let temporary = path.with_extension("json.tmp");
    let mut file = File::create(&temporary).map_err(|err| unavailable(&temporary, err))?;
    file.write_all(bytes)
        .map_err(|err| unavailable(&temporary, err))?;
    file.sync_all()
        .map_err(|err| unavailable(&temporary, err))?;
    fs::rename(&temporary, path).map_err(|err| unavailable(path, err))?;
    if let Some(dir) = path.parent() {
        File::open(dir)
            .and_then(|dir| dir.sync_all())
            .map_err(|err| unavailable(dir, err))?;
    }
    Ok(())
}

/// Removes `path` if it is there, then fsyncs its directory.
pub(crate) fn remove_durably(path: &Path) -> Result<(), StoreError> {
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(unavailable(path, err)),
    }
    if let Some(dir) = path.parent() {
        File::open(dir)
            .and_then(|dir| dir.sync_all())
            .map_err(|err| unavailable(dir, err))?;
    }
    Ok(())
}

pub(crate) fn unavailable(path: &Path, err: std::io::Error) -> StoreError {
    StoreError::Unavailable(format!("{}: {err}", path.display()))
}
