//! Large files are read in regions, not mapped: a file that shrinks or grows
//! while it is read is linted as far as it was read, never crashes, and its
//! findings are quoted from the file by offset exactly as from memory.

use std::io::Write;

use mcp_lint::diagnostic::Diagnostic;
use mcp_lint::generate::{generate, GeneratorConfig};
use mcp_lint::input::{OpenedFile, SourceText, WHOLE_FILE_MAX};
use mcp_lint::lint::Linter;
use mcp_lint::report::OutputFormat;

#[path = "support/report.rs"]
mod support;

/// A generated trace several times larger than a file read whole.
fn trace() -> Vec<u8> {
    let config = GeneratorConfig {
        target_bytes: 8 * WHOLE_FILE_MAX,
        violation_rate: 0.05,
        ..GeneratorConfig::default()
    };
    let mut trace = Vec::new();
    generate(&config, &mut trace).unwrap();
    trace
}

/// Every finding as data, to compare two runs.
fn said(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics.iter().map(|d| format!("{d:?}")).collect()
}

fn lint_bytes(bytes: &[u8]) -> Vec<Diagnostic> {
    let mut linter = Linter::new(mcp_lint::rules::engine(), None);
    linter.lint_bytes(0, bytes);
    linter.engine.finish().0
}

/// Lints `file` as opened before `change` is made to it.
fn lint_changed(
    bytes: &[u8],
    change: impl FnOnce(&std::fs::File),
) -> (Vec<Diagnostic>, SourceText, std::io::Result<()>) {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(bytes).unwrap();
    let opened = OpenedFile::open(file.path()).unwrap();
    change(file.as_file());
    let mut linter = Linter::new(mcp_lint::rules::engine(), None);
    let (text, result) = linter.lint_file(0, opened);
    (linter.engine.finish().0, text, result.map(drop))
}

fn human(text: &SourceText, diagnostics: &[Diagnostic]) -> String {
    let mut out = Vec::new();
    let format = OutputFormat::Human;
    support::write_report("trace.jsonl", text, diagnostics, format, true, &mut out);
    String::from_utf8(out).unwrap()
}

/// The trace up to the end of the line that holds byte `at`.
fn whole_lines_to(bytes: &[u8], at: usize) -> &[u8] {
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |p| at + p + 1);
    &bytes[..end]
}

#[test]
fn a_large_file_is_quoted_from_the_file_as_from_memory() {
    let trace = trace();
    let (found, text, result) = lint_changed(&trace, |_| {});
    result.unwrap();
    assert!(matches!(text, SourceText::File(_)));
    let expected = lint_bytes(&trace);
    assert!(found.len() > 20, "the trace should have findings");
    assert_eq!(said(&found), said(&expected));
    let owned = SourceText::Owned(trace.clone());
    assert_eq!(human(&text, &found), human(&owned, &expected));
}

#[test]
fn a_file_cut_short_while_read_is_linted_as_far_as_it_was_read() {
    let trace = trace();
    let kept = whole_lines_to(&trace, trace.len() / 2).len();
    let (found, text, result) = lint_changed(&trace, |file| file.set_len(kept as u64).unwrap());
    let error = result.unwrap_err().to_string();
    assert!(
        error.contains("cut short") && error.contains(&trace.len().to_string()),
        "{error}"
    );
    assert_eq!(said(&found), said(&lint_bytes(&trace[..kept])));
    // What was read is still quoted.
    let owned = SourceText::Owned(trace[..kept].to_vec());
    assert_eq!(human(&text, &found), human(&owned, &found));
}

#[test]
fn a_file_that_grows_while_read_is_linted_as_it_was_when_opened() {
    let trace = trace();
    let (found, _, result) = lint_changed(&trace, |mut file| {
        // Another recorder appends a response to a request nobody sent.
        file.write_all(
            b"{\"from\":\"server\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":\"late\",\"result\":{}}}\n",
        )
        .unwrap();
    });
    result.unwrap();
    assert_eq!(said(&found), said(&lint_bytes(&trace)));
}
