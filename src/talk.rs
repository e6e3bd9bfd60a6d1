//! `viva talk`: runs the `viva-talk` client with every argument passed on. The client is a
//! package of its own (`talk/`, its binary `viva-talk`), so the server package does not depend
//! on the sound stack (cpal, ALSA) and builds without it; `cargo build -p viva-talk` puts the
//! client beside `viva`.

use std::ffi::OsString;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

/// The client's file name.
const CLIENT: &str = "viva-talk";

/// `viva talk`'s arguments: the client's own (`viva talk --help` lists them).
#[derive(Debug, clap::Args)]
#[command(disable_help_flag = true)]
pub struct TalkArgs {
    /// The client's flags, passed on unchanged.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<OsString>,
}

/// Replaces this process with the client; returns only if it could not be started.
pub fn run(args: TalkArgs) -> anyhow::Result<()> {
    let client = find_client()?;
    let err = Command::new(&client).args(&args.args).exec();
    Err(err).with_context(|| format!("cannot run {}", client.display()))
}

/// The client beside this binary; else, under `cargo run`, built there first; else on `PATH`.
fn find_client() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find this program's own path")?;
    let beside = exe.with_file_name(CLIENT);
    if beside.is_file() {
        return Ok(beside);
    }
    if build_under_cargo(&exe)? && beside.is_file() {
        return Ok(beside);
    }
    if let Some(on_path) = on_path() {
        return Ok(on_path);
    }
    bail!(
        "`viva talk` runs the {CLIENT} client, which is not built: `cargo build --release -p \
         {CLIENT}` builds it beside viva (it needs the ALSA headers, libasound2-dev)"
    )
}

/// Under `cargo run` (cargo sets `CARGO` and `CARGO_MANIFEST_DIR`), builds the client with
/// this binary's profile; false when not run by cargo.
fn build_under_cargo(exe: &Path) -> anyhow::Result<bool> {
    let (Some(cargo), Some(manifest_dir)) = (
        std::env::var_os("CARGO"),
        std::env::var_os("CARGO_MANIFEST_DIR"),
    ) else {
        return Ok(false);
    };
    let mut build = Command::new(cargo);
    build
        .args([
            "build",
            "--quiet",
            "-p",
            CLIENT,
            "--bin",
            CLIENT,
            "--manifest-path",
        ])
        .arg(Path::new(&manifest_dir).join("Cargo.toml"));
    match exe
        .parent()
        .and_then(Path::file_name)
        .and_then(|d| d.to_str())
    {
        Some("debug") | None => {}
        Some("release") => {
            build.arg("--release");
        }
        Some(profile) => {
            build.args(["--profile", profile]);
        }
    }
    eprintln!("building the {CLIENT} client…");
    let status = build.status().context("cannot run cargo")?;
    if !status.success() {
        bail!("cargo could not build the {CLIENT} client ({status})");
    }
    Ok(true)
}

/// The client on `PATH`, if any.
fn on_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(CLIENT))
        .find(|candidate| candidate.is_file())
}
