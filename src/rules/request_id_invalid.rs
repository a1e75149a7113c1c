//! `request-id-invalid`: a request whose id is not a string or an integer.

use crate::diagnostic::Severity;
use crate::event::{Body, JsonKind, KeyField};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "request-id-invalid",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a request id is null, fractional, boolean, an array or an object",
    quote: "Requests MUST include a string or integer ID. Unlike base JSON-RPC, the ID MUST NOT be null.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "use a string or an integer as the request id (integer 0 is valid)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(Body::Request {
        id: KeyField::Invalid(kind),
        method,
        ..
    }) = ctx.message.map(|m| &m.body)
    else {
        return;
    };
    if method.starts_with("notifications/") {
        return; // notification-with-id reports it
    }
    let what = match kind {
        JsonKind::Null => "null".to_string(),
        other => other.describe().to_string(),
    };
    out.push(ctx.diagnostic(
        &META,
        words!(
            "{} request {} has an id that is {}, not a string or integer",
            ctx.from.map_or("a", |s| s.as_str()),
            method,
            what
        ),
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "request-id-invalid",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_a_null_and_a_fractional_id() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":null,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1.5,"method":"roots/list"}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error)]);
    }

    #[test]
    fn fires_on_a_boolean_an_array_and_an_object_id() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":true,"method":"ping"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":[1],"method":"ping"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error), (6, Error)]);
    }

    #[test]
    fn silent_on_valid_ids() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"","method":"ping"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":-1,"method":"ping"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1e3,"method":"ping"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_a_notification_sent_with_a_null_id() {
        // notification-with-id owns it.
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":null,"method":"notifications/roots/list_changed"}}"#,
        ];
        assert_eq!(check(&lines), []);
    }
}
