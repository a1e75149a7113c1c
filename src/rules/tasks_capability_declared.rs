//! `tasks-capability-declared`: a receiver answers with a `CreateTaskResult`
//! a request type it did not declare in `capabilities.tasks.requests`.

use super::tasks::{created, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::protocol::capabilities::advertised;
use crate::protocol::tasks::augmentable;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-capability-declared",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a receiver answers with a CreateTaskResult a request type it did not declare under capabilities.tasks.requests (it must process such a request normally)",
    quote: "Servers and clients that support task-augmented requests MUST declare a `tasks` capability during initialization.",
    spec: Some(PAGE),
    help: "declare tasks.requests.<type> (tasks.requests.tools.call, ...) in initialize for every request type you run as a task; without it, ignore params.task and answer normally",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, _, request)) = created(ctx) else {
        return;
    };
    let (Some(row), Some(declared)) = (
        augmentable(request.method),
        ctx.session.lifecycle.capabilities(from),
    ) else {
        return;
    };
    if advertised(&declared.value, row.capability) || ctx.message.is_some_and(|m| m.incomplete) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} answers {} with a task, but did not declare `{}`",
                from,
                super::describe_request(from.peer(), request),
                row.capability
            ),
        )
        .with_request_id(request.id)
        .with_related(
            declared.location,
            words!(
                "the {} declared its capabilities here, without `{}`",
                from,
                row.capability
            ),
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{created, session, session_with, BEFORE, CALL};
    use crate::rules::testing::findings;

    #[test]
    fn fires_when_the_server_did_not_declare_tool_tasks() {
        let trace = session_with(r#"{"tools":{}}"#, &[CALL, &created(1, "a")]);
        assert_eq!(
            findings("tasks-capability-declared", &trace),
            [(BEFORE + 2, Error)]
        );
    }

    #[test]
    fn silent_when_declared() {
        let trace = session(&[CALL, &created(1, "a")]);
        assert_eq!(
            findings("tasks-capability-declared", &trace),
            Vec::<(u64, Severity)>::new()
        );
    }
}
