//! `tasks-augment-needs-capability`: a request asks to run as a task although
//! its receiver did not declare tasks for that request type (`tools/call` has
//! its own rule, tasks-tool-no-server-capability).

use super::tasks::{augmented_request, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::protocol::capabilities::advertised;
use crate::protocol::tasks::TOOL_CALL;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-augment-needs-capability",
    family: Family::Tasks,
    default_severity: Severity::Warning,
    versions: VERSIONS,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a sampling/createMessage or elicitation/create request asks to run as a task although the client did not declare tasks for that request type",
    quote: "Requestors SHOULD only augment requests with a task if the corresponding capability has been declared by the receiver.",
    spec: Some(PAGE),
    help: "send params.task only when the receiver's capabilities.tasks.requests names the request type; otherwise send the request plainly",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, augmentable, capabilities)) = augmented_request(ctx) else {
        return;
    };
    if augmentable.method == TOOL_CALL || advertised(&capabilities.value, augmentable.capability) {
        return;
    }
    let path = augmentable.capability;
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} sends {} as a task, but the {} did not declare `{}`",
                from,
                augmentable.method,
                from.peer(),
                path
            ),
        )
        .with_request_id_of(ctx.message.expect("a request"))
        .with_pointer("/params/task")
        .with_related(
            capabilities.location,
            words!(
                "the {} declared its capabilities here, without `{}`",
                from.peer(),
                path
            ),
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Warning};
    use crate::rules::tasks::testing::{session, BEFORE};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-augment-needs-capability", &session(lines))
    }

    #[test]
    fn fires_on_sampling_as_a_task_to_a_client_without_the_capability() {
        let sample = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":10,"task":{}}}}"#;
        assert_eq!(check(&[sample]), [(BEFORE + 1, Warning)]);
    }

    #[test]
    fn silent_when_declared_or_sent_plainly() {
        // The client of the test session declares tasks.requests.elicitation.create.
        let elicit = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}},"task":{}}}}"#;
        let sample = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s2","method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}}"#;
        assert_eq!(check(&[elicit, sample]), []);
    }
}
