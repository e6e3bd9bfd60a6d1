//! The digests installed files are checked against: SHA-256 (the registry's pins) and
//! SHA-1 (the one whisper.cpp publishes for its own files).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use sha1::Sha1;
use sha2::{Digest, Sha256};

use super::error::{InstallError, io_error};

/// The SHA-256 of a file, in lower-case hex.
pub fn sha256_file(path: &Path) -> Result<String, InstallError> {
    digest_file::<Sha256>(path)
}

/// The SHA-1 of a file, in lower-case hex.
pub fn sha1_file(path: &Path) -> Result<String, InstallError> {
    digest_file::<Sha1>(path)
}

/// The digest `D` of a file, read in 1 MiB pieces, in lower-case hex.
fn digest_file<D: Digest>(path: &Path) -> Result<String, InstallError> {
    let mut file = File::open(path).map_err(io_error(path))?;
    let mut hasher = D::new();
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
    use std::fs;

    #[test]
    fn hashes_files_as_lower_case_hex() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("abc");
        fs::write(&path, "abc").unwrap();
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(sha256_file(&path).unwrap(), expected);
        let expected = "a9993e364706816aba3e25717850c26c9cd0d89d";
        assert_eq!(sha1_file(&path).unwrap(), expected);
    }
}
