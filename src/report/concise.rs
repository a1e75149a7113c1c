//! Concise output: `path:line: severity[rule]: message`, one line each (grep, editors).

use super::{Report, Sink};
use crate::sanitize::escape_controls;

pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    for d in report.diagnostics {
        let name = &report.sources[d.location.source as usize].name;
        writeln!(
            out,
            "{name}:{}: {}[{}]: {}",
            d.location.line,
            d.severity,
            d.rule.id,
            escape_controls(&d.message)
        )?;
    }
    report.write_summary(out)
}
