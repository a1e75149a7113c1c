//! `cancel-unknown-request`: a cancellation names an id its sender never issued.

use crate::diagnostic::Severity;
use crate::engine::{CancelTarget, Facts};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cancel-unknown-request",
    family: Family::Cancel,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a cancellation names a request id its sender never issued in this session",
    quote: "Cancellation notifications MUST only reference requests that: Were previously issued in the same direction; Are believed to still be in-progress",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "cancel only requests you sent and have not had an answer to, by their exact id (1 and \"1\" are different ids)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Cancel(CancelTarget::Unknown(id)), Some(from)) = (&ctx.facts, ctx.from) else {
        return;
    };
    let mut diagnostic = ctx
        .diagnostic(
            &META,
            words!(
                "{} cancels request {}, which it never sent in this session",
                from,
                id
            ),
        )
        .with_request_id(id);
    diagnostic = diagnostic.lowered_unless_proven(ctx, Severity::Info);
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Error, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#;

    #[test]
    fn fires_on_a_string_id_for_an_integer_request() {
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"1"}}}"#;
        let trace = format!("{HANDSHAKE}{CALL}\n{cancel}");
        assert_eq!(findings("cancel-unknown-request", &trace), [(5, Error)]);
    }

    #[test]
    fn silent_when_a_har_lists_the_cancellation_first_in_the_same_millisecond() {
        use crate::rules::testing::har;
        use serde_json::json;
        let post = |message: serde_json::Value, status: u16, answer: &str| {
            json!({
                "startedDateTime": "2025-06-01T10:00:00.000Z",
                "request": {"method": "POST", "url": "http://localhost/mcp", "postData": {"text": message.to_string()}},
                "response": {"status": status, "content": {"mimeType": "application/json", "text": answer}},
            })
        };
        let call =
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "slow"}});
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}});
        let trace = har(&[
            post(cancel, 202, ""),
            post(
                call,
                200,
                r#"{"jsonrpc":"2.0","id":5,"result":{"content":[]}}"#,
            ),
        ]);
        assert_eq!(findings("cancel-unknown-request", &trace), []);
    }

    #[test]
    fn info_when_the_trace_starts_mid_session() {
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}}"#;
        assert_eq!(findings("cancel-unknown-request", cancel), [(1, Info)]);
    }

    #[test]
    fn info_after_a_line_that_could_not_be_read() {
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}}"#;
        let trace = format!("{HANDSHAKE}not json\n{cancel}");
        assert_eq!(findings("cancel-unknown-request", &trace), [(5, Info)]);
    }

    #[test]
    fn silent_when_the_other_side_issued_the_id() {
        // cancel-wrong-direction owns it.
        let cancel = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;
        let trace = format!("{HANDSHAKE}{CALL}\n{cancel}");
        assert_eq!(findings("cancel-unknown-request", &trace), []);
    }
}
