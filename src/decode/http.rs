//! HTTP exchanges (from a HAR file or another capture of Streamable HTTP)
//! -> events: the JSON-RPC messages of the request body, then those of the
//! response body (one JSON document, or SSE events), each on the exchange's
//! own channel, and a transport event when the stream ended early.

use std::borrow::Cow;

use compact_str::CompactString;

use super::causal::{causes_provided, Cause, Position};
use super::json::{bodies_of, messages_of, OneOrBatch};
use super::sse;
use crate::event::{
    Body as MessageBody, Event, HttpExchange, KeptHeader, Location, Payload, RequestSummary, Side,
    SseData, SseMark, Transport, Unreadable,
};
use crate::json_text::{members, string_value};
use crate::protocol::headers::{Header, NAME_HEADER_PARAMS};

/// A body as captured, decoded to text, and where it is in the capture file.
pub(crate) struct Body<'a> {
    pub text: Cow<'a, str>,
    /// Byte offset of the body in the capture file.
    pub offset: usize,
}

/// One HTTP request and its response, as far as the capture has them.
pub(crate) struct Exchange<'a> {
    /// 1-based number of the exchange in the capture file.
    pub number: usize,
    pub method: Cow<'a, str>,
    pub path: String,
    /// The URL's path and query.
    pub target: String,
    /// The request's and the response's headers that rules read.
    pub request_headers: Vec<KeptHeader>,
    pub response_headers: Vec<KeptHeader>,
    pub started_ms: Option<f64>,
    /// When the first byte of the response arrived, when the capture says.
    pub first_byte_ms: Option<f64>,
    /// When the response was complete (or the capture gave up on it).
    pub ended_ms: Option<f64>,
    pub status: Option<i64>,
    /// The request's `Mcp-Session-Id` header.
    pub request_session: Option<CompactString>,
    /// The `Mcp-Session-Id` header of the response (assigned at initialize).
    pub response_session: Option<CompactString>,
    /// The request's `MCP-Protocol-Version` header.
    pub protocol_version: Option<CompactString>,
    /// The request carried `Last-Event-ID`.
    pub resumes: bool,
    pub request_body: Option<Body<'a>>,
    pub response_content_type: Option<String>,
    pub response_body: Option<Body<'a>>,
    /// Per-event SSE messages an exporter recorded (`_eventSourceMessages`),
    /// preferred over parsing the body text.
    pub sse_messages: Option<Vec<Body<'a>>>,
    /// Why the exchange did not complete, when the capture says.
    pub failure: Option<String>,
    /// Byte offset of the exchange itself in the capture file.
    pub offset: usize,
}

/// Whether a response's (lower-case) content type is an SSE stream.
pub(crate) fn is_event_stream(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|t| t.starts_with("text/event-stream"))
}

/// An event with the time that orders it among the other exchanges' events.
pub(crate) struct Timed {
    pub time: f64,
    pub event: Event,
}

/// When an exchange's events happen.
struct Times {
    start: f64,
    end: f64,
    /// When the first byte of the response arrived (within start..end).
    first_byte: f64,
    /// A standalone GET stream.
    long_lived: bool,
}

impl Times {
    /// The time of the `n`th of `count` events of an SSE response. Events of
    /// a request's SSE body arrived between the first byte and the end:
    /// without per-event times, they are spread over that window. A
    /// standalone GET stream lives on regardless of its events: they are
    /// placed as early as possible and causal order holds them back.
    fn spread(&self, n: usize, count: usize) -> f64 {
        match count {
            _ if self.long_lived => self.first_byte,
            0 | 1 => self.first_byte,
            _ => self.first_byte + (self.end - self.first_byte) * n as f64 / (count - 1) as f64,
        }
    }
}

/// Where in an exchange a body of messages was.
#[derive(Clone, Copy)]
enum Place {
    RequestBody,
    /// The `n`th (0-based) event of an SSE response.
    SseEvent(usize),
    ResponseBody,
}

/// A part of an exchange that makes events after the exchange's own.
enum Part<'b> {
    /// A body of JSON-RPC messages: an event for each, or one saying the
    /// body is not JSON.
    Messages {
        body: Body<'b>,
        from: Side,
        place: Place,
        time: f64,
    },
    /// An SSE response body that is not an event stream: one event.
    NotAnEventStream { offset: usize, time: f64 },
}

impl Body<'_> {
    fn borrowed(&self) -> Body<'_> {
        Body {
            text: Cow::Borrowed(&self.text),
            offset: self.offset,
        }
    }
}

impl Exchange<'_> {
    fn describe(&self) -> String {
        numbered(
            "entry ",
            self.number,
            &[" (", &self.method, " ", &self.path, ")"],
        )
    }

    /// Whether this exchange carries MCP traffic at all.
    /// The session: the request's id, or for the initialize exchange the
    /// one its response assigned.
    fn session(&self) -> Option<CompactString> {
        self.request_session
            .clone()
            .or_else(|| self.response_session.clone())
    }

    pub fn is_mcp(&self) -> bool {
        self.request_session.is_some()
            || self.response_session.is_some()
            || self.protocol_version.is_some()
            || self
                .request_body
                .as_ref()
                .is_some_and(|b| names_jsonrpc(&b.text))
            || self.is_sse()
    }

    /// When this exchange's events happen.
    fn times(&self) -> Times {
        let start = self.started_ms.unwrap_or(0.0);
        let end = self.ended_ms.unwrap_or(start).max(start);
        Times {
            start,
            end,
            first_byte: self.first_byte_ms.unwrap_or(start).clamp(start, end),
            long_lived: self.method == "GET",
        }
    }

    fn is_sse(&self) -> bool {
        is_event_stream(self.response_content_type.as_deref())
    }

    /// The events of an SSE response body.
    fn sse_events(&self) -> Vec<sse::SseEvent<'_>> {
        match &self.response_body {
            Some(body) if self.is_sse() => sse::parse(&body.text),
            _ => Vec::new(),
        }
    }

    /// The request body's part, made first after the exchange's own event.
    fn request_part(&self, times: &Times) -> Option<Part<'_>> {
        self.request_body.as_ref().map(|body| Part::Messages {
            body: body.borrowed(),
            from: Side::Client,
            place: Place::RequestBody,
            time: times.start,
        })
    }

    /// The response's parts, in the order their events are made.
    fn response_parts<'b>(
        &'b self,
        times: &Times,
        sse_events: &'b [sse::SseEvent<'b>],
    ) -> Vec<Part<'b>> {
        let mut parts = Vec::new();
        if let Some(messages) = &self.sse_messages {
            for (n, body) in messages.iter().enumerate() {
                parts.push(Part::Messages {
                    body: body.borrowed(),
                    from: Side::Server,
                    place: Place::SseEvent(n),
                    time: times.spread(n, messages.len()),
                });
            }
        } else if let Some(body) = &self.response_body {
            if self.is_sse() {
                for (n, sse_event) in sse_events.iter().enumerate() {
                    // Messages are `message` events; others (`endpoint`) carry no JSON-RPC.
                    let is_message = sse_event.event.as_deref().is_none_or(|e| e == "message");
                    if is_message && !sse_event.data.trim().is_empty() {
                        parts.push(Part::Messages {
                            body: Body {
                                text: Cow::Borrowed(sse_event.data.as_ref()),
                                offset: body.offset,
                            },
                            from: Side::Server,
                            place: Place::SseEvent(n),
                            time: times.spread(n, sse_events.len()),
                        });
                    }
                }
                if !body.text.trim().is_empty() && !sse::has_field_lines(&body.text) {
                    parts.push(Part::NotAnEventStream {
                        offset: body.offset,
                        time: times.end,
                    });
                }
            } else if self.response_is_json(&body.text) {
                parts.push(Part::Messages {
                    body: body.borrowed(),
                    from: Side::Server,
                    place: Place::ResponseBody,
                    time: times.end,
                });
            }
        }
        parts
    }

    /// Where `place` is in the exchange, which `described` names.
    fn place(place: Place, described: &str) -> Box<str> {
        match place {
            Place::RequestBody => ["request body of ", described].concat().into(),
            Place::SseEvent(n) => {
                numbered("SSE event ", n + 1, &[" of the response to ", described]).into()
            }
            Place::ResponseBody => ["response body of ", described].concat().into(),
        }
    }

    /// What the events of this exchange (the `entry`th of its capture)
    /// provide for causal order, at their positions, as [`Self::events`]
    /// would make them, without making them: `note` is told each cause
    /// provided. Returns the position of the first event.
    pub fn outline(&self, entry: usize, note: &mut dyn FnMut(Cause, Position)) -> Position {
        let times = self.times();
        let session = self.session();
        // The exchange's own event comes first, at its start (every other
        // event is at or after the start).
        let first = Position {
            time: times.start,
            entry,
            index: 0,
        };
        let mut parts: Vec<Part> = self.request_part(&times).into_iter().collect();
        let response_may_provide = self.sse_messages.is_some()
            || (self.response_body.as_ref()).is_some_and(|b| may_hold_request(&b.text));
        let sse_events = match response_may_provide {
            true => self.sse_events(),
            false => Vec::new(),
        };
        if response_may_provide {
            parts.extend(self.response_parts(&times, &sse_events));
        }
        // Only where a later part provides does the number of events a part
        // makes matter: until then its messages are not read.
        let mut index = 1;
        let mut uncounted = Vec::new();
        for part in &parts {
            match part {
                Part::NotAnEventStream { .. } => index += 1,
                Part::Messages { body, .. } if !may_hold_request(&body.text) => {
                    uncounted.push(body)
                }
                Part::Messages {
                    body, from, time, ..
                } => {
                    for body in uncounted.drain(..) {
                        each_message_body(&body.text, &mut |_| index += 1);
                    }
                    each_message_body(&body.text, &mut |message| {
                        let provided = message.map(|m| causes_provided(&session, *from, &m));
                        for cause in provided.into_iter().flatten() {
                            let (time, entry) = (*time, entry);
                            note(cause, Position { time, entry, index });
                        }
                        index += 1;
                    });
                }
            }
        }
        first
    }

    /// The events of this exchange, with the times that order them.
    pub fn events(&self, locate: &dyn Fn(usize) -> Location) -> Vec<Timed> {
        let times = self.times();
        let start = times.start;
        let stream = CompactString::from(numbered("entry ", self.number, &[]).as_str());
        let session = self.session();
        let described = self.describe();
        let event = |offset: usize, from: Option<Side>, place: Box<str>, payload| Event {
            location: locate(offset),
            session: session.clone(),
            from,
            stream: Some(stream.clone()),
            time_ms: Some(start),
            place: Some(place),
            payload,
        };
        let push_part = |out: &mut Vec<Timed>, part: Part| match part {
            Part::Messages {
                body,
                from,
                place,
                time,
            } => {
                let place = Self::place(place, &described);
                match OneOrBatch::read(&body.text) {
                    Ok(raw) => messages_of(raw, |message| {
                        out.push(Timed {
                            time,
                            event: event(
                                body.offset,
                                Some(from),
                                place.clone(),
                                Payload::Message(message),
                            ),
                        })
                    }),
                    Err(e) => out.push(Timed {
                        time,
                        event: event(
                            body.offset,
                            None,
                            place,
                            Payload::Unreadable(Unreadable::Json(format!(
                                "the body is not valid JSON: {e}"
                            ))),
                        ),
                    }),
                }
            }
            Part::NotAnEventStream { offset, time } => {
                let why = "the body is labelled text/event-stream but is not an event stream (no line of it is an SSE field)";
                out.push(Timed {
                    time,
                    event: event(
                        offset,
                        None,
                        Self::place(Place::ResponseBody, &described),
                        Payload::Unreadable(Unreadable::Json(why.into())),
                    ),
                });
            }
        };
        let mut out = Vec::new();
        if let Some(part) = self.request_part(&times) {
            push_part(&mut out, part);
        }
        let is_sse = self.is_sse();
        let sse_events = self.sse_events();
        out.insert(
            0,
            Timed {
                time: start,
                event: event(
                    self.offset,
                    Some(Side::Client),
                    described.as_str().into(),
                    Payload::Transport(Transport::Http(Box::new(self.http(&out, &sse_events)))),
                ),
            },
        );
        for part in self.response_parts(&times, &sse_events) {
            push_part(&mut out, part);
        }
        note_error_code(&mut out, is_sse || self.sse_messages.is_some());
        let dropped = (is_sse || self.sse_messages.is_some())
            .then(|| stream_without_response(&out))
            .flatten();
        if let Some(failure) = self.ended_early().or(dropped) {
            out.push(Timed {
                time: times.end,
                event: event(
                    self.offset,
                    None,
                    described.as_str().into(),
                    Payload::Transport(Transport::StreamAborted(failure)),
                ),
            });
        }
        out
    }

    /// The exchange's HTTP facts, with what its request body holds
    /// (`request_events`).
    fn http(&self, request_events: &[Timed], sse_events: &[sse::SseEvent<'_>]) -> HttpExchange {
        let mut http = HttpExchange {
            method: self.method.as_ref().into(),
            status: self.status.filter(|s| *s > 0),
            session_header: self.request_session.clone(),
            assigned_session: self
                .response_session
                .clone()
                .filter(|_| self.request_session.is_none()),
            protocol_version_header: self.protocol_version.clone(),
            resumes: self.resumes,
            response_content_type: self.response_content_type.as_deref().map(Into::into),
            response_has_body: self
                .response_body
                .as_ref()
                .is_some_and(|b| !b.text.trim().is_empty())
                || self.sse_messages.as_ref().is_some_and(|m| !m.is_empty()),
            // The 2024-11-05 HTTP+SSE transport opens its stream with an
            // `endpoint` event; all server messages then travel on it.
            sse_endpoint: sse_events
                .iter()
                .any(|e| e.event.as_deref() == Some("endpoint")),
            endpoint_data: sse_events
                .iter()
                .find(|e| e.event.as_deref() == Some("endpoint"))
                .map(|e| e.data.as_ref().into()),
            target: self.target.as_str().into(),
            request_headers: self.request_headers.clone(),
            response_headers: self.response_headers.clone(),
            sse: sse_events.iter().map(sse_mark).collect(),
            ended_ms: self.ended_ms.map(|ms| ms.round() as i64),
            batch: self
                .request_body
                .as_ref()
                .is_some_and(|b| b.text.trim_start().starts_with('[')),
            ..HttpExchange::default()
        };
        for timed in request_events {
            if let Payload::Message(message) = &timed.event.payload {
                match &message.body {
                    MessageBody::Request { method, .. } if method.starts_with("notifications/") => {
                        http.notifications += 1
                    }
                    MessageBody::Request { method, params, .. } => {
                        http.requests += 1;
                        if http.first_request.is_none() {
                            http.first_request = Some(summary(message, method, params));
                        }
                        http.initialize |= method == "initialize";
                        http.modern |=
                            params.meta_protocol_version.is_some() || method == "server/discover";
                    }
                    MessageBody::Notification { .. } => http.notifications += 1,
                    MessageBody::Response { .. } => http.responses += 1,
                    MessageBody::Unclassifiable => {}
                }
            }
        }
        http
    }

    /// Whether a non-SSE response body is meant as JSON (an error page in
    /// HTML or plain text is not a protocol message).
    fn response_is_json(&self, text: &str) -> bool {
        let text = text.trim_start();
        !text.is_empty()
            && (self
                .response_content_type
                .as_deref()
                .is_some_and(|t| t.contains("json"))
                || text.starts_with('{')
                || text.starts_with('['))
    }

    /// How the response stream ended early, if it did.
    fn ended_early(&self) -> Option<String> {
        if let Some(failure) = &self.failure {
            return Some(crate::sanitize::truncate(failure, 120).into_owned());
        }
        match self.status {
            None | Some(0) | Some(-1) => Some("the stream has no response (status 0 or -1)".into()),
            Some(status) if (200..300).contains(&status) && status != 202 => {
                let carries_requests = self
                    .request_body
                    .as_ref()
                    .is_some_and(|b| b.text.contains("\"method\"") && b.text.contains("\"id\""));
                (carries_requests && self.response_body.is_none() && self.sse_messages.is_none())
                    .then(|| "the response body is missing (cut off, or not captured)".into())
            }
            Some(_) => None,
        }
    }
}

/// What each event of a body of messages holds: a message's body, or `None`
/// for the one event of a body that is not JSON.
fn each_message_body(text: &str, each: &mut dyn FnMut(Option<MessageBody>)) {
    match OneOrBatch::read(text) {
        Ok(raw) => bodies_of(raw, |body| each(Some(body))),
        Err(_) => each(None),
    }
}

/// Built once: building a searcher costs more than most searches.
static METHOD_MEMBER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"method\""));
static ID_MEMBER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"id\""));
static UNICODE_ESCAPE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\\u"));

/// Whether JSON text (or SSE text carrying JSON) can hold a request: a
/// message with both a `method` and an `id` member. No escape but `\u`
/// spells a letter, so text with neither member name written plainly nor
/// a `\u` holds none.
fn may_hold_request(text: &str) -> bool {
    let text = text.as_bytes();
    UNICODE_ESCAPE.find(text).is_some()
        || (METHOD_MEMBER.find(text).is_some() && ID_MEMBER.find(text).is_some())
}

/// Notes on the exchange (`out[0]`) the code of the first JSON-RPC error
/// its response carried: in a JSON body, or on its SSE stream.
fn note_error_code(out: &mut [Timed], streamed: bool) {
    let error_code = |t: &Timed| match &t.event.payload {
        Payload::Message(m) => match m.body {
            MessageBody::Response {
                outcome: crate::event::Outcome::Error { code },
                ..
            } => Some(code),
            _ => None,
        },
        _ => None,
    };
    let Some((first, messages)) = out.split_first_mut() else {
        return;
    };
    let Some(code) = messages.iter().find_map(error_code) else {
        return;
    };
    if let Payload::Transport(Transport::Http(http)) = &mut first.event.payload {
        match streamed {
            true => http.stream_error_code = code,
            false => {
                http.response_error = true;
                http.response_error_code = code;
            }
        }
    }
}

/// `before`, `n` in decimal, then `after`, in one string: an exchange's
/// names and places, made for every exchange, without the formatting
/// machinery (`format!` took 2% of a HAR capture's instructions).
fn numbered(before: &str, n: usize, after: &[&str]) -> String {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let digits = &digits[start..];
    let len = before.len() + digits.len() + after.iter().map(|s| s.len()).sum::<usize>();
    let mut text = String::with_capacity(len);
    text.push_str(before);
    text.extend(digits.iter().map(|digit| char::from(*digit)));
    after.iter().for_each(|s| text.push_str(s));
    text
}

/// Built once: building a searcher costs more than most searches.
static JSONRPC_MEMBER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(br#""jsonrpc""#));

/// Whether JSON text names a `"jsonrpc"` member (or holds that string).
fn names_jsonrpc(text: &str) -> bool {
    JSONRPC_MEMBER.find(text.as_bytes()).is_some()
}

/// What rules read of an SSE event besides its data.
fn sse_mark(event: &sse::SseEvent<'_>) -> SseMark {
    let data = event.data.trim();
    let data = match () {
        _ if data.is_empty() => SseData::Empty,
        _ if (data.starts_with('{') || data.starts_with('[')) && names_jsonrpc(data) => {
            SseData::JsonRpc
        }
        _ => SseData::Other,
    };
    SseMark {
        id: event
            .own_id
            .then(|| event.id.as_deref().unwrap_or("").into()),
        event: event.event.as_deref().map(Into::into),
        retry: event.retry,
        data,
    }
}

/// The first request of a body, as its 2026-07-28 headers mirror it.
fn summary(
    message: &crate::event::Message,
    method: &str,
    params: &crate::event::Params,
) -> RequestSummary {
    let named = NAME_HEADER_PARAMS
        .iter()
        .find(|(m, _)| *m == method)
        .map(|(_, param)| *param);
    let [name, arguments] = mirrored_members(message, named);
    RequestSummary {
        method: method.into(),
        name: name.and_then(string_value).map(Cow::into_owned),
        protocol_version: params.meta_protocol_version.as_deref().map(Into::into),
        arguments: arguments.map(Into::into),
    }
}

/// The text of the params member that `Mcp-Name` mirrors (`named`) and of
/// `arguments`, read as serde_json reads an object into a value: a member
/// written twice is its last writing, and none is read from params that are
/// not an object or that name a member unreadably. The arguments are kept
/// as text, not built: only a tool whose schema marks one needs them.
fn mirrored_members<'m>(
    message: &'m crate::event::Message,
    named: Option<&str>,
) -> [Option<&'m str>; 2] {
    let mut found = [None; 2];
    let params = message.members.params.as_ref().map(|p| p.text());
    let Some(params) = params.filter(|p| p.starts_with('{')) else {
        return found;
    };
    for (name, value) in members(params) {
        let Some(name) = name.value() else {
            return [None; 2];
        };
        if Some(&*name) == named {
            found[0] = Some(value);
        } else if name == "arguments" {
            found[1] = Some(value);
        }
    }
    found
}

/// The headers rules read (rows of `protocol::headers`), as captured.
pub(crate) fn kept_headers<'h>(
    headers: impl Iterator<Item = (&'h str, &'h str)>,
) -> Vec<KeptHeader> {
    headers
        .filter_map(|(name, value)| {
            Some(KeptHeader {
                header: Header::of(name)?,
                name: name.into(),
                value: value.into(),
            })
        })
        .collect()
}

/// The path and query of a URL (`/messages/?session_id=1`).
pub(crate) fn url_target(url: &str) -> String {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let target = after_scheme.find('/').map_or("/", |i| &after_scheme[i..]);
    let target = target.split('#').next().unwrap_or(target);
    crate::sanitize::truncate(target, 200).into_owned()
}

/// An SSE response stream that ended without the response to a request its
/// POST carried was dropped, even when the capture marks no error.
fn stream_without_response(out: &[Timed]) -> Option<String> {
    use crate::event::KeyField;
    let messages = out.iter().filter_map(|t| match &t.event.payload {
        Payload::Message(m) => Some((t.event.from, &m.body)),
        _ => None,
    });
    let (mut requests, mut answered) = (Vec::new(), Vec::new());
    for (from, body) in messages {
        match (from, body) {
            (
                Some(Side::Client),
                MessageBody::Request {
                    id: KeyField::Valid(id),
                    method,
                    ..
                },
            ) if !method.starts_with("notifications/") => requests.push(id),
            (
                Some(Side::Server),
                MessageBody::Response {
                    id: Some(KeyField::Valid(id)),
                    ..
                },
            ) => answered.push(id),
            _ => {}
        }
    }
    let missing = requests.into_iter().find(|id| !answered.contains(id))?;
    Some(format!(
        "the SSE stream ended without the response to request {missing}"
    ))
}

/// Why one entry of a capture could not be read, and where.
pub(crate) struct EntryProblem {
    pub offset: usize,
    pub why: String,
}

/// The path of a URL, for naming an exchange ("/mcp").
pub(crate) fn url_path(url: &str) -> String {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme.find('/').map_or("/", |i| &after_scheme[i..]);
    let path = path.split(['?', '#']).next().unwrap_or(path);
    crate::sanitize::truncate(path, 60).into_owned()
}

/// Lines longer than this are quoted from the event's own place in them, not
/// from their start: in a one-line (minified) export the line is the whole file,
/// and its start is some other entry.
pub(crate) const WHOLE_LINE_MAX: usize = 1024;

/// Maps byte offsets of a document to the lines that hold them.
pub(crate) struct LineMap {
    /// (offset, location), sorted by offset.
    located: Vec<(usize, Location)>,
}

impl LineMap {
    /// Locates every offset in `offsets` in one pass over the document: each
    /// byte is scanned once for line numbers and starts, and once for line
    /// ends, however many offsets share a line (a minified export puts
    /// them all on one).
    pub fn new(bytes: &[u8], source: u32, mut offsets: Vec<usize>) -> LineMap {
        offsets.sort_unstable();
        offsets.dedup();
        let mut located = Vec::with_capacity(offsets.len());
        let (mut line, mut counted_to, mut start) = (1u64, 0usize, 0usize);
        // The first line feed at or after the previous offset (or the end).
        let mut end: Option<usize> = None;
        for offset in offsets {
            let offset = offset.min(bytes.len());
            for feed in memchr::memchr_iter(b'\n', &bytes[counted_to..offset]) {
                line += 1;
                start = counted_to + feed + 1;
            }
            counted_to = offset;
            let line_end = match end {
                Some(end) if end >= offset => end,
                _ => memchr::memchr(b'\n', &bytes[offset..]).map_or(bytes.len(), |p| offset + p),
            };
            end = Some(line_end);
            let (from, to) = quoted_part(bytes, start, line_end, offset);
            located.push((
                offset,
                Location {
                    source,
                    line,
                    offset: from as u64,
                    len: u32::try_from(to - from).unwrap_or(u32::MAX),
                },
            ));
        }
        LineMap { located }
    }

    pub fn locate(&self, offset: usize) -> Location {
        if self.located.is_empty() {
            return Location {
                source: 0,
                line: 1,
                offset: 0,
                len: 0,
            };
        }
        let index = self
            .located
            .binary_search_by_key(&offset, |(o, _)| *o)
            .unwrap_or_else(|i| i.saturating_sub(1));
        self.located[index].1
    }
}

/// The part of the line `start..end` that locates `offset`: the whole line
/// (without its `\r`), or for a line too long to quote, a window that starts
/// at `offset`.
pub(crate) fn quoted_part(bytes: &[u8], start: usize, end: usize, offset: usize) -> (usize, usize) {
    let end = if end > start && bytes[end - 1] == b'\r' {
        end - 1
    } else {
        end
    };
    if end - start <= WHOLE_LINE_MAX {
        return (start, end);
    }
    let from = offset.min(end);
    (from, end.min(from + WHOLE_LINE_MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_located_by_a_window_at_each_offset() {
        let mut document = b"[\n".to_vec();
        let second_line = document.len();
        document.extend(std::iter::repeat_n(b'x', 3 * WHOLE_LINE_MAX));
        document.extend(b"\r\nshort\r\n");
        let short_line = document.len() - 7;
        let offsets = vec![
            second_line + 10,
            second_line + 3 * WHOLE_LINE_MAX - 5,
            short_line + 2,
            1,
        ];
        let lines = LineMap::new(&document, 0, offsets);
        let at = |offset: usize| {
            let l = lines.locate(offset);
            (l.line, l.offset as usize, l.len as usize)
        };
        assert_eq!(at(1), (1, 0, 1));
        assert_eq!(at(second_line + 10), (2, second_line + 10, WHOLE_LINE_MAX));
        // The window ends with the line, before its `\r`.
        assert_eq!(
            at(second_line + 3 * WHOLE_LINE_MAX - 5),
            (2, second_line + 3 * WHOLE_LINE_MAX - 5, 5)
        );
        assert_eq!(at(short_line + 2), (3, short_line, 5));
    }

    #[test]
    fn numbered_writes_the_number_in_decimal_between_its_parts() {
        assert_eq!(numbered("entry ", 0, &[]), "entry 0");
        assert_eq!(
            numbered("entry ", 907, &[" (", "GET", ")"]),
            "entry 907 (GET)"
        );
        let max = usize::MAX;
        assert_eq!(numbered("", max, &["."]), format!("{max}."));
    }

    /// The summary of the one request `text` holds.
    fn summary_of(text: &str) -> RequestSummary {
        let mut summaries = Vec::new();
        messages_of(OneOrBatch::read(text).unwrap(), |message| {
            if let MessageBody::Request { method, params, .. } = &message.body {
                summaries.push(summary(&message, method, params));
            }
        });
        summaries.pop().unwrap()
    }

    #[test]
    fn a_summary_reads_the_mirrored_members_as_serde_json_would() {
        let call = summary_of(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"q":[1, 2]},"n\u0061me":"s\u00e9"}}"#,
        );
        // A member written twice counts as its last writing, unescaped.
        assert_eq!(call.name.as_deref(), Some("s\u{e9}"));
        assert_eq!(call.arguments.as_deref(), Some(r#"{"q":[1, 2]}"#));
        let read = summary_of(
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x","name":"n"}}"#,
        );
        assert_eq!(read.name.as_deref(), Some("file:///x"));
        assert_eq!(read.arguments, None);
        let not_a_string = summary_of(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7,"arguments":null}}"#,
        );
        assert_eq!(not_a_string.name, None);
        assert_eq!(not_a_string.arguments.as_deref(), Some("null"));
        let unreadable_member = summary_of(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","\ud800":1}}"#,
        );
        assert_eq!(unreadable_member.name, None);
        let array = summary_of(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["a"]}"#);
        assert_eq!((array.name, array.arguments), (None, None));
    }
}
