//! What the task rules read of one event: the tasks a message shows, the
//! task operation a response answers, and how findings name a task. Not a
//! rule; the tracker is `engine::tasks`.

use crate::engine::tasks::{self, Observation, Operating, Task, Via};
use crate::engine::RequestView;
use crate::event::{Body, Outcome, Side};
use crate::protocol::tasks::{Operation, Status, TOOL_CALL};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Out, RuleMeta};
use crate::words::{Arg, Words};

/// The page every task rule links.
pub(crate) const PAGE: SpecPage = SpecPage::handshake("basic/utilities/tasks");

/// The revisions of the task rules.
pub(crate) const VERSIONS: Versions = crate::protocol::tasks::VERSIONS;

/// The tasks this message shows, with its sender (who controls them).
pub(crate) fn seen(ctx: &Ctx) -> Option<(Side, Vec<Observation>)> {
    let from = ctx.from?;
    let message = ctx.message?;
    let answered = ctx.facts.answered().map(|r| r.method);
    let seen = tasks::observations(message, answered);
    (!seen.is_empty()).then_some((from, seen))
}

/// The tasks a message shows, for a rule about their members: not in a
/// message the log holds only in part, whose members may be cut.
pub(crate) fn seen_whole(ctx: &Ctx) -> Option<(Side, Vec<Observation>)> {
    seen(ctx).filter(|_| !ctx.message.is_some_and(|m| m.incomplete))
}

/// The task a `CreateTaskResult` shows, with its sender and the request it answers.
pub(crate) fn created<'c>(ctx: &'c Ctx) -> Option<(Side, tasks::WireTask, &'c RequestView<'c>)> {
    let (from, seen) = seen(ctx)?;
    let created = seen.into_iter().find(|s| s.via == Via::Created)?;
    Some((from, created.task, ctx.facts.answered()?))
}

/// A response to a task operation: the request it answers, the operation,
/// and the task it names, if the responder created it.
pub(crate) struct OperationAnswer<'c> {
    pub responder: Side,
    pub request: &'c RequestView<'c>,
    pub operating: &'c Operating,
    pub task: Option<&'c Task>,
    pub outcome: &'c Outcome,
}

pub(crate) fn operation_answer<'c>(ctx: &'c Ctx) -> Option<OperationAnswer<'c>> {
    let responder = ctx.from?;
    let request = ctx.facts.answered()?;
    let (operating, task) = ctx
        .session
        .tasks
        .operated_task(responder.peer(), request.id)?;
    let Body::Response { outcome, .. } = &ctx.message?.body else {
        return None;
    };
    Some(OperationAnswer {
        responder,
        request,
        operating,
        task,
        outcome,
    })
}

/// A request that asks to run as a task: its method's row in the task
/// table, and its receiver's capabilities as the trace shows them.
pub(crate) fn augmented_request<'c>(
    ctx: &Ctx<'c>,
) -> Option<(
    Side,
    &'static crate::protocol::tasks::Augmentable,
    &'c crate::engine::Capabilities,
)> {
    let (method, from) = super::sent_method(ctx)?;
    let augmentable = crate::protocol::tasks::augmentable(method)?;
    if !tasks::is_task_augmented(ctx.message?) {
        return None;
    }
    let capabilities = ctx.session.lifecycle.capabilities(from.peer())?;
    Some((from, augmentable, capabilities))
}

/// A `tools/call` of a listed tool, or the server's answer to one.
pub(crate) struct ToolCall<'c> {
    pub name: &'c str,
    pub tool: &'c crate::engine::tools::Tool,
    pub as_task: bool,
    /// The server's answer, when the event is the answer.
    pub answer: Option<&'c Outcome>,
}

pub(crate) fn tool_call<'c>(ctx: &Ctx<'c>) -> Option<ToolCall<'c>> {
    if ctx.session.tools.is_empty() {
        return None; // no call can be judged against a listing
    }
    let message = ctx.message?;
    let (name, as_task, answer) = match (&message.body, ctx.from?) {
        (Body::Request { method, .. }, Side::Client) if method == TOOL_CALL => {
            let call: ToolName = message.members.params.as_ref()?.parse()?;
            (call.name, tasks::is_task_augmented(message), None)
        }
        (Body::Response { outcome, .. }, Side::Server) => {
            let request = ctx.facts.answered()?;
            let name = ctx.session.tools.called(request.id)?;
            let as_task = ctx
                .session
                .tasks
                .augmented(Side::Client, request.id)
                .is_some();
            (name, as_task, Some(outcome))
        }
        _ => return None,
    };
    let tool = ctx.session.tools.get(name)?;
    Some(ToolCall {
        name,
        tool,
        as_task,
        answer,
    })
}

#[derive(serde::Deserialize)]
struct ToolName<'a> {
    #[serde(borrow)]
    name: &'a str,
}

/// How findings name a task: `task "abc" (tools/call)`.
pub(crate) fn describe_task(task: &Task) -> Words {
    words!("task {} ({})", Arg::quoted(&task.id), task.method)
}

/// The tasks this message shows in another status than the terminal one
/// they had ended in.
pub(crate) fn reopened<'c>(ctx: &'c Ctx) -> Vec<(&'c Task, Status)> {
    let Some((from, seen)) = seen(ctx) else {
        return Vec::new();
    };
    // A CreateTaskResult reusing an id is task-id-unique's, and a tasks/cancel
    // answer for an ended task tasks-cancel-terminal-rejected's.
    let excluded = [Via::Created, Via::Answer(Operation::Cancel)];
    seen.iter()
        .filter(|s| !excluded.contains(&s.via))
        .filter_map(|s| {
            let task = ctx.session.tasks.task(from, s.task.id()?)?;
            let shown = s.task.status()?;
            (!task.status.may_become(shown)).then_some((task, shown))
        })
        .collect()
}

/// Reports a task shown in `shown` after it had ended.
pub(crate) fn report_reopened(
    ctx: &Ctx,
    out: &mut Out,
    meta: &'static RuleMeta,
    task: &Task,
    shown: Status,
) {
    let Some(from) = ctx.from else { return };
    out.push(
        ctx.diagnostic(
            meta,
            words!(
                "{} reports {} as {} after it was {}",
                from,
                describe_task(task),
                shown.as_str(),
                task.status.as_str()
            ),
        )
        .with_label("a status after the terminal one")
        .with_related(
            task.observed,
            words!("reported {} here", task.status.as_str()),
        ),
    );
}

#[cfg(test)]
pub(crate) mod testing {
    /// A 2025-11-25 handshake in which the server declares every task
    /// capability and lists three tools, one per `taskSupport`, and the
    /// client declares tasks for elicitation; then `lines`.
    pub fn session(lines: &[&str]) -> String {
        session_with(SERVER_TASKS, lines)
    }

    pub const SERVER_TASKS: &str =
        r#"{"tools":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}"#;

    pub fn session_with(server_capabilities: &str, lines: &[&str]) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{"elicitation":{{}},"tasks":{{"requests":{{"elicitation":{{"create":{{}}}}}}}}}},"clientInfo":{{"name":"c","version":"1"}}}}}}}}
{{"from":"server","msg":{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"2025-11-25","capabilities":{server_capabilities},"serverInfo":{{"name":"s","version":"1"}}}}}}}}
{{"from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/initialized"}}}}
{{"from":"client","msg":{{"jsonrpc":"2.0","id":"list","method":"tools/list"}}}}
{{"from":"server","msg":{{"jsonrpc":"2.0","id":"list","result":{{"tools":[{{"name":"plain","inputSchema":{{"type":"object"}}}},{{"name":"either","inputSchema":{{"type":"object"}},"execution":{{"taskSupport":"optional"}}}},{{"name":"long","inputSchema":{{"type":"object"}},"execution":{{"taskSupport":"required"}}}}]}}}}}}
{}"#,
            lines.join("\n")
        )
    }

    /// Lines before the caller's in [`session`].
    pub const BEFORE: u64 = 5;

    /// A task-augmented call of the tool `long` with id 1.
    pub const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"long","task":{"ttl":60000}}}}"#;

    /// A `Task` object with this id and status.
    pub fn task(id: &str, status: &str) -> String {
        format!(
            r#"{{"taskId":"{id}","status":"{status}","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:01Z","ttl":60000}}"#
        )
    }

    /// The server's `CreateTaskResult` for request `id`.
    pub fn created(id: u32, task_id: &str) -> String {
        format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"result":{{"task":{}}}}}}}"#,
            task(task_id, "working")
        )
    }

    /// A client request `method` naming `task_id`, with id `id`.
    pub fn ask(id: u32, method: &str, task_id: &str) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{"taskId":"{task_id}"}}}}}}"#
        )
    }

    /// The server's answer to request `id` with `result` (JSON text).
    pub fn answer(id: u32, result: &str) -> String {
        format!(r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"result":{result}}}}}"#)
    }

    /// The server's error answer to request `id`.
    pub fn error(id: u32, code: i64) -> String {
        format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"no"}}}}}}"#
        )
    }

    /// A status notification of the server for `task_id`.
    pub fn status(task_id: &str, status: &str) -> String {
        format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{}}}}}"#,
            task(task_id, status)
        )
    }
}
