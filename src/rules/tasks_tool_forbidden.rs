//! `tasks-tool-forbidden`: a tool whose `execution.taskSupport` is absent or
//! `forbidden` is called as a task (error), or the server accepts such a
//! call rather than answering -32601 (warning).

use super::tasks::{tool_call, PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::event::Outcome;
use crate::protocol::errors::METHOD_NOT_FOUND;
use crate::protocol::tasks::{augmentable, TaskSupport, TOOL_CALL};
use crate::rule::{Ctx, Family, Needs, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "tasks-tool-forbidden",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::REQUEST.and(Wants::RESPONSE),
    order_dependent: false,
    summary: "a client calls a tool as a task although its execution.taskSupport is absent or forbidden (error), or the server answers such a call otherwise than with -32601 (warning)",
    quote: "If `execution.taskSupport` is not present or `\"forbidden\"`, clients MUST NOT attempt to invoke the tool as a task. Servers SHOULD return a `-32601` (Method not found) error if a client attempts to do so.",
    spec: Some(PAGE),
    help: "read execution.taskSupport in tools/list: call a tool as a task only when it is \"optional\" or \"required\"; a server answers a task call of any other tool with -32601",
};

pub static RULE: Rule = Rule::on_events(&META, check).needing(Needs::TOOLS);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(call) = tool_call(ctx) else { return };
    if !call.as_task || call.tool.task_support != TaskSupport::Forbidden {
        return;
    }
    let listed = (call.tool.listed, "the server listed the tool here, without execution.taskSupport \"optional\" or \"required\"");
    let diagnostic = match call.answer {
        None => {
            // Without the server's tasks capability, tasks-tool-no-server-capability says it.
            let capability = augmentable(TOOL_CALL).map(|a| a.capability);
            let no_tasks = capability.and_then(|path| {
                ctx.session.lifecycle.advertises(crate::event::Side::Server, path)
            }) == Some(false);
            if no_tasks {
                return;
            }
            ctx.diagnostic(&META, words!("client calls tool {} as a task, which the tool does not allow", Arg::quoted(call.name)))
        }
        Some(Outcome::Error { code: Some(METHOD_NOT_FOUND) }) => return,
        Some(_) => ctx
            .diagnostic(
                &META,
                words!("server answers a task call of tool {}, which does not allow tasks, otherwise than with -32601", Arg::quoted(call.name)),
            )
            .with_severity(Severity::Warning),
    };
    out.push(diagnostic.with_related(listed.0, listed.1));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::tasks::testing::{created, error, session, BEFORE};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-tool-forbidden", &session(lines))
    }

    const PLAIN_AS_TASK: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plain","task":{}}}}"#;

    #[test]
    fn fires_on_the_call_and_warns_when_the_server_accepts_it() {
        assert_eq!(
            check(&[PLAIN_AS_TASK, &created(1, "a")]),
            [(BEFORE + 1, Error), (BEFORE + 2, Warning)]
        );
    }

    #[test]
    fn silent_on_optional_tools_plain_calls_and_a_minus_32601_answer() {
        let either = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"either","task":{}}}}"#;
        let plain = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"plain"}}}"#;
        assert_eq!(check(&[either, plain]), []);
        assert_eq!(
            check(&[PLAIN_AS_TASK, &error(1, -32601)]),
            [(BEFORE + 1, Error)]
        );
    }
}
