//! `mcp-lint redact IN -o OUT`: a copy of a trace safe to attach to a public
//! bug report. What the rules read is kept (ids, tokens, methods, versions,
//! capabilities, error codes, progress numbers, `_meta` keys, timing,
//! sessions, structure and line numbers); free text is replaced by
//! placeholders of the same JSON type, so the copy lints like the original.
//!
//! Values are rewritten from their text, never through `serde_json::Value`:
//! that would reorder members, drop repeated ones and round big ids, each of
//! which the rules would notice.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::cli::{self, EXIT_CLEAN, EXIT_TROUBLE};
use crate::decode::{self, Format};

/// What `mcp-lint redact` was asked to do.
#[derive(Debug, clap::Args)]
pub struct Options {
    /// The trace to redact (canonical or bare JSON lines).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// Where to write the redacted copy.
    #[arg(short = 'o', long = "output-file", value_name = "OUT")]
    pub output: PathBuf,
}

/// The string every piece of free text becomes.
const PLACEHOLDER: &str = "\"redacted\"";

/// What to do with a value, by where it sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    /// A canonical envelope: its members say when, who and which session.
    Envelope,
    /// A JSON-RPC message, or an object of its protocol: members the rules
    /// read are kept, the rest redacted.
    Protocol,
    /// `_meta`: its keys are checked by a rule; only a few of its values are.
    Meta,
    /// Content a tool, resource, prompt or person wrote: every value goes.
    Free,
    /// Kept exactly.
    Keep,
}

/// Members of a protocol object kept as written, wherever they appear.
const KEPT: &[&str] = &[
    "jsonrpc",
    "id",
    "method",
    "protocolVersion",
    "version",
    "progressToken",
    "requestId",
    "progress",
    "total",
    "code",
    "mode",
    "type",
    "capabilities",
    // Tasks (2025-11-25): ids, statuses, times and a tool's task support.
    "taskId",
    "status",
    "createdAt",
    "lastUpdatedAt",
    "ttl",
    "pollInterval",
    "taskSupport",
];

/// Members whose whole value was written by a tool, a resource or a person.
const FREE: &[&str] = &[
    "arguments",
    "structuredContent",
    "content",
    "contents",
    "data",
    "messages",
];

/// `_meta` values the rules read.
const META_KEPT: &[&str] = &[
    "progressToken",
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/related-task",
];

fn child(context: Context, key: &str) -> Context {
    match context {
        Context::Envelope => match key {
            "msg" => Context::Protocol,
            "text" => Context::Free,
            _ => Context::Keep,
        },
        Context::Protocol if KEPT.contains(&key) => Context::Keep,
        Context::Protocol if key == "_meta" => Context::Meta,
        Context::Protocol if FREE.contains(&key) => Context::Free,
        Context::Meta if META_KEPT.contains(&key) => Context::Keep,
        Context::Meta => Context::Free,
        other => other,
    }
}

/// An object's members in order, repeated ones included.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Ordered<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for Ordered<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Members<'a>, M::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Ordered(std::marker::PhantomData))
    }
}

/// Writes `raw` redacted for where it sits.
fn redact_value(raw: &RawValue, context: Context, out: &mut String) {
    let text = raw.get();
    if context == Context::Keep {
        out.push_str(text);
        return;
    }
    match text.as_bytes().first() {
        Some(b'{') => match serde_json::from_str::<Members>(text) {
            Ok(members) => redact_object(&members, context, out),
            Err(_) => out.push_str("{}"),
        },
        Some(b'[') => match serde_json::from_str::<Vec<&RawValue>>(text) {
            Ok(items) => redact_array(&items, context, out),
            Err(_) => out.push_str("[]"),
        },
        Some(b'"') => out.push_str(PLACEHOLDER),
        // Booleans and null say nothing private; a number may.
        Some(b't' | b'f' | b'n') => out.push_str(text),
        _ => out.push('0'),
    }
}

fn redact_object(members: &Members, context: Context, out: &mut String) {
    out.push('{');
    for (index, (key, value)) in members.0.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        // Keys are structure (and `_meta` keys are checked); the escaping is serde's.
        let _ = write!(out, "{}:", serde_json::Value::String(key.clone()));
        redact_value(value, child(context, key), out);
    }
    out.push('}');
}

fn redact_array(items: &[&RawValue], context: Context, out: &mut String) {
    out.push('[');
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        redact_value(item, context, out);
    }
    out.push(']');
}

/// One line redacted. A line that is not JSON stays not JSON, so it is
/// still reported as such, without its text.
fn redact_line(line: &[u8], context: Context) -> Vec<u8> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return line.to_vec();
    }
    let parsed = std::str::from_utf8(line)
        .ok()
        .and_then(|text| serde_json::from_str::<&RawValue>(text).ok());
    match parsed {
        Some(raw) => {
            let mut out = String::with_capacity(line.len());
            redact_value(raw, context, &mut out);
            out.into_bytes()
        }
        None => b"<a line that is not JSON, redacted>".to_vec(),
    }
}

/// The whole input redacted, line for line, with its line endings.
pub fn redact(bytes: &[u8], format: Format) -> Result<Vec<u8>, String> {
    let context = match format {
        Format::Canonical => Context::Envelope,
        Format::Bare => Context::Protocol,
        other => {
            return Err(format!(
                "redact reads canonical and bare JSON-lines traces; {} input is not supported yet",
                other.name()
            ))
        }
    };
    let mut out = Vec::with_capacity(bytes.len());
    for piece in bytes.split_inclusive(|b| *b == b'\n') {
        let (line, ending): (&[u8], &[u8]) = match piece {
            [line @ .., b'\r', b'\n'] => (line, b"\r\n"),
            [line @ .., b'\n'] => (line, b"\n"),
            line => (line, b""),
        };
        out.extend_from_slice(&redact_line(line, context));
        out.extend_from_slice(ending);
    }
    Ok(out)
}

pub fn run(options: &Options) -> u8 {
    let shown =
        |path: &PathBuf| crate::sanitize::escape_controls(&path.to_string_lossy()).into_owned();
    let written = std::fs::read(&options.input)
        .map_err(|e| format!("{}: {e}", shown(&options.input)))
        .and_then(|bytes| redact(&bytes, decode::detect(&bytes)))
        .and_then(|redacted| {
            std::fs::write(&options.output, redacted)
                .map_err(|e| format!("{}: {e}", shown(&options.output)))
        });
    match written {
        Ok(()) => EXIT_CLEAN,
        Err(message) => {
            cli::error(message);
            EXIT_TROUBLE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redacted(line: &str) -> String {
        String::from_utf8(redact(line.as_bytes(), Format::Canonical).unwrap()).unwrap()
    }

    #[test]
    fn free_text_goes_and_what_the_rules_read_stays() {
        let line = r#"{"ts":1,"from":"client","session":"s","msg":{"jsonrpc":"2.0","id":12345678901234567890123,"method":"tools/call","params":{"name":"secret_tool","arguments":{"id":"card 4111","n":7},"_meta":{"progressToken":"p","x/y":"private"}}}}"#;
        assert_eq!(
            redacted(line),
            r#"{"ts":1,"from":"client","session":"s","msg":{"jsonrpc":"2.0","id":12345678901234567890123,"method":"tools/call","params":{"name":"redacted","arguments":{"id":"redacted","n":0},"_meta":{"progressToken":"p","x/y":"redacted"}}}}"#
        );
    }

    #[test]
    fn repeated_members_and_broken_lines_stay_as_they_were_read() {
        let line =
            "{\"from\":\"server\",\"msg\":{\"id\":1,\"id\":2,\"result\":{}}}\r\nnot json: secret\n";
        assert_eq!(
            redacted(line),
            "{\"from\":\"server\",\"msg\":{\"id\":1,\"id\":2,\"result\":{}}}\r\n<a line that is not JSON, redacted>\n"
        );
    }
}
