//! `task-id-string`: a task's `taskId` is missing or not a string.

use super::tasks::{seen_whole, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "task-id-string",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "a task in a CreateTaskResult, a task operation's result or a status notification has a taskId that is missing or not a string",
    quote: "Task IDs MUST be a string value.",
    spec: Some(PAGE),
    help: "give each task a string id (\"taskId\": \"786512e2-...\"), never a number",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, seen)) = seen_whole(ctx) else {
        return;
    };
    for observation in seen {
        let problem = match observation.task.member("taskId") {
            None => words!("has no taskId"),
            Some(id) if !id.is_string() => {
                words!("has the taskId {}, which is not a string", id.to_string())
            }
            Some(_) => continue,
        };
        out.push(ctx.diagnostic(&META, words!("{} reports a task that {}", from, problem)));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, created, session, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-id-string", &session(lines))
    }

    #[test]
    fn fires_on_a_numeric_task_id() {
        let numeric = answer(
            1,
            r#"{"task":{"taskId":7,"status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null}}"#,
        );
        assert_eq!(check(&[CALL, &numeric]), [(BEFORE + 2, Error)]);
    }

    #[test]
    fn silent_on_a_string_id() {
        assert_eq!(check(&[CALL, &created(1, "7")]), []);
    }
}
