//! The lean events the decoders produce and the engine consumes.
//!
//! An event keeps only what the rules need (ids, method, progress token, the
//! shape problems of the message) plus its location, so the engine never
//! touches the raw JSON again. Text for reports is read back from the source.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use compact_str::CompactString;

pub use crate::protocol::Side;

/// A JSON-RPC id or progress token value: a string or an integer.
///
/// `0`, `"0"` and `"00"` are three different keys; integers too large for
/// `i64` keep their decimal text so they stay distinct and exact.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    Int(i64),
    BigInt(Box<str>),
    /// Short strings (most ids and tokens) are stored inline, without allocating.
    Str(CompactString),
}

/// One write per key (a key is hashed several times per message): equal
/// keys hash alike, and a key of one kind may share a hash with another's
/// (`0` and `"0"` stay different keys: equality tells them apart).
impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Key::Int(n) => state.write_i64(*n),
            Key::BigInt(text) => state.write(text.as_bytes()),
            Key::Str(text) => state.write(text.as_bytes()),
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Int(n) => write!(f, "{n}"),
            Key::BigInt(text) => f.write_str(text),
            // Quoted as JSON would quote it; control characters stay as
            // they are here and are escaped once, by the report.
            Key::Str(s) => {
                f.write_char('"')?;
                for c in s.chars() {
                    if matches!(c, '"' | '\\') {
                        f.write_char('\\')?;
                    }
                    f.write_char(c)?;
                }
                f.write_char('"')
            }
        }
    }
}

impl Key {
    /// A string or integer read from a parsed value (a request id a
    /// message repeats in `_meta`); `None` for any other kind of value.
    pub fn from_json(value: &serde_json::Value) -> Option<Key> {
        match value {
            serde_json::Value::String(s) => Some(Key::Str(s.as_str().into())),
            serde_json::Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                (Some(n), _) => Some(Key::Int(n)),
                (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(Key::Int(f as i64)),
                (None, Some(_)) if !n.to_string().contains(['.', 'e', 'E']) => {
                    Some(Key::BigInt(n.to_string().into()))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The key as a JSON value, for machine-readable output.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Key::Int(n) => serde_json::Value::from(*n),
            Key::BigInt(text) => serde_json::from_str(text).unwrap_or(serde_json::Value::Null),
            Key::Str(s) => serde_json::Value::from(s.as_str()),
        }
    }
}

/// A request id: its own namespace, never mixed with progress tokens.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(pub Key);

/// A progress token: its own namespace, never mixed with request ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProgressToken(pub Key);

impl RequestId {
    /// An integer id, as clients number their requests.
    pub fn int(n: i64) -> RequestId {
        RequestId(Key::Int(n))
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for ProgressToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The JSON type of a value, named in messages about values of the wrong type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    Null,
    Bool,
    Integer,
    Float,
    String,
    Array,
    Object,
}

impl JsonKind {
    pub fn describe(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Bool => "a boolean",
            JsonKind::Integer => "an integer",
            JsonKind::Float => "a fractional number",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

/// A field that must hold an id or token: either a valid key or the wrong kind of value.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyField<K> {
    Valid(K),
    Invalid(JsonKind),
}

/// A number field of a notification (progress, total).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum NumberField {
    #[default]
    Absent,
    Number(f64),
    Invalid(JsonKind),
}

/// What is wrong with a message at the JSON-RPC level (rule `invalid-jsonrpc`).
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeProblem {
    JsonRpcMissing,
    JsonRpcWrong(String),
    ResultAndError,
    NoMethodNoResult,
    MethodAndResult,
    ResponseIdMissing,
    MethodNotString(JsonKind),
    ParamsNotStructured(JsonKind),
    ResultNotObject(JsonKind),
    ErrorNotObject(JsonKind),
    ErrorCodeMissing,
    ErrorCodeNotInteger(JsonKind),
    ErrorMessageMissing,
    ErrorMessageNotString(JsonKind),
    NotAnObject(JsonKind),
    EmptyBatch,
}

impl fmt::Display for ShapeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeProblem::JsonRpcMissing => f.write_str("the \"jsonrpc\" member is missing"),
            ShapeProblem::JsonRpcWrong(v) => write!(f, "\"jsonrpc\" is {v}, not \"2.0\""),
            ShapeProblem::ResultAndError => {
                f.write_str("a response has both \"result\" and \"error\"")
            }
            ShapeProblem::NoMethodNoResult => {
                f.write_str("the message has neither \"method\" nor \"result\"/\"error\"")
            }
            ShapeProblem::MethodAndResult => {
                f.write_str("the message has both \"method\" and \"result\"/\"error\"")
            }
            ShapeProblem::ResponseIdMissing => f.write_str("a result response has no \"id\""),
            ShapeProblem::MethodNotString(k) => {
                write!(f, "\"method\" is {}, not a string", k.describe())
            }
            ShapeProblem::ParamsNotStructured(k) => {
                write!(f, "\"params\" is {}, not an object or array", k.describe())
            }
            ShapeProblem::ResultNotObject(k) => {
                write!(f, "\"result\" is {}, not an object", k.describe())
            }
            ShapeProblem::ErrorNotObject(k) => {
                write!(f, "\"error\" is {}, not an object", k.describe())
            }
            ShapeProblem::ErrorCodeMissing => f.write_str("the error object has no \"code\""),
            ShapeProblem::ErrorCodeNotInteger(k) => {
                write!(f, "error \"code\" is {}, not an integer", k.describe())
            }
            ShapeProblem::ErrorMessageMissing => f.write_str("the error object has no \"message\""),
            ShapeProblem::ErrorMessageNotString(k) => {
                write!(f, "error \"message\" is {}, not a string", k.describe())
            }
            ShapeProblem::NotAnObject(k) => {
                write!(f, "the message is {}, not an object", k.describe())
            }
            ShapeProblem::EmptyBatch => f.write_str("the batch is empty"),
        }
    }
}

/// The parameters the rules look at. Everything else in `params` is skipped
/// by the decoder without being kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params {
    /// `params._meta.progressToken` of a request.
    pub meta_progress_token: Option<KeyField<ProgressToken>>,
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]`: marks a 2026-07-28 request.
    pub meta_protocol_version: Option<Box<str>>,
    /// `params.requestId` of `notifications/cancelled`.
    pub request_id: Option<KeyField<RequestId>>,
    /// `params.reason` of `notifications/cancelled`, when it is not a string.
    pub reason_invalid: Option<JsonKind>,
    /// `params.progressToken` of `notifications/progress`.
    pub progress_token: Option<KeyField<ProgressToken>>,
    pub progress: NumberField,
    pub total: NumberField,
    /// `params.message` of `notifications/progress`, when it is not a string.
    pub message_invalid: Option<JsonKind>,
    /// `params` was present but not an object.
    pub not_object: bool,
}

/// A JSON-RPC message reduced to what the rules need.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A message with a method and an `id` member (a request, or a
    /// notification method sent with an id by mistake).
    Request {
        id: KeyField<RequestId>,
        method: Method,
        params: Params,
    },
    Notification {
        method: Method,
        params: Params,
    },
    Response {
        /// `Valid`, or `Invalid(Null)` for `"id": null`, or another wrong kind;
        /// `None` when the member is missing.
        id: Option<KeyField<RequestId>>,
        outcome: Outcome,
    },
    /// Neither method nor result/error: only `invalid-jsonrpc` applies.
    Unclassifiable,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Result {
        /// `result.protocolVersion`, read only where it can be an initialize result.
        protocol_version: Option<Box<str>>,
    },
    Error {
        code: Option<i64>,
    },
}

/// A method name; known names are static, unknown ones are kept as written.
pub type Method = Cow<'static, str>;

#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub body: Body,
    pub problems: Vec<ShapeProblem>,
    /// Its place in a batch, and what the batch holds (`None` for a message
    /// that is the whole line). Boxed: batches are rare, messages are not.
    pub batch: Option<Box<Batch>>,
    /// The members as written, for rules that read more than the lean fields.
    pub members: Members,
    /// The log shows this message only in part (Claude Desktop's
    /// payload-free lines, a payload a logger cut at depth), so a member it
    /// does not show may still have been sent. Rules must not conclude
    /// anything from a missing member of such a message.
    pub incomplete: bool,
}

/// A JSON value as written in the trace (valid JSON, no surrounding space).
/// Typed views are parsed from it on demand.
#[derive(Clone)]
pub struct Json {
    text: JsonText,
    /// Where the first `"_meta"` member name is, found while decoding (in
    /// parallel) so the engine's thread never scans text that has none.
    first_meta: Option<u32>,
}

/// Where a raw member's text lives: a range of the chunk its line was
/// decoded from (shared by every member of the chunk, so a message costs no
/// allocation of its own), or a copy when it was not read from a chunk (an
/// HTTP body, a log line's payload).
#[derive(Clone)]
enum JsonText {
    InChunk {
        chunk: std::sync::Arc<[u8]>,
        start: u32,
        len: u32,
    },
    Owned(Box<str>),
}

/// The member name that opens a `_meta` object.
pub static META_MEMBER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"_meta\""));

impl fmt::Debug for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for Json {}

impl Json {
    /// `raw`'s text: a range of `chunk` when it lies there, else a copy.
    pub(crate) fn of(text: &str, chunk: Option<&std::sync::Arc<[u8]>>) -> Json {
        let first_meta = META_MEMBER.find(text.as_bytes()).map(|at| at as u32);
        let in_chunk = chunk.and_then(|chunk| {
            let start = (text.as_ptr() as usize).checked_sub(chunk.as_ptr() as usize)?;
            let fits = start + text.len() <= chunk.len() && chunk.len() <= u32::MAX as usize;
            fits.then(|| JsonText::InChunk {
                chunk: chunk.clone(),
                start: start as u32,
                len: text.len() as u32,
            })
        });
        Json {
            text: in_chunk.unwrap_or_else(|| JsonText::Owned(text.into())),
            first_meta,
        }
    }

    pub fn text(&self) -> &str {
        let bytes = self.bytes();
        debug_assert!(std::str::from_utf8(bytes).is_ok());
        // SAFETY: a `Json` is made only by `Json::of`, from a `&str` (copied
        // whole, or the range of an immutable chunk it lay in), so its bytes
        // are UTF-8. Checking them again cost 1 to 2% of a lint.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }

    /// The text as bytes, not checked again to be UTF-8.
    pub fn bytes(&self) -> &[u8] {
        match &self.text {
            JsonText::Owned(text) => text.as_bytes(),
            JsonText::InChunk { chunk, start, len } => {
                &chunk[*start as usize..(*start + *len) as usize]
            }
        }
    }

    /// The text from the first `"_meta"` member name on, if it has one.
    pub fn from_first_meta(&self) -> Option<&[u8]> {
        self.first_meta
            .and_then(|at| self.bytes().get(at as usize..))
    }

    /// The object as `T` (a struct or a map), if it has that shape. Text
    /// that is not an object is refused: serde reads an array as a struct's
    /// fields in order, and `["x"]` would pass for `{"name": "x"}`.
    pub fn parse<'a, T: serde::Deserialize<'a>>(&'a self) -> Option<T> {
        match self.bytes().first() {
            Some(b'{') => serde_json::from_str(self.text()).ok(),
            _ => None,
        }
    }

    /// The value, whatever its kind.
    pub fn value(&self) -> Option<serde_json::Value> {
        serde_json::from_str(self.text()).ok()
    }
}

/// A message's place in a JSON-RPC batch, with what the whole batch holds:
/// rules about a batch read it on any element, without waiting for the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Batch {
    /// The message's index in the batch, from 0.
    pub index: u32,
    pub len: u32,
    pub requests: u32,
    pub notifications: u32,
    pub responses: u32,
    /// The index of the batch's first `initialize` request, if it holds one.
    pub initialize: Option<u32>,
}

/// A message's `params`, `result` and `error` members as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Members {
    pub params: Option<Json>,
    pub result: Option<Json>,
    pub error: Option<Json>,
}

impl Message {
    /// The message's index in its batch, if it came in one.
    pub fn batch_index(&self) -> Option<u32> {
        self.batch.as_ref().map(|b| b.index)
    }

    pub fn method(&self) -> Option<&str> {
        match &self.body {
            Body::Request { method, .. } | Body::Notification { method, .. } => Some(method),
            _ => None,
        }
    }

    pub fn params(&self) -> Option<&Params> {
        match &self.body {
            Body::Request { params, .. } | Body::Notification { params, .. } => Some(params),
            _ => None,
        }
    }
}

/// Something that happened to the transport rather than a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// The sender closed its end (stdin closed, process exited, connection dropped).
    Closed,
    /// The sender wrote output that is not a protocol message where only
    /// messages may go (a server's stdout); the text says what was seen.
    NotProtocol(String),
    /// The sender wrote this line to its stderr: its log, never protocol.
    Stderr(String),
    /// Messages on a newline-delimited stream (stdio) not framed one per
    /// line; the event is at the first line, and the messages follow it.
    Misframed(Misframing),
    /// An HTTP stream ended before its exchange did (aborted, failed, or still
    /// open when the capture was saved); the text says how.
    StreamAborted(String),
    /// An HTTP exchange began: what the capture says of it beyond its messages.
    Http(Box<HttpExchange>),
    /// A protocol failure the client's log reports in words (its SDK or
    /// runtime noticed it); the log may not hold the message itself. The
    /// sender of the event is the side at fault.
    ClientReported(Box<ClientReport>),
    /// The log of a known client ended without holding a single protocol
    /// message or reported failure (only "calling tool X" lines): nothing
    /// could be checked. The text names the client.
    NoMessages(String),
}

/// How messages broke the one-message-per-line framing of stdio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misframing {
    /// One message written over several lines: how many, and the last.
    Split { lines: u32, last: Location },
    /// Several messages written on one line: how many.
    Joined { messages: u32 },
}

/// What a client's log says went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientReport {
    pub failure: ReportedFailure,
    /// The embedded message or quoted output, as logged (untrusted text),
    /// when the log holds it.
    pub quoted: Option<String>,
}

/// The failures a client's SDK reports, each the finding of an existing rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportedFailure {
    /// `Received a response for an unknown message ID` (response-unknown-id).
    UnknownResponseId(Option<RequestId>),
    /// `Received a progress notification for an unknown token` (progress-unknown-token).
    UnknownProgressToken(Option<ProgressToken>),
    /// `Request timed out`: no response within the client's timeout (unanswered-request).
    TimedOut,
    /// The client could not parse a line of the server's stdout (stdout-pollution);
    /// the text is the parser's error.
    NotJson(String),
}

/// The HTTP facts of one exchange of Streamable HTTP.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpExchange {
    /// `GET`, `POST`, `DELETE`, ...
    pub method: CompactString,
    /// The response status; `None` when there was no response.
    pub status: Option<i64>,
    /// The request's `Mcp-Session-Id` header.
    pub session_header: Option<CompactString>,
    /// The `Mcp-Session-Id` the response assigned (on the initialize response).
    pub assigned_session: Option<CompactString>,
    /// The request's `MCP-Protocol-Version` header.
    pub protocol_version_header: Option<CompactString>,
    /// The request carried `Last-Event-ID`: it resumes an earlier stream.
    pub resumes: bool,
    pub response_content_type: Option<CompactString>,
    pub response_has_body: bool,
    /// What the request body holds.
    pub requests: u32,
    pub notifications: u32,
    pub responses: u32,
    /// The request body holds an `initialize` request.
    pub initialize: bool,
    /// The request body holds a 2026-07-28 request (a protocol version in
    /// its `_meta`, or `server/discover`): that revision has no sessions.
    pub modern: bool,
    /// The response stream opened with an `endpoint` event (the 2024-11-05
    /// HTTP+SSE transport, where every server message uses that stream).
    pub sse_endpoint: bool,
    /// The data of the first `endpoint` event: the URI to POST to.
    pub endpoint_data: Option<CompactString>,
    /// The request target: the URL's path and query (`/messages/?session_id=1`).
    pub target: CompactString,
    /// The headers of the request and of the response that rules read (the
    /// rows of `protocol::headers`), in the order the capture has them.
    pub request_headers: Vec<KeptHeader>,
    pub response_headers: Vec<KeptHeader>,
    /// The events of an SSE response, without their data.
    pub sse: Vec<SseMark>,
    /// When the response ended, in ms since the epoch, when the capture says.
    pub ended_ms: Option<i64>,
    /// The request body is a JSON array (a batch).
    pub batch: bool,
    /// The first request of the request body, as its headers must mirror it.
    pub first_request: Option<RequestSummary>,
    /// The response body (not an SSE stream) holds a JSON-RPC error.
    pub response_error: bool,
    /// The code of the first JSON-RPC error of the response body.
    pub response_error_code: Option<i64>,
    /// The code of the first JSON-RPC error on the response's SSE stream.
    pub stream_error_code: Option<i64>,
}

impl HttpExchange {
    /// The value of a request header the capture has.
    pub fn request_header(&self, header: crate::protocol::headers::Header) -> Option<&str> {
        kept(&self.request_headers, header)
    }

    /// The value of a response header the capture has.
    pub fn response_header(&self, header: crate::protocol::headers::Header) -> Option<&str> {
        kept(&self.response_headers, header)
    }

    /// The URL path, without the query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    /// The status is 2xx.
    pub fn succeeded(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

fn kept(headers: &[KeptHeader], header: crate::protocol::headers::Header) -> Option<&str> {
    headers
        .iter()
        .find(|h| h.header == header)
        .map(|h| h.value.as_str())
}

/// A header a rule reads, with its name as written and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptHeader {
    pub header: crate::protocol::headers::Header,
    pub name: CompactString,
    pub value: CompactString,
}

/// One event of an SSE response: what rules read besides its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseMark {
    /// The `id` field, when the event has its own `id:` line.
    pub id: Option<CompactString>,
    /// The `event` field; `None` means the default type, `message`.
    pub event: Option<CompactString>,
    pub retry: Option<u64>,
    pub data: SseData,
}

/// What an SSE event's data holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SseData {
    /// Nothing (the priming event of 2025-11-25).
    Empty,
    /// A JSON-RPC message (or batch).
    JsonRpc,
    /// Anything else (the `endpoint` event's URI, text).
    Other,
}

/// The first request of a body: its method, the value its `Mcp-Name` header
/// must mirror, and the protocol version its `_meta` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestSummary {
    pub method: CompactString,
    pub name: Option<String>,
    pub protocol_version: Option<CompactString>,
    /// The text of its `params.arguments` (a `tools/call`'s, its
    /// `Mcp-Param-*` headers mirror), read by the rule that needs it.
    pub arguments: Option<Box<str>>,
}

/// A line the decoder could not turn into a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// Not JSON (or not UTF-8): rule `invalid-json`. The text is a full sentence.
    Json(String),
    /// JSON, but not a valid record of its format (a canonical envelope, a
    /// HAR entry): rule `invalid-envelope`. The text is a full sentence.
    Envelope(String),
}

// Messages are nearly every event: boxing them would cost an allocation each.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    Message(Message),
    Transport(Transport),
    Unreadable(Unreadable),
}

/// Where an event came from in its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Index of the input in the run.
    pub source: u32,
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line start; for an event inside a line too long
    /// to quote (a one-line export), of the event's place in it.
    pub offset: u64,
    /// Length of the line (or of that window) in bytes, without the line terminator.
    pub len: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub location: Location,
    /// The session named by the envelope; `None` is the file's default session.
    pub session: Option<CompactString>,
    /// Who sent it; `None` when the format does not say (bare JSON-RPC lines)
    /// and the engine has to infer it.
    pub from: Option<Side>,
    /// The channel (an HTTP stream) the event travelled on, if the recorder says.
    pub stream: Option<CompactString>,
    /// Milliseconds since the epoch, when the recorder gave a time.
    pub time_ms: Option<f64>,
    /// Where inside its line the message sits, when a line holds several
    /// (say, "SSE event 3 of the response body"); shown in reports.
    pub place: Option<Box<str>>,
    pub payload: Payload,
}

impl Event {
    /// An event with nothing but its place and payload: no session, sender,
    /// stream or time (a bare line, or one that could not be read).
    pub fn bare(location: Location, payload: Payload) -> Event {
        Event {
            location,
            session: None,
            from: None,
            stream: None,
            time_ms: None,
            place: None,
            payload,
        }
    }

    /// A line (or body) that could not be read.
    pub fn unreadable(location: Location, why: Unreadable) -> Event {
        Event::bare(location, Payload::Unreadable(why))
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Named {
        name: String,
    }

    #[test]
    fn only_an_object_parses_as_a_struct() {
        let object = Json::of(r#"{"name":"x"}"#, None);
        let expected = Named { name: "x".into() };
        assert_eq!(object.parse::<Named>(), Some(expected));
        let array = Json::of(r#"["x"]"#, None);
        assert!(serde_json::from_str::<Named>(array.text()).is_ok());
        assert_eq!(array.parse::<Named>(), None);
        assert_eq!(array.value(), Some(serde_json::json!(["x"])));
    }
}
