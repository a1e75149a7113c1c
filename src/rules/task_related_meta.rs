//! `task-related-meta`: a request a receiver sends for a task that waits for
//! input (while its peer waits on `tasks/result`) lacks the related-task
//! `_meta`, or a related-task `_meta` names a task no side created.

use super::tasks::{PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::tasks::{related_task, Related};
use crate::event::Body;
use crate::protocol::tasks::{self, Operation, Status, RELATED_TASK_KEY};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "task-related-meta",
    family: Family::Tasks,
    default_severity: Severity::Warning,
    versions: VERSIONS,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "a request sent for a task that waits for input lacks the related-task _meta, or a related-task _meta names a task that neither side created",
    quote: "All requests, notifications, and responses related to a task MUST include the `io.modelcontextprotocol/related-task` key in their `_meta` field, with the value set to an object with a `taskId` matching the associated task ID.",
    spec: Some(PAGE),
    help: "when a task needs input, send the elicitation or sampling request with \"_meta\": {\"io.modelcontextprotocol/related-task\": {\"taskId\": \"<the task id>\"}}",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some((method, from))) = (ctx.message, super::sent_method(ctx)) else {
        return;
    };
    let tasks = &ctx.session.tasks;
    match related_task(message.members.params.as_ref()) {
        Related::Task(id)
            if tasks.task(from, &id).is_none() && tasks.task(from.peer(), &id).is_none() =>
        {
            let diagnostic = ctx
                .diagnostic(
                    &META,
                    words!(
                        "{} relates {} to task {}, which neither side created",
                        from,
                        method,
                        Arg::quoted(&id)
                    ),
                )
                .lowered_unless_proven(ctx, Severity::Info);
            out.push(diagnostic);
        }
        Related::Absent
            if matches!(message.body, Body::Request { .. })
                && tasks::operation(method).is_none() =>
        {
            // A request of a task's receiver while its peer waits on tasks/result
            // for a task that needs input: the request is that input's.
            // The earliest such wait, so that the finding is the same on every run.
            let waiting = tasks
                .open_operations(from.peer())
                .filter_map(|op| {
                    let task = tasks.task(from, op.task_id.as_deref()?)?;
                    (op.operation == Operation::Result && task.status == Status::InputRequired)
                        .then_some((op, task))
                })
                .min_by_key(|(op, _)| (op.location.line, op.location.offset));
            if let Some((op, task)) = waiting {
                out.push(
                    ctx.diagnostic(
                        &META,
                        words!(
                            "{} sends {} while task {} waits for input, without {} in its _meta",
                            from,
                            method,
                            Arg::quoted(&task.id),
                            RELATED_TASK_KEY
                        ),
                    )
                    .with_request_id_of(message)
                    .with_related(task.observed, "the task was reported input_required here")
                    .with_related(op.location, "the peer waits on tasks/result since here"),
                );
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Warning};
    use crate::rules::tasks::testing::{ask, created, session, status, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-related-meta", &session(lines))
    }

    const BARE: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"Delete?","requestedSchema":{"type":"object","properties":{}}}}}"#;
    const RELATED: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"Delete?","requestedSchema":{"type":"object","properties":{}},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"a"}}}}}"#;

    #[test]
    fn fires_on_input_without_the_key_and_on_an_unknown_task() {
        let lines = [
            CALL,
            &created(1, "a"),
            &status("a", "input_required"),
            &ask(2, "tasks/result", "a"),
            BARE,
        ];
        assert_eq!(check(&lines), [(BEFORE + 5, Warning)]);
        let stray = RELATED.replace(r#""taskId":"a""#, r#""taskId":"zz""#);
        assert_eq!(
            check(&[CALL, &created(1, "a"), &stray]),
            [(BEFORE + 3, Warning)]
        );
    }

    #[test]
    fn silent_with_the_key_and_outside_of_a_task() {
        let lines = [
            CALL,
            &created(1, "a"),
            &status("a", "input_required"),
            &ask(2, "tasks/result", "a"),
            RELATED,
        ];
        assert_eq!(check(&lines), []);
        assert_eq!(check(&[BARE]), []);
    }
}
