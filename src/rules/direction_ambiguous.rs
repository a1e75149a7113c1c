//! `direction-ambiguous`: a bare JSON-RPC line whose sender cannot be inferred.

use crate::diagnostic::Severity;
use crate::engine::Facts;
use crate::protocol::Versions;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "direction-ambiguous",
    family: Family::Trace,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::MESSAGES,
    order_dependent: false,
    summary: "the sender of a bare JSON-RPC line cannot be inferred, so the line is not checked",
    quote: "",
    spec: None,
    help: "record the direction of each message (the canonical trace format's \"from\"), or make sure the trace holds the requests this message refers to",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    if let Facts::Ambiguous(reason) = &ctx.facts {
        out.push(ctx.diagnostic(
            &META,
            words!(
                "cannot tell which side sent this message ({}); it is not checked",
                reason
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{findings, HANDSHAKE};

    #[test]
    fn info_on_a_bare_ping_but_not_again_on_its_response() {
        let trace = [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ]
        .join("\n");
        assert_eq!(findings("direction-ambiguous", &trace), [(1, Info)]);
    }

    #[test]
    fn info_on_a_custom_method_and_on_a_response_matching_both_sides() {
        let trace = [
            r#"{"jsonrpc":"2.0","method":"notifications/custom"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ]
        .join("\n");
        assert_eq!(
            findings("direction-ambiguous", &trace),
            [(1, Info), (4, Info)]
        );
    }

    #[test]
    fn silent_when_the_sender_can_be_inferred() {
        let trace = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"roots/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#,
        ]
        .join("\n");
        assert_eq!(findings("direction-ambiguous", &trace), []);
    }

    #[test]
    fn silent_on_canonical_traces() {
        let ping = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#;
        assert_eq!(
            findings("direction-ambiguous", &format!("{HANDSHAKE}{ping}")),
            []
        );
    }

    #[test]
    fn info_on_a_custom_request_but_not_again_on_its_response() {
        let trace = [
            r#"{"jsonrpc":"2.0","id":"x-1","method":"acme/status"}"#,
            r#"{"jsonrpc":"2.0","id":"x-1","result":{"ok":true}}"#,
        ]
        .join("\n");
        assert_eq!(findings("direction-ambiguous", &trace), [(1, Info)]);
    }

    #[test]
    fn silent_on_progress_for_a_token_only_the_client_sent() {
        let trace = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"p1"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}"#,
        ]
        .join("\n");
        assert_eq!(findings("direction-ambiguous", &trace), []);
    }
}
