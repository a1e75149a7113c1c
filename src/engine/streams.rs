//! The HTTP streams of a session: which exchange each stream belongs to,
//! which ended early, which resumes which, the SSE event ids they carried,
//! the endpoint they used, whether the session was ended, and what the
//! transport says of the versions.

use compact_str::CompactString;
use foldhash::HashMap;

use crate::event::{Body, HttpExchange, KeyField, Location, Message, RequestId, Side};
use crate::protocol::headers::Header;
use crate::protocol::{Version, Versions};

/// An HTTP exchange's stream, as far as rules need it.
#[derive(Debug, Clone)]
pub struct StreamInfo {
    /// The HTTP method that opened it (`GET` streams carry no responses).
    pub method: CompactString,
    /// It resumes an earlier stream (`Last-Event-ID`).
    pub resumes: bool,
    /// The stream of the 2024-11-05 HTTP+SSE transport, which carries every
    /// server message, responses included.
    pub legacy_sse: bool,
    /// The response has an HTTP error status (4xx, 5xx): the server rejected
    /// the request body whole, and may say so with a null-id error.
    pub rejected: bool,
    pub status: Option<i64>,
    /// Where the exchange is in the trace.
    pub location: Location,
    /// The stream this one continues: for a resumption, the stream whose
    /// event id its `Last-Event-ID` names (that stream's own origin), when
    /// the trace holds it; else the stream itself.
    pub origin: Box<str>,
    /// The requests, notifications and responses its request body held.
    pub requests: u32,
    pub input: u32,
    /// The ids of its POST's requests that its stream (or a resumption) has
    /// not answered yet.
    pub unanswered: Vec<RequestId>,
    /// Server messages that travelled on it after it had answered every
    /// request of its POST (counted on the origin).
    pub after_final: u32,
    /// The last `retry` the stream's events set, in ms.
    pub retry: Option<u64>,
    /// When the response ended, when the capture says.
    pub ended_ms: Option<i64>,
}

impl StreamInfo {
    /// A POST that carried requests, all of which its stream has answered.
    pub fn answered_all(&self) -> bool {
        self.requests > 0 && self.unanswered.is_empty()
    }
}

/// Where an SSE event id was first seen.
#[derive(Debug, Clone)]
pub struct EventIdSeen {
    /// The stream that carried it, and that stream's origin.
    pub stream: Box<str>,
    pub origin: Box<str>,
    pub location: Location,
}

/// Why a session id is no longer valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// The client deleted it (DELETE answered 2xx).
    Deleted,
    /// The server answered 404 to a request carrying it.
    NotFound,
}

/// What the session's HTTP exchanges have shown.
#[derive(Debug)]
pub struct HttpStreams {
    /// HTTP streams (exchanges) of the session, by stream name.
    pub streams: HashMap<Box<str>, StreamInfo>,
    /// HTTP streams that ended before their exchange did, by stream name.
    pub aborted: HashMap<Box<str>, Location>,
    /// The transport narrows the versions a session can speak (Streamable
    /// HTTP came with 2025-03-26; the HTTP+SSE transport is 2024-11-05's).
    pub versions: Versions,
    /// The path of the session's first MCP exchange (the MCP endpoint), and where.
    pub endpoint: Option<(CompactString, Location)>,
    /// 2024-11-05: the URI the server's `endpoint` event named, and where.
    pub legacy_endpoint: Option<(CompactString, Location)>,
    /// SSE event ids seen, and where.
    pub event_ids: HashMap<CompactString, EventIdSeen>,
    /// The session id stopped being valid, how, and where.
    pub ended: Option<(SessionEnd, Location)>,
    /// The session uses the HTTP+SSE transport of 2024-11-05 (its stream
    /// opened with an `endpoint` event), whatever revision it negotiates:
    /// the rules of Streamable HTTP do not apply to it.
    pub legacy_transport: bool,
}

impl Default for HttpStreams {
    fn default() -> Self {
        HttpStreams {
            streams: HashMap::default(),
            aborted: HashMap::default(),
            versions: Versions::ALL,
            endpoint: None,
            legacy_endpoint: None,
            event_ids: HashMap::default(),
            ended: None,
            legacy_transport: false,
        }
    }
}

impl HttpStreams {
    /// An exchange shows the transport: the 2024-11-05 HTTP+SSE transport
    /// (its stream opens with an `endpoint` event) or, from the first
    /// exchange that is not, Streamable HTTP. Noted before rules see the
    /// exchange, since it is a fact of the exchange itself.
    pub(crate) fn note_transport(&mut self, http: &HttpExchange) {
        if http.sse_endpoint {
            self.legacy_transport = true;
            self.versions = Versions::only(Version::V2024_11_05);
        } else if self.versions == Versions::ALL {
            self.versions = Versions::from(Version::V2025_03_26);
        }
    }

    /// The stream a resumption continues: the origin of the stream that
    /// carried the event id its `Last-Event-ID` names, if the trace holds it.
    pub fn resumed_origin(&self, http: &HttpExchange) -> Option<&str> {
        let last = http.request_header(Header::LastEventId)?;
        self.event_ids
            .get(last.trim())
            .map(|seen| seen.origin.as_ref())
    }

    /// The origin of `stream` (itself unless it resumes another).
    pub fn origin<'a>(&'a self, stream: &'a str) -> &'a str {
        self.streams
            .get(stream)
            .map_or(stream, |s| s.origin.as_ref())
    }

    /// Whether two streams are distinct: neither continues the other.
    pub fn distinct(&self, a: &str, b: &str) -> bool {
        a != b && self.origin(a) != self.origin(b)
    }

    /// An exchange began on `stream`, at `location`.
    pub(crate) fn open(&mut self, stream: &str, http: &HttpExchange, location: Location) {
        let origin: Box<str> = self.resumed_origin(http).unwrap_or(stream).into();
        for id in http.sse.iter().filter_map(|e| e.id.as_ref()) {
            self.event_ids
                .entry(id.clone())
                .or_insert_with(|| EventIdSeen {
                    stream: stream.into(),
                    origin: origin.clone(),
                    location,
                });
        }
        let is_mcp_path = http.requests + http.notifications + http.responses > 0;
        if self.endpoint.is_none() && is_mcp_path && http.method == "POST" {
            self.endpoint = Some((http.path().into(), location));
        }
        if let Some(uri) = legacy_endpoint_uri(http) {
            self.legacy_endpoint.get_or_insert((uri, location));
        }
        let status = http.status;
        if self.ended.is_none() && http.session_header.is_some() {
            self.ended = match (http.method.as_str(), status) {
                (_, Some(404)) => Some((SessionEnd::NotFound, location)),
                ("DELETE", Some(200..=299)) => Some((SessionEnd::Deleted, location)),
                _ => None,
            };
        }
        self.streams.insert(
            stream.into(),
            StreamInfo {
                method: http.method.clone(),
                resumes: http.resumes,
                legacy_sse: http.sse_endpoint,
                rejected: status.is_some_and(|s| s >= 400),
                status,
                location,
                origin,
                requests: http.requests,
                input: http.notifications + http.responses,
                unanswered: Vec::new(),
                after_final: 0,
                retry: http.sse.iter().filter_map(|e| e.retry).next_back(),
                ended_ms: http.ended_ms,
            },
        );
    }

    /// A message travelled on `stream`.
    pub(crate) fn note_message(&mut self, from: Side, message: &Message, stream: &str) {
        let origin: Box<str> = self.origin(stream).into();
        let Some(info) = self.streams.get_mut(&origin) else {
            return;
        };
        match (from, &message.body) {
            (
                Side::Client,
                Body::Request {
                    id: KeyField::Valid(id),
                    ..
                },
            ) if !message
                .method()
                .is_some_and(|m| m.starts_with("notifications/")) =>
            {
                info.unanswered.push(id.clone())
            }
            (Side::Server, _) if info.answered_all() => info.after_final += 1,
            (
                Side::Server,
                Body::Response {
                    id: Some(KeyField::Valid(id)),
                    ..
                },
            ) => info.unanswered.retain(|open| open != id),
            _ => {}
        }
    }

    /// `stream` ended before its exchange did.
    pub(crate) fn abort(&mut self, stream: &str, location: Location) {
        self.aborted.insert(stream.into(), location);
    }
}

/// The endpoint URI a 2024-11-05 `endpoint` event names, as a request
/// target (path and query); an absolute URI keeps its path and query.
fn legacy_endpoint_uri(http: &HttpExchange) -> Option<CompactString> {
    let uri = http.endpoint_data.as_deref()?.trim();
    let target = match uri.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => uri,
    };
    Some(target.into())
}
