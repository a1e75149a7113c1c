//! `task-initial-working`: a `CreateTaskResult` shows the new task in another
//! status than `working`.

use super::tasks::{created, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::protocol::tasks::INITIAL;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "task-initial-working",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a CreateTaskResult shows the new task in another status than working (input_required or completed already)",
    quote: "Tasks MUST begin in the `working` status when created.",
    spec: Some(PAGE),
    help: "answer the task-augmented request with the task as created, in working; report later statuses through tasks/get or notifications/tasks/status (a handler that changes the status before the CreateTaskResult is sent races with it)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, task, request)) = created(ctx) else {
        return;
    };
    let Some(status) = task.status_text().filter(|s| *s != INITIAL.as_str()) else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} creates a task for {} in status {}, not working",
                from,
                super::describe_request(from.peer(), request),
                Arg::quoted(status)
            ),
        )
        .with_request_id(request.id)
        .with_pointer("/result/task/status"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, created, session, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-initial-working", &session(lines))
    }

    #[test]
    fn fires_on_a_task_created_input_required() {
        let early = answer(1, &format!(r#"{{"task":{}}}"#, task("a", "input_required")));
        assert_eq!(check(&[CALL, &early]), [(BEFORE + 2, Error)]);
    }

    #[test]
    fn silent_on_a_task_created_working() {
        assert_eq!(check(&[CALL, &created(1, "a")]), []);
    }
}
