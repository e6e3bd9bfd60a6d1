//! `viva-loadtest`: simulated candidates against real `viva serve` nodes over WebSockets.
//! Prints percentiles, throughput, errors and the zero-loss audit, writes the JSON report
//! with `--report`, and exits 1 when a threshold is broken (any lost or duplicated acked
//! answer always is), so CI can run small smoke runs. `--help` lists the knobs.

use clap::Parser;
use viva_loadtest::run::options::{Flags, Options};
use viva_loadtest::run::{self, report};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = Options::resolve(Flags::parse())?;
    println!(
        "{:?}: {} users on {} over {:?} ramp-up, then {:?}",
        options.scenario,
        options.sessions,
        if options.scenario == run::user::Scenario::Chaos {
            format!("{} new nodes", options.chaos.nodes)
        } else {
            options.urls.join(", ")
        },
        options.ramp_up,
        options.duration
    );
    let result = run::run(&options).await?;
    for line in report::lines(&result) {
        println!("{line}");
    }
    let json = report::to_json(&options, &result);
    if let Some(path) = &options.report {
        std::fs::write(path, serde_json::to_string_pretty(&json)?)?;
    }
    if let Some(path) = &options.html {
        std::fs::write(path, run::html::page(&result, &json))?;
    }
    let broken = report::violations(&options, &result);
    for violation in &broken {
        println!("THRESHOLD BROKEN: {violation}");
    }
    for failure in &result.failures {
        println!("a user stopped early: {failure}");
    }
    std::process::exit(if broken.is_empty() { 0 } else { 1 });
}
