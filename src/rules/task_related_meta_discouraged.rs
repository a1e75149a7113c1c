//! `task-related-meta-discouraged`: `tasks/get`, `tasks/list`, `tasks/cancel`
//! (or their answers) or `notifications/tasks/status` carry the related-task
//! `_meta`, which the spec advises against (the task id is in the message).

use super::tasks::{operation_answer, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::tasks::{related_task, Related};
use crate::event::Body;
use crate::protocol::tasks::{operation, Operation, RELATED_TASK_KEY, STATUS_NOTIFICATION};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "task-related-meta-discouraged",
    family: Family::Tasks,
    default_severity: Severity::Info,
    versions: VERSIONS,
    wants: Wants::MESSAGES,
    order_dependent: false,
    summary: "tasks/get, tasks/list, tasks/cancel, their answers or notifications/tasks/status carry the related-task _meta, which these messages should not",
    quote: "For the `tasks/get`, `tasks/list`, and `tasks/cancel` operations, requestors and receivers SHOULD NOT include this metadata in their messages",
    spec: Some(PAGE),
    help: "leave io.modelcontextprotocol/related-task out of task operations and status notifications: the task id is in their params or result, and receivers ignore the key there",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some(from)) = (ctx.message, ctx.from) else {
        return;
    };
    let (what, member) = match &message.body {
        Body::Request { method, .. } | Body::Notification { method, .. } => {
            let discouraged = match operation(method) {
                Some(op) => op != Operation::Result,
                None => method == STATUS_NOTIFICATION,
            };
            if !discouraged {
                return;
            }
            (words!("{}", method), message.members.params.as_ref())
        }
        Body::Response { .. } => {
            let Some(answer) = operation_answer(ctx) else {
                return;
            };
            if answer.operating.operation == Operation::Result {
                return;
            }
            (
                words!("its answer to {}", answer.request.method),
                message.members.result.as_ref(),
            )
        }
        Body::Unclassifiable => return,
    };
    if related_task(member) == Related::Absent {
        return;
    }
    out.push(ctx.diagnostic(
        &META,
        words!(
            "{} puts {} in the _meta of {}",
            from,
            RELATED_TASK_KEY,
            what
        ),
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::tasks::testing::{answer, created, session, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-related-meta-discouraged", &session(lines))
    }

    #[test]
    fn info_on_tasks_get_with_the_key() {
        let get = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"a","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"a"}}}}}"#;
        assert_eq!(
            check(&[
                CALL,
                &created(1, "a"),
                get,
                &answer(2, &task("a", "working"))
            ]),
            [(BEFORE + 3, Info)]
        );
    }

    #[test]
    fn silent_on_tasks_result_and_without_the_key() {
        let result = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"a","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"a"}}}}}"#;
        let get = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"a","_meta":{}}}}"#;
        assert_eq!(check(&[CALL, &created(1, "a"), result, get]), []);
    }
}
