//! Input: which files to read, and their bytes (memory-mapped files, or
//! stdin read in bounded chunks and spooled so reports can quote it later).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

/// Files below this size are read into memory; mapping them costs more than it saves.
const MMAP_THRESHOLD: u64 = 256 * 1024;

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

/// The bytes of an input, kept until the report is written so that it can
/// quote the lines it points at.
pub enum SourceText {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl SourceText {
    pub fn bytes(&self) -> &[u8] {
        match self {
            SourceText::Mapped(map) => map,
            SourceText::Owned(bytes) => bytes,
        }
    }

    /// Opens a regular file: mapped when large, read when small.
    pub fn open(path: &Path) -> io::Result<SourceText> {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a directory",
            ));
        }
        if meta.is_file() && meta.len() >= MMAP_THRESHOLD {
            // SAFETY: the map is read-only. If another process truncates the
            // file while it is mapped, reads may fault (SIGBUS); like ripgrep,
            // we accept that for regular files in exchange for zero-copy reads.
            let map = unsafe { Mmap::map(&file)? };
            #[cfg(unix)]
            let _ = map.advise(memmap2::Advice::Sequential);
            return Ok(SourceText::Mapped(map));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.read_to_end(&mut bytes)?;
        Ok(SourceText::Owned(bytes))
    }

    /// The text of one line, by its location.
    pub fn line(&self, offset: u64, len: u32) -> Option<&[u8]> {
        let start = usize::try_from(offset).ok()?;
        self.bytes().get(start..start.checked_add(len as usize)?)
    }
}

/// Reads a stream in regions of whole lines of about `region` bytes, calling
/// `each(offset, bytes, at_end)` for each, and copying everything to `spool`.
/// Memory stays at one region plus the longest line.
pub fn read_regions(
    mut reader: impl Read,
    region: usize,
    mut spool: Option<&mut dyn Write>,
    mut each: impl FnMut(u64, &[u8]),
) -> io::Result<()> {
    let mut buffer: Vec<u8> = Vec::with_capacity(region);
    let mut offset = 0u64;
    loop {
        let filled = buffer.len();
        // Room for at least one more byte, however small the region: an
        // empty read means the end of the stream.
        buffer.resize(filled.max(region).max(filled + (region / 4).max(1)), 0);
        let read = match reader.read(&mut buffer[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                buffer.truncate(filled);
                continue;
            }
            Err(e) => return Err(e),
        };
        buffer.truncate(filled + read);
        if let Some(spool) = spool.as_deref_mut() {
            spool.write_all(&buffer[filled..])?;
        }
        if read == 0 {
            if !buffer.is_empty() {
                each(offset, &buffer);
            }
            return Ok(());
        }
        if buffer.len() < region {
            continue;
        }
        // Hand over whole lines only; keep the partial last line for the next read.
        if let Some(last_newline) = memchr::memrchr(b'\n', &buffer) {
            let complete = last_newline + 1;
            each(offset, &buffer[..complete]);
            offset += complete as u64;
            buffer.drain(..complete);
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

    #[test]
    fn a_region_smaller_than_a_line_still_ends_at_a_line_end() {
        let mut seen = Vec::new();
        read_regions(&b"{\"a\":1}\nb\n"[..], 1, None, |_, bytes| {
            seen.push(bytes.to_vec())
        })
        .unwrap();
        assert_eq!(seen, [b"{\"a\":1}\n".to_vec(), b"b\n".to_vec()]);
    }
}
