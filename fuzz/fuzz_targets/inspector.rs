//! MCP Inspector exports: protocol history and network. First byte: which.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_lint::decode::Format;

fuzz_target!(|data: &[u8]| {
    let formats = [Format::Inspector, Format::InspectorNetwork];
    if let Some((format, bytes)) = mcp_lint_fuzz::select(data, &formats) {
        mcp_lint_fuzz::lint(bytes, Some(format));
    }
});
