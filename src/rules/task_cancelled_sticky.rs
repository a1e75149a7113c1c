//! `task-cancelled-sticky`: a cancelled task is later reported in another status.

use super::tasks::{reopened, report_reopened, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::protocol::tasks::Status;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "task-cancelled-sticky",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE.and(Wants::NOTIFICATION),
    order_dependent: true,
    summary: "a task reported cancelled is later reported in another status (completed, failed, working)",
    quote: "Once a task is cancelled, it MUST remain in `cancelled` status even if execution continues to completion or fails.",
    spec: Some(PAGE),
    help: "when the work of a cancelled task finishes or fails anyway, do not store its outcome over the cancellation: the task stays cancelled",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    for (task, shown) in reopened(ctx) {
        if task.status == Status::Cancelled {
            report_reopened(ctx, out, &META, task, shown);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, ask, created, session, status, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-cancelled-sticky", &session(lines))
    }

    #[test]
    fn fires_when_a_cancelled_task_completes() {
        let lines = [
            CALL,
            &created(1, "a"),
            &ask(2, "tasks/cancel", "a"),
            &answer(2, &task("a", "cancelled")),
            &status("a", "completed"),
        ];
        assert_eq!(check(&lines), [(BEFORE + 5, Error)]);
    }

    #[test]
    fn silent_while_it_stays_cancelled_and_on_other_terminal_moves() {
        let lines = [
            CALL,
            &created(1, "a"),
            &status("a", "cancelled"),
            &status("a", "cancelled"),
        ];
        assert_eq!(check(&lines), []);
        assert_eq!(
            check(&[
                CALL,
                &created(1, "a"),
                &status("a", "failed"),
                &status("a", "working")
            ]),
            []
        );
    }
}
