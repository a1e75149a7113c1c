use std::process::ExitCode;

use clap::Parser;

/// Decoding threads make the events that the engine's threads free: glibc's
/// allocator takes the allocating thread's arena lock for each such free
/// (a 1 GiB HAR capture spent a third of its wall time waiting on those
/// locks); mimalloc hands the block back without a lock.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's option index for the purge delay (`mi_option_purge_delay` in
/// its `mimalloc.h`): the bindings name no constant for it.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Milliseconds before freed pages go back to the system. mimalloc waits a
/// second by default, which held about 95 MB at peak for 1 GiB from stdin
/// instead of 60; purging at once (0) cost a 4 GiB trace a quarter more
/// wall time (25.6 s against 20.3 s): the engine's grown tables and the
/// batches of events are freed and allocated again all the time.
const PURGE_DELAY_MS: std::ffi::c_long = 10;

fn main() -> ExitCode {
    configure_allocator();
    ExitCode::from(mcp_lint::cli::run(mcp_lint::cli::Cli::parse()))
}

/// Sets the purge delay, unless the environment sets it: mimalloc reads
/// `MIMALLOC_PURGE_DELAY` when the process loads, before `main`.
fn configure_allocator() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: setting an option only writes mimalloc's option table;
        // the purge delay is read again at each purge.
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index is mimalloc's purge delay: the only option whose default
    /// is 1000 (milliseconds); a new mimalloc that renumbers its options
    /// fails here. No test calls `configure_allocator`.
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        // SAFETY: reading an option only reads mimalloc's option table.
        let default = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(default, 1000);
    }
}
