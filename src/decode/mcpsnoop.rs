//! mcpsnoop session logs: the JSON lines its stdio shim or HTTP proxy writes
//! (`~/.local/state/mcpsnoop/sessions/<id>.jsonl`, or `--trace-file`), one
//! envelope per observed frame:
//!
//! ```json
//! {"session_id":"stdio-7f3a9c","server_label":"notes","seq":3,"ts":"2026-05-14T09:12:03.5+02:00","direction":"c2s","transport":"stdio","raw":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}
//! ```
//!
//! `c2s` frames come from the client, `s2c` from the server; `stderr` (the
//! server's stderr) and `meta` (the recorder's own header) say nothing about
//! the protocol and are skipped. A frame that was not JSON on the wire is
//! recorded as `text` instead of `raw`: from the server that is output on its
//! stdout that is not a message (stdout-pollution); from the client, a
//! message that cannot be read. A `truncated` frame is mcpsnoop's copy cut at
//! its size cap: the message was sent whole but cannot be read here. A frame
//! with neither (`202 Accepted`, a proxy error) carries only an HTTP status.
//!
//! The session is `session_id`. Over HTTP one proxy carries every client
//! connection: each TCP connection (`conn_id`) is a stream, whose order
//! holds, while order across connections is only as good as the capture's.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::json::{describe_value, messages_of, present, string_of, ObjectOr, OneOrBatch};
use super::jsonl::{json_error, present_batch};
use super::timestamp::parse_rfc3339_ms;
use crate::event::{Event, Location, Payload, Side, Transport, Unreadable};

#[derive(Deserialize)]
struct Frame<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    session_id: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    ts: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    direction: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    transport: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    conn_id: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    truncated: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    text: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present_batch")]
    raw: Option<OneOrBatch<'a>>,
}

/// Decodes one line of an mcpsnoop log.
pub(super) fn decode_line(line: &[u8], location: Location, out: &mut Vec<Event>) {
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            out.push(Event::unreadable(
                location,
                Unreadable::Json(format!(
                    "the line is not valid UTF-8 (invalid byte at column {})",
                    e.valid_up_to() + 1
                )),
            ));
            return;
        }
    };
    let why = match serde_json::from_str::<ObjectOr<Frame>>(text) {
        Ok(ObjectOr::Object(frame)) => match frame_events(frame, location, out) {
            Ok(()) => return,
            Err(why) => Unreadable::Envelope(format!("not a valid mcpsnoop frame: {why}")),
        },
        Ok(ObjectOr::Other(kind)) => Unreadable::Envelope(format!(
            "not a valid mcpsnoop frame: a frame must be a JSON object, not {}",
            kind.describe()
        )),
        Err(e) => json_error(&e),
    };
    out.push(Event::unreadable(location, why));
}

fn text_member(raw: &RawValue, member: &str) -> Result<String, String> {
    string_of(raw)
        .map(|s| s.into_owned())
        .ok_or_else(|| format!("\"{member}\" must be a string, not {}", describe_value(raw)))
}

fn frame_events(frame: Frame<'_>, location: Location, out: &mut Vec<Event>) -> Result<(), String> {
    let direction = frame
        .direction
        .ok_or("the frame has no \"direction\" (\"c2s\", \"s2c\", \"stderr\" or \"meta\")")?;
    let from = match string_of(direction).as_deref() {
        Some("c2s") => Side::Client,
        Some("s2c") => Side::Server,
        Some("stderr" | "meta") => return Ok(()),
        _ => {
            return Err(format!(
                "\"direction\" must be \"c2s\", \"s2c\", \"stderr\" or \"meta\", not {}",
                describe_value(direction)
            ))
        }
    };
    let session = frame
        .session_id
        .ok_or("the frame has no \"session_id\"")
        .map(|raw| text_member(raw, "session_id"))??;
    let time_ms = match frame.ts {
        None => None,
        Some(raw) => Some(
            string_of(raw)
                .as_deref()
                .and_then(parse_rfc3339_ms)
                .ok_or_else(|| {
                    format!(
                        "\"ts\" {} is not an RFC 3339 date-time",
                        describe_value(raw)
                    )
                })?,
        ),
    };
    let http = frame
        .transport
        .is_some_and(|raw| string_of(raw).as_deref() == Some("http"));
    let stream = match frame.conn_id {
        Some(raw) if http => Some(text_member(raw, "conn_id")?.into()),
        _ => None,
    };
    let event = |payload| Event {
        location,
        session: Some(session.as_str().into()),
        from: Some(from),
        stream: stream.clone(),
        time_ms,
        place: None,
        payload,
    };
    match (frame.raw, frame.text) {
        (Some(raw), _) => messages_of(raw, |m| out.push(event(Payload::Message(m)))),
        (None, Some(raw)) => {
            let text = text_member(raw, "text")?;
            let truncated = frame.truncated.is_some_and(|raw| raw.get() == "true");
            out.push(if truncated {
                Event::unreadable(
                    location,
                    Unreadable::Json(format!(
                        "mcpsnoop kept only the first {} bytes of this {from} message (its \
                         frame-size cap), so it cannot be read",
                        text.len()
                    )),
                )
            } else if from == Side::Server {
                event(Payload::Transport(Transport::NotProtocol(text)))
            } else {
                Event::unreadable(
                    location,
                    Unreadable::Json(format!(
                        "the client sent a line that is not JSON: {}",
                        crate::sanitize::truncate(&text, 80)
                    )),
                )
            });
        }
        (None, None) => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Body;

    fn decode(line: &str) -> Vec<Event> {
        let location = Location {
            source: 0,
            line: 1,
            offset: 0,
            len: line.len() as u32,
        };
        let mut out = Vec::new();
        decode_line(line.as_bytes(), location, &mut out);
        out
    }

    fn why(line: &str) -> String {
        match &decode(line)[..] {
            [Event {
                payload: Payload::Unreadable(Unreadable::Json(why) | Unreadable::Envelope(why)),
                ..
            }] => why.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn frames_in_both_directions() {
        let events = decode(
            r#"{"session_id":"s-1","seq":3,"ts":"2026-05-14T09:12:03.5+02:00","direction":"c2s","transport":"stdio","raw":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
        );
        let e = &events[0];
        assert_eq!(
            (e.session.as_deref(), e.from, e.stream.as_deref(), e.time_ms),
            (
                Some("s-1"),
                Some(Side::Client),
                None,
                Some(1_778_742_723_500.0)
            )
        );
        assert!(
            matches!(&e.payload, Payload::Message(m) if matches!(m.body, Body::Request { .. }))
        );
        let events = decode(
            r#"{"session_id":"h","direction":"s2c","transport":"http","conn_id":"127.0.0.1:53122","status":200,"raw":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
        );
        assert_eq!(
            (events[0].from, events[0].stream.as_deref()),
            (Some(Side::Server), Some("127.0.0.1:53122"))
        );
    }

    #[test]
    fn frames_without_a_message() {
        for line in [
            r#"{"session_id":"s","seq":1,"direction":"meta","raw":{"command":["node","server.js"]}}"#,
            r#"{"session_id":"s","seq":2,"direction":"stderr","text":"listening on stdio"}"#,
            r#"{"session_id":"s","seq":5,"direction":"s2c","transport":"http","status":202}"#,
        ] {
            assert!(decode(line).is_empty(), "{line}");
        }
        let events = decode(r#"{"session_id":"s","direction":"s2c","text":"Server v0.4 ready"}"#);
        assert_eq!(
            events[0].payload,
            Payload::Transport(Transport::NotProtocol("Server v0.4 ready".into()))
        );
        assert_eq!(
            why(r#"{"session_id":"s","direction":"s2c","truncated":true,"text":"{\"jsonrpc\":\"2.0\",\"id\":2,\"res"}"#),
            "mcpsnoop kept only the first 28 bytes of this server message (its frame-size cap), so it cannot be read"
        );
        assert_eq!(
            why(r#"{"session_id":"s","direction":"c2s","text":"hello"}"#),
            "the client sent a line that is not JSON: hello"
        );
    }

    #[test]
    fn broken_frames() {
        assert_eq!(
            why(r#"{"session_id":"s","raw":{}}"#),
            "not a valid mcpsnoop frame: the frame has no \"direction\" (\"c2s\", \"s2c\", \"stderr\" or \"meta\")"
        );
        assert_eq!(
            why(r#"{"session_id":"s","direction":"up","raw":{}}"#),
            "not a valid mcpsnoop frame: \"direction\" must be \"c2s\", \"s2c\", \"stderr\" or \"meta\", not \"up\""
        );
        assert_eq!(
            why(r#"{"direction":"c2s","raw":{}}"#),
            "not a valid mcpsnoop frame: the frame has no \"session_id\""
        );
        assert_eq!(
            why(r#"{"session_id":"s","direction":"c2s","ts":"noon","raw":{}}"#),
            "not a valid mcpsnoop frame: \"ts\" \"noon\" is not an RFC 3339 date-time"
        );
        assert_eq!(
            why("[1]"),
            "not a valid mcpsnoop frame: a frame must be a JSON object, not an array"
        );
        assert!(why(r#"{"session_id":"s","direction":"c2s","raw":{"#)
            .starts_with("the line is not valid JSON"));
    }
}
