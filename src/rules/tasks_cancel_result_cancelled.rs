//! `tasks-cancel-result-cancelled`: a successful `tasks/cancel` answer shows
//! the task in another status than `cancelled`.

use super::tasks::{describe_task, operation_answer, seen, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::tasks::Via;
use crate::protocol::tasks::{Operation, Status};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "tasks-cancel-result-cancelled",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a successful tasks/cancel answer shows the task in another status than cancelled",
    quote: "Upon receiving a valid cancellation request, receivers SHOULD attempt to stop the task execution and MUST transition the task to `cancelled` status before sending the response.",
    spec: Some(PAGE),
    help: "set the task to cancelled before answering tasks/cancel, and answer with the cancelled task",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(answer) = operation_answer(ctx) else {
        return;
    };
    // A task that had already ended is tasks-cancel-terminal-rejected's.
    let (Operation::Cancel, Some(task)) = (answer.operating.operation, answer.task) else {
        return;
    };
    if task.ended.is_some() {
        return;
    }
    let Some((_, seen)) = seen(ctx) else { return };
    let shown = seen
        .iter()
        .filter(|s| s.via == Via::Answer(Operation::Cancel))
        .find_map(|s| s.task.status_text());
    let Some(shown) = shown.filter(|s| Status::parse(s) != Some(Status::Cancelled)) else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} answers tasks/cancel of {} with the task {}, not cancelled",
                answer.responder,
                describe_task(task),
                Arg::quoted(shown)
            ),
        )
        .with_request_id(answer.request.id)
        .with_pointer("/result/status")
        .with_related(answer.request.location, "the cancellation request"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, ask, created, session, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-cancel-result-cancelled", &session(lines))
    }

    #[test]
    fn fires_when_the_answer_shows_the_task_still_working() {
        let lines = [
            CALL,
            &created(1, "a"),
            &ask(2, "tasks/cancel", "a"),
            &answer(2, &task("a", "working")),
        ];
        assert_eq!(check(&lines), [(BEFORE + 4, Error)]);
    }

    #[test]
    fn silent_when_the_answer_shows_it_cancelled() {
        let lines = [
            CALL,
            &created(1, "a"),
            &ask(2, "tasks/cancel", "a"),
            &answer(2, &task("a", "cancelled")),
        ];
        assert_eq!(check(&lines), []);
    }
}
