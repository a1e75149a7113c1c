//! MCPSpy's JSON lines (`mcpspy --output events.jsonl`), one event per MCP
//! message it captured with eBPF (`pkg/event/mcp.go` in alex-ilgayev/MCPSpy):
//!
//! ```text
//! {"timestamp":"2025-08-01T09:03:33.954Z","transport_type":"stdio","stdio_transport":{"from_pid":6981,"from_comm":"langflow","to_pid":12470,"to_comm":"python"},"type":"request","id":1,"method":"tools/call","params":{...},"error":{},"raw":"{\"jsonrpc\":\"2.0\",...}"}
//! ```
//!
//! The message is read from `raw`, the text as captured (the other members
//! are MCPSpy's reading of it, lossy: an empty `error` object is written
//! on every line). Over stdio the sender is the process that sent
//! `initialize` (the client) or the other one; over HTTP a message in a
//! request body (`is_request`) is the client's. The session is MCPSpy's
//! `session` id when it has one, else the pair of processes. MCPSpy drops
//! responses that match no request it saw, so `response-unknown-id` cannot
//! be seen in its captures.

use std::collections::HashMap;

use compact_str::{format_compact, CompactString};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::logline::messages_in;
use super::timestamp::parse_rfc3339_ms;
use super::{line_location, lines};
use crate::event::{Event, Location, Payload, Side, Unreadable};

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(borrow)]
    timestamp: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    transport_type: std::borrow::Cow<'a, str>,
    stdio_transport: Option<Stdio>,
    http_transport: Option<Http>,
    #[serde(borrow)]
    session: Option<&'a RawValue>,
    #[serde(borrow)]
    raw: std::borrow::Cow<'a, str>,
}

#[derive(Deserialize, Clone, Copy)]
struct Stdio {
    from_pid: u32,
    to_pid: u32,
}

#[derive(Deserialize, Clone, Copy)]
struct Http {
    #[serde(default)]
    pid: u32,
    #[serde(default)]
    is_request: bool,
}

/// Whether the input is MCPSpy's: its first JSON line is an MCPSpy event.
pub(super) fn sniff(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1 << 16)];
    lines(head)
        .map(|(_, _, line)| line)
        .find(|line| !super::is_blank(line))
        .is_some_and(|line| serde_json::from_slice::<Record>(line).is_ok())
}

/// MCPSpy's session id: the `id` member of its session object (or the
/// session itself, when it is a string or number).
fn session_id(raw: &RawValue) -> Option<CompactString> {
    #[derive(Deserialize)]
    struct Session<'a> {
        #[serde(borrow)]
        id: Option<&'a RawValue>,
    }
    let value = serde_json::from_str::<Session>(raw.get())
        .ok()
        .and_then(|s| s.id)
        .unwrap_or(raw);
    let key = super::json::key_of(value).ok()?;
    Some(format_compact!("{}", key.to_string().trim_matches('"')))
}

/// Decodes a whole capture in file order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let mut clients: HashMap<(u32, u32), u32> = HashMap::new();
    let records: Vec<_> = lines(bytes)
        .filter(|(_, _, line)| !super::is_blank(line))
        .map(|(number, start, raw)| {
            let location = line_location(source, number, start as u64, raw);
            (location, serde_json::from_slice::<Record>(raw))
        })
        .collect();
    // Over stdio, the process that sends initialize is the client.
    for (_, record) in &records {
        if let Ok(Record {
            stdio_transport: Some(s),
            raw,
            ..
        }) = record
        {
            if raw.contains("\"initialize\"") && is_initialize(raw) {
                clients.entry(pair(s)).or_insert(s.from_pid);
            }
        }
    }
    let mut out = Vec::new();
    for (location, record) in records {
        match record {
            Ok(record) => push_record(&mut out, location, &record, &clients),
            Err(e) => out.push(Event::unreadable(location, not_an_event(&e))),
        }
    }
    out
}

/// A line that is not JSON is `invalid-json`; JSON that is not an event, `invalid-envelope`.
fn not_an_event(e: &serde_json::Error) -> Unreadable {
    let why = format!("the line is not an MCPSpy event: {e}");
    match e.classify() {
        serde_json::error::Category::Data => Unreadable::Envelope(why),
        _ => Unreadable::Json(why),
    }
}

fn is_initialize(raw: &str) -> bool {
    messages_in(raw, 0).is_ok_and(|m| {
        m.iter()
            .any(|m| m.method() == Some("initialize") && m.params().is_some())
    })
}

/// The two processes of a stdio connection, in a fixed order.
fn pair(s: &Stdio) -> (u32, u32) {
    (s.from_pid.min(s.to_pid), s.from_pid.max(s.to_pid))
}

fn push_record(
    out: &mut Vec<Event>,
    location: Location,
    record: &Record,
    clients: &HashMap<(u32, u32), u32>,
) {
    let (from, default_session) = match (record.stdio_transport, record.http_transport) {
        (Some(s), _) => {
            let from = clients.get(&pair(&s)).map(|client| {
                if *client == s.from_pid {
                    Side::Client
                } else {
                    Side::Server
                }
            });
            let (a, b) = pair(&s);
            (from, format_compact!("pid {a}-{b}"))
        }
        (None, Some(h)) => {
            let from = if h.is_request {
                Side::Client
            } else {
                Side::Server
            };
            (
                Some(from),
                format_compact!("{} pid {}", record.transport_type, h.pid),
            )
        }
        (None, None) => (None, CompactString::default()),
    };
    let session = record
        .session
        .and_then(session_id)
        .or_else(|| (!default_session.is_empty()).then_some(default_session));
    let time_ms = record.timestamp.as_deref().and_then(parse_rfc3339_ms);
    match messages_in(&record.raw, 0) {
        Err(why) => out.push(Event::unreadable(location, why)),
        Ok(messages) => out.extend(messages.into_iter().map(|message| Event {
            location,
            session: session.clone(),
            from,
            stream: None,
            time_ms,
            place: None,
            payload: Payload::Message(message),
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn senders_from_the_process_that_sent_initialize() {
        let log = concat!(
            r#"{"timestamp":"2025-08-01T09:03:33.000Z","transport_type":"stdio","stdio_transport":{"from_pid":7,"from_comm":"host","to_pid":9,"to_comm":"python"},"type":"request","id":0,"method":"initialize","error":{},"raw":"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}"}"#,
            "\n",
            r#"{"timestamp":"2025-08-01T09:03:33.100Z","transport_type":"stdio","stdio_transport":{"from_pid":9,"from_comm":"python","to_pid":7,"to_comm":"host"},"type":"response","id":0,"error":{},"raw":"{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}"}"#,
            "\n",
            r#"{"timestamp":"2025-08-01T09:03:34.000Z","transport_type":"http","http_transport":{"pid":11,"comm":"node","host":"localhost:3000","is_request":true},"type":"request","id":1,"method":"tools/list","error":{},"raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"}"#,
            "\n",
        );
        let seen: Vec<_> = decode(log.as_bytes(), 0)
            .iter()
            .map(|e| (e.from, e.session.clone()))
            .collect();
        assert_eq!(
            seen,
            [
                (Some(Side::Client), Some("pid 7-9".into())),
                (Some(Side::Server), Some("pid 7-9".into())),
                (Some(Side::Client), Some("http pid 11".into())),
            ]
        );
        assert!(sniff(log.as_bytes()));
    }
}
