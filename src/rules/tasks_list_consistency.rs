//! `tasks-list-consistency`: a complete `tasks/list` answer leaves out a
//! task that `tasks/get` had retrieved and whose ttl has not run out.

use super::tasks::{describe_task, operation_answer, seen, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::event::Outcome;
use crate::protocol::tasks::Operation;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-list-consistency",
    family: Family::Tasks,
    default_severity: Severity::Warning,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: true,
    summary: "a tasks/list answer without a cursor or nextCursor leaves out a task that tasks/get retrieved earlier and whose ttl had not run out",
    quote: "If a task is retrievable via `tasks/get` for a requestor, it MUST be retrievable via `tasks/list` for that requestor.",
    spec: Some(PAGE),
    help: "list every task tasks/get would return to the same requestor, until its ttl has passed",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(answer) = operation_answer(ctx) else {
        return;
    };
    let (Operation::List, false, Outcome::Result { .. }, Some(now)) = (
        answer.operating.operation,
        answer.operating.paged,
        answer.outcome,
        ctx.event.time_ms,
    ) else {
        return;
    };
    let message = ctx.message.expect("a response is a message");
    let result = message.members.result.as_ref().and_then(|r| r.value());
    // Only a listing in one page shows every task.
    if message.incomplete
        || result
            .as_ref()
            .is_none_or(|r| r.get("nextCursor").is_some())
    {
        return;
    }
    let listed: Vec<String> = seen(ctx)
        .map(|(_, seen)| {
            seen.iter()
                .filter_map(|s| s.task.id().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    for task in ctx.session.tasks.created_by(answer.responder) {
        let (Some(retrieved), Some(expires)) = (task.retrieved, task.expires_ms) else {
            continue;
        };
        if expires <= now || listed.iter().any(|id| **id == *task.id) {
            continue;
        }
        out.push(
            ctx.diagnostic(
                &META,
                words!(
                    "{} lists its tasks without {}, which tasks/get returned and whose ttl has not run out",
                    answer.responder,
                    describe_task(task)
                ),
            )
            .with_request_id(answer.request.id)
            .with_related(retrieved, "tasks/get returned the task here"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Warning};
    use crate::rules::tasks::testing::{answer, ask, created, session, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn at(second: u32, line: &str) -> String {
        line.replacen(
            '{',
            &format!(r#"{{"ts":"2025-11-25T10:00:{second:02}Z","#),
            1,
        )
    }

    fn check(list_result: &str) -> Vec<(u64, Severity)> {
        check_with_ttl(list_result, 60000)
    }

    /// The task was created at 10:00:00; the list comes at 10:00:03.
    fn check_with_ttl(list_result: &str, ttl: u32) -> Vec<(u64, Severity)> {
        let got = task("a", "working").replace("60000", &ttl.to_string());
        let lines = [
            at(1, CALL),
            at(1, &created(1, "a")),
            at(2, &ask(2, "tasks/get", "a")),
            at(2, &answer(2, &got)),
            at(
                3,
                r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"tasks/list"}}"#,
            ),
            at(3, &answer(3, list_result)),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        findings("tasks-list-consistency", &session(&lines))
    }

    #[test]
    fn fires_when_a_complete_list_leaves_a_retrieved_task_out() {
        assert_eq!(check(r#"{"tasks":[]}"#), [(BEFORE + 6, Warning)]);
    }

    #[test]
    fn silent_when_listed_or_on_a_page_of_several() {
        assert_eq!(
            check(&format!(r#"{{"tasks":[{}]}}"#, task("a", "working"))),
            []
        );
        assert_eq!(check(r#"{"tasks":[],"nextCursor":"c1"}"#), []);
        // Its ttl ran out at 10:00:01: the receiver may have deleted it.
        assert_eq!(check_with_ttl(r#"{"tasks":[]}"#, 1000), []);
    }
}
