//! Claude Code's logs. Claude Code logs no protocol messages, only its own
//! actions and the failures its SDK reports, in three layouts:
//!
//! ```text
//! {"debug":"Calling MCP tool: a2a_send","timestamp":"2026-07-07T12:49:41.279Z","sessionId":"6c47…","cwd":"/home/min/p"}
//! 2026-03-02T18:44:16.136Z [DEBUG] MCP server "meterian-mcp": Starting connection with timeout of 30000ms
//! 2026-04-21 17:12:19.227 [info] From claude: 2026-04-21T11:42:19.227Z [DEBUG] MCP server "x": ...
//! ```
//!
//! The first is a per-server file, `mcp-logs-<server>/<time>.jsonl`, one
//! record per line (older versions wrote one JSON array of the same records,
//! pretty-printed); its session is the record's `sessionId`. The second is the
//! debug log (`claude --debug`), and the third the same lines inside the VS
//! Code extension's output channel; their session is the server's name, and
//! each `Starting connection` begins a new one.
//!
//! Only the failures the SDK reports (see [`client_report`]) become events;
//! the server's stderr, which Claude Code logs at error level, is not an
//! error and is skipped, like every other sentence. A log in which nothing
//! is reported gives one [`Transport::NoMessages`] event: it could not be
//! checked, which is not the same as clean.

use std::borrow::Cow;

use compact_str::CompactString;
use serde::Deserialize;

use super::client_report;
use super::logline::{bracketed, Connections, LineParts};
use super::timestamp::parse_rfc3339_ms;
use super::{line_location, lines, vscode_log};
use crate::event::{Event, Location, Unreadable};

/// The client named in the finding of a log that holds nothing to check.
const CLIENT: &str = "Claude Code";

/// One record of an `mcp-logs-<server>` file. The text is under `debug`,
/// `info` or `error`, depending on its level.
#[derive(Deserialize, Default)]
struct Record<'a> {
    #[serde(borrow)]
    debug: Option<Cow<'a, str>>,
    #[serde(borrow)]
    info: Option<Cow<'a, str>>,
    #[serde(borrow)]
    error: Option<Cow<'a, str>>,
    #[serde(borrow)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(borrow, rename = "sessionId")]
    session_id: Option<Cow<'a, str>>,
}

impl Record<'_> {
    fn text(&self) -> Option<&str> {
        self.error
            .as_deref()
            .or(self.info.as_deref())
            .or(self.debug.as_deref())
    }

    /// Takes the members `other` has, keeping them beyond its input.
    fn merge(&mut self, other: Record<'_>) {
        let owned = |field: Option<Cow<'_, str>>| field.map(|f| Cow::Owned(f.into_owned()));
        let Record {
            debug,
            info,
            error,
            timestamp,
            session_id,
        } = other;
        self.debug = owned(debug).or(self.debug.take());
        self.info = owned(info).or(self.info.take());
        self.error = owned(error).or(self.error.take());
        self.timestamp = owned(timestamp).or(self.timestamp.take());
        self.session_id = owned(session_id).or(self.session_id.take());
    }

    fn is_record(&self) -> bool {
        self.text().is_some() && (self.session_id.is_some() || self.timestamp.is_some())
    }
}

/// Whether the input is an `mcp-logs` file: JSON lines, or one JSON array,
/// of Claude Code's records.
pub(super) fn sniff(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let start = text.trim_start();
    if start.starts_with('[') {
        return start.contains("\"sessionId\"")
            && ["\"debug\"", "\"error\"", "\"info\""]
                .iter()
                .any(|key| start.contains(key));
    }
    let first = start.lines().next().unwrap_or("");
    serde_json::from_str::<Record>(first).is_ok_and(|r| r.is_record())
}

/// A line of the debug log: its time, the server it is about (for lines
/// about one), and the sentence.
struct DebugLine<'a> {
    time_ms: f64,
    server: Option<&'a str>,
    sentence: &'a str,
}

/// The parts of a line of the debug log (for `mcp-lint redact`); `None` for
/// a line Claude Code did not write, which goes on with the server's stderr.
pub(crate) fn line_parts(line: &str) -> Option<LineParts> {
    let parsed = debug_line(line)?;
    Some(LineParts::of_server(line, parsed.server, parsed.sentence))
}

/// Reads `<RFC 3339> [LEVEL] text`, unwrapping the VS Code extension's
/// `<local time> [info] From claude: ` first. `None` for continuation lines.
fn debug_line(line: &str) -> Option<DebugLine<'_>> {
    let line = match vscode_log::after_stamp(line).and_then(bracketed) {
        Some((_, text)) => text.strip_prefix("From claude: ")?,
        None => line,
    };
    let (stamp, rest) = line.split_once(' ')?;
    let time_ms = parse_rfc3339_ms(stamp)?;
    let (level, text) = bracketed(rest)?;
    if !["DEBUG", "INFO", "WARN", "ERROR"].contains(&level) {
        return None;
    }
    let (server, sentence) = match text.strip_prefix("MCP server \"") {
        Some(named) => {
            let (server, sentence) = named.split_once('"')?;
            let sentence = sentence.strip_prefix(':').unwrap_or(sentence);
            (Some(server), sentence.trim_start())
        }
        None => (None, text),
    };
    Some(DebugLine {
        time_ms,
        server,
        sentence,
    })
}

/// Whether a line is one only Claude Code's debug log (or its VS Code
/// wrapper) would hold: a line about an MCP server, or the wrapper.
pub(super) fn is_marker(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let wrapped = vscode_log::after_stamp(&text)
        .and_then(bracketed)
        .is_some_and(|(_, rest)| rest.starts_with("From claude: "));
    wrapped || debug_line(&text).is_some_and(|l| l.server.is_some())
}

/// The event of a failure the client reports in `sentence`, if it reports one.
fn reported(
    location: Location,
    session: Option<CompactString>,
    time_ms: Option<f64>,
    sentence: &str,
) -> Option<Event> {
    // The server's stderr, logged at error level: not an error.
    if sentence.starts_with("Server stderr:") {
        return None;
    }
    client_report::event_of(location, session, time_ms, sentence)
}

/// Decodes a whole log in file order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let mut out = if sniff(bytes) {
        decode_records(bytes, source)
    } else {
        decode_debug_log(bytes, source)
    };
    client_report::note_if_nothing_reported(bytes, source, CLIENT, &mut out);
    out
}

/// The records of an `mcp-logs` file: one per line, or pretty-printed
/// inside one array (then each member is on a line of its own, and the
/// record ends with its `}` line).
fn decode_records(bytes: &[u8], source: u32) -> Vec<Event> {
    let mut out = Vec::new();
    // The record being read member by member, and where its text is.
    let mut open: (Record<'static>, Option<Location>) = Default::default();
    for (number, start, raw) in lines(bytes) {
        let location = line_location(source, number, start as u64, raw);
        let text = String::from_utf8_lossy(raw);
        // NUL padding is what a crash leaves at the end of the file.
        let line = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        match line {
            "" | "[" | "]" | "{" => {}
            "}" | "}," => {
                let (record, at) = std::mem::take(&mut open);
                out.extend(at.and_then(|at| record_event(at, &record)));
            }
            _ if line.starts_with('{') => match serde_json::from_str::<Record>(line) {
                Ok(record) => out.extend(record_event(location, &record)),
                Err(e) => out.push(Event::unreadable(location, not_a_record(&e))),
            },
            _ => {
                match serde_json::from_str::<Record>(&format!("{{{}}}", line.trim_end_matches(',')))
                {
                    Ok(member) => {
                        if member.text().is_some() {
                            open.1 = Some(location);
                        }
                        open.0.merge(member);
                    }
                    Err(e) => out.push(Event::unreadable(location, not_a_record(&e))),
                }
            }
        }
    }
    out
}

fn not_a_record(e: &serde_json::Error) -> Unreadable {
    Unreadable::Json(format!("the line is not a Claude Code log record: {e}"))
}

fn record_event(location: Location, record: &Record) -> Option<Event> {
    let time_ms = record.timestamp.as_deref().and_then(parse_rfc3339_ms);
    let session = record.session_id.as_deref().map(Into::into);
    reported(location, session, time_ms, record.text()?)
}

/// The debug log, plain or inside the VS Code output channel. Lines that
/// are not about an MCP server, and continuation lines, are skipped.
fn decode_debug_log(bytes: &[u8], source: u32) -> Vec<Event> {
    let mut connections = Connections::default();
    let mut out = Vec::new();
    for (number, start, raw) in lines(bytes) {
        let text = String::from_utf8_lossy(raw);
        let Some(line) = debug_line(&text) else {
            continue;
        };
        let Some(server) = line.server else {
            continue;
        };
        if line.sentence.starts_with("Starting connection") {
            connections.start(Some(server));
            continue;
        }
        let location = line_location(source, number, start as u64, raw);
        let session = connections.session(Some(server));
        out.extend(reported(
            location,
            session,
            Some(line.time_ms),
            line.sentence,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::logline::Tag;

    #[test]
    fn the_server_s_output_goes_on_in_lines_claude_code_did_not_write() {
        assert_eq!(line_parts("[MCP SERVER] ready"), None);
        assert_eq!(
            line_parts("2026-03-02T18:44:16.402Z [ERROR] MCP server \"m\" Server stderr: booting"),
            Some(LineParts {
                tags: vec![(45..46, Tag::Server)],
                sentence: 48
            })
        );
        assert_eq!(
            line_parts(
                "2026-04-21 17:12:19.201 [info] From claude: 2026-04-21T11:42:19.200Z [DEBUG] x"
            ),
            Some(LineParts {
                tags: vec![],
                sentence: 77
            })
        );
    }
}
