//! GitHub Actions workflow commands: one annotation per diagnostic, shown on
//! the trace file in a pull request (`::error file=…,line=…,title=…::message`).

use super::{Report, Sink};
use crate::diagnostic::{Diagnostic, Severity};
use crate::sanitize::escape_controls;

/// Escapes a message as GitHub's runner reads it back.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (which also may not contain `:` or `,`).
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    let render = |d: &Diagnostic| {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let name = &report.sources[d.location.source as usize].name;
        let mut message = d.text(&escape_controls);
        if let Some(place) = d.batch_place() {
            message = format!("{message} ({place})");
        }
        if let Some(url) = &d.spec_url() {
            message = format!("{message}\n{url}");
        }
        let annotation = format!(
            "::{level} file={},line={},title={}::{}\n",
            property(name),
            d.location.line,
            property(&format!("mcp-lint ({})", d.rule.id)),
            data(&message)
        );
        Ok(annotation.into_bytes())
    };
    report.render_each(render, |annotation| out.write_all(annotation))?;
    report.write_summary(out)
}
