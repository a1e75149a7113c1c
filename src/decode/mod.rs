//! Decode: bytes of one input -> lean events, in parallel over newline-aligned chunks.
//!
//! Every function here is pure: a chunk decodes the same way on any thread,
//! which is what makes the output independent of the thread count.

mod claude_code;
mod claude_log;
mod client_report;
mod cursor_log;
mod document;
mod entries;
pub use entries::EventSink;
mod causal;
mod framing;
mod go_sdk;
mod har;
mod http;
mod inspector;
mod inspector_network;
mod js_literal;
mod json;
mod jsonl;
mod logline;
mod mcpsnoop;
mod mcpspy;
mod payload_free;
mod proxy_logs;
mod python_sdk;
pub mod sse;
mod supergateway;
pub mod timestamp;
mod vscode_log;

use serde::Deserialize;
use serde_json::value::RawValue;

/// What `mcp-lint redact` needs of the decoders of logs: the parts of a
/// line each reads (`None`: a line its client did not write), the failures
/// clients report, and the payload-free summaries of messages.
pub(crate) use claude_code::line_parts as claude_code_line_parts;
pub(crate) use claude_log::line_parts as claude_log_line_parts;
pub(crate) use client_report::{is_report, quoted_message_at};
pub(crate) use cursor_log::line_parts as cursor_line_parts;
pub(crate) use go_sdk::line_parts as go_sdk_line_parts;
pub(crate) use logline::{LineParts, Tag};
pub(crate) use payload_free::is_readable_summary;
pub(crate) use proxy_logs::{librechat_line_parts, mcp_remote_line_parts};
pub(crate) use python_sdk::line_parts as python_sdk_line_parts;
pub(crate) use supergateway::line_parts as supergateway_line_parts;
pub(crate) use vscode_log::line_parts as vscode_line_parts;

use crate::event::{Event, Location};

/// The input formats this module reads; [`Format::description`] says what
/// each is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Canonical,
    Bare,
    Har,
    ClaudeLog,
    VscodeLog,
    Mcpsnoop,
    Inspector,
    InspectorNetwork,
    ClaudeCode,
    CursorLog,
    Supergateway,
    GoSdkLog,
    PythonSdkLog,
    Mcpspy,
    LibrechatLog,
    McpRemoteLog,
    /// Detected only, never asked for: it gives one finding rather than one per line.
    Unknown,
}

impl Format {
    /// The formats `--input-format` can name (all but `Unknown`).
    pub const SELECTABLE: &'static [Format] = &[
        Format::Canonical,
        Format::Bare,
        Format::Har,
        Format::ClaudeLog,
        Format::VscodeLog,
        Format::Mcpsnoop,
        Format::Inspector,
        Format::InspectorNetwork,
        Format::ClaudeCode,
        Format::CursorLog,
        Format::Supergateway,
        Format::GoSdkLog,
        Format::PythonSdkLog,
        Format::Mcpspy,
        Format::LibrechatLog,
        Format::McpRemoteLog,
    ];

    /// The logs that clients, proxies and tracing tools write, each in its own layout.
    pub const LOGS: &'static [Format] = &[
        Format::ClaudeLog,
        Format::VscodeLog,
        Format::ClaudeCode,
        Format::CursorLog,
        Format::Supergateway,
        Format::GoSdkLog,
        Format::PythonSdkLog,
        Format::Mcpspy,
        Format::LibrechatLog,
        Format::McpRemoteLog,
    ];

    /// What the format is, in one line (shown by `--help`).
    pub fn description(self) -> &'static str {
        match self {
            Format::Canonical => "`{\"ts\":…,\"from\":\"client\",\"session\":\"s1\",\"msg\":{…}}` per line",
            Format::Bare => "One JSON-RPC message per line, no envelope; directions are inferred",
            Format::Har => "A HAR 1.2 capture of Streamable HTTP (browser devtools, Playwright, mitmproxy)",
            Format::ClaudeLog => "Claude Desktop's mcp.log or mcp-server-NAME.log",
            Format::VscodeLog => "VS Code's \"MCP: <server>\" output channel (log level Debug or Trace)",
            Format::Mcpsnoop => "An mcpsnoop session log (JSON lines, one observed frame each)",
            Format::Inspector => "An MCP Inspector protocol-history export (History screen, Export JSON)",
            Format::InspectorNetwork => "An MCP Inspector network export (Network screen, Export JSON)",
            Format::ClaudeCode => "Claude Code's mcp-logs-SERVER/*.jsonl, its debug log, or its VS Code channel: failures the client reports",
            Format::CursorLog => "Cursor's \"MCP Logs\" output channel: failures the client reports",
            Format::Supergateway => "supergateway's log (text, or --logFormat json): the messages the bridge passed",
            Format::GoSdkLog => "The Go SDK's LoggingTransport output (read: / write: lines)",
            Format::PythonSdkLog => "The Python SDK's logging output: an SSE server at DEBUG, a client's parse failures",
            Format::Mcpspy => "MCPSpy's JSON lines (an eBPF capture of stdio or HTTP)",
            Format::LibrechatLog => "LibreChat's log: failures the client reports",
            Format::McpRemoteLog => "mcp-remote's stderr: failures the client reports",
            Format::Unknown => "A file in no known format",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Canonical => "canonical",
            Format::Bare => "bare",
            Format::Har => "har",
            Format::ClaudeLog => "claude-log",
            Format::VscodeLog => "vscode-log",
            Format::Mcpsnoop => "mcpsnoop",
            Format::Inspector => "inspector",
            Format::InspectorNetwork => "inspector-network",
            Format::ClaudeCode => "claude-code",
            Format::CursorLog => "cursor-log",
            Format::Supergateway => "supergateway",
            Format::GoSdkLog => "go-sdk-log",
            Format::PythonSdkLog => "python-sdk-log",
            Format::Mcpspy => "mcpspy",
            Format::LibrechatLog => "librechat-log",
            Format::McpRemoteLog => "mcp-remote-log",
            Format::Unknown => "unknown",
        }
    }

    /// Whether an input in this format is one document, decoded whole,
    /// rather than independent lines decoded in chunks. The logs are read
    /// whole because a line's session depends on the lines before it.
    pub fn is_document(self) -> bool {
        matches!(
            self,
            Format::Har
                | Format::ClaudeLog
                | Format::VscodeLog
                | Format::Inspector
                | Format::InspectorNetwork
                | Format::ClaudeCode
                | Format::CursorLog
                | Format::Supergateway
                | Format::GoSdkLog
                | Format::PythonSdkLog
                | Format::Mcpspy
                | Format::LibrechatLog
                | Format::McpRemoteLog
                | Format::Unknown
        )
    }
}

/// Guesses the format from the content: a document format from its start,
/// a line format from the first lines that it recognises.
pub fn detect(bytes: &[u8]) -> Format {
    if har::sniff(bytes) {
        return Format::Har;
    }
    if let Some(format) = inspector::sniff(bytes) {
        return format;
    }
    if claude_code::sniff(bytes) {
        return Format::ClaudeCode;
    }
    if supergateway::sniff_json(bytes) {
        return Format::Supergateway;
    }
    if mcpspy::sniff(bytes) {
        return Format::Mcpspy;
    }
    detect_log(bytes).unwrap_or_else(|| detect_lines(bytes))
}

/// Whether a line is one only a given log format would hold.
type IsMarker = fn(&[u8]) -> bool;

/// The log formats, each with the test of a line only it would hold, in the
/// order they are tried (the more specific shapes first).
const LOG_MARKERS: &[(IsMarker, Format)] = &[
    (claude_log::is_marker, Format::ClaudeLog),
    (vscode_log::is_marker, Format::VscodeLog),
    (claude_code::is_marker, Format::ClaudeCode),
    (cursor_log::is_marker, Format::CursorLog),
    (supergateway::is_marker, Format::Supergateway),
    (go_sdk::is_marker, Format::GoSdkLog),
    (python_sdk::is_marker, Format::PythonSdkLog),
    (proxy_logs::is_librechat_marker, Format::LibrechatLog),
    (proxy_logs::is_mcp_remote_marker, Format::McpRemoteLog),
];

/// A client's text log, recognised from its first lines: the first line a
/// log format claims decides, and a line of JSON ends the search (the input
/// is then a JSON-lines trace, even if some lines before it were noise).
fn detect_log(bytes: &[u8]) -> Option<Format> {
    let head = &bytes[..bytes.len().min(1 << 20)];
    for (_, _, line) in lines(head).take(1000) {
        let trimmed = line.trim_ascii_start();
        if (trimmed.starts_with(b"{") || trimmed.starts_with(b"["))
            && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
        {
            return None;
        }
        if let Some((_, format)) = LOG_MARKERS.iter().find(|(is_marker, _)| is_marker(line)) {
            return Some(*format);
        }
    }
    None
}

fn detect_lines(bytes: &[u8]) -> Format {
    #[derive(Deserialize)]
    struct Sniff<'a> {
        #[serde(borrow)]
        msg: Option<&'a RawValue>,
        #[serde(borrow)]
        event: Option<&'a RawValue>,
        #[serde(borrow)]
        from: Option<&'a RawValue>,
        #[serde(borrow)]
        jsonrpc: Option<&'a RawValue>,
        #[serde(borrow)]
        method: Option<&'a RawValue>,
        #[serde(borrow)]
        session_id: Option<&'a RawValue>,
        #[serde(borrow)]
        direction: Option<&'a RawValue>,
    }
    let mut any_json = false;
    for line in bytes
        .split(|b| *b == b'\n')
        .filter(|l| !is_blank(l))
        .take(64)
    {
        // A line that opens a JSON object, even a cut one, makes it a trace;
        // a lone `{` (pretty-printed JSON) or a `[section]` (TOML, INI) does not.
        any_json |= opens_object(line);
        if line.trim_ascii_start().starts_with(b"[")
            && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
        {
            return Format::Bare;
        }
        // The first value of the line: a capture whose line holds two
        // messages (a framing fault) is still a capture.
        let first = serde_json::Deserializer::from_slice(line)
            .into_iter::<Sniff>()
            .next();
        if let Some(Ok(sniff)) = first {
            if sniff.msg.is_some() || sniff.event.is_some() || sniff.from.is_some() {
                return Format::Canonical;
            }
            if sniff.session_id.is_some() && sniff.direction.is_some() {
                return Format::Mcpsnoop;
            }
            if sniff.jsonrpc.is_some() || sniff.method.is_some() {
                return Format::Bare;
            }
        }
    }
    let empty = bytes.iter().all(u8::is_ascii_whitespace);
    if (any_json && !is_binary(bytes)) || empty {
        Format::Canonical
    } else {
        Format::Unknown
    }
}

/// Whether a line starts a JSON object or a batch of them, even a cut one:
/// `{"`, `{}` or `[{`, spaces allowed.
fn opens_object(line: &[u8]) -> bool {
    let line = line.trim_ascii_start();
    let after = |open: &[u8]| line.strip_prefix(open).map(<[u8]>::trim_ascii_start);
    after(b"{").is_some_and(|rest| rest.starts_with(b"\"") || rest.starts_with(b"}"))
        || after(b"[").is_some_and(|rest| rest.starts_with(b"{"))
}

/// Whether the start of an input holds a NUL byte, which no JSON line or
/// UTF-8 text log does: a binary file, or text in UTF-16.
fn is_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some()
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// The events of a chunk. Line numbers are relative to the chunk (the first
/// line is 1) until the caller rebases them.
#[derive(Debug, Default)]
pub struct DecodedChunk {
    pub events: Vec<Event>,
    pub lines: u64,
}

/// Every line of `bytes`: its 1-based number, the byte offset where it
/// starts, and its text without the line terminator (LF or CRLF). A final
/// line without a newline (a recording still being written) counts too.
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = (u64, usize, &[u8])> {
    let ends = memchr::memchr_iter(b'\n', bytes)
        .chain((bytes.last().is_some_and(|b| *b != b'\n')).then_some(bytes.len()));
    let mut start = 0usize;
    ends.enumerate().map(move |(index, end)| {
        let mut line = &bytes[start..end];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        let item = (index as u64 + 1, start, line);
        start = end + 1;
        item
    })
}

/// The location of a whole line.
pub(crate) fn line_location(source: u32, number: u64, offset: u64, line: &[u8]) -> Location {
    Location {
        source,
        line: number,
        offset,
        len: u32::try_from(line.len()).unwrap_or(u32::MAX),
    }
}

/// Decodes every line of `chunk`, which starts at byte `offset` of its input.
pub fn decode_chunk(chunk: &[u8], offset: u64, source: u32, format: Format) -> DecodedChunk {
    decode_chunk_into(chunk, offset, source, format, Vec::new())
}

/// [`decode_chunk`] into `events`, emptied first: a vector a previous chunk
/// used, so that a long input does not allocate and free one per chunk.
pub fn decode_chunk_into(
    chunk: &[u8],
    offset: u64,
    source: u32,
    format: Format,
    mut events: Vec<Event>,
) -> DecodedChunk {
    events.clear();
    // About one event per 200 bytes of trace: grow rarely.
    events.reserve(chunk.len() / 200 + 16);
    json::decoding_shared(chunk, |chunk| {
        let mut decoded = DecodedChunk { events, lines: 0 };
        // A bare capture is the stdio stream itself: its framing is checked.
        if format == Format::Bare {
            framing::decode_bare(chunk, offset, source, &mut decoded);
            return decoded;
        }
        for (number, start, line) in lines(chunk) {
            decoded.lines = number;
            if !is_blank(line) {
                let location = line_location(source, number, offset + start as u64, line);
                decode_line(line, location, format, &mut decoded.events);
            }
        }
        if format == Format::Canonical {
            framing::reframe_recorded(&mut decoded.events);
        }
        decoded
    })
}

/// Gives `sink` the events of a whole-document format in trace order. A HAR
/// capture is streamed entry by entry, telling `release` the byte ranges it
/// is done with for now; other formats are decoded whole first.
pub fn stream_document(
    bytes: &[u8],
    source: u32,
    format: Format,
    release: &mut (dyn FnMut(std::ops::Range<usize>) + Send),
    sink: &mut dyn EventSink,
) {
    match format {
        Format::Har => har::stream(bytes, source, release, sink),
        _ => {
            for event in decode_document(bytes, source, format) {
                sink.take(event);
            }
            sink.flush();
        }
    }
}

/// Decodes a whole input of a document format into events in trace order.
pub fn decode_document(bytes: &[u8], source: u32, format: Format) -> Vec<Event> {
    match format {
        Format::Har => har::decode(bytes, source),
        Format::ClaudeLog => claude_log::decode(bytes, source),
        Format::VscodeLog => vscode_log::decode(bytes, source),
        Format::Inspector => inspector::decode(bytes, source),
        Format::InspectorNetwork => inspector_network::decode(bytes, source),
        Format::ClaudeCode => claude_code::decode(bytes, source),
        Format::CursorLog => cursor_log::decode(bytes, source),
        Format::Supergateway => supergateway::decode(bytes, source),
        Format::GoSdkLog => go_sdk::decode(bytes, source),
        Format::PythonSdkLog => python_sdk::decode(bytes, source),
        Format::Mcpspy => mcpspy::decode(bytes, source),
        Format::LibrechatLog => proxy_logs::decode_librechat(bytes, source),
        Format::McpRemoteLog => proxy_logs::decode_mcp_remote(bytes, source),
        Format::Unknown => unknown_format(bytes, source),
        Format::Canonical | Format::Bare | Format::Mcpsnoop => {
            let mut chunk = decode_chunk(bytes, 0, source, format);
            std::mem::take(&mut chunk.events)
        }
    }
}

/// An input read in regions (see [`read_regions`](crate::input::read_regions)).
pub struct ReadInput {
    /// The format given, or detected from the first region; `None` for an
    /// empty input.
    pub format: Option<Format>,
    /// For a document format, the document gathered whole (see
    /// `document_copy`): it cannot be decoded piecewise.
    pub document: Option<crate::document_copy::Gathered>,
    /// The bytes read, or why reading stopped.
    pub read: std::io::Result<u64>,
}

/// Reads an input in regions of whole lines of about `region` bytes
/// (`size`: about how many in all, 0 when unknown), copying them to
/// `spool`; the regions of a line format go to `lines` as they are read.
pub fn read_input(
    reader: impl std::io::Read + Send,
    (region, size): (usize, usize),
    spool: Option<&mut (dyn std::io::Write + Send)>,
    given: Option<Format>,
    mut lines: impl FnMut(Format, u64, &[u8]),
) -> ReadInput {
    use crate::document_copy::Gathering;
    let mut format = None;
    let mut document: Option<Gathering> = None;
    let read = crate::input::read_regions(reader, region, spool, |offset, bytes| {
        let format = *format.get_or_insert_with(|| given.unwrap_or_else(|| detect(bytes)));
        match format.is_document() {
            true => document
                .get_or_insert_with(|| Gathering::new(size.max(bytes.len())))
                .append(bytes),
            false => lines(format, offset, bytes),
        }
    });
    let document = format
        .filter(|format| format.is_document())
        .map(|_| document.unwrap_or_default().finish());
    ReadInput {
        format,
        document,
        read,
    }
}

/// Decodes an input again, in order, handing each event to `each` without
/// holding them (for reports that redraw the trace): read as the linter
/// reads it.
pub fn replay(
    reader: impl std::io::Read + Send,
    source: u32,
    each: &mut (dyn FnMut(Event) + Send),
) -> std::io::Result<()> {
    const REGION: usize = 4 << 20;
    let mut lines_before = 0;
    let input = read_input(reader, (REGION, 0), None, None, |format, offset, bytes| {
        let chunk = decode_chunk(bytes, offset, source, format);
        for mut event in chunk.events {
            event.location.line += lines_before;
            each(event);
        }
        lines_before += chunk.lines;
    });
    if let (Some(format), Some(document)) = (input.format, &input.document) {
        let release = &mut |range| document.release(range);
        stream_document(
            document.bytes(),
            source,
            format,
            release,
            &mut EachEvent(each),
        );
    }
    input.read.map(|_| ())
}

/// A function as an [`EventSink`].
struct EachEvent<'f>(&'f mut (dyn FnMut(Event) + Send));

impl EventSink for EachEvent<'_> {
    fn take(&mut self, event: Event) {
        (self.0)(event);
    }
}

/// The one event of a file in no known format, at its first line: one
/// finding says so, where one per line would bury it.
fn unknown_format(bytes: &[u8], source: u32) -> Vec<Event> {
    let Some((number, start, line)) = lines(bytes).find(|(_, _, l)| !is_blank(l)) else {
        return Vec::new();
    };
    let why = if is_binary(bytes) {
        "the file is not an MCP trace in any known format: it is binary (it holds NUL bytes; a trace saved as UTF-16 must be saved again as UTF-8)"
    } else {
        "the file is not an MCP trace in any known format: no line is JSON or a line of a known client's log (name the format with --input-format if it is one)"
    };
    vec![Event::unreadable(
        line_location(source, number, start as u64, line),
        crate::event::Unreadable::Json(why.into()),
    )]
}

/// Decodes one line of a line-based format into zero or more events (a
/// batch gives one per message).
pub fn decode_line(line: &[u8], location: Location, format: Format, out: &mut Vec<Event>) {
    match format {
        Format::Canonical => jsonl::decode_line(line, location, false, out),
        Format::Bare => jsonl::decode_line(line, location, true, out),
        Format::Mcpsnoop => mcpsnoop::decode_line(line, location, out),
        // Every other format is a document (see `Format::is_document`).
        document => {
            unreachable!("a {} input is decoded as one document", document.name())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Body, Message};
    use crate::event::{Payload, Side, Transport, Unreadable};

    fn decode(text: &str, format: Format) -> DecodedChunk {
        decode_chunk(text.as_bytes(), 0, 0, format)
    }

    #[test]
    fn detects_formats() {
        assert_eq!(
            detect(b"\n{\"from\":\"client\",\"msg\":{}}\n"),
            Format::Canonical
        );
        assert_eq!(
            detect(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"),
            Format::Bare
        );
        assert_eq!(
            detect(b"garbage\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"),
            Format::Bare
        );
        assert_eq!(detect(b""), Format::Canonical);
    }

    #[test]
    fn detects_logs_without_stealing_json_lines() {
        let claude = b"Installed 55 packages in 32ms\n2025-07-12T05:51:44.598Z [chatlog] [info] Server started and connected successfully { metadata: undefined }\n";
        assert_eq!(detect(claude), Format::ClaudeLog);
        // A JSON line before any log line: a JSON-lines trace with noise in it.
        assert_eq!(
            detect(b"{\"from\":\"client\",\"msg\":{}}\n2025-07-12T05:51:44.601Z [c] [info] Message from client: {}\n"),
            Format::Canonical
        );
        let payload_free = b"2026-08-13T07:09:45.382Z [info] [codebase-memory-mcp] Message from client: method=\"initialize\" id=0 params\n";
        assert_eq!(detect(payload_free), Format::ClaudeLog);
        for claude_code in [
            &b"{\"debug\":\"Calling MCP tool: x\",\"timestamp\":\"2026-07-07T12:49:41.279Z\",\"sessionId\":\"6c47\",\"cwd\":\"/p\"}\n"[..],
            b"[\n  {\n    \"debug\": \"Node version: v22.19.0\",\n    \"timestamp\": \"2025-10-13T17:57:36.153Z\",\n    \"sessionId\": \"a7a0\"\n  }\n]\n",
            b"2026-03-02T18:44:16.120Z [DEBUG] [STARTUP] Loading MCP configs...\n2026-03-02T18:44:16.136Z [DEBUG] MCP server \"m\": Starting connection with timeout of 30000ms\n",
            b"2026-04-21 17:12:19.227 [info] From claude: 2026-04-21T11:42:19.227Z [DEBUG] Error log sink initialized\n",
        ] {
            assert_eq!(detect(claude_code), Format::ClaudeCode);
        }
        for cursor in [
            &b"2025-02-25 01:21:18.277 [info] db10: Handling CreateClient action\n"[..],
            b"2025-07-10 10:49:36.646 [error] user-wirewiki: Client error for command Unexpected token 'S', \"Starting MCP server\" is not valid JSON\n",
            b"2026-05-23 19:00:29.146 [info] [V2 FSM] connection:connect_success: conn=connecting,auth=unknown -> conn=connected,auth=unknown\n",
        ] {
            assert_eq!(detect(cursor), Format::CursorLog);
        }
        for supergateway in [
            &b"[supergateway] Starting...\n"[..],
            b"gateway-1  | [supergateway] New SSE connection from ::1\n",
            "{\"time\":\"2026-03-02T10:00:00.000Z\",\"level\":\"info\",\"msg\":\"Listening on port 8000\"}\n{\"time\":\"2026-03-02T10:00:01.000Z\",\"level\":\"info\",\"msg\":\"Child → SSE (session a):\",\"data\":{}}\n".as_bytes(),
        ] {
            assert_eq!(detect(supergateway), Format::Supergateway);
        }
        assert_eq!(
            detect(b"write: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n"),
            Format::GoSdkLog
        );
        assert_eq!(
            detect(b"2025-04-16 06:13:26,400 - mcp.server.sse - DEBUG - Received JSON: b'{}'\n"),
            Format::PythonSdkLog
        );
        assert_eq!(
            detect(b"2025-04-28T00:00:19.555Z debug: [MCP][everything] Transport sending: {}\n"),
            Format::LibrechatLog
        );
        assert_eq!(
            detect("[63643] [Local→Remote] initialize\n".as_bytes()),
            Format::McpRemoteLog
        );
        // Another program's JSON log is not supergateway's.
        assert_eq!(
            detect(b"{\"time\":\"2026-03-02T10:00:00Z\",\"level\":\"info\",\"msg\":\"ready\"}\n"),
            Format::Canonical
        );
        let vscode = b"2026-07-24 02:03:14.031 [info] Starting server mcp-taskfile-server\n2026-07-24 02:03:14.031 [info] Connection state: Starting\n";
        assert_eq!(detect(vscode), Format::VscodeLog);
        assert_eq!(
            detect(b"{\"session_id\":\"s\",\"seq\":1,\"direction\":\"meta\",\"raw\":{\"command\":[\"x\"]}}\n"),
            Format::Mcpsnoop
        );
        // Other programs' logs (nothing about MCP) are not claimed by a
        // client log format: without a JSON line they are in no known format.
        assert_eq!(
            detect(b"2025-07-12T05:51:44.601Z [info] Starting app\n"),
            Format::Unknown
        );
        assert_eq!(
            detect(b"2025-07-12T05:51:44.601Z [INFO] Starting app\n"),
            Format::Unknown
        );
        // A cut JSON line is still a trace (its line is reported).
        assert_eq!(detect(b"{\"from\":\"cli"), Format::Canonical);
        assert_eq!(
            detect(b"[{\"jsonrpc\":\"2.0\",\"id\":1,"),
            Format::Canonical
        );
        assert_eq!(detect(b"{}\n{ }\n"), Format::Canonical);
    }

    #[test]
    fn other_files_are_in_no_known_format() {
        for other in [
            &b"[[package]]\nname = \"a\"\n"[..],
            b"{\n  \"name\": \"x\"\n}\n",
            b"# A README\n\nSome text.\n",
            b"\x7fELF\x02\x01\x01\x00\x00\n{\"from\":\"client\"\n",
        ] {
            assert_eq!(
                detect(other),
                Format::Unknown,
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }

    #[test]
    fn lines_are_numbered_and_blank_lines_counted() {
        let d = decode(
            "{\"from\":\"client\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}\r\n\n  \n{\"from\":\"server\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}",
            Format::Canonical,
        );
        assert_eq!(d.lines, 4);
        assert_eq!(d.events.len(), 2);
        assert_eq!(d.events[0].location.line, 1);
        assert_eq!(d.events[1].location.line, 4);
        assert_eq!(d.events[1].from, Some(Side::Server));
        assert!(matches!(
            d.events[1].payload,
            Payload::Message(Message {
                body: Body::Response { .. },
                ..
            })
        ));
    }

    #[test]
    fn bad_lines_become_unreadable_events() {
        let d = decode_chunk(
            b"not json\n[1]\n{\"msg\":{}}\n{\"from\":\"proxy\",\"msg\":{}}\n{\"from\":\"client\",\"ts\":\"noon\",\"msg\":{}}\n\xff\n",
            0,
            0,
            Format::Canonical,
        );
        let kinds: Vec<_> = d
            .events
            .iter()
            .map(|e| match &e.payload {
                Payload::Unreadable(Unreadable::Json(_)) => "json",
                Payload::Unreadable(Unreadable::Envelope(_)) => "envelope",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            ["json", "envelope", "envelope", "envelope", "envelope", "json"]
        );
    }

    #[test]
    fn a_batch_gives_one_event_per_message() {
        let d = decode(
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#,
            Format::Bare,
        );
        assert_eq!(d.events.len(), 2);
        assert!(d
            .events
            .iter()
            .all(|e| e.location.line == 1 && e.from.is_none()));
    }

    #[test]
    fn transport_events_and_envelope_fields() {
        let d = decode(
            r#"{"ts":1000,"from":"server","session":7,"stream":"get","event":"closed"}"#,
            Format::Canonical,
        );
        let e = &d.events[0];
        assert_eq!(e.payload, Payload::Transport(Transport::Closed));
        assert_eq!(e.session.as_deref(), Some("7"));
        assert_eq!(e.stream.as_deref(), Some("get"));
        assert_eq!(e.time_ms, Some(1000.0));
    }
}
