//! The pipeline for one input: bytes -> chunks decoded in parallel -> events
//! in trace order -> engine. Decoding the next batch of chunks overlaps with
//! the engine consuming the previous one.

use rayon::prelude::*;

use std::ops::Range;

use crate::decode::{decode_chunk, detect, stream_document, DecodedChunk, EventSink, Format};
use crate::engine::Engine;
use crate::event::Event;

/// Bytes per chunk handed to one decoding task.
const CHUNK_BYTES: usize = 512 * 1024;

/// Told the engine and how many bytes of the current input it has seen.
pub type OnProgress = Box<dyn FnMut(&Engine, u64)>;

/// A linter over any number of inputs, numbered by the caller.
pub struct Linter {
    pub engine: Engine,
    /// The format to read; `None` detects it per input.
    pub format: Option<Format>,
    /// Told how far into the current input (in bytes) the engine has got.
    pub on_progress: Option<OnProgress>,
}

/// One input's progress through the pipeline: its number, format, and the
/// number of lines already handed to the engine.
struct Cursor {
    source: u32,
    format: Format,
    lines_before: u64,
}

impl Linter {
    pub fn new(engine: Engine, format: Option<Format>) -> Self {
        Linter {
            engine,
            format,
            on_progress: None,
        }
    }

    /// Lints a whole input held in memory.
    pub fn lint_bytes(&mut self, source: u32, bytes: &[u8]) -> Format {
        self.lint_whole(source, bytes, &mut |_| {})
    }

    /// Lints a memory-mapped input, handing the pages it has decoded back to
    /// the kernel as it goes, so resident memory does not grow with the file.
    /// (Reports read quoted lines from the map again; the kernel reloads them.)
    pub fn lint_mapped(&mut self, source: u32, map: &memmap2::Mmap) -> Format {
        self.lint_whole(source, map, &mut |range| release_pages(map, range))
    }

    /// Lints a whole input; `release` is told byte ranges of it not needed
    /// until read again.
    fn lint_whole(
        &mut self,
        source: u32,
        bytes: &[u8],
        release: &mut dyn FnMut(Range<usize>),
    ) -> Format {
        let format = self.format.unwrap_or_else(|| detect(bytes));
        if format.is_document() {
            self.lint_document(source, bytes, format, release);
        } else {
            let mut cursor = Cursor {
                source,
                format,
                lines_before: 0,
            };
            let mut released = 0;
            self.lint_region(&mut cursor, 0, bytes, &mut |decoded_upto| {
                release(released..decoded_upto);
                released = decoded_upto;
            });
        }
        self.engine.end_source(source);
        format
    }

    /// Lints a whole input of a document format.
    fn lint_document(
        &mut self,
        source: u32,
        bytes: &[u8],
        format: Format,
        release: &mut dyn FnMut(Range<usize>),
    ) {
        let mut sink = EngineSink::new(&mut self.engine);
        stream_document(bytes, source, format, release, &mut sink);
    }

    /// Lints a stream, region by region, so memory does not grow with it.
    /// Every byte read is also written to `spool`, for quoting lines later.
    /// A document format cannot be decoded piecewise: it is linted once read,
    /// from the spool (mapped), or without one, gathered whole.
    pub fn lint_reader(
        &mut self,
        source: u32,
        reader: impl std::io::Read,
        spool: Option<&mut std::fs::File>,
    ) -> std::io::Result<Format> {
        let mut cursor: Option<Cursor> = None;
        let gather = spool.is_none();
        let mut document: Vec<u8> = Vec::new();
        let mut writer = spool.map(std::io::BufWriter::new);
        let spooling = writer.as_mut().map(|w| w as &mut dyn std::io::Write);
        let result =
            crate::input::read_regions(reader, 8 * 1024 * 1024, spooling, |offset, bytes| {
                let cursor = cursor.get_or_insert_with(|| Cursor {
                    source,
                    format: self.format.unwrap_or_else(|| detect(bytes)),
                    lines_before: 0,
                });
                if !cursor.format.is_document() {
                    self.lint_region(cursor, offset, bytes, &mut |_| {});
                } else if gather {
                    document.extend_from_slice(bytes);
                }
            });
        let spool = writer
            .map(|w| w.into_inner().map_err(|e| e.into_error()))
            .transpose()?;
        if let Some(format) = cursor.as_ref().map(|c| c.format) {
            if format.is_document() {
                match spool {
                    Some(file) => {
                        // SAFETY: the spool is the caller's file, written
                        // above and not changed while the map lives.
                        let map = unsafe { memmap2::Mmap::map(&*file)? };
                        self.lint_document(source, &map, format, &mut |range| {
                            release_pages(&map, range)
                        });
                    }
                    None => self.lint_document(source, &document, format, &mut |_| {}),
                }
            }
        }
        self.engine.end_source(source);
        result.map(|()| cursor.map_or(self.format.unwrap_or(Format::Canonical), |c| c.format))
    }

    /// Decodes `bytes` (whole lines starting at `offset`) in parallel and
    /// feeds the events to the engine in order. `decoded` is told how far
    /// into `bytes` everything has been decoded (events own their data).
    fn lint_region(
        &mut self,
        cursor: &mut Cursor,
        offset: u64,
        bytes: &[u8],
        decoded_upto: &mut dyn FnMut(usize),
    ) {
        let mut chunks = LineChunks {
            bytes,
            target: CHUNK_BYTES,
            start: 0,
        };
        let batch = (rayon::current_num_threads() * 2).max(2);
        let (source, format) = (cursor.source, cursor.format);
        let decode = |group: &[(usize, &[u8])]| -> Vec<DecodedChunk> {
            group
                .par_iter()
                .map(|(start, chunk)| decode_chunk(chunk, offset + *start as u64, source, format))
                .collect()
        };
        let mut pending: Vec<DecodedChunk> = Vec::new();
        loop {
            let group: Vec<(usize, &[u8])> = chunks.by_ref().take(batch).collect();
            if group.is_empty() {
                break;
            }
            let engine = &mut self.engine;
            let ready = std::mem::take(&mut pending);
            let lines_before = &mut cursor.lines_before;
            let ((), decoded) =
                rayon::join(|| feed(engine, ready, lines_before), || decode(&group));
            pending = decoded;
            if let Some((start, chunk)) = group.last() {
                decoded_upto(start + chunk.len());
                if let Some(report) = self.on_progress.as_mut() {
                    report(&self.engine, offset + (start + chunk.len()) as u64);
                }
            }
        }
        feed(&mut self.engine, pending, &mut cursor.lines_before);
    }
}

/// Hands the whole pages of `range` of a mapped input back to the kernel:
/// resident memory does not grow with the file. (Reports read quoted lines
/// from the map again; the kernel reloads them.)
fn release_pages(map: &memmap2::Mmap, range: Range<usize>) {
    const PAGE: usize = 4096;
    // Whole pages only: the ones at either end may hold bytes still in use.
    let (start, end) = (range.start.div_ceil(PAGE) * PAGE, range.end / PAGE * PAGE);
    if end > start {
        // SAFETY: the map is a read-only, file-backed mapping: after
        // MADV_DONTNEED its pages are read from the file again on the
        // next access, so no data is lost. No reference into the
        // released range is alive: its events own their data.
        #[cfg(unix)]
        let _ = unsafe {
            map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
    }
}

/// Streamed events on their way to the engine, fed in runs: the engine's
/// shards apply a run in parallel.
struct EngineSink<'e> {
    engine: &'e mut Engine,
    run: Vec<Event>,
}

impl<'e> EngineSink<'e> {
    /// Events per run.
    const RUN: usize = 16 * 1024;

    fn new(engine: &'e mut Engine) -> Self {
        EngineSink {
            engine,
            run: Vec::new(),
        }
    }
}

impl EventSink for EngineSink<'_> {
    fn take(&mut self, event: Event) {
        self.run.push(event);
        if self.run.len() >= Self::RUN {
            self.flush();
        }
    }

    fn flush(&mut self) {
        self.engine.feed_all(&self.run);
        self.run.clear();
    }
}

fn feed(engine: &mut Engine, decoded: Vec<DecodedChunk>, lines_before: &mut u64) {
    for mut chunk in decoded {
        for event in &mut chunk.events {
            event.location.line += *lines_before;
        }
        engine.feed_all(&chunk.events);
        *lines_before += chunk.lines;
    }
}

/// Splits `bytes` into pieces of about `target` bytes that end at a newline.
pub fn split_lines(bytes: &[u8], target: usize) -> Vec<(usize, &[u8])> {
    LineChunks {
        bytes,
        target,
        start: 0,
    }
    .collect()
}

/// The pieces of [`split_lines`], found one at a time: each touches the
/// input only where it ends, so a mapped file is paged in as it is decoded,
/// not all at once (with large page-cache folios, one touch per piece of a
/// whole file would map most of it).
struct LineChunks<'a> {
    bytes: &'a [u8],
    target: usize,
    start: usize,
}

impl<'a> Iterator for LineChunks<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let (bytes, start) = (self.bytes, self.start);
        if start >= bytes.len() {
            return None;
        }
        let tentative = (start + self.target.max(1)).min(bytes.len());
        let end = match memchr::memchr(b'\n', &bytes[tentative - 1..]) {
            Some(pos) if tentative < bytes.len() => tentative + pos,
            _ => bytes.len(),
        };
        self.start = end;
        Some((start, &bytes[start..end]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_lines_whole() {
        let text = b"a\nbb\nccc\ndddd\n\ne";
        for target in 1..text.len() + 2 {
            let chunks = split_lines(text, target);
            let joined: Vec<u8> = chunks.iter().flat_map(|(_, c)| c.iter().copied()).collect();
            assert_eq!(joined, text);
            for (start, chunk) in &chunks[..chunks.len() - 1] {
                assert!(chunk.ends_with(b"\n"), "target {target} chunk at {start}");
            }
        }
    }
}
