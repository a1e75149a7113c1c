//! `cancel-task-augmented`: `notifications/cancelled` names a task-augmented
//! request, whose task must be cancelled with `tasks/cancel`.

use super::tasks::{describe_task, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::{CancelTarget, Facts};
use crate::protocol::SpecPage;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cancel-task-augmented",
    family: Family::Cancel,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::NOTIFICATION,
    order_dependent: true,
    summary: "notifications/cancelled names a request answered with a task (error), or a task-augmented request not answered yet (info): tasks are cancelled with tasks/cancel",
    quote: "For task-augmented requests, the `tasks/cancel` request MUST be used instead of the `notifications/cancelled` notification.",
    spec: Some(SpecPage::handshake("basic/utilities/cancellation")),
    help: "cancel a task with tasks/cancel and its taskId; notifications/cancelled is for requests that run without a task",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Cancel(target), Some(from)) = (&ctx.facts, ctx.from) else {
        return;
    };
    let tasks = &ctx.session.tasks;
    let diagnostic = match target {
        CancelTarget::AfterResponse(request) => {
            let Some(task) = tasks.task_of_request(from.peer(), request.id) else {
                return;
            };
            ctx.diagnostic(
                &META,
                words!("{} cancels request {} ({}) with notifications/cancelled, but it was answered with {}", from, request.id, request.method, describe_task(task)),
            )
            .with_request_id(request.id)
            .with_related(task.created, "the task was created here")
        }
        CancelTarget::Running(request) if tasks.augmented(from, request.id).is_some() => ctx
            .diagnostic(
                &META,
                words!("{} cancels the task-augmented request {} ({}) with notifications/cancelled before it was answered", from, request.id, request.method),
            )
            .with_severity(Severity::Info)
            .with_note("the requester does not know yet whether a task was created; once it is, only tasks/cancel cancels it")
            .with_request_id(request.id)
            .with_related(request.location, "the request asked to run as a task"),
        _ => return,
    };
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Info};
    use crate::rules::tasks::testing::{answer, created, session, BEFORE, CALL};
    use crate::rules::testing::findings;

    const CANCEL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("cancel-task-augmented", &session(lines))
    }

    #[test]
    fn error_after_the_task_was_created_info_before() {
        assert_eq!(
            check(&[CALL, &created(1, "a"), CANCEL]),
            [(BEFORE + 3, Error)]
        );
        assert_eq!(check(&[CALL, CANCEL]), [(BEFORE + 2, Info)]);
    }

    #[test]
    fn silent_on_plain_requests_and_on_a_task_request_answered_plainly() {
        let plain = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"either"}}}"#;
        assert_eq!(check(&[plain, CANCEL]), []);
        assert_eq!(check(&[CALL, &answer(1, r#"{"content":[]}"#), CANCEL]), []);
    }
}
