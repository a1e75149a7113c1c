//! `tasks-result-exact`: a successful `tasks/result` answer is not shaped
//! as the result of the task's request (a `CallToolResult` for `tools/call`).

use super::tasks::{describe_task, operation_answer, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::event::Outcome;
use crate::protocol::tasks::{augmentable, Operation};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-result-exact",
    family: Family::Tasks,
    default_severity: Severity::Warning,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a successful tasks/result answer lacks what the result of the task's request requires (content for tools/call, action for elicitation/create), such as a Task instead of the result",
    quote: "For tasks in a terminal status, receivers MUST return from `tasks/result` exactly what the underlying request would have returned, whether that is a successful result or a JSON-RPC error.",
    spec: Some(PAGE),
    help: "answer tasks/result with the result the task's request would have had (for tools/call, the CallToolResult with its content), or with its JSON-RPC error",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(answer) = operation_answer(ctx) else {
        return;
    };
    let (Operation::Result, Some(task), Outcome::Result { .. }) =
        (answer.operating.operation, answer.task, answer.outcome)
    else {
        return;
    };
    let Some(underlying) = augmentable(&task.method) else {
        return;
    };
    let result = ctx.message.and_then(|m| m.members.result.as_ref());
    let missing = super::missing_members(result, underlying.result_members);
    if missing.is_empty() || ctx.message.is_some_and(|m| m.incomplete) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} answers tasks/result of {} without {}, which a {} result requires",
                answer.responder,
                describe_task(task),
                super::listed(&missing),
                task.method
            ),
        )
        .with_request_id(answer.request.id)
        .with_related(task.request, "the task's request"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Warning};
    use crate::rules::tasks::testing::{answer, ask, created, session, status, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-result-exact", &session(lines))
    }

    #[test]
    fn fires_when_the_answer_is_the_task_instead_of_the_tool_result() {
        let lines = [
            CALL,
            &created(1, "a"),
            &status("a", "completed"),
            &ask(2, "tasks/result", "a"),
            &answer(2, &task("a", "completed")),
        ];
        assert_eq!(check(&lines), [(BEFORE + 5, Warning)]);
    }

    #[test]
    fn silent_on_the_tool_result_and_on_an_error() {
        let result = r#"{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"a"}}}"#;
        let lines = [
            CALL,
            &created(1, "a"),
            &ask(2, "tasks/result", "a"),
            &answer(2, result),
        ];
        assert_eq!(check(&lines), []);
        let failed = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"tool crashed"}}}"#;
        assert_eq!(
            check(&[CALL, &created(1, "a"), &ask(2, "tasks/result", "a"), failed]),
            []
        );
    }
}
