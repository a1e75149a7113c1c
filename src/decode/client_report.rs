//! The sentences in which an MCP client's SDK or runtime reports that the
//! server broke the protocol. The TypeScript SDK is embedded in Claude
//! Desktop, Claude Code, Cursor, VS Code and LibreChat, and the Python SDK
//! in the Python hosts, so the same words turn up in every client's log:
//!
//! ```text
//! Received a response for an unknown message ID: {"jsonrpc":"2.0","id":3,...}
//! Received a progress notification for an unknown token: {"method":"notifications/progress",...}
//! MCP error -32001: Request timed out
//! Unexpected token 'S', "Starting MCP server" is not valid JSON      (V8, Node)
//! JSON Parse error: Unexpected identifier "MCP"                      (JavaScriptCore, Bun)
//! Invalid JSON: expected value at line 1 column 1 [type=json_invalid, input_value='Starting...', input_type=str]
//! Failed to parse JSONRPC message from server                        (Python SDK)
//! invalid character 'S' looking for beginning of value               (Go)
//! ```
//!
//! Each host's decoder finds the sentence in its own line layout and asks
//! [`scan`] what it reports. The embedded JSON is untrusted and may be cut:
//! whatever of it cannot be read is simply not used.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::json::key_of;
use super::{line_location, lines};
use compact_str::CompactString;

use crate::event::{
    ClientReport, Event, Location, Payload, ProgressToken, ReportedFailure, RequestId, Side,
    Transport,
};

const UNKNOWN_ID: &str = "Received a response for an unknown message ID: ";
const UNKNOWN_TOKEN: &str = "Received a progress notification for an unknown token: ";
const TIMED_OUT: &str = "Request timed out";
const PYTHON_PARSE_FAILURE: &str = "Failed to parse JSONRPC message from server";

/// What each runtime writes when `JSON.parse` (or its equivalent) fails on
/// a line the server printed on stdout.
const PARSE_ERRORS: &[&str] = &[
    // V8 (Node, Electron)
    "is not valid JSON",
    " in JSON at position ",
    "after JSON at position ",
    "Unexpected end of JSON input",
    // JavaScriptCore (Bun)
    "JSON Parse error: ",
    // pydantic-core (Python SDK)
    "Invalid JSON: ",
    // Go's encoding/json
    "looking for beginning of value",
    PYTHON_PARSE_FAILURE,
];

/// The failure `text` reports, if it is one of the SDK sentences.
pub(super) fn scan(text: &str) -> Option<ClientReport> {
    if let Some(json) = after(text, UNKNOWN_ID) {
        let id = embedded_id(json);
        return Some(report(ReportedFailure::UnknownResponseId(id), Some(json)));
    }
    if let Some(json) = after(text, UNKNOWN_TOKEN) {
        let token = embedded_token(json);
        return Some(report(
            ReportedFailure::UnknownProgressToken(token),
            Some(json),
        ));
    }
    if is_json_parse_error(text) {
        let error = text.trim().to_string();
        return Some(report(
            ReportedFailure::NotJson(error),
            python_input_value(text),
        ));
    }
    if text.contains(TIMED_OUT) {
        return Some(report(ReportedFailure::TimedOut, None));
    }
    None
}

/// Whether `text` reports a response or progress for an unknown id or token.
/// Whether `text` reports a failure (for `mcp-lint redact`, which keeps it).
pub(crate) fn is_report(text: &str) -> bool {
    scan(text).is_some()
}

/// Where the message an unknown id or token report quotes starts (for
/// `mcp-lint redact`, which redacts it as a message).
pub(crate) fn quoted_message_at(text: &str) -> Option<usize> {
    [UNKNOWN_ID, UNKNOWN_TOKEN]
        .iter()
        .find_map(|marker| Some(text.find(marker)? + marker.len()))
}

pub(super) fn is_unknown_id_or_token(text: &str) -> bool {
    text.contains(UNKNOWN_ID) || text.contains(UNKNOWN_TOKEN)
}

/// Whether `text` is a runtime's JSON parse error (a line of the server's
/// stdout that was not a message).
pub(super) fn is_json_parse_error(text: &str) -> bool {
    PARSE_ERRORS.iter().any(|marker| text.contains(marker))
        || text.trim_start().starts_with("Unexpected token")
}

fn report(failure: ReportedFailure, quoted: Option<&str>) -> ClientReport {
    ClientReport {
        failure,
        quoted: quoted.map(|q| q.trim().to_string()),
    }
}

/// The text after `marker`, when `text` holds it.
fn after<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    text.find(marker).map(|at| &text[at + marker.len()..])
}

/// The first JSON value at the start of `text`, if it is complete.
fn first_value<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
    serde_json::Deserializer::from_str(text.trim_start())
        .into_iter::<T>()
        .next()?
        .ok()
}

fn embedded_id(json: &str) -> Option<RequestId> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        id: Option<&'a RawValue>,
    }
    let id = first_value::<Response>(json)?.id?;
    key_of(id).ok().map(RequestId)
}

fn embedded_token(json: &str) -> Option<ProgressToken> {
    #[derive(Deserialize)]
    struct Notification<'a> {
        #[serde(borrow)]
        params: Option<Params<'a>>,
    }
    #[derive(Deserialize)]
    struct Params<'a> {
        #[serde(borrow, rename = "progressToken")]
        progress_token: Option<&'a RawValue>,
    }
    let token = first_value::<Notification>(json)?.params?.progress_token?;
    key_of(token).ok().map(ProgressToken)
}

/// The stdout line pydantic quotes in `input_value='...'` (cut by pydantic
/// when long; its own quoting is kept as is).
fn python_input_value(text: &str) -> Option<&str> {
    let value = after(text, "input_value='")?;
    let end = value
        .find("', input_type=")
        .or_else(|| value.rfind('\''))
        .unwrap_or(value.len());
    Some(&value[..end])
}

/// The event of the failure `sentence` reports, if it reports one. Its
/// sender is the side at fault: the server, which broke the protocol.
pub(super) fn event_of(
    location: Location,
    session: Option<CompactString>,
    time_ms: Option<f64>,
    sentence: &str,
) -> Option<Event> {
    let report = scan(sentence)?;
    Some(Event {
        location,
        session,
        from: Some(Side::Server),
        stream: None,
        time_ms,
        place: None,
        payload: Payload::Transport(Transport::ClientReported(Box::new(report))),
    })
}

/// Decodes a log whose only protocol content is the failures the client
/// reports: `sentence` gives each line's session (its server) and the text
/// to scan, or `None` for lines of another shape.
pub(super) fn decode_reports(
    bytes: &[u8],
    source: u32,
    client: &str,
    sentence: impl Fn(&str) -> Option<(Option<&str>, &str)>,
) -> Vec<Event> {
    let mut out = Vec::new();
    for (number, start, raw) in lines(bytes) {
        let line = String::from_utf8_lossy(raw);
        let Some((session, text)) = sentence(&line) else {
            continue;
        };
        let location = line_location(source, number, start as u64, raw);
        out.extend(event_of(location, session.map(Into::into), None, text));
    }
    note_if_nothing_reported(bytes, source, client, &mut out);
    out
}

/// Adds the one event that says a known client's log held nothing to check:
/// no message, no reported failure, and no line that could not be read (which
/// may have held one, and is reported itself). An empty file says nothing.
pub(super) fn note_if_nothing_reported(
    bytes: &[u8],
    source: u32,
    client: &str,
    out: &mut Vec<Event>,
) {
    let first = lines(bytes).find(|(_, _, line)| !super::is_blank(line));
    if let (true, Some((number, start, line))) = (out.is_empty(), first) {
        let location = line_location(source, number, start as u64, line);
        let payload = Payload::Transport(Transport::NoMessages(client.into()));
        out.push(Event::bare(location, payload));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Key;

    fn failure(text: &str) -> Option<ReportedFailure> {
        scan(text).map(|r| r.failure)
    }

    #[test]
    fn unknown_ids_and_tokens_with_their_message() {
        let text = r#"Connection error: Received a response for an unknown message ID: {"jsonrpc":"2.0","id":3,"error":{"code":0,"message":"Request cancelled"}}"#;
        let report = scan(text).unwrap();
        assert_eq!(
            report.failure,
            ReportedFailure::UnknownResponseId(Some(RequestId(Key::Int(3))))
        );
        assert!(report.quoted.unwrap().starts_with(r#"{"jsonrpc""#));
        assert_eq!(
            failure(
                r#"Received a progress notification for an unknown token: {"method":"notifications/progress","params":{"progress":1,"progressToken":"t-5"}}"#
            ),
            Some(ReportedFailure::UnknownProgressToken(Some(ProgressToken(
                Key::Str("t-5".into())
            ))))
        );
        // A message cut by the logger: the failure, without its id.
        assert_eq!(
            failure(
                r#"Received a response for an unknown message ID: {"jsonrpc":"2.0","id":3,"res"#
            ),
            Some(ReportedFailure::UnknownResponseId(None))
        );
    }

    #[test]
    fn parse_errors_of_every_runtime() {
        for text in [
            r#"Client error for command Unexpected token 'S', "Starting MCP server" is not valid JSON"#,
            "No number after minus sign in JSON at position 3",
            "Unexpected non-whitespace character after JSON at position 4",
            r#"Connection error: JSON Parse error: Unexpected identifier "MCP""#,
            "invalid character 'ð' looking for beginning of value",
            "Invalid JSON: EOF while parsing a value at line 2 column 0",
            "ERROR 2026-01-07 16:57:27 [mcp.client.stdio] Failed to parse JSONRPC message from server",
        ] {
            assert!(
                matches!(failure(text), Some(ReportedFailure::NotJson(_))),
                "{text}"
            );
        }
        let pydantic = "  Invalid JSON: expected value at line 1 column 1 [type=json_invalid, input_value='Loading config...', input_type=str]";
        assert_eq!(
            scan(pydantic).unwrap().quoted.as_deref(),
            Some("Loading config...")
        );
    }

    #[test]
    fn timeouts_and_other_sentences() {
        assert_eq!(
            failure("Tool 'search' failed after 60s: MCP error -32001: Request timed out"),
            Some(ReportedFailure::TimedOut)
        );
        for text in [
            "Calling MCP tool: a2a_send",
            "Tool 'a2a_send' completed successfully in 505ms",
            "Successfully connected (transport: stdio) in 251ms",
            "",
        ] {
            assert_eq!(failure(text), None, "{text}");
        }
    }
}
