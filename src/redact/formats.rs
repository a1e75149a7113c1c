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
        ("session", Context::Keep),
        ("stream", Context::Keep),
        ("event", Context::Keep),
    ],
    others: Context::Free,
};

static MCPSNOOP: Shape = Shape {
    members: &[
        ("raw", Context::Message),
        ("session_id", Context::Keep),
        ("ts", Context::Keep),
        ("direction", Context::Keep),
        ("transport", Context::Keep),
        ("conn_id", Context::Keep),
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

static SUPERGATEWAY: Shape = Shape {
    members: &[
        ("data", Context::Message),
        ("msg", Context::Sentence(&SUPERGATEWAY_TEXT)),
    ],
    others: Context::Keep,
};

static SUPERGATEWAY_TEXT: TextLog = TextLog {
    free_after: &[("Child stderr", ": "), ("Child non-JSON", ": ")],
    server_output: None,
};

static CLAUDE_CODE: Shape = Shape {
    members: &[
        ("debug", Context::Sentence(&CLAUDE_CODE_SENTENCE)),
        ("info", Context::Sentence(&CLAUDE_CODE_SENTENCE)),
        ("error", Context::Sentence(&CLAUDE_CODE_SENTENCE)),
        ("cwd", Context::Free),
    ],
    others: Context::Keep,
};

static CLAUDE_CODE_SENTENCE: TextLog = TextLog {
    free_after: &[("Server stderr:", "")],
    server_output: None,
};

/// The debug log: its stderr goes on in lines Claude Code did not write.
static CLAUDE_CODE_DEBUG: TextLog = TextLog {
    free_after: &[("Server stderr:", "")],
    server_output: Some(crate::decode::claude_code_server_output_at),
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

static HAR_LOG: Shape = Shape {
    members: &[("entries", shape(&HAR_ENTRY))],
    others: Context::Keep,
};

static HAR_ENTRY: Shape = Shape {
    members: &[
        ("request", shape(&HAR_REQUEST)),
        ("response", shape(&HAR_RESPONSE)),
        ("_eventSourceMessages", shape(&HAR_EVENT)),
        ("_webSocketMessages", Context::Free),
    ],
    others: Context::Keep,
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
/// did not write.
static CLAUDE_LOG: TextLog = TextLog {
    free_after: &[],
    server_output: Some(crate::decode::claude_log_server_output_at),
};

static VSCODE_LOG: TextLog = TextLog {
    free_after: &[("[server stderr] ", "")],
    server_output: Some(crate::decode::vscode_server_output_at),
};

/// Cursor's channel: the server's stderr is any sentence Cursor's decoder
/// does not read, and any line of another shape.
static CURSOR_LOG: TextLog = TextLog {
    free_after: &[],
    server_output: Some(crate::decode::cursor_server_output_at),
};

/// The Python SDK's log: pydantic quotes the server's stdout line that was
/// not a message in `input_value='...'`.
static PYTHON_LOG: TextLog = TextLog {
    free_after: &[("input_value='", "")],
    server_output: None,
};

/// Logs whose every line is the client's or the bridge's (the Go SDK,
/// LibreChat, mcp-remote): their messages are redacted, their sentences read.
static CLIENT_LOG: TextLog = TextLog {
    free_after: &[],
    server_output: None,
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
        Format::GoSdkLog | Format::LibrechatLog | Format::McpRemoteLog => log(None, &CLIENT_LOG),
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
            r#"{"session_id":"s","server_label":"redacted","seq":0,"direction":"stderr","text":"redacted"}"#
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
            "2025-03-04 11:28:35.823 [error] user-db: redacted\n2025-03-04 11:28:35.823 [info] user-db: Handling CreateClient action\n"
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
