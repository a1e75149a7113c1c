//! Tasks, per session (2025-11-25): the task-augmented requests each side
//! sent, the tasks each side created for its peer and what the trace has
//! shown of their statuses, and the task operations waiting for an answer.
//!
//! The trace only samples a task's status (in a `CreateTaskResult`, the
//! results of `tasks/get`, `tasks/cancel` and `tasks/list`, and the optional
//! `notifications/tasks/status`), so a task is known to have ended at the
//! first terminal status seen, or at a successful `tasks/result`, which the
//! receiver may only send once the task is terminal.

use foldhash::HashMap;
use memchr::memmem;
use serde_json::Value;

use super::lazy::Lazy;
use crate::event::{
    Body, KeyField, Location, Message, Method, Outcome, ProgressToken, RequestId, Side,
};
use crate::protocol::tasks::{self, Operation, Status};

/// A `Task` object as written: `CreateTaskResult.task`, a `tasks/get` or
/// `tasks/cancel` result, an item of a `tasks/list` result, or the params of
/// `notifications/tasks/status`.
#[derive(Debug, Clone)]
pub struct WireTask {
    object: serde_json::Map<String, Value>,
}

impl WireTask {
    fn of(value: Option<&Value>) -> Option<WireTask> {
        match value {
            Some(Value::Object(object)) => Some(WireTask {
                object: object.clone(),
            }),
            _ => None,
        }
    }

    /// A member as written; `Some(Null)` for a member written as null.
    pub fn member(&self, name: &str) -> Option<&Value> {
        self.object.get(name)
    }

    /// The task id, when it is a string as it must be.
    pub fn id(&self) -> Option<&str> {
        self.member("taskId").and_then(Value::as_str)
    }

    /// The status as written, if it is a string.
    pub fn status_text(&self) -> Option<&str> {
        self.member("status").and_then(Value::as_str)
    }

    pub fn status(&self) -> Option<Status> {
        self.status_text().and_then(Status::parse)
    }
}

/// How a message shows a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// The `CreateTaskResult` of a task-augmented request.
    Created,
    /// The result of a task operation (`tasks/get`, `tasks/cancel`, `tasks/list`).
    Answer(Operation),
    /// `notifications/tasks/status`.
    Notification,
}

/// One task a message shows: its sender controls the task.
#[derive(Debug, Clone)]
pub struct Observation {
    pub task: WireTask,
    pub via: Via,
}

/// The tasks a message shows; `answered` is the method of the request a
/// response answers. Only the messages that can show tasks are parsed.
pub fn observations(message: &Message, answered: Option<&str>) -> Vec<Observation> {
    let member = |json: Option<&crate::event::Json>| json.and_then(crate::event::Json::value);
    match (&message.body, answered) {
        (Body::Notification { method, .. }, _) if method == tasks::STATUS_NOTIFICATION => {
            let params = member(message.members.params.as_ref());
            observed(params.as_ref(), Via::Notification)
                .into_iter()
                .collect()
        }
        (
            Body::Response {
                outcome: Outcome::Result { .. },
                ..
            },
            Some(method),
        ) => {
            let via = match tasks::operation(method) {
                Some(op) => Via::Answer(op),
                None if tasks::augmentable(method).is_some() => Via::Created,
                None => return Vec::new(),
            };
            // Most results of those requests are plain ones: skip parsing them.
            let names_task = message.members.result.as_ref().is_some_and(names_task);
            if via == Via::Created && !names_task {
                return Vec::new();
            }
            member(message.members.result.as_ref())
                .map(|result| in_result(&result, via))
                .unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// The tasks a result shows, where its type puts them.
fn in_result(result: &Value, via: Via) -> Vec<Observation> {
    match via {
        Via::Created => observed(result.get("task"), via).into_iter().collect(),
        Via::Answer(Operation::List) => match result.get("tasks") {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|t| observed(Some(t), via))
                .collect(),
            _ => Vec::new(),
        },
        Via::Answer(op) if op.answers_task() => observed(Some(result), via).into_iter().collect(),
        _ => Vec::new(),
    }
}

fn observed(value: Option<&Value>, via: Via) -> Option<Observation> {
    WireTask::of(value).map(|task| Observation { task, via })
}

/// Whether a params or result member holds a member named `task` somewhere,
/// found without parsing it.
fn names_task(member: &crate::event::Json) -> bool {
    memmem::find(member.bytes(), b"\"task\"").is_some()
}

/// What a `_meta` says of the task a message relates to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Related {
    Absent,
    /// `{"taskId": "..."}`.
    Task(String),
    /// The key is there, but not as an object with a string `taskId`.
    Malformed,
}

/// The related-task `_meta` of a params or result member.
pub fn related_task(member: Option<&crate::event::Json>) -> Related {
    let Some(member) = member else {
        return Related::Absent;
    };
    // The decoder noted where the first `_meta` is: most messages have none.
    let key = tasks::RELATED_TASK_KEY.as_bytes();
    let mentioned = member.from_first_meta().map(|meta| memmem::find(meta, key));
    if !matches!(mentioned, Some(Some(_))) {
        return Related::Absent;
    }
    let value = member.value();
    let related = value
        .as_ref()
        .and_then(|v| v.get("_meta"))
        .and_then(|m| m.get(tasks::RELATED_TASK_KEY));
    match related {
        None => Related::Absent,
        Some(related) => match related.get("taskId").and_then(Value::as_str) {
            Some(id) => Related::Task(id.into()),
            None => Related::Malformed,
        },
    }
}

/// Whether a response to a `method` request is a `CreateTaskResult`.
pub fn creates_task(message: &Message, method: &str) -> bool {
    observations(message, Some(method))
        .first()
        .is_some_and(|seen| seen.via == Via::Created)
}

/// Whether a request asks to run as a task: its params hold a `task` object.
pub fn is_task_augmented(message: &Message) -> bool {
    let Some(params) = message.members.params.as_ref() else {
        return false;
    };
    // Most requests have no "task" member at all: skip parsing those.
    names_task(params)
        && params
            .value()
            .is_some_and(|p| p.get("task").is_some_and(Value::is_object))
}

/// The `taskId` a task operation names in its params, as written.
pub fn named_task_id(message: &Message) -> Option<Value> {
    message
        .members
        .params
        .as_ref()?
        .value()?
        .get("taskId")
        .cloned()
}

/// When a task may be deleted: its `createdAt` plus its `ttl` in
/// milliseconds, or never for a `null` ttl; `None` when either is unreadable.
fn expiry_ms(wire: &WireTask) -> Option<f64> {
    let created = wire.member("createdAt")?.as_str()?;
    let created = crate::decode::timestamp::parse_rfc3339_ms(created)?;
    match wire.member("ttl")? {
        Value::Null => Some(f64::INFINITY),
        ttl => Some(created + ttl.as_f64()?),
    }
}

/// Where the trace shows a task ended.
#[derive(Debug, Clone)]
pub struct End {
    pub location: Location,
    pub stream: Option<Box<str>>,
    /// The terminal status seen; `None` when a `tasks/result` answer showed it.
    pub status: Option<Status>,
}

/// A task one side created for its peer's task-augmented request.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: Box<str>,
    /// The task-augmented request, sent by the other side.
    pub request_id: RequestId,
    pub method: Method,
    pub request: Location,
    /// Its `CreateTaskResult`.
    pub created: Location,
    /// The progress token of the request: it stays in use until the task ends.
    pub token: Option<ProgressToken>,
    /// The last status the trace showed, and where.
    pub status: Status,
    pub observed: Location,
    pub ended: Option<End>,
    /// A successful `tasks/result` answer for it.
    pub result: Option<Location>,
    /// The last progress value sent for it after its `CreateTaskResult`.
    pub last_progress: Option<(f64, Location)>,
    /// The `pollInterval` of the last `tasks/get` answer for it, if it had one.
    pub poll: Option<Poll>,
    /// The last successful `tasks/get` answer for it.
    pub retrieved: Option<Location>,
    /// When it may be deleted (its `createdAt` plus its `ttl`, infinite for
    /// a `null` ttl), as that answer gave it.
    pub expires_ms: Option<f64>,
    /// The `createdAt` its `CreateTaskResult` gave, as written.
    pub created_at: Option<Box<str>>,
}

/// A `tasks/get` answer's `pollInterval`, and when the answer was sent.
#[derive(Debug, Clone, Copy)]
pub struct Poll {
    pub interval_ms: f64,
    pub answered_ms: f64,
    pub location: Location,
}

/// A task-augmented request.
#[derive(Debug, Clone)]
pub struct Augmented {
    pub method: Method,
    pub location: Location,
    pub token: Option<ProgressToken>,
    /// The task its receiver created for it, once it has.
    pub task: Option<Box<str>>,
}

/// A task operation waiting for its answer.
#[derive(Debug, Clone)]
pub struct Operating {
    pub operation: Operation,
    /// The `taskId` it names, when it is a string.
    pub task_id: Option<Box<str>>,
    /// Whether it names a `cursor` (a later page of `tasks/list`).
    pub paged: bool,
    pub location: Location,
}

/// The tasks of one session.
#[derive(Debug, Default)]
pub struct Tasks {
    /// Per side, the tasks it created (it is their receiver), by task id.
    created: Lazy<[HashMap<Box<str>, Task>; 2]>,
    /// Per side, its task-augmented requests, by request id.
    augmented: Lazy<[HashMap<RequestId, Augmented>; 2]>,
    /// Per side, its task operations not answered yet, by request id.
    operations: Lazy<[HashMap<RequestId, Operating>; 2]>,
    /// Per side, the `nextCursor`s its `tasks/list` results gave.
    cursors: Lazy<[foldhash::HashSet<Box<str>>; 2]>,
    /// The time of the message being applied, if the trace gives one.
    pub(crate) now_ms: Option<f64>,
}

impl Tasks {
    /// The task `receiver` created with this id.
    pub fn task(&self, receiver: Side, id: &str) -> Option<&Task> {
        self.created.existing()?[receiver.index()].get(id)
    }

    fn created_mut(&mut self, receiver: Side, id: &str) -> Option<&mut Task> {
        self.created.existing_mut()?[receiver.index()].get_mut(id)
    }

    /// The task-augmented request `requester` sent with this id.
    pub fn augmented(&self, requester: Side, id: &RequestId) -> Option<&Augmented> {
        self.augmented.existing()?[requester.index()].get(id)
    }

    /// The task operation `requester` sent with this id, while unanswered.
    pub fn operation(&self, requester: Side, id: &RequestId) -> Option<&Operating> {
        self.operations.existing()?[requester.index()].get(id)
    }

    /// The task `receiver` created for its peer's request `id`.
    pub fn task_of_request(&self, receiver: Side, id: &RequestId) -> Option<&Task> {
        let task = self.augmented(receiver.peer(), id)?.task.as_deref()?;
        self.task(receiver, task)
    }

    /// The tasks `receiver` created, in the order it created them.
    pub fn created_by(&self, receiver: Side) -> Vec<&Task> {
        let created = self.created.existing().map(|c| &c[receiver.index()]);
        let mut tasks: Vec<&Task> = created.into_iter().flat_map(HashMap::values).collect();
        tasks.sort_by(|a, b| {
            let key = |t: &Task| (t.created.line, t.created.offset);
            key(a).cmp(&key(b)).then_with(|| a.id.cmp(&b.id))
        });
        tasks
    }

    /// Whether a `tasks/list` result of `side` gave this `nextCursor`.
    pub fn gave_cursor(&self, side: Side, cursor: &str) -> bool {
        (self.cursors.existing()).is_some_and(|c| c[side.index()].contains(cursor))
    }

    /// The task an operation of `requester` names, if its receiver created it.
    pub fn operated_task(
        &self,
        requester: Side,
        id: &RequestId,
    ) -> Option<(&Operating, Option<&Task>)> {
        let operating = self.operation(requester, id)?;
        let task = operating
            .task_id
            .as_deref()
            .and_then(|t| self.task(requester.peer(), t));
        Some((operating, task))
    }

    /// The task operations `requester` sent that are not answered yet.
    pub fn open_operations(&self, requester: Side) -> impl Iterator<Item = &Operating> {
        let operations = self.operations.existing().map(|o| &o[requester.index()]);
        operations.into_iter().flat_map(HashMap::values)
    }

    /// A task `receiver` created that has not ended and whose request
    /// carried `token`.
    pub fn running_with_token(&self, receiver: Side, token: &ProgressToken) -> Option<&Task> {
        // The latest, should a reuse have given the token to several.
        let created = self.created.existing()?;
        created[receiver.index()]
            .values()
            .filter(|t| t.ended.is_none() && t.token.as_ref() == Some(token))
            .max_by_key(|t| (t.created.line, t.created.offset))
    }

    /// Applies a message of `from` after the rules have seen it; `answered`
    /// is the request a response answers, with its method.
    pub(crate) fn apply(
        &mut self,
        from: Side,
        message: &Message,
        location: Location,
        stream: Option<&str>,
        answered: Option<(&RequestId, &str)>,
    ) {
        match &message.body {
            Body::Request {
                id: KeyField::Valid(id),
                method,
                params,
            } => self.note_request(from, id, method, params, message, location),
            Body::Response { outcome, .. } => {
                if let Some((id, method)) = answered {
                    self.note_answer(from, id, method, outcome, message, location, stream);
                }
            }
            Body::Notification { .. } => {
                for seen in observations(message, None) {
                    self.observe(from, &seen.task, location, stream);
                }
            }
            Body::Request { .. } | Body::Unclassifiable => {}
        }
    }

    fn note_request(
        &mut self,
        from: Side,
        id: &RequestId,
        method: &Method,
        params: &crate::event::Params,
        message: &Message,
        location: Location,
    ) {
        if tasks::augmentable(method).is_some() && is_task_augmented(message) {
            let token = match &params.meta_progress_token {
                Some(KeyField::Valid(token)) => Some(token.clone()),
                _ => None,
            };
            let request = Augmented {
                method: method.clone(),
                location,
                token,
                task: None,
            };
            self.augmented.make()[from.index()].insert(id.clone(), request);
        }
        if let Some(operation) = tasks::operation(method) {
            let params = message.members.params.as_ref().and_then(|p| p.value());
            let member = |name| params.as_ref().and_then(|p| p.get(name));
            let operating = Operating {
                operation,
                task_id: member("taskId").and_then(Value::as_str).map(Into::into),
                paged: member("cursor").is_some(),
                location,
            };
            self.operations.make()[from.index()].insert(id.clone(), operating);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn note_answer(
        &mut self,
        from: Side,
        id: &RequestId,
        method: &str,
        outcome: &Outcome,
        message: &Message,
        location: Location,
        stream: Option<&str>,
    ) {
        let operations = self.operations.existing_mut();
        let operating = operations.and_then(|o| o[from.peer().index()].remove(id));
        if !matches!(outcome, Outcome::Result { .. }) {
            return;
        }
        if tasks::operation(method) == Some(Operation::List) {
            self.note_cursor(from, message);
        }
        let seen = observations(message, Some(method));
        if let Some(Observation {
            task,
            via: Via::Created,
        }) = seen.first()
        {
            self.create(from, id, task, location, stream);
        }
        for seen in seen.iter().filter(|s| s.via != Via::Created) {
            self.observe(from, &seen.task, location, stream);
            if seen.via == Via::Answer(Operation::Get) {
                self.note_poll(from, &seen.task, location);
            }
        }
        let Some(Operating {
            operation: Operation::Result,
            task_id: Some(task_id),
            ..
        }) = operating
        else {
            return;
        };
        if let Some(task) = self.created_mut(from, &task_id) {
            task.result.get_or_insert(location);
            task.ended.get_or_insert(End {
                location,
                stream: stream.map(Into::into),
                status: None,
            });
        }
    }

    /// `receiver` answered its peer's task-augmented request `id` with a
    /// `CreateTaskResult`. A task id already in use keeps its first task.
    fn create(
        &mut self,
        receiver: Side,
        id: &RequestId,
        wire: &WireTask,
        location: Location,
        stream: Option<&str>,
    ) {
        let (Some(task_id), Some(request)) = (
            wire.id(),
            (self.augmented.existing_mut()).and_then(|a| a[receiver.peer().index()].get_mut(id)),
        ) else {
            return;
        };
        request.task = Some(task_id.into());
        let status = wire.status().unwrap_or(tasks::INITIAL);
        let task = Task {
            id: task_id.into(),
            request_id: id.clone(),
            method: request.method.clone(),
            request: request.location,
            created: location,
            token: request.token.clone(),
            status,
            observed: location,
            ended: status.is_terminal().then(|| End {
                location,
                stream: stream.map(Into::into),
                status: Some(status),
            }),
            result: None,
            last_progress: None,
            poll: None,
            retrieved: None,
            expires_ms: None,
            created_at: wire
                .member("createdAt")
                .and_then(Value::as_str)
                .map(Into::into),
        };
        self.created.make()[receiver.index()]
            .entry(task_id.into())
            .or_insert(task);
    }

    fn note_cursor(&mut self, from: Side, message: &Message) {
        let result = message.members.result.as_ref().and_then(|r| r.value());
        let cursor = result
            .as_ref()
            .and_then(|r| r.get("nextCursor"))
            .and_then(Value::as_str);
        if let Some(cursor) = cursor {
            self.cursors.make()[from.index()].insert(cursor.into());
        }
    }

    /// `receiver` answered `tasks/get` with `wire`: the task could be
    /// retrieved, and the next poll should wait its `pollInterval`.
    fn note_poll(&mut self, receiver: Side, wire: &WireTask, location: Location) {
        let now = self.now_ms;
        let Some(task) = wire
            .id()
            .and_then(|id| self.created.existing_mut()?[receiver.index()].get_mut(id))
        else {
            return;
        };
        task.retrieved = Some(location);
        task.expires_ms = expiry_ms(wire);
        let interval = wire.member("pollInterval").and_then(Value::as_f64);
        task.poll = interval.zip(now).map(|(interval_ms, answered_ms)| Poll {
            interval_ms,
            answered_ms,
            location,
        });
    }

    /// `receiver` showed a task's status. A move out of a terminal status
    /// is not taken: the task stays ended where it first did.
    fn observe(
        &mut self,
        receiver: Side,
        wire: &WireTask,
        location: Location,
        stream: Option<&str>,
    ) {
        let (Some(id), Some(status)) = (wire.id(), wire.status()) else {
            return;
        };
        let created = self.created.existing_mut();
        let Some(task) = created.and_then(|c| c[receiver.index()].get_mut(id)) else {
            return;
        };
        if !task.status.may_become(status) {
            return;
        }
        task.status = status;
        task.observed = location;
        if status.is_terminal() && task.ended.is_none() {
            task.ended = Some(End {
                location,
                stream: stream.map(Into::into),
                status: Some(status),
            });
        }
    }

    /// The last progress of the request `id` that `receiver` just answered:
    /// if it created a task, that task's progress goes on from there.
    pub(crate) fn carry_progress(
        &mut self,
        receiver: Side,
        id: &RequestId,
        last: Option<(f64, Location)>,
    ) {
        let Some(task_id) = self
            .augmented(receiver.peer(), id)
            .and_then(|a| a.task.clone())
        else {
            return;
        };
        if let Some(task) = self.created_mut(receiver, &task_id) {
            task.last_progress = task.last_progress.or(last);
        }
    }

    /// `receiver` sent progress for its peer's request `id` after creating a task for it.
    pub(crate) fn note_progress(
        &mut self,
        receiver: Side,
        id: &RequestId,
        value: f64,
        location: Location,
    ) {
        let Some(task_id) = self
            .augmented(receiver.peer(), id)
            .and_then(|a| a.task.clone())
        else {
            return;
        };
        if let Some(task) = self.created_mut(receiver, &task_id) {
            task.last_progress = Some((value, location));
        }
    }
}
