//! `ping-empty-response`: the answer to a ping is not an empty result.

use crate::diagnostic::Severity;
use crate::event::{Body, Outcome};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "ping-empty-response",
    family: Family::Ping,
    default_severity: Severity::Error,
    versions: Versions::HANDSHAKE,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a ping is answered with a non-empty result (error) or with an error (warning)",
    quote: "The receiver MUST respond promptly with an empty response:",
    spec: Some(SpecPage::handshake("basic/utilities/ping")),
    help: "answer ping with \"result\": {} (only _meta may appear in it), whatever the state of the session",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(request) = ctx.facts.answered() else {
        return;
    };
    let Some(Body::Response { outcome, .. }) = ctx.message.map(|m| &m.body) else {
        return;
    };
    if request.method != "ping" {
        return;
    }
    let diagnostic = match outcome {
        Outcome::Result { .. } => {
            let result = ctx.message.and_then(|m| m.members.result.as_ref());
            let Some(extra) = super::members_besides_meta(result) else {
                return;
            };
            ctx.diagnostic(
                &META,
                words!(
                    "the result of ping {} is not empty: it has {}",
                    request.id,
                    extra
                ),
            )
        }
        Outcome::Error { .. } => ctx
            .diagnostic(
                &META,
                words!(
                    "ping {} is answered with an error, not an empty result",
                    request.id
                ),
            )
            .with_severity(Severity::Warning),
    };
    out.push(
        diagnostic
            .with_request_id(request.id)
            .with_related(request.location, "ping was sent here"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const PING: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":7,"method":"ping"}}"#;

    fn check(answer: &str) -> Vec<(u64, Severity)> {
        findings(
            "ping-empty-response",
            &format!("{HANDSHAKE}{PING}\n{answer}"),
        )
    }

    #[test]
    fn error_on_a_result_with_members_warning_on_an_error() {
        let pong = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":7,"result":{"status":"ok"}}}"#;
        assert_eq!(check(pong), [(5, Error)]);
        let error = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}}"#;
        assert_eq!(check(error), [(5, Warning)]);
    }

    #[test]
    fn silent_on_empty_results_and_meta() {
        assert_eq!(
            check(r#"{"from":"client","msg":{"jsonrpc":"2.0","id":7,"result":{}}}"#),
            []
        );
        let meta =
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":7,"result":{"_meta":{"trace":"a1"}}}}"#;
        assert_eq!(check(meta), []);
        // Before the handshake too, and not on answers to other requests.
        let early = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#;
        assert_eq!(
            findings("ping-empty-response", &format!("{early}\n{HANDSHAKE}")),
            []
        );
    }
}
