//! JSON-lines traces: canonical envelopes, bare JSON-RPC lines, and
//! whatever format detection makes of the bytes. First byte: which.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_lint::decode::Format;

fuzz_target!(|data: &[u8]| {
    let formats = [Some(Format::Canonical), Some(Format::Bare), None];
    if let Some((format, bytes)) = mcp_lint_fuzz::select(data, &formats) {
        mcp_lint_fuzz::lint(bytes, format);
    }
});
