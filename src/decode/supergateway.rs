//! supergateway's log: the stdio↔SSE/HTTP bridge logs every message it
//! passes, in both directions, as text or (with `--logFormat json`) as JSON:
//!
//! ```text
//! [supergateway] SSE → Child (session 450b6719-…): {"jsonrpc":"2.0","id":41,"method":"resources/list","params":{}}
//! [supergateway] Child → SSE (session 450b6719-…): { jsonrpc: '2.0', id: 41, result: { resources: [] } }
//! [supergateway] StreamableHttp → Child: {"jsonrpc":"2.0","id":0,"method":"initialize",...}
//! [supergateway] Child non-JSON (session 450b6719-…): Starting server...
//! {"time":"2026-03-02T10:00:00.000Z","level":"info","msg":"Child → SSE (session 450b…):","data":{"jsonrpc":"2.0",...}}
//! ```
//!
//! `Child` is the stdio server: a message to it is the client's, one from it
//! the server's. In the gateways the other way round (`Stdio → SSE`), `Stdio`
//! is the local client. The session is the `(session …)` the line names, or
//! the file's. What the client sends is JSON; what the server sends is
//! printed by Node's `console.log`, as JavaScript notation, over several
//! lines when long, and cut at depth (see [`js_literal`]): it is read as far
//! as it goes, and the message is marked incomplete. `Child non-JSON` is the
//! server writing something else on its stdout. Every other line is skipped.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::js_literal::{self, Converted};
use super::logline::{messages_in, LineParts, Tag};
use super::timestamp::parse_rfc3339_ms;
use super::{line_location, lines};
use crate::event::{Event, Location, Message, Payload, Side, Transport, Unreadable};

const PREFIX: &str = "[supergateway] ";

/// How many lines one message printed over several lines may take.
const MAX_CONTINUATION: usize = 10_000;

/// What a sentence of the log says.
#[derive(Debug, PartialEq)]
enum Said<'a> {
    /// A message passed on; its text starts `column` bytes into the sentence
    /// (and may be empty: the JSON layout puts it in `data`).
    Message {
        from: Side,
        session: Option<&'a str>,
        text: &'a str,
        column: usize,
    },
    NotJson {
        session: Option<&'a str>,
        text: &'a str,
    },
    Closed {
        from: Side,
        session: Option<&'a str>,
    },
    Other,
}

/// The ends an arrow names, and who sends what goes from one to the other.
fn sender(from: &str, to: &str) -> Option<Side> {
    match (from, to) {
        ("Child", _) => Some(Side::Server),
        (_, "Child") => Some(Side::Client),
        ("Stdio", _) => Some(Side::Client),
        (_, "Stdio") => Some(Side::Server),
        _ => None,
    }
}

/// ` (session <id>)` at the start of `text`: the id and the rest.
fn session_of(text: &str) -> (Option<&str>, &str) {
    match text
        .strip_prefix(" (session ")
        .and_then(|t| t.split_once(')'))
    {
        Some((id, rest)) => (Some(id), rest),
        None => (None, text),
    }
}

/// Reads one sentence (the text after `[supergateway] `, or a JSON `msg`).
fn said(sentence: &str) -> Said<'_> {
    // `[<request id>] Child → StreamableHttp:` in some versions.
    let text = match sentence.strip_prefix('[').and_then(|t| t.split_once("] ")) {
        Some((_, rest)) => rest,
        None => sentence,
    };
    if let Some(rest) = text.strip_prefix("Child non-JSON") {
        let (session, rest) = session_of(rest);
        let line = rest
            .strip_prefix(": ")
            .unwrap_or(rest.trim_start_matches(':'));
        return Said::NotJson {
            session,
            text: line,
        };
    }
    if let Some(said) = closed(text) {
        return said;
    }
    let Some((from, rest)) = text.split_once(" → ").or_else(|| text.split_once(" -> ")) else {
        return Said::Other;
    };
    let end = rest.find([' ', ':']).unwrap_or(rest.len());
    let Some(side) = sender(from, &rest[..end]) else {
        return Said::Other;
    };
    let (session, after) = session_of(&rest[end..]);
    let Some(message) = after.strip_prefix(':') else {
        return Said::Other;
    };
    let message = message.strip_prefix(' ').unwrap_or(message);
    Said::Message {
        from: side,
        session,
        column: sentence.len() - message.len(),
        text: message,
    }
}

/// The lines that say a side went away.
fn closed(text: &str) -> Option<Said<'_>> {
    for (start, from) in [
        ("Client disconnected", Side::Client),
        ("SSE connection closed", Side::Client),
        ("Child exited", Side::Server),
    ] {
        if let Some(rest) = text.strip_prefix(start) {
            let (session, _) = session_of(rest);
            return Some(Said::Closed { from, session });
        }
    }
    None
}

/// A line of the text layout: its sentence, and where that starts. Docker
/// Compose prefixes `<service>  | `.
fn text_sentence(line: &str) -> Option<(&str, usize)> {
    let at = line.find(PREFIX)?;
    let before = line[..at].trim_end();
    (before.is_empty() || before.ends_with('|'))
        .then(|| (&line[at + PREFIX.len()..], at + PREFIX.len()))
}

/// The parts of a line of the text layout (for `mcp-lint redact`): Docker
/// Compose's service, if any, and the sentence.
pub(crate) fn line_parts(line: &str) -> Option<LineParts> {
    let (sentence, at) = text_sentence(line)?;
    let service = line[..at - PREFIX.len()].trim_end();
    let service = service.strip_suffix('|').unwrap_or(service).trim_end();
    let tags: Vec<_> = (!service.is_empty())
        .then_some((service, Tag::Other))
        .into_iter()
        .collect();
    Some(LineParts::of(line, &tags, sentence))
}

/// One record of the JSON layout.
#[derive(Deserialize)]
struct Record<'a> {
    #[serde(borrow)]
    time: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    msg: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
}

fn record(line: &str) -> Option<Record<'_>> {
    serde_json::from_str(line).ok()
}

/// Whether a line is supergateway's: text, or a JSON record whose sentence
/// only supergateway writes.
pub(super) fn is_marker(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    if text_sentence(&text).is_some() {
        return true;
    }
    record(text.trim()).is_some_and(|r| !matches!(said(&r.msg), Said::Other))
}

/// Whether the input is supergateway's JSON layout (its first lines are
/// JSON, which the detection of log formats otherwise leaves to the traces).
pub(super) fn sniff_json(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1 << 16)];
    lines(head)
        .map(|(_, _, line)| line)
        .filter(|line| !super::is_blank(line))
        .take(64)
        .any(|line| line.trim_ascii_start().starts_with(b"{") && is_marker(line))
}

/// Reads a message printed as JSON or as JavaScript notation. `Err(None)`
/// asks for the next line: the printout is not finished.
fn read_message(text: &str, column: usize) -> Result<Vec<Message>, Option<Unreadable>> {
    if let Ok(messages) = messages_in(text, column) {
        return Ok(messages);
    }
    let converted = match js_literal::to_json(text) {
        Ok(converted) => converted,
        Err(js_literal::Error::Eof) => return Err(None),
        Err(js_literal::Error::At(at)) => {
            return Err(Some(Unreadable::Json(format!(
                "the logged message cannot be read (column {})",
                column + at + 1
            ))))
        }
    };
    let Converted {
        json,
        incomplete,
        len,
    } = converted;
    if !text[len..].trim().is_empty() {
        return Err(Some(Unreadable::Json(format!(
            "the logged message is followed by text that is not part of it (column {})",
            column + len + 1
        ))));
    }
    let mut messages = messages_in(&json, column).map_err(Some)?;
    for message in &mut messages {
        message.incomplete = incomplete;
    }
    Ok(messages)
}

/// Builds the events of one sentence.
struct Sink {
    out: Vec<Event>,
}

impl Sink {
    fn push(
        &mut self,
        location: Location,
        time_ms: Option<f64>,
        session: Option<&str>,
        from: Side,
        payload: Payload,
    ) {
        self.out.push(Event {
            location,
            session: session.map(Into::into),
            from: Some(from),
            stream: None,
            time_ms,
            place: None,
            payload,
        });
    }

    fn messages(
        &mut self,
        location: Location,
        time_ms: Option<f64>,
        session: Option<&str>,
        from: Side,
        read: Result<Vec<Message>, Unreadable>,
    ) {
        match read {
            Ok(messages) => {
                for message in messages {
                    self.push(location, time_ms, session, from, Payload::Message(message));
                }
            }
            Err(why) => self.out.push(Event::unreadable(location, why)),
        }
    }

    /// The events of a sentence that is not a message.
    fn other(&mut self, location: Location, time_ms: Option<f64>, said: Said) {
        match said {
            Said::NotJson { session, text } => {
                let payload = Payload::Transport(Transport::NotProtocol(text.to_string()));
                self.push(location, time_ms, session, Side::Server, payload);
            }
            Said::Closed { from, session } => {
                self.push(
                    location,
                    time_ms,
                    session,
                    from,
                    Payload::Transport(Transport::Closed),
                );
            }
            Said::Message { .. } | Said::Other => {}
        }
    }
}

/// Decodes a whole log, text or JSON, in file order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let all: Vec<_> = lines(bytes).collect();
    // Only in the JSON layout is a line that opens an object meant as a record.
    let json_layout = sniff_json(bytes);
    let mut sink = Sink { out: Vec::new() };
    let mut index = 0;
    while index < all.len() {
        let (number, start, raw) = all[index];
        index += 1;
        let location = line_location(source, number, start as u64, raw);
        let line = String::from_utf8_lossy(raw);
        if let Some((sentence, column)) = text_sentence(&line) {
            match said(sentence) {
                Said::Message {
                    from,
                    session,
                    text,
                    column: at,
                } => {
                    let (read, used) = read_over_lines(text, column + at, &all[index..]);
                    index += used;
                    sink.messages(location, None, session, from, read);
                }
                other => sink.other(location, None, other),
            }
        } else if json_layout && line.trim_start().starts_with('{') {
            match serde_json::from_str::<Record>(line.trim()) {
                Ok(record) => json_record(&mut sink, location, &record),
                Err(e) => sink.out.push(Event::unreadable(
                    location,
                    Unreadable::Json(format!("the line is not a supergateway log record: {e}")),
                )),
            }
        }
    }
    sink.out
}

/// A message printed from `text` on, over the following lines while the
/// printout is unfinished: the messages, and how many more lines it took.
fn read_over_lines(
    text: &str,
    column: usize,
    next: &[(u64, usize, &[u8])],
) -> (Result<Vec<Message>, Unreadable>, usize) {
    let mut printed = text.to_string();
    let mut open = bracket_balance(text);
    let mut used = 0;
    loop {
        // Reading again only once the brackets close keeps a long
        // printout linear rather than quadratic.
        if open <= 0 {
            match read_message(&printed, column) {
                Ok(messages) => return (Ok(messages), used),
                Err(Some(why)) => return (Err(why), used),
                Err(None) => {}
            }
        }
        let continuation = next
            .get(used)
            .map(|(_, _, raw)| String::from_utf8_lossy(raw))
            .filter(|line| text_sentence(line).is_none() && used < MAX_CONTINUATION);
        let Some(line) = continuation else {
            let why = "the logged message ends before it is complete";
            return (Err(Unreadable::Json(why.into())), used);
        };
        open += bracket_balance(&line);
        printed.push('\n');
        printed.push_str(&line);
        used += 1;
    }
}

/// How many more brackets a line of a printout opens than it closes,
/// outside its strings (which `util.inspect` never breaks over lines).
fn bracket_balance(line: &str) -> i64 {
    let mut balance = 0;
    let mut quote = None;
    let mut escaped = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '{' | '[') => balance += 1,
            (None, '}' | ']') => balance -= 1,
            (None, _) => {}
        }
    }
    balance
}

/// The events of a record of the JSON layout: the message is in the
/// sentence (what the client sent, as JSON) or in `data`.
fn json_record(sink: &mut Sink, location: Location, record: &Record) {
    let time_ms = record.time.as_deref().and_then(parse_rfc3339_ms);
    match said(&record.msg) {
        Said::Message {
            from,
            session,
            text,
            ..
        } => {
            let read = match (text.trim().is_empty(), record.data) {
                (false, _) => read_message(text, 0).map_err(|why| {
                    why.unwrap_or_else(|| {
                        Unreadable::Json("the logged message ends before it is complete".into())
                    })
                }),
                (true, Some(data)) => messages_in(data.get(), 0),
                (true, None) => Err(Unreadable::Json(
                    "the record names a message but holds none".into(),
                )),
            };
            sink.messages(location, time_ms, session, from, read);
        }
        other => sink.other(location, time_ms, other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Body;

    #[test]
    fn sentences() {
        assert_eq!(
            said(r#"SSE → Child (session 450b): {"jsonrpc":"2.0"}"#),
            Said::Message {
                from: Side::Client,
                session: Some("450b"),
                text: r#"{"jsonrpc":"2.0"}"#,
                column: 30
            }
        );
        assert!(matches!(
            said("Child → SSE (session 450b): { id: 1 }"),
            Said::Message {
                from: Side::Server,
                session: Some("450b"),
                text: "{ id: 1 }",
                ..
            }
        ));
        assert!(matches!(
            said("[7] Child → StreamableHttp: {}"),
            Said::Message {
                from: Side::Server,
                session: None,
                text: "{}",
                ..
            }
        ));
        assert!(matches!(
            said("Stdio → SSE: { id: 1 }"),
            Said::Message {
                from: Side::Client,
                ..
            }
        ));
        assert!(matches!(
            said("SSE → Stdio: { id: 1 }"),
            Said::Message {
                from: Side::Server,
                ..
            }
        ));
        assert!(matches!(
            said("Child → SSE (session a):"),
            Said::Message { text: "", .. }
        ));
        assert_eq!(
            said("Child non-JSON (session a): Loading..."),
            Said::NotJson {
                session: Some("a"),
                text: "Loading..."
            }
        );
        assert_eq!(
            said("Child non-JSON: Loading..."),
            Said::NotJson {
                session: None,
                text: "Loading..."
            }
        );
        assert_eq!(
            said("Client disconnected (session a)"),
            Said::Closed {
                from: Side::Client,
                session: Some("a")
            }
        );
        for other in [
            "New SSE connection from ::1",
            "Child stderr (session a): boom",
            "POST to SSE transport (session a)",
            "Listening on port 8000",
        ] {
            assert_eq!(said(other), Said::Other, "{other}");
        }
        assert!(text_sentence("gateway-1  | [supergateway] New SSE connection from ::1").is_some());
        assert!(text_sentence("text [supergateway] x").is_none());
    }

    #[test]
    fn a_printout_over_several_lines_is_one_incomplete_message() {
        let log = "[supergateway] Child → SSE (session a): {\n  jsonrpc: '2.0',\n  id: 0,\n  result: {\n    capabilities: { tools: [Object] },\n    serverInfo: { name: 'x', version: '1' }\n  }\n}\n[supergateway] New SSE connection from ::1\n";
        let events = decode(log.as_bytes(), 0);
        assert_eq!(events.len(), 1);
        let Payload::Message(m) = &events[0].payload else {
            panic!("{events:?}")
        };
        assert!(m.incomplete);
        assert!(matches!(m.body, Body::Response { .. }));
        assert_eq!(events[0].location.line, 1);
    }

    #[test]
    fn brackets_are_counted_outside_strings() {
        assert_eq!(
            bracket_balance("  result: { content: [ [Object], 'a{[' ] }"),
            0
        );
        assert_eq!(bracket_balance(r"{ a: 'it\'s {', b: ["), 2);
    }

    #[test]
    fn an_unfinished_printout_is_unreadable() {
        let log = "[supergateway] Child → SSE (session a): {\n  jsonrpc: '2.0',\n[supergateway] New SSE connection from ::1\n";
        let events = decode(log.as_bytes(), 0);
        assert_eq!(
            events[0].payload,
            Payload::Unreadable(Unreadable::Json(
                "the logged message ends before it is complete".into()
            ))
        );
    }
}
