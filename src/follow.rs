//! `mcp-lint --follow FILE`: tails a growing trace or client log and prints
//! each finding (concise) as the lines that show it arrive, until
//! interrupted. A file that shrinks (truncated) or is replaced (rotated) is
//! read again from its start as a new input: the old one's sessions end there.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

use crate::check::{Settings, Usage};
use crate::cli::{self, Cli, EXIT_TROUBLE};
use crate::decode::{self, Format};
use crate::engine::Engine;

/// How long to wait before looking at the file again when nothing was added.
const POLL: Duration = Duration::from_millis(200);

/// One generation of the file (until it is truncated or rotated).
struct Input {
    source: u32,
    /// Bytes read so far; everything up to the last newline has been decoded.
    bytes: Vec<u8>,
    decoded: usize,
    /// Lines fed so far (line formats), or the last line fed (documents).
    lines: u64,
    format: Option<Format>,
    identity: Option<(u64, u64)>,
}

impl Input {
    fn new(source: u32, format: Option<Format>) -> Input {
        Input {
            source,
            bytes: Vec::new(),
            decoded: 0,
            lines: 0,
            format,
            identity: None,
        }
    }
}

/// Follows the file; returns only when it cannot be read at all.
pub fn run(cli: &Cli, path: &Path) -> u8 {
    let settings = match Settings::for_path(&cli.rules, path) {
        Ok(settings) => settings,
        Err(Usage(message)) => {
            cli::error(message);
            return EXIT_TROUBLE;
        }
    };
    let mut engine = settings.engine();
    let name = crate::sanitize::escape_controls(&path.to_string_lossy()).into_owned();
    let mut input = Input::new(0, cli.input_format.0);
    let mut out = std::io::stdout().lock();
    loop {
        match poll(path, &mut input, &mut engine, cli.input_format.0) {
            Ok(true) => {}
            Ok(false) => std::thread::sleep(POLL),
            Err(e) => {
                cli::error(format!("{name}: {e}"));
                return EXIT_TROUBLE;
            }
        }
        if print(&mut engine, &settings, path, &name, &mut out).is_err() {
            // The reader has gone (`| head`): nothing more to say.
            return crate::cli::EXIT_CLEAN;
        }
    }
}

/// Reads what was added to the file and lints its complete lines; says
/// whether anything was added.
fn poll(
    path: &Path,
    input: &mut Input,
    engine: &mut Engine,
    format: Option<Format>,
) -> std::io::Result<bool> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        // Between a rotation and the new file's creation there is no file:
        // wait for it. A name that never existed is a mistake to report.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && input.identity.is_some() => {
            return Ok(false)
        }
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    let identity = identity(&meta);
    let replaced = input.identity.is_some_and(|known| known != identity);
    if replaced || meta.len() < input.bytes.len() as u64 || !same_start(&mut file, input)? {
        // Truncated or rotated: the old input's sessions end here.
        engine.end_source(input.source);
        *input = Input::new(input.source + 1, format);
    }
    input.identity = Some(identity);
    file.seek(SeekFrom::Start(input.bytes.len() as u64))?;
    let before = input.bytes.len();
    file.read_to_end(&mut input.bytes)?;
    if input.bytes.len() == before {
        return Ok(false);
    }
    lint_complete_lines(input, engine);
    Ok(true)
}

/// Whether the file still starts as it did: a file truncated and written
/// again between two polls may have grown past what was read.
fn same_start(file: &mut std::fs::File, input: &Input) -> std::io::Result<bool> {
    let known = &input.bytes[..input.bytes.len().min(256)];
    let mut start = vec![0; known.len()];
    file.read_exact(&mut start)?;
    Ok(start == known)
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// Decodes the lines completed since the last poll and feeds their events.
fn lint_complete_lines(input: &mut Input, engine: &mut Engine) {
    let Some(end) = memchr::memrchr(b'\n', &input.bytes).map(|at| at + 1) else {
        return;
    };
    let format = *input
        .format
        .get_or_insert_with(|| decode::detect(&input.bytes[..end]));
    if format.is_document() {
        // A log line's session depends on the lines before it: the whole
        // log is decoded again, and only the events of new lines are fed.
        let events = decode::decode_document(&input.bytes[..end], input.source, format);
        let fed = input.lines;
        for event in events.iter().filter(|e| e.location.line > fed) {
            engine.feed(event);
        }
        let last = events.iter().map(|e| e.location.line).max();
        input.lines = last.unwrap_or(fed).max(fed);
    } else {
        let region = &input.bytes[input.decoded..end];
        let mut chunk = decode::decode_chunk(region, input.decoded as u64, input.source, format);
        for event in &mut chunk.events {
            event.location.line += input.lines;
            engine.feed(event);
        }
        input.lines += chunk.lines;
    }
    input.decoded = end;
}

fn print(
    engine: &mut Engine,
    settings: &Settings,
    path: &Path,
    name: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for mut d in engine.take_diagnostics() {
        if settings.keeps(path, &mut d) {
            crate::report::write_concise_line(&d, name, out)?;
        }
    }
    out.flush()
}
