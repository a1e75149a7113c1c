//! `cancel-after-response`: a cancellation of a request already answered (a legal race).

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{CancelTarget, Facts};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cancel-after-response",
    family: Family::Cancel,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: true,
    summary: "a cancellation of a request whose response was already sent: a legal race",
    quote: "Due to network latency, cancellation notifications may arrive after request processing has completed, and potentially after a response has already been sent.",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "nothing to fix if the response and the cancellation crossed; the receiver ignores the cancellation",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Cancel(CancelTarget::AfterResponse(request)), Some(from)) = (&ctx.facts, ctx.from)
    else {
        return;
    };
    if ctx
        .session
        .tasks
        .task_of_request(from.peer(), request.id)
        .is_some()
    {
        return; // answered with a task: cancel-task-augmented owns it
    }
    let mut diagnostic = ctx
        .diagnostic(
            &META,
            words!(
                "{} cancels request {} after the {} answered it",
                from,
                request.id,
                from.peer()
            ),
        )
        .with_request_id(request.id)
        .with_related(
            request.location,
            words!("{} was sent here", describe_request(from, request)),
        );
    if let Some(response) = request.response {
        diagnostic = diagnostic.with_related(response, "answered here");
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "cancel-after-response",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn info_when_the_cancellation_follows_the_response() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"failed"}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#,
        ];
        assert_eq!(check(&lines), [(6, Info)]);
    }

    #[test]
    fn silent_while_the_request_is_still_running() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_a_second_cancellation_after_the_response() {
        // cancel-duplicate owns it.
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_cancelling_the_answered_initialize() {
        // cancel-initialize owns it.
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }
}
