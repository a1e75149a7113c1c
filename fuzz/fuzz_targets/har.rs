//! HAR captures of Streamable HTTP (and the legacy HTTP+SSE transport).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_lint::decode::Format;

fuzz_target!(|data: &[u8]| {
    mcp_lint_fuzz::lint(data, Some(Format::Har));
});
