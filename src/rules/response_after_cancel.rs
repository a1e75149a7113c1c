//! `response-after-cancel`: a response to a request its sender had cancelled.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "response-after-cancel",
    family: Family::Cancel,
    default_severity: Severity::Warning,
    versions: Versions::ALL,
    wants: Wants::RESPONSE,
    order_dependent: true,
    summary: "the receiver answers a request after the cancellation reached it (info when the response may have crossed the cancellation)",
    quote: "Receivers of cancellation notifications SHOULD: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "once a cancellation is read, stop the work and send no response; the requester ignores it anyway",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Response(ResponseTarget::AfterCancel(request)), Some(from)) =
        (&ctx.facts, ctx.from)
    else {
        return;
    };
    // A receiver that ended the request itself may still answer it (a
    // 2026-07-28 server may end a listen stream both ways).
    let Some(cancel) = request.cancel.filter(|c| !c.by_receiver) else {
        return;
    };
    // A receiver may ignore notifications/cancelled for a task-augmented
    // request (tasks are cancelled with tasks/cancel), and answer with its task.
    let message = ctx.message.expect("a response is a message");
    if ctx
        .session
        .tasks
        .augmented(from.peer(), request.id)
        .is_some()
        && crate::engine::tasks::creates_task(message, request.method)
    {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} answers {} after the {} cancelled it",
                from,
                describe_request(from.peer(), request),
                from.peer()
            ),
        )
        .graded_by_cancel(ctx, from, cancel)
        .with_label("response after the cancellation")
        .with_request_id(request.id)
        .with_related(request.location, "the request")
        .with_related(cancel.location, "cancelled here"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#;
    const CANCEL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;
    const RESULT: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "response-after-cancel",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn info_when_the_response_may_have_crossed_the_cancellation() {
        assert_eq!(check(&[CALL, CANCEL, RESULT]), [(6, Info)]);
    }

    #[test]
    fn warning_when_the_server_had_answered_a_later_request_first() {
        let lines = [
            CALL,
            CANCEL,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"Request cancelled"}}}"#,
        ];
        assert_eq!(check(&lines), [(8, Warning)]);
    }

    #[test]
    fn info_when_the_later_request_travelled_on_another_stream() {
        let lines = [
            r#"{"from":"client","stream":"a","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"client","stream":"a","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#,
            r#"{"from":"client","stream":"b","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}"#,
            r#"{"from":"server","stream":"b","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}}"#,
            r#"{"from":"server","stream":"a","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
        ];
        assert_eq!(check(&lines), [(8, Info)]);
    }

    #[test]
    fn warning_in_2026_07_28_even_when_the_messages_may_have_crossed() {
        use crate::rules::testing::{server, trace, v5_request};
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;
        let result =
            server(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#);
        let lines = [call.as_str(), cancel, &result];
        assert_eq!(
            findings("response-after-cancel", &trace(&lines)),
            [(3, Warning)]
        );
    }

    #[test]
    fn silent_when_a_2026_07_28_server_answers_a_listen_it_ended_itself() {
        use crate::rules::testing::{server, trace, v5_request};
        let listen = v5_request("\"L\"", "subscriptions/listen", r#""notifications":{},"#);
        let end = server(
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}"#,
        );
        let result = server(
            r#"{"jsonrpc":"2.0","id":"L","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}"#,
        );
        let lines = [listen.as_str(), &end, &result];
        assert_eq!(findings("response-after-cancel", &trace(&lines)), []);
        assert_eq!(findings("unanswered-request", &trace(&lines[..2])), []);
    }

    #[test]
    fn silent_when_the_cancellation_cancelled_nothing() {
        let lines = [
            CALL,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":null}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#,
            RESULT,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_when_a_task_augmented_request_is_answered_with_its_task() {
        let call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{}}}}"#;
        let created = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null}}}}"#;
        assert_eq!(check(&[call, CANCEL, created]), []);
        let plain = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}"#;
        assert_eq!(check(&[call, CANCEL, plain]), [(6, Info)]);
    }
}
