//! The findings of a run in report order, held packed (in memory or in the
//! spill file) and unpacked one at a time as the report reads them: a large
//! trace's report never holds all its findings as data at once.

use crate::diagnostic::{Diagnostic, Severity};
use crate::packed::{PackedFindings, Place, Window};

/// Findings in report order: by input, line and place in a batch; ties in
/// the order they were found.
#[derive(Debug, Default)]
pub struct Findings {
    packs: Vec<PackedFindings>,
    order: Vec<Entry>,
}

/// One finding: where it is packed, and what settings may change or ask of
/// it without unpacking it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    pack: u32,
    place: Place,
    source: u32,
    severity: Severity,
}

/// What findings are sorted by, the order found breaking ties.
type SortKey = (u32, u64, Option<u32>, u32);

impl Findings {
    /// The findings of `packs`, the order found being pack by pack.
    pub fn new(packs: Vec<PackedFindings>) -> Findings {
        let total = packs.iter().map(PackedFindings::len).sum();
        let mut keyed: Vec<(SortKey, Entry)> = Vec::with_capacity(total);
        for (number, pack) in packs.iter().enumerate() {
            pack.each(|place, d| {
                let found = keyed.len() as u32;
                let key = (d.location.source, d.location.line, d.batch_index(), found);
                let entry = Entry {
                    pack: number as u32,
                    place,
                    source: d.location.source,
                    severity: d.severity,
                };
                keyed.push((key, entry));
            });
        }
        if !keyed.is_sorted_by_key(|(key, _)| *key) {
            keyed.sort_unstable_by_key(|(key, _)| *key);
        }
        let order = keyed.into_iter().map(|(_, entry)| entry).collect();
        Findings { packs, order }
    }

    /// Findings held as data (a report of a few), put in report order.
    pub fn from_diagnostics(mut diagnostics: Vec<Diagnostic>) -> Findings {
        let mut pack = PackedFindings::default();
        pack.pack_from(&mut diagnostics);
        Findings::new(vec![pack])
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Every finding, in order, unpacked as it is reached.
    pub fn iter(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        let mut reader = Reader::new(&self.packs);
        self.order.iter().map(move |entry| reader.read(entry))
    }

    /// Every finding's input and severity, in order, without unpacking it.
    pub fn severities(&self) -> impl Iterator<Item = (u32, Severity)> + '_ {
        self.order
            .iter()
            .map(|entry| (entry.source, entry.severity))
    }

    /// Keeps the findings `keep` gives a severity for, with that severity.
    pub fn retain(&mut self, mut keep: impl FnMut(Diagnostic) -> Option<Severity>) {
        let mut reader = Reader::new(&self.packs);
        self.order
            .retain_mut(|entry| match keep(reader.read(entry)) {
                Some(severity) => {
                    entry.severity = severity;
                    true
                }
                None => false,
            });
    }

    /// Every finding as data.
    pub fn to_vec(&self) -> Vec<Diagnostic> {
        self.iter().collect()
    }
}

/// Reads findings from their packs, one window of spilled bytes per pack.
struct Reader<'f> {
    packs: &'f [PackedFindings],
    windows: Vec<Window>,
}

impl<'f> Reader<'f> {
    fn new(packs: &'f [PackedFindings]) -> Reader<'f> {
        let windows = packs.iter().map(|_| Window::default()).collect();
        Reader { packs, windows }
    }

    fn read(&mut self, entry: &Entry) -> Diagnostic {
        let pack = entry.pack as usize;
        let window = &mut self.windows[pack];
        self.packs[pack]
            .get(entry.place, window)
            .with_severity(entry.severity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Location;

    fn found(source: u32, line: u64, n: i64) -> Diagnostic {
        let meta = crate::rules::find("duplicate-response")
            .expect("a rule")
            .meta;
        let at = Location {
            source,
            line,
            offset: 0,
            len: 0,
        };
        Diagnostic::new(meta, None, None, at, words!("{}", n))
    }

    fn shown(all: impl Iterator<Item = Diagnostic>) -> Vec<String> {
        all.map(|d| format!("{d:?}")).collect()
    }

    #[test]
    fn findings_come_in_report_order_ties_as_found() {
        // Lines out of order over two packs, with ties that must keep the order found.
        let made = |range: std::ops::Range<i64>| -> Vec<Diagnostic> {
            range
                .map(|n| found((n % 2) as u32, (n * 7919 % 37) as u64, n))
                .collect()
        };
        let mut expected = [made(0..120), made(120..200)].concat();
        expected.sort_by_key(|d| (d.location.source, d.location.line));
        let packs = [made(0..120), made(120..200)].map(|mut found| {
            let mut pack = PackedFindings::default();
            pack.pack_from(&mut found);
            pack
        });
        let findings = Findings::new(packs.into());
        assert_eq!(findings.len(), 200);
        assert_eq!(shown(findings.iter()), shown(expected.into_iter()));
    }

    #[test]
    fn retained_findings_keep_their_new_severity() {
        let mut findings =
            Findings::from_diagnostics((0..10).map(|n| found(0, n as u64, n)).collect());
        findings.retain(|d| (d.location.line % 3 != 0).then_some(Severity::Info));
        let lines: Vec<u64> = findings.iter().map(|d| d.location.line).collect();
        assert_eq!(lines, [1, 2, 4, 5, 7, 8]);
        assert!(findings.iter().all(|d| d.severity == Severity::Info));
        assert!(findings.severities().all(|(_, s)| s == Severity::Info));
    }
}
