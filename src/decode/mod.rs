//! Decode: bytes of one input -> lean events, in parallel over newline-aligned chunks.
//!
//! Every function here is pure: a chunk decodes the same way on any thread,
//! which is what makes the output independent of the thread count.

mod json;
pub mod timestamp;

use compact_str::CompactString;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::event::{Event, JsonKind, Location, Payload, Side, Transport, Unreadable};
use json::{key_of, kind_of, messages_of, present, string_of, ObjectOr, OneOrBatch};

/// The line formats this module reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `{"ts":…,"from":"client","session":"s1","msg":{…}}` per line.
    Canonical,
    /// One JSON-RPC message per line, no envelope (a raw stdio capture).
    Bare,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Canonical => "canonical",
            Format::Bare => "bare",
        }
    }
}

/// Guesses the format from the first lines that parse as JSON objects.
pub fn detect(bytes: &[u8]) -> Format {
    #[derive(Deserialize)]
    struct Sniff<'a> {
        #[serde(borrow)]
        msg: Option<&'a RawValue>,
        #[serde(borrow)]
        event: Option<&'a RawValue>,
        #[serde(borrow)]
        from: Option<&'a RawValue>,
        #[serde(borrow)]
        jsonrpc: Option<&'a RawValue>,
        #[serde(borrow)]
        method: Option<&'a RawValue>,
    }
    for line in bytes
        .split(|b| *b == b'\n')
        .filter(|l| !is_blank(l))
        .take(64)
    {
        if line.trim_ascii_start().starts_with(b"[") {
            return Format::Bare;
        }
        if let Ok(sniff) = serde_json::from_slice::<Sniff>(line) {
            if sniff.msg.is_some() || sniff.event.is_some() || sniff.from.is_some() {
                return Format::Canonical;
            }
            if sniff.jsonrpc.is_some() || sniff.method.is_some() {
                return Format::Bare;
            }
        }
    }
    Format::Canonical
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

fn present_batch<'de: 'a, 'a, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<OneOrBatch<'a>>, D::Error> {
    OneOrBatch::deserialize(d).map(Some)
}

#[derive(Deserialize)]
struct RawEnvelope<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    ts: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    from: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    session: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    stream: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    event: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present_batch")]
    msg: Option<OneOrBatch<'a>>,
}

/// The events of a chunk. Line numbers are relative to the chunk (the first
/// line is 1) until the caller rebases them.
#[derive(Debug, Default)]
pub struct DecodedChunk {
    pub events: Vec<Event>,
    pub lines: u64,
}

/// Decodes every line of `chunk`, which starts at byte `offset` of its input.
pub fn decode_chunk(chunk: &[u8], offset: u64, source: u32, format: Format) -> DecodedChunk {
    let mut decoded = DecodedChunk {
        // About one event per 200 bytes of trace: grow rarely.
        events: Vec::with_capacity(chunk.len() / 200 + 16),
        lines: 0,
    };
    let mut start = 0usize;
    let ends = memchr::memchr_iter(b'\n', chunk).chain(
        // A final line without a newline (a recording still being written) still counts.
        (chunk.last().is_some_and(|b| *b != b'\n')).then_some(chunk.len()),
    );
    for end in ends {
        decoded.lines += 1;
        let mut line = &chunk[start..end];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        if !is_blank(line) {
            let location = Location {
                source,
                line: decoded.lines,
                offset: offset + start as u64,
                len: u32::try_from(line.len()).unwrap_or(u32::MAX),
            };
            decode_line(line, location, format, &mut decoded.events);
        }
        start = end + 1;
    }
    decoded
}

/// Decodes one line into zero or more events (a batch gives one per message).
pub fn decode_line(line: &[u8], location: Location, format: Format, out: &mut Vec<Event>) {
    let unreadable = |why: Unreadable| Event {
        location,
        session: None,
        from: None,
        stream: None,
        time_ms: None,
        payload: Payload::Unreadable(why),
    };
    // Validating UTF-8 once up front also covers members serde skips unread.
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            out.push(unreadable(Unreadable::Json(format!(
                "the line is not valid UTF-8 (invalid byte at column {})",
                e.valid_up_to() + 1
            ))));
            return;
        }
    };
    match format {
        Format::Bare => match serde_json::from_str::<OneOrBatch>(text) {
            Ok(raw) => messages_of(raw, |message| {
                out.push(Event {
                    location,
                    session: None,
                    from: None,
                    stream: None,
                    time_ms: None,
                    payload: Payload::Message(message),
                })
            }),
            Err(e) => out.push(unreadable(json_error(&e))),
        },
        Format::Canonical => match serde_json::from_str::<ObjectOr<RawEnvelope>>(text) {
            Ok(ObjectOr::Object(envelope)) => match envelope_events(envelope, location, out) {
                Ok(()) => {}
                Err(why) => out.push(unreadable(Unreadable::Envelope(why))),
            },
            Ok(ObjectOr::Other(kind)) => out.push(unreadable(Unreadable::Envelope(format!(
                "a trace line must be a JSON object, not {}",
                kind.describe()
            )))),
            Err(e) => out.push(unreadable(json_error(&e))),
        },
    }
}

fn json_error(e: &serde_json::Error) -> Unreadable {
    // serde's own message names the problem and the column; the line is ours.
    let text = e.to_string();
    let text = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(head, _)| head)
        .to_string();
    let message = format!("{text} (column {})", e.column());
    match e.classify() {
        // Valid JSON that cannot be one message, such as a duplicated member.
        serde_json::error::Category::Data => {
            Unreadable::Json(format!("the line cannot be read: {message}"))
        }
        _ => Unreadable::Json(format!("the line is not valid JSON: {message}")),
    }
}

fn text_key(raw: &RawValue, member: &str) -> Result<CompactString, String> {
    match key_of(raw) {
        Ok(crate::event::Key::Str(s)) => Ok(s),
        Ok(key) => Ok(key.to_string().into()),
        Err(kind) => Err(format!(
            "\"{member}\" must be a string or an integer, not {}",
            kind.describe()
        )),
    }
}

fn envelope_events(
    envelope: RawEnvelope<'_>,
    location: Location,
    out: &mut Vec<Event>,
) -> Result<(), String> {
    let from = match envelope.from {
        None => return Err("the envelope has no \"from\" (\"client\" or \"server\")".into()),
        Some(raw) => match string_of(raw).as_deref() {
            Some("client") => Side::Client,
            Some("server") => Side::Server,
            _ => {
                return Err(format!(
                    "\"from\" must be \"client\" or \"server\", not {}",
                    json::describe_value(raw)
                ))
            }
        },
    };
    let time_ms = match envelope.ts {
        None => None,
        Some(raw) => Some(match kind_of(raw) {
            JsonKind::Integer | JsonKind::Float => {
                raw.get().parse::<f64>().map_err(|e| e.to_string())?
            }
            JsonKind::String => string_of(raw)
                .as_deref()
                .and_then(timestamp::parse_rfc3339_ms)
                .ok_or_else(|| {
                    format!(
                        "\"ts\" {} is not an RFC 3339 date-time",
                        json::describe_value(raw)
                    )
                })?,
            other => {
                return Err(format!(
                    "\"ts\" must be an RFC 3339 string or milliseconds since the epoch, not {}",
                    other.describe()
                ))
            }
        }),
    };
    let session = envelope
        .session
        .map(|raw| text_key(raw, "session"))
        .transpose()?;
    let stream = envelope
        .stream
        .map(|raw| text_key(raw, "stream"))
        .transpose()?;
    let event = |payload| Event {
        location,
        session: session.clone(),
        from: Some(from),
        stream: stream.clone(),
        time_ms,
        payload,
    };
    match (envelope.msg, envelope.event) {
        (Some(_), Some(_)) => Err("the envelope has both \"msg\" and \"event\"".into()),
        (None, None) => Err("the envelope has neither \"msg\" nor \"event\"".into()),
        (None, Some(raw)) => match string_of(raw).as_deref() {
            Some("closed") => {
                out.push(event(Payload::Transport(Transport::Closed)));
                Ok(())
            }
            _ => Err(format!(
                "unknown transport event {} (known: \"closed\")",
                json::describe_value(raw)
            )),
        },
        (Some(msg), None) => {
            messages_of(msg, |m| out.push(event(Payload::Message(m))));
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Body, Message};

    fn decode(text: &str, format: Format) -> DecodedChunk {
        decode_chunk(text.as_bytes(), 0, 0, format)
    }

    #[test]
    fn detects_formats() {
        assert_eq!(
            detect(b"\n{\"from\":\"client\",\"msg\":{}}\n"),
            Format::Canonical
        );
        assert_eq!(
            detect(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"),
            Format::Bare
        );
        assert_eq!(
            detect(b"garbage\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"),
            Format::Bare
        );
        assert_eq!(detect(b""), Format::Canonical);
    }

    #[test]
    fn lines_are_numbered_and_blank_lines_counted() {
        let d = decode(
            "{\"from\":\"client\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}\r\n\n  \n{\"from\":\"server\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}",
            Format::Canonical,
        );
        assert_eq!(d.lines, 4);
        assert_eq!(d.events.len(), 2);
        assert_eq!(d.events[0].location.line, 1);
        assert_eq!(d.events[1].location.line, 4);
        assert_eq!(d.events[1].from, Some(Side::Server));
        assert!(matches!(
            d.events[1].payload,
            Payload::Message(Message {
                body: Body::Response { .. },
                ..
            })
        ));
    }

    #[test]
    fn bad_lines_become_unreadable_events() {
        let d = decode_chunk(
            b"not json\n[1]\n{\"msg\":{}}\n{\"from\":\"proxy\",\"msg\":{}}\n{\"from\":\"client\",\"ts\":\"noon\",\"msg\":{}}\n\xff\n",
            0,
            0,
            Format::Canonical,
        );
        let kinds: Vec<_> = d
            .events
            .iter()
            .map(|e| match &e.payload {
                Payload::Unreadable(Unreadable::Json(_)) => "json",
                Payload::Unreadable(Unreadable::Envelope(_)) => "envelope",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            ["json", "envelope", "envelope", "envelope", "envelope", "json"]
        );
    }

    #[test]
    fn a_batch_gives_one_event_per_message() {
        let d = decode(
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#,
            Format::Bare,
        );
        assert_eq!(d.events.len(), 2);
        assert!(d
            .events
            .iter()
            .all(|e| e.location.line == 1 && e.from.is_none()));
    }

    #[test]
    fn transport_events_and_envelope_fields() {
        let d = decode(
            r#"{"ts":1000,"from":"server","session":7,"stream":"get","event":"closed"}"#,
            Format::Canonical,
        );
        let e = &d.events[0];
        assert_eq!(e.payload, Payload::Transport(Transport::Closed));
        assert_eq!(e.session.as_deref(), Some("7"));
        assert_eq!(e.stream.as_deref(), Some("get"));
        assert_eq!(e.time_ms, Some(1000.0));
    }
}
