//! Blocks of bytes kept in a temporary file instead of in memory: what a
//! session must remember to its end but rarely reads again (the answered
//! requests of long sessions) waits there, so memory stays bounded however
//! long a session runs.
//!
//! One file serves every session of the process while any of them holds
//! blocks in it; blocks given back are reused. Reads and writes are
//! positional, so the engine's shards share the file without a lock.

use std::fs::File;
use std::os::unix::fs::FileExt;
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

/// Where one block sits in the spill file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block(u64);

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

    /// A file of its own.
    fn new() -> Option<SpillFile> {
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
        match self.file.write_all_at(bytes, block * BLOCK_BYTES as u64) {
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
        self.file.read_exact_at(into, at)
    }

    /// Gives `block` back, to be written again.
    pub fn free(&self, block: Block) {
        lock(&self.space).free.push(block.0);
    }
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
    fn the_file_is_shared_while_held() {
        let held = SpillFile::shared().unwrap();
        assert!(Arc::ptr_eq(&held, &SpillFile::shared().unwrap()));
    }
}
