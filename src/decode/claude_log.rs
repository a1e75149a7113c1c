//! Claude Desktop's MCP logs: `mcp.log` (every server) and
//! `mcp-server-<NAME>.log` (one server, and its stderr). Claude Desktop logs
//! every message it sends or receives as one line, in three layouts over time:
//!
//! ```text
//! 2025-03-23T18:30:58.413Z [desktopCommander] [info] Message from client: {...}
//! 2025-06-27T07:58:07.774Z [info] [golang-mcp-testing] Message from server: {...}
//! 2025-07-12T05:51:44.601Z [chatlog] [info] Message from client: {...} { metadata: undefined }
//! ```
//!
//! Three kinds of line say something about the protocol: the messages, the
//! errors Claude Desktop logs when the server wrote something other than JSON
//! on stdout (`... is not valid JSON`), and `... transport closed`. Everything
//! else (lifecycle lines, multi-line metadata blocks, the server's raw
//! stderr) is skipped: it is not an error, it just says nothing to check.
//!
//! The session is the bracketed server name. The log outlives connections:
//! each `Initializing server...` (Claude Desktop starting the server again)
//! begins a new session, since request ids start over with the process.
//! A file holds the lines in the order Claude Desktop wrote them, which is
//! the order used; their timestamps are not always in order.

use std::borrow::Cow;

use super::logline::{bracketed, is_level, messages_in, Connections, LineParts};
use super::timestamp::parse_rfc3339_ms;
use super::{client_report, payload_free};
use super::{line_location, lines};
use compact_str::CompactString;

use crate::event::{Event, Location, Message, Payload, Side, Transport, Unreadable};

/// What a line of the log says.
#[derive(Debug, PartialEq)]
enum Said<'a> {
    /// A protocol message, whose JSON starts at byte `column` of the line.
    Message {
        from: Side,
        json: &'a str,
        column: usize,
    },
    /// A message logged without its payload (since mid-2026): a summary
    /// such as `method="initialize" id=0 params`, starting at byte `column`.
    Summary {
        from: Side,
        text: &'a str,
        column: usize,
    },
    /// Claude Desktop could not parse what the server wrote on its stdout.
    NotJson(&'a str),
    Closed(Side),
    /// The SDK reports a response or progress for an id or token it does
    /// not know. (Its timeouts are left out: the log shows the request and
    /// its cancellation, which say more.)
    Reported(&'a str),
    /// Claude Desktop starts the server (again).
    Starting,
    /// Anything else Claude Desktop logs.
    Other,
}

#[derive(Debug, PartialEq)]
struct Line<'a> {
    time_ms: f64,
    server: Option<&'a str>,
    /// The text after the prefix.
    sentence: &'a str,
    said: Said<'a>,
}

/// Reads a line Claude Desktop wrote: `<RFC 3339> [server] [level] text`,
/// `<RFC 3339> [level] [server] text` or `<RFC 3339> [level] text`. `None`
/// for any other line (the server's stderr, the inside of a multi-line block).
fn parse(line: &str) -> Option<Line<'_>> {
    let (stamp, rest) = line.split_once(' ')?;
    let time_ms = parse_rfc3339_ms(stamp)?;
    let (first, rest) = bracketed(rest)?;
    let (level, server, text) = match bracketed(rest) {
        Some((second, text)) if is_level(second) && !is_level(first) => (second, Some(first), text),
        Some((second, text)) if is_level(first) => (first, Some(second), text),
        _ if is_level(first) => (first, None, rest),
        _ => return None,
    };
    let column = line.len() - text.len();
    let said = if let Some((from, json)) = message_text(text) {
        let column = column + (text.len() - json.len());
        if payload_free::is_summary(json) {
            Said::Summary {
                from,
                text: json.trim_end(),
                column,
            }
        } else {
            Said::Message { from, json, column }
        }
    } else {
        let text = without_metadata(text);
        if text == "Client transport closed" {
            Said::Closed(Side::Client)
        } else if text.starts_with("Server transport closed") {
            Said::Closed(Side::Server)
        } else if text.starts_with("Initializing server") {
            Said::Starting
        } else if level == "error" && client_report::is_json_parse_error(text) {
            Said::NotJson(text)
        } else if level == "error" && client_report::is_unknown_id_or_token(text) {
            Said::Reported(text)
        } else {
            Said::Other
        }
    };
    Some(Line {
        time_ms,
        server,
        sentence: text,
        said,
    })
}

/// The parts of a line Claude Desktop wrote (for `mcp-lint redact`); `None`
/// for any other line, which is the server's stderr.
pub(crate) fn line_parts(line: &str) -> Option<LineParts> {
    let parsed = parse(line)?;
    Some(LineParts::of_server(line, parsed.server, parsed.sentence))
}

/// The sender and the text of a `Message from ...: ` line.
fn message_text(text: &str) -> Option<(Side, &str)> {
    [
        ("Message from client: ", Side::Client),
        ("Message from server: ", Side::Server),
    ]
    .into_iter()
    .find_map(|(prefix, from)| Some((from, text.strip_prefix(prefix)?)))
}

/// The text of a log line without the metadata Claude Desktop appends to it:
/// ` { metadata: undefined }`, ` {"context":"connection",...}`, or ` {`
/// opening a multi-line block.
fn without_metadata(text: &str) -> &str {
    if let Some(head) = text.strip_suffix(" {") {
        return head;
    }
    [" { metadata:", " {\"context\":"]
        .iter()
        .filter_map(|marker| text.rfind(marker))
        .max()
        .map_or(text, |at| &text[..at])
}

/// Whether a line is one only Claude Desktop's MCP log would hold (used to
/// detect the format): a line naming a server, or one about the protocol.
pub(super) fn is_marker(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    parse(&text).is_some_and(|l| l.server.is_some() || l.said != Said::Other)
}

/// Decodes a whole log, line by line, in file order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let mut connections = Connections::default();
    let mut out = Vec::new();
    for (number, start, raw) in lines(bytes) {
        let location = line_location(source, number, start as u64, raw);
        let (text, invalid_utf8) = match std::str::from_utf8(raw) {
            Ok(text) => (Cow::Borrowed(text), None),
            Err(e) => (String::from_utf8_lossy(raw), Some(e.valid_up_to())),
        };
        let Some(line) = parse(&text) else {
            continue;
        };
        let server = line.server;
        let at = (location, line.time_ms);
        match line.said {
            Said::Starting => connections.start(server),
            Said::Other => {}
            Said::Message { .. } if invalid_utf8.is_some() => out.push(Event::unreadable(
                location,
                Unreadable::Json(format!(
                    "the line is not valid UTF-8 (invalid byte at column {})",
                    invalid_utf8.unwrap_or(0) + 1
                )),
            )),
            Said::Message { from, json, column } => {
                let messages = messages_in(json, column);
                push_messages(&mut out, &mut connections, at, server, from, messages);
            }
            Said::Summary { from, text, column } => {
                let message = payload_free::message(text, column).map(|m| vec![m]);
                push_messages(&mut out, &mut connections, at, server, from, message);
            }
            Said::NotJson(seen) => {
                let session = connections.session(server);
                let payload = Payload::Transport(Transport::NotProtocol(seen.to_string()));
                out.push(line_event(at, session, Side::Server, payload));
            }
            Said::Reported(text) => {
                let session = connections.session(server);
                out.extend(client_report::event_of(
                    location,
                    session,
                    Some(line.time_ms),
                    text,
                ));
            }
            Said::Closed(side) => {
                let session = connections.session(server);
                connections.close(server);
                out.push(line_event(
                    at,
                    session,
                    side,
                    Payload::Transport(Transport::Closed),
                ));
            }
        }
    }
    out
}

/// An event of a line Claude Desktop wrote.
fn line_event(
    line: (Location, f64),
    session: Option<CompactString>,
    from: Side,
    payload: Payload,
) -> Event {
    Event {
        location: line.0,
        session,
        from: Some(from),
        stream: None,
        time_ms: Some(line.1),
        place: None,
        payload,
    }
}

/// The events of the messages on one line (at `line`: its location and
/// time), or of the line when they could not be read.
fn push_messages(
    out: &mut Vec<Event>,
    connections: &mut Connections,
    line: (Location, f64),
    server: Option<&str>,
    from: Side,
    messages: Result<Vec<Message>, Unreadable>,
) {
    let messages = match messages {
        Ok(messages) => messages,
        Err(why) => return out.push(Event::unreadable(line.0, why)),
    };
    // An initialize after the connection closed, without the
    // `Initializing server...` line (an excerpt of the log).
    let initialize = messages.iter().any(|m| m.method() == Some("initialize"));
    if from == Side::Client && initialize && connections.is_closed(server) {
        connections.start(server);
    }
    let session = connections.session(server);
    for message in messages {
        out.push(line_event(
            line,
            session.clone(),
            from,
            Payload::Message(message),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::logline::Tag;
    use crate::event::Body;

    const INIT: &str = r#"{"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"claude-ai","version":"0.1.0"}},"jsonrpc":"2.0","id":0}"#;

    fn said(line: &str) -> (Option<&str>, Said<'_>) {
        let line = parse(line).expect("a Claude Desktop line");
        (line.server, line.said)
    }

    #[test]
    fn the_server_s_output_is_every_line_claude_desktop_did_not_write() {
        assert_eq!(line_parts("npm warn exec a package"), None);
        assert_eq!(
            line_parts("2025-06-09 21:38:09,942 - src.log_utils - INFO - Logging initialized"),
            None
        );
        assert_eq!(
            line_parts("2025-07-12T05:52:44.610Z [chatlog] [info] Client transport closed"),
            Some(LineParts {
                tags: vec![(26..33, Tag::Server)],
                sentence: 42
            })
        );
    }

    #[test]
    fn all_three_layouts() {
        let a = format!(
            "2025-03-23T18:30:58.413Z [desktopCommander] [info] Message from client: {INIT}"
        );
        let b = format!(
            "2025-06-27T07:58:07.774Z [info] [golang-mcp-testing] Message from server: {INIT}"
        );
        let c = format!("2025-07-12T05:51:44.601Z [chatlog] [info] Message from client: {INIT} {{ metadata: undefined }}");
        let (server, message) = said(&a);
        assert_eq!(server, Some("desktopCommander"));
        assert!(
            matches!(message, Said::Message { from: Side::Client, json, column } if json == INIT && &a[column..] == INIT)
        );
        let (server, message) = said(&b);
        assert_eq!(server, Some("golang-mcp-testing"));
        assert!(matches!(message, Said::Message { from: Side::Server, json, .. } if json == INIT));
        let (server, message) = said(&c);
        assert_eq!(server, Some("chatlog"));
        assert!(
            matches!(message, Said::Message { json, .. } if json.ends_with(" { metadata: undefined }"))
        );
        assert_eq!(
            parse("2025-07-12T05:51:44.601Z [chatlog] [info] x")
                .unwrap()
                .time_ms,
            1_752_299_504_601.0
        );
        // One tag: a line without the server's name.
        assert_eq!(
            said("2025-07-12T05:51:44.601Z [info] Message from client: {}").0,
            None
        );
    }

    #[test]
    fn payload_free_lines_mixed_with_json_lines() {
        let log =
            "2026-08-13T07:09:45.382Z [info] [cbm] Message from client: method=\"initialize\" id=0 params\n\
             2026-08-13T07:09:45.400Z [cbm] [info] Message from server: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}} { metadata: undefined }\n\
             2026-08-13T07:09:45.401Z [info] [cbm] Message from client: method=\"notifications/initialized\"\n\
             2026-08-13T07:09:45.402Z [info] [cbm] Message from server: id=0 result \n\
             2026-08-13T07:09:45.403Z [info] [cbm] Message from client: method=\"x\n";
        let events = decode(log.as_bytes(), 0);
        let seen: Vec<_> = events
            .iter()
            .map(|e| match &e.payload {
                Payload::Message(m) => {
                    (e.location.line, m.incomplete, m.method().map(str::to_owned))
                }
                _ => (e.location.line, true, Some("unreadable".into())),
            })
            .collect();
        assert_eq!(
            seen,
            [
                (1, true, Some("initialize".into())),
                (2, false, None),
                (3, true, Some("notifications/initialized".into())),
                (4, true, None),
                (5, true, Some("unreadable".into())),
            ]
        );
        assert!(events[..4]
            .iter()
            .all(|e| e.session.as_deref() == Some("cbm")));
        assert!(is_marker(
            b"2026-08-20T15:44:54.404Z [info] [github] Message from server: id=0 result"
        ));
    }

    #[test]
    fn closing_starting_and_stdout_pollution() {
        let lines = [
            ("2025-07-12T05:52:44.610Z [chatlog] [info] Client transport closed { metadata: undefined }", Said::Closed(Side::Client)),
            ("2025-06-05T18:45:41.395Z [info] [word] Server transport closed", Said::Closed(Side::Server)),
            ("2025-06-05T18:45:41.396Z [info] [word] Server transport closed unexpectedly, this is likely due to the process exiting early.", Said::Closed(Side::Server)),
            ("2026-03-10T15:18:27.088Z [Hello World (Extension)] [info] Initializing server... { metadata: undefined }", Said::Starting),
            ("2025-06-27T07:58:08.067Z [error] [go] Unexpected token 'i', \"time=2025-0\"... is not valid JSON", Said::NotJson("Unexpected token 'i', \"time=2025-0\"... is not valid JSON")),
            ("2025-05-31T01:07:26.183Z [doc-forge] [error] Unexpected token 'M', \"MCP Doc Fo\"... is not valid JSON {\"context\":\"connection\",\"stack\":\"SyntaxError: ... is not valid JSON\"}", Said::NotJson("Unexpected token 'M', \"MCP Doc Fo\"... is not valid JSON")),
            ("2025-09-11T23:28:52.407Z [firecrawl] [error] Unexpected token 'd', \"[dotenv@17.\"... is not valid JSON {", Said::NotJson("Unexpected token 'd', \"[dotenv@17.\"... is not valid JSON")),
            ("2025-06-13T14:44:31.402Z [error] [db] Expected ',' or ']' after array element in JSON at position 5 (line 1 column 6)", Said::NotJson("Expected ',' or ']' after array element in JSON at position 5 (line 1 column 6)")),
            ("2025-09-01T22:36:05.120Z [Unity-MCP] [error] Received a response for an unknown message ID: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}", Said::Reported("Received a response for an unknown message ID: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}")),
            // Only as an error of Claude Desktop's; a server may say such words on stderr.
            ("2025-06-13T14:44:31.402Z [info] [db] Unexpected token in my config", Said::Other),
            ("2025-04-07T07:49:40.590Z [whatsapp] [error] Server disconnected. For troubleshooting guidance, please visit our [debugging documentation](https://modelcontextprotocol.io/docs/tools/debugging) {\"context\":\"connection\"}", Said::Other),
            ("2025-07-12T05:51:44.500Z [chatlog] [info] Using MCP server command: /usr/bin/node with args and path: {", Said::Other),
        ];
        for (line, want) in lines {
            assert_eq!(said(line).1, want, "{line}");
        }
    }

    #[test]
    fn other_lines_are_not_claude_desktop_lines() {
        for line in [
            "Installed 55 packages in 32ms",
            "  metadata: {",
            "[4227] [Local→Remote] {\"jsonrpc\":\"2.0\"}",
            "2025-06-09 21:38:09,942 - src.log_utils - INFO - Logging initialized",
            "2025-03-23T18:30:58.413Z [desktopCommander] text without a level",
            "",
        ] {
            assert_eq!(parse(line), None, "{line}");
        }
    }

    #[test]
    fn a_restarted_server_is_a_new_session() {
        let log = format!(
            "2025-07-12T05:51:44.500Z [chatlog] [info] Initializing server... {{ metadata: undefined }}\n\
             2025-07-12T05:51:44.601Z [chatlog] [info] Message from client: {INIT} {{ metadata: undefined }}\n\
             Installed 55 packages in 32ms\n\
             2025-07-12T05:52:44.610Z [chatlog] [info] Client transport closed {{ metadata: undefined }}\n\
             2025-07-12T06:00:00.000Z [chatlog] [info] Initializing server... {{ metadata: undefined }}\n\
             2025-07-12T06:00:00.100Z [chatlog] [info] Message from client: {INIT} {{ metadata: undefined }}\n\
             2025-07-12T06:00:00.200Z [other] [info] Message from client: {INIT}\n"
        );
        let events = decode(log.as_bytes(), 0);
        let seen: Vec<_> = events
            .iter()
            .map(|e| (e.location.line, e.session.as_deref(), e.from))
            .collect();
        assert_eq!(
            seen,
            [
                (2, Some("chatlog"), Some(Side::Client)),
                (4, Some("chatlog"), Some(Side::Client)),
                (6, Some("chatlog#2"), Some(Side::Client)),
                (7, Some("other"), Some(Side::Client)),
            ]
        );
        assert!(
            matches!(&events[0].payload, Payload::Message(m) if matches!(m.body, Body::Request { .. }))
        );
    }

    #[test]
    fn broken_messages_are_unreadable() {
        let log = b"2025-07-12T05:51:44.601Z [c] [info] Message from server: {\"jsonrpc\":\"2.0\",\"id\":0,\"res\n\
2025-07-12T05:51:44.602Z [c] [info] Message from server: {\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}\n";
        let events = decode(log, 0);
        let why: Vec<_> = events
            .iter()
            .map(|e| match &e.payload {
                Payload::Unreadable(Unreadable::Json(why)) => why.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            why,
            [
                "the message is not valid JSON: EOF while parsing a string (column 85)",
                "the line is not valid UTF-8 (invalid byte at column 85)",
            ]
        );
    }
}
