//! What the tests that write a report of one input share.

use mcp_lint::diagnostic::Diagnostic;
use mcp_lint::engine::Stats;
use mcp_lint::input::SourceText;
use mcp_lint::report::{OutputFormat, Report, SourceInfo};

/// Writes, in `format`, the report of `diagnostics` found in one input
/// named `name` whose text is `text`.
pub fn write_report(
    name: &str,
    text: &SourceText,
    diagnostics: &[Diagnostic],
    format: OutputFormat,
    quiet: bool,
    out: &mut impl std::io::Write,
) {
    let sources = [SourceInfo {
        name: name.into(),
        text: Some(text),
    }];
    let findings = mcp_lint::findings::Findings::from_diagnostics(diagnostics.to_vec());
    let report = Report {
        findings: &findings,
        sources: &sources,
        stats: Stats::default(),
        files: 1,
        unreadable: 0,
        quiet,
    };
    report.write(format, false, out).unwrap();
}
