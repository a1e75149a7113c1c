//! Borrowed views of a trace line, and their reduction to lean events.
//!
//! Each line is read once: the structs below borrow every value they do not
//! need to look into as JSON text, and the members no rule reads (tool
//! arguments, results, ...) are skipped without being built. The line is
//! scanned by [`json_text`](crate::json_text), which checks it as serde_json
//! would; serde_json reads what the scanner leaves (a message that is not an
//! object, a member written twice) and words why a line cannot be read.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::event::{
    Batch, Body, Json, JsonKind, Key, KeyField, Members, Message, Method, NumberField, Outcome,
    Params, ProgressToken, RequestId, ShapeProblem,
};

/// Deserializes a member that is present, keeping `null` as a value rather
/// than as absence (`"id": null` and no `id` mean different things).
pub(crate) fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// [`present`], as the member's JSON text.
pub(crate) fn present_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de str>, D::Error> {
    present(d).map(|raw| raw.map(RawValue::get))
}

/// The visit methods for scalars and null: each reports the kind of value
/// found where an object (or a batch) was expected.
macro_rules! visit_non_objects {
    ($wrap:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($wrap(JsonKind::Bool))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($wrap(JsonKind::Integer))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($wrap(JsonKind::Integer))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($wrap(JsonKind::Float))
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($wrap(JsonKind::String))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($wrap(JsonKind::Null))
        }
    };
}

/// A value that should be an object: the object's view, or the kind it had instead.
#[derive(Debug, PartialEq)]
pub(crate) enum ObjectOr<T> {
    Object(T),
    Other(JsonKind),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ObjectOr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = ObjectOr<T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(ObjectOr::Object)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ObjectOr::Other(JsonKind::Array))
            }
            visit_non_objects!(ObjectOr::Other);
        }

        d.deserialize_any(ObjectVisitor(PhantomData))
    }
}

/// A message member: one message, or a batch of them.
#[derive(Debug, PartialEq)]
pub(crate) enum OneOrBatch<'a> {
    One(ObjectOr<RawMessage<'a>>),
    Batch(Vec<ObjectOr<RawMessage<'a>>>),
}

impl<'de: 'a, 'a> Deserialize<'de> for OneOrBatch<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct BatchVisitor<'a>(PhantomData<&'a ()>);

        impl<'de: 'a, 'a> Visitor<'de> for BatchVisitor<'a> {
            type Value = OneOrBatch<'a>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON-RPC message or batch")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(OneOrBatch::Batch(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                RawMessage::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|m| OneOrBatch::One(ObjectOr::Object(m)))
            }
            visit_non_objects!(|kind| OneOrBatch::One(ObjectOr::Other(kind)));
        }

        d.deserialize_any(BatchVisitor(PhantomData))
    }
}

impl<'a> OneOrBatch<'a> {
    /// Reads a message member from its text (surrounding white space
    /// allowed). Text that holds objects as expected is scanned once by
    /// [`json_text`](crate::json_text), checked as serde_json checks it;
    /// anything else is left to serde_json, which also words why text
    /// cannot be read.
    pub(crate) fn read(text: &'a str) -> serde_json::Result<Self> {
        match crate::json_text::read_whole(text, Self::scanned) {
            Some(read) => Ok(read),
            None => serde_json::from_str(text),
        }
    }

    /// The member that starts at `at`, and where it ends; `None` for text
    /// that is not valid JSON, and where the scanner leaves the member to
    /// serde_json: a message that is not an object, or one whose members
    /// serde_json would refuse.
    pub(crate) fn scanned(text: &'a str, at: usize) -> Option<(Self, usize)> {
        match text.as_bytes().get(at)? {
            b'{' => RawMessage::scanned(text, at)
                .map(|(message, end)| (OneOrBatch::One(ObjectOr::Object(message)), end)),
            b'[' => {
                let mut items = Vec::new();
                let end = crate::json_text::checked_array(text, at, |start| {
                    let (message, end) = RawMessage::scanned(text, start)?;
                    items.push(ObjectOr::Object(message));
                    Some(end)
                })?;
                Some((OneOrBatch::Batch(items), end))
            }
            _ => None,
        }
    }
}

/// The members of a message, as JSON text.
#[derive(serde::Deserialize, Debug, PartialEq)]
pub(crate) struct RawMessage<'a> {
    #[serde(default, borrow, deserialize_with = "present_text")]
    jsonrpc: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    id: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    method: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    params: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    result: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    error: Option<&'a str>,
    /// The params' lean members, when the scanner found them on its way.
    #[serde(skip)]
    lean_params: Option<LeanMembers<'a>>,
}

#[cfg(test)]
impl OneOrBatch<'_> {
    /// The member as serde_json reads it: without the lean members of
    /// params the scanner found on its way, once they are checked against
    /// `json_text::find_members`.
    pub(crate) fn into_serde_reading(mut self) -> Self {
        let messages = match &mut self {
            OneOrBatch::One(one) => std::slice::from_mut(one),
            OneOrBatch::Batch(items) => items.as_mut_slice(),
        };
        for message in messages {
            if let ObjectOr::Object(message) = message {
                if let Some(lean) = message.lean_params.take() {
                    let params = message.params.expect("lean members come from params");
                    let found = crate::json_text::find_members(params, LEAN_MEMBERS);
                    assert_eq!(Some(lean), found, "{params}");
                }
            }
        }
        self
    }
}

/// The values of [`LEAN_MEMBERS`] in params, as written.
type LeanMembers<'a> = [Option<&'a str>; 7];

impl<'a> RawMessage<'a> {
    /// The members of the object that opens at `at`, and where it ends;
    /// the lean members of params are found in the same pass.
    fn scanned(text: &'a str, at: usize) -> Option<(Self, usize)> {
        use crate::json_text::{checked_members, checked_members_read_by, checked_value_end};
        const NAMES: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];
        const PARAMS: Option<usize> = Some(3);
        let mut lean_params = None;
        let (found, end) = checked_members_read_by(text, at, NAMES, |index, start| {
            // Params that are not an object, or that repeat a lean member,
            // are skipped (params_of then reads them as serde would).
            let lean = (index == PARAMS).then(|| checked_members(text, start, LEAN_MEMBERS));
            match lean.flatten() {
                Some((lean, end)) => {
                    lean_params = Some(lean);
                    Some(end)
                }
                None => checked_value_end(text.as_bytes(), start),
            }
        })?;
        let [jsonrpc, id, method, params, result, error] = found;
        let message = RawMessage {
            jsonrpc,
            id,
            method,
            params,
            result,
            error,
            lean_params,
        };
        Some((message, end))
    }
}

/// The members of params that lean fields are read from.
const LEAN_MEMBERS: [&str; 7] = [
    "_meta",
    "requestId",
    "reason",
    "progressToken",
    "progress",
    "total",
    "message",
];

/// The members of `_meta` that lean fields are read from.
const LEAN_META_MEMBERS: [&str; 2] = ["progressToken", "io.modelcontextprotocol/protocolVersion"];

#[derive(serde::Deserialize)]
struct RawError<'a> {
    #[serde(default, borrow, deserialize_with = "present_text")]
    code: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    message: Option<&'a str>,
}

/// JSON text as written, without surrounding white space: a raw member
/// serde borrowed, or a slice of one.
pub(crate) trait JsonText<'a>: Copy {
    fn text(self) -> &'a str;
}

impl<'a> JsonText<'a> for &'a RawValue {
    fn text(self) -> &'a str {
        self.get()
    }
}

impl<'a> JsonText<'a> for &'a str {
    fn text(self) -> &'a str {
        self
    }
}

/// The JSON kind of a raw value, from its first byte (raw values carry no
/// surrounding white space).
pub(crate) fn kind_of<'a>(raw: impl JsonText<'a>) -> JsonKind {
    let text = raw.text();
    match text.as_bytes().first() {
        Some(b'"') => JsonKind::String,
        Some(b'{') => JsonKind::Object,
        Some(b'[') => JsonKind::Array,
        Some(b't' | b'f') => JsonKind::Bool,
        Some(b'n') => JsonKind::Null,
        _ if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => JsonKind::Float,
        _ => JsonKind::Integer,
    }
}

/// A JSON string value as text (unescaped only when it has escapes).
pub(crate) fn string_of<'a>(raw: impl JsonText<'a>) -> Option<Cow<'a, str>> {
    crate::json_text::string_value(raw.text())
}

/// A string-or-integer key, or the kind of value found instead.
pub(crate) fn key_of<'a>(raw: impl JsonText<'a>) -> Result<Key, JsonKind> {
    let text = raw.text();
    match kind_of(text) {
        JsonKind::String => string_of(text)
            .map(|s| Key::Str(s.as_ref().into()))
            .ok_or(JsonKind::String),
        JsonKind::Integer => Ok(text
            .parse::<i64>()
            .map(Key::Int)
            .unwrap_or_else(|_| Key::BigInt(text.into()))),
        // JSON Schema counts 1.0 and 1e3 as integers; so do peers written
        // in languages with a single number type.
        JsonKind::Float => match text.parse::<f64>() {
            Ok(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Ok(Key::Int(n as i64)),
            _ => Err(JsonKind::Float),
        },
        other => Err(other),
    }
}

fn key_field<'a, K>(raw: impl JsonText<'a>, wrap: fn(Key) -> K) -> KeyField<K> {
    match key_of(raw) {
        Ok(key) => KeyField::Valid(wrap(key)),
        Err(kind) => KeyField::Invalid(kind),
    }
}

fn number_field(raw: Option<&str>) -> NumberField {
    let Some(raw) = raw else {
        return NumberField::Absent;
    };
    match kind_of(raw) {
        JsonKind::Integer | JsonKind::Float => raw
            .parse::<f64>()
            .map(NumberField::Number)
            .unwrap_or(NumberField::Invalid(JsonKind::Float)),
        other => NumberField::Invalid(other),
    }
}

fn non_string(raw: Option<&str>) -> Option<JsonKind> {
    raw.map(kind_of).filter(|k| *k != JsonKind::String)
}

/// Known method names are taken from the method table, never allocated.
pub(crate) fn method_name(name: Cow<'_, str>) -> Method {
    match crate::protocol::methods::static_name(&name) {
        Some(known) => Cow::Borrowed(known),
        None => Cow::Owned(name.into_owned()),
    }
}

/// The lean params: read only where they can hold a lean field (the
/// members of a cancellation or progress notification, or a `_meta`), so
/// most params are scanned once, as raw text, and not parsed again.
fn params_of(
    raw: Option<&str>,
    scanned: Option<LeanMembers>,
    method: &str,
    problems: &mut Vec<ShapeProblem>,
) -> Params {
    let text = raw.unwrap_or("");
    let lean = matches!(method, "notifications/cancelled" | "notifications/progress")
        || crate::event::META_MEMBER.find(text.as_bytes()).is_some();
    if !lean || !text.starts_with('{') {
        return params_not_read(raw, problems);
    }
    // The whole line already parsed, so the members are valid JSON (and
    // params that serde_json would refuse have no lean field).
    let lean = scanned.or_else(|| crate::json_text::find_members(text, LEAN_MEMBERS));
    let Some([meta, request_id, reason, progress_token, progress, total, message]) = lean else {
        return Params::default();
    };
    let meta = meta.filter(|m| kind_of(*m) == JsonKind::Object);
    let no_meta = Some([None, None]);
    let Some([meta_token, meta_version]) = meta.map_or(no_meta, |meta| {
        crate::json_text::find_members(meta, LEAN_META_MEMBERS)
    }) else {
        return Params::default();
    };
    Params {
        meta_progress_token: meta_token.map(|t| key_field(t, ProgressToken)),
        meta_protocol_version: meta_version.and_then(string_of).map(|v| v.as_ref().into()),
        request_id: request_id.map(|r| key_field(r, RequestId)),
        reason_invalid: non_string(reason),
        progress_token: progress_token.map(|t| key_field(t, ProgressToken)),
        progress: number_field(progress),
        total: number_field(total),
        message_invalid: non_string(message),
        not_object: false,
    }
}

/// Params with no lean field to read: absent, an object without one, or a
/// value that is not structured at all (a shape problem).
fn params_not_read(raw: Option<&str>, problems: &mut Vec<ShapeProblem>) -> Params {
    match raw.map(kind_of) {
        None | Some(JsonKind::Object) => Params::default(),
        Some(kind) => {
            if kind != JsonKind::Array {
                problems.push(ShapeProblem::ParamsNotStructured(kind));
            }
            Params {
                not_object: true,
                ..Params::default()
            }
        }
    }
}

fn error_problems(raw: &str, problems: &mut Vec<ShapeProblem>) -> Option<i64> {
    match serde_json::from_str::<ObjectOr<RawError>>(raw) {
        Ok(ObjectOr::Object(err)) => {
            let code = match err.code {
                None => {
                    problems.push(ShapeProblem::ErrorCodeMissing);
                    None
                }
                Some(code) => match kind_of(code) {
                    JsonKind::Integer => code.parse().ok(),
                    JsonKind::Float => match key_of(code) {
                        Ok(Key::Int(n)) => Some(n),
                        _ => {
                            problems.push(ShapeProblem::ErrorCodeNotInteger(JsonKind::Float));
                            None
                        }
                    },
                    other => {
                        problems.push(ShapeProblem::ErrorCodeNotInteger(other));
                        None
                    }
                },
            };
            match err.message.map(kind_of) {
                None => problems.push(ShapeProblem::ErrorMessageMissing),
                Some(JsonKind::String) => {}
                Some(other) => problems.push(ShapeProblem::ErrorMessageNotString(other)),
            }
            code
        }
        Ok(ObjectOr::Other(kind)) => {
            problems.push(ShapeProblem::ErrorNotObject(kind));
            None
        }
        // The whole line already parsed, so the member is valid JSON.
        Err(_) => None,
    }
}

thread_local! {
    /// The chunk this thread is decoding, if any (see [`decoding_shared`]).
    static SHARED_CHUNK: std::cell::RefCell<Option<std::sync::Arc<[u8]>>> =
        const { std::cell::RefCell::new(None) };
}

/// Decodes `chunk` from one shared copy of it, so the raw members of its
/// messages are ranges of that copy rather than an allocation each. (A
/// thread-local rather than a parameter: every line format's decoder reaches
/// the members through [`messages_of`], and only this one call knows the chunk.)
pub(crate) fn decoding_shared<R>(chunk: &[u8], decode: impl FnOnce(&[u8]) -> R) -> R {
    let shared: std::sync::Arc<[u8]> = std::sync::Arc::from(chunk);
    SHARED_CHUNK.with_borrow_mut(|current| *current = Some(shared.clone()));
    let result = decode(&shared);
    SHARED_CHUNK.with_borrow_mut(|current| *current = None);
    result
}

/// A raw member, as a range of the chunk being decoded when it lies there.
fn shared_json(raw: &str) -> Json {
    SHARED_CHUNK.with_borrow(|chunk| Json::of(raw, chunk.as_ref()))
}

/// Reduces one parsed message to its lean form.
pub(crate) fn message_of(raw: ObjectOr<RawMessage<'_>>) -> Message {
    let members = match &raw {
        ObjectOr::Object(raw) => Members {
            params: raw.params.map(shared_json),
            result: raw.result.map(shared_json),
            error: raw.error.map(shared_json),
        },
        ObjectOr::Other(_) => Members::default(),
    };
    let mut problems = Vec::new();
    let body = body_of(raw, &mut problems);
    Message {
        body,
        problems,
        batch: None,
        members,
        incomplete: false,
    }
}

/// What a parsed message is (request, notification, response), noting its
/// shape problems.
fn body_of(raw: ObjectOr<RawMessage<'_>>, problems: &mut Vec<ShapeProblem>) -> Body {
    let raw = match raw {
        ObjectOr::Object(raw) => raw,
        ObjectOr::Other(kind) => {
            problems.push(ShapeProblem::NotAnObject(kind));
            return Body::Unclassifiable;
        }
    };
    match raw.jsonrpc {
        None => problems.push(ShapeProblem::JsonRpcMissing),
        Some(v) if v == "\"2.0\"" || string_of(v).as_deref() == Some("2.0") => {}
        Some(v) => problems.push(ShapeProblem::JsonRpcWrong(describe_value(v))),
    }
    let id = raw.id.map(|id| key_field(id, RequestId));
    if raw.method.is_some() && (raw.result.is_some() || raw.error.is_some()) {
        problems.push(ShapeProblem::MethodAndResult);
    }
    if let Some(method) = raw.method {
        let method = match string_of(method) {
            Some(name) => method_name(name),
            None => {
                problems.push(ShapeProblem::MethodNotString(kind_of(method)));
                Cow::Borrowed("")
            }
        };
        let params = params_of(raw.params, raw.lean_params, &method, problems);
        match id {
            Some(id) => Body::Request { id, method, params },
            None => Body::Notification { method, params },
        }
    } else if raw.result.is_some() || raw.error.is_some() {
        let outcome = match (raw.result, raw.error) {
            (Some(result), error) => {
                if error.is_some() {
                    problems.push(ShapeProblem::ResultAndError);
                }
                if id.is_none() {
                    problems.push(ShapeProblem::ResponseIdMissing);
                }
                let kind = kind_of(result);
                if kind != JsonKind::Object {
                    problems.push(ShapeProblem::ResultNotObject(kind));
                }
                Outcome::Result {
                    protocol_version: initialize_version(result),
                }
            }
            (None, Some(error)) => Outcome::Error {
                code: error_problems(error, problems),
            },
            (None, None) => unreachable!("checked above"),
        };
        Body::Response { id, outcome }
    } else {
        problems.push(ShapeProblem::NoMethodNoResult);
        Body::Unclassifiable
    }
}

/// Built once: building a searcher costs more than most searches.
static PROTOCOL_VERSION: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"protocolVersion"));

/// `result.protocolVersion`, looked for only when the text can contain it,
/// so ordinary results are never parsed twice.
fn initialize_version(text: &str) -> Option<Box<str>> {
    #[derive(serde::Deserialize)]
    struct InitializeResult<'a> {
        #[serde(borrow, rename = "protocolVersion")]
        protocol_version: Option<Cow<'a, str>>,
    }
    if !text.starts_with('{') || PROTOCOL_VERSION.find(text.as_bytes()).is_none() {
        return None;
    }
    serde_json::from_str::<InitializeResult>(text)
        .ok()
        .and_then(|r| r.protocol_version)
        .map(Into::into)
}

/// A short rendering of a value found where another was expected (its
/// JSON text, which the report escapes like any text from the trace).
pub(crate) fn describe_value<'a>(raw: impl JsonText<'a>) -> String {
    let text = raw.text();
    if text.len() <= 24 {
        text.to_string()
    } else {
        kind_of(raw).describe().to_string()
    }
}

/// Reduces a message member (one message or a batch) to lean messages.
pub(crate) fn messages_of(raw: OneOrBatch<'_>, mut each: impl FnMut(Message)) {
    match raw {
        OneOrBatch::One(one) => each(message_of(one)),
        OneOrBatch::Batch(items) if items.is_empty() => each(Message {
            body: Body::Unclassifiable,
            problems: vec![ShapeProblem::EmptyBatch],
            batch: None,
            members: Members::default(),
            incomplete: false,
        }),
        OneOrBatch::Batch(items) => {
            let mut messages: Vec<Message> = items.into_iter().map(message_of).collect();
            let shape = batch_shape(&messages);
            for (i, mut message) in messages.drain(..).enumerate() {
                message.batch = Some(Box::new(Batch {
                    index: i as u32,
                    ..shape
                }));
                each(message);
            }
        }
    }
}

/// What each message of a member is, one for each message [`messages_of`]
/// gives, without the rest of the message (its members, its problems).
pub(crate) fn bodies_of(raw: OneOrBatch<'_>, mut each: impl FnMut(Body)) {
    match raw {
        OneOrBatch::One(one) => each(body_of(one, &mut Vec::new())),
        OneOrBatch::Batch(items) if items.is_empty() => each(Body::Unclassifiable),
        OneOrBatch::Batch(items) => {
            for item in items {
                each(body_of(item, &mut Vec::new()));
            }
        }
    }
}

/// What a batch holds, told to each of its messages.
fn batch_shape(messages: &[Message]) -> Batch {
    let mut shape = Batch {
        len: messages.len() as u32,
        ..Batch::default()
    };
    for (i, message) in messages.iter().enumerate() {
        match &message.body {
            Body::Request { method, .. } => {
                shape.requests += 1;
                if method == "initialize" && shape.initialize.is_none() {
                    shape.initialize = Some(i as u32);
                }
            }
            Body::Notification { .. } => shape.notifications += 1,
            Body::Response { .. } => shape.responses += 1,
            Body::Unclassifiable => {}
        }
    }
    shape
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde_json reads from a JSON string, for `string_of` to match.
    fn serde_string_of(text: &str) -> Option<String> {
        serde_json::from_str::<String>(text).ok()
    }

    #[test]
    fn strings_unescape_as_serde_json_reads_them() {
        let texts = [
            r#""plain""#,
            r#""""#,
            r#""\"\\\/\b\f\n\r\t""#,
            r#""{\"jsonrpc\":\"2.0\",\"id\":1}\r\n\r\n""#,
            r#""caf\u00e9 \u2603 \u0000 end""#,
            r#""pair \ud83d\ude00 and \uD83D\uDE00""#,
            r#""lone leading \uD800""#,
            r#""lone leading then text \uD800x""#,
            r#""leading then escape \uD800\n""#,
            r#""leading then leading \uD800\uD800""#,
            r#""lone trailing \uDC00""#,
            r#""ends with an escape\\""#,
            "\"raw ünïcödé and \\u00fc\"",
        ];
        for text in texts {
            let raw: &RawValue = serde_json::from_str(text).unwrap();
            assert_eq!(
                string_of(raw).map(Cow::into_owned),
                serde_string_of(text),
                "{text}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn any_string_unescapes_as_serde_json_reads_it(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "a", "é", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
                "\\u0041", "\\u00E9", "\\uD83D", "\\uDE00", "\\udbff", "\\udfff", "\\u0000",
                "a run longer than sixteen bytes",
            ]), 0..80)
        ) {
            let text = format!("\"{}\"", parts.concat());
            let raw: &RawValue = serde_json::from_str(&text).unwrap();
            proptest::prop_assert_eq!(string_of(raw).map(Cow::into_owned), serde_string_of(&text));
        }
    }

    /// Params' lean members as written, then `_meta`'s, if it is an object.
    type LeanTexts = (Vec<Option<String>>, Option<Vec<Option<String>>>);

    /// How serde_json reads params' lean members (the decoder's reading
    /// before `json_text::find_members`): `None` where serde refuses the params.
    fn serde_lean(text: &str) -> Option<LeanTexts> {
        #[derive(serde::Deserialize)]
        struct Lean<'a> {
            #[serde(default, borrow, deserialize_with = "present", rename = "_meta")]
            meta: Option<&'a RawValue>,
            #[serde(default, borrow, deserialize_with = "present", rename = "requestId")]
            request_id: Option<&'a RawValue>,
            #[serde(default, borrow, deserialize_with = "present")]
            reason: Option<&'a RawValue>,
            #[serde(
                default,
                borrow,
                deserialize_with = "present",
                rename = "progressToken"
            )]
            progress_token: Option<&'a RawValue>,
            #[serde(default, borrow, deserialize_with = "present")]
            progress: Option<&'a RawValue>,
            #[serde(default, borrow, deserialize_with = "present")]
            total: Option<&'a RawValue>,
            #[serde(default, borrow, deserialize_with = "present")]
            message: Option<&'a RawValue>,
        }
        #[derive(serde::Deserialize)]
        struct Meta<'a> {
            #[serde(
                default,
                borrow,
                deserialize_with = "present",
                rename = "progressToken"
            )]
            token: Option<&'a RawValue>,
            #[serde(
                default,
                borrow,
                deserialize_with = "present",
                rename = "io.modelcontextprotocol/protocolVersion"
            )]
            version: Option<&'a RawValue>,
        }
        let text_of = |raw: Option<&RawValue>| raw.map(|r| r.get().to_string());
        let lean: Lean = serde_json::from_str(text).ok()?;
        let meta = match lean.meta.filter(|m| m.get().starts_with('{')) {
            Some(meta) => {
                let meta: Meta = serde_json::from_str(meta.get()).ok()?;
                Some(vec![text_of(meta.token), text_of(meta.version)])
            }
            None => None,
        };
        let members = [lean.meta, lean.request_id, lean.reason, lean.progress_token];
        let more = [lean.progress, lean.total, lean.message];
        let members = members.into_iter().chain(more).map(text_of).collect();
        Some((members, meta))
    }

    fn our_lean(text: &str) -> Option<LeanTexts> {
        let lean = crate::json_text::find_members(text, LEAN_MEMBERS)?;
        let text_of = |raw: Option<&str>| raw.map(str::to_string);
        let meta = match lean[0].filter(|m| m.starts_with('{')) {
            Some(meta) => {
                let meta = crate::json_text::find_members(meta, LEAN_META_MEMBERS)?;
                Some(meta.into_iter().map(text_of).collect())
            }
            None => None,
        };
        Some((lean.into_iter().map(text_of).collect(), meta))
    }

    proptest::proptest! {
        /// Any params object is read as serde_json reads it: the same
        /// members, and refused where serde refuses it (a member twice).
        #[test]
        fn lean_params_read_as_serde_json_reads_them(
            members in proptest::collection::vec((
                proptest::sample::select(vec![
                    "_meta", "requestId", "reason", "progressToken", "progress", "total",
                    "message", "name", "arguments", "_m\\u0065ta", "progress\\ud800", "x y",
                    "io.modelcontextprotocol/protocolVersion",
                ]),
                proptest::sample::select(vec![
                    "1", "-2.5e3", "\"tok\"", "\"a\\\"}b\"", "null", "true", "[]",
                    "[1, {\"progressToken\": 2}]", "{}", "{\"progressToken\":\"t\"}",
                    "{ \"progressToken\" : 7 , \"progressToken\":8 }",
                    "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"a\":[{}]}",
                    "{\"progress\\u0054oken\":\"\\u00e9\"}",
                ]),
            ), 0..6),
            spaced in proptest::bool::ANY,
        ) {
            let gap = if spaced { " \n " } else { "" };
            let members: Vec<String> = members
                .iter()
                .map(|(name, value)| format!("{gap}\"{name}\"{gap}:{gap}{value}{gap}"))
                .collect();
            let text = format!("{{{}}}", members.join(","));
            proptest::prop_assert_eq!(our_lean(&text), serde_lean(&text), "{}", text);
        }
    }

    fn parse(text: &str) -> Message {
        let raw: OneOrBatch = serde_json::from_str(text).unwrap();
        let mut messages = Vec::new();
        messages_of(raw, |m| messages.push(m));
        messages.remove(0)
    }

    #[test]
    fn zero_and_string_zero_are_distinct_valid_ids() {
        let a = parse(r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#);
        let b = parse(r#"{"jsonrpc":"2.0","id":"0","method":"ping"}"#);
        let id = |m: &Message| match &m.body {
            Body::Request { id, .. } => id.clone(),
            other => panic!("not a request: {other:?}"),
        };
        assert_eq!(id(&a), KeyField::Valid(RequestId(Key::Int(0))));
        assert_eq!(id(&b), KeyField::Valid(RequestId(Key::Str("0".into()))));
        assert_ne!(id(&a), id(&b));
        assert!(a.problems.is_empty());
    }

    #[test]
    fn null_id_is_kept_apart_from_missing_id() {
        let m =
            parse(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#);
        assert!(matches!(
            m.body,
            Body::Response {
                id: Some(KeyField::Invalid(JsonKind::Null)),
                ..
            }
        ));
        let m = parse(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert!(matches!(m.body, Body::Notification { .. }));
    }

    #[test]
    fn progress_fields_and_meta_token_are_read() {
        let m = parse(
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5,"total":"x","message":3}}"#,
        );
        let p = m.params().unwrap();
        assert_eq!(
            p.progress_token,
            Some(KeyField::Valid(ProgressToken(Key::Str("t".into()))))
        );
        assert_eq!(p.progress, NumberField::Number(0.5));
        assert_eq!(p.total, NumberField::Invalid(JsonKind::String));
        assert_eq!(p.message_invalid, Some(JsonKind::Integer));
        let m = parse(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"b":2}]},"_meta":{"progressToken":1.5}}}"#,
        );
        assert_eq!(
            m.params().unwrap().meta_progress_token,
            Some(KeyField::Invalid(JsonKind::Float))
        );
    }

    #[test]
    fn shape_problems_are_collected() {
        let m = parse(r#"{"jsonrpc":"1.0","id":1,"result":5,"error":{"code":"x"}}"#);
        assert_eq!(
            m.problems,
            vec![
                ShapeProblem::JsonRpcWrong("\"1.0\"".into()),
                ShapeProblem::ResultAndError,
                ShapeProblem::ResultNotObject(JsonKind::Integer),
            ]
        );
        let m = parse(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1.5}}"#);
        assert_eq!(
            m.problems,
            vec![
                ShapeProblem::ErrorCodeNotInteger(JsonKind::Float),
                ShapeProblem::ErrorMessageMissing
            ]
        );
    }

    #[test]
    fn big_integers_keep_their_text() {
        let m = parse(r#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}"#);
        assert!(matches!(
            m.body,
            Body::Request {
                id: KeyField::Valid(RequestId(Key::BigInt(_))),
                ..
            }
        ));
    }

    #[test]
    fn strings_are_borrowed_unless_escaped() {
        let raw = |text: &str| RawValue::from_string(text.to_string()).unwrap();
        let plain = raw(r#""tools/call""#);
        assert!(matches!(
            string_of(&*plain),
            Some(Cow::Borrowed("tools/call"))
        ));
        let escaped = raw(r#""a\"b\u00e9""#);
        assert_eq!(string_of(&*escaped).as_deref(), Some("a\"b\u{e9}"));
        assert_eq!(string_of(&*raw(r#""""#)).as_deref(), Some(""));
        assert_eq!(string_of(&*raw("12")), None);
    }
}
