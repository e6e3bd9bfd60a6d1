//! The workspace's import rules (issue 35; docs/modules.md, "Import rules"), checked on the
//! sources alone by `viva_testkit::imports`: no file imports across a line the table below
//! draws, and no crate has files that import each other in a circle. What the pending rules
//! would report: `cargo test -p viva-testkit --test import_rules -- --nocapture`.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use viva_testkit::imports::{Cycle, Rule, Workspace};

/// Files under `from` must not import anything under a `forbid` prefix (paths relative to the
/// workspace root; a prefix ending in `.rs` is one file).
const RULES: &[Rule] = &[
    Rule {
        name: "actors-no-tutor",
        from: "actors/",
        forbid: &["core/src/tutor/"],
        why: "the actors drive a session through the mode seam, never the tutor's internals",
    },
    Rule {
        name: "actors-no-exam",
        from: "actors/",
        forbid: &["core/src/exam/"],
        why: "the actors drive a session through the mode seam, never the exam's internals",
    },
    Rule {
        name: "actors-no-mode",
        from: "actors/",
        forbid: MODES,
        why: "the actors open and restore modes through the registry (`viva_core::modes`) only",
    },
    Rule {
        name: "stores-no-mode",
        from: "redis-store/",
        forbid: MODES_AND_BRAINS,
        why: "a store encodes a checkpoint and side records whole, never naming a mode",
    },
    Rule {
        name: "file-store-no-mode",
        from: "file-store/",
        forbid: MODES_AND_BRAINS,
        why: "a store encodes a checkpoint and side records whole, never naming a mode",
    },
    Rule {
        name: "session-no-mode",
        from: "core/src/session/",
        forbid: &["core/src/tutor/", "core/src/exam/", "core/src/modes/"],
        why: "the shared session files (lifecycle, phase, admission, state) know no mode",
    },
    Rule {
        name: "tutor-no-session",
        from: "core/src/tutor/",
        forbid: &["core/src/session/", "core/src/modes/"],
        why: "the tutor's brain is driven by a session and knows none",
    },
    Rule {
        name: "voice-no-session",
        from: "core/src/voice/",
        forbid: &["core/src/session/", "core/src/modes/"],
        why: "turn-taking and the speech port serve every mode and know no session",
    },
];

/// Each mode's own files (the registry, `core/src/modes/mod.rs`, is not among them).
const MODES: &[&str] = &[
    "core/src/modes/exam/",
    "core/src/modes/assessment/",
    "core/src/modes/tutor/",
    "core/src/modes/one_question.rs",
];

/// The modes and the engines behind them.
const MODES_AND_BRAINS: &[&str] = &["core/src/modes/", "core/src/tutor/", "core/src/exam/"];

/// Rules that fail on the current tree. Take a name off once its rule holds
/// (`pending_rules_still_fail` says when).
const PENDING: &[&str] = &[];

/// Import cycles through a file under one of these prefixes are pending too (none now: the
/// actors' files import their actor's `actor.rs`, never the `mod.rs` that re-exports them).
const PENDING_CYCLES: &[&str] = &[];

fn workspace() -> &'static Workspace {
    static WORKSPACE: OnceLock<Workspace> = OnceLock::new();
    WORKSPACE.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        Workspace::load(&root)
            .unwrap_or_else(|e| panic!("reading the workspace at {}: {e}", root.display()))
    })
}

fn rule(name: &str) -> &'static Rule {
    RULES
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("PENDING names no rule {name}"))
}

fn is_pending(cycle: &Cycle) -> bool {
    cycle
        .files
        .iter()
        .any(|f| PENDING_CYCLES.iter().any(|p| f.starts_with(p)))
}

#[test]
fn no_file_breaks_an_import_rule() {
    let ws = workspace();
    let mut failures = Vec::new();
    for rule in RULES.iter().filter(|r| !PENDING.contains(&r.name)) {
        for violation in ws.violations(rule) {
            failures.push(format!(
                "{violation}\n    breaks {}: {}",
                rule.name, rule.why
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} imports break a rule:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn no_crate_has_an_import_cycle() {
    let cycles: Vec<String> = workspace()
        .cycles()
        .iter()
        .filter(|c| !is_pending(c))
        .map(|c| c.to_string())
        .collect();
    assert!(
        cycles.is_empty(),
        "{} import cycles inside a crate (move what the files share into a module that imports \
         none of them):\n{}",
        cycles.len(),
        cycles.concat()
    );
}

/// Prints what each pending rule reports, and fails once one holds: then it is enabled by
/// taking it off `PENDING` (or `PENDING_CYCLES`).
#[test]
fn pending_rules_still_fail() {
    let ws = workspace();
    let mut holding = Vec::new();
    for &name in PENDING {
        let violations = ws.violations(rule(name));
        let files: BTreeSet<&str> = violations.iter().map(|v| v.file.as_str()).collect();
        println!(
            "PENDING {name}: {} imports in {} files",
            violations.len(),
            files.len()
        );
        for violation in &violations {
            println!("    {violation}");
        }
        if violations.is_empty() {
            holding.push(name.to_string());
        }
    }
    let cycles = ws.cycles();
    for &prefix in PENDING_CYCLES {
        let through: Vec<&Cycle> = cycles
            .iter()
            .filter(|c| c.files.iter().any(|f| f.starts_with(prefix)))
            .collect();
        println!("PENDING cycles through {prefix}: {}", through.len());
        for cycle in &through {
            print!("    {cycle}");
        }
        if through.is_empty() {
            holding.push(format!("cycles through {prefix}"));
        }
    }
    assert!(
        holding.is_empty(),
        "these pending rules hold now; take them off the pending lists: {holding:?}"
    );
}

#[test]
fn every_rule_covers_files() {
    let ws = workspace();
    for rule in RULES {
        assert!(
            ws.files_under(rule.from) > 0,
            "rule {}: no file under {}",
            rule.name,
            rule.from
        );
    }
    for prefix in PENDING_CYCLES {
        assert!(
            ws.files_under(prefix) > 0,
            "PENDING_CYCLES: no file under {prefix}"
        );
    }
}

/// The scan sees every crate and resolves its imports: a scan that found nothing would pass
/// every rule.
#[test]
fn the_scan_sees_every_crate() {
    let ws = workspace();
    let names: BTreeSet<&str> = ws.crates.iter().map(|c| c.name.as_str()).collect();
    for expected in [
        "viva",
        "viva-protocol",
        "viva-blueprint",
        "viva-core",
        "viva-actors",
        "viva-testkit",
    ] {
        assert!(names.contains(expected), "no crate {expected} in {names:?}");
    }
    let edges_from = |prefix: &str| {
        ws.edges
            .iter()
            .filter(|e| ws.path(e.from).starts_with(prefix))
            .count()
    };
    for prefix in [
        "src/",
        "protocol/",
        "blueprint/",
        "core/",
        "actors/",
        "redis-store/",
        "llm/",
    ] {
        assert!(
            edges_from(prefix) > 10,
            "only {} imports found under {prefix}",
            edges_from(prefix)
        );
    }
    println!(
        "{} crates, {} imports; not compiled outside tests: {:?}",
        ws.crates.len(),
        ws.edges.len(),
        ws.unreached
    );
}

/// Cycles among the top-level modules of a crate: information only.
#[test]
fn top_level_module_cycles_are_shown() {
    for cycle in workspace().module_cycles() {
        print!("(information) {cycle}");
    }
}
