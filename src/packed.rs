//! Findings packed in bytes while the engine runs: a large trace has
//! hundreds of thousands of them, and a finding as data (about 500 bytes
//! with its words and related places) packs in about a fifth of that. The
//! engine packs each finding once its event is done and unpacks them all,
//! in the same order, when it hands them over.
//!
//! Integers are LEB128 varints; text is its length and its bytes. What is
//! `'static` (templates, rules) or shared (session names) is written as its
//! number in a table the pack keeps.

use std::sync::Arc;

use foldhash::HashMap;

use crate::diagnostic::{Diagnostic, RuleMeta};
use crate::event::{Key, Location};
use crate::protocol::{Side, Version};
use crate::spill::{Run, Spill};

/// Bytes per segment: packed findings are held in segments of this size,
/// so that holding more never copies what is held. A full segment goes to
/// the spill file, so that a long run's findings wait there for the report.
const SEGMENT_BYTES: usize = 256 * 1024;

/// [`SEGMENT_BYTES`], or the number a test set on its thread.
fn segment_bytes() -> usize {
    crate::limits::limit(SEGMENT_BYTES, |o| o.segment_bytes)
}

/// Bytes read from a spilled segment at once: findings are mostly read in
/// the order they were packed, so one read serves the next ones too.
const WINDOW_BYTES: usize = 16 * 1024;

/// Findings packed in bytes, in the order they were added.
#[derive(Debug, Default)]
pub struct PackedFindings {
    segments: Vec<Segment>,
    count: usize,
    tables: Tables,
    /// Where the finding being packed is written, before it is copied to a segment.
    scratch: Vec<u8>,
    spill: Spill,
}

/// A segment of packed findings: in memory while it fills (or when no
/// spill file can be written), else a run of the spill file.
#[derive(Debug)]
enum Segment {
    Held(Vec<u8>),
    Spilled(Run),
}

/// Where one packed finding is: its segment, and its bytes in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    segment: u32,
    offset: u32,
    len: u32,
}

/// The bytes last read from a spilled segment, for the findings after.
#[derive(Debug, Default)]
pub struct Window {
    segment: Option<u32>,
    start: u32,
    bytes: Vec<u8>,
}

impl Drop for PackedFindings {
    fn drop(&mut self) {
        if let Some(file) = self.spill.file() {
            for segment in &self.segments {
                if let Segment::Spilled(run) = segment {
                    file.free_run(*run);
                }
            }
        }
    }
}

/// A spill file that cannot be read back has lost findings: the report
/// could not be trusted.
fn unreadable(e: std::io::Error) -> ! {
    panic!("the temporary file that holds the findings cannot be read back: {e}")
}

impl PackedFindings {
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Packs every finding of `found`, which is left empty.
    pub fn pack_from(&mut self, found: &mut Vec<Diagnostic>) {
        for diagnostic in found.drain(..) {
            self.scratch.clear();
            let mut packer = Packer {
                out: &mut self.scratch,
                tables: &mut self.tables,
            };
            diagnostic.pack(&mut packer);
            self.push_scratch();
        }
    }

    fn push_scratch(&mut self) {
        let needed = self.scratch.len();
        let fits = matches!(self.segments.last(),
            Some(Segment::Held(bytes)) if bytes.capacity() - bytes.len() >= needed);
        if !fits {
            self.spill_last();
            let room = segment_bytes().max(needed);
            self.segments.push(Segment::Held(Vec::with_capacity(room)));
        }
        if let Some(Segment::Held(bytes)) = self.segments.last_mut() {
            bytes.extend_from_slice(&self.scratch);
        }
        self.count += 1;
    }

    /// Writes the last segment, full, to the spill file; it stays in
    /// memory if it cannot be written.
    fn spill_last(&mut self) {
        let Some(Segment::Held(bytes)) = self.segments.last() else {
            return;
        };
        let Some(file) = self.spill.writable() else {
            return;
        };
        match file.write_run(bytes) {
            Ok(run) => {
                if let Some(last) = self.segments.last_mut() {
                    *last = Segment::Spilled(run);
                }
            }
            Err(_) => self.spill.stop_writing(),
        }
    }

    /// Every finding's place, in the order they were packed, with the
    /// finding itself (read once, for what the caller keeps of it).
    pub fn each(&self, mut visit: impl FnMut(Place, Diagnostic)) {
        let mut window = Window::default();
        for (number, segment) in self.segments.iter().enumerate() {
            let mut place = Place {
                segment: number as u32,
                offset: 0,
                len: 0,
            };
            let end = match segment {
                Segment::Held(bytes) => bytes.len() as u64,
                Segment::Spilled(run) => run.bytes(),
            };
            while u64::from(place.offset) < end {
                let rest = end - u64::from(place.offset);
                let bytes = self.bytes_at(place, rest, &mut window);
                let mut unpacker = Unpacker::new(bytes, &self.tables);
                let diagnostic = Diagnostic::unpack(&mut unpacker);
                place.len = unpacker.at as u32;
                visit(place, diagnostic);
                place.offset += place.len;
            }
        }
    }

    /// The finding at `place`.
    pub fn get(&self, place: Place, window: &mut Window) -> Diagnostic {
        let bytes = self.bytes_at(place, place.len.into(), window);
        Diagnostic::unpack(&mut Unpacker::new(bytes, &self.tables))
    }

    /// Up to `len` bytes of a segment from `place` on (a spilled one's
    /// through `window`): at least the whole of a finding that starts there.
    fn bytes_at<'w>(&'w self, place: Place, len: u64, window: &'w mut Window) -> &'w [u8] {
        let start = place.offset as usize;
        let run = match &self.segments[place.segment as usize] {
            Segment::Held(bytes) => return &bytes[start..],
            Segment::Spilled(run) => *run,
        };
        let cached = window.segment == Some(place.segment)
            && window.start <= place.offset
            && u64::from(place.offset - window.start) + len <= window.bytes.len() as u64;
        if !cached {
            self.read_window(run, place, len, window);
        }
        &window.bytes[(place.offset - window.start) as usize..]
    }

    /// Reads `len` bytes or more (a window's worth, within the run) of a
    /// spilled segment from `place` on into `window`.
    fn read_window(&self, run: Run, place: Place, len: u64, window: &mut Window) {
        let Some(file) = self.spill.file() else {
            unreadable(std::io::ErrorKind::NotFound.into());
        };
        let rest = run.bytes() - u64::from(place.offset);
        let wanted = len.max(WINDOW_BYTES as u64).min(rest) as usize;
        window.bytes.resize(wanted, 0);
        let read = file.read_run(run, place.offset.into(), &mut window.bytes);
        read.unwrap_or_else(|e| unreadable(e));
        (window.segment, window.start) = (Some(place.segment), place.offset);
    }

    /// Unpacks every finding into `into`, in the order they were packed,
    /// and empties the pack.
    pub fn unpack_into(&mut self, into: &mut Vec<Diagnostic>) {
        self.each(|_, diagnostic| into.push(diagnostic));
        *self = PackedFindings::default();
    }
}

/// What findings name by number: their templates and other `'static`
/// text, their rules and their sessions' names.
#[derive(Debug, Default)]
pub struct Tables {
    texts: Table<&'static str>,
    rules: Table<&'static RuleMeta>,
    sessions: Table<Arc<str>>,
}

/// Values numbered in the order they first came, found again by address.
#[derive(Debug)]
struct Table<T> {
    values: Vec<T>,
    numbers: HashMap<(usize, usize), u32>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            values: Vec::new(),
            numbers: HashMap::default(),
        }
    }
}

impl<T: Clone> Table<T> {
    /// The number of `value`, whose address and length are `key`.
    fn number(&mut self, key: (usize, usize), value: &T) -> u32 {
        *self.numbers.entry(key).or_insert_with(|| {
            self.values.push(value.clone());
            (self.values.len() - 1) as u32
        })
    }
}

/// An integer as an unsigned one, small for small magnitudes of either sign.
pub fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

pub fn unzigzag(n: u64) -> i64 {
    (n >> 1) as i64 ^ -((n & 1) as i64)
}

/// Writes `n` as a LEB128 varint, a byte at a time.
pub fn write_varint(mut n: u128, mut push: impl FnMut(u8)) {
    while n >= 0x80 {
        push(n as u8 | 0x80);
        n >>= 7;
    }
    push(n as u8);
}

/// Reads a LEB128 varint, a byte at a time; `None` if the bytes run out.
pub fn read_varint(mut next: impl FnMut() -> Option<u8>) -> Option<u128> {
    let mut n = 0;
    for shift in (0..).step_by(7) {
        let byte = next()?;
        n |= u128::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            break;
        }
    }
    Some(n)
}

/// Writes a finding's parts.
pub struct Packer<'p> {
    out: &'p mut Vec<u8>,
    tables: &'p mut Tables,
}

impl<'p> Packer<'p> {
    /// Writes to `out`, numbering what is shared in `tables`.
    pub fn new(out: &'p mut Vec<u8>, tables: &'p mut Tables) -> Packer<'p> {
        Packer { out, tables }
    }

    pub fn byte(&mut self, byte: u8) {
        self.out.push(byte);
    }

    pub fn uint(&mut self, n: u64) {
        write_varint(n.into(), |byte| self.out.push(byte));
    }

    pub fn int(&mut self, n: i64) {
        self.uint(zigzag(n));
    }

    pub fn float(&mut self, n: f64) {
        self.out.extend_from_slice(&n.to_le_bytes());
    }

    pub fn text(&mut self, text: &str) {
        self.uint(text.len() as u64);
        self.out.extend_from_slice(text.as_bytes());
    }

    /// Text that may be absent: a byte that says whether it is there, then the text.
    pub fn optional_text(&mut self, text: Option<&str>) {
        self.byte(text.is_some().into());
        text.iter().for_each(|text| self.text(text));
    }

    pub fn static_text(&mut self, text: &'static str) {
        let number = self
            .tables
            .texts
            .number((text.as_ptr() as usize, text.len()), &text);
        self.uint(number.into());
    }

    pub fn rule(&mut self, rule: &'static RuleMeta) {
        let key = (std::ptr::from_ref(rule) as usize, 0);
        let number = self.tables.rules.number(key, &rule);
        self.uint(number.into());
    }

    pub fn session(&mut self, name: &Arc<str>) {
        let key = (Arc::as_ptr(name) as *const u8 as usize, name.len());
        let number = self.tables.sessions.number(key, name);
        self.uint(number.into());
    }

    pub fn location(&mut self, location: &Location) {
        self.uint(location.source.into());
        self.uint(location.line);
        self.uint(location.offset);
        self.uint(location.len.into());
    }

    pub fn key(&mut self, key: &Key) {
        match key {
            Key::Int(n) => {
                self.byte(0);
                self.int(*n);
            }
            Key::BigInt(text) => {
                self.byte(1);
                self.text(text);
            }
            Key::Str(text) => {
                self.byte(2);
                self.text(text);
            }
        }
    }

    pub fn version(&mut self, version: Version) {
        self.byte(version as u8);
    }

    pub fn side(&mut self, side: Side) {
        self.byte(side as u8);
    }
}

/// Reads back what a [`Packer`] wrote, in the same order. Packed bytes are
/// only ever the engine's own, so a read past them is a bug (a panic).
pub struct Unpacker<'u> {
    bytes: &'u [u8],
    at: usize,
    tables: &'u Tables,
}

impl<'u> Unpacker<'u> {
    /// Reads `bytes`, written with `tables`.
    pub fn new(bytes: &'u [u8], tables: &'u Tables) -> Unpacker<'u> {
        Unpacker {
            bytes,
            at: 0,
            tables,
        }
    }

    pub fn byte(&mut self) -> u8 {
        self.at += 1;
        self.bytes[self.at - 1]
    }

    pub fn uint(&mut self) -> u64 {
        read_varint(|| Some(self.byte())).unwrap_or_default() as u64
    }

    pub fn int(&mut self) -> i64 {
        unzigzag(self.uint())
    }

    pub fn float(&mut self) -> f64 {
        let bytes = &self.bytes[self.at..self.at + 8];
        self.at += 8;
        f64::from_le_bytes(bytes.try_into().unwrap_or_default())
    }

    pub fn text(&mut self) -> &str {
        let len = self.uint() as usize;
        let bytes = &self.bytes[self.at..self.at + len];
        self.at += len;
        // Written from a `str`: always valid.
        std::str::from_utf8(bytes).unwrap_or_default()
    }

    pub fn optional_text(&mut self) -> Option<Box<str>> {
        (self.byte() != 0).then(|| self.text().into())
    }

    pub fn static_text(&mut self) -> &'static str {
        let number = self.uint() as usize;
        self.tables.texts.values[number]
    }

    pub fn rule(&mut self) -> &'static RuleMeta {
        let number = self.uint() as usize;
        self.tables.rules.values[number]
    }

    pub fn session(&mut self) -> Arc<str> {
        let number = self.uint() as usize;
        Arc::clone(&self.tables.sessions.values[number])
    }

    pub fn location(&mut self) -> Location {
        Location {
            source: self.uint() as u32,
            line: self.uint(),
            offset: self.uint(),
            len: self.uint() as u32,
        }
    }

    pub fn key(&mut self) -> Key {
        match self.byte() {
            0 => Key::Int(self.int()),
            1 => Key::BigInt(self.text().into()),
            _ => Key::Str(self.text().into()),
        }
    }

    pub fn version(&mut self) -> Version {
        Version::ALL[usize::from(self.byte())]
    }

    pub fn side(&mut self) -> Side {
        match self.byte() {
            0 => Side::Client,
            _ => Side::Server,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilled_findings_read_back_in_any_order() {
        use crate::limits::{set_for_test, Overrides};
        let meta = crate::rules::find("duplicate-response")
            .expect("a rule")
            .meta;
        let found = |n: u64| {
            let at = Location {
                source: 0,
                line: n,
                offset: n * 10,
                len: 9,
            };
            Diagnostic::new(meta, None, None, at, words!("finding {}", n))
        };
        set_for_test(Overrides {
            segment_bytes: Some(100),
            ..Overrides::default()
        });
        let mut pack = PackedFindings::default();
        pack.pack_from(&mut (0..300).map(found).collect());
        set_for_test(Overrides::default());
        let spilled = pack
            .segments
            .iter()
            .filter(|s| matches!(s, Segment::Spilled(_)))
            .count();
        assert!(spilled > 20, "{spilled} segments spilled");
        let mut places = Vec::new();
        pack.each(|place, d| places.push((place, d.location.line)));
        let mut window = Window::default();
        // Backwards, then every third: windows read before never serve another place.
        let order = places.iter().rev().chain(places.iter().step_by(3));
        for (place, line) in order {
            let d = pack.get(*place, &mut window);
            assert_eq!(format!("{d:?}"), format!("{:?}", found(*line)));
        }
    }

    #[test]
    fn numbers_and_keys_read_back_as_written() {
        let mut out = Vec::new();
        let mut tables = Tables::default();
        let mut packer = Packer {
            out: &mut out,
            tables: &mut tables,
        };
        let ints = [0, 1, -1, 63, -64, 1 << 40, i64::MIN, i64::MAX];
        ints.iter().for_each(|&n| packer.int(n));
        let keys = [
            Key::Int(-7),
            Key::BigInt("123456789012345678901234567890".into()),
            Key::Str("0".into()),
        ];
        keys.iter().for_each(|key| packer.key(key));
        packer.uint(u64::MAX);
        packer.float(-0.5);
        let mut unpacker = Unpacker {
            bytes: &out,
            at: 0,
            tables: &tables,
        };
        assert!(ints.iter().all(|&n| unpacker.int() == n));
        assert!(keys.iter().all(|key| unpacker.key() == *key));
        assert_eq!((unpacker.uint(), unpacker.float()), (u64::MAX, -0.5));
        assert_eq!(unpacker.at, out.len());
    }
}
