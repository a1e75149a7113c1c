//! `task-legal-transition`: a task moves out of `completed` or `failed`, or
//! is reported in a status that does not exist.

use super::tasks::{reopened, report_reopened, seen, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::protocol::tasks::Status;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "task-legal-transition",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE.and(Wants::NOTIFICATION),
    order_dependent: true,
    summary: "a task reported completed or failed is later reported in another status, or a task is reported in a status that does not exist",
    quote: "Tasks with a `completed`, `failed`, or `cancelled` status are in a terminal state and MUST NOT transition to any other status",
    spec: Some(PAGE),
    help: "once a task is completed or failed, keep reporting that status (and its result) until it expires; use only the statuses working, input_required, completed, failed and cancelled",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    for (task, shown) in reopened(ctx) {
        // A cancelled task that moves on is task-cancelled-sticky's.
        if task.status != Status::Cancelled {
            report_reopened(ctx, out, &META, task, shown);
        }
    }
    let Some((from, seen)) = seen(ctx) else {
        return;
    };
    for observation in seen {
        let Some(status) = observation.task.member("status") else {
            continue;
        };
        if status.as_str().and_then(Status::parse).is_none() {
            out.push(ctx.diagnostic(
                &META,
                words!(
                    "{} reports a task in status {}, which is no task status",
                    from,
                    status.to_string()
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, ask, created, session, status, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-legal-transition", &session(lines))
    }

    #[test]
    fn fires_when_a_completed_task_is_reported_working_again() {
        let lines = [
            CALL,
            &created(1, "a"),
            &status("a", "completed"),
            &ask(2, "tasks/get", "a"),
            &answer(2, &task("a", "working")),
        ];
        assert_eq!(check(&lines), [(BEFORE + 5, Error)]);
    }

    #[test]
    fn fires_on_a_status_that_does_not_exist() {
        assert_eq!(
            check(&[CALL, &created(1, "a"), &status("a", "done")]),
            [(BEFORE + 3, Error)]
        );
    }

    #[test]
    fn silent_on_legal_moves_and_on_a_cancelled_task_moving_on() {
        let lines = [
            CALL,
            &created(1, "a"),
            &status("a", "input_required"),
            &status("a", "working"),
            &status("a", "failed"),
            &status("a", "failed"),
        ];
        assert_eq!(check(&lines), []);
        // task-cancelled-sticky owns it.
        assert_eq!(
            check(&[
                CALL,
                &created(1, "a"),
                &status("a", "cancelled"),
                &status("a", "completed")
            ]),
            []
        );
    }

    #[test]
    fn follows_tasks_the_client_runs_for_the_server() {
        let elicit = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}},"task":{}}}}"#;
        let created = format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":"e1","result":{{"task":{}}}}}}}"#,
            task("c", "working")
        );
        let report = |status: &str| {
            format!(
                r#"{{"from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{}}}}}"#,
                task("c", status)
            )
        };
        let lines = [elicit, &created, &report("failed"), &report("working")];
        assert_eq!(check(&lines), [(BEFORE + 4, Error)]);
        // The server's status notifications are about the server's tasks.
        assert_eq!(
            check(&[elicit, &created, &report("failed"), &status("c", "working")]),
            []
        );
    }
}
