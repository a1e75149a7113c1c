//! `text/event-stream` bodies (WHATWG server-sent events).
//!
//! Lines end with CRLF, LF or CR. `data` lines of one event are joined with
//! LF; `:` starts a comment; a blank line dispatches the event. Unlike a
//! browser, a final event without its blank line is kept: a captured stream
//! that was cut off still carries the messages it delivered.

use std::borrow::Cow;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent<'a> {
    /// The `event` field; `None` means the default type, `message`.
    pub event: Option<String>,
    /// Borrowed from the body when one `data` line holds it all.
    pub data: Cow<'a, str>,
    pub id: Option<String>,
    /// The event has an `id:` line of its own (the id is not carried over).
    pub own_id: bool,
    pub retry: Option<u64>,
    /// Byte offset of the event's first line in the body.
    pub offset: usize,
}

/// The first line of `input`, without its terminator, and what follows it.
fn line(input: &str) -> (&str, &str) {
    let Some(end) = memchr::memchr2(b'\r', b'\n', input.as_bytes()) else {
        return (input, "");
    };
    let terminator = match input.as_bytes()[end..].starts_with(b"\r\n") {
        true => 2,
        false => 1,
    };
    (&input[..end], &input[end + terminator..])
}

/// Splits a field line into name and value (one leading space is dropped).
fn field(line: &str) -> (&str, &str) {
    match memchr::memchr(b':', line.as_bytes()) {
        Some(colon) => {
            let value = &line[colon + 1..];
            (&line[..colon], value.strip_prefix(' ').unwrap_or(value))
        }
        None => (line, ""),
    }
}

/// Whether a body reads as an event stream at all: some line of it is a
/// comment or an SSE field (`data`, `event`, `id`, `retry`). A JSON
/// document or an HTML error page labelled `text/event-stream` is not.
pub fn has_field_lines(body: &str) -> bool {
    body.split(['\r', '\n']).any(|line| {
        line.starts_with(':') || matches!(field(line).0, "data" | "event" | "id" | "retry")
    })
}

/// Parses a whole body into its events.
pub fn parse(body: &str) -> Vec<SseEvent<'_>> {
    let mut events = Vec::new();
    let mut pending = SseEvent {
        event: None,
        data: Cow::Borrowed(""),
        id: None,
        own_id: false,
        retry: None,
        offset: 0,
    };
    let mut has_data = false;
    let mut started = false;
    let mut rest = body;
    while !rest.is_empty() {
        let at = body.len() - rest.len();
        let (text, next) = line(rest);
        rest = next;
        if text.is_empty() {
            if has_data {
                // The last event id carries over to later events.
                let id = pending.id.clone();
                events.push(std::mem::replace(
                    &mut pending,
                    SseEvent {
                        event: None,
                        data: Cow::Borrowed(""),
                        id,
                        own_id: false,
                        retry: None,
                        offset: 0,
                    },
                ));
            } else {
                pending.event = None;
            }
            has_data = false;
            started = false;
            continue;
        }
        if text.starts_with(':') {
            continue;
        }
        if !started {
            pending.offset = at;
            started = true;
        }
        match field(text) {
            ("data", value) if has_data => {
                let data = pending.data.to_mut();
                data.push('\n');
                data.push_str(value);
            }
            ("data", value) => {
                pending.data = Cow::Borrowed(value);
                has_data = true;
            }
            ("event", value) => pending.event = Some(value.to_string()),
            ("id", value) if !value.contains('\0') => {
                pending.id = Some(value.to_string());
                pending.own_id = true;
            }
            ("retry", value) => pending.retry = value.parse().ok().or(pending.retry),
            _ => {}
        }
    }
    if has_data {
        events.push(pending);
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_with_every_line_end() {
        for end in ["\n", "\r\n", "\r"] {
            let body = format!(
                "event: message{end}id: 7{end}data: {{\"a\":1,{end}data: \"b\":2}}{end}{end}: comment{end}retry: 3000{end}data:x{end}{end}"
            );
            let events = parse(&body);
            assert_eq!(events.len(), 2, "{end:?}");
            assert_eq!(events[0].event.as_deref(), Some("message"));
            assert_eq!(events[0].id.as_deref(), Some("7"));
            assert!(events[0].own_id && !events[1].own_id);
            assert_eq!(events[0].data, "{\"a\":1,\n\"b\":2}");
            assert_eq!(events[0].offset, 0);
            assert_eq!(events[1].data, "x");
            assert_eq!(events[1].retry, Some(3000));
            assert_eq!(&body[events[1].offset..events[1].offset + 5], "retry");
        }
    }

    #[test]
    fn a_final_event_without_blank_line_is_kept() {
        let events = parse("data: {\"jsonrpc\":\"2.0\"}");
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].data, "{\"jsonrpc\":\"2.0\"}");
    }

    #[test]
    fn only_field_lines_make_an_event_stream() {
        assert!(has_field_lines(": keep-alive\r\n\r\n"));
        assert!(has_field_lines("id: 1\rdata: {}\r\r"));
        assert!(!has_field_lines(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"
        ));
        assert!(!has_field_lines("<html>\n<body>data: 502</body>\n</html>"));
    }

    #[test]
    fn one_data_line_is_borrowed_and_several_are_joined() {
        let events = parse("data: {\"a\":1}\n\ndata: one\ndata: two\n\ndata:\n\n");
        assert!(matches!(events[0].data, Cow::Borrowed("{\"a\":1}")));
        assert!(matches!(&events[1].data, Cow::Owned(joined) if joined == "one\ntwo"));
        assert!(matches!(events[2].data, Cow::Borrowed("")));
    }

    #[test]
    fn events_without_data_are_not_dispatched() {
        assert!(parse("event: ping\n\n: keep-alive\n\n").is_empty());
        assert!(parse("").is_empty());
    }
}
