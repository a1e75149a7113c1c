//! JSON-lines traces: canonical envelopes and bare JSON-RPC lines.

use compact_str::CompactString;
use serde::Deserialize;

use super::json::{
    self, key_of, kind_of, messages_of, present_text, string_of, ObjectOr, OneOrBatch,
};
use super::timestamp;
use crate::event::{Event, JsonKind, Location, Payload, Side, Transport, Unreadable};

pub(super) fn present_batch<'de: 'a, 'a, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<OneOrBatch<'a>>, D::Error> {
    OneOrBatch::deserialize(d).map(Some)
}

#[derive(Deserialize, Debug, PartialEq)]
struct RawEnvelope<'a> {
    #[serde(default, borrow, deserialize_with = "present_text")]
    ts: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    from: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    session: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    stream: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    event: Option<&'a str>,
    /// The output of a `not-protocol` event.
    #[serde(default, borrow, deserialize_with = "present_text")]
    text: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present_batch")]
    msg: Option<OneOrBatch<'a>>,
}

impl<'a> RawEnvelope<'a> {
    /// Reads a line as [`OneOrBatch::read`] reads a message member.
    fn read(line: &'a str) -> serde_json::Result<ObjectOr<Self>> {
        match Self::of_valid(line) {
            Some(envelope) => Ok(ObjectOr::Object(envelope)),
            None => serde_json::from_str(line),
        }
    }

    fn of_valid(line: &'a str) -> Option<Self> {
        crate::json_text::read_whole(line, Self::scanned)
    }

    /// The envelope that opens at `at`, its message scanned in the same pass.
    fn scanned(line: &'a str, at: usize) -> Option<(Self, usize)> {
        const NAMES: [&str; 7] = ["ts", "from", "session", "stream", "event", "text", "msg"];
        const MSG: Option<usize> = Some(6);
        let mut msg = None;
        let found =
            crate::json_text::checked_members_read_by(
                line,
                at,
                NAMES,
                |index, start| match index {
                    MSG => OneOrBatch::scanned(line, start).map(|(read, end)| {
                        msg = Some(read);
                        end
                    }),
                    _ => crate::json_text::checked_value_end(line.as_bytes(), start),
                },
            );
        let ([ts, from, session, stream, event, text, _], end) = found?;
        let envelope = RawEnvelope {
            ts,
            from,
            session,
            stream,
            event,
            text,
            msg,
        };
        Some((envelope, end))
    }
}

/// Decodes one line: a bare JSON-RPC message (or batch), or a canonical envelope.
pub(super) fn decode_line(line: &[u8], location: Location, bare: bool, out: &mut Vec<Event>) {
    let unreadable = |why: Unreadable| Event::unreadable(location, why);
    // Validating UTF-8 once up front also covers members serde skips unread.
    let text = match crate::json_text::utf8(line) {
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
        true => match OneOrBatch::read(text) {
            Ok(raw) => messages_of(raw, |message| {
                out.push(Event::bare(location, Payload::Message(message)))
            }),
            Err(e) => out.push(unreadable(json_error(&e))),
        },
        false => match RawEnvelope::read(text) {
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

fn text_key(raw: &str, member: &str) -> Result<CompactString, String> {
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
            JsonKind::Integer | JsonKind::Float => raw.parse::<f64>().map_err(|e| e.to_string())?,
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::select;

    /// Values a line can hold (params and results among them).
    const VALID: &[&str] = &[
        "1",
        "-0.5e+3",
        r#""s""#,
        r#""a\"b""#,
        r#""\ud800""#,
        "true",
        "null",
        "[]",
        "{}",
        r#"{"a":[{"b":"}"}]}"#,
        r#""client""#,
        r#""2.0""#,
        r#"{"progressToken":"t","progress":1,"total":2.5}"#,
        r#"{"_meta":{"progressToken":1},"name":"x"}"#,
        r#"{"requestId":1,"requestId":2}"#,
        r#"{"pr\u006fgress":1,"x":{"progress":2}}"#,
    ];

    /// Text no line can hold.
    const INVALID: &[&str] = &[
        "01",
        "1.",
        "-",
        "1e",
        r#""\x""#,
        r#""\u12""#,
        "\"\u{1}\"",
        "tru",
        "[1,]",
        "{,}",
        "[1 2]",
        r#"{"a" 1}"#,
    ];

    /// Fragments put anywhere in a line.
    const NOISE: &[&str] = &[",", "}", "]", "{", "\"", ":", " ", "\\", "\u{1}", "x", "0"];

    fn object(members: Vec<(&str, String)>, gap: &str) -> String {
        let members: Vec<String> = members
            .iter()
            .map(|(name, value)| format!("{gap}\"{name}\"{gap}:{gap}{value}{gap}"))
            .collect();
        format!("{{{}}}", members.join(","))
    }

    fn value() -> impl Strategy<Value = String> + Clone {
        prop_oneof![4 => select(VALID), 1 => select(INVALID)].prop_map(String::from)
    }

    /// A message member: a message, a batch of them, or any value.
    fn message_member() -> impl Strategy<Value = String> {
        const NAMES: &[&str] = &[
            "jsonrpc",
            "id",
            "method",
            "params",
            "result",
            "error",
            "other",
            r"m\u0065thod",
            r"\ud800",
        ];
        let members = proptest::collection::vec((select(NAMES), value()), 0..6);
        let message = (members, any::<bool>())
            .prop_map(|(members, spaced)| object(members, if spaced { " " } else { "" }));
        let batch = proptest::collection::vec(message.clone(), 0..3)
            .prop_map(|items| format!("[{}]", items.join(",")));
        prop_oneof![message, batch, value()]
    }

    /// `text` with `noise` put in at a place, if any.
    fn with_noise(mut text: String, noise: Option<(prop::sample::Index, &str)>) -> String {
        if let Some((at, fragment)) = noise {
            let at = at.index(text.len() + 1);
            if text.is_char_boundary(at) {
                text.insert_str(at, fragment);
            }
        }
        text
    }

    proptest! {
        /// Whatever line the scanner reads itself, serde_json reads the same
        /// way; it leaves the rest (and every error's wording) to serde_json.
        #[test]
        fn scanned_lines_read_as_serde_json_reads_them(
            members in proptest::collection::vec((
                select(&["ts", "from", "session", "msg", r"m\u0073g", "text", "x"][..]),
                prop_oneof![message_member(), value()],
            ), 0..6),
            bare in message_member(),
            noise in proptest::option::of((any::<prop::sample::Index>(), select(NOISE))),
        ) {
            let envelope = with_noise(object(members, ""), noise);
            if let Some(mut scanned) = RawEnvelope::of_valid(&envelope) {
                scanned.msg = scanned.msg.map(OneOrBatch::into_serde_reading);
                let serde = serde_json::from_str::<ObjectOr<RawEnvelope>>(&envelope);
                prop_assert_eq!(serde.ok(), Some(ObjectOr::Object(scanned)), "{}", envelope);
            }
            let bare = with_noise(bare, noise);
            if let Some(scanned) = crate::json_text::read_whole(&bare, OneOrBatch::scanned) {
                let scanned = scanned.into_serde_reading();
                let serde = serde_json::from_str::<OneOrBatch>(&bare);
                prop_assert_eq!(serde.ok(), Some(scanned), "{}", bare);
            }
        }
    }

    #[test]
    fn ordinary_lines_are_scanned_without_serde() {
        let line = r#"{"ts":1,"from":"client","session":"s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"a\"b"}}}}"#;
        assert!(RawEnvelope::of_valid(line).is_some());
        let batch = r#" [{"jsonrpc":"2.0","method":"ping","id":"a"}, {"jsonrpc":"2.0","id":2,"result":{}}] "#;
        assert!(crate::json_text::read_whole(batch, OneOrBatch::scanned).is_some());
    }

    #[test]
    fn what_the_scanner_leaves_is_read_by_serde_json() {
        // A message that is not an object, a member twice, a lone surrogate
        // in a name, nesting deeper than the scanner follows, a bad escape.
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for line in [
            r#"{"from":"client","msg":5}"#.to_string(),
            r#"{"from":"client","msg":{},"m\u0073g":{}}"#.to_string(),
            r#"{"from":"client","msg":{"\ud800":1}}"#.to_string(),
            format!(r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":1,"result":{deep}}}}}"#),
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"\q"}}"#.to_string(),
        ] {
            assert_eq!(RawEnvelope::of_valid(&line), None, "{line}");
            let ours = RawEnvelope::read(&line)
                .map(|_| ())
                .map_err(|e| e.to_string());
            let serde = serde_json::from_str::<ObjectOr<RawEnvelope>>(&line);
            assert_eq!(ours, serde.map(|_| ()).map_err(|e| e.to_string()), "{line}");
        }
    }
}
