//! Where each input format keeps its messages, bodies, headers and
//! sentences: a shape per record and a layout per format, as data. What the
//! decoders read stays; the rest of a record is kept unless it is free text.

use super::context::{Context, Shape};
use super::text::TextLog;
use super::walk::{Continues, Layout};
use crate::decode::Format;

const fn shape(shape: &'static Shape) -> Context {
    Context::Shape(shape)
}

/// The envelope's members the decoder reads stay; any other may be anything.
static CANONICAL: Shape = Shape {
    members: &[
        ("msg", Context::Message),
        ("ts", Context::Keep),
        ("from", Context::Keep),
        ("session", Context::Label("session")),
        ("stream", Context::Label("stream")),
        ("event", Context::Keep),
    ],
    others: Context::Free,
};

static MCPSNOOP: Shape = Shape {
    members: &[
        ("raw", Context::Message),
        ("session_id", Context::Label("session")),
        ("ts", Context::Keep),
        ("direction", Context::Keep),
        ("transport", Context::Keep),
        ("conn_id", Context::Label("stream")),
        ("truncated", Context::Keep),
    ],
    others: Context::Free,
};

/// MCPSpy's record is the message's members beside the raw line.
static MCPSPY: Shape = Shape {
    members: &[
        ("raw", Context::Message),
        ("timestamp", Context::Keep),
        ("transport_type", Context::Keep),
        ("stdio_transport", Context::Keep),
        ("http_transport", shape(&MCPSPY_HTTP)),
        ("session", Context::Keep),
    ],
    others: Context::Protocol,
};

static MCPSPY_HTTP: Shape = Shape {
    members: &[
        ("request_headers", Context::Headers),
        ("response_headers", Context::Headers),
        ("headers", Context::Headers),
    ],
    others: Context::Keep,
};

/// supergateway's JSON layout: its record's time and level, a sentence,
/// and a message.
static SUPERGATEWAY: Shape = Shape {
    members: &[
        ("data", Context::Message),
        ("msg", Context::Sentence(&SUPERGATEWAY_SENTENCE)),
        ("time", Context::Keep),
        ("level", Context::Keep),
    ],
    others: Context::Free,
};

/// supergateway's sentences, in its text layout and its JSON `msg`.
const SUPERGATEWAY_SENTENCES: &[&str] = &[
    "Child non-JSON{session}:{free}",
    "Child stderr{session}:{free}",
    "{route}:{json}",
    "[{id}] {route}:{json}",
    "Client disconnected{session}",
    "SSE connection closed{session}",
    "Child exited{words}",
    "POST to SSE transport{session}",
    "New SSE connection from {free}",
    "Starting...",
    "Supergateway is supported by Supermachine (hosted MCPs) - https://supermachine.ai",
    "  - port: {n}",
    "  - {id}: {free}",
    "Listening on port {n}",
    "SSE endpoint: {free}",
    "POST messages: {free}",
];

static SUPERGATEWAY_SENTENCE: TextLog = TextLog {
    parts: None,
    sentences: Some(SUPERGATEWAY_SENTENCES),
};

static SUPERGATEWAY_TEXT: TextLog = TextLog {
    parts: Some(crate::decode::supergateway_line_parts),
    sentences: Some(SUPERGATEWAY_SENTENCES),
};

/// Claude Code's per-server records: the decoder reads the text, the time
/// and the session.
static CLAUDE_CODE: Shape = Shape {
    members: &[
        ("debug", Context::Sentence(&CLAUDE_CODE_SENTENCE)),
        ("info", Context::Sentence(&CLAUDE_CODE_SENTENCE)),
        ("error", Context::Sentence(&CLAUDE_CODE_SENTENCE)),
        ("timestamp", Context::Keep),
        ("sessionId", Context::Keep),
    ],
    others: Context::Free,
};

/// Claude Code's sentences, in its records and its debug log. Tool names
/// go, as they do from messages.
const CLAUDE_CODE_SENTENCES: &[&str] = &[
    "Starting connection with timeout of {n}",
    "Successfully connected (transport: {words}) in {n}",
    "Connection established with capabilities: {json}",
    "Calling MCP tool: {free}",
    "Tool '{free}' completed successfully in {n}",
    "Tool '{free}' still running ({n} elapsed)",
    "Tool '{free}' failed after {n}: {error}",
    "STDIO connection dropped after {n} uptime",
    "Connection error: {error}",
    "Connection failed after {n}: {error}",
    "Closing transport ({words})",
    "Elicitation request received in print mode: {json}",
    "notifications/claude/channel: {free}",
    "Server stderr:{free}",
    "[STARTUP] Loading MCP configs...",
    "[STARTUP] MCP configs resolved in {n} (awaited at +{n})",
    "Error: {report}",
    "{report}",
];

static CLAUDE_CODE_SENTENCE: TextLog = TextLog {
    parts: None,
    sentences: Some(CLAUDE_CODE_SENTENCES),
};

/// The debug log: its stderr goes on in lines Claude Code did not write.
static CLAUDE_CODE_DEBUG: TextLog = TextLog {
    parts: Some(crate::decode::claude_code_line_parts),
    sentences: Some(CLAUDE_CODE_SENTENCES),
};

static INSPECTOR: Shape = Shape {
    members: &[
        ("message", Context::Message),
        ("response", Context::Message),
    ],
    others: Context::Keep,
};

static INSPECTOR_NETWORK: Shape = Shape {
    members: &[
        ("url", Context::Url),
        ("requestHeaders", Context::Headers),
        ("responseHeaders", Context::Headers),
        ("requestBody", Context::Body),
        ("responseBody", Context::Body),
        ("error", Context::Free),
    ],
    others: Context::Keep,
};

static HAR: Shape = Shape {
    members: &[("log", shape(&HAR_LOG))],
    others: Context::Keep,
};

/// A HAR log: its pages (titles are URLs) and anything a browser adds go.
static HAR_LOG: Shape = Shape {
    members: &[
        ("entries", shape(&HAR_ENTRY)),
        ("version", Context::Keep),
        ("creator", Context::Keep),
        ("browser", Context::Keep),
    ],
    others: Context::Free,
};

/// An entry: what the decoder reads stays; the server's address, the
/// connection, the initiator's stack and anything else go.
static HAR_ENTRY: Shape = Shape {
    members: &[
        ("request", shape(&HAR_REQUEST)),
        ("response", shape(&HAR_RESPONSE)),
        ("_eventSourceMessages", shape(&HAR_EVENT)),
        ("startedDateTime", Context::Keep),
        ("time", Context::Keep),
        ("timings", Context::Keep),
        ("_error", Context::Keep),
        ("_failureText", Context::Keep),
    ],
    others: Context::Free,
};

static HAR_REQUEST: Shape = Shape {
    members: &[
        ("url", Context::Url),
        ("headers", Context::Headers),
        ("postData", shape(&HAR_CONTENT)),
        ("queryString", Context::Free),
        ("cookies", Context::Free),
    ],
    others: Context::Keep,
};

static HAR_RESPONSE: Shape = Shape {
    members: &[
        ("headers", Context::Headers),
        ("content", shape(&HAR_CONTENT)),
        ("cookies", Context::Free),
    ],
    others: Context::Keep,
};

static HAR_CONTENT: Shape = Shape {
    members: &[("text", Context::Body), ("params", Context::Free)],
    others: Context::Keep,
};

static HAR_EVENT: Shape = Shape {
    members: &[("data", Context::Body)],
    others: Context::Keep,
};

/// Claude Desktop's logs: the server's stderr is every line Claude Desktop
/// did not write. Its sentences may end with metadata (`{ metadata: ... }`).
static CLAUDE_LOG: TextLog = TextLog {
    parts: Some(crate::decode::claude_log_line_parts),
    sentences: Some(&[
        "Message from client: {json}",
        "Message from server: {json}",
        "Client transport closed{json}",
        "Server transport closed unexpectedly, this is likely due to the process exiting early. If you are developing this MCP server you can add output to stderr (i.e. `console.error('...')` in JavaScript, `print('...', file=sys.stderr)` in python) and it will appear in this log.{json}",
        "Server transport closed{json}",
        "Initializing server...{json}",
        "Server started and connected successfully{json}",
        "Shutting down server...{json}",
        "Using MCP server command: {free} with args and path: {json}",
        "Using built-in Node.js for MCP server: {name}{json}",
        "Server disconnected. For troubleshooting guidance, please visit our [debugging documentation](https://modelcontextprotocol.io/docs/tools/debugging){json}",
        "{report}{json}",
    ]),
};

static VSCODE_LOG: TextLog = TextLog {
    parts: Some(crate::decode::vscode_line_parts),
    sentences: Some(&[
        "[editor -> server] {json}",
        "[server -> editor] {json}",
        "[Client Says] {json}",
        "[Server Says] {json}",
        "[server stderr] {free}",
        "Connection state: {words}",
        "Starting server from LocalProcess extension host",
        "Starting server {name}",
        "Stopping server {name}",
        "Server command line: {free}",
        "Discovered {n} tools",
        "Server exited before responding to `initialize` request.",
        "Waiting for server to respond to `initialize` request...",
    ]),
};

/// Cursor's channel: the server's stderr is logged as sentences of Cursor's
/// own, so only Cursor's wording stays.
static CURSOR_LOG: TextLog = TextLog {
    parts: Some(crate::decode::cursor_line_parts),
    sentences: Some(&[
        "Client error for command {error}",
        "Client error: {error}",
        "Error in MCP: {error}",
        "Handling CreateClient action",
        "Handling ReloadClient action",
        "Handling ListOfferings action",
        "Handling ListTools action",
        "Handling CallTool action for tool '{free}'",
        "CallTool completed for tool '{free}'",
        "getOrCreateClient for stdio server",
        "Starting new stdio process with command: {free}",
        "CreateClient completed, connected: {words}, statusType: {words}",
        "[V2 FSM] connection:{words}",
    ]),
};

/// The Python SDK's log: a traceback, and the server's stdout line pydantic
/// quotes in it, are lines the SDK's logger did not write.
static PYTHON_LOG: TextLog = TextLog {
    parts: Some(crate::decode::python_sdk_line_parts),
    sentences: Some(&[
        "Received JSON: {bytes}",
        "chunk: {bytes}",
        "Failed to parse JSONRPC message from server{words}",
        "Parsed session ID: {id}",
        "Created new session with ID: {id}",
        "Setting up SSE connection",
        "Handling POST message",
        "Processing request of type {id}",
    ]),
};

static GO_SDK_LOG: TextLog = TextLog {
    parts: Some(crate::decode::go_sdk_line_parts),
    sentences: Some(&[
        "read: {json}",
        "write: {json}",
        "read error: {error}",
        "write error: {error}",
    ]),
};

/// LibreChat: its user, server and tool tags, and its sentences.
static LIBRECHAT_LOG: TextLog = TextLog {
    parts: Some(crate::decode::librechat_line_parts),
    sentences: Some(&[
        "Transport sending: {json}",
        "Creating stdio transport: {free}",
        "Connection successfully established",
        "Calling tool {free}",
        "Tool call failed {error}",
        "{report}",
    ]),
};

static MCP_REMOTE_LOG: TextLog = TextLog {
    parts: Some(crate::decode::mcp_remote_line_parts),
    sentences: Some(&[
        "[Local→Remote] {id}",
        "[Remote→Local] {id}",
        "Using automatically selected callback port: {n}",
        "Connecting to remote server: {free}",
        "Connected to remote server using {words}",
        "Local STDIO server running",
        "Proxy established successfully between local STDIO and remote {words}",
        "Error from remote server: {error}",
        "{report}",
    ]),
};

const fn lines(record: Context) -> Layout {
    Layout {
        record: Some(record),
        text: None,
        continues: Continues::Never,
    }
}

const fn document(record: &'static Shape) -> Layout {
    Layout {
        record: Some(Context::Shape(record)),
        text: None,
        continues: Continues::Always,
    }
}

const fn log(record: Option<Context>, text: &'static TextLog) -> Layout {
    Layout {
        record,
        text: Some(text),
        continues: Continues::Indented,
    }
}

/// The layout of an input of `format`, or why it cannot be redacted.
pub(super) fn layout(format: Format, bytes: &[u8]) -> Result<Layout, String> {
    let starts_with = |byte: u8| bytes.trim_ascii_start().first() == Some(&byte);
    Ok(match format {
        Format::Canonical => lines(shape(&CANONICAL)),
        Format::Bare => lines(Context::Message),
        Format::Mcpsnoop => lines(shape(&MCPSNOOP)),
        Format::Mcpspy => lines(shape(&MCPSPY)),
        Format::Har => document(&HAR),
        Format::Inspector => document(&INSPECTOR),
        Format::InspectorNetwork => document(&INSPECTOR_NETWORK),
        Format::ClaudeCode if starts_with(b'[') => document(&CLAUDE_CODE),
        Format::ClaudeCode => log(Some(shape(&CLAUDE_CODE)), &CLAUDE_CODE_DEBUG),
        Format::Supergateway => log(Some(shape(&SUPERGATEWAY)), &SUPERGATEWAY_TEXT),
        Format::ClaudeLog => log(None, &CLAUDE_LOG),
        Format::VscodeLog => log(None, &VSCODE_LOG),
        Format::CursorLog => log(None, &CURSOR_LOG),
        Format::PythonSdkLog => log(None, &PYTHON_LOG),
        Format::GoSdkLog => log(None, &GO_SDK_LOG),
        Format::LibrechatLog => log(None, &LIBRECHAT_LOG),
        Format::McpRemoteLog => log(None, &MCP_REMOTE_LOG),
        Format::Unknown => {
            return Err("not a trace in any format mcp-lint reads, so it cannot be redacted".into())
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::decode::Format;

    fn redacted(text: &str, format: Format) -> String {
        String::from_utf8(crate::redact::redact(text.as_bytes(), format).unwrap()).unwrap()
    }

    #[test]
    fn json_lines_envelopes_keep_what_their_decoders_read() {
        assert_eq!(
            redacted(
                r#"{"session_id":"s","server_label":"notes","seq":3,"direction":"stderr","text":"secret"}"#,
                Format::Mcpsnoop
            ),
            r#"{"session_id":"session-1","server_label":"redacted","seq":0,"direction":"stderr","text":"redacted"}"#
        );
        assert_eq!(
            redacted(
                r#"{"timestamp":"t","transport_type":"stdio","type":"request","id":2,"params":{"arguments":{"a":"x"}},"raw":"{\"id\":2,\"params\":{\"arguments\":{\"a\":\"x\"}}}"}"#,
                Format::Mcpspy
            ),
            r#"{"timestamp":"t","transport_type":"stdio","type":"request","id":2,"params":{"arguments":{"a":"redacted"}},"raw":"{\"id\":2,\"params\":{\"arguments\":{\"a\":\"redacted\"}}}"}"#
        );
        assert_eq!(
            redacted(
                "{\"time\":\"t\",\"msg\":\"Child stderr: secret\"}\n{\"time\":\"t\",\"msg\":\"Child → StreamableHttp:\",\"data\":{\"id\":1,\"result\":{\"content\":[\"x\"]}}}\n",
                Format::Supergateway
            ),
            "{\"time\":\"t\",\"msg\":\"Child stderr: redacted\"}\n{\"time\":\"t\",\"msg\":\"Child → StreamableHttp:\",\"data\":{\"id\":1,\"result\":{\"content\":[\"redacted\"]}}}\n"
        );
        assert_eq!(
            redacted(
                r#"{"error":"Connection error: Received a response for an unknown message ID: {\"id\":3,\"error\":{\"code\":0,\"message\":\"secret\"}}","sessionId":"s","cwd":"/home/me"}"#,
                Format::ClaudeCode
            ),
            r#"{"error":"Connection error: Received a response for an unknown message ID: {\"id\":3,\"error\":{\"code\":0,\"message\":\"redacted\"}}","sessionId":"s","cwd":"redacted"}"#
        );
    }

    #[test]
    fn documents_keep_their_layout_and_lose_bodies_and_secret_headers() {
        let network = "[\n  {\n    \"url\": \"http://h/mcp\",\n    \"requestHeaders\": {\"authorization\": \"Bearer s\", \"mcp-session-id\": \"k\"},\n    \"requestBody\": \"{\\\"id\\\":1,\\\"params\\\":{\\\"name\\\":\\\"s\\\"}}\",\n    \"responseBody\": \"event: message\\ndata: {\\\"id\\\":1,\\\"result\\\":{\\\"content\\\":[]}}\\n\\n\"\n  }\n]\n";
        assert_eq!(
            redacted(network, Format::InspectorNetwork),
            network
                .replace("Bearer s", "redacted")
                .replace("\\\"name\\\":\\\"s\\\"", "\\\"name\\\":\\\"redacted\\\"")
        );
        let har = "{\"log\": {\"entries\": [{\"request\": {\"method\": \"POST\", \"url\": \"u\",\n  \"headers\": [{\"name\": \"Cookie\", \"value\": \"sid=s\"}, {\"name\": \"Accept\", \"value\": \"text/event-stream\"}],\n  \"postData\": {\"text\": \"{\\\"id\\\":1,\\\"method\\\":\\\"tools/call\\\",\\\"params\\\":{\\\"arguments\\\":{\\\"k\\\":1}}}\"}}}]}}\n";
        assert_eq!(
            redacted(har, Format::Har),
            har.replace("sid=s", "redacted")
                .replace("{\\\"k\\\":1}", "{\\\"k\\\":0}")
        );
    }

    #[test]
    fn logs_keep_their_prefixes_and_sentences() {
        assert_eq!(
            redacted(
                "2025-03-04 11:28:35.823 [error] user-db: Processing request for alice\n2025-03-04 11:28:35.823 [info] user-db: Handling CreateClient action\n",
                Format::CursorLog
            ),
            "2025-03-04 11:28:35.823 [error] user-server-1: redacted\n2025-03-04 11:28:35.823 [info] user-server-1: Handling CreateClient action\n"
        );
        assert_eq!(
            redacted(
                "write: {\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"greet\",\"arguments\":{\"name\":\"you\"}}}\n",
                Format::GoSdkLog
            ),
            "write: {\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"redacted\",\"arguments\":{\"name\":\"redacted\"}}}\n"
        );
        assert!(crate::redact::redact(b"# notes\n", Format::Unknown).is_err());
    }
}
