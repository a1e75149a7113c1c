//! Input: which files to read, and their bytes: small files whole, large
//! files and stdin read in bounded regions (stdin spooled to a temporary
//! file), so that reports can quote lines by offset later.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The extensions a directory walk picks up.
pub const TRACE_EXTENSIONS: &[&str] = &["jsonl", "ndjson", "har"];

/// Log files are many, and most are not MCP logs: a walk picks up a `*.log`
/// file only when its start reads as a Claude Desktop, Claude Code, Cursor, VS Code or supergateway MCP log.
const LOG_EXTENSION: &str = "log";

/// How much of a `*.log` file is read to recognise it (as much as detection reads).
const LOG_SNIFF_BYTES: u64 = 1 << 20;

fn is_mcp_log(path: &Path) -> bool {
    let mut head = Vec::new();
    File::open(path)
        .and_then(|file| file.take(LOG_SNIFF_BYTES).read_to_end(&mut head))
        .is_ok()
        && matches!(
            crate::decode::detect(&head),
            crate::decode::Format::ClaudeLog
                | crate::decode::Format::VscodeLog
                | crate::decode::Format::ClaudeCode
                | crate::decode::Format::CursorLog
                | crate::decode::Format::Supergateway
                | crate::decode::Format::GoSdkLog
                | crate::decode::Format::PythonSdkLog
                | crate::decode::Format::LibrechatLog
                | crate::decode::Format::McpRemoteLog
        )
}

/// One input named on the command line, or found in a directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputPath {
    File(PathBuf),
    Stdin,
}

impl InputPath {
    /// The name shown in reports.
    pub fn display_name(&self) -> String {
        match self {
            InputPath::File(path) => {
                crate::sanitize::escape_controls(&path.to_string_lossy()).into_owned()
            }
            InputPath::Stdin => "<stdin>".into(),
        }
    }
}

/// An input that could not be read, with the reason.
#[derive(Debug)]
pub struct InputError {
    pub name: String,
    pub message: String,
}

/// Expands the command-line paths: `-` is stdin, a directory is walked (in
/// sorted order) for trace files, anything else is taken as a file.
pub fn expand(paths: &[PathBuf]) -> (Vec<InputPath>, Vec<InputError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(InputPath::Stdin);
        } else if path.is_dir() {
            let before = inputs.len();
            walk(path, &mut inputs, &mut errors);
            if inputs.len() == before {
                errors.push(InputError {
                    name: InputPath::File(path.clone()).display_name(),
                    message: format!(
                        "directory holds no trace files (*.{}, or *.{LOG_EXTENSION} files that are MCP logs)",
                        TRACE_EXTENSIONS.join(", *.")
                    ),
                });
            }
        } else {
            inputs.push(InputPath::File(path.clone()));
        }
    }
    (dedup(inputs), errors)
}

/// Keeps the first of inputs that are the same file (`a.jsonl`, `./a.jsonl`,
/// a directory and a file in it), so that none is linted, or reported, twice.
fn dedup(inputs: Vec<InputPath>) -> Vec<InputPath> {
    let mut seen = std::collections::HashSet::new();
    inputs
        .into_iter()
        .filter(|input| {
            let key = match input {
                InputPath::File(path) => Some(std::fs::canonicalize(path).unwrap_or(path.clone())),
                InputPath::Stdin => None,
            };
            seen.insert(key)
        })
        .collect()
}

/// Walks a directory in sorted order for trace files, skipping hidden
/// entries and what `.gitignore` (and `.ignore`) files leave out, in the
/// directory and above it, in a git repository or not. Symlinked
/// directories are not followed, so a walk cannot loop.
fn walk(dir: &Path, inputs: &mut Vec<InputPath>, errors: &mut Vec<InputError>) {
    let walker = ignore::WalkBuilder::new(dir)
        .hidden(true)
        .follow_links(false)
        .require_git(false)
        .git_global(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                errors.push(InputError {
                    name: InputPath::File(dir.to_path_buf()).display_name(),
                    message: e.to_string(),
                });
                continue;
            }
        };
        let is_file = entry
            .file_type()
            .is_some_and(|t| t.is_file() || t.is_symlink());
        if is_file && entry.depth() > 0 && is_trace_file(entry.path()) {
            inputs.push(InputPath::File(entry.into_path()));
        }
    }
}

fn is_trace_file(path: &Path) -> bool {
    let extension = path.extension().and_then(|e| e.to_str());
    extension.is_some_and(|e| TRACE_EXTENSIONS.contains(&e))
        || (extension == Some(LOG_EXTENSION) && is_mcp_log(path))
}

/// The text of an input, kept until the report is written so that it can
/// quote the lines it points at: a small input whole, a large one (or stdin's
/// spool) as an open file whose lines are read back by offset. A large file
/// is never held or mapped whole: resident memory stays bounded, and a file
/// cut short later only loses its quotes ("line not available").
pub enum SourceText {
    Owned(Vec<u8>),
    File(File),
}

/// Files below this size are read whole; larger ones are read in regions.
pub const WHOLE_FILE_MAX: u64 = 256 * 1024;

impl SourceText {
    /// The text of one line, by its location.
    pub fn line(&self, offset: u64, len: u32) -> Option<Cow<'_, [u8]>> {
        match self {
            SourceText::Owned(bytes) => {
                let start = usize::try_from(offset).ok()?;
                bytes
                    .get(start..start.checked_add(len as usize)?)
                    .map(Cow::Borrowed)
            }
            SourceText::File(file) => {
                let mut line = vec![0; len as usize];
                read_exact_at(file, &mut line, offset).ok()?;
                Some(Cow::Owned(line))
            }
        }
    }

    /// Whether `offset` starts a line (rather than a window on a long one).
    pub fn starts_line(&self, offset: u64) -> bool {
        offset == 0
            || self
                .line(offset - 1, 1)
                .is_some_and(|before| before.as_ref() == b"\n")
    }

    /// Whether the text holds nothing but white space (read until it does not).
    pub fn is_blank(&self) -> bool {
        match self {
            SourceText::Owned(bytes) => bytes.iter().all(u8::is_ascii_whitespace),
            SourceText::File(file) => {
                let mut block = vec![0; 64 * 1024];
                let mut offset = 0;
                loop {
                    match read_at(file, &mut block, offset) {
                        Ok(0) | Err(_) => return true,
                        Ok(n) if block[..n].iter().all(u8::is_ascii_whitespace) => {
                            offset += n as u64
                        }
                        Ok(_) => return false,
                    }
                }
            }
        }
    }

    /// The text from its start, to read again.
    pub fn reader(&self) -> io::Result<Box<dyn Read + Send + '_>> {
        match self {
            SourceText::Owned(bytes) => Ok(Box::new(&bytes[..])),
            SourceText::File(file) => {
                let mut reader = file;
                io::Seek::seek(&mut reader, io::SeekFrom::Start(0))?;
                Ok(Box::new(reader))
            }
        }
    }
}

/// Reads a whole file, whatever its size (`explain-request` needs it all).
pub fn read_whole(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    refuse_directory(&file)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn refuse_directory(file: &File) -> io::Result<()> {
    if file.metadata()?.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a directory",
        ));
    }
    Ok(())
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match read_at(file, buf, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A file opened for linting: small ones (and pipes, which cannot be read
/// again by offset) are read whole, large ones in regions up to the length
/// they had when opened.
pub struct OpenedFile {
    pub file: File,
    /// The length when opened: a file that grows while it is read is linted
    /// up to here (what was there when reading started).
    pub len: u64,
    /// A regular file, whose length means something.
    regular: bool,
}

impl OpenedFile {
    pub fn open(path: &Path) -> io::Result<OpenedFile> {
        let file = File::open(path)?;
        refuse_directory(&file)?;
        let meta = file.metadata()?;
        Ok(OpenedFile {
            file,
            len: meta.len(),
            regular: meta.is_file(),
        })
    }

    /// Whether the file is read whole.
    pub fn is_small(&self) -> bool {
        !self.regular || self.len < WHOLE_FILE_MAX
    }

    /// How much of the file is read: a regular file up to its length when opened.
    pub fn limit(&self) -> u64 {
        if self.regular {
            self.len
        } else {
            u64::MAX
        }
    }

    /// An error if the file ended before the length it had when opened
    /// (another process cut it short while it was read).
    pub fn check_length(&self, read: u64) -> io::Result<()> {
        if !self.regular || read >= self.len {
            return Ok(());
        }
        Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the file was cut short while it was read: it had {} bytes when opened, only {read} could be read (what was read is linted)",
                self.len
            ),
        ))
    }
}

/// How many region buffers [`read_regions`] uses: one being read into while
/// the other is linted. Reading a region takes a small part of the time its
/// linting does, so a third, ready in between, would only cost memory.
const REGION_BUFFERS: usize = 2;

/// Whole lines read, at `offset` in the stream: `buffer[..len]`.
struct Region {
    offset: u64,
    buffer: Vec<u8>,
    len: usize,
}

/// Reads a stream in regions of whole lines of about `region` bytes, calling
/// `each(offset, bytes)` for each in order, and copying everything to
/// `spool`; says how many bytes were read. The reading runs on a thread of
/// its own, ahead of `each`, into buffers that are reused: memory stays at
/// two regions plus the longest line.
pub fn read_regions(
    reader: impl Read + Send,
    region: usize,
    spool: Option<&mut (dyn Write + Send)>,
    mut each: impl FnMut(u64, &[u8]),
) -> io::Result<u64> {
    std::thread::scope(|scope| {
        let (full, ready) = std::sync::mpsc::sync_channel(0);
        let (give_back, returned) = std::sync::mpsc::channel();
        let reading = scope.spawn(move || {
            let mut buffers = 1;
            let mut next_buffer = || {
                if buffers < REGION_BUFFERS {
                    buffers += 1;
                    Some(vec![0; region])
                } else {
                    returned.recv().ok()
                }
            };
            read_into_regions(reader, region, spool, &full, &mut next_buffer)
        });
        for Region {
            offset,
            buffer,
            len,
        } in ready
        {
            each(offset, &buffer[..len]);
            // The reader may have stopped; then the buffer is simply dropped.
            let _ = give_back.send(buffer);
        }
        reading
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The reading side of [`read_regions`]: sends regions to `full`, taking
/// buffers from `next_buffer`. Stops early, without error, if the other
/// side has gone (it panicked).
fn read_into_regions(
    mut reader: impl Read,
    region: usize,
    mut spool: Option<&mut (dyn Write + Send)>,
    full: &std::sync::mpsc::SyncSender<Region>,
    next_buffer: &mut dyn FnMut() -> Option<Vec<u8>>,
) -> io::Result<u64> {
    // Zeroed once: `filled` bytes of it hold input; the rest is room to read into.
    let mut buffer: Vec<u8> = vec![0; region];
    let mut filled = 0;
    let mut offset = 0u64;
    loop {
        if buffer.len() < filled + (region / 4).max(1) {
            // A line longer than the region: make room for more of it (a
            // read into no room would return 0, which means the end).
            buffer.resize(filled + region, 0);
        }
        let read = match reader.read(&mut buffer[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if let Some(spool) = spool.as_deref_mut() {
            spool.write_all(&buffer[filled..filled + read])?;
        }
        filled += read;
        if read == 0 {
            let end = offset + filled as u64;
            if filled > 0 {
                let _ = full.send(Region {
                    offset,
                    buffer,
                    len: filled,
                });
            }
            return Ok(end);
        }
        if filled < region {
            continue;
        }
        // Hand over whole lines only; the partial last line starts the next region.
        if let Some(last_newline) = memchr::memrchr(b'\n', &buffer[..filled]) {
            let complete = last_newline + 1;
            let rest = filled - complete;
            let Some(mut next) = next_buffer() else {
                return Ok(offset);
            };
            if next.len() < rest {
                next.resize(rest, 0);
            }
            next[..rest].copy_from_slice(&buffer[complete..filled]);
            let done = std::mem::replace(&mut buffer, next);
            if full
                .send(Region {
                    offset,
                    buffer: done,
                    len: complete,
                })
                .is_err()
            {
                return Ok(offset);
            }
            offset += complete as u64;
            filled = rest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_hold_whole_lines_and_cover_everything() {
        let text = b"aaa\nbb\ncccccc\nd\nlast-without-newline";
        let mut seen = Vec::new();
        let mut spool = Vec::new();
        read_regions(&text[..], 5, Some(&mut spool), |offset, bytes| {
            assert!(bytes.ends_with(b"\n") || bytes.ends_with(b"newline"));
            assert_eq!(&text[offset as usize..offset as usize + bytes.len()], bytes);
            seen.extend_from_slice(bytes);
        })
        .unwrap();
        assert_eq!(seen, text);
        assert_eq!(spool, text);
    }

    /// A reader of `file` that cuts it to `cut_to` bytes after its first
    /// read, as another process may while mcp-lint reads it.
    struct CutAfterFirstRead<'a> {
        file: &'a File,
        cut_to: Option<u64>,
    }

    impl Read for CutAfterFirstRead<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let read = (&mut &*self.file).read(buf)?;
            if let Some(len) = self.cut_to.take() {
                self.file.set_len(len)?;
            }
            Ok(read)
        }
    }

    #[test]
    fn a_file_cut_short_between_reads_is_read_as_far_as_it_still_holds() {
        let text: Vec<u8> = (0..100)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&text).unwrap();
        io::Seek::rewind(&mut file).unwrap();
        let reader = CutAfterFirstRead {
            file: &file,
            cut_to: Some(10),
        };
        let mut seen = Vec::new();
        let read = read_regions(reader, 64, None, |offset, bytes| {
            assert_eq!(offset as usize, seen.len());
            seen.extend_from_slice(bytes);
        })
        .unwrap();
        // The first read's bytes are linted; the next read finds the end.
        assert_eq!(read, 64);
        assert_eq!(seen, &text[..64]);
    }

    #[test]
    fn a_region_of_a_few_bytes_is_no_end_of_the_stream() {
        let text = b"a long first line\nb\n";
        for region in 1..4 {
            let mut seen = Vec::new();
            let read = read_regions(&text[..], region, None, |_, bytes| {
                seen.extend_from_slice(bytes)
            })
            .unwrap();
            assert_eq!((read, &seen[..]), (text.len() as u64, &text[..]));
        }
    }
}
