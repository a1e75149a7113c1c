//! The client and proxy logs, one per value of the first byte.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_lint::decode::Format;

fuzz_target!(|data: &[u8]| {
    if let Some((format, bytes)) = mcp_lint_fuzz::select(data, Format::LOGS) {
        mcp_lint_fuzz::lint(bytes, Some(format));
    }
});
