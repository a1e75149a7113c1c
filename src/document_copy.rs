//! A document input (a HAR capture, an Inspector export), gathered whole
//! because it is one JSON value, without staying whole in memory: it is
//! copied into an unlinked temporary file of mcp-lint's own and mapped from
//! there, so that the pages already decoded go back to the kernel.
//!
//! Mapping the user's own file would save the copy, but another process
//! cutting that file short would kill mcp-lint (SIGBUS on the next read);
//! nobody else can change the copy. Where the copy cannot be made (no room
//! for it, or not a Unix system), the document is held in memory.

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::ops::Range;

/// A document's bytes, as they are read.
pub enum Gathering {
    Memory(Vec<u8>),
    Copy { file: File, len: usize },
}

impl Gathering {
    /// Ready for a document of about `size` bytes (0 when unknown).
    pub fn new(size: usize) -> Gathering {
        match cfg!(unix).then(tempfile::tempfile) {
            Some(Ok(file)) => Gathering::Copy { file, len: 0 },
            _ => Gathering::Memory(Vec::with_capacity(size)),
        }
    }

    pub fn append(&mut self, bytes: &[u8]) {
        if let Gathering::Copy { file, len } = self {
            match file.write_all(bytes) {
                Ok(()) => return *len += bytes.len(),
                // No room for the copy: hold the document in memory.
                Err(_) => *self = Gathering::Memory(std::mem::take(self).into_bytes()),
            }
        }
        if let Gathering::Memory(memory) = self {
            memory.extend_from_slice(bytes);
        }
    }

    /// The whole document, mapped from the copy or in memory.
    pub fn finish(self) -> Gathered {
        if let Gathering::Copy { file, len } = &self {
            if let Ok(mapped) = Mapped::of(file, *len) {
                return Gathered::Mapped(mapped);
            }
        }
        Gathered::Memory(self.into_bytes())
    }

    /// What was gathered, in memory (read back from the copy; empty if it
    /// cannot be read back).
    fn into_bytes(self) -> Vec<u8> {
        let (mut file, len) = match self {
            Gathering::Memory(bytes) => return bytes,
            Gathering::Copy { file, len } => (file, len),
        };
        let mut bytes = Vec::with_capacity(len);
        let read = file
            .rewind()
            .and_then(|()| file.take(len as u64).read_to_end(&mut bytes));
        if read.is_err() {
            bytes.clear();
        }
        bytes
    }
}

impl Default for Gathering {
    fn default() -> Self {
        Gathering::Memory(Vec::new())
    }
}

/// A gathered document.
pub enum Gathered {
    Memory(Vec<u8>),
    Mapped(Mapped),
}

impl Gathered {
    pub fn bytes(&self) -> &[u8] {
        match self {
            Gathered::Memory(bytes) => bytes,
            Gathered::Mapped(mapped) => mapped.bytes(),
        }
    }

    /// The pages wholly inside `range` are not needed until read again.
    pub fn release(&self, range: Range<usize>) {
        if let Gathered::Mapped(mapped) = self {
            mapped.release(range);
        }
    }
}

/// A read-only private mapping of a temporary file nobody else holds.
pub struct Mapped {
    start: *const u8,
    len: usize,
}

// SAFETY: the mapping is read-only and lives as long as the value.
unsafe impl Send for Mapped {}
unsafe impl Sync for Mapped {}

const PAGE: usize = 4096;

impl Mapped {
    #[cfg(unix)]
    fn of(file: &File, len: usize) -> io::Result<Mapped> {
        use std::os::fd::AsRawFd;
        if len == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        // SAFETY: a new read-only mapping of a file this process alone
        // holds (unlinked), so its bytes never change while mapped; it
        // stays valid after the file is closed.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Mapped {
            start: start.cast(),
            len,
        })
    }

    #[cfg(not(unix))]
    fn of(_file: &File, _len: usize) -> io::Result<Mapped> {
        Err(io::ErrorKind::Unsupported.into())
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `len` bytes are mapped at `start`, readable, for as long
        // as `self` lives.
        unsafe { std::slice::from_raw_parts(self.start, self.len) }
    }

    fn release(&self, range: Range<usize>) {
        let start = range.start.div_ceil(PAGE) * PAGE;
        let end = range.end.min(self.len) / PAGE * PAGE;
        if start >= end {
            return;
        }
        // SAFETY: pages inside the mapping. Dropping the pages of a private
        // read-only file mapping loses nothing: the next read loads the same
        // bytes from the file again.
        #[cfg(unix)]
        unsafe {
            libc::madvise(
                self.start.add(start) as *mut libc::c_void,
                end - start,
                libc::MADV_DONTNEED,
            );
        }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `of`, unmapped once.
        #[cfg(unix)]
        unsafe {
            libc::munmap(self.start as *mut libc::c_void, self.len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gathered(parts: &[&[u8]]) -> Gathered {
        let mut gathering = Gathering::new(0);
        for part in parts {
            gathering.append(part);
        }
        gathering.finish()
    }

    #[test]
    fn a_document_reads_back_whole_and_unchanged_after_its_pages_are_released() {
        let text: Vec<u8> = (0..3 * PAGE + 100).map(|i| (i % 251) as u8).collect();
        let document = gathered(&[&text[..5000], &text[5000..]]);
        assert!(cfg!(not(unix)) || matches!(document, Gathered::Mapped(_)));
        document.release(0..document.bytes().len());
        document.release(10..PAGE * 2 + 1);
        assert_eq!(document.bytes(), &text[..]);
    }

    #[test]
    fn an_empty_document_is_an_empty_slice() {
        assert!(gathered(&[]).bytes().is_empty());
        assert!(gathered(&[b""]).bytes().is_empty());
    }
}
