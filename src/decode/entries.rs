//! The events of a capture's entries (a HAR file's, an Inspector network
//! export's) in trace order, streamed: memory is bounded by the entries open
//! at once, not by the capture.
//!
//! Two passes over the entries. The first reads every entry but makes no
//! events: it outlines where its first event stands in timestamp order and
//! where the requests it carries stand (an answer waits for its request only
//! if the request comes later). The second decodes the entries, in parallel
//! batches, in the order of their first events, and merges their events by
//! time: an entry's later events (its response, at its end) are held only
//! until their time.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use rayon::prelude::*;

use super::causal::{note_cause, CausalOrder, Cause, LastProvided, Position};
use super::document::offset_of;
use super::http::{quoted_part, EntryProblem, Exchange, Timed, WHOLE_LINE_MAX};
use crate::event::{Event, Location, Unreadable};

/// How much of an entry to read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// All of it, for its events.
    Whole,
    /// Enough for its outline ([`Exchange::outline`]): a reader may leave
    /// out a response that holds no request, and what only the events
    /// carry (the headers rules read, the URL's path and target).
    Outline,
}

/// Reads the `i`th entry (0-based): its HTTP exchange, `None` for an entry
/// to leave out, or why it cannot be read.
pub(crate) trait ReadEntry<'a>:
    Fn(usize, &'a str, Reading) -> Result<Option<Exchange<'a>>, EntryProblem> + Sync
{
}

impl<'a, F> ReadEntry<'a> for F where
    F: Fn(usize, &'a str, Reading) -> Result<Option<Exchange<'a>>, EntryProblem> + Sync
{
}

/// Where streamed events go, in trace order.
pub trait EventSink: Send {
    fn take(&mut self, event: Event);

    /// Hands on what was taken; runs while the next entries are decoded.
    fn flush(&mut self) {}
}

impl EventSink for Vec<Event> {
    fn take(&mut self, event: Event) {
        self.push(event);
    }
}

/// A capture's entries and how to read them.
pub(crate) struct Capture<'a, 'e, R> {
    pub bytes: &'a [u8],
    pub source: u32,
    pub entries: &'e [&'a str],
    pub read: R,
    /// Entries decoded together, in parallel ([`batch`]).
    pub batch: usize,
}

impl<'a, 'e, R: ReadEntry<'a>> Capture<'a, 'e, R> {
    pub fn new(bytes: &'a [u8], source: u32, entries: &'e [&'a str], read: R) -> Self {
        Capture {
            bytes,
            source,
            entries,
            read,
            batch: batch(),
        }
    }
}

/// Entries outlined or decoded together, in parallel: 128 per thread, so
/// that the threads wait for each other at the end of a batch rarely (32
/// per thread: 13.0 s instead of 11.9 for a 1 GiB capture on two threads).
pub(crate) fn batch() -> usize {
    (rayon::current_num_threads() * 128).max(256)
}

/// The events of a capture's entries, in trace order, in one vector.
pub(crate) fn exchanges_in_order<'a>(
    bytes: &'a [u8],
    source: u32,
    entries: &[&'a str],
    read: impl ReadEntry<'a>,
) -> Vec<Event> {
    let mut events = Vec::new();
    stream(
        &Capture::new(bytes, source, entries, read),
        &mut |_| {},
        &mut events,
    );
    events
}

/// Gives `sink` the events of a capture's entries in trace order. `release`
/// is told byte ranges of the capture not needed until read again (pages of
/// a mapped file that can go back to the kernel).
pub(crate) fn stream<'a, R: ReadEntry<'a>>(
    capture: &Capture<'a, '_, R>,
    release: &mut (dyn FnMut(Range<usize>) + Send),
    sink: &mut dyn EventSink,
) {
    let lines = LineIndex::new(capture.bytes);
    release(0..capture.bytes.len());
    let batches = capture.entries.chunks(capture.batch);
    let outlined = outline(capture.bytes, &capture.read, batches, release);
    stream_outlined(capture, &lines, outlined, release, sink);
}

/// [`stream`] once the first pass is done: the capture's entries are those
/// [`outline`] was given, in the same order.
pub(crate) fn stream_outlined<'a, R: ReadEntry<'a>>(
    capture: &Capture<'a, '_, R>,
    lines: &LineIndex,
    outlined: Outlined,
    release: &mut (dyn FnMut(Range<usize>) + Send),
    sink: &mut dyn EventSink,
) {
    let mut ordered = Ordered {
        order: CausalOrder::new(outlined.last_provided),
        sink,
    };
    second_pass(capture, lines, &outlined.schedule, release, &mut ordered);
    let Ordered { order, sink } = ordered;
    order.finish(&mut |event| sink.take(event));
    sink.flush();
}

/// Events in timestamp order put in causal order on their way to a sink.
struct Ordered<'s> {
    order: CausalOrder,
    sink: &'s mut dyn EventSink,
}

impl Ordered<'_> {
    fn take(&mut self, at: Position, event: Event) {
        let sink = &mut *self.sink;
        self.order.push(at, event, &mut |event| sink.take(event));
    }
}

/// The time of the one event of an entry that cannot be read: before all others.
const UNREADABLE_TIME: f64 = f64::NEG_INFINITY;

/// The events of one entry in the order the exchange makes them, located
/// at byte offsets, not yet at lines.
fn entry_events_as_made<'a, R: ReadEntry<'a>>(
    capture: &Capture<'a, '_, R>,
    i: usize,
) -> Vec<Timed> {
    let at_offset = |offset: usize| Location {
        source: capture.source,
        line: 0,
        offset: offset as u64,
        len: 0,
    };
    match (capture.read)(i, capture.entries[i], Reading::Whole) {
        Ok(Some(x)) if x.is_mcp() => x.events(&at_offset),
        Ok(_) => Vec::new(),
        Err(problem) => vec![Timed {
            time: UNREADABLE_TIME,
            event: Event::unreadable(at_offset(problem.offset), Unreadable::Envelope(problem.why)),
        }],
    }
}

/// Where the first event of the `i`th entry stands, if it has events, and
/// what its events provide where.
fn entry_outline<'a>(
    read: &impl ReadEntry<'a>,
    i: usize,
    raw: &'a str,
) -> (Option<Position>, Vec<(Cause, Position)>) {
    let mut provided = Vec::new();
    let first = match read(i, raw, Reading::Outline) {
        Ok(Some(x)) if x.is_mcp() => {
            Some(x.outline(i, &mut |cause, at| provided.push((cause, at))))
        }
        Ok(_) => None,
        Err(_) => Some(Position {
            time: UNREADABLE_TIME,
            entry: i,
            index: 0,
        }),
    };
    (first, provided)
}

/// Bytes the first pass reads before it releases them, in one step: each
/// release interrupts the other threads to flush their address
/// translations, the thread still scanning the capture among them.
const RELEASE_BYTES: usize = 64 << 20;

/// What the first pass learns of a capture: where each entry's first event
/// stands, in timestamp order (entries without events left out), and where
/// each request is provided last.
pub(crate) struct Outlined {
    schedule: Vec<Position>,
    last_provided: LastProvided,
}

/// The first pass, over a capture's entries in batches, each outlined in
/// parallel; the batches may arrive while the capture is still scanned.
pub(crate) fn outline<'a, B: AsRef<[&'a str]>>(
    bytes: &[u8],
    read: &impl ReadEntry<'a>,
    batches: impl IntoIterator<Item = B>,
    release: &mut (dyn FnMut(Range<usize>) + Send),
) -> Outlined {
    let mut schedule = Vec::new();
    let mut last_provided = LastProvided::default();
    let (mut outlined, mut done_upto) = (0, 0);
    for batch in batches {
        let batch = batch.as_ref();
        let outlines: Vec<_> = batch
            .par_iter()
            .enumerate()
            .map(|(k, raw)| entry_outline(read, outlined + k, raw))
            .collect();
        for (first, provided) in outlines {
            schedule.extend(first);
            for (cause, at) in provided {
                note_cause(&mut last_provided, cause, at);
            }
        }
        outlined += batch.len();
        let end = batch
            .last()
            .map_or(done_upto, |last| range_in(bytes, last).end);
        if end - done_upto >= RELEASE_BYTES {
            release(done_upto..end);
            done_upto = end;
        }
    }
    release(done_upto..bytes.len());
    schedule.sort_unstable();
    Outlined {
        schedule,
        last_provided,
    }
}

/// The bytes of the `i`th entry in the capture.
fn entry_range<'a, R: ReadEntry<'a>>(capture: &Capture<'a, '_, R>, i: usize) -> Range<usize> {
    range_in(capture.bytes, capture.entries[i])
}

/// Where `raw`, a slice of `bytes`, stands in them.
fn range_in(bytes: &[u8], raw: &str) -> Range<usize> {
    let start = offset_of(bytes, raw);
    start..start + raw.len()
}

/// An event due at its position; the heap of them pops the earliest first.
/// Boxed: the heap moves its elements at every push and pop, and an event
/// is hundreds of bytes (2% fewer instructions for a HAR capture).
struct Due(Position, Box<Event>);

impl PartialEq for Due {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Due {}

impl PartialOrd for Due {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Due {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

/// Decodes the entries of `schedule` in its order, batch by batch, and
/// gives `ordered` their events in timestamp order: an event is taken once
/// no entry still to decode can have an earlier one. While a batch decodes,
/// the events due before its first are put in order and the sink flushed.
fn second_pass<'a, R: ReadEntry<'a>>(
    capture: &Capture<'a, '_, R>,
    lines: &LineIndex,
    schedule: &[Position],
    release: &mut (dyn FnMut(Range<usize>) + Send),
    ordered: &mut Ordered,
) {
    // Below where the entries still to decode start, the capture is done with.
    let mut floor = vec![capture.bytes.len(); schedule.len() + 1];
    for (k, first) in schedule.iter().enumerate().rev() {
        floor[k] = floor[k + 1].min(entry_range(capture, first.entry).start);
    }
    let mut due: BinaryHeap<Reverse<Due>> = BinaryHeap::new();
    let (mut next, mut done_upto) = (0, 0);
    for batch in schedule.chunks(capture.batch) {
        let (decoded, ()) = rayon::join(
            || -> Vec<Vec<Due>> {
                batch
                    .par_iter()
                    .map(|first| located_events(capture, lines, first.entry))
                    .collect()
            },
            || {
                take_due(&mut due, Some(batch[0]), ordered);
                ordered.sink.flush();
            },
        );
        due.extend(decoded.into_iter().flatten().map(Reverse));
        next += batch.len();
        if floor[next] > done_upto {
            release(done_upto..floor[next]);
            done_upto = floor[next];
        }
    }
    take_due(&mut due, None, ordered);
}

/// Gives `ordered` the events of `due` that stand before `before` (all of
/// them without it), earliest first.
fn take_due(due: &mut BinaryHeap<Reverse<Due>>, before: Option<Position>, ordered: &mut Ordered) {
    while let Some(Reverse(Due(at, _))) = due.peek() {
        if before.is_some_and(|before| before < *at) {
            break;
        }
        let Some(Reverse(Due(at, event))) = due.pop() else {
            break;
        };
        ordered.take(at, *event);
    }
}

/// The events of the `i`th entry at their positions and lines.
fn located_events<'a, R: ReadEntry<'a>>(
    capture: &Capture<'a, '_, R>,
    lines: &LineIndex,
    i: usize,
) -> Vec<Due> {
    entry_events_as_made(capture, i)
        .into_iter()
        .enumerate()
        .map(|(index, timed)| {
            let at = Position {
                time: timed.time,
                entry: i,
                index,
            };
            let mut event = timed.event;
            event.location = lines.locate(
                capture.bytes,
                capture.source,
                event.location.offset as usize,
            );
            Due(at, Box::new(event))
        })
        .collect()
}

/// Bytes per block of the line index: 8 bytes of index per KiB of capture,
/// and an event is located by counting the line feeds of half a KiB on
/// average (4 KiB blocks cost 2.4% of a HAR capture's instructions).
const LINE_BLOCK: usize = 1024;

/// Where lines are in a document, compactly: the lines before each block of
/// [`LINE_BLOCK`] bytes, so any offset is located by scanning within its
/// block, and around it only as far as decides how its line is quoted.
pub(crate) struct LineIndex {
    lines_before_block: Vec<u64>,
}

impl LineIndex {
    pub fn new(bytes: &[u8]) -> LineIndex {
        let counts: Vec<u64> = bytes
            .par_chunks(LINE_BLOCK)
            .map(|block| memchr::memchr_iter(b'\n', block).count() as u64)
            .collect();
        let mut lines_before_block = Vec::with_capacity(counts.len() + 1);
        let mut total = 0;
        lines_before_block.push(0);
        for count in counts {
            total += count;
            lines_before_block.push(total);
        }
        LineIndex { lines_before_block }
    }

    /// The line holding `offset`, as [`super::http::LineMap`] locates it.
    pub fn locate(&self, bytes: &[u8], source: u32, offset: usize) -> Location {
        let offset = offset.min(bytes.len());
        let block_start = offset / LINE_BLOCK * LINE_BLOCK;
        let line = 1
            + self.lines_before_block[offset / LINE_BLOCK]
            + memchr::memchr_iter(b'\n', &bytes[block_start..offset]).count() as u64;
        // Beyond this reach either way, a line is too long to quote whole
        // and where it starts or ends does not matter.
        const REACH: usize = WHOLE_LINE_MAX + 2;
        let back = offset.saturating_sub(REACH);
        let start = memchr::memrchr(b'\n', &bytes[back..offset]).map_or(back, |p| back + p + 1);
        let ahead = (offset + REACH).min(bytes.len());
        let end = memchr::memchr(b'\n', &bytes[offset..ahead]).map_or(ahead, |p| offset + p);
        let (from, to) = quoted_part(bytes, start, end, offset);
        Location {
            source,
            line,
            offset: from as u64,
            len: u32::try_from(to - from).unwrap_or(u32::MAX),
        }
    }
}

/// The events of a capture in trace order as they were put before they were
/// streamed: every entry's events collected, located, sorted by time (stably,
/// entries in capture order), then put in causal order.
#[cfg(test)]
pub(crate) fn collected_order<'a, R: ReadEntry<'a>>(capture: &Capture<'a, '_, R>) -> Vec<Event> {
    use super::causal::causal_order;
    use super::http::LineMap;
    let mut timed: Vec<(usize, Timed)> = Vec::new();
    for i in 0..capture.entries.len() {
        timed.extend(entry_events_as_made(capture, i).into_iter().map(|t| (i, t)));
    }
    let offsets = timed.iter().map(|(_, t)| t.event.location.offset as usize);
    let lines = LineMap::new(capture.bytes, capture.source, offsets.collect());
    for (_, t) in &mut timed {
        t.event.location = lines.locate(t.event.location.offset as usize);
    }
    timed
        .sort_by(|(a_entry, a), (b_entry, b)| a.time.total_cmp(&b.time).then(a_entry.cmp(b_entry)));
    causal_order(timed.into_iter().map(|(_, t)| t.event).collect())
}

/// An entry's outline as its events give it: what the first pass took
/// from decoding the entry whole.
#[cfg(test)]
pub(crate) fn outline_of_events<'a, R: ReadEntry<'a>>(
    capture: &Capture<'a, '_, R>,
    i: usize,
) -> (Option<Position>, LastProvided) {
    let at = |index, timed: &Timed| Position {
        time: timed.time,
        entry: i,
        index,
    };
    let events = entry_events_as_made(capture, i);
    let mut provided = LastProvided::default();
    for (index, timed) in events.iter().enumerate() {
        super::causal::note_provided(&mut provided, &timed.event, at(index, timed));
    }
    let first = events.iter().enumerate().map(|(k, t)| at(k, t)).min();
    (first, provided)
}

/// [`entry_outline`] with what it provides folded as the first pass folds it.
#[cfg(test)]
pub(crate) fn folded_outline<'a, R: ReadEntry<'a>>(
    capture: &Capture<'a, '_, R>,
    i: usize,
) -> (Option<Position>, LastProvided) {
    let (first, provided) = entry_outline(&capture.read, i, capture.entries[i]);
    let mut last = LastProvided::default();
    for (cause, at) in provided {
        note_cause(&mut last, cause, at);
    }
    (first, last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::http::LineMap;

    #[test]
    fn the_line_index_locates_as_the_line_map_does() {
        let mut document = b"{\r\n  \"a\": [\n\n".to_vec();
        document.extend(std::iter::repeat_n(b'x', 3 * WHOLE_LINE_MAX));
        document.extend(b"\r\n");
        document.extend(std::iter::repeat_n(b'y', WHOLE_LINE_MAX - 1));
        document.extend(b"\r\nshort\nlast");
        for _ in 0..3 {
            document.extend(std::iter::repeat_n(b"z\n".as_slice(), 3000).flatten());
        }
        let offsets: Vec<usize> = (0..=document.len() + 2).collect();
        let map = LineMap::new(&document, 7, offsets.clone());
        let index = LineIndex::new(&document);
        for offset in offsets {
            assert_eq!(
                index.locate(&document, 7, offset),
                map.locate(offset),
                "offset {offset}"
            );
        }
    }
}
