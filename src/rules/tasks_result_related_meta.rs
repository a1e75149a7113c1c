//! `tasks-result-related-meta`: a successful `tasks/result` answer does not
//! name its task in `_meta["io.modelcontextprotocol/related-task"]`.

use super::tasks::{operation_answer, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::tasks::{related_task, Related};
use crate::event::Outcome;
use crate::protocol::tasks::{Operation, RELATED_TASK_KEY};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "tasks-result-related-meta",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a successful tasks/result answer lacks _meta[\"io.modelcontextprotocol/related-task\"] naming the requested task",
    quote: "The `tasks/result` operation MUST include this metadata in its response, as the result structure itself does not contain the task ID.",
    spec: Some(PAGE),
    help: "add \"_meta\": {\"io.modelcontextprotocol/related-task\": {\"taskId\": \"<the task id>\"}} to the result of tasks/result",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(answer) = operation_answer(ctx) else {
        return;
    };
    let (Operation::Result, Some(task_id), Outcome::Result { .. }) = (
        answer.operating.operation,
        answer.operating.task_id.as_deref(),
        answer.outcome,
    ) else {
        return;
    };
    let message = ctx.message.expect("a response is a message");
    let problem = match related_task(message.members.result.as_ref()) {
        Related::Task(id) if id == task_id => return,
        _ if message.incomplete => return,
        Related::Task(id) => words!(
            "names task {} in its {} _meta",
            Arg::quoted(&id),
            RELATED_TASK_KEY
        ),
        Related::Malformed => words!("has no string taskId in its {} _meta", RELATED_TASK_KEY),
        Related::Absent => words!("has no {} _meta", RELATED_TASK_KEY),
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{}'s answer to tasks/result of task {} {}",
                answer.responder,
                Arg::quoted(task_id),
                problem
            ),
        )
        .with_request_id(answer.request.id)
        .with_pointer("/result/_meta")
        .with_related(answer.request.location, "the request"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, ask, created, session, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-result-related-meta", &session(lines))
    }

    #[test]
    fn fires_without_the_key_or_with_another_task() {
        let bare = r#"{"content":[]}"#;
        let other =
            r#"{"content":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"b"}}}"#;
        for result in [bare, other] {
            let lines = [
                CALL,
                &created(1, "a"),
                &ask(2, "tasks/result", "a"),
                &answer(2, result),
            ];
            assert_eq!(check(&lines), [(BEFORE + 4, Error)]);
        }
    }

    #[test]
    fn silent_with_the_key_and_on_errors() {
        let good =
            r#"{"content":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"a"}}}"#;
        let lines = [
            CALL,
            &created(1, "a"),
            &ask(2, "tasks/result", "a"),
            &answer(2, good),
        ];
        assert_eq!(check(&lines), []);
        let failed = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"x"}}}"#;
        assert_eq!(
            check(&[CALL, &created(1, "a"), &ask(2, "tasks/result", "a"), failed]),
            []
        );
    }
}
