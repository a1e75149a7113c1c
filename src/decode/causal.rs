//! Events put in causal order: an answer, a cancellation or progress
//! waits for the request it names when a capture's timestamps place it
//! earlier (an HTTP response stream and the POST that made the request are
//! recorded apart), and the events after it on its stream wait behind it;
//! everything else keeps its timestamp order. Used by the HTTP captures
//! (`entries.rs`), whose exchanges make the events (`http.rs`).

use std::collections::VecDeque;

use compact_str::CompactString;

use crate::event::{Body as MessageBody, Event, Payload, Side};

/// What an event depends on, or provides, for causal order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Cause {
    /// A request of `side` with this id.
    Request(Option<CompactString>, Side, crate::event::RequestId),
    /// A request of `side` carrying this progress token.
    Token(Option<CompactString>, Side, crate::event::ProgressToken),
}

fn provides(event: &Event) -> Vec<Cause> {
    let (Payload::Message(m), Some(from)) = (&event.payload, event.from) else {
        return Vec::new();
    };
    causes_provided(&event.session, from, &m.body)
}

/// What a message of `body`, sent by `from` in `session`, provides.
pub(crate) fn causes_provided(
    session: &Option<CompactString>,
    from: Side,
    body: &MessageBody,
) -> Vec<Cause> {
    use crate::event::KeyField;
    let MessageBody::Request {
        id: KeyField::Valid(id),
        params,
        ..
    } = body
    else {
        return Vec::new();
    };
    let mut causes = vec![Cause::Request(session.clone(), from, id.clone())];
    if let Some(KeyField::Valid(token)) = &params.meta_progress_token {
        causes.push(Cause::Token(session.clone(), from, token.clone()));
    }
    causes
}

fn needs(event: &Event) -> Option<Cause> {
    use crate::event::KeyField;
    let (Payload::Message(m), Some(from)) = (&event.payload, event.from) else {
        return None;
    };
    match &m.body {
        MessageBody::Response {
            id: Some(KeyField::Valid(id)),
            ..
        } => Some(Cause::Request(
            event.session.clone(),
            from.peer(),
            id.clone(),
        )),
        // A cancellation comes after the request it names (HAR entries that
        // start in the same millisecond are in no particular order).
        MessageBody::Notification { method, params } if method == "notifications/cancelled" => {
            match &params.request_id {
                Some(KeyField::Valid(id)) => {
                    Some(Cause::Request(event.session.clone(), from, id.clone()))
                }
                _ => None,
            }
        }
        MessageBody::Notification { method, params } if method == "notifications/progress" => {
            match &params.progress_token {
                Some(KeyField::Valid(token)) => Some(Cause::Token(
                    event.session.clone(),
                    from.peer(),
                    token.clone(),
                )),
                _ => None,
            }
        }
        _ => None,
    }
}

type Waiting = foldhash::HashMap<Cause, Vec<Option<CompactString>>>;

/// Where an event stands in timestamp order: its time, its entry, and its
/// place among that entry's events as they were made. Ordered as the stable
/// sort by time and entry orders events (`total_cmp` for times): within an
/// entry, events at one time keep the order they were made in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Position {
    pub time: f64,
    pub entry: usize,
    pub index: usize,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Position {}

impl PartialOrd for Position {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Position {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.time
            .total_cmp(&other.time)
            .then(self.entry.cmp(&other.entry))
            .then(self.index.cmp(&other.index))
    }
}

/// For each cause, the last position in timestamp order that provides it:
/// whether an event must wait depends on whether its need comes later.
pub(crate) type LastProvided = foldhash::HashMap<Cause, Position>;

/// Notes what `event`, at `position`, provides.
#[cfg(test)]
pub(crate) fn note_provided(last: &mut LastProvided, event: &Event, position: Position) {
    for cause in provides(event) {
        note_cause(last, cause, position);
    }
}

/// Notes that `cause` is provided at `position`.
pub(crate) fn note_cause(last: &mut LastProvided, cause: Cause, position: Position) {
    let at = last.entry(cause).or_insert(position);
    *at = (*at).max(position);
}

/// Puts events that timestamps alone order wrongly back in causal order,
/// taking them one at a time in timestamp order.
///
/// Across streams, timestamps only bound when a message travelled. A
/// response cannot precede its request, nor progress the request carrying
/// its token: such an event waits until what it needs has been emitted, and
/// the events after it on its own stream wait behind it, so one stream's
/// order never changes. Nothing waits for something the trace does not hold.
pub(crate) struct CausalOrder {
    /// Where each cause not yet emitted is provided last, to know whether
    /// waiting can end. A cause is dropped once emitted: nothing waits for
    /// it any more (and the map shrinks instead of a set of causes emitted
    /// growing).
    last_provided: LastProvided,
    /// Per stream (events without one wait alone), the events held back.
    held: foldhash::HashMap<Option<CompactString>, VecDeque<(Position, Event)>>,
    waiting_on: Waiting,
    /// Events taken so far.
    taken: usize,
}

impl CausalOrder {
    pub fn new(last_provided: LastProvided) -> Self {
        CausalOrder {
            last_provided,
            held: Default::default(),
            waiting_on: Default::default(),
            taken: 0,
        }
    }

    /// What `event` at `position` must wait for, if anything.
    fn must_wait(&self, position: Position, event: &Event) -> Option<Cause> {
        needs(event).filter(|need| {
            self.last_provided
                .get(need)
                .is_some_and(|last| *last > position)
        })
    }

    /// Takes the next event in timestamp order; `out` is given every event
    /// that can now be emitted, in causal order.
    pub fn push(&mut self, position: Position, event: Event, out: &mut dyn FnMut(Event)) {
        let stream = event
            .stream
            .clone()
            .or_else(|| Some(format!("#{}", self.taken).into()));
        self.taken += 1;
        let queue_busy = self.held.get(&stream).is_some_and(|q| !q.is_empty());
        if queue_busy {
            self.held
                .entry(stream)
                .or_default()
                .push_back((position, event));
            return;
        }
        if let Some(need) = self.must_wait(position, &event) {
            self.waiting_on
                .entry(need)
                .or_default()
                .push(stream.clone());
            self.held
                .entry(stream)
                .or_default()
                .push_back((position, event));
            return;
        }
        let mut released = Vec::new();
        self.emit(event, out, &mut released);
        // Emitting may free held streams, and what they emit may free others.
        while let Some(stream) = released.pop() {
            self.release(stream, out, &mut released);
        }
    }

    /// Emits the events a held stream no longer waits for.
    fn release(
        &mut self,
        stream: Option<CompactString>,
        out: &mut dyn FnMut(Event),
        released: &mut Vec<Option<CompactString>>,
    ) {
        while let Some((at, next)) = self.held.get_mut(&stream).and_then(VecDeque::pop_front) {
            if let Some(need) = self.must_wait(at, &next) {
                self.held
                    .entry(stream.clone())
                    .or_default()
                    .push_front((at, next));
                self.waiting_on
                    .entry(need)
                    .or_default()
                    .push(stream.clone());
                return;
            }
            self.emit(next, out, released);
        }
    }

    /// Emits an event and notes the streams it frees.
    fn emit(
        &mut self,
        event: Event,
        out: &mut dyn FnMut(Event),
        released: &mut Vec<Option<CompactString>>,
    ) {
        for cause in provides(&event) {
            if let Some(streams) = self.waiting_on.remove(&cause) {
                released.extend(streams);
            }
            self.last_provided.remove(&cause);
        }
        out(event);
    }

    /// Whatever still waits (a cycle of waits) keeps its timestamp order.
    pub fn finish(self, out: &mut dyn FnMut(Event)) {
        let mut rest: Vec<(Position, Event)> = self.held.into_values().flatten().collect();
        rest.sort_by_key(|(at, _)| *at);
        for (_, event) in rest {
            out(event);
        }
    }
}

/// [`CausalOrder`] over events already in timestamp order.
#[cfg(test)]
pub(crate) fn causal_order(events: Vec<Event>) -> Vec<Event> {
    let at = |index| Position {
        time: 0.0,
        entry: 0,
        index,
    };
    let mut last_provided = LastProvided::default();
    for (i, event) in events.iter().enumerate() {
        note_provided(&mut last_provided, event, at(i));
    }
    let mut order = CausalOrder::new(last_provided);
    let mut ordered = Vec::with_capacity(events.len());
    for (i, event) in events.into_iter().enumerate() {
        order.push(at(i), event, &mut |e| ordered.push(e));
    }
    order.finish(&mut |e| ordered.push(e));
    ordered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::jsonl;
    use crate::event::Location;

    /// Canonical lines -> events, in the given (timestamp) order.
    fn events(lines: &[&str]) -> Vec<Event> {
        let mut out = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let location = Location {
                source: 0,
                line: i as u64 + 1,
                offset: 0,
                len: 0,
            };
            jsonl::decode_line(line.as_bytes(), location, false, &mut out);
        }
        out
    }

    fn lines(events: &[Event]) -> Vec<u64> {
        events.iter().map(|e| e.location.line).collect()
    }

    #[test]
    fn answers_and_progress_wait_for_their_request_and_streams_keep_order() {
        let trace = events(&[
            // A GET stream placed early: a response, then progress, then a notification.
            r#"{"from":"server","stream":"get","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"server","stream":"get","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}}"#,
            r#"{"from":"server","stream":"get","msg":{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}}"#,
            r#"{"from":"client","stream":"post-1","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a","_meta":{"progressToken":"t"}}}}"#,
            r#"{"from":"client","stream":"post-2","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            // An answer to a request the trace does not hold waits for nothing.
            r#"{"from":"server","stream":"post-3","msg":{"jsonrpc":"2.0","id":9,"result":{}}}"#,
        ]);
        assert_eq!(lines(&causal_order(trace)), [4, 5, 1, 2, 3, 6]);
    }

    #[test]
    fn events_already_in_order_do_not_move() {
        let trace = events(&[
            r#"{"from":"client","stream":"a","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            r#"{"from":"server","stream":"a","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"server","stream":"b","msg":{"jsonrpc":"2.0","id":"s1","method":"ping"}}"#,
            r#"{"from":"client","stream":"c","msg":{"jsonrpc":"2.0","id":"s1","result":{}}}"#,
        ]);
        assert_eq!(lines(&causal_order(trace)), [1, 2, 3, 4]);
    }
}
