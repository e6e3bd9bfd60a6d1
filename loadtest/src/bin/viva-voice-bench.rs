//! `viva-voice-bench`: speech-to-text accuracy, throughput, latency and capacity of Viva's
//! voice path, with the in-process decode as the baseline; see `viva_loadtest::voice`.
//! Prints a human summary as it goes, then the JSON report (also written to `--report`).

use anyhow::Context;
use clap::Parser;
use viva_loadtest::voice::bench;
use viva_loadtest::voice::options::Options;

fn main() -> anyhow::Result<()> {
    let options = Options::parse();
    let report_path = options.report.clone();
    let runtime = tokio::runtime::Runtime::new().context("starting the runtime")?;
    let (report, summary) = runtime.block_on(bench::run(options))?;
    println!("\n== summary ==");
    for line in &summary {
        println!("{line}");
    }
    let json = serde_json::to_string_pretty(&report)?;
    println!("\n== report ==\n{json}");
    if let Some(path) = report_path {
        std::fs::write(&path, &json).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
