//! Blocks of bytes kept in a temporary file instead of in memory: what a
//! session must remember to its end but rarely reads again (the answered
//! requests of long sessions), and the findings until the report, wait
//! there, so memory stays bounded however long a session runs.
//!
//! One file serves every session of the process while any of them holds
//! blocks in it; blocks given back are reused. Reads and writes are
//! positional, so the engine's shards share the file without a lock.

use std::fs::File;
use std::sync::{Arc, Mutex, Weak};

/// Bytes per block.
pub const BLOCK_BYTES: usize = 16 * 1024;

/// The temporary file and which of its blocks are free.
#[derive(Debug)]
pub struct SpillFile {
    file: File,
    space: Mutex<Space>,
}

#[derive(Debug, Default)]
struct Space {
    /// Blocks ever handed out: the file's length in blocks.
    blocks: u64,
    /// Blocks given back, to hand out again first.
    free: Vec<u64>,
}

/// What spills its data: the spill file once it first needed it, or,
/// when none could be made or written, word to keep its data in memory.
#[derive(Debug, Default)]
pub struct Spill {
    file: Option<Arc<SpillFile>>,
    keep_in_memory: bool,
}

impl Spill {
    /// The file to read from, if anything was written.
    pub fn file(&self) -> Option<&SpillFile> {
        self.file.as_deref()
    }

    /// The file to write to, made on first use; `None` once writing failed.
    pub fn writable(&mut self) -> Option<Arc<SpillFile>> {
        if self.keep_in_memory {
            return None;
        }
        if self.file.is_none() {
            self.file = SpillFile::shared();
            self.keep_in_memory = self.file.is_none();
        }
        self.file.clone()
    }

    /// A write failed: keep what is left in memory.
    pub fn stop_writing(&mut self) {
        self.keep_in_memory = true;
    }
}

/// Where one block sits in the spill file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block(u64);

/// Consecutive blocks of the spill file: `len` bytes from the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    first: u64,
    len: u64,
}

impl Run {
    /// How many bytes it holds.
    pub fn bytes(self) -> u64 {
        self.len
    }

    fn blocks(self) -> u64 {
        self.len.div_ceil(BLOCK_BYTES as u64).max(1)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl SpillFile {
    /// The file shared by everything that spills, made when first needed;
    /// `None` when no temporary file can be made (the caller then keeps
    /// its data in memory).
    pub fn shared() -> Option<Arc<SpillFile>> {
        static SHARED: Mutex<Weak<SpillFile>> = Mutex::new(Weak::new());
        let mut shared = lock(&SHARED);
        if let Some(file) = shared.upgrade() {
            return Some(file);
        }
        let file = Arc::new(SpillFile::new()?);
        *shared = Arc::downgrade(&file);
        Some(file)
    }

    /// A file of its own (where positional reads and writes exist).
    fn new() -> Option<SpillFile> {
        if cfg!(not(unix)) {
            return None;
        }
        Some(SpillFile {
            file: tempfile::tempfile().ok()?,
            space: Mutex::new(Space::default()),
        })
    }

    /// Writes `bytes` (at most a block) to a free block and returns it.
    pub fn write(&self, bytes: &[u8]) -> std::io::Result<Block> {
        debug_assert!(bytes.len() <= BLOCK_BYTES);
        let block = {
            let mut space = lock(&self.space);
            space.free.pop().unwrap_or_else(|| {
                space.blocks += 1;
                space.blocks - 1
            })
        };
        match write_at(&self.file, bytes, block * BLOCK_BYTES as u64) {
            Ok(()) => Ok(Block(block)),
            Err(e) => {
                self.free(Block(block));
                Err(e)
            }
        }
    }

    /// Reads `into.len()` bytes of `block` from `offset` in it.
    pub fn read(&self, block: Block, offset: usize, into: &mut [u8]) -> std::io::Result<()> {
        debug_assert!(offset + into.len() <= BLOCK_BYTES);
        let at = block.0 * BLOCK_BYTES as u64 + offset as u64;
        read_at(&self.file, into, at)
    }

    /// Gives `block` back, to be written again.
    pub fn free(&self, block: Block) {
        lock(&self.space).free.push(block.0);
    }

    /// Writes `bytes` of any length to new consecutive blocks.
    pub fn write_run(&self, bytes: &[u8]) -> std::io::Result<Run> {
        let len = bytes.len() as u64;
        let blocks = Run { first: 0, len }.blocks();
        let first = {
            let mut space = lock(&self.space);
            space.blocks += blocks;
            space.blocks - blocks
        };
        let run = Run { first, len };
        match write_at(&self.file, bytes, first * BLOCK_BYTES as u64) {
            Ok(()) => Ok(run),
            Err(e) => {
                self.free_run(run);
                Err(e)
            }
        }
    }

    /// Reads `into.len()` bytes of `run` from `offset` in it.
    pub fn read_run(&self, run: Run, offset: u64, into: &mut [u8]) -> std::io::Result<()> {
        debug_assert!(offset + into.len() as u64 <= run.len);
        read_at(&self.file, into, run.first * BLOCK_BYTES as u64 + offset)
    }

    /// Gives the blocks of `run` back, to be written again one by one.
    pub fn free_run(&self, run: Run) {
        let mut space = lock(&self.space);
        space.free.extend(run.first..run.first + run.blocks());
    }
}

#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

#[cfg(unix)]
fn read_at(file: &File, into: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, into, at)
}

#[cfg(not(unix))]
fn write_at(_: &File, _: &[u8], _: u64) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(not(unix))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_read_back_what_was_written_and_freed_ones_are_reused() {
        let spill = SpillFile::new().unwrap();
        let one = spill.write(&[1; BLOCK_BYTES]).unwrap();
        let two = spill.write(&[2, 3, 4]).unwrap();
        let mut bytes = [0; 2];
        spill.read(two, 1, &mut bytes).unwrap();
        assert_eq!(bytes, [3, 4]);
        spill.read(one, BLOCK_BYTES - 2, &mut bytes).unwrap();
        assert_eq!(bytes, [1, 1]);
        spill.free(one);
        assert_eq!(spill.write(&[5]).unwrap(), one);
    }

    #[test]
    fn runs_span_blocks_and_free_them_all() {
        let spill = SpillFile::new().unwrap();
        let bytes: Vec<u8> = (0..BLOCK_BYTES * 2 + 5).map(|n| n as u8).collect();
        let run = spill.write_run(&bytes).unwrap();
        let mut tail = [0; 7];
        spill
            .read_run(run, BLOCK_BYTES as u64 * 2 - 2, &mut tail)
            .unwrap();
        assert_eq!(&tail, &bytes[BLOCK_BYTES * 2 - 2..]);
        spill.free_run(run);
        assert_eq!(lock(&spill.space).free.len(), 3);
    }

    #[test]
    fn the_file_is_shared_while_held() {
        let held = SpillFile::shared().unwrap();
        assert!(Arc::ptr_eq(&held, &SpillFile::shared().unwrap()));
    }
}
