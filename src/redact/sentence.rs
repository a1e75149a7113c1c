//! The sentences clients and bridges write in their logs, redacted by an
//! allow-list: a sentence is kept only where it matches one of its log's
//! templates, and then only the template's fixed wording and the holes a
//! decoder reads (numbers, ids, messages, the words of runtime errors) stay;
//! any other sentence is replaced whole. An allow-list cannot leak what it
//! does not know.
//!
//! A template is the client's wording with holes: `Tool '{free}' failed
//! after {n}: {error}`. A hole runs to where the wording after it starts
//! (its first occurrence), or to the end of the sentence.

use std::collections::HashMap;

use super::scan::{Scanner, PLACEHOLDER};
use super::text::{payloads, push_free};
use crate::decode::{LineParts, Tag};

/// Pseudonyms of the names a log's lines are tagged with: the same name is
/// always the same pseudonym within a file, so sessions split the same way.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// By kind (`server`, `user`, `session`...), the number of each name.
    kinds: HashMap<&'static str, HashMap<String, usize>>,
}

impl Names {
    /// The pseudonym of `name` among the names of its kind: `server-2`.
    pub fn pseudonym(&mut self, kind: &'static str, name: &str) -> String {
        let names = self.kinds.entry(kind).or_default();
        let next = names.len() + 1;
        let number = *names.entry(name.to_string()).or_insert(next);
        format!("{kind}-{number}")
    }

    fn server(&mut self, name: &str, out: &mut String) {
        out.push_str(&self.pseudonym("server", name));
    }

    fn user(&mut self, name: &str, out: &mut String) {
        out.push_str(&self.pseudonym("user", name));
    }
}

/// The loggers of the SDKs and the servers they run on, whose names say
/// nothing private (`mcp.server.sse`); any other logger is the program's.
const LOGGERS: &[&str] = &[
    "mcp",
    "sse_starlette",
    "starlette",
    "uvicorn",
    "httpx",
    "anyio",
];

/// The words runtime errors, connection states and printed values are made
/// of (compared without case): the only words of free wording that stay.
#[rustfmt::skip]
const WORDS: &[&str] = &[
    // JSON parse errors of V8, JavaScriptCore, Go, pydantic and Python.
    "unexpected", "token", "identifier", "end", "of", "json", "input", "is", "not", "valid", "in",
    "at", "position", "line", "column", "no", "number", "after", "minus", "sign", "expected", "or",
    "array", "element", "property", "name", "non", "whitespace", "character", "parse", "error",
    "invalid", "looking", "for", "beginning", "value", "eof", "while", "parsing", "a", "an",
    "string", "bad", "control", "escaped", "unterminated", "double", "quoted", "enclosed", "quotes",
    "expecting", "delimiter", "extra", "data", "trailing", "comma", "literal", "exponent", "part",
    "digit", "decimal", "point", "the", "unicode", "escape", "sequence", "object", "key", "colon",
    "failed", "to", "jsonrpc", "message", "from", "server", "syntaxerror", "type", "json_invalid",
    "input_value", "input_type", "str", "bytes", "validation", "errors", "top", "level",
    // Errors of requests and transports.
    "mcp", "request", "timed", "out", "timeout", "connection", "closed", "close", "cancelled",
    "aborted", "abort", "aborterror", "this", "operation", "was", "client", "transport", "reset",
    "refused", "econnrefused", "econnreset", "epipe", "enoent", "etimedout", "spawn", "exited",
    "exit", "with", "code", "signal", "sigterm", "sigint", "sigkill", "sighup", "process",
    "received", "response", "unknown", "progress", "notification", "method", "found", "internal",
    "disconnected", "terminated", "intentional", "shutdown",
    // Transports and connection states.
    "stdio", "sse", "http", "https", "streamable", "streamablehttp", "websocket", "ws", "stderr",
    "stdout", "sseclienttransport", "streamablehttpclienttransport", "starting", "running",
    "stopped", "stopping", "connecting", "connected", "connect_success", "transport_error", "auth",
    "conn", "authenticated", "idle", "ready", "true", "false",
    // Printed values and the SSE fields around messages.
    "null", "undefined", "none", "metadata", "context", "stack", "truncated", "event", "endpoint",
    "ping", "id", "params", "result", "retry", "b", "o",
];

/// The ends of supergateway's arrows (`SSE → Child`).
const ENDS: &[&str] = &["Child", "SSE", "Stdio", "StreamableHttp", "WebSocket"];

/// Where Claude Desktop's metadata starts at the end of a sentence: a hole
/// just before `{json}` ends there.
const METADATA: &[&str] = &[" { metadata:", " {\"context\":"];

/// A hole of a template: what stays of the text it covers.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Hole {
    /// Messages (or a payload-free summary), redacted as messages; the text
    /// around them keeps only [`WORDS`].
    Json,
    /// A Python bytes literal holding a message or an SSE chunk.
    Bytes,
    /// A server's name: its pseudonym.
    Name,
    /// Free text: replaced.
    Free,
    /// A number, perhaps with a unit (`412ms`): kept.
    Number,
    /// An id without spaces (a session, a process, a method): kept.
    Id,
    /// ` (session <id>)`, or nothing; the template fails on anything else.
    Session,
    /// supergateway's `A → B`, and its session: the template fails unless
    /// both ends are [`ENDS`].
    Route,
    /// Any wording: only [`WORDS`], numbers and punctuation stay.
    Words,
    /// A failure a client reports (a parse error, an unknown id or token with
    /// the message it quotes), or any error: as [`Hole::Words`], and the
    /// quoted message redacted as a message.
    Error,
    /// As [`Hole::Error`], but the template fails unless the text is a
    /// failure the decoders read.
    Report,
}

#[derive(Debug, Clone, Copy)]
enum Piece {
    Wording(&'static str),
    Hole(Hole),
}

fn hole(name: &str) -> Hole {
    match name {
        "json" => Hole::Json,
        "bytes" => Hole::Bytes,
        "name" => Hole::Name,
        "n" => Hole::Number,
        "id" => Hole::Id,
        "session" => Hole::Session,
        "route" => Hole::Route,
        "words" => Hole::Words,
        "error" => Hole::Error,
        "report" => Hole::Report,
        _ => Hole::Free,
    }
}

/// The pieces of a template: wording and `{hole}`s.
fn pieces(mut template: &'static str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    while !template.is_empty() {
        let start = template.find('{').unwrap_or(template.len());
        if start > 0 {
            pieces.push(Piece::Wording(&template[..start]));
        }
        let Some(end) = template[start..].find('}').map(|at| start + at) else {
            break;
        };
        pieces.push(Piece::Hole(hole(&template[start + 1..end])));
        template = &template[end + 1..];
    }
    pieces
}

/// The text each hole of `template` covers in `text`, in order, or `None`
/// when the sentence is not the template's.
fn matched<'a>(template: &'static str, text: &'a str) -> Option<Vec<(Hole, &'a str)>> {
    let pieces = pieces(template);
    let mut holes = Vec::new();
    let mut at = 0;
    for (index, piece) in pieces.iter().enumerate() {
        match *piece {
            Piece::Wording(wording) => {
                text[at..].starts_with(wording).then_some(())?;
                at += wording.len();
            }
            Piece::Hole(hole) => {
                let rest = &text[at..];
                let len = match pieces.get(index + 1) {
                    Some(Piece::Wording(next)) => rest.find(next)?,
                    Some(Piece::Hole(_)) => metadata_start(rest),
                    None => rest.len(),
                };
                let covered = &rest[..len];
                fits(hole, covered).then_some(())?;
                holes.push((hole, covered));
                at += len;
            }
        }
    }
    (at == text.len()).then_some(holes)
}

/// Where the metadata Claude Desktop appends starts, or the end.
fn metadata_start(text: &str) -> usize {
    if text.ends_with(" {") {
        return text.len() - 2;
    }
    METADATA
        .iter()
        .filter_map(|marker| text.rfind(marker))
        .max()
        .unwrap_or(text.len())
}

/// Whether a hole that can refuse a text takes it.
fn fits(hole: Hole, text: &str) -> bool {
    match hole {
        Hole::Session => session_fits(text),
        Hole::Route => {
            let (route, session) = text.split_at(text.find(" (").unwrap_or(text.len()));
            let ends = route.split_once(" → ").or_else(|| route.split_once(" -> "));
            ends.is_some_and(|(from, to)| ENDS.contains(&from) && ENDS.contains(&to))
                && session_fits(session)
        }
        Hole::Report => crate::decode::is_report(text),
        _ => true,
    }
}

fn session_fits(text: &str) -> bool {
    text.is_empty()
        || text
            .strip_prefix(" (session ")
            .and_then(|rest| rest.strip_suffix(')'))
            .is_some_and(is_id)
}

fn is_id(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 128
        && !text.contains(|c: char| c.is_whitespace() || "'\"`".contains(c))
}

/// A number of at most six digits, or a duration (`412ms`, `60s`, `1.5s`).
fn is_number(text: &str) -> bool {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &text[digits.len()..];
    let integer = digits.split('.').next().unwrap_or("");
    !digits.is_empty()
        && digits.bytes().all(|c| c.is_ascii_digit() || c == b'.')
        && (["ms", "s", "m", "h"].contains(&unit) || (unit.is_empty() && integer.len() <= 6))
}

/// One sentence redacted by the first of `templates` it matches, or
/// replaced whole. Returns the scanner of a message it leaves open.
pub(super) fn sentence(
    text: &str,
    templates: &[&'static str],
    names: &mut Names,
    out: &mut String,
) -> Option<Scanner> {
    let Some(holes) = templates
        .iter()
        .find_map(|template| Some((template, matched(template, text)?)))
    else {
        push_free(text, out);
        return None;
    };
    let (template, holes) = holes;
    let mut holes = holes.into_iter();
    let mut open = None;
    for piece in pieces(template) {
        match piece {
            Piece::Wording(wording) => out.push_str(wording),
            Piece::Hole(_) => {
                let (hole, covered) = holes.next()?;
                open = fill(hole, covered, names, out).or(open);
            }
        }
    }
    open
}

/// What stays of the text a hole covers.
fn fill(hole: Hole, text: &str, names: &mut Names, out: &mut String) -> Option<Scanner> {
    match hole {
        Hole::Json => return messages(text, names, out),
        Hole::Bytes => return bytes_literal(text, names, out),
        Hole::Name => names.server(text, out),
        Hole::Number if is_number(text) => out.push_str(text),
        Hole::Id if is_id(text) => out.push_str(text),
        Hole::Session | Hole::Route => out.push_str(text),
        Hole::Words => words(text, out),
        Hole::Error | Hole::Report => return error(text, names, out),
        Hole::Free | Hole::Number | Hole::Id => push_free(text, out),
    }
    None
}

/// Messages, or a payload-free summary (kept: a method, an id, keywords).
fn messages(text: &str, names: &mut Names, out: &mut String) -> Option<Scanner> {
    if crate::decode::is_readable_summary(text.trim()) {
        out.push_str(text);
        return None;
    }
    payloads(text, words, names, out)
}

/// `b'...'`: the bytes redacted as messages, the literal's quotes kept.
fn bytes_literal(text: &str, names: &mut Names, out: &mut String) -> Option<Scanner> {
    let quote = match text.get(..2) {
        Some("b'") => '\'',
        Some("b\"") => '"',
        _ => return messages(text, names, out),
    };
    let inner = &text[2..];
    let (inner, closed) = match inner.trim_end().strip_suffix(quote) {
        Some(bytes) => (bytes, &inner[bytes.len()..]),
        None => (inner, ""),
    };
    out.push_str(&text[..2]);
    let open = messages(inner, names, out);
    out.push_str(closed);
    open
}

/// An error: its words, and the message it quotes redacted as a message.
fn error(text: &str, names: &mut Names, out: &mut String) -> Option<Scanner> {
    match crate::decode::quoted_message_at(text) {
        Some(at) => {
            words(&text[..at], out);
            messages(&text[at..], names, out)
        }
        None => {
            words(text, out);
            None
        }
    }
}

/// Wording kept word by word: [`WORDS`], short numbers, punctuation and
/// escapes stay; any other word, and the inside of any quotes, is replaced.
pub(super) fn words(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if c == '\\' {
            let len = 1 + rest[1..].chars().next().map_or(0, char::len_utf8);
            out.push_str(&rest[..len]);
            len
        } else if "'\"`".contains(c) {
            match rest[1..].find(c) {
                Some(0) => {
                    out.push_str(&rest[..2]);
                    2
                }
                Some(end) => {
                    out.push(c);
                    out.push_str(PLACEHOLDER);
                    out.push(c);
                    end + 2
                }
                None => {
                    out.push(c);
                    1
                }
            }
        } else if c.is_alphanumeric() || c == '_' {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let word = &rest[..len];
            let known = WORDS.iter().any(|w| w.eq_ignore_ascii_case(word));
            match known || is_number(word) {
                true => out.push_str(word),
                false => out.push_str(PLACEHOLDER),
            }
            len
        } else {
            out.push(c);
            c.len_utf8()
        };
        rest = &rest[len..];
    }
}

/// A line's prefix as its decoder reads it, with the names its tags hold
/// replaced: servers and users by pseudonyms, SDK loggers kept, any other
/// tag replaced.
pub(super) fn prefix(line: &str, parts: &LineParts, names: &mut Names, out: &mut String) {
    let mut at = 0;
    for (span, tag) in &parts.tags {
        if span.start < at || span.end > parts.sentence {
            continue;
        }
        out.push_str(&line[at..span.start]);
        let text = &line[span.clone()];
        match tag {
            Tag::Server => names.server(text, out),
            Tag::User => names.user(text, out),
            Tag::Logger if LOGGERS.contains(&text.split('.').next().unwrap_or("")) => {
                out.push_str(text)
            }
            Tag::Logger | Tag::Other => out.push_str(PLACEHOLDER),
        }
        at = span.end;
    }
    out.push_str(&line[at..parts.sentence]);
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATES: &[&str] = &[
        "Message from client: {json}",
        "Tool '{free}' failed after {n}: {error}",
        "Using built-in Node.js for MCP server: {name}{json}",
        "{route}:{json}",
        "Child stderr{session}:{free}",
        "Connection state: {words}",
        "{report}",
    ];

    fn redacted(text: &str, names: &mut Names) -> String {
        let mut out = String::new();
        assert!(sentence(text, TEMPLATES, names, &mut out).is_none());
        out
    }

    #[test]
    fn known_wording_stays_and_its_holes_are_filled() {
        let mut names = Names::default();
        for (text, want) in [
            (
                r#"Message from client: {"id":1,"params":{"name":"x"}} { metadata: undefined }"#,
                r#"Message from client: {"id":1,"params":{"name":"redacted"}} { metadata: undefined }"#,
            ),
            (
                r#"Message from client: method="tools/call" id=7 params"#,
                r#"Message from client: method="tools/call" id=7 params"#,
            ),
            (
                "Tool 'lookup_alice' failed after 60s: MCP error -32001: Request timed out",
                "Tool 'redacted' failed after 60s: MCP error -32001: Request timed out",
            ),
            (
                "Tool 'x' failed after 2s: ENOENT /home/alice/secret.txt",
                "Tool 'redacted' failed after 2s: ENOENT /redacted/redacted/redacted.redacted",
            ),
            (
                "Using built-in Node.js for MCP server: acme corp { metadata: undefined }",
                "Using built-in Node.js for MCP server: server-1 { metadata: undefined }",
            ),
            (
                "Using built-in Node.js for MCP server: acme corp",
                "Using built-in Node.js for MCP server: server-1",
            ),
            (
                "Child → SSE (session 45-b): { id: 1, result: { name: 'x' } }",
                "Child → SSE (session 45-b): { id: 1, result: { name: 'redacted' } }",
            ),
            (
                "Child stderr (session 45-b): token=abc",
                "Child stderr (session 45-b): redacted",
            ),
            (
                "Connection state: Error Process exited with code 2 at /home/alice",
                "Connection state: Error Process exited with code 2 at /redacted/redacted",
            ),
            (
                "Unexpected token 'A', \"Alice's s\"... is not valid JSON",
                "Unexpected token 'redacted', \"redacted\"... is not valid JSON",
            ),
            ("Loading /home/alice/.env with token abc", "redacted"),
            ("Stranger → Child: {}", "redacted"),
        ] {
            assert_eq!(redacted(text, &mut names), want, "{text}");
        }
    }

    #[test]
    fn each_name_keeps_its_pseudonym() {
        let mut names = Names::default();
        let mut out = String::new();
        for name in ["b", "a", "b"] {
            names.server(name, &mut out);
            out.push(' ');
        }
        names.user("b", &mut out);
        assert_eq!(out, "server-1 server-2 server-1 user-1");
    }

    #[test]
    fn prefixes_keep_their_shape_and_lose_their_names() {
        let line = "t [MCP][User: u1][srv][tool] x";
        let parts = LineParts {
            tags: vec![
                (14..16, Tag::User),
                (18..21, Tag::Server),
                (23..27, Tag::Other),
            ],
            sentence: 29,
        };
        let mut out = String::new();
        prefix(line, &parts, &mut Names::default(), &mut out);
        assert_eq!(out, "t [MCP][User: user-1][server-1][redacted] ");
        let line = "t - mcp.server.sse - app.secret - DEBUG - x";
        let parts = LineParts {
            tags: vec![(4..18, Tag::Logger), (21..31, Tag::Logger)],
            sentence: 42,
        };
        let mut out = String::new();
        prefix(line, &parts, &mut Names::default(), &mut out);
        assert_eq!(out, "t - mcp.server.sse - redacted - DEBUG - ");
    }
}
