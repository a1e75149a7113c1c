//! `--statistics`: how many findings each rule reported, most first.

use std::collections::BTreeMap;

use super::{Report, Sink};

/// One line per rule that reported anything: count, rule id, severity, summary.
pub fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    let mut counts: BTreeMap<(&str, &str), (usize, &str)> = BTreeMap::new();
    for d in report.findings.iter() {
        let entry = counts
            .entry((d.rule.id, d.severity.as_str()))
            .or_insert((0, d.rule.summary));
        entry.0 += 1;
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    // Most first; ties by rule id, so the table does not change between runs.
    rows.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
    let width = rows.iter().map(|(_, (n, _))| n.to_string().len()).max();
    for ((id, severity), (count, summary)) in &rows {
        let width = width.unwrap_or(1);
        writeln!(out, "{count:>width$}\t{id}\t{severity}\t{summary}")?;
    }
    report.write_summary(out)
}
