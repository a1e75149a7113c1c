//! The engine fed event sequences: the bytes choose the lines of a
//! canonical trace (`mcp_lint::generate::trace_from_bytes`), whose events
//! are fed one by one; the first byte chooses the revision assumed for a
//! session that starts after its handshake, and where the input ends (its
//! sessions end there, and the rest is a second input).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_lint::decode::{decode_chunk, Format};
use mcp_lint::protocol::Version;

fuzz_target!(|data: &[u8]| {
    let Some((first, bytes)) = data.split_first() else {
        return;
    };
    let assumed = Version::ALL.get(usize::from(*first % 8)).copied();
    let trace = mcp_lint::generate::trace_from_bytes(bytes);
    let events = decode_chunk(trace.as_bytes(), 0, 0, Format::Canonical).events;
    let split = usize::from(*first / 8) * events.len() / 32;
    let mut engine = mcp_lint::rules::engine().assuming_version(assumed);
    for (index, event) in events.into_iter().enumerate() {
        let mut event = event;
        if index >= split && split > 0 {
            if index == split {
                engine.end_source(0);
            }
            event.location.source = 1;
        }
        engine.feed(&event);
    }
    mcp_lint_fuzz::report(trace.as_bytes(), engine);
});
