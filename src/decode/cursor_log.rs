//! Cursor's "MCP Logs" output channel, saved to a file (or found under
//! `…/Cursor/logs/<time>/window1/exthost/anysphere.cursor-retrieval/MCP Logs.log`).
//! Cursor logs no protocol messages, only its actions and the failures its
//! SDK reports, in two dated layouts:
//!
//! ```text
//! 2025-03-04 11:28:35.823 [error] 00f3: Client error for command Unexpected token 'A', "Aggregator"... is not valid JSON
//! 2025-07-10 10:49:36.646 [error] user-wirewiki: Client error for command No number after minus sign in JSON at position 3
//! 2026-05-23 19:00:58.440 [error] Client error: Unexpected token 'I', "In CallToo"... is not valid JSON Unexpected token 'I', ...
//! ```
//!
//! Builds of 2025 tag each line with the server: the last four characters of
//! its key (`00f3:`, `rver:`), or `user-<server>:`; Cursor 2.x writes one
//! channel per server, untagged. The server's stderr is logged at `[error]`
//! too (`user-db: Processing request of type ListToolsRequest`): it is not an
//! error, so only Cursor's own `Client error` lines are scanned for reported
//! failures (see [`client_report`]); `Error in MCP:` repeats the line before
//! it and is skipped. The timestamps are local time without a zone, so events
//! carry no time.

use super::client_report;
use super::logline::{bracketed, is_level, Connections, LineParts};
use super::{line_location, lines, vscode_log};
use crate::event::Event;

/// The client named in the finding of a log that holds nothing to check.
const CLIENT: &str = "Cursor";

/// The sentences Cursor writes before a failure its SDK reported.
const CLIENT_ERRORS: &[&str] = &["Client error for command ", "Client error: "];

/// Sentences only Cursor's MCP channel holds (used to detect the format).
const MARKERS: &[&str] = &[
    "Client error for command ",
    "Client error: ",
    "Handling CreateClient action",
    "Handling ReloadClient action",
    "Handling ListOfferings action",
    "getOrCreateClient for stdio server",
    "Starting new stdio process with command: ",
    "CreateClient completed, connected: ",
    "[V2 FSM] connection:",
];

/// Sentences after which Cursor talks to a new server process.
const STARTS: &[&str] = &[
    "Starting new stdio process",
    "Handling CreateClient action",
    "Handling ReloadClient action",
];

/// A line of the channel: the server tag, if the build writes one, and the
/// sentence. `None` for lines of another shape (continuations).
fn parse(line: &str) -> Option<(Option<&str>, &str)> {
    let (level, text) = bracketed(vscode_log::after_stamp(line)?)?;
    if !is_level(level) {
        return None;
    }
    Some(match text.split_once(": ") {
        Some((tag, sentence)) if is_tag(tag) => (Some(tag), sentence),
        _ => (None, text),
    })
}

/// A server tag: one word, as Cursor writes them (`00f3`, `user-my-db`).
fn is_tag(tag: &str) -> bool {
    !tag.is_empty()
        && !tag.starts_with('[')
        && !tag.contains(char::is_whitespace)
        && !CLIENT_ERRORS.iter().any(|e| e.starts_with(tag))
}

pub(super) fn is_marker(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    parse(&text).is_some_and(|(_, sentence)| MARKERS.iter().any(|m| sentence.starts_with(m)))
}

/// The parts of a line of the channel (for `mcp-lint redact`): the server
/// its tag names (without `user-`, as its session is named), and the
/// sentence. `None` for a line of another shape (the server's stderr going
/// on). Cursor logs the server's stderr as sentences of its own too.
pub(crate) fn line_parts(line: &str) -> Option<LineParts> {
    let (tag, sentence) = parse(line)?;
    Some(LineParts::of_server(line, session_name(tag), sentence))
}

/// The session of a tag: `user-<server>` and the four-character tag of the
/// same server cannot be matched, so each tag is its own session.
fn session_name(tag: Option<&str>) -> Option<&str> {
    tag.map(|t| t.strip_prefix("user-").unwrap_or(t))
}

/// Decodes a whole channel in file order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let mut connections = Connections::default();
    let mut out = Vec::new();
    for (number, start, raw) in lines(bytes) {
        let text = String::from_utf8_lossy(raw);
        let Some((tag, sentence)) = parse(&text) else {
            continue;
        };
        let server = session_name(tag);
        if STARTS.iter().any(|s| sentence.starts_with(s)) {
            connections.start(server);
            continue;
        }
        let Some(reported) = CLIENT_ERRORS.iter().find_map(|e| sentence.strip_prefix(e)) else {
            continue;
        };
        let location = line_location(source, number, start as u64, raw);
        let session = connections.session(server);
        out.extend(client_report::event_of(location, session, None, reported));
    }
    client_report::note_if_nothing_reported(bytes, source, CLIENT, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::logline::Tag;

    #[test]
    fn tags_of_every_layout() {
        for (line, tag, sentence) in [
            ("2025-02-25 01:21:18.277 [info] db10: Handling CallTool action for tool 'getConsoleLogs'", Some("db10"), "Handling CallTool action for tool 'getConsoleLogs'"),
            ("2025-07-10 10:49:36.646 [error] user-wirewiki: Client error for command x", Some("user-wirewiki"), "Client error for command x"),
            ("2026-05-23 19:00:58.425 [error] Client error: Unexpected end of JSON input", None, "Client error: Unexpected end of JSON input"),
            ("2026-05-23 19:00:29.146 [info] [V2 FSM] connection:connect_success: conn=connecting", None, "[V2 FSM] connection:connect_success: conn=connecting"),
        ] {
            assert_eq!(parse(line), Some((tag, sentence)), "{line}");
        }
        assert_eq!(parse("[MCP SERVER] ready"), None);
        assert_eq!(session_name(Some("user-wirewiki")), Some("wirewiki"));
    }

    #[test]
    fn stderr_at_error_level_is_not_reported() {
        let log = "2025-04-30 17:22:15.510 [error] user-db: Processing request of type ListToolsRequest\n\
                   2025-04-30 17:22:15.511 [error] user-db: Error: request timed out talking to mysql\n\
                   2025-04-30 17:22:15.600 [error] user-db: Client error for command Unexpected token 'S', \"Starting M\"... is not valid JSON\n\
                   2025-04-30 17:22:15.600 [error] user-db: Error in MCP: Unexpected token 'S', \"Starting M\"... is not valid JSON\n";
        let events = decode(log.as_bytes(), 0);
        let lines: Vec<_> = events.iter().map(|e| e.location.line).collect();
        assert_eq!(lines, [3]);
        assert_eq!(events[0].session.as_deref(), Some("db"));
        let parts = line_parts(log.lines().next().unwrap()).unwrap();
        assert_eq!(parts.tags, [(37..39, Tag::Server)]);
        assert_eq!(parts.sentence, 41);
        assert_eq!(line_parts("[MCP SERVER] ready"), None);
    }
}
