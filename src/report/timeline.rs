//! The timeline the HTML report draws: per session, its operations (a
//! request to its response), with their progress, cancellation and late
//! messages. Built from the decoded events of an input, as the report reads
//! its lines again to quote them; nothing here judges the protocol (the
//! findings do), it only pairs messages by id and token.

use foldhash::{HashMap, HashMapExt};

use crate::event::{Body, Event, Key, KeyField, Location, Payload, Side, Transport};

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
    pub operations: Vec<Operation>,
    pub points: Vec<Point>,
    /// Where each line of the session sits on the axis.
    pub line_at: HashMap<u64, f64>,
    /// Each line of the session, once, in order: the report links them.
    pub lines: Vec<Location>,
}

/// Builds the timelines of one input, its sessions in order of first
/// appearance, from its events as they are decoded, without holding them.
pub struct Builder {
    source: u32,
    order: Vec<Option<Box<str>>>,
    sessions: HashMap<Option<Box<str>>, Building>,
}

/// A session's timeline while its events come: every position is the
/// event's number in the session until the end, when it becomes the event's
/// time if every event had one.
struct Building {
    timeline: Timeline,
    open: Open,
    /// Each event's time, while every event so far had one.
    times: Option<Vec<f64>>,
}

/// Open operations by (sender, id) and by progress token.
#[derive(Default)]
struct Open {
    by_id: HashMap<(Option<Side>, Key), usize>,
    by_token: HashMap<Key, usize>,
}

impl Builder {
    pub fn new(source: u32) -> Builder {
        Builder {
            source,
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
                times: Some(Vec::new()),
            }
        });
        building.take(event);
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
    fn take(&mut self, event: &Event) {
        let timeline = &mut self.timeline;
        let x = timeline.events as f64;
        timeline.events += 1;
        match (&mut self.times, event.time_ms) {
            (Some(times), Some(time)) => times.push(time),
            _ => self.times = None,
        }
        if let std::collections::hash_map::Entry::Vacant(new) =
            timeline.line_at.entry(event.location.line)
        {
            new.insert(x);
            timeline.lines.push(event.location);
        }
        place(timeline, &mut self.open, event, x);
    }

    /// Positions become times when every event had one.
    fn finish(self) -> Timeline {
        let mut timeline = self.timeline;
        timeline.timed = self.times.is_some();
        if let Some(times) = &self.times {
            let at = |x: &mut f64| *x = times[*x as usize];
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
            Some(times) => times
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &t| {
                    (a.min(t), b.max(t))
                }),
            None => (0.0, timeline.events.saturating_sub(1) as f64),
        };
        timeline
    }
}

/// Puts one event on the timeline: a new operation, a step of one, or a point.
fn place(timeline: &mut Timeline, open: &mut Open, event: &Event, x: f64) {
    let line = event.location.line;
    let message = match &event.payload {
        Payload::Message(message) => message,
        Payload::Transport(Transport::Closed) => {
            return point(timeline, event, x, "closed".into());
        }
        _ => return,
    };
    let params = message.params();
    match &message.body {
        Body::Request {
            id: KeyField::Valid(id),
            method,
            ..
        } => {
            let index = timeline.operations.len();
            open.by_id.insert((event.from, id.0.clone()), index);
            let token = params.and_then(|p| p.meta_progress_token.as_ref());
            if let Some(KeyField::Valid(token)) = token {
                open.by_token.insert(token.0.clone(), index);
            }
            timeline.operations.push(Operation {
                from: event.from,
                method: method.to_string(),
                id: id.to_string(),
                start: x,
                line,
                ..Operation::default()
            });
        }
        Body::Response {
            id: Some(KeyField::Valid(id)),
            ..
        } => match find(open, event.from.map(Side::peer), &id.0) {
            Some(index) => answer(&mut timeline.operations[index], x),
            None => point(timeline, event, x, "response to no request".into()),
        },
        Body::Notification { method, .. } => {
            step(timeline, open, event, method, x);
        }
        _ => point(timeline, event, x, "message".into()),
    }
}

/// The operation a response or cancellation from a side names: the request
/// its peer sent with that id (any side's, when the trace does not say).
fn find(open: &Open, requester: Option<Side>, id: &Key) -> Option<usize> {
    let exact = open.by_id.get(&(requester, id.clone())).copied();
    exact.or_else(|| open.by_id.get(&(None, id.clone())).copied())
}

/// A response ends its operation; one after another response or after the
/// cancellation is also marked late.
fn answer(operation: &mut Operation, x: f64) {
    if operation.end.is_some() || operation.cancel.is_some() {
        operation.late.push(x);
    }
    operation.end.get_or_insert(x);
}

/// Progress and cancellation join their operation; other notifications are points.
fn step(timeline: &mut Timeline, open: &Open, event: &Event, method: &str, x: f64) {
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
        return point(timeline, event, x, method.to_string());
    };
    match method {
        "notifications/progress" if operation.end.is_some() => operation.late.push(x),
        "notifications/progress" => operation.progress.push(x),
        _ => operation.cancel = Some(x),
    }
}

fn event_params(event: &Event) -> Option<&crate::event::Params> {
    match &event.payload {
        Payload::Message(message) => message.params(),
        _ => None,
    }
}

fn point(timeline: &mut Timeline, event: &Event, at: f64, what: String) {
    timeline.points.push(Point {
        from: event.from,
        at,
        line: event.location.line,
        what,
    });
}
