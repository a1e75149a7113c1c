//! `tasks-result-blocks`: a task is reported working or input_required after
//! its receiver answered `tasks/result` for it, which it may only do once the
//! task is terminal.

use super::tasks::{describe_task, seen, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::tasks::Via;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-result-blocks",
    family: Family::Tasks,
    default_severity: Severity::Warning,
    versions: VERSIONS,
    wants: Wants::RESPONSE.and(Wants::NOTIFICATION),
    order_dependent: true,
    summary: "a task is reported working or input_required after its receiver answered tasks/result for it: the answer did not wait for the task to end",
    quote: "When a receiver receives a `tasks/result` request for a task in any other non-terminal status (`working` or `input_required`), it MUST block the response until the task reaches a terminal status.",
    spec: Some(PAGE),
    help: "hold the tasks/result response until the task is completed, failed or cancelled, then answer with its result",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, seen)) = seen(ctx) else {
        return;
    };
    for observation in seen.iter().filter(|s| s.via != Via::Created) {
        let (Some(id), Some(status)) = (observation.task.id(), observation.task.status()) else {
            continue;
        };
        let Some(task) = ctx.session.tasks.task(from, id) else {
            continue;
        };
        let Some(result) = task.result.filter(|_| !status.is_terminal()) else {
            continue;
        };
        out.push(
            ctx.diagnostic(
                &META,
                words!(
                    "{} reports {} as {} after it answered tasks/result for it",
                    from,
                    describe_task(task),
                    status.as_str()
                ),
            )
            .with_related(result, "tasks/result was answered here"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Warning};
    use crate::rules::tasks::testing::{answer, ask, created, session, status, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-result-blocks", &session(lines))
    }

    const RESULT: &str =
        r#"{"content":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"a"}}}"#;

    #[test]
    fn fires_when_the_task_is_still_working_after_its_result() {
        let lines = [
            CALL,
            &created(1, "a"),
            &ask(2, "tasks/result", "a"),
            &answer(2, RESULT),
            &status("a", "working"),
        ];
        assert_eq!(check(&lines), [(BEFORE + 5, Warning)]);
    }

    #[test]
    fn silent_when_it_is_terminal_after_its_result() {
        let lines = [
            CALL,
            &created(1, "a"),
            &status("a", "working"),
            &ask(2, "tasks/result", "a"),
            &answer(2, RESULT),
            &status("a", "completed"),
        ];
        assert_eq!(check(&lines), []);
    }
}
