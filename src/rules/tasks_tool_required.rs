//! `tasks-tool-required`: a tool whose `execution.taskSupport` is
//! `required` is called without a task, or the server answers such a call
//! with success.

use super::tasks::{tool_call, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::event::Outcome;
use crate::protocol::tasks::TaskSupport;
use crate::rule::{Ctx, Family, Needs, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "tasks-tool-required",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::REQUEST.and(Wants::RESPONSE),
    order_dependent: false,
    summary: "a client calls a tool whose execution.taskSupport is \"required\" without a task, or the server answers such a call with success",
    quote: "If `execution.taskSupport` is `\"required\"`, clients MUST invoke the tool as a task. Servers MUST return a `-32601` (Method not found) error if a client does not attempt to do so.",
    spec: Some(PAGE),
    help: "call a tool whose execution.taskSupport is \"required\" with params.task; a server answers a plain call of it with -32601 (or -32600, which the error table also allows)",
};

pub static RULE: Rule = Rule::on_events(&META, check).needing(Needs::TOOLS);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(call) = tool_call(ctx) else { return };
    if call.as_task || call.tool.task_support != TaskSupport::Required {
        return;
    }
    let diagnostic = match call.answer {
        None => ctx.diagnostic(
            &META,
            words!(
                "client calls tool {} without a task, but the tool requires one",
                Arg::quoted(call.name)
            ),
        ),
        // -32601, or -32600 as the spec's table of errors also allows.
        Some(Outcome::Error { .. }) => return,
        Some(Outcome::Result { .. }) => ctx.diagnostic(
            &META,
            words!(
                "server answers a plain call of tool {}, which requires a task, with success",
                Arg::quoted(call.name)
            ),
        ),
    };
    out.push(diagnostic.with_related(
        call.tool.listed,
        "the server listed the tool here, with execution.taskSupport \"required\"",
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, error, session, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-tool-required", &session(lines))
    }

    const PLAIN_CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"long"}}}"#;

    #[test]
    fn fires_on_a_plain_call_and_on_its_success() {
        assert_eq!(
            check(&[PLAIN_CALL, &answer(1, r#"{"content":[]}"#)]),
            [(BEFORE + 1, Error), (BEFORE + 2, Error)]
        );
    }

    #[test]
    fn silent_on_a_task_call_and_on_an_error_answer() {
        assert_eq!(check(&[CALL]), []);
        assert_eq!(
            check(&[PLAIN_CALL, &error(1, -32601)]),
            [(BEFORE + 1, Error)]
        );
    }
}
