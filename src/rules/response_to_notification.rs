//! `response-to-notification`: a response that answers a notification.

use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::event::{Body, Outcome};
use crate::protocol::{fields, SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "response-to-notification",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a response answers a notification: a null-id reply no unreadable message justifies, or a success result to an id-bearing notifications/* message",
    quote: "The receiver MUST NOT send a response.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "send nothing in reply to a notification; a reply with a null id is only for an error about a message whose id could not be read, and a notifications/* method sent with an id gets an error such as -32601 Method not found, never a result",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Response(target), Some(from), Some(Body::Response { outcome, .. })) =
        (&ctx.facts, ctx.from, ctx.message.map(|m| &m.body))
    else {
        return;
    };
    let is_result = matches!(outcome, Outcome::Result { .. });
    match target {
        ResponseTarget::NullId => {
            let peer = ctx.session.side(from.peer());
            // A batch the receiver could not read has no id to answer with
            // (batch-receive-support grades that refusal in 2025-03-26).
            let peer_unreadable = peer
                .unreadable
                .last()
                .or(peer.unanswered_batch)
                .or(ctx.source_unreadable);
            if let (false, Some(_)) = (is_result, peer_unreadable) {
                return; // an error about a message whose id could not be read
            }
            let message = if is_result {
                words!(
                    "{} sends a success result with a null id; it can only answer a notification",
                    from
                )
            } else {
                words!("{} sends an error with a null id, but the {} sent no message whose id could not be read", from, from.peer())
            };
            let mut finding = ctx.diagnostic(&META, message);
            if !is_result && fields::ERROR_ID_EXCEPTION.covers(ctx.versions) {
                finding = finding.with_severity(Severity::Warning);
            }
            out.push(finding);
        }
        ResponseTarget::ToNotification(location) if is_result => {
            out.push(
                ctx.diagnostic(
                    &META,
                    words!(
                        "{} answers a notification sent with an id with a success result",
                        from
                    ),
                )
                .with_related(*location, "the notification, wrongly sent with an id"),
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const NULL_ID_ERROR: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "response-to-notification",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    /// A POST of `message` answered with `status` and a null-id error (the
    /// TypeScript SDK's DNS-rebinding protection answers 403 this way).
    fn rejected(message: serde_json::Value, status: u16) -> serde_json::Value {
        let error = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Invalid Host: evil.example:3000"},"id":null}"#;
        serde_json::json!({
            "request": {"method": "POST", "url": "http://localhost:3000/mcp", "postData": {"text": message.to_string()}},
            "response": {"status": status, "content": {"mimeType": "application/json", "text": error}},
        })
    }

    #[test]
    fn a_null_id_error_rejecting_a_post_with_an_error_status_answers_it() {
        use serde_json::json;
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
        let call =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo"}});
        let trace =
            crate::rules::testing::har(&[rejected(initialize, 403), rejected(call.clone(), 403)]);
        let rules: Vec<&str> = crate::lint_str(&trace).iter().map(|d| d.rule.id).collect();
        assert!(!rules.contains(&"response-to-notification"), "{rules:?}");
        assert!(!rules.contains(&"unanswered-request"), "{rules:?}");
        // With a success status the same body answers nothing.
        let trace = crate::rules::testing::har(&[rejected(call, 200)]);
        assert_eq!(findings("response-to-notification", &trace), [(2, Error)]);
    }

    #[test]
    fn fires_on_a_success_result_with_a_null_or_missing_id() {
        let lines = [
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":null,"result":{}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","result":{}}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error)]);
    }

    #[test]
    fn a_null_id_error_answers_one_unreadable_line_only() {
        assert_eq!(
            check(&["not json", NULL_ID_ERROR, NULL_ID_ERROR]),
            [(6, Warning)]
        );
    }

    #[test]
    fn silent_on_a_null_id_error_for_a_request_with_an_invalid_id() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}}"#,
            NULL_ID_ERROR,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_a_null_id_error_refusing_a_batch_but_not_on_a_second_one() {
        let lines = [
            r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"prompts/list"}]}"#,
            NULL_ID_ERROR,
            NULL_ID_ERROR,
        ];
        assert_eq!(check(&lines), [(6, Warning)]);
    }

    #[test]
    fn fires_on_a_result_to_a_notification_sent_with_an_id_but_not_on_an_error() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":5,"method":"notifications/roots/list_changed"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":5,"result":{}}}"#,
        ];
        assert_eq!(check(&lines), [(6, Error)]);
    }

    #[test]
    fn fires_on_a_null_id_error_when_no_line_was_unreadable() {
        let notification = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}}"#;
        assert_eq!(check(&[notification, NULL_ID_ERROR]), [(5, Warning)]);
    }

    /// Before 2025-11-25 the schema requires the id: an error; from it, the
    /// text allows a missing id where it could not be read: a warning.
    #[test]
    fn an_unexplained_null_id_error_is_an_error_until_2025_11_25() {
        let notification = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}}"#;
        let earlier = format!(
            "{}{notification}\n{NULL_ID_ERROR}",
            HANDSHAKE.replace("2025-11-25", "2025-06-18")
        );
        assert_eq!(findings("response-to-notification", &earlier), [(5, Error)]);
    }
}
