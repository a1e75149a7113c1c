//! The VS Code "MCP: <server>" output channel, saved to a file. With the
//! channel's log level at Debug or Trace, VS Code logs every message it sends
//! or receives:
//!
//! ```text
//! 2026-07-24 02:03:14.089 [debug] [editor -> server] {"jsonrpc":"2.0","id":1,"method":"initialize",...}
//! 2026-07-24 02:03:14.151 [debug] [server -> editor] {"jsonrpc":"2.0","id":1,"result":{...}}
//! 2025-03-23 16:38:00.970 [info] [Client Says] {...}          (VS Code 1.99, early 2025)
//! 2025-03-23 16:38:00.989 [info] [Server Says] {...}
//! ```
//!
//! Every other line is skipped. The channel belongs to one server, so the
//! file is one session, but it outlives connections: each
//! `Connection state: Starting` after some traffic begins a new session
//! (`connection 2`, ...), since request ids start over with the new process.
//! The timestamps are local time without a zone; rather than guess the zone,
//! events carry no time. The order is the file's.

use std::borrow::Cow;

use super::logline::{bracketed, is_level, messages_in, Connections, LineParts};
use super::{line_location, lines};
use crate::event::{Event, Payload, Side, Unreadable};

/// What a line of the channel says.
#[derive(Debug, PartialEq)]
enum Said<'a> {
    /// A protocol message, whose JSON starts at byte `column` of the line.
    Message {
        from: Side,
        json: &'a str,
        column: usize,
    },
    /// VS Code starts the server (again).
    Starting,
    /// Any other line of the channel (connection states, stderr, errors).
    Other,
}

/// The markers VS Code puts before a message, old and new.
const MARKERS: &[(&str, Side)] = &[
    ("[editor -> server] ", Side::Client),
    ("[server -> editor] ", Side::Server),
    ("[Client Says] ", Side::Client),
    ("[Server Says] ", Side::Server),
];

/// `2026-07-24 02:03:14.089 ` at the start of a line: the rest of the line.
pub(super) fn after_stamp(line: &str) -> Option<&str> {
    let (date, rest) = line.split_once(' ')?;
    let (time, rest) = rest.split_once(' ')?;
    let digits = |s: &str, shape: &str| {
        s.len() == shape.len()
            && s.bytes().zip(shape.bytes()).all(|(c, want)| {
                if want == b'0' {
                    c.is_ascii_digit()
                } else {
                    c == want
                }
            })
    };
    let (hms, millis) = time.split_once('.').unwrap_or((time, "0"));
    (digits(date, "0000-00-00")
        && digits(hms, "00:00:00")
        && millis.bytes().all(|c| c.is_ascii_digit()))
    .then_some(rest)
}

/// Reads a line of the channel: `[<local time>] [level] text`. `None` for a
/// line of another shape (the continuation of a multi-line entry).
fn parse(line: &str) -> Option<Said<'_>> {
    let text = sentence(line)?;
    let column = line.len() - text.len();
    for (marker, from) in MARKERS {
        if let Some(json) = text.strip_prefix(marker) {
            return Some(Said::Message {
                from: *from,
                json,
                column: column + marker.len(),
            });
        }
    }
    Some(if text.trim_end() == "Connection state: Starting" {
        Said::Starting
    } else {
        Said::Other
    })
}

/// The text after a line's time and level.
fn sentence(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    let rest = after_stamp(trimmed).unwrap_or(trimmed);
    let (level, text) = bracketed(rest)?;
    is_level(level).then_some(text)
}

/// The parts of a line VS Code wrote (for `mcp-lint redact`); `None` for a
/// line it did not write, which goes on with the server's stderr.
pub(crate) fn line_parts(line: &str) -> Option<LineParts> {
    Some(LineParts::of(line, &[], sentence(line)?))
}

/// Whether a line is one only VS Code's MCP channel would hold (used to
/// detect the format): a message, or a connection state.
pub(super) fn is_marker(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    match parse(&text) {
        Some(Said::Message { .. } | Said::Starting) => true,
        Some(Said::Other) => text.contains("] Connection state: "),
        None => false,
    }
}

/// Decodes a whole channel, line by line, in file order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let mut connections = Connections::default();
    let mut out = Vec::new();
    for (number, start, raw) in lines(bytes) {
        let location = line_location(source, number, start as u64, raw);
        let (text, invalid_utf8) = match std::str::from_utf8(raw) {
            Ok(text) => (Cow::Borrowed(text), None),
            Err(e) => (String::from_utf8_lossy(raw), Some(e.valid_up_to())),
        };
        match parse(&text) {
            None | Some(Said::Other) => {}
            Some(Said::Starting) => connections.start(None),
            Some(Said::Message { .. }) if invalid_utf8.is_some() => out.push(Event::unreadable(
                location,
                Unreadable::Json(format!(
                    "the line is not valid UTF-8 (invalid byte at column {})",
                    invalid_utf8.unwrap_or(0) + 1
                )),
            )),
            Some(Said::Message { from, json, column }) => match messages_in(json, column) {
                Err(why) => out.push(Event::unreadable(location, why)),
                Ok(messages) => {
                    let session = connections.session(None);
                    out.extend(messages.into_iter().map(|message| Event {
                        location,
                        session: session.clone(),
                        from: Some(from),
                        stream: None,
                        time_ms: None,
                        place: None,
                        payload: Payload::Message(message),
                    }));
                }
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"Visual Studio Code","version":"1.129.1"}}}"#;

    #[test]
    fn both_marker_generations() {
        for (line, want) in [
            (
                format!("2026-07-24 02:03:14.089 [debug] [editor -> server] {INIT}"),
                Side::Client,
            ),
            (
                format!("2026-07-24 02:03:14.151 [trace] [server -> editor] {INIT}"),
                Side::Server,
            ),
            (
                format!("2025-03-23 16:38:00.970 [info] [Client Says] {INIT}"),
                Side::Client,
            ),
            (
                format!("2025-03-23 16:38:00.989 [info] [Server Says] {INIT}"),
                Side::Server,
            ),
            // Pasted without the time, or indented.
            (format!("[debug] [editor -> server] {INIT}"), Side::Client),
            (
                format!("  2026-01-06 14:50:03.933 [info] [server -> editor] {INIT}"),
                Side::Server,
            ),
        ] {
            match parse(&line) {
                Some(Said::Message { from, json, column }) => {
                    assert_eq!(from, want, "{line}");
                    assert_eq!(json, INIT);
                    assert_eq!(&line[column..], INIT);
                }
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_server_s_output_goes_on_in_lines_vs_code_did_not_write() {
        assert_eq!(line_parts("goroutine 1 [running]:"), None);
        assert_eq!(
            line_parts("2026-07-24 02:20:05.463 [warning] [server stderr] panic"),
            Some(LineParts {
                tags: vec![],
                sentence: 34
            })
        );
    }

    #[test]
    fn other_lines() {
        assert_eq!(
            parse("2026-07-24 02:03:14.031 [info] Connection state: Starting"),
            Some(Said::Starting)
        );
        for line in [
            "2026-07-24 02:03:14.089 [info] Connection state: Running",
            "2026-07-24 02:03:14.032 [debug] Server command line: /home/user/go/bin/server",
            "2025-09-05 15:32:51.680 [error] Failed to set MCP server log level: Error: MPC -32603",
            "2025-09-05 15:33:33.306 [warning] [server stderr] Listening on stdio",
        ] {
            assert_eq!(parse(line), Some(Said::Other), "{line}");
        }
        for line in [
            "",
            "  \"stack\": \"Error: x\"",
            "2026-07-24 02:03:14.089 text",
            "[editor -> server] {}",
        ] {
            assert_eq!(parse(line), None, "{line}");
        }
    }

    #[test]
    fn a_restart_is_a_new_session() {
        let log = format!(
            "2026-07-24 02:03:14.031 [info] Connection state: Starting\n\
             2026-07-24 02:03:14.088 [info] Connection state: Starting\n\
             2026-07-24 02:03:14.089 [debug] [editor -> server] {INIT}\n\
             2026-07-24 02:10:00.000 [info] Connection state: Stopped\n\
             2026-07-24 02:11:00.000 [info] Connection state: Starting\n\
             2026-07-24 02:11:00.100 [debug] [editor -> server] {INIT}\n"
        );
        let events = decode(log.as_bytes(), 0);
        let seen: Vec<_> = events
            .iter()
            .map(|e| (e.location.line, e.session.as_deref(), e.time_ms))
            .collect();
        assert_eq!(seen, [(3, None, None), (6, Some("connection 2"), None)]);
    }
}
