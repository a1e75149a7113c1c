//! Writes a generated trace to a file, for measuring the CLI against `wc -l`
//! and `jq` on the same input (see README, "Speed"):
//!
//! `cargo bench --bench generate -- /tmp/trace.jsonl 1024` (size in MiB);
//! a path ending in `.har` gets a HAR capture of Streamable HTTP instead, one
//! ending in `.json` an MCP Inspector protocol-history export.

use std::io::BufWriter;

use mcp_lint::generate::{generate, generate_har, generate_inspector, GeneratorConfig};

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
        eprintln!("usage: cargo bench --bench generate -- PATH [MiB]");
        std::process::exit(2);
    };
    let config = GeneratorConfig {
        target_bytes: mb << 20,
        ..GeneratorConfig::default()
    };
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let stats = if path.ends_with(".har") {
        generate_har(&config, &mut out)?
    } else if path.ends_with(".json") {
        generate_inspector(&config, &mut out)?
    } else {
        generate(&config, &mut out)?
    };
    eprintln!(
        "wrote {path}: {} bytes, {} lines, {} injected violations",
        stats.bytes, stats.lines, stats.violations
    );
    Ok(())
}
