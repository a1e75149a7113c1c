//! `task-id-unique`: a receiver creates a task with the id of a task it
//! created before.

use super::tasks::{created, describe_task, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "task-id-unique",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a CreateTaskResult reuses the id of a task its sender created earlier in the session",
    quote: "Task IDs MUST be unique among all tasks controlled by the receiver.",
    spec: Some(PAGE),
    help: "give every task a fresh id (a UUID, for example), even after the earlier task ended or expired",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, task, request)) = created(ctx) else {
        return;
    };
    let Some(earlier) = task.id().and_then(|id| ctx.session.tasks.task(from, id)) else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} creates a task for {} with the id of {}",
                from,
                super::describe_request(from.peer(), request),
                describe_task(earlier)
            ),
        )
        .with_request_id(request.id)
        .with_related(
            earlier.created,
            "the earlier task with this id was created here",
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{created, session, status, BEFORE, CALL};
    use crate::rules::testing::findings;

    const SECOND: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"long","task":{}}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-id-unique", &session(lines))
    }

    #[test]
    fn fires_when_a_second_task_gets_the_first_ones_id() {
        let lines = [
            CALL,
            &created(1, "a"),
            &status("a", "completed"),
            SECOND,
            &created(2, "a"),
        ];
        assert_eq!(check(&lines), [(BEFORE + 5, Error)]);
    }

    #[test]
    fn silent_on_distinct_ids() {
        assert_eq!(
            check(&[CALL, &created(1, "a"), SECOND, &created(2, "b")]),
            []
        );
    }
}
