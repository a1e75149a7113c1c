//! Writes a generated trace to a file, for measuring the CLI against `wc -l`
//! and `jq` on the same input (see README, "Speed"):
//!
//! `cargo bench --bench generate -- /tmp/trace.jsonl 1024` (size in MiB);
//! a path ending in `.har` gets a HAR capture of Streamable HTTP instead, one
//! ending in `.json` an MCP Inspector protocol-history export. A third
//! argument is a path for the truth: where the violations and the benign
//! races were injected (see `mcp_lint::generate::Label`; not for `.json`).

use std::io::BufWriter;

use mcp_lint::generate::{
    generate_har_with_truth, generate_inspector, generate_with_truth, GeneratorConfig,
};

fn main() -> std::io::Result<()> {
    // cargo passes --bench; the rest are ours.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let (Some(path), mb) = (
        args.first(),
        args.get(1)
            .and_then(|m| m.parse::<u64>().ok())
            .unwrap_or(1024),
    ) else {
        eprintln!("usage: cargo bench --bench generate -- PATH [MiB] [TRUTH]");
        std::process::exit(2);
    };
    let config = GeneratorConfig {
        target_bytes: mb << 20,
        ..GeneratorConfig::default()
    };
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let mut truth: Box<dyn std::io::Write> = match args.get(2) {
        Some(truth) => Box::new(BufWriter::new(std::fs::File::create(truth)?)),
        None => Box::new(std::io::sink()),
    };
    let stats = if path.ends_with(".har") {
        generate_har_with_truth(&config, &mut out, &mut truth)?
    } else if path.ends_with(".json") {
        generate_inspector(&config, &mut out)?
    } else {
        generate_with_truth(&config, &mut out, &mut truth)?
    };
    truth.flush()?;
    eprintln!(
        "wrote {path}: {} bytes, {} lines, {} injected violations, {} races",
        stats.bytes, stats.lines, stats.violations, stats.races
    );
    Ok(())
}
