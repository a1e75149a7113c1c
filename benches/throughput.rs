//! Throughput of the pipeline on a generated trace of realistic shape
//! (interleaved sessions, tool calls with progress, cancellations, 1% violations).
//!
//! `cargo bench --bench throughput`. The trace is generated in memory; its
//! size is MCP_LINT_BENCH_MB (default 32) so the run stays short on 2 cores.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::Bencher;
use mcp_lint::decode::{decode_chunk, Format};
use mcp_lint::generate::{generate, generate_har, GeneratorConfig};
use mcp_lint::lint::{split_lines, Linter};

fn main() {
    divan::main();
}

/// A generated input of MCP_LINT_BENCH_MB (default 32) MiB, made once.
fn generated(
    cell: &'static OnceLock<Vec<u8>>,
    generator: fn(
        &GeneratorConfig,
        &mut Vec<u8>,
    ) -> std::io::Result<mcp_lint::generate::GeneratedStats>,
) -> &'static [u8] {
    cell.get_or_init(|| {
        let mb: u64 = std::env::var("MCP_LINT_BENCH_MB")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(32);
        let config = GeneratorConfig {
            target_bytes: mb << 20,
            ..GeneratorConfig::default()
        };
        let mut bytes = Vec::with_capacity(config.target_bytes as usize + 4096);
        generator(&config, &mut bytes).expect("writing to memory");
        bytes
    })
}

fn trace() -> &'static [u8] {
    static TRACE: OnceLock<Vec<u8>> = OnceLock::new();
    generated(&TRACE, generate)
}

fn har() -> &'static [u8] {
    static HAR: OnceLock<Vec<u8>> = OnceLock::new();
    generated(&HAR, generate_har)
}

/// A HAR capture of the same size: one document, entries decoded in parallel.
#[divan::bench(sample_count = 5)]
fn lint_har(bencher: Bencher) {
    let bytes = har();
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let mut linter = Linter::new(mcp_lint::rules::engine(), None);
        linter.lint_bytes(0, bytes);
        linter.engine.finish().0.len()
    });
}

/// Decoding alone, on one thread: the cost of the per-line JSON parse.
#[divan::bench(sample_count = 5)]
fn decode_one_thread(bencher: Bencher) {
    let bytes = trace();
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        split_lines(bytes, 512 * 1024)
            .into_iter()
            .map(|(start, chunk)| {
                decode_chunk(chunk, start as u64, 0, Format::Canonical)
                    .events
                    .len()
            })
            .sum::<usize>()
    });
}

/// The whole pipeline (parallel decode, engine, every rule), as the CLI runs it.
#[divan::bench(sample_count = 5)]
fn lint_all_rules(bencher: Bencher) {
    let bytes = trace();
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let mut linter = Linter::new(mcp_lint::rules::engine(), None);
        linter.lint_bytes(0, bytes);
        linter.engine.finish().0.len()
    });
}
