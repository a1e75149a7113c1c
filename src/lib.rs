//! mcp-lint: an offline trace analyzer and linter for Model Context Protocol sessions.
//!
//! The data flows one way, one module per stage:
//!
//! ```text
//! input (files and stdin, read in regions) -> decode (parallel, lean events) -> engine
//! (per-session state machines) -> rules -> diagnostic -> report
//! ```
//!
//! [`lint`] wires the stages for whole inputs; [`engine::Engine`] alone is a
//! streaming API for programs that see messages live (feed events, collect
//! diagnostics).

#[macro_use]
pub mod words;
pub mod baseline;
pub mod check;
pub mod cli;
pub mod config;
pub mod decode;
pub mod diagnostic;
pub mod document_copy;
pub mod engine;
pub mod event;
pub mod explain;
pub mod explain_request;
pub mod findings;
pub mod follow;
pub mod generate;
pub mod input;
pub(crate) mod json_text;
pub mod limits;
pub mod lint;
pub mod memory;
pub mod packed;
pub mod progress;
pub mod protocol;
pub mod record;
pub mod redact;
pub mod report;
pub mod rule;
pub mod rules;
pub mod sanitize;
pub mod select;
pub mod spill;

/// Lints one trace held in memory with every rule and returns its
/// diagnostics, sorted. The input is numbered 0 in the diagnostics.
pub fn lint_str(trace: &str) -> Vec<diagnostic::Diagnostic> {
    lint_with(trace, None, rules::engine())
}

/// Lints one trace with a given engine and input format (`None` detects it).
pub fn lint_with(
    trace: &str,
    format: Option<decode::Format>,
    engine: engine::Engine,
) -> Vec<diagnostic::Diagnostic> {
    let mut linter = lint::Linter::new(engine, format);
    linter.lint_bytes(0, trace.as_bytes());
    linter.engine.finish().0
}
