//! The newline framing of stdio, in a bare capture of the stream or in the
//! `not-protocol` lines of a recorded trace. A message written over several
//! lines (pretty-printed, or with a raw newline in a string), or several
//! messages written on one line, is one fault: it decodes as the messages it
//! holds, after one [`Transport::Misframed`] event that says how they were
//! framed (rule `stdio-newline-framing`), rather than as one unreadable line
//! (or one stdout-pollution) per fragment.

use super::json::{messages_of, ObjectOr, OneOrBatch};
use super::{is_blank, jsonl, line_location, opens_object, DecodedChunk};
use crate::event::{Event, Location, Misframing, Payload, Transport};

/// A split message longer than this many lines, or bytes, is not looked for.
const MAX_LINES: usize = 100_000;
const MAX_BYTES: usize = 16 << 20;

/// A line of the chunk: its number, where it starts, its text.
type Line<'a> = (u64, usize, &'a [u8]);

/// Decodes every line of a bare chunk that starts at byte `offset` of its input.
pub(super) fn decode_bare(chunk: &[u8], offset: u64, source: u32, decoded: &mut DecodedChunk) {
    let lines: Vec<Line> = super::lines(chunk).collect();
    decoded.lines = lines.last().map_or(0, |line| line.0);
    let at =
        |(number, start, line): Line| line_location(source, number, offset + start as u64, line);
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let run = match is_blank(line.2) {
            true => 1,
            false => decode_framed(&lines[index..], at, &mut decoded.events),
        };
        index += run;
    }
}

/// Decodes the line that starts `lines`, with the lines after it when it
/// begins a message they end; returns how many lines it used.
fn decode_framed(lines: &[Line], at: impl Fn(Line) -> Location, out: &mut Vec<Event>) -> usize {
    let first = at(lines[0]);
    let Ok(text) = std::str::from_utf8(lines[0].2) else {
        jsonl::decode_line(lines[0].2, first, true, out);
        return 1;
    };
    let error = match OneOrBatch::read(text) {
        Ok(raw) => {
            messages_of(raw, |message| out.push(message_event(first, message)));
            return 1;
        }
        Err(error) => error,
    };
    if let Some(values) = messages_in(text).filter(|values| values.len() > 1) {
        let messages = u32::try_from(values.len()).unwrap_or(u32::MAX);
        push_framed(first, Misframing::Joined { messages }, values, out);
        return 1;
    }
    let texts = lines.iter().map(|line| line.2);
    let split = error.is_eof().then(|| split_message(texts)).flatten();
    let Some((used, text)) = split else {
        jsonl::decode_line(lines[0].2, first, true, out);
        return 1;
    };
    let Some(values) = messages_in(&text) else {
        // The lines close what the first opened, yet hold no message: each
        // is read on its own, as it always was.
        for &line in &lines[..used] {
            if !is_blank(line.2) {
                jsonl::decode_line(line.2, at(line), true, out);
            }
        }
        return used;
    };
    let lines_used = u32::try_from(used).unwrap_or(u32::MAX);
    let last = at(lines[used - 1]);
    push_framed(
        first,
        Misframing::Split {
            lines: lines_used,
            last,
        },
        values,
        out,
    );
    used
}

fn message_event(location: Location, message: crate::event::Message) -> Event {
    Event::bare(location, Payload::Message(message))
}

/// A trace recorded from stdio (`mcp-lint record`) holds each line of a
/// peer's output that was not one message as a `not-protocol` event. Where
/// such events of one sender, one after the other, join into a message (or
/// one holds several), they are that framing fault and those messages.
pub(super) fn reframe_recorded(events: &mut Vec<Event>) {
    if !events.iter().any(|event| not_protocol(event).is_some()) {
        return;
    }
    let recorded = std::mem::take(events);
    let mut index = 0;
    while index < recorded.len() {
        let used = reframe_at(&recorded[index..], events);
        if used == 0 {
            events.push(recorded[index].clone());
        }
        index += used.max(1);
    }
}

/// The text of a `not-protocol` event.
fn not_protocol(event: &Event) -> Option<&str> {
    match &event.payload {
        Payload::Transport(Transport::NotProtocol(text)) => Some(text),
        _ => None,
    }
}

/// Reframes the `not-protocol` events that start `events`, if they are
/// messages misframed; returns how many it used (0: none).
fn reframe_at(events: &[Event], out: &mut Vec<Event>) -> usize {
    let first = &events[0];
    let Some(text) = not_protocol(first) else {
        return 0;
    };
    let event = |payload| Event {
        payload,
        ..first.clone()
    };
    if let Some(values) = messages_in(text).filter(|values| values.len() > 1) {
        let messages = u32::try_from(values.len()).unwrap_or(u32::MAX);
        push_framed_as(event, Misframing::Joined { messages }, values, out);
        return 1;
    }
    let opened = serde_json::from_str::<serde::de::IgnoredAny>(text);
    if !opened.is_err_and(|error| error.is_eof()) {
        return 0;
    }
    let same_sender = |e: &&Event| e.from == first.from && e.session == first.session;
    let texts = events
        .iter()
        .take_while(same_sender)
        .map_while(not_protocol);
    let Some((used, joined)) = split_message(texts.map(str::as_bytes)) else {
        return 0;
    };
    let Some(values) = messages_in(&joined) else {
        return 0;
    };
    let (lines, last) = (
        u32::try_from(used).unwrap_or(u32::MAX),
        events[used - 1].location,
    );
    push_framed_as(event, Misframing::Split { lines, last }, values, out);
    used
}

/// The framing event, then the messages, all at the first line.
fn push_framed(at: Location, how: Misframing, values: Vec<OneOrBatch>, out: &mut Vec<Event>) {
    push_framed_as(|payload| Event::bare(at, payload), how, values, out);
}

/// The framing event, then the messages, each made by `event`.
fn push_framed_as(
    event: impl Fn(Payload) -> Event,
    how: Misframing,
    values: Vec<OneOrBatch>,
    out: &mut Vec<Event>,
) {
    out.push(event(Payload::Transport(Transport::Misframed(how))));
    for raw in values {
        messages_of(raw, |message| out.push(event(Payload::Message(message))));
    }
}

/// The JSON objects (messages) and arrays (batches) `text` holds one after
/// another, when it holds nothing else.
fn messages_in(text: &str) -> Option<Vec<OneOrBatch<'_>>> {
    let values = serde_json::Deserializer::from_str(text).into_iter::<OneOrBatch>();
    let values = values.collect::<Result<Vec<_>, _>>().ok()?;
    let message = |raw: &OneOrBatch| !matches!(raw, OneOrBatch::One(ObjectOr::Other(_)));
    (!values.is_empty() && values.iter().all(message)).then_some(values)
}

/// The texts (lines) from the first on that close the JSON value it opens,
/// and their text joined, when they do before another line opens a message
/// of its own (a compact writer's next message). A line break inside a
/// string was a raw newline in it, and joins as the `\n` escape it should
/// have been.
fn split_message<'t>(mut texts: impl Iterator<Item = &'t [u8]>) -> Option<(usize, String)> {
    let first = texts.next()?;
    let mut nesting = Nesting::default();
    let mut text = String::from_utf8(first.to_vec()).ok()?;
    nesting.scan(first);
    for (index, line) in texts.enumerate().take(MAX_LINES) {
        if opens_object(line) || text.len() > MAX_BYTES {
            return None;
        }
        text.push_str(if nesting.in_string { "\\n" } else { "\n" });
        text.push_str(std::str::from_utf8(line).ok()?);
        nesting.scan(line);
        if nesting.closed() {
            return Some((index + 2, text));
        }
    }
    None
}

/// How deep in objects, arrays and strings a prefix of JSON text ends.
#[derive(Default)]
struct Nesting {
    depth: i64,
    in_string: bool,
    escaped: bool,
}

impl Nesting {
    fn scan(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            match (self.in_string, self.escaped, byte) {
                (true, true, _) => self.escaped = false,
                (true, false, b'\\') => self.escaped = true,
                (true, false, b'"') | (false, _, b'"') => self.in_string = !self.in_string,
                (false, _, b'{' | b'[') => self.depth += 1,
                (false, _, b'}' | b']') => self.depth -= 1,
                _ => {}
            }
        }
    }

    fn closed(&self) -> bool {
        self.depth <= 0 && !self.in_string
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Misframing, Payload, Transport, Unreadable};

    fn decode(text: &str) -> Vec<Event> {
        let mut decoded = DecodedChunk::default();
        decode_bare(text.as_bytes(), 0, 0, &mut decoded);
        decoded.events
    }

    fn kinds(events: &[Event]) -> Vec<(u64, &'static str)> {
        events
            .iter()
            .map(|e| {
                let kind = match &e.payload {
                    Payload::Message(_) => "message",
                    Payload::Transport(Transport::Misframed(Misframing::Split { .. })) => "split",
                    Payload::Transport(Transport::Misframed(Misframing::Joined { .. })) => "joined",
                    Payload::Unreadable(Unreadable::Json(_)) => "not json",
                    _ => "other",
                };
                (e.location.line, kind)
            })
            .collect()
    }

    #[test]
    fn a_pretty_printed_message_is_one_split_message() {
        let text = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {}\n}\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n";
        let events = decode(text);
        assert_eq!(
            kinds(&events),
            [(1, "message"), (2, "split"), (2, "message"), (7, "message")]
        );
        let Payload::Transport(Transport::Misframed(Misframing::Split { lines, last })) =
            events[1].payload
        else {
            panic!("a split");
        };
        assert_eq!((lines, last.line), (5, 6));
    }

    #[test]
    fn a_raw_newline_in_a_string_joins_as_an_escape() {
        let text = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"one\ntwo\"}}";
        assert_eq!(kinds(&decode(text)), [(1, "split"), (1, "message")]);
    }

    #[test]
    fn two_messages_on_one_line_are_read_as_both() {
        let text = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {\"jsonrpc\":\"2.0\",\"method\":\"x\"}";
        let events = decode(text);
        assert_eq!(
            kinds(&events),
            [(1, "joined"), (1, "message"), (1, "message")]
        );
    }

    #[test]
    fn a_cut_line_before_a_whole_message_stays_unreadable() {
        let text = "{\"jsonrpc\":\"2.0\",\"id\":1,\"meth\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\nBanner 1 2\n1 2";
        assert_eq!(
            kinds(&decode(text)),
            [
                (1, "not json"),
                (2, "message"),
                (3, "not json"),
                (4, "not json")
            ]
        );
    }

    #[test]
    fn lines_that_close_without_a_message_are_each_unreadable() {
        let text = "{\"a\":\n1,,}\n";
        assert_eq!(kinds(&decode(text)), [(1, "not json"), (2, "not json")]);
    }

    fn recorded(lines: &[&str]) -> Vec<(u64, &'static str)> {
        let decoded = super::super::decode_chunk(
            lines.join("\n").as_bytes(),
            0,
            0,
            super::super::Format::Canonical,
        );
        kinds(&decoded.events)
            .into_iter()
            .zip(&decoded.events)
            .map(|((line, kind), event)| match &event.payload {
                Payload::Transport(Transport::NotProtocol(_)) => (line, "not protocol"),
                _ => (line, kind),
            })
            .collect()
    }

    #[test]
    fn recorded_fragments_of_one_sender_join_into_its_message() {
        let lines = [
            r#"{"from":"server","event":"not-protocol","text":"{"}"#,
            r#"{"from":"server","event":"not-protocol","text":"  \"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}"}"#,
            r#"{"from":"server","event":"not-protocol","text":"}"}"#,
            r#"{"from":"server","event":"not-protocol","text":"Listening on stdio"}"#,
            r#"{"from":"client","event":"not-protocol","text":"{\"jsonrpc\":\"2.0\",\"method\":\"a\"}{\"jsonrpc\":\"2.0\",\"method\":\"b\"}"}"#,
        ];
        assert_eq!(
            recorded(&lines),
            [
                (1, "split"),
                (1, "message"),
                (4, "not protocol"),
                (5, "joined"),
                (5, "message"),
                (5, "message")
            ]
        );
    }

    #[test]
    fn recorded_fragments_of_two_senders_stay_output() {
        let lines = [
            r#"{"from":"server","event":"not-protocol","text":"{"}"#,
            r#"{"from":"client","event":"not-protocol","text":"}"}"#,
        ];
        assert_eq!(recorded(&lines), [(1, "not protocol"), (2, "not protocol")]);
    }
}
