//! `tasks-unknown-id-error`: `tasks/get`, `tasks/result` or `tasks/cancel`
//! of a task its receiver never created is answered with success (error), or
//! with another error than -32602 (warning).

use super::tasks::{operation_answer, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::event::Outcome;
use crate::protocol::errors::INVALID_PARAMS;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "tasks-unknown-id-error",
    family: Family::Tasks,
    default_severity: Severity::Warning,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "tasks/get, tasks/result or tasks/cancel of a task id its receiver never created is answered with success (error) or with another error code than -32602 (warning)",
    quote: "Invalid or nonexistent `taskId` in `tasks/get`, `tasks/result`, or `tasks/cancel`: `-32602` (Invalid params)",
    spec: Some(PAGE),
    help: "answer an operation on a task id you do not know (never created, or expired) with the error -32602 (Invalid params)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(answer) = operation_answer(ctx) else {
        return;
    };
    if !answer.operating.operation.names_task() || answer.task.is_some() {
        return;
    }
    let (how, severity) = match answer.outcome {
        Outcome::Error { code: Some(code) } if *code != INVALID_PARAMS => {
            (words!("with error {}, not -32602", code), Severity::Warning)
        }
        Outcome::Error { .. } => return,
        Outcome::Result { .. } => (words!("with success"), Severity::Error),
    };
    let named = match &answer.operating.task_id {
        Some(id) => words!("task {}, which it never created", Arg::quoted(id)),
        None => "no task id that is a string".into(),
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} answers {} naming {}, {}",
                answer.responder,
                answer.request.method,
                named,
                how
            ),
        )
        .with_severity(severity)
        .with_request_id(answer.request.id)
        .with_related(answer.request.location, "the request")
        // The task may have been created before the recording began.
        .lowered_unless_proven(ctx, Severity::Info),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::tasks::testing::{answer, ask, created, error, session, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-unknown-id-error", &session(lines))
    }

    #[test]
    fn fires_on_success_and_warns_on_another_code_for_an_unknown_task() {
        assert_eq!(
            check(&[
                &ask(2, "tasks/get", "zz"),
                &answer(2, &task("zz", "working"))
            ]),
            [(BEFORE + 2, Error)]
        );
        assert_eq!(
            check(&[&ask(2, "tasks/result", "zz"), &error(2, -32603)]),
            [(BEFORE + 2, Warning)]
        );
    }

    #[test]
    fn silent_on_minus_32602_and_on_known_tasks() {
        assert_eq!(
            check(&[&ask(2, "tasks/cancel", "zz"), &error(2, -32602)]),
            []
        );
        let lines = [
            CALL,
            &created(1, "a"),
            &ask(2, "tasks/get", "a"),
            &answer(2, &task("a", "working")),
        ];
        assert_eq!(check(&lines), []);
    }
}
