//! Schema validation with hostile schemas and instances. First byte: the
//! revision and what is checked: a tool's own schema (`inputSchema` or
//! `outputSchema`, text before the first NUL byte) against an instance
//! (the text after it), or a message's params, result or error against the
//! protocol's schema (method before the first NUL byte, JSON after it).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_lint::engine::tool_schema;
use mcp_lint::protocol::{schema, Version};

fuzz_target!(|data: &[u8]| {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    let version = Version::ALL[usize::from(*first) % Version::ALL.len()];
    let text = String::from_utf8_lossy(rest);
    let (head, tail) = text.split_once('\0').unwrap_or((&text, ""));
    match first / 8 % 4 {
        0 => {
            if let Ok(validator) = tool_schema::compile(head, Some(version)) {
                if let Ok(instance) = serde_json::from_str(tail) {
                    tool_schema::violations(&validator, &instance, "/params/arguments");
                }
            }
        }
        1 => drop(schema::of(version).check_params(head, Some(tail))),
        2 => drop(schema::of(version).check_result(head, tail)),
        _ => drop(schema::of(version).check_error(tail)),
    }
});
