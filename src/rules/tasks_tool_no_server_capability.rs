//! `tasks-tool-no-server-capability`: `tools/call` as a task to a server
//! that did not declare `tasks.requests.tools.call`.

use super::tasks::{augmented_request, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::protocol::capabilities::advertised;
use crate::protocol::tasks::TOOL_CALL;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-tool-no-server-capability",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a client calls a tool as a task although the server did not declare tasks.requests.tools.call",
    quote: "If a server's capabilities do not include `tasks.requests.tools.call`, then clients MUST NOT attempt to use task augmentation on that server's tools, regardless of the `execution.taskSupport` value.",
    spec: Some(PAGE),
    help: "call tools as tasks only on a server whose capabilities include tasks.requests.tools.call; otherwise call them plainly",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, augmentable, capabilities)) = augmented_request(ctx) else {
        return;
    };
    if augmentable.method != TOOL_CALL || advertised(&capabilities.value, augmentable.capability) {
        return;
    }
    let path = augmentable.capability;
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} calls a tool as a task, but the server did not declare `{}`",
                from,
                path
            ),
        )
        .with_request_id_of(ctx.message.expect("a request"))
        .with_pointer("/params/task")
        .with_related(
            capabilities.location,
            words!(
                "the server declared its capabilities here, without `{}`",
                path
            ),
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{session, session_with, BEFORE, CALL};
    use crate::rules::testing::findings;

    #[test]
    fn fires_when_the_server_declared_no_tool_tasks() {
        let trace = session_with(r#"{"tools":{},"tasks":{"list":{}}}"#, &[CALL]);
        assert_eq!(
            findings("tasks-tool-no-server-capability", &trace),
            [(BEFORE + 1, Error)]
        );
    }

    #[test]
    fn silent_when_declared() {
        assert_eq!(
            findings("tasks-tool-no-server-capability", &session(&[CALL])),
            Vec::<(u64, Severity)>::new()
        );
    }
}
