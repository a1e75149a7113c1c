//! The Python SDK's logs, written through the standard `logging` module:
//!
//! ```text
//! 2025-04-16 06:13:26,400 - mcp.server.sse - DEBUG - Received JSON: b'{"jsonrpc":"2.0","id":7,"method":"prompts/list","params":{}}'
//! 2025-04-16 06:13:36,389 - sse_starlette.sse - DEBUG - chunk: b'event: message\r\ndata: {"jsonrpc":"2.0","id":7,"result":{...}}\r\n\r\n'
//! 2025-06-02 11:20:41,007 - mcp.client.stdio - ERROR - Failed to parse JSONRPC message from server
//! ```
//!
//! A server on the SSE transport, at DEBUG, logs the raw JSON it receives
//! and the SSE chunks it sends: the two directions in full. Other debug lines
//! (pydantic reprs such as `Validated client message: root=...`) are not
//! JSON and are skipped; so are the duplicates a Rich console handler prints
//! (they lack the `time - logger - LEVEL - ` prefix). A client logs only
//! the lines of the server's stdout it could not parse; the traceback after
//! it quotes the line (`input_value='...'`), read as a
//! [failure the client reports](client_report). The sends and receives of a
//! server carry no session, so the file is one session.

use super::client_report;
use super::logline::{messages_in, LineParts, Tag};
use super::sse;
use super::{line_location, lines};
use crate::event::{Event, Location, Message, Payload, Side, Unreadable};

/// The Python client's sentence for a line of the server's stdout that is not a message.
const PARSE_FAILURE: &str = "Failed to parse JSONRPC message from server";

/// How far after `Failed to parse ...` its traceback may quote the line.
const TRACEBACK_LINES: usize = 60;

/// `2025-04-16 06:13:26,400 - mcp.server.sse - DEBUG - text`: the text.
fn logged(line: &str) -> Option<&str> {
    logged_by(line).map(|(_, text)| text)
}

/// The parts of a line (for `mcp-lint redact`): a logged line's logger and
/// text, or the client's parse failure after another logger's prefix.
/// `None` for any other line (a traceback, the server's output).
pub(crate) fn line_parts(line: &str) -> Option<LineParts> {
    if let Some((logger, text)) = logged_by(line) {
        return Some(LineParts::of(line, &[(logger, Tag::Logger)], text));
    }
    let at = line.find(PARSE_FAILURE)?;
    let prefix = line[..at].trim_end();
    let tags: Vec<_> = (!prefix.is_empty())
        .then_some((prefix, Tag::Other))
        .into_iter()
        .collect();
    Some(LineParts::of(line, &tags, &line[at..]))
}

/// The logger and the text of a logged line.
fn logged_by(line: &str) -> Option<(&str, &str)> {
    let (stamp, rest) = line.split_at_checked(23)?;
    let shape = b"0000-00-00 00:00:00,000";
    let is_stamp = stamp.bytes().zip(shape).all(|(c, want)| match want {
        b'0' => c.is_ascii_digit(),
        _ => c == *want,
    });
    let rest = rest.strip_prefix(" - ").filter(|_| is_stamp)?;
    let (logger, rest) = rest.split_once(" - ")?;
    let (_level, text) = rest.split_once(" - ")?;
    Some((logger, text))
}

/// What a logged text says.
#[derive(Debug, PartialEq)]
enum Said<'a> {
    /// Raw bytes of a message (a Python bytes literal) and who sent them.
    Bytes {
        from: Side,
        literal: &'a str,
    },
    Other,
}

fn said(text: &str) -> Said<'_> {
    if let Some(literal) = text.strip_prefix("Received JSON: ") {
        return Said::Bytes {
            from: Side::Client,
            literal,
        };
    }
    if let Some(literal) = text.strip_prefix("chunk: ") {
        return Said::Bytes {
            from: Side::Server,
            literal,
        };
    }
    Said::Other
}

/// Whether a line is the Python SDK's: a message sent or received, or the
/// client's parse failure (which other loggers prefix differently).
pub(super) fn is_marker(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    if text.contains(PARSE_FAILURE) {
        return true;
    }
    logged(&text).is_some_and(|t| match said(t) {
        Said::Bytes { literal, .. } => literal.starts_with("b'") || literal.starts_with("b\""),
        _ => false,
    })
}

/// The bytes a Python bytes literal (`b'...'`) stands for, or `None` when it
/// is not one (or not a whole one: the logger cut it).
fn bytes_literal(literal: &str) -> Option<Vec<u8>> {
    let quote = match literal.get(..2)? {
        "b'" => b'\'',
        "b\"" => b'"',
        _ => return None,
    };
    let inner = literal[2..].trim_end().strip_suffix(quote as char)?;
    let mut out = Vec::with_capacity(inner.len());
    let mut bytes = inner.bytes();
    while let Some(c) = bytes.next() {
        if c != b'\\' {
            out.push(c);
            continue;
        }
        match bytes.next()? {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'x' => {
                let hex = [bytes.next()?, bytes.next()?];
                out.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// The messages in the bytes a line logs: the JSON itself, or the `data` of
/// an SSE `message` event (other events, such as `endpoint`, hold none).
fn messages_of(from: Side, bytes: &[u8], column: usize) -> Result<Vec<Message>, Unreadable> {
    let text = String::from_utf8_lossy(bytes);
    let json = match from {
        Side::Client => text.into_owned(),
        Side::Server => match sse::parse(&text)
            .into_iter()
            .find(|e| e.event.as_deref().unwrap_or("message") == "message")
        {
            Some(event) => event.data.into_owned(),
            None => return Ok(Vec::new()),
        },
    };
    if json.trim().is_empty() {
        return Ok(Vec::new());
    }
    messages_in(&json, column)
}

/// The line the client could not parse, as the traceback after `at` quotes it.
fn quoted_line(all: &[(u64, usize, &[u8])], at: usize) -> Option<String> {
    all.iter()
        .skip(at + 1)
        .take(TRACEBACK_LINES)
        .map(|(_, _, raw)| String::from_utf8_lossy(raw))
        .take_while(|line| logged(line).is_none())
        .find(|line| line.contains("input_value="))
        .map(|line| line.trim().to_string())
}

/// Decodes a whole log in file order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let all: Vec<_> = lines(bytes).collect();
    let mut out = Vec::new();
    for (index, &(number, start, raw)) in all.iter().enumerate() {
        let line = String::from_utf8_lossy(raw);
        let location = line_location(source, number, start as u64, raw);
        let text = logged(&line);
        match text.map(said) {
            Some(Said::Bytes { from, literal }) => {
                let column = line.len() - literal.len();
                push_bytes(&mut out, location, from, literal, column);
            }
            // The failure may also come through another logger's prefix.
            _ if line.contains(PARSE_FAILURE) => {
                let at = line.find(PARSE_FAILURE).unwrap_or(0);
                let sentence = match quoted_line(&all, index) {
                    Some(quote) => format!("{}: {quote}", &line[at..]),
                    None => line[at..].to_string(),
                };
                out.extend(client_report::event_of(location, None, None, &sentence));
            }
            _ => {}
        }
    }
    client_report::note_if_nothing_reported(bytes, source, "Python SDK", &mut out);
    out
}

fn push_bytes(out: &mut Vec<Event>, location: Location, from: Side, literal: &str, column: usize) {
    let Some(bytes) = bytes_literal(literal) else {
        let why = format!(
            "the logged bytes are not a whole Python bytes literal (column {})",
            column + 1
        );
        return out.push(Event::unreadable(location, Unreadable::Json(why)));
    };
    match messages_of(from, &bytes, column) {
        Err(why) => out.push(Event::unreadable(location, why)),
        Ok(messages) => out.extend(messages.into_iter().map(|message| Event {
            from: Some(from),
            ..Event::bare(location, Payload::Message(message))
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::ReportedFailure;
    use crate::event::Transport;

    #[test]
    fn lines_and_literals() {
        assert_eq!(
            logged("2025-04-16 06:13:26,400 - mcp.server.sse - DEBUG - Received JSON: b'{}'"),
            Some("Received JSON: b'{}'")
        );
        assert_eq!(
            logged("                    DEBUG    chunk: b'event: message\\r\\ndata:"),
            None
        );
        assert_eq!(
            line_parts("2025-04-16 06:13:26,400 - mcp.server.sse - DEBUG - x"),
            Some(LineParts {
                tags: vec![(26..40, Tag::Logger)],
                sentence: 51
            })
        );
        assert_eq!(
            line_parts("ERROR [mcp.client.stdio] Failed to parse JSONRPC message from server"),
            Some(LineParts {
                tags: vec![(0..24, Tag::Other)],
                sentence: 25
            })
        );
        assert_eq!(line_parts("Traceback (most recent call last):"), None);
        assert_eq!(
            bytes_literal(r#"b'event: message\r\ndata: {"a":\'\\x\'}\r\n\r\n'"#),
            Some(b"event: message\r\ndata: {\"a\":'\\x'}\r\n\r\n".to_vec())
        );
        assert_eq!(
            bytes_literal(r"b'caf\xc3\xa9'"),
            Some("café".as_bytes().to_vec())
        );
        assert_eq!(bytes_literal("b'cut"), None);
    }

    #[test]
    fn both_directions_and_the_endpoint_event() {
        let log = concat!(
            "2025-04-16 06:13:16,344 - sse_starlette.sse - DEBUG - chunk: b'event: endpoint\\r\\ndata: /messages/?session_id=2b2\\r\\n\\r\\n'\n",
            "2025-04-16 06:13:26,400 - mcp.server.sse - DEBUG - Received JSON: b'{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/list\",\"params\":{}}'\n",
            "2025-04-16 06:13:26,401 - mcp.server.sse - DEBUG - Validated client message: root=JSONRPCRequest(method='prompts/list', jsonrpc='2.0', id=7)\n",
            "2025-04-16 06:13:26,402 - sse_starlette.sse - DEBUG - chunk: b'event: message\\r\\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"prompts\":[]}}\\r\\n\\r\\n'\n",
        );
        let events = decode(log.as_bytes(), 0);
        let seen: Vec<_> = events.iter().map(|e| (e.location.line, e.from)).collect();
        assert_eq!(seen, [(2, Some(Side::Client)), (4, Some(Side::Server))]);
    }

    #[test]
    fn a_parse_failure_quotes_the_line_from_its_traceback() {
        let log = "ERROR 2026-01-07 16:57:27 [mcp.client.stdio] Failed to parse JSONRPC message from server\nTraceback (most recent call last):\n  File \"stdio.py\", line 1\npydantic_core._pydantic_core.ValidationError: 1 validation error for JSONRPCMessage\n  Invalid JSON: expected value at line 1 column 1 [type=json_invalid, input_value='Starting weather server', input_type=str]\n";
        let events = decode(log.as_bytes(), 0);
        let Payload::Transport(Transport::ClientReported(report)) = &events[0].payload else {
            panic!("{events:?}")
        };
        assert!(matches!(report.failure, ReportedFailure::NotJson(_)));
        assert_eq!(report.quoted.as_deref(), Some("Starting weather server"));
    }
}
