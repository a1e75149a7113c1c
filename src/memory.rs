//! Memory the process has freed, given back to the system, for programs
//! that embed the linter and keep glibc's allocator (the command line uses
//! mimalloc, which gives pages back by itself, `src/main.rs`).
//!
//! glibc's allocator keeps what a thread frees for that thread's later
//! allocations: the engine's batches of decoded events, allocated and freed
//! on every thread, then hold tens of megabytes that nothing uses (about 40
//! MB of the 140 MB peak of a 1 GiB trace). Asking it to give back its free
//! pages every few regions read costs a walk over its arenas and the faults
//! of pages used again.

use std::sync::atomic::{AtomicU64, Ordering};

/// Input bytes read between two trims: trimming after every batch would
/// only fault in again the pages the next batch's events use (1.5 s of
/// system time per GiB), and 32 MiB costs about 0.3 s.
const BYTES_PER_TRIM: u64 = 32 << 20;

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
