//! Concise output: `path:line: severity[rule]: message`, one line each (grep, editors).

use super::{Report, Sink};
use crate::sanitize::escape_controls;

pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    for d in report.diagnostics {
        let name = &report.sources[d.location.source as usize].name;
        write!(
            out,
            "{name}:{}: {}[{}]: {}",
            d.location.line,
            d.severity,
            d.rule.id,
            escape_controls(&d.message)
        )?;
        // Findings on one line of a batch differ by the element they are about.
        match d.batch_place() {
            Some(place) => writeln!(out, " ({place})")?,
            None => writeln!(out)?,
        }
    }
    report.write_summary(out)
}
