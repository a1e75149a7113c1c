//! The timeline the HTML report draws: per session, its operations (a
//! request to its response), with their progress, cancellation and late
//! messages. Built from the decoded events of an input, as the report reads
//! its lines again to quote them; nothing here judges the protocol (the
//! findings do), it only pairs messages by id and token.

use foldhash::{HashMap, HashMapExt, HashSet};

use crate::event::{Body, Event, Key, KeyField, Location, Payload, Side, Transport};

/// Operations kept (and drawn) per session; a bigger session says how many
/// it left out. What the page draws is all the builder keeps, so a
/// timeline's memory does not grow with its session.
pub const MAX_OPERATIONS: usize = 1000;
/// Points (notifications, closes) kept per session.
pub const MAX_POINTS: usize = 1000;
/// Lines of a session kept to be listed as recorded, each with its anchor.
pub const MAX_RAW_LINES: usize = 1000;
/// Progress ticks and late marks kept per operation (more would overlap).
const MAX_MARKS: usize = 100;

/// One request and what answered it, at positions on the session's axis.
#[derive(Debug, Default)]
pub struct Operation {
    pub from: Option<Side>,
    pub method: String,
    pub id: String,
    pub start: f64,
    pub end: Option<f64>,
    pub line: u64,
    pub progress: Vec<f64>,
    pub cancel: Option<f64>,
    /// Progress or a response after the operation ended or was cancelled.
    pub late: Vec<f64>,
}

/// A message that is no part of an operation (a notification), or a side closing.
#[derive(Debug)]
pub struct Point {
    pub from: Option<Side>,
    pub at: f64,
    pub line: u64,
    pub what: String,
}

#[derive(Debug, Default)]
pub struct Timeline {
    pub source: u32,
    pub session: Option<String>,
    pub events: usize,
    /// Positions are milliseconds when every event has a time, else event numbers.
    pub timed: bool,
    pub first: f64,
    pub last: f64,
    /// The first [`MAX_OPERATIONS`] operations, of `operation_count`.
    pub operations: Vec<Operation>,
    pub operation_count: usize,
    /// The first [`MAX_POINTS`] points, of `point_count`.
    pub points: Vec<Point>,
    pub point_count: usize,
    /// Where each line with a finding sits on the axis.
    pub line_at: HashMap<u64, f64>,
    /// The session's first [`MAX_RAW_LINES`] lines, once each, in order, of
    /// `line_count`: the report links them.
    pub lines: Vec<Location>,
    pub line_count: usize,
}

/// Builds the timelines of one input, its sessions in order of first
/// appearance, from its events as they are decoded, without holding them.
pub struct Builder {
    source: u32,
    /// The lines of the input that have findings: their places are kept.
    marked: HashSet<u64>,
    /// The lines of the input that events came from so far.
    seen: LineSet,
    order: Vec<Option<Box<str>>>,
    sessions: HashMap<Option<Box<str>>, Building>,
}

/// A session's timeline while its events come: every position is the
/// event's number in the session until the end, when it becomes the event's
/// time if every event had one.
struct Building {
    timeline: Timeline,
    open: Open,
    /// The time of each event whose position is kept, while every event
    /// so far had a time.
    times: Option<HashMap<u64, f64>>,
    /// The earliest and latest time of the session's events.
    span: (f64, f64),
}

/// A set of line numbers, a bit each: a line is counted once, in the
/// session of its first event, without a set per session.
#[derive(Default)]
struct LineSet {
    words: Vec<u64>,
}

impl LineSet {
    /// Adds `line`; says whether it is new.
    fn insert(&mut self, line: u64) -> bool {
        let (word, bit) = ((line / 64) as usize, 1u64 << (line % 64));
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        let new = self.words[word] & bit == 0;
        self.words[word] |= bit;
        new
    }
}

/// Open operations by (sender, id) and by progress token, among those kept.
#[derive(Default)]
struct Open {
    by_id: HashMap<(Option<Side>, Key), usize>,
    by_token: HashMap<Key, usize>,
}

impl Builder {
    /// A builder for input `source`, keeping the places of `marked` lines.
    pub fn new(source: u32, marked: HashSet<u64>) -> Builder {
        Builder {
            source,
            marked,
            seen: LineSet::default(),
            order: Vec::new(),
            sessions: HashMap::new(),
        }
    }

    pub fn take(&mut self, event: &Event) {
        if matches!(event.payload, Payload::Unreadable(_)) {
            return;
        }
        let key = event.session.as_deref().map(Box::<str>::from);
        let building = self.sessions.entry(key).or_insert_with_key(|key| {
            self.order.push(key.clone());
            Building {
                timeline: Timeline {
                    source: self.source,
                    session: key.as_deref().map(str::to_string),
                    ..Timeline::default()
                },
                open: Open::default(),
                times: Some(HashMap::new()),
                span: (f64::INFINITY, f64::NEG_INFINITY),
            }
        });
        let first_on_its_line = self.seen.insert(event.location.line);
        building.take(event, first_on_its_line, &self.marked);
    }

    pub fn finish(mut self) -> Vec<Timeline> {
        let order = std::mem::take(&mut self.order);
        order
            .into_iter()
            .filter_map(|key| self.sessions.remove(&key))
            .map(Building::finish)
            .collect()
    }
}

impl Building {
    fn take(&mut self, event: &Event, first_on_its_line: bool, marked: &HashSet<u64>) {
        let timeline = &mut self.timeline;
        let x = timeline.events as f64;
        timeline.events += 1;
        let line = event.location.line;
        if first_on_its_line {
            timeline.line_count += 1;
            if timeline.lines.len() < MAX_RAW_LINES {
                timeline.lines.push(event.location);
            }
        }
        if marked.contains(&line) {
            timeline.line_at.entry(line).or_insert(x);
        }
        let kept = place(timeline, &mut self.open, event, x) | marked.contains(&line);
        match (&mut self.times, event.time_ms) {
            (Some(times), Some(time)) => {
                if kept {
                    times.insert(x as u64, time);
                }
                self.span = (self.span.0.min(time), self.span.1.max(time));
            }
            _ => self.times = None,
        }
    }

    /// Positions become times when every event had one.
    fn finish(self) -> Timeline {
        let mut timeline = self.timeline;
        timeline.timed = self.times.is_some();
        if let Some(times) = &self.times {
            let at = |x: &mut f64| *x = times.get(&(*x as u64)).copied().unwrap_or(*x);
            for operation in &mut timeline.operations {
                at(&mut operation.start);
                operation.end.iter_mut().for_each(at);
                operation.cancel.iter_mut().for_each(at);
                operation.progress.iter_mut().for_each(at);
                operation.late.iter_mut().for_each(at);
            }
            timeline
                .points
                .iter_mut()
                .for_each(|point| at(&mut point.at));
            timeline.line_at.values_mut().for_each(at);
        }
        (timeline.first, timeline.last) = match &self.times {
            Some(_) => self.span,
            None => (0.0, timeline.events.saturating_sub(1) as f64),
        };
        timeline
    }
}

/// Puts one event on the timeline: a new operation, a step of one, or a
/// point. Says whether its position is kept.
fn place(timeline: &mut Timeline, open: &mut Open, event: &Event, x: f64) -> bool {
    let message = match &event.payload {
        Payload::Message(message) => message,
        Payload::Transport(Transport::Closed) => {
            return point(timeline, event, x, || "closed".into());
        }
        _ => return false,
    };
    match &message.body {
        Body::Request {
            id: KeyField::Valid(id),
            method,
            ..
        } => request(timeline, open, event, (&id.0, method), x),
        Body::Response {
            id: Some(KeyField::Valid(id)),
            ..
        } => match find(open, event.from.map(Side::peer), &id.0) {
            Some(index) => answer(&mut timeline.operations[index], x),
            // Past the operations kept, it may answer one left out.
            None if timeline.operation_count > MAX_OPERATIONS => false,
            None => point(timeline, event, x, || "response to no request".into()),
        },
        Body::Notification { method, .. } => step(timeline, open, event, method, x),
        _ => point(timeline, event, x, || "message".into()),
    }
}

/// A request opens an operation, kept while fewer than [`MAX_OPERATIONS`]
/// are. One left out still takes its id and token from any earlier
/// operation kept: what names them later is its, not theirs.
fn request(
    timeline: &mut Timeline,
    open: &mut Open,
    event: &Event,
    (id, method): (&Key, &str),
    x: f64,
) -> bool {
    let token = match event_params(event).and_then(|p| p.meta_progress_token.as_ref()) {
        Some(KeyField::Valid(token)) => Some(&token.0),
        _ => None,
    };
    timeline.operation_count += 1;
    let index = timeline.operations.len();
    if index >= MAX_OPERATIONS {
        open.by_id.remove(&(event.from, id.clone()));
        token.map(|token| open.by_token.remove(token));
        return false;
    }
    open.by_id.insert((event.from, id.clone()), index);
    if let Some(token) = token {
        open.by_token.insert(token.clone(), index);
    }
    timeline.operations.push(Operation {
        from: event.from,
        method: method.to_string(),
        id: id.to_string(),
        start: x,
        line: event.location.line,
        ..Operation::default()
    });
    true
}

/// The operation a response or cancellation from a side names: the request
/// its peer sent with that id (any side's, when the trace does not say).
fn find(open: &Open, requester: Option<Side>, id: &Key) -> Option<usize> {
    let exact = open.by_id.get(&(requester, id.clone())).copied();
    exact.or_else(|| open.by_id.get(&(None, id.clone())).copied())
}

/// A response ends its operation; one after another response or after the
/// cancellation is also marked late.
fn answer(operation: &mut Operation, x: f64) -> bool {
    let late = operation.end.is_some() || operation.cancel.is_some();
    let marked = late && mark(&mut operation.late, x);
    match operation.end {
        Some(_) => marked,
        None => {
            operation.end = Some(x);
            true
        }
    }
}

/// Progress and cancellation join their operation; other notifications are points.
fn step(timeline: &mut Timeline, open: &Open, event: &Event, method: &str, x: f64) -> bool {
    let params = event_params(event);
    let target = match method {
        "notifications/progress" => match params.and_then(|p| p.progress_token.as_ref()) {
            Some(KeyField::Valid(token)) => open.by_token.get(&token.0).copied(),
            _ => None,
        },
        "notifications/cancelled" => match params.and_then(|p| p.request_id.as_ref()) {
            Some(KeyField::Valid(id)) => find(open, event.from, &id.0),
            _ => None,
        },
        _ => None,
    };
    let Some(operation) = target.map(|index| &mut timeline.operations[index]) else {
        return point(timeline, event, x, || method.to_string());
    };
    match method {
        "notifications/progress" if operation.end.is_some() => mark(&mut operation.late, x),
        "notifications/progress" => mark(&mut operation.progress, x),
        _ => {
            operation.cancel = Some(x);
            true
        }
    }
}

/// A tick or late mark on an operation, while it has room for one.
fn mark(marks: &mut Vec<f64>, x: f64) -> bool {
    let room = marks.len() < MAX_MARKS;
    if room {
        marks.push(x);
    }
    room
}

fn event_params(event: &Event) -> Option<&crate::event::Params> {
    match &event.payload {
        Payload::Message(message) => message.params(),
        _ => None,
    }
}

/// A point, kept while fewer than [`MAX_POINTS`] are.
fn point(timeline: &mut Timeline, event: &Event, at: f64, what: impl FnOnce() -> String) -> bool {
    timeline.point_count += 1;
    let room = timeline.points.len() < MAX_POINTS;
    if room {
        timeline.points.push(Point {
            from: event.from,
            at,
            line: event.location.line,
            what: what(),
        });
    }
    room
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timelines(trace: &str, marked: &[u64]) -> Vec<Timeline> {
        let format = crate::decode::Format::Canonical;
        let events = crate::decode::decode_chunk(trace.as_bytes(), 0, 0, format).events;
        let mut builder = Builder::new(0, marked.iter().copied().collect());
        events.iter().for_each(|event| builder.take(event));
        builder.finish()
    }

    fn request(id: usize, ts: usize) -> String {
        format!(
            r#"{{"ts":{ts},"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"ping"}}}}"#
        )
    }

    fn response(id: usize, ts: usize) -> String {
        format!(
            r#"{{"ts":{ts},"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"result":{{}}}}}}"#
        )
    }

    #[test]
    fn a_long_session_keeps_what_is_drawn_and_counts_the_rest() {
        let requests = MAX_OPERATIONS + 500;
        let mut lines: Vec<String> = (0..requests).map(|n| request(n, n)).collect();
        lines.extend((0..requests).map(|n| response(n, requests + n)));
        lines.extend((0..MAX_POINTS + 5).map(|n| {
            format!(r#"{{"ts":{},"from":"server","msg":{{"jsonrpc":"2.0","method":"notifications/message","params":{{}}}}}}"#, 2 * requests + n)
        }));
        let marked = lines.len() as u64; // the last line has a finding
        let timeline = &timelines(&(lines.join("\n") + "\n"), &[marked])[0];
        assert_eq!(timeline.events, lines.len());
        assert_eq!(
            (timeline.operations.len(), timeline.operation_count),
            (MAX_OPERATIONS, requests)
        );
        assert!(timeline.operations.iter().all(|op| op.end.is_some()));
        assert_eq!(
            (timeline.points.len(), timeline.point_count),
            (MAX_POINTS, MAX_POINTS + 5),
            "answers to operations left out are not points"
        );
        assert_eq!(
            (timeline.lines.len(), timeline.line_count),
            (MAX_RAW_LINES, lines.len())
        );
        assert!(timeline.timed);
        let last = (lines.len() - 1) as f64;
        assert_eq!((timeline.first, timeline.last), (0.0, last));
        assert_eq!(timeline.line_at.get(&marked), Some(&last));
        assert_eq!(timeline.line_at.len(), 1);
    }

    #[test]
    fn an_id_reused_past_the_kept_operations_is_not_the_kept_one() {
        let mut lines: Vec<String> = (0..MAX_OPERATIONS).map(|n| request(n, n)).collect();
        // Id 0 again, left out; its answer is its own, not the first one's.
        lines.push(request(0, MAX_OPERATIONS));
        lines.push(response(0, MAX_OPERATIONS + 1));
        let timeline = &timelines(&(lines.join("\n") + "\n"), &[])[0];
        let first = &timeline.operations[0];
        assert_eq!((first.end, first.late.len()), (None, 0));
        assert_eq!(timeline.point_count, 0);
    }
}
