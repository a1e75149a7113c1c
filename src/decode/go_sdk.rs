//! The log of the Go SDK's `LoggingTransport` (`mcp/transport.go` in
//! modelcontextprotocol/go-sdk), which wraps a transport and writes every
//! message it reads or writes, one per line, without a time:
//!
//! ```text
//! write: {"jsonrpc":"2.0","id":1,"method":"initialize","params":{...}}
//! read: {"jsonrpc":"2.0","id":1,"result":{...}}
//! read error: invalid character 'S' looking for beginning of value
//! ```
//!
//! `read` and `write` are relative to the wrapped side, which the log does
//! not name: the side that writes `initialize` is the client. Until an
//! `initialize` shows which it is (or in a log without one), senders are left
//! to the engine to infer, as for bare JSON-RPC lines. The file is one session.

use super::client_report;
use super::logline::{messages_in, LineParts};
use super::{line_location, lines};
use crate::event::{Event, Payload, Side};

/// What a line says: the wrapped side read or wrote this.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verb {
    Read,
    Write,
}

/// A line of the log: the verb, whether it is an error, and the text after
/// `read: ` (with the byte where it starts).
fn parse(line: &str) -> Option<(Verb, bool, &str, usize)> {
    // A `log.Logger` writer puts `2025/01/02 15:04:05 ` first.
    let start = go_log_stamp(line);
    let text = &line[start..];
    for (prefix, verb, error) in [
        ("read: ", Verb::Read, false),
        ("write: ", Verb::Write, false),
        ("read error: ", Verb::Read, true),
        ("write error: ", Verb::Write, true),
    ] {
        if let Some(rest) = text.strip_prefix(prefix) {
            return Some((verb, error, rest, start + prefix.len()));
        }
    }
    None
}

/// The length of a `2025/01/02 15:04:05 ` (or `…05.123456 `) prefix, or 0.
fn go_log_stamp(line: &str) -> usize {
    let bytes = line.as_bytes();
    let shape = b"0000/00/00 00:00:00";
    let matches = bytes.len() > shape.len()
        && bytes.iter().zip(shape).all(|(c, want)| match want {
            b'0' => c.is_ascii_digit(),
            _ => c == want,
        });
    if !matches {
        return 0;
    }
    let rest = &line[shape.len()..];
    let micros = rest
        .strip_prefix('.')
        .map_or(0, |r| 1 + r.bytes().take_while(u8::is_ascii_digit).count());
    match line[shape.len() + micros..].strip_prefix(' ') {
        Some(_) => shape.len() + micros + 1,
        None => 0,
    }
}

/// The parts of a line (for `mcp-lint redact`): every line is the logging
/// transport's sentence, after a `log.Logger`'s time if there is one.
pub(crate) fn line_parts(line: &str) -> Option<LineParts> {
    Some(LineParts::of(line, &[], &line[go_log_stamp(line)..]))
}

/// Whether a line is the logging transport's: a message read or written.
pub(super) fn is_marker(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    parse(&text).is_some_and(|(_, error, rest, column)| {
        !error && messages_in(rest, column).is_ok_and(|m| !m.is_empty())
    })
}

/// Who sends what the wrapped side reads: the peer of whoever writes
/// `initialize`. `None` when no line shows it.
fn reader_peer(bytes: &[u8]) -> Option<Side> {
    lines(bytes).find_map(|(_, _, raw)| {
        let text = String::from_utf8_lossy(raw);
        let (verb, false, rest, column) = parse(&text)? else {
            return None;
        };
        let messages = messages_in(rest, column).ok()?;
        messages
            .iter()
            .any(|m| m.method() == Some("initialize") && m.params().is_some())
            .then_some(match verb {
                // The wrapped side reads initialize: it is the server.
                Verb::Read => Side::Client,
                Verb::Write => Side::Server,
            })
    })
}

/// Decodes a whole log in file order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let read_from = reader_peer(bytes);
    let mut out = Vec::new();
    for (number, start, raw) in lines(bytes) {
        let text = String::from_utf8_lossy(raw);
        let Some((verb, error, rest, column)) = parse(&text) else {
            continue;
        };
        let location = line_location(source, number, start as u64, raw);
        let from = match verb {
            Verb::Read => read_from,
            Verb::Write => read_from.map(Side::peer),
        };
        if error {
            // The wrapped client could not parse what the server wrote.
            if from == Some(Side::Server) && client_report::is_json_parse_error(rest) {
                out.extend(client_report::event_of(location, None, None, rest));
            }
            continue;
        }
        match messages_in(rest, column) {
            Err(why) => out.push(Event::unreadable(location, why)),
            Ok(messages) => out.extend(messages.into_iter().map(|message| Event {
                from,
                ..Event::bare(location, Payload::Message(message))
            })),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_stamps() {
        assert_eq!(
            parse("write: {}").map(|p| (p.0, p.1, p.3)),
            Some((Verb::Write, false, 7))
        );
        assert_eq!(
            parse("2025/01/02 15:04:05.123456 read error: EOF").map(|p| (p.0, p.1, p.2)),
            Some((Verb::Read, true, "EOF"))
        );
        assert_eq!(go_log_stamp("2025/01/02 15:04:05 read: {}"), 20);
        assert_eq!(go_log_stamp("read: {}"), 0);
        assert!(parse("reader: {}").is_none());
    }

    #[test]
    fn the_side_that_writes_initialize_is_the_client() {
        let server_side = "read: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\nwrite: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";
        let froms: Vec<_> = decode(server_side.as_bytes(), 0)
            .iter()
            .map(|e| e.from)
            .collect();
        assert_eq!(froms, [Some(Side::Client), Some(Side::Server)]);
        let unknown = "write: {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";
        assert_eq!(decode(unknown.as_bytes(), 0)[0].from, None);
    }
}
