//! Where the blueprints folder is: the configured path, else `./blueprints`, else beside the
//! executable, else `<exe dir>/../share/viva/blueprints`. The choice is a pure function of
//! the places and what exists ([`choose`]); [`locate`] feeds it the real filesystem.

use std::fmt;
use std::path::{Path, PathBuf};

/// The sub-folder every blueprints folder has (the ACS catalogs).
const MARKER: &str = "acs";

/// How to name a blueprints folder, for the error's last line.
const HOW_TO_SET: &str = "set one with --blueprints DIR, the VIVA_BLUEPRINTS environment \
     variable or `blueprints` under [server] in the config file, or keep the release's \
     blueprints/ folder beside the viva binary";

/// One place looked at, and why it was a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// What put it on the list, such as "--blueprints".
    pub origin: &'static str,
    /// The folder.
    pub path: PathBuf,
    /// Named by the operator: any folder is taken (its files are checked when loaded);
    /// a place found by looking must have the ACS catalogs.
    pub configured: bool,
}

/// No blueprints folder in any place tried.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct NotFound {
    /// Every place tried, in order.
    pub tried: Vec<Place>,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "no blueprints folder found (a configured folder, or one with {MARKER}/ in it); tried:"
        )?;
        for place in &self.tried {
            writeln!(f, "  {} ({})", place.path.display(), place.origin)?;
        }
        write!(f, "{HOW_TO_SET}")
    }
}

/// The places to look, in order. A configured folder is the only place: a wrong path is an
/// error, never silently replaced by another folder.
pub fn places(configured: Option<&Path>, cwd: &Path, exe: Option<&Path>) -> Vec<Place> {
    if let Some(path) = configured {
        let origin = "configured: --blueprints, VIVA_BLUEPRINTS or [server] blueprints";
        return vec![Place {
            origin,
            path: path.to_owned(),
            configured: true,
        }];
    }
    let mut places = vec![Place {
        origin: "./blueprints in the working directory",
        path: cwd.join("blueprints"),
        configured: false,
    }];
    if let Some(dir) = exe.and_then(Path::parent) {
        places.push(Place {
            origin: "beside the viva binary",
            path: dir.join("blueprints"),
            configured: false,
        });
        places.push(Place {
            origin: "the binary's ../share/viva",
            path: dir.join("../share/viva/blueprints"),
            configured: false,
        });
    }
    places
}

/// The first place that is a blueprints folder, by `is_dir`: a configured folder that is
/// a folder, or a place with the ACS catalogs; else every place tried.
pub fn choose(places: Vec<Place>, is_dir: impl Fn(&Path) -> bool) -> Result<PathBuf, NotFound> {
    match places.iter().find(|place| match place.configured {
        true => is_dir(&place.path),
        false => is_dir(&place.path.join(MARKER)),
    }) {
        Some(place) => Ok(place.path.clone()),
        None => Err(NotFound { tried: places }),
    }
}

/// The blueprints folder for this process: `configured` if it is a folder, else the first
/// place found with the ACS catalogs: the working directory's, else the executable's
/// (symbolic links resolved, so a linked binary finds its release).
pub fn locate(configured: Option<&Path>) -> Result<PathBuf, NotFound> {
    // ignore: without them, fewer places are tried, and the error lists the ones that were.
    let cwd = std::env::current_dir().unwrap_or_default();
    let exe = std::env::current_exe().ok();
    let exe = exe.map(|exe| exe.canonicalize().unwrap_or(exe));
    choose(places(configured, &cwd, exe.as_deref()), |dir| dir.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Looks with `configured` from `/work` for `/opt/viva/bin/viva`, where only the
    /// `existing` folders exist; expects `Ok(folder)` or `Err(every folder tried)`.
    fn check(configured: Option<&str>, existing: &[&str], expected: Result<&str, &[&str]>) {
        let places = places(
            configured.map(Path::new),
            Path::new("/work"),
            Some(Path::new("/opt/viva/bin/viva")),
        );
        let found = choose(places, |dir| existing.iter().any(|e| dir == Path::new(e)));
        let found = found.map_err(|e| e.tried.into_iter().map(|p| p.path).collect::<Vec<_>>());
        let expected = expected
            .map(PathBuf::from)
            .map_err(|tried| tried.iter().map(PathBuf::from).collect::<Vec<_>>());
        assert_eq!(found, expected, "{configured:?} with {existing:?}");
    }

    #[test]
    fn configured_then_working_dir_then_beside_the_binary_then_share() {
        let all = [
            "/cfg",
            "/work/blueprints/acs",
            "/opt/viva/bin/blueprints/acs",
            "/opt/viva/bin/../share/viva/blueprints/acs",
        ];
        let tried = [
            "/work/blueprints",
            "/opt/viva/bin/blueprints",
            "/opt/viva/bin/../share/viva/blueprints",
        ];
        check(Some("/cfg"), &all, Ok("/cfg"));
        check(Some("/cfg"), &[], Err(&["/cfg"][..]));
        check(Some("/missing"), &all, Err(&["/missing"][..]));
        check(None, &all, Ok(tried[0]));
        check(None, &all[2..], Ok(tried[1]));
        check(None, &all[3..], Ok(tried[2]));
        check(None, &[], Err(&tried));
        // Found by looking, a folder without the ACS catalogs is passed over.
        check(None, &["/work/blueprints", all[2]], Ok(tried[1]));
    }

    #[test]
    fn without_an_executable_path_only_the_working_dir_is_tried() {
        let tried = places(None, Path::new("/w"), None);
        assert_eq!(tried.len(), 1);
        assert_eq!(tried[0].path, Path::new("/w/blueprints"));
    }

    #[test]
    fn the_error_names_every_place_and_how_to_set_one() {
        let err = choose(
            places(None, Path::new("/w"), Some(Path::new("/b/viva"))),
            |_| false,
        )
        .unwrap_err();
        let text = err.to_string();
        for needle in [
            "/w/blueprints",
            "/b/blueprints",
            "/b/../share/viva/blueprints",
        ] {
            assert!(text.contains(needle), "{needle} in {text}");
        }
        for needle in ["--blueprints", "VIVA_BLUEPRINTS", "[server]"] {
            assert!(text.contains(needle), "{needle} in {text}");
        }
    }
}
