//! Concise output: `path:line:1: severity[rule]: message`, one line each, for grep,
//! editors and problem matchers (the column is always 1: a finding is about a line).

use super::{Report, Sink};
use std::io::Write;

use crate::diagnostic::Diagnostic;
use crate::sanitize::escape_controls;

pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    let render = |d: &Diagnostic| {
        let mut line = Vec::new();
        write_line(
            d,
            &report.sources[d.location.source as usize].name,
            &mut line,
        )?;
        Ok(line)
    };
    report.render_each(render, |line| out.write_all(line))?;
    report.write_summary(out)
}

/// One finding of an input named `name`, on one line.
pub(super) fn write_line(
    d: &Diagnostic,
    name: &str,
    out: &mut (impl Write + ?Sized),
) -> std::io::Result<()> {
    write!(
        out,
        "{name}:{}:1: {}[{}]: {}",
        d.location.line,
        d.severity,
        d.rule.id,
        std::borrow::Cow::<str>::Owned(d.text(&escape_controls))
    )?;
    // Findings on one line of a batch differ by the element they are about.
    match d.batch_place() {
        Some(place) => writeln!(out, " ({place})"),
        None => writeln!(out),
    }
}
