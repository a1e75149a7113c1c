//! JUnit XML, for test dashboards: one testsuite per input, one testcase per
//! session, one failure per finding. An input without findings is one
//! passing testcase, so dashboards count it.

use std::collections::BTreeMap;

use super::{Report, Sink};
use crate::diagnostic::Diagnostic;
use crate::sanitize::escape_controls;

/// Escapes text for an XML attribute or element; trace text is escaped of
/// controls first, which XML 1.0 cannot carry at all. The HTML report uses
/// it too: these five entities are HTML's as well.
pub(super) fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in escape_controls(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The findings of one input, by session (`None` for the unnamed one).
type Sessions<'a> = BTreeMap<Option<&'a str>, Vec<&'a Diagnostic>>;

pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    // Findings are grouped by input and session, so collected first.
    let all = report.findings.to_vec();
    let mut inputs: Vec<Sessions> = report.sources.iter().map(|_| Sessions::new()).collect();
    for d in &all {
        inputs[d.location.source as usize]
            .entry(d.session.as_deref())
            .or_default()
            .push(d);
    }
    let tests: usize = inputs.iter().map(|s| s.len().max(1)).sum();
    let errors = report.sources.iter().filter(|s| s.text.is_none()).count();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="mcp-lint" tests="{tests}" failures="{}" errors="{errors}">"#,
        all.len()
    )?;
    for (source, sessions) in report.sources.iter().zip(&inputs) {
        write_suite(&source.name, source.text.is_some(), sessions, out)?;
    }
    writeln!(out, "</testsuites>")
}

/// One input's testsuite. An input that could not be read is an error, so
/// that a dashboard does not show it as passing.
fn write_suite(
    name: &str,
    readable: bool,
    sessions: &Sessions,
    out: &mut dyn Sink,
) -> std::io::Result<()> {
    let name = xml(name);
    let failures: usize = sessions.values().map(Vec::len).sum();
    writeln!(
        out,
        r#"  <testsuite name="{name}" tests="{}" failures="{failures}" errors="{}" skipped="0">"#,
        sessions.len().max(1),
        usize::from(!readable)
    )?;
    if !readable {
        writeln!(
            out,
            r#"    <testcase name="trace" classname="{name}"><error message="the input could not be read"/></testcase>"#
        )?;
    } else if sessions.is_empty() {
        writeln!(out, r#"    <testcase name="trace" classname="{name}"/>"#)?;
    }
    for (session, findings) in sessions {
        let case = match session {
            Some(session) => format!("session {}", xml(session)),
            None => "trace".to_string(),
        };
        writeln!(out, r#"    <testcase name="{case}" classname="{name}">"#)?;
        for d in findings {
            let message = xml(&d.text(&|t| t.into()));
            writeln!(
                out,
                r#"      <failure type="{}" message="{}: {message}">{name}:{}: {}[{}]: {message}</failure>"#,
                d.rule.id, d.rule.id, d.location.line, d.severity, d.rule.id
            )?;
        }
        writeln!(out, "    </testcase>")?;
    }
    writeln!(out, "  </testsuite>")
}
