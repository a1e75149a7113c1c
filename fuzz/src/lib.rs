//! What the fuzz targets share: lint an input whole, with every rule, end
//! the run and write its reports, as the CLI would. A panic anywhere (in a
//! decoder, the engine, a rule or a report) is a crash.

use mcp_lint::decode::Format;
use mcp_lint::engine::{Engine, Stats};
use mcp_lint::findings::Findings;
use mcp_lint::input::SourceText;
use mcp_lint::lint::Linter;
use mcp_lint::report::{OutputFormat, Report, SourceInfo};

/// Lints `bytes` in `format` (`None` detects it) and writes the reports.
pub fn lint(bytes: &[u8], format: Option<Format>) {
    let mut linter = Linter::new(mcp_lint::rules::engine(), format);
    linter.lint_bytes(0, bytes);
    report(bytes, linter.engine);
}

/// Ends `engine`'s run over `bytes` and writes its findings in the formats
/// that quote the trace, read back from their packed form as the command
/// line reads them; checks that no finding points past the input.
pub fn report(bytes: &[u8], engine: Engine) {
    let (packs, stats) = engine.finish_packed();
    let findings = Findings::new(packs);
    for diagnostic in findings.iter() {
        assert!(
            diagnostic.location.offset <= bytes.len() as u64,
            "{diagnostic:?} points past the input's {} bytes",
            bytes.len()
        );
    }
    for format in [OutputFormat::Human, OutputFormat::Json, OutputFormat::Sarif] {
        write(bytes, &findings, stats, format);
    }
}

/// Writes a report of inputs 0 and 1, both `bytes` (the engine target
/// splits its trace into two inputs).
fn write(bytes: &[u8], findings: &Findings, stats: Stats, format: OutputFormat) {
    let text = SourceText::Owned(bytes.to_vec());
    let source = |name: &str| SourceInfo {
        name: name.into(),
        text: Some(&text),
    };
    let sources = [source("fuzz"), source("fuzz-2")];
    let report = Report {
        findings,
        sources: &sources,
        stats,
        files: 2,
        unreadable: 0,
        quiet: false,
    };
    report
        .write(format, false, &mut std::io::sink())
        .expect("a sink takes every byte");
}

/// Splits the first byte off as a selector among `choices`.
pub fn select<'a, T: Copy>(data: &'a [u8], choices: &[T]) -> Option<(T, &'a [u8])> {
    let (first, rest) = data.split_first()?;
    Some((choices[usize::from(*first) % choices.len()], rest))
}
