//! What the tests that compare two traces' findings share.

/// (rule, line, severity) of every finding of a trace, the way a copy of a
/// trace (recorded, redacted) must match its original.
pub fn findings(bytes: &[u8]) -> Vec<(String, u64, String)> {
    let mut linter = mcp_lint::lint::Linter::new(mcp_lint::rules::engine(), None);
    linter.lint_bytes(0, bytes);
    let (diagnostics, _) = linter.engine.finish();
    let key = |d: mcp_lint::diagnostic::Diagnostic| {
        (
            d.rule.id.to_string(),
            d.location.line,
            d.severity.to_string(),
        )
    };
    diagnostics.into_iter().map(key).collect()
}
