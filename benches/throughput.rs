//! Throughput of the pipeline on a generated trace of realistic shape
//! (interleaved sessions, tool calls with progress, cancellations, 1% violations),
//! and on awkward shapes that must stay linear: one-line (minified) exports,
//! many findings on one line.
//!
//! `cargo bench --bench throughput`. The trace is generated in memory; its
//! size is MCP_LINT_BENCH_MB (default 32) so the run stays short on 2 cores.

use std::sync::OnceLock;

use divan::counter::{BytesCount, ItemsCount};
use divan::Bencher;
use mcp_lint::decode::{decode_chunk, Format};
use mcp_lint::engine::Stats;
use mcp_lint::generate::{
    generate, generate_har, generate_inspector, one_line, unanswered_batch, GeneratorConfig,
};
use mcp_lint::input::SourceText;
use mcp_lint::lint::{split_lines, Linter};
use mcp_lint::report::{OutputFormat, Report, SourceInfo};

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
        let config = GeneratorConfig::for_bench();
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

fn inspector() -> &'static [u8] {
    static INSPECTOR: OnceLock<Vec<u8>> = OnceLock::new();
    generated(&INSPECTOR, generate_inspector)
}

/// The same document minified onto one line, as browsers export it.
fn minified(cell: &'static OnceLock<Vec<u8>>, document: &[u8]) -> &'static [u8] {
    cell.get_or_init(|| {
        let mut bytes = document.to_vec();
        one_line(&mut bytes);
        bytes
    })
}

/// A document input of each shape, made once.
fn document(shape: &str) -> &'static [u8] {
    static HAR_ONE_LINE: OnceLock<Vec<u8>> = OnceLock::new();
    static INSPECTOR_ONE_LINE: OnceLock<Vec<u8>> = OnceLock::new();
    match shape {
        "har" => har(),
        "har-one-line" => minified(&HAR_ONE_LINE, har()),
        "inspector" => inspector(),
        _ => minified(&INSPECTOR_ONE_LINE, inspector()),
    }
}

/// One-document inputs of the same size (entries decoded in parallel): a
/// HAR capture and an Inspector export, indented and minified onto one line
/// as browsers and the Inspector write them. A one-line shape stays within
/// a small factor of its indented one: locating an event must not scan the
/// whole line.
#[divan::bench(sample_count = 5, args = ["har", "har-one-line", "inspector", "inspector-one-line"])]
fn lint_document(bencher: Bencher, shape: &str) {
    let bytes = document(shape);
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

/// Human output of 20,000 findings on one line (a batch of unanswered
/// pings): linear in the findings, whatever the length of their line.
#[divan::bench(sample_count = 3)]
fn human_many_findings_on_one_line(bencher: Bencher) {
    let trace = unanswered_batch(20_000);
    let diagnostics = mcp_lint::findings::Findings::from_diagnostics(mcp_lint::lint_str(&trace));
    let text = SourceText::Owned(trace.into_bytes());
    let sources = [SourceInfo {
        name: "batch.jsonl".into(),
        text: Some(&text),
    }];
    let report = Report {
        findings: &diagnostics,
        sources: &sources,
        stats: Stats::default(),
        files: 1,
        unreadable: 0,
        quiet: false,
    };
    bencher
        .counter(ItemsCount::new(diagnostics.len()))
        .bench(|| {
            report
                .write(OutputFormat::Human, false, &mut std::io::sink())
                .expect("writing to a sink")
        });
}
