//! MCP Inspector (v2) network exports: "Export JSON" on the Network screen
//! writes `inspector-network-<server>-<time>.json`, a JSON array of the HTTP
//! requests the Inspector made:
//!
//! ```json
//! [{"id":"…","timestamp":"2026-03-17T10:00:42.123Z","method":"POST","url":"http://localhost:3001/mcp",
//!   "requestHeaders":{"content-type":"application/json","mcp-session-id":"…"},
//!   "requestBody":"{\"jsonrpc\":\"2.0\",…}","responseStatus":200,
//!   "responseHeaders":{"content-type":"text/event-stream"},"responseBody":"event: message\ndata: {…}\n\n",
//!   "duration":12,"category":"transport"}]
//! ```
//!
//! Each entry becomes an HTTP exchange, decoded by the same code as a HAR
//! entry (sessions by `Mcp-Session-Id`, SSE bodies, aborted streams, the
//! HTTP rules). What the Inspector records differs from a HAR in two ways:
//! `duration` ends when the response headers arrived, and no later time is
//! recorded, so a response body's messages are placed at that moment; and
//! the body of a long-lived `GET` event stream is never recorded, so the
//! messages the server sent on it are missing. `auth` entries (OAuth) are
//! not MCP traffic and are skipped.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::document::{self, offset_of};
use super::entries::exchanges_in_order;
use super::http::{kept_headers, url_path, url_target, Body, EntryProblem, Exchange};
use super::json::string_of;
use super::timestamp::parse_rfc3339_ms;
use crate::event::Event;

type Headers<'a> = BTreeMap<Cow<'a, str>, Cow<'a, str>>;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry<'a> {
    #[serde(borrow)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    url: Cow<'a, str>,
    #[serde(borrow, default)]
    request_headers: Headers<'a>,
    #[serde(borrow)]
    request_body: Option<&'a RawValue>,
    response_status: Option<i64>,
    #[serde(borrow, default)]
    response_headers: Headers<'a>,
    #[serde(borrow)]
    response_body: Option<&'a RawValue>,
    duration: Option<f64>,
    #[serde(borrow)]
    error: Option<&'a RawValue>,
    #[serde(borrow)]
    category: Option<Cow<'a, str>>,
}

/// A header's value, whatever the case of its name.
fn header<'h>(headers: &'h Headers, name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_ref())
}

/// The exchange of one entry; `None` for an OAuth request.
fn exchange<'a>(
    document: &'a [u8],
    number: usize,
    raw: &'a str,
) -> Result<Option<Exchange<'a>>, EntryProblem> {
    let offset = offset_of(document, raw);
    let problem = |why: String| EntryProblem { offset, why };
    let entry: Entry = serde_json::from_str(raw).map_err(|e| {
        // serde's position is inside the entry; the report gives the line.
        let e = e.to_string();
        let e = e
            .rsplit_once(" at line ")
            .map_or(e.as_str(), |(head, _)| head);
        problem(format!(
            "entry {number} is not a valid Inspector network entry: {e}"
        ))
    })?;
    if entry.category.as_deref() == Some("auth") {
        return Ok(None);
    }
    let started_ms = match entry.timestamp.as_deref() {
        None => None,
        Some(stamp) => Some(parse_rfc3339_ms(stamp).ok_or_else(|| {
            problem(format!(
                "entry {number} of the Inspector network export: \"timestamp\" \"{stamp}\" is not an RFC 3339 date-time"
            ))
        })?),
    };
    // The headers' arrival: the last moment the Inspector records.
    let headers_ms =
        started_ms.map(|start| start + entry.duration.filter(|d| *d > 0.0).unwrap_or(0.0));
    let body = |raw: Option<&'a RawValue>| -> Result<Option<Body<'a>>, EntryProblem> {
        let Some(raw) = raw else {
            return Ok(None);
        };
        let text = string_of(raw).ok_or_else(|| EntryProblem {
            offset: offset_of(document, raw),
            why: format!("entry {number} of the Inspector network export: a body must be a string"),
        })?;
        Ok(Some(Body {
            text,
            offset: offset_of(document, raw),
        }))
    };
    let request_headers = &entry.request_headers;
    let response_headers = &entry.response_headers;
    Ok(Some(Exchange {
        number,
        method: entry.method.clone(),
        path: url_path(&entry.url),
        target: url_target(&entry.url),
        request_headers: kept_headers(
            request_headers
                .iter()
                .map(|(n, v)| (n.as_ref(), v.as_ref())),
        ),
        response_headers: kept_headers(
            response_headers
                .iter()
                .map(|(n, v)| (n.as_ref(), v.as_ref())),
        ),
        started_ms,
        first_byte_ms: headers_ms,
        ended_ms: headers_ms,
        status: entry.response_status,
        request_session: header(request_headers, "mcp-session-id").map(Into::into),
        response_session: header(response_headers, "mcp-session-id").map(Into::into),
        protocol_version: header(request_headers, "mcp-protocol-version").map(Into::into),
        resumes: header(request_headers, "last-event-id").is_some(),
        request_body: body(entry.request_body)?,
        response_content_type: header(response_headers, "content-type")
            .map(str::to_ascii_lowercase),
        response_body: body(entry.response_body)?.filter(|b| !b.text.is_empty()),
        sse_messages: None,
        failure: entry
            .error
            .and_then(string_of)
            .map(Cow::into_owned)
            .filter(|text| !text.is_empty()),
        offset,
    }))
}

/// Decodes a network export into events in trace order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let entries: Vec<&RawValue> = match document::parse(
        bytes,
        source,
        "the Inspector network export",
        "an MCP Inspector network export (a JSON array of requests)",
    ) {
        Ok(entries) => entries,
        Err(events) => return events,
    };
    let entries: Vec<&str> = entries.into_iter().map(RawValue::get).collect();
    exchanges_in_order(bytes, source, &entries, |i, raw, _| {
        exchange(bytes, i + 1, raw)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Payload, Side, Transport, Unreadable};

    #[test]
    fn entries_become_exchanges() {
        let export = br#"[
  {"id":"1","timestamp":"2026-03-17T10:00:42.000Z","method":"GET","url":"http://h/.well-known/oauth-protected-resource","requestHeaders":{},"responseStatus":404,"responseHeaders":{},"duration":3,"category":"auth"},
  {"id":"2","timestamp":"2026-03-17T10:00:42.100Z","method":"POST","url":"http://h/mcp?x=1","requestHeaders":{"Content-Type":"application/json"},
   "requestBody":"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}",
   "responseStatus":200,"responseHeaders":{"Content-Type":"text/event-stream","Mcp-Session-Id":"s-1"},
   "responseBody":"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n\n","duration":12,"category":"transport"}
]"#;
        let events = decode(export, 0);
        let seen: Vec<_> = events
            .iter()
            .map(|e| {
                let kind = match &e.payload {
                    Payload::Message(_) => "message",
                    Payload::Transport(Transport::Http(_)) => "http",
                    other => panic!("{other:?}"),
                };
                (e.location.line, e.session.as_deref(), e.from, kind)
            })
            .collect();
        assert_eq!(
            seen,
            [
                (3, Some("s-1"), Some(Side::Client), "http"),
                (4, Some("s-1"), Some(Side::Client), "message"),
                (6, Some("s-1"), Some(Side::Server), "message"),
            ]
        );
        assert_eq!(
            events[1].place.as_deref(),
            Some("request body of entry 2 (POST /mcp)")
        );
    }

    #[test]
    fn bad_entries_are_reported_where_they_are() {
        let export = br#"[
  {"id":"1","method":"POST"},
  {"id":"2","timestamp":"yesterday","method":"POST","url":"http://h/mcp","requestHeaders":{}},
  {"id":"3","timestamp":"2026-03-17T10:00:42.000Z","method":"POST","url":"http://h/mcp","requestHeaders":{},"requestBody":{"jsonrpc":"2.0"}}
]"#;
        let why: Vec<_> = decode(export, 0)
            .iter()
            .map(|e| match &e.payload {
                Payload::Unreadable(Unreadable::Envelope(why)) => (e.location.line, why.clone()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            why,
            [
                (2, "entry 1 is not a valid Inspector network entry: missing field `url`".to_string()),
                (3, "entry 2 of the Inspector network export: \"timestamp\" \"yesterday\" is not an RFC 3339 date-time".into()),
                (4, "entry 3 of the Inspector network export: a body must be a string".into()),
            ]
        );
    }
}
