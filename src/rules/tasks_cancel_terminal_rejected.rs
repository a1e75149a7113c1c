//! `tasks-cancel-terminal-rejected`: `tasks/cancel` of a task that had
//! already ended is answered with success, or with another error than -32602.

use super::tasks::{describe_task, operation_answer, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::event::Outcome;
use crate::protocol::errors::INVALID_PARAMS;
use crate::protocol::tasks::Operation;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-cancel-terminal-rejected",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: true,
    summary: "tasks/cancel of a task its receiver had already reported completed, failed or cancelled is answered with success (error), or with another error code than -32602 (warning)",
    quote: "Receivers MUST reject cancellation requests for tasks already in a terminal status (`completed`, `failed`, or `cancelled`) with error code `-32602` (Invalid params).",
    spec: Some(PAGE),
    help: "answer tasks/cancel of a finished task with the error -32602 (Invalid params), and leave the task as it ended",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(answer) = operation_answer(ctx) else {
        return;
    };
    let (Operation::Cancel, Some(task)) = (answer.operating.operation, answer.task) else {
        return;
    };
    let Some(end) = &task.ended else { return };
    let (how, severity) = match answer.outcome {
        Outcome::Error { code: Some(code) } if *code != INVALID_PARAMS => {
            (words!("with error {}, not -32602", code), Severity::Warning)
        }
        Outcome::Error { .. } => return,
        Outcome::Result { .. } => (words!("with success"), Severity::Error),
    };
    let ended = match end.status {
        Some(status) => words!("it reported the task {} here", status.as_str()),
        None => "it answered tasks/result for the task here, so the task had ended".into(),
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} answers tasks/cancel of {}, which had already ended, {}",
                answer.responder,
                describe_task(task),
                how
            ),
        )
        .with_severity(severity)
        .with_request_id(answer.request.id)
        .with_related(answer.request.location, "the cancellation request")
        .with_related(end.location, ended),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::tasks::testing::{
        answer, ask, created, error, session, status, task, BEFORE, CALL,
    };
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-cancel-terminal-rejected", &session(lines))
    }

    #[test]
    fn fires_on_success_and_warns_on_another_code() {
        let done = status("a", "completed");
        let cancel = ask(2, "tasks/cancel", "a");
        assert_eq!(
            check(&[
                CALL,
                &created(1, "a"),
                &done,
                &cancel,
                &answer(2, &task("a", "cancelled"))
            ]),
            [(BEFORE + 5, Error)]
        );
        assert_eq!(
            check(&[CALL, &created(1, "a"), &done, &cancel, &error(2, -32603)]),
            [(BEFORE + 5, Warning)]
        );
    }

    #[test]
    fn silent_on_minus_32602_and_on_cancelling_a_running_task() {
        let cancel = ask(2, "tasks/cancel", "a");
        assert_eq!(
            check(&[
                CALL,
                &created(1, "a"),
                &status("a", "failed"),
                &cancel,
                &error(2, -32602)
            ]),
            []
        );
        assert_eq!(
            check(&[
                CALL,
                &created(1, "a"),
                &cancel,
                &answer(2, &task("a", "cancelled"))
            ]),
            []
        );
    }
}
