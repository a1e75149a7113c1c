//! JSON-lines traces: canonical envelopes and bare JSON-RPC lines.

use compact_str::CompactString;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::json::{self, key_of, kind_of, messages_of, present, string_of, ObjectOr, OneOrBatch};
use super::timestamp;
use crate::event::{Event, JsonKind, Location, Payload, Side, Transport, Unreadable};

pub(super) fn present_batch<'de: 'a, 'a, D: serde::Deserializer<'de>>(
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
    /// The output of a `not-protocol` event.
    #[serde(default, borrow, deserialize_with = "present")]
    text: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present_batch")]
    msg: Option<OneOrBatch<'a>>,
}

/// Decodes one line: a bare JSON-RPC message (or batch), or a canonical envelope.
pub(super) fn decode_line(line: &[u8], location: Location, bare: bool, out: &mut Vec<Event>) {
    let unreadable = |why: Unreadable| Event::unreadable(location, why);
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
    match bare {
        true => match serde_json::from_str::<OneOrBatch>(text) {
            Ok(raw) => messages_of(raw, |message| {
                out.push(Event::bare(location, Payload::Message(message)))
            }),
            Err(e) => out.push(unreadable(json_error(&e))),
        },
        false => match serde_json::from_str::<ObjectOr<RawEnvelope>>(text) {
            Ok(ObjectOr::Object(envelope)) => match envelope_events(envelope, location, out) {
                Ok(()) => {}
                Err(why) => out.push(unreadable(Unreadable::Envelope(format!(
                    "not a valid trace line: {why}"
                )))),
            },
            Ok(ObjectOr::Other(kind)) => out.push(unreadable(Unreadable::Envelope(format!(
                "not a valid trace line: a trace line must be a JSON object, not {}",
                kind.describe()
            )))),
            Err(e) => out.push(unreadable(json_error(&e))),
        },
    }
}

pub(super) fn json_error(e: &serde_json::Error) -> Unreadable {
    json_error_at(e, "the line", 0)
}

/// Why `what` (the line, or a message in it that starts after
/// `columns_before` bytes) cannot be read, with the column in the line.
pub(super) fn json_error_at(
    e: &serde_json::Error,
    what: &str,
    columns_before: usize,
) -> Unreadable {
    // serde's own message names the problem and the column; the line is ours.
    let text = e.to_string();
    let text = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(head, _)| head)
        .to_string();
    let message = format!("{text} (column {})", columns_before + e.column());
    match e.classify() {
        // Valid JSON that cannot be one message, such as a duplicated member.
        serde_json::error::Category::Data => {
            Unreadable::Json(format!("{what} cannot be read: {message}"))
        }
        _ => Unreadable::Json(format!("{what} is not valid JSON: {message}")),
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
        place: None,
        payload,
    };
    match (envelope.msg, envelope.event) {
        (Some(_), Some(_)) => Err("the envelope has both \"msg\" and \"event\"".into()),
        (None, None) => Err("the envelope has neither \"msg\" nor \"event\"".into()),
        (None, Some(raw)) => {
            // The events that carry the sender's output as "text".
            let with_text = |wrap: fn(String) -> Transport, needs: &str| {
                let text = envelope.text.and_then(string_of).ok_or(needs)?;
                Ok::<_, String>(Payload::Transport(wrap(text.into_owned())))
            };
            let payload = match string_of(raw).as_deref() {
                Some("closed") => Payload::Transport(Transport::Closed),
                Some("not-protocol") => with_text(
                    Transport::NotProtocol,
                    "a \"not-protocol\" event needs \"text\": the output that was not a message",
                )?,
                Some("stderr") => with_text(
                    Transport::Stderr,
                    "a \"stderr\" event needs \"text\": the line the sender wrote to stderr",
                )?,
                _ => {
                    return Err(format!(
                    "unknown transport event {} (known: \"closed\", \"not-protocol\", \"stderr\")",
                    json::describe_value(raw)
                ))
                }
            };
            out.push(event(payload));
            Ok(())
        }
        (Some(msg), None) => {
            messages_of(msg, |m| out.push(event(Payload::Message(m))));
            Ok(())
        }
    }
}
