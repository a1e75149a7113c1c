//! Pieces shared by the text logs that carry JSON-RPC messages inside their
//! lines (Claude Desktop, VS Code): bracketed tags, the embedded message,
//! and sessions that start over when the client restarts a server.

use std::collections::HashMap;
use std::ops::Range;

use compact_str::{format_compact, CompactString};

use super::json::{messages_of, OneOrBatch};
use super::jsonl::json_error_at;
use crate::event::{Message, Unreadable};

/// The log levels of Electron's and VS Code's loggers.
const LEVELS: &[&str] = &[
    "error", "warn", "warning", "info", "debug", "trace", "verbose", "silly", "fatal",
];

pub(super) fn is_level(tag: &str) -> bool {
    LEVELS.contains(&tag)
}

/// `[tag] rest` -> (`tag`, `rest`); the tag ends at the first `]`.
pub(super) fn bracketed(text: &str) -> Option<(&str, &str)> {
    let (tag, rest) = text.strip_prefix('[')?.split_once(']')?;
    Some((tag, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// The parts of a log line its decoder reads, for `mcp-lint redact`: the
/// tags of its prefix that name something (their bytes in the line), and
/// where the client's sentence starts. The rest of the prefix (times,
/// levels, brackets, process ids) says nothing private.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct LineParts {
    pub tags: Vec<(Range<usize>, Tag)>,
    pub sentence: usize,
}

/// What a tag of a line's prefix names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Tag {
    /// A server: the decoder's session, so each name keeps its own.
    Server,
    /// A user of a multi-user host.
    User,
    /// A logger's name (a module of the program that logs).
    Logger,
    /// Anything else (a logger, a tool, a container).
    Other,
}

impl LineParts {
    /// A line whose sentence is `sentence`, a slice of `line`, with `tags`
    /// (slices of `line` too).
    pub fn of(line: &str, tags: &[(&str, Tag)], sentence: &str) -> Self {
        LineParts {
            tags: tags
                .iter()
                .map(|(tag, kind)| (span(line, tag), *kind))
                .collect(),
            sentence: span(line, sentence).start,
        }
    }

    /// A line whose only tag names its server, if it names one.
    pub fn of_server(line: &str, server: Option<&str>, sentence: &str) -> Self {
        let tags: Vec<_> = server.map(|s| (s, Tag::Server)).into_iter().collect();
        LineParts::of(line, &tags, sentence)
    }
}

/// Where `part`, a slice of `line`, sits in it.
fn span(line: &str, part: &str) -> Range<usize> {
    let start = part.as_ptr() as usize - line.as_ptr() as usize;
    start..start + part.len()
}

/// Reads the JSON-RPC message (or batch) at the start of `json`, which
/// begins at byte `column` of its line. What may follow it is whitespace or
/// a `{ ... }` the logger appended (Claude Desktop's `{ metadata: undefined }`).
pub(super) fn messages_in(json: &str, column: usize) -> Result<Vec<Message>, Unreadable> {
    let mut stream = serde_json::Deserializer::from_str(json).into_iter::<OneOrBatch>();
    let raw = match stream.next() {
        None => {
            return Err(Unreadable::Json(format!(
                "the line announces a message but holds none (column {})",
                column + 1
            )))
        }
        Some(Err(e)) => return Err(json_error_at(&e, "the message", column)),
        Some(Ok(raw)) => raw,
    };
    let end = stream.byte_offset();
    let rest = &json[end..];
    let trailing = rest.trim_start();
    if !trailing.is_empty() && !trailing.starts_with('{') {
        return Err(Unreadable::Json(format!(
            "the message is followed by text that is not part of it (column {})",
            column + end + (rest.len() - trailing.len()) + 1
        )));
    }
    let mut messages = Vec::new();
    messages_of(raw, |m| messages.push(m));
    Ok(messages)
}

/// The sessions of a log that outlives its connections: one per server and
/// connection, because request ids start over when a server is restarted
/// while the log goes on. The first connection of a server is named after
/// it (or is the file's default session); later ones are `NAME#2`, ...
/// (`connection 2`, ... without a name).
#[derive(Default)]
pub(super) struct Connections {
    by_server: HashMap<Option<CompactString>, Connection>,
}

#[derive(Default)]
struct Connection {
    /// 0 for the first connection.
    restarts: u32,
    /// Whether any event was given to the current connection.
    used: bool,
    /// Whether a side closed the current connection.
    closed: bool,
}

impl Connections {
    fn get(&mut self, server: Option<&str>) -> &mut Connection {
        self.by_server.entry(server.map(Into::into)).or_default()
    }

    /// The client starts `server` (again): what follows is a new connection,
    /// unless nothing has been seen of the current one yet.
    pub fn start(&mut self, server: Option<&str>) {
        let connection = self.get(server);
        if connection.used {
            *connection = Connection {
                restarts: connection.restarts + 1,
                ..Connection::default()
            };
        }
    }

    /// A side closed the current connection of `server`.
    pub fn close(&mut self, server: Option<&str>) {
        self.get(server).closed = true;
    }

    pub fn is_closed(&mut self, server: Option<&str>) -> bool {
        self.get(server).closed
    }

    /// The session of an event on the current connection of `server`.
    pub fn session(&mut self, server: Option<&str>) -> Option<CompactString> {
        let connection = self.get(server);
        connection.used = true;
        match (server, connection.restarts) {
            (server, 0) => server.map(Into::into),
            (Some(name), n) => Some(format_compact!("{name}#{}", n + 1)),
            (None, n) => Some(format_compact!("connection {}", n + 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restart_after_events_is_a_new_session() {
        let mut c = Connections::default();
        c.start(Some("s"));
        c.start(Some("s"));
        assert_eq!(c.session(Some("s")).as_deref(), Some("s"));
        assert_eq!(c.session(None), None);
        c.start(Some("s"));
        assert_eq!(c.session(Some("s")).as_deref(), Some("s#2"));
        assert_eq!(c.session(None), None);
        c.start(None);
        assert_eq!(c.session(None).as_deref(), Some("connection 2"));
    }

    #[test]
    fn embedded_messages_and_what_may_follow_them() {
        assert_eq!(
            messages_in(
                r#"{"jsonrpc":"2.0","method":"x"} { metadata: undefined }"#,
                10
            )
            .unwrap()
            .len(),
            1
        );
        assert_eq!(
            messages_in(
                r#"[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","method":"y"}]"#,
                0
            )
            .unwrap()
            .len(),
            2
        );
        assert_eq!(
            messages_in(r#"{"jsonrpc":"2.0","id":1,"res"#, 10),
            Err(Unreadable::Json(
                "the message is not valid JSON: EOF while parsing a string (column 38)".into()
            ))
        );
        assert_eq!(
            messages_in(r#"{"jsonrpc":"2.0","method":"x"} trailing"#, 0),
            Err(Unreadable::Json(
                "the message is followed by text that is not part of it (column 32)".into()
            ))
        );
        assert!(messages_in("  ", 0).is_err());
        assert_eq!(bracketed("[info] [x] y"), Some(("info", "[x] y")));
        assert_eq!(bracketed("info"), None);
    }
}
