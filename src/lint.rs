//! The pipeline for one input: bytes -> chunks decoded in parallel -> events
//! in trace order -> engine. Decoding the next batch of chunks overlaps with
//! the engine consuming the previous one.

use rayon::prelude::*;

use crate::decode::{
    decode_chunk_into, detect, read_input, stream_document, DecodedChunk, EventSink, Format,
};
use crate::engine::Engine;
use crate::event::Event;
use crate::input::{OpenedFile, SourceText};

/// Bytes per chunk handed to one decoding task: the batches in flight and
/// their events take about 3 MB less than with 256 KiB, at the same speed.
const CHUNK_BYTES: usize = 128 * 1024;

/// Chunks decoded at once: two per thread, so that a slow one does not
/// leave threads idle.
fn batch() -> usize {
    (rayon::current_num_threads() * 2).max(2)
}

/// Bytes per region a large file or stdin is read in (whole lines): one
/// batch of chunks. Two regions are in memory (one read ahead, one being
/// decoded), and they stay in cache between the copy and the decoding.
fn region_bytes() -> usize {
    batch() * CHUNK_BYTES
}

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

/// One input's progress through the pipeline: its number, format, the
/// number of lines already handed to the engine, the chunks decoded but
/// not yet fed to it, and the vectors of events fed, for the next chunks.
struct Cursor {
    source: u32,
    format: Format,
    lines_before: u64,
    pending: Vec<DecodedChunk>,
    spare: SpareEvents,
}

impl Cursor {
    fn new(source: u32, format: Format) -> Cursor {
        Cursor {
            source,
            format,
            lines_before: 0,
            pending: Vec::new(),
            spare: SpareEvents::default(),
        }
    }
}

/// Vectors of events already fed, emptied, for the chunks still to decode:
/// allocating and freeing one per chunk would have the allocator fault in
/// fresh pages (or keep freed ones) for every batch.
#[derive(Default)]
struct SpareEvents(std::sync::Mutex<Vec<Vec<Event>>>);

impl SpareEvents {
    fn take(&self) -> Vec<Event> {
        self.lock().pop().unwrap_or_default()
    }

    /// Keeps `events`, emptied, unless as many are kept as two batches use.
    fn give(&self, mut events: Vec<Event>) {
        events.clear();
        let mut spare = self.lock();
        if spare.len() < 2 * batch() {
            spare.push(events);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Vec<Event>>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
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
        let format = self.format.unwrap_or_else(|| detect(bytes));
        if format.is_document() {
            self.lint_document(source, format, bytes, &mut |_| {});
        } else {
            let mut cursor = Cursor::new(source, format);
            self.lint_region(&mut cursor, 0, bytes);
            self.finish_lines(cursor);
        }
        format
    }

    /// Lints a file: whole when small, else region by region up to the
    /// length it had when opened, so memory does not grow with it. The text
    /// is kept for quoting even when the file could not be read to its end:
    /// what was read has been linted.
    pub fn lint_file(
        &mut self,
        source: u32,
        opened: OpenedFile,
    ) -> (SourceText, std::io::Result<Format>) {
        use std::io::Read;
        if opened.is_small() {
            let mut bytes = Vec::with_capacity(opened.len as usize);
            let read = (&opened.file).take(opened.limit()).read_to_end(&mut bytes);
            let format = self.lint_bytes(source, &bytes);
            let read = read.and_then(|_| opened.check_length(bytes.len() as u64));
            return (SourceText::Owned(bytes), read.map(|()| format));
        }
        let reader = (&opened.file).take(opened.limit());
        let size = usize::try_from(opened.len).unwrap_or(0);
        let result = self
            .lint_stream(source, reader, None, size)
            .and_then(|(format, read)| opened.check_length(read).map(|()| format));
        (SourceText::File(opened.file), result)
    }

    /// Lints a stream, region by region, so memory does not grow with it.
    /// Every byte read is also written to `spool`, for quoting lines later.
    pub fn lint_reader(
        &mut self,
        source: u32,
        reader: impl std::io::Read + Send,
        spool: Option<&mut (dyn std::io::Write + Send)>,
    ) -> std::io::Result<Format> {
        self.lint_stream(source, reader, spool, 0)
            .map(|(format, _)| format)
    }

    /// `lint_reader` of a stream of about `size` bytes (0 when unknown);
    /// also says how many bytes were read. Regions are read on a thread of
    /// their own while the previous ones are decoded.
    fn lint_stream(
        &mut self,
        source: u32,
        reader: impl std::io::Read + Send,
        spool: Option<&mut (dyn std::io::Write + Send)>,
        size: usize,
    ) -> std::io::Result<(Format, u64)> {
        let mut cursor: Option<Cursor> = None;
        let region = (region_bytes(), size);
        let input = read_input(
            reader,
            region,
            spool,
            self.format,
            |format, offset, bytes| {
                let cursor = cursor.get_or_insert_with(|| Cursor::new(source, format));
                self.lint_region(cursor, offset, bytes);
            },
        );
        let format = match (input.format, &input.document, cursor) {
            (Some(format), Some(document), _) => {
                let release = &mut |range| document.release(range);
                self.lint_document(source, format, document.bytes(), release);
                format
            }
            (Some(format), None, Some(cursor)) => {
                self.finish_lines(cursor);
                format
            }
            _ => {
                self.engine.end_source(source);
                self.format.unwrap_or(Format::Canonical)
            }
        };
        input.read.map(|read| (format, read))
    }

    /// Lints a whole input of a document format: its events are streamed
    /// to the engine in trace order, never collected. `release` is told the
    /// byte ranges decoded and not needed again.
    fn lint_document(
        &mut self,
        source: u32,
        format: Format,
        bytes: &[u8],
        release: &mut (dyn FnMut(std::ops::Range<usize>) + Send),
    ) {
        let mut sink = EngineSink::new(&mut self.engine);
        stream_document(bytes, source, format, release, &mut sink);
        sink.flush();
        self.engine.end_source(source);
    }

    /// Feeds what is still decoded and not fed, and ends the input.
    fn finish_lines(&mut self, mut cursor: Cursor) {
        let pending = std::mem::take(&mut cursor.pending);
        feed(
            &mut self.engine,
            pending,
            &mut cursor.lines_before,
            &cursor.spare,
        );
        self.engine.end_source(cursor.source);
    }

    /// Decodes `bytes` (whole lines starting at `offset`) in parallel and
    /// feeds the events to the engine in order, each batch of chunks while
    /// the next is decoded. The last batch decoded is left in the cursor, to
    /// be fed while the next region is decoded (or by `finish_lines`), so
    /// that region boundaries do not stall the overlap.
    fn lint_region(&mut self, cursor: &mut Cursor, offset: u64, bytes: &[u8]) {
        let mut chunks = LineChunks {
            bytes,
            target: CHUNK_BYTES,
            start: 0,
        };
        let batch = batch();
        let (source, format, spare) = (cursor.source, cursor.format, &cursor.spare);
        let decode = |group: &[(usize, &[u8])]| -> Vec<DecodedChunk> {
            group
                .par_iter()
                .map(|(start, chunk)| {
                    let at = offset + *start as u64;
                    decode_chunk_into(chunk, at, source, format, spare.take())
                })
                .collect()
        };
        loop {
            let group: Vec<(usize, &[u8])> = chunks.by_ref().take(batch).collect();
            let Some(&(start, last)) = group.last() else {
                break;
            };
            let engine = &mut self.engine;
            let ready = std::mem::take(&mut cursor.pending);
            let lines_before = &mut cursor.lines_before;
            let ((), decoded) = rayon::join(
                || feed(engine, ready, lines_before, spare),
                || decode(&group),
            );
            cursor.pending = decoded;
            if let Some(report) = self.on_progress.as_mut() {
                report(&self.engine, offset + (start + last.len()) as u64);
            }
        }
        crate::memory::give_back_free_memory(bytes.len() as u64);
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

fn feed(
    engine: &mut Engine,
    decoded: Vec<DecodedChunk>,
    lines_before: &mut u64,
    spare: &SpareEvents,
) {
    for mut chunk in decoded {
        for event in &mut chunk.events {
            event.location.line += *lines_before;
        }
        engine.feed_all(&chunk.events);
        *lines_before += chunk.lines;
        spare.give(chunk.events);
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

/// The pieces of [`split_lines`], found one at a time, as each batch is
/// decoded: each touches the input only where it ends.
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
