//! The release, as an operator uses it: `scripts/package` makes the tarball, it is unpacked
//! somewhere else, and `./viva serve` runs from there with nothing of the build around it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::process::Command;

use crate::harness::{Auth, Client, Server, answer, http_get, satisfactory_for, start_exam};

/// Generous: packaging copies and compresses a debug binary of a few hundred MB.
const PACKAGE_TIMEOUT: Duration = Duration::from_secs(300);

const PACKAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/package");

/// Runs `command` to its end; panics unless it succeeds. Returns its stdout.
async fn run(command: &mut Command, what: &str) -> String {
    let output = tokio::time::timeout(PACKAGE_TIMEOUT, command.kill_on_drop(true).output())
        .await
        .unwrap_or_else(|_| panic!("{what} still running after {PACKAGE_TIMEOUT:?}"))
        .unwrap_or_else(|err| panic!("run {what}: {err}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{what}: {}\n{stderr}",
        output.status
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `scripts/package --binary <this build's viva> --out OUT`; the tarball's path.
async fn package(out: &Path) -> PathBuf {
    let mut command = Command::new(PACKAGE);
    command
        .arg("--binary")
        .arg(env!("CARGO_BIN_EXE_viva"))
        .arg("--out")
        .arg(out);
    let stdout = run(&mut command, "scripts/package").await;
    let tarball = PathBuf::from(stdout.trim());
    assert!(tarball.starts_with(out), "{tarball:?} in {out:?}");
    let name = tarball.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        name.starts_with(&format!("viva-{version}-")) && name.ends_with("-linux.tar.gz"),
        "{name}"
    );
    tarball
}

/// Unpacks `tarball` into `into`; the one folder it holds.
async fn unpack(tarball: &Path, into: &Path) -> PathBuf {
    let mut command = Command::new("tar");
    command.arg("-xzf").arg(tarball).arg("-C").arg(into);
    run(&mut command, "tar -xzf").await;
    let entries: Vec<PathBuf> = std::fs::read_dir(into)
        .expect("read the unpacked folder")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    assert_eq!(entries.len(), 1, "one top folder: {entries:?}");
    entries.into_iter().next().expect("one entry")
}

#[tokio::test]
async fn an_unpacked_release_serves_an_exam_from_anywhere() {
    let out = tempfile::tempdir().expect("out dir");
    let tarball = package(out.path()).await;
    let elsewhere = tempfile::tempdir().expect("unpack dir");
    let release = unpack(&tarball, elsewhere.path()).await;
    for path in [
        "viva",
        "blueprints/acs",
        "blueprints/rubrics",
        "docs",
        "README.md",
    ] {
        assert!(release.join(path).exists(), "{path} in the release");
    }

    let server = Server::start_release(&release, &release.join("data")).await;
    let page = http_get(&server, "/", None).await;
    assert_eq!(page.status, 200, "the embedded web client");
    assert!(page.body.contains("<html"), "{}", page.body);
    let mut client = Client::connect(&server, Auth::DevUser("operator".into())).await;
    let started = start_exam(&mut client, "desk").await;
    let answered = answer(&mut client, &satisfactory_for(&started.question)).await;
    assert_eq!(answered.assessment["type"], "assessment");
    let next = answered.question();
    assert_eq!(next["number"], 2, "{next}");
    assert!(
        release.join("data/sessions").is_dir(),
        "the session is kept in the data dir inside the release's folder"
    );
}

#[tokio::test]
async fn the_binary_alone_refuses_to_start_and_says_where_it_looked() {
    let empty = tempfile::tempdir().expect("empty dir");
    let viva = empty.path().join("viva");
    if std::fs::hard_link(env!("CARGO_BIN_EXE_viva"), &viva).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_viva"), &viva).expect("copy viva");
    }
    let mut command = Command::new(&viva);
    command
        .args([
            "serve",
            "--dev",
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            "data",
        ])
        .current_dir(empty.path());
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        if text.starts_with("CARGO") || text.starts_with("VIVA_") {
            command.env_remove(&name);
        }
    }
    let output = tokio::time::timeout(PACKAGE_TIMEOUT, command.kill_on_drop(true).output())
        .await
        .expect("viva exits")
        .expect("run viva");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    let dir = empty.path().canonicalize().expect("canonical dir");
    for needle in [
        "no blueprints folder".to_owned(),
        format!("{}", dir.join("blueprints").display()),
        format!("{}", dir.join("../share/viva/blueprints").display()),
        "--blueprints DIR".to_owned(),
        "VIVA_BLUEPRINTS".to_owned(),
    ] {
        assert!(stderr.contains(&needle), "{needle:?} in {stderr}");
    }
}
