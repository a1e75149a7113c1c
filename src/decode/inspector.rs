//! MCP Inspector (v2) protocol-history exports: "Export JSON" on the History
//! screen writes `inspector-protocol-<server>-<time>.json`, a JSON array of
//! entries:
//!
//! ```json
//! [{"id":"…","timestamp":"2026-03-17T10:00:42.123Z","direction":"request","origin":"client",
//!   "message":{"jsonrpc":"2.0","id":3,"method":"tools/call",…},
//!   "response":{"jsonrpc":"2.0","id":3,"result":{…}},"duration":118}]
//! ```
//!
//! A request and its response share one entry: the request is sent by the
//! entry's `origin` at `timestamp`, the response by the other side at
//! `timestamp + duration` (it has no time of its own). Notifications and
//! responses the Inspector could not pair are entries of their own. Events
//! are put in time order; at equal times a response comes after the other
//! messages, since the export cannot say which came first and a server sends
//! a request's progress before its response. Entries without `origin` (older
//! exports) leave the sender to be inferred, as for a bare capture.
//!
//! The document is parsed once, borrowing from the input; each event is
//! located at the line where its `message` or `response` value starts.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::document::{self, offset_of};
use super::http::LineMap;
use super::json::{messages_of, OneOrBatch};
use super::timestamp::parse_rfc3339_ms;
use super::Format;
use crate::event::{Event, Location, Payload, Side, Unreadable};

#[derive(Deserialize)]
struct Entry<'a> {
    #[serde(borrow)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    origin: Option<Cow<'a, str>>,
    #[serde(borrow)]
    message: Option<&'a RawValue>,
    #[serde(borrow)]
    response: Option<&'a RawValue>,
    duration: Option<f64>,
}

/// Which Inspector export `bytes` hold, if any: a JSON array whose first
/// element is a protocol-history entry (`direction` and `message`) or a
/// network entry (`url` and `requestHeaders`). A bare JSON-RPC batch (its
/// elements have `jsonrpc`) is neither.
pub(super) fn sniff(bytes: &[u8]) -> Option<Format> {
    #[derive(Deserialize)]
    struct First<'a> {
        #[serde(borrow)]
        jsonrpc: Option<&'a RawValue>,
        #[serde(borrow)]
        direction: Option<&'a RawValue>,
        #[serde(borrow)]
        message: Option<&'a RawValue>,
        #[serde(borrow)]
        url: Option<&'a RawValue>,
        #[serde(borrow, rename = "requestHeaders")]
        request_headers: Option<&'a RawValue>,
    }
    let rest = bytes
        .trim_ascii_start()
        .strip_prefix(b"[")?
        .trim_ascii_start();
    if !rest.starts_with(b"{") {
        return None;
    }
    match serde_json::Deserializer::from_slice(rest)
        .into_iter::<First>()
        .next()?
    {
        Ok(first) if first.jsonrpc.is_some() => None,
        Ok(first) if first.direction.is_some() && first.message.is_some() => {
            Some(Format::Inspector)
        }
        Ok(first) if first.url.is_some() && first.request_headers.is_some() => {
            Some(Format::InspectorNetwork)
        }
        // A file cut inside its first entry: judge by the names it has.
        Err(e) if e.is_eof() => {
            let head = String::from_utf8_lossy(&rest[..rest.len().min(1 << 16)]);
            if head.contains("\"jsonrpc\"") && !head.contains("\"message\"") {
                None
            } else if head.contains("\"requestHeaders\"") {
                Some(Format::InspectorNetwork)
            } else {
                head.contains("\"direction\"").then_some(Format::Inspector)
            }
        }
        _ => None,
    }
}

/// An event and what orders it: its time, whether it is a response (last at
/// equal times), and the entry it came from.
type Timed = ((f64, bool, usize), Event);

/// An event of one entry, with its time and whether it is a response.
type EntryEvent = ((f64, bool), Event);

/// Decodes a protocol-history export into events in time order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let entries: Vec<&RawValue> = match document::parse(
        bytes,
        source,
        "the Inspector export",
        "an MCP Inspector protocol-history export (a JSON array of entries)",
    ) {
        Ok(entries) => entries,
        Err(events) => return events,
    };
    let mut offsets: Vec<usize> = entries.iter().map(|raw| offset_of(bytes, *raw)).collect();
    let parsed: Vec<Result<Entry, String>> = entries
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            serde_json::from_str::<Entry>(raw.get()).map_err(|e| {
                // serde's position is inside the entry; the report gives the line.
                let e = e.to_string();
                let e = e
                    .rsplit_once(" at line ")
                    .map_or(e.as_str(), |(head, _)| head);
                format!("entry {} is not a valid Inspector entry: {e}", i + 1)
            })
        })
        .collect();
    for entry in parsed.iter().flatten() {
        offsets.extend(
            entry
                .message
                .iter()
                .chain(&entry.response)
                .map(|raw| offset_of(bytes, *raw)),
        );
    }
    let lines = LineMap::new(bytes, source, offsets);
    let mut timed: Vec<Timed> = Vec::new();
    // Entries without a timestamp keep their place after the previous one.
    let mut last_time = f64::NEG_INFINITY;
    for (i, (raw, entry)) in entries.iter().zip(parsed).enumerate() {
        match entry.and_then(|entry| entry_events(bytes, &lines, i + 1, entry, &mut last_time)) {
            Ok(events) => timed.extend(
                events
                    .into_iter()
                    .map(|((time, response), event)| ((time, response, i), event)),
            ),
            Err(why) => {
                let location = lines.locate(offset_of(bytes, *raw));
                let event = Event::unreadable(location, Unreadable::Envelope(why));
                timed.push(((last_time, false, i), event));
            }
        }
    }
    // Stable: events of one entry, and entries at the same time, keep their order.
    timed.sort_by(|(a, _), (b, _)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    timed.into_iter().map(|(_, event)| event).collect()
}

/// The events of one entry, each with its time and whether it is a response.
fn entry_events(
    bytes: &[u8],
    lines: &LineMap,
    number: usize,
    entry: Entry,
    last_time: &mut f64,
) -> Result<Vec<EntryEvent>, String> {
    let message = entry.message.ok_or(format!(
        "entry {number} of the Inspector export has no \"message\""
    ))?;
    let origin = match entry.origin.as_deref() {
        None => None,
        Some("client") => Some(Side::Client),
        Some("server") => Some(Side::Server),
        Some(other) => {
            return Err(format!(
                "entry {number} of the Inspector export: \"origin\" must be \"client\" or \"server\", not \"{other}\""
            ))
        }
    };
    let time = match entry.timestamp.as_deref() {
        None => *last_time,
        Some(stamp) => parse_rfc3339_ms(stamp).ok_or_else(|| {
            format!(
                "entry {number} of the Inspector export: \"timestamp\" \"{stamp}\" is not an RFC 3339 date-time"
            )
        })?,
    };
    *last_time = time;
    let answered = time + entry.duration.filter(|d| *d > 0.0).unwrap_or(0.0);
    let mut out = Vec::new();
    let mut push = |raw: &RawValue, from: Option<Side>, place: String, key: (f64, bool)| {
        let location: Location = lines.locate(offset_of(bytes, raw));
        let event = |payload| Event {
            location,
            session: None,
            from,
            stream: None,
            time_ms: key.0.is_finite().then_some(key.0),
            place: Some(place.clone().into()),
            payload,
        };
        match OneOrBatch::read(raw.get()) {
            Ok(one_or_batch) => messages_of(one_or_batch, |m| {
                out.push((key, event(Payload::Message(m))))
            }),
            Err(e) => out.push((
                key,
                event(Payload::Unreadable(Unreadable::Json(format!(
                    "the {place} cannot be read: {e}"
                )))),
            )),
        }
    };
    push(
        message,
        origin,
        format!("message of entry {number}"),
        (time, false),
    );
    if let Some(response) = entry.response {
        let from = origin.map(Side::peer);
        push(
            response,
            from,
            format!("response in entry {number}"),
            (answered, true),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Body;

    #[test]
    fn sniffs_both_exports_and_not_a_batch() {
        assert_eq!(
            sniff(b" [\n  {\n    \"id\": \"1\",\n    \"timestamp\": \"2026-03-17T10:00:42.123Z\",\n    \"direction\": \"notification\",\n    \"message\": {}\n  }\n]"),
            Some(Format::Inspector)
        );
        assert_eq!(
            sniff(br#"[{"id":"1","timestamp":"2026-03-17T10:00:42.123Z","method":"POST","url":"http://h/mcp","requestHeaders":{}}]"#),
            Some(Format::InspectorNetwork)
        );
        assert_eq!(
            sniff(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#),
            None
        );
        assert_eq!(sniff(br#"[{"id":1,"jsonrpc":"2.0","method":"ping","params":{"message":{},"direction":1}}]"#), None);
        assert_eq!(sniff(b"[1, 2]"), None);
        assert_eq!(sniff(b"{\"log\":{}}"), None);
        // Cut inside the first entry.
        assert_eq!(
            sniff(b"[\n  {\n    \"id\": \"1\",\n    \"direction\": \"request\",\n    \"message\": {\"jsonrpc\": \"2.0\", \"id\": 0, \"meth"),
            Some(Format::Inspector)
        );
        assert_eq!(sniff(b"[{\"jsonrpc\":\"2.0\",\"id\":0,\"meth"), None);
        assert_eq!(
            sniff(b"[\n  {\n    \"id\": \"1\",\n    \"method\": \"POST\",\n    \"requestHeaders\": {\"acc"),
            Some(Format::InspectorNetwork)
        );
    }

    #[test]
    fn a_response_shares_its_entry_and_comes_at_timestamp_plus_duration() {
        let export = br#"[
  {"id":"a","timestamp":"2026-03-17T10:00:42.000Z","direction":"request","origin":"client",
   "message":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":3}}},
   "response":{"jsonrpc":"2.0","id":3,"result":{}},"duration":100},
  {"id":"b","timestamp":"2026-03-17T10:00:42.100Z","direction":"notification","origin":"server",
   "message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1}}},
  {"id":"c","timestamp":"2026-03-17T10:00:42.050Z","direction":"request","origin":"server",
   "message":{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}},
   "response":{"jsonrpc":"2.0","id":0,"result":{}},"duration":10}
]"#;
        let events = decode(export, 0);
        let seen: Vec<_> = events
            .iter()
            .map(|e| {
                let kind = match &e.payload {
                    Payload::Message(m) => match m.body {
                        Body::Request { .. } => "request",
                        Body::Notification { .. } => "notification",
                        Body::Response { .. } => "response",
                        Body::Unclassifiable => "?",
                    },
                    _ => "other",
                };
                (e.location.line, e.from, kind)
            })
            .collect();
        assert_eq!(
            seen,
            [
                (3, Some(Side::Client), "request"),
                (8, Some(Side::Server), "request"),
                (9, Some(Side::Client), "response"),
                // The progress and the response at the same millisecond: progress first.
                (6, Some(Side::Server), "notification"),
                (4, Some(Side::Server), "response"),
            ]
        );
    }

    #[test]
    fn bad_entries_are_reported_where_they_are() {
        let export = br#"[
  {"timestamp":"2026-03-17T10:00:42.000Z","direction":"notification"},
  {"timestamp":"noon","origin":"client","message":{}},
  {"timestamp":"2026-03-17T10:00:43.000Z","origin":"proxy","message":{}},
  {"timestamp":"2026-03-17T10:00:44.000Z","message":{"jsonrpc":"2.0","method":"notifications/initialized"}},
  "entry"
]"#;
        let events = decode(export, 0);
        let seen: Vec<_> = events
            .iter()
            .map(|e| match &e.payload {
                Payload::Unreadable(Unreadable::Envelope(why)) => (e.location.line, why.clone()),
                Payload::Message(_) => (e.location.line, format!("message from {:?}", e.from)),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            seen,
            [
                (2, "entry 1 of the Inspector export has no \"message\"".to_string()),
                (3, "entry 2 of the Inspector export: \"timestamp\" \"noon\" is not an RFC 3339 date-time".into()),
                (4, "entry 3 of the Inspector export: \"origin\" must be \"client\" or \"server\", not \"proxy\"".into()),
                (5, "message from None".into()),
                (6, "entry 5 is not a valid Inspector entry: invalid type: string \"entry\", expected struct Entry".into()),
            ]
        );
    }
}
