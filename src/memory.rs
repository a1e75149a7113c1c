//! Memory the process has freed, given back to the system.
//!
//! glibc's allocator keeps what a thread frees for that thread's later
//! allocations, and raises the size under which it keeps it as the program
//! frees large blocks: the engine's batches of decoded events, allocated
//! and freed on every thread, then hold tens of megabytes that nothing uses
//! (about 40 MB of the 140 MB peak of a 1 GiB trace). Asking it to give
//! back its free pages every few regions read costs a walk over its arenas
//! and the faults of pages used again.

use std::sync::atomic::{AtomicU64, Ordering};

/// Input bytes read between two trims: trimming after every batch would
/// only fault in again the pages the next batch's events use (1.5 s of
/// system time per GiB), and 32 MiB costs about 0.3 s.
const BYTES_PER_TRIM: u64 = 32 << 20;

/// Has the allocator hand blocks larger than a chunk's copy (the regions
/// read, grown hash tables, a spare vector of events more than the linter
/// keeps) straight back to the system when freed: glibc otherwise raises
/// the size it serves from its own free memory as large blocks are freed,
/// and keeps them (about 4 MB of RSS at 1 GiB from stdin). Chunk copies
/// (256 KiB and their last line) stay below it: mapping and unmapping one
/// per chunk costs a second of system time per GiB. Called once, by the
/// command line: it sets how the whole process allocates.
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; a fixed
    // threshold turns off its dynamic adjustment and nothing else.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 384 * 1024);
    }
}

/// Told that `bytes` more of the input were linted; gives the allocator's
/// free pages back to the system, where it can, once every [`BYTES_PER_TRIM`].
pub fn give_back_free_memory(bytes: u64) {
    static BYTES: AtomicU64 = AtomicU64::new(0);
    let before = BYTES.fetch_add(bytes, Ordering::Relaxed);
    if before / BYTES_PER_TRIM == (before + bytes) / BYTES_PER_TRIM {
        return;
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory the allocator holds free; it
    // touches no memory in use and takes no pointer.
    unsafe {
        libc::malloc_trim(0);
    }
}
