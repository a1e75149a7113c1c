//! Legal but awkward shapes at scale. Each input is generated and sized so
//! that a linear pass takes seconds: a cost quadratic in the input (or in
//! the findings on one line) would take many minutes and time the test out.
//! Speed itself is measured in benches/.

use std::io::Write;

use mcp_lint::diagnostic::Diagnostic;
use mcp_lint::generate::{
    generate_har, generate_inspector, one_line, unanswered_batch, GeneratorConfig,
};
use mcp_lint::input::SourceText;
use mcp_lint::report::OutputFormat;

#[path = "support/report.rs"]
mod support;

/// A generated document of about `mib` MiB, indented and minified.
fn both_shapes(
    generator: fn(
        &GeneratorConfig,
        &mut Vec<u8>,
    ) -> std::io::Result<mcp_lint::generate::GeneratedStats>,
    mib: u64,
) -> (Vec<u8>, Vec<u8>) {
    let config = GeneratorConfig {
        target_bytes: mib << 20,
        violation_rate: 0.01,
        ..GeneratorConfig::default()
    };
    let mut indented = Vec::new();
    generator(&config, &mut indented).unwrap();
    let mut minified = indented.clone();
    one_line(&mut minified);
    (indented, minified)
}

fn lint(document: &[u8]) -> Vec<Diagnostic> {
    mcp_lint::lint_str(std::str::from_utf8(document).unwrap())
}

/// Writes the report of `diagnostics` on `document`, in `format`, to `out`.
fn write(document: &[u8], diagnostics: &[Diagnostic], format: OutputFormat, out: &mut impl Write) {
    let text = SourceText::Owned(document.to_vec());
    support::write_report("trace", &text, diagnostics, format, false, out);
}

fn render(document: &[u8], diagnostics: &[Diagnostic], format: OutputFormat) -> String {
    let mut out = Vec::new();
    write(document, diagnostics, format, &mut out);
    String::from_utf8(out).unwrap()
}

/// What a finding says, wherever it is.
fn said(diagnostics: &[Diagnostic]) -> Vec<(&str, String)> {
    let mut said: Vec<_> = diagnostics
        .iter()
        .map(|d| (d.rule.id, d.message.to_string()))
        .collect();
    said.sort_unstable();
    said
}

/// A minified document gives the findings of the indented one, and each
/// quote shows the part of the line where its own event is, never the
/// file's start.
fn one_line_document_reads_like_the_indented_one(indented: &[u8], minified: &[u8]) {
    let (expected, found) = (lint(indented), lint(minified));
    assert!(!expected.is_empty());
    assert_eq!(said(&found), said(&expected));
    assert!(found.iter().all(|d| d.location.line == 1));
    let human = render(minified, &found, OutputFormat::Human);
    // The file's start, less its first character (a quote may start there).
    let head = String::from_utf8_lossy(&minified[1..48]);
    assert!(!human.contains(&*head), "a quote shows the file's start");
    assert_eq!(human.matches("1 │ … ").count(), found.len(), "{human}");
}

#[test]
fn a_one_line_har_decodes_in_linear_time_and_quotes_the_entry_at_fault() {
    let (indented, minified) = both_shapes(generate_har, 4);
    one_line_document_reads_like_the_indented_one(&indented, &minified);
}

#[test]
fn a_one_line_inspector_export_decodes_in_linear_time_and_quotes_the_entry_at_fault() {
    let (indented, minified) = both_shapes(generate_inspector, 4);
    one_line_document_reads_like_the_indented_one(&indented, &minified);
}

#[test]
fn human_output_time_is_linear_in_the_findings_on_one_long_line() {
    // Findings on one line of 4 MiB: quoting must not walk the whole line
    // for each of them.
    let findings = 2_000;
    let mut trace = unanswered_batch(findings);
    trace.insert_str(
        trace.len() - 2,
        &format!(r#","padding":"{}""#, "x".repeat(4 << 20)),
    );
    let diagnostics = lint(trace.as_bytes());
    assert_eq!(diagnostics.len(), findings);
    let human = render(trace.as_bytes(), &diagnostics, OutputFormat::Human);
    assert_eq!(human.matches("unanswered-request").count(), findings);
}

/// A sink that keeps only the length of the longest write and the total.
#[derive(Default)]
struct WriteSizes {
    longest: usize,
    total: usize,
}

impl Write for WriteSizes {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.longest = self.longest.max(bytes.len());
        self.total += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn machine_readable_reports_are_written_as_the_findings_are_rendered() {
    // The longest single write is one finding (or SARIF's fixed rule
    // table), not a document built whole: memory does not grow with the findings.
    let findings = 20_000;
    let trace = unanswered_batch(findings);
    let diagnostics = lint(trace.as_bytes());
    for format in [
        OutputFormat::Json,
        OutputFormat::JsonLines,
        OutputFormat::Sarif,
    ] {
        let mut sizes = WriteSizes::default();
        write(trace.as_bytes(), &diagnostics, format, &mut sizes);
        assert!(sizes.total > findings * 200, "{format:?}: {}", sizes.total);
        // SARIF's rule table is written at once: it grows with the rules (about
        // 0.5 KB each), not with the findings.
        assert!(sizes.longest < 128 * 1024, "{format:?}: {}", sizes.longest);
    }
}

#[test]
fn a_broken_one_line_document_is_quoted_where_it_breaks() {
    let (_, minified) = both_shapes(generate_har, 1);
    let cut = &minified[..minified.len() / 2];
    let found = lint(cut);
    assert_eq!(found.len(), 1);
    let human = render(cut, &found, OutputFormat::Human);
    let head = String::from_utf8_lossy(&minified[1..48]);
    assert!(!human.contains(&*head), "{human}");
    let before_the_cut = String::from_utf8_lossy(&cut[cut.len() - 20..]);
    assert!(human.contains(&*before_the_cut), "{human}");
}
