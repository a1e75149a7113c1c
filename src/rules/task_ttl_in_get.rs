//! `task-ttl-in-get`: a `tasks/get` result lacks `ttl`.

use super::tasks::{seen_whole, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::tasks::Via;
use crate::protocol::tasks::Operation;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "task-ttl-in-get",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a tasks/get result lacks ttl (null when the task is kept without limit)",
    quote: "Receivers MUST include the actual `ttl` duration (or `null` for unlimited) in `tasks/get` responses.",
    spec: Some(PAGE),
    help: "include \"ttl\" in every tasks/get result: the retention in milliseconds, or null for unlimited",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, seen)) = seen_whole(ctx) else {
        return;
    };
    for observation in seen {
        if observation.via == Via::Answer(Operation::Get)
            && observation.task.member("ttl").is_none()
        {
            let task = observation
                .task
                .id()
                .map_or(words!(""), |id| words!(" {}", Arg::quoted(id)));
            out.push(ctx.diagnostic(
                &META,
                words!("{} answers tasks/get of task{} without ttl", from, task),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, ask, created, session, task, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-ttl-in-get", &session(lines))
    }

    #[test]
    fn fires_without_ttl() {
        let bare = r#"{"taskId":"a","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z"}"#;
        assert_eq!(
            check(&[
                CALL,
                &created(1, "a"),
                &ask(2, "tasks/get", "a"),
                &answer(2, bare)
            ]),
            [(BEFORE + 4, Error)]
        );
    }

    #[test]
    fn silent_with_a_ttl_or_null() {
        let unlimited = r#"{"taskId":"a","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null}"#;
        let lines = [
            CALL,
            &created(1, "a"),
            &ask(2, "tasks/get", "a"),
            &answer(2, unlimited),
            &ask(3, "tasks/get", "a"),
            &answer(3, &task("a", "working")),
        ];
        assert_eq!(check(&lines), []);
    }
}
