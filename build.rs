//! Build script of the `viva` binary: records the commit (`git rev-parse --short HEAD`, else
//! "unknown") and the compiler (`rustc --version`) for the `viva_build_info` metric. Never
//! fails: a build without git or outside a repository says "unknown".

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".to_owned());
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let rustc = output(Command::new(rustc).arg("--version")).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=VIVA_COMMIT={commit}");
    println!("cargo:rustc-env=VIVA_RUSTC={rustc}");
    println!("cargo:rerun-if-changed=build.rs");
    for path in head_files() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The files whose change moves HEAD: HEAD itself, the branch it names and packed refs.
fn head_files() -> Vec<PathBuf> {
    let (Some(git_dir), Some(common)) = (
        git(&["rev-parse", "--absolute-git-dir"]),
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    ) else {
        return Vec::new();
    };
    let mut files = vec![Path::new(&git_dir).join("HEAD")];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        files.push(Path::new(&common).join(branch));
    }
    files.push(Path::new(&common).join("packed-refs"));
    files.into_iter().filter(|path| path.exists()).collect()
}

fn git(args: &[&str]) -> Option<String> {
    output(Command::new("git").args(args))
}

/// The command's first stdout line, if it ran and succeeded.
fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let line = text.lines().next()?.trim().to_owned();
    (out.status.success() && !line.is_empty()).then_some(line)
}
