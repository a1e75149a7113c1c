//! `duplicate-response`: a second response for one request.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "duplicate-response",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a request is answered twice",
    quote: "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications. (JSON-RPC 2.0, which MCP requires: \"All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.\")",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "answer each request exactly once; look for a handler that both returns a result and sends an error",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Response(ResponseTarget::Duplicate(request)), Some(from)) = (&ctx.facts, ctx.from)
    else {
        return;
    };
    // A copy on another HTTP stream is a broadcast: `http-no-broadcast`.
    if super::reported_as_broadcast(ctx, super::broadcast_from(ctx, request)) {
        return;
    }
    let mut diagnostic = ctx
        .diagnostic(
            &META,
            words!(
                "{} answers {} a second time",
                from,
                describe_request(from.peer(), request)
            ),
        )
        .with_request_id(request.id)
        .with_related(request.location, "the request");
    if let Some(first) = request.response {
        diagnostic = diagnostic.with_related(first, "first answered here");
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#;
    const RESULT: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "duplicate-response",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_an_error_after_a_result() {
        let error = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"failed"}}}"#;
        assert_eq!(check(&[CALL, RESULT, error]), [(6, Error)]);
    }

    #[test]
    fn fires_on_a_second_answer_after_a_cancellation() {
        // The first answer is response-after-cancel's.
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;
        assert_eq!(check(&[CALL, cancel, RESULT, RESULT]), [(7, Error)]);
    }

    #[test]
    fn silent_when_each_request_sharing_an_id_is_answered_once() {
        assert_eq!(check(&[CALL, CALL, RESULT, RESULT]), []);
    }

    #[test]
    fn silent_on_an_answer_with_the_id_as_a_string() {
        // response-unknown-id owns it.
        let string_id = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"1","result":{}}}"#;
        assert_eq!(check(&[CALL, RESULT, string_id]), []);
    }

    #[test]
    fn fires_when_the_client_answers_a_server_request_twice() {
        let roots = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"roots/list"}}"#;
        let answer = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"result":{"roots":[]}}}"#;
        assert_eq!(check(&[roots, answer, answer]), [(6, Error)]);
    }
}
