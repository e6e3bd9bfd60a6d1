//! Parse time of every shipped YAML blueprint: `blueprints/**.yaml` and the seed blueprints
//! (`$VIVA_SHARED_DIR/data/seed-blueprints`, when there), each into its document type.
//!
//! Run with `cargo bench -p viva-blueprint --bench yaml_parse` (release), or with
//! `--profile dev` for what a debug server start pays. Parsing only: no compiling or
//! checking of what was read.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::Criterion;
use viva_blueprint::course::CourseDoc;
use viva_blueprint::course::content::ContentDoc;
use viva_blueprint::library::{Source, parse};
use viva_blueprint::model::{AssessmentDoc, SkillDoc};
use viva_blueprint::rubric::{DomainDoc, RubricDoc};
use viva_blueprint::scenario::{LinkDoc, ScenarioDoc};

/// The document types, by the folder a file is in.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Skill,
    Assessment,
    Rubric,
    Domain,
    Course,
    Content,
    Scenario,
    Link,
}

fn kind_of(path: &Path) -> Option<Kind> {
    let folders: Vec<&str> = path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    let has = |name: &str| folders.contains(&name);
    Some(match () {
        () if has("domains") => Kind::Domain,
        () if has("rubrics") => Kind::Rubric,
        () if has("skills") => Kind::Skill,
        () if has("assessments") => Kind::Assessment,
        () if has("courses") => Kind::Course,
        () if has("content") => Kind::Content,
        () if has("scenarios") => Kind::Scenario,
        () if has("links") => Kind::Link,
        () => return None,
    })
}

fn yaml_files(dir: &Path, found: &mut Vec<(Kind, Source)>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "yaml")
            && let Some(kind) = kind_of(&path)
        {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let path = path.display().to_string();
            found.push((kind, Source { path, text }));
        }
    }
}

/// Parses one file; whether it parsed (every shipped file does).
fn parse_one(kind: Kind, source: &Source) -> bool {
    match kind {
        Kind::Skill => parse::<SkillDoc>(source).is_ok(),
        Kind::Assessment => parse::<AssessmentDoc>(source).is_ok(),
        Kind::Rubric => parse::<RubricDoc>(source).is_ok(),
        Kind::Domain => parse::<DomainDoc>(source).is_ok(),
        Kind::Course => parse::<CourseDoc>(source).is_ok(),
        Kind::Content => parse::<ContentDoc>(source).is_ok(),
        Kind::Scenario => parse::<ScenarioDoc>(source).is_ok(),
        Kind::Link => parse::<LinkDoc>(source).is_ok(),
    }
}

fn main() {
    let mut files = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    yaml_files(&root.join("blueprints"), &mut files);
    let shared = std::env::var_os("VIVA_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared"));
    yaml_files(&shared.join("data/seed-blueprints"), &mut files);
    let bytes: usize = files.iter().map(|(_, s)| s.text.len()).sum();
    let failed: Vec<&str> = files
        .iter()
        .filter(|(kind, source)| !parse_one(*kind, source))
        .map(|(_, source)| source.path.as_str())
        .collect();
    assert!(failed.is_empty(), "shipped YAML must parse: {failed:?}");
    println!("{} YAML files, {} KiB", files.len(), bytes / 1024);
    let mut criterion = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(10))
        .configure_from_args();
    criterion.bench_function("parse every shipped YAML file", |b| {
        b.iter(|| {
            files
                .iter()
                .filter(|(kind, source)| parse_one(*kind, black_box(source)))
                .count()
        })
    });
    criterion.final_summary();
}
